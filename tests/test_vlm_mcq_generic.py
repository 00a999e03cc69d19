"""The generic VLMEvalKit multiple-choice benchmarks: ``mcq`` (vanilla flow), ``mmt-bench``
(``report_acc_MMT``) and ``mcq-circular``. Real archives must give their own ``_acc.csv``;
the native-backed flows must agree with the pure-Python twins row for row."""

from __future__ import annotations

import math
import random
from pathlib import Path

import polars as pl
import pytest

from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.reference import vlm_mcq as twin
from gaia_fast.scorers.vlm import mcq

TREE = Path(__file__).parent / "data" / "vlmevalkit_tree" / "vila_8b"
VANILLA = ("MMStar", "RealWorldQA", "ScienceQA_VAL")


def _cells_equal(ours: pl.DataFrame, theirs: pl.DataFrame) -> None:
    assert ours.columns == theirs.columns
    assert ours.height == theirs.height
    for c in ours.columns:
        for a, b in zip(ours[c].to_list(), theirs[c].to_list()):
            if c == "split":
                assert str(a) == b
            elif b in (None, ""):
                assert a is None or math.isnan(a)
            else:
                assert a == float(b), (c, a, b)


@pytest.mark.parametrize("dataset", VANILLA)
def test_vanilla_archives_reproduce_their_acc_csv(dataset):
    frame = read_result_table(TREE / f"vila_8b_{dataset}.xlsx")
    result = mcq.grade(frame, benchmark="mcq")
    assert result.stats["variant"] == "classic"
    _cells_equal(result.report, pl.read_csv(TREE / f"vila_8b_{dataset}_acc.csv", infer_schema_length=0))


def test_circular_archive_reproduces_its_acc_csv():
    frame = read_result_table(TREE / "vila_8b_CCBench.xlsx")
    result = mcq.grade(frame, benchmark="mcq-circular")
    _cells_equal(result.report, pl.read_csv(TREE / "vila_8b_CCBench_acc.csv", infer_schema_length=0))
    assert result.stats["questions"] == 510 and result.stats["rows"] == 2040
    assert result.stats["rotations"] == {4: 510}
    # Graded as independent rows the same file scores far higher: circular is not vanilla.
    assert mcq.grade(frame, benchmark="mcq").stats["accuracy"] > result.stats["accuracy"] + 0.1


def _records(frame: pl.DataFrame) -> list[dict]:
    rows = []
    for r in frame.iter_rows(named=True):
        rows.append({k: v for k, v in r.items()})
    return rows


@pytest.mark.parametrize("dataset", VANILLA)
@pytest.mark.parametrize("variant", ["classic", "2025-08", "2026-06"])
def test_vanilla_flow_matches_twin_row_by_row(dataset, variant):
    frame = read_result_table(TREE / f"vila_8b_{dataset}.xlsx")
    result = mcq.grade(frame, benchmark="mcq", variant=variant)
    letters = [c for c in frame.columns if len(c) == 1 and c.isupper()]
    twin_rows = []
    for r in frame.iter_rows(named=True):
        item = twin.livexivvqa_item(r["prediction"], {ch: r[ch] for ch in letters}, r["answer"], variant=variant)
        twin_rows.append(item)
    assert result.rows["extracted"].to_list() == [t["opt"] for t in twin_rows]
    assert result.rows["score"].to_list() == [float(t["hit"]) for t in twin_rows]
    rep = twin.report_acc(
        [{"hit": t["hit"], **({"split": r["split"]} if "split" in r else {}), **({"category": r["category"]} if "category" in r else {})}
         for t, r in zip(twin_rows, frame.iter_rows(named=True))]
    )
    assert result.report.columns == ["split", *rep.columns]
    for row in result.report.iter_rows(named=True):
        assert {c: row[c] for c in rep.columns} == pytest.approx(rep.by_split[row["split"]], nan_ok=True, rel=0, abs=0)


def _circular_rows(frame: pl.DataFrame) -> list[dict]:
    out = []
    for r in frame.iter_rows(named=True):
        d = dict(r)
        d["index"] = int(d["index"])
        out.append(d)
    return out


def test_circular_flow_matches_twin_on_the_archive():
    frame = read_result_table(TREE / "vila_8b_CCBench.xlsx")
    for variant in ("classic", "dcvlr"):
        result = mcq.grade(frame, benchmark="mcq-circular", variant=variant)
        verdicts = twin.mcq_circular_eval(_circular_rows(frame), variant=variant)
        rows = result.rows.with_columns(pl.col("index").cast(pl.Int64))
        main = rows.filter(pl.col("index") < 1_000_000)
        assert {i: int(s) for i, s in zip(main["index"], main["score"])} == {i: v["hit"] for i, v in verdicts.items()}
        # every rotation carries its question's verdict
        by_group = dict(zip(main["index"], main["score"]))
        assert all(by_group[g] == s for g, s in zip(rows["circular_group"], rows["score"]))


def _random_circular(rng: random.Random, n_questions: int) -> pl.DataFrame:
    letters = "ABCD"
    texts = ["cat", "dog", "bird", "fish", "Z", "cow"]
    preds = ["A", "B", "C", "D", "Z", "the dog", "no idea", "A or B", "Cannot determine the answer", "cow", None]
    rows = []
    for q in range(n_questions):
        k = rng.choice([2, 3, 4])
        opts = rng.sample(texts, k)
        answer = rng.randrange(k)
        rotations = rng.choice([1, k, k])
        for r in range(rotations):
            if rng.random() < 0.05:
                continue  # a missing rotation
            rot = opts[r:] + opts[:r]
            row = {ch: (rot[i] if i < k else None) for i, ch in enumerate(letters)}
            row["answer"] = letters[(answer - r) % k]
            row["prediction"] = rng.choice(preds) if rng.random() < 0.6 else row["answer"]
            row["index"] = str(q + r * 1_000_000)
            row["question"] = f"Which animal {q}?"
            rows.append(row)
    # orphans: rotations of questions with no row of their own
    rows.append({"A": "x", "B": "y", "C": None, "D": None, "answer": "A", "prediction": "A", "index": str(7_000_000 + n_questions + 5), "question": "q"})
    rng.shuffle(rows)
    return pl.DataFrame(rows, schema={c: pl.String for c in ["A", "B", "C", "D", "answer", "prediction", "index", "question"]})


class _Judge:
    """A deterministic judge: replies from a fixed list by a hash of the prompt."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies

    def __call__(self, prompt: str) -> str:
        return self.replies[sum(prompt.encode()) % len(self.replies)]


@pytest.mark.parametrize("seed", range(6))
def test_circular_flow_matches_twin_on_random_groups(seed):
    rng = random.Random(seed)
    frame = _random_circular(rng, 60)
    judge = _Judge(["B", "Z", "I think it is A", "Failed to obtain answer via API", "no", "C"]) if seed % 2 else None
    result = mcq.grade(frame, benchmark="mcq-circular", variant="classic", judge=judge, seed=seed)
    verdicts = twin.mcq_circular_eval(_circular_rows(frame), variant="classic", judge=judge, seed=seed)
    rows = result.rows.with_columns(pl.col("index").cast(pl.Int64))
    main = rows.filter(pl.col("index") < 1_000_000)
    ours = {i: (None if st == "error" else int(s)) for i, s, st in zip(main["index"], main["score"], main["status"])}
    assert ours == {i: v["hit"] for i, v in verdicts.items()}
    assert rows.filter(pl.col("index") >= 7_000_000)["status"].to_list() == ["not_counted"]
    ok = [v for v in verdicts.values() if v["hit"] is not None]
    assert result.stats["questions"] == len(ok)
    assert result.stats["correct"] == sum(v["hit"] for v in ok)
    no_fb = sum(v["hit"] for v in ok if not v["fallback"]) / len(ok)
    assert result.stats["accuracy_no_fallback"] == pytest.approx(no_fb, rel=0, abs=1e-15)
    if judge is None:
        assert "judge_right" not in result.stats["routes"]


def test_circular_bad_index_is_named():
    frame = pl.DataFrame({"index": ["1", "x2"], "prediction": ["A", "B"], "answer": ["A", "B"], "A": ["a", "a"], "B": ["b", "b"]})
    with pytest.raises(ValueError, match=r"row 3: index 'x2' is not an integer"):
        mcq.grade(frame, benchmark="mcq-circular")
    frame = pl.DataFrame({"index": ["1", "1"], "prediction": ["A", "B"], "answer": ["A", "B"], "A": ["a", "a"], "B": ["b", "b"]})
    with pytest.raises(ValueError, match="index 1 occurs more than once"):
        mcq.grade(frame, benchmark="mcq-circular")


def _random_mmt(rng: random.Random, n: int, l2: list[str]) -> pl.DataFrame:
    cats = {a: [f"{a}_task{i}" for i in range(rng.randint(1, 3))] for a in l2}
    rows = []
    for i in range(n):
        a = rng.choice(l2)
        rows.append(
            {
                "index": str(rng.randrange(10**6)),
                "l2-category": a,
                "category": rng.choice(cats[a]),
                "split": rng.choice(["VAL", "TEST"]),
                "A": "x",
                "B": "y",
                "answer": rng.choice("AB"),
                "prediction": rng.choice(["A", "B", "?"]),
            }
        )
    return pl.DataFrame(rows)


@pytest.mark.parametrize("seed", range(4))
def test_mmt_report_matches_twin(seed):
    rng = random.Random(seed)
    frame = _random_mmt(rng, 400, list(twin.MMT_ABBRS))
    result = mcq.grade(frame, benchmark="mcq", report="mmt")
    hits = result.rows["score"].cast(pl.Int64).to_list()
    recs = [{**r, "hit": h, "index": int(r["index"])} for r, h in zip(frame.iter_rows(named=True), hits)]
    recs.sort(key=lambda r: r["index"])  # upstream reloads the results sorted by index
    labels, res = twin.report_acc_mmt(recs)
    assert res is not None
    assert result.report["split"].to_list() == labels
    assert result.report.columns == ["split", *res]
    for c, values in res.items():
        assert result.report[c].to_list() == pytest.approx(values, rel=0, abs=0, nan_ok=True), c


def test_mmt_report_missing_l2_is_the_reference_error():
    frame = _random_mmt(random.Random(9), 50, ["ocr", "counting"])
    result = mcq.grade(frame, benchmark="mcq", report="mmt")
    assert "same length" in result.stats["reference_error"]
    _, res = twin.report_acc_mmt([{**r, "hit": 1} for r in frame.iter_rows(named=True)])
    assert res is None


@pytest.mark.parametrize(
    ("name", "benchmark", "dataset"),
    [
        ("outputs/vila_8b/vila_8b_MMStar.xlsx", "mcq", "MMStar"),
        ("m/m_SEEDBench_IMG.tsv", "mcq", "SEEDBench_IMG"),
        ("m/m_AI2D_TEST.xlsx", "mcq", "AI2D_TEST"),
        ("m/m_ScienceQA_TEST.csv", "mcq", "ScienceQA_TEST"),
        ("m/m_MMT-Bench_VAL.xlsx", "mmt-bench", "MMT-Bench_VAL"),
        ("m/m_CCBench.xlsx", "mcq-circular", "CCBench"),
        ("m/m_MMBench_DEV_EN_V11.xlsx", "mcq-circular", "MMBench_DEV_EN_V11"),
        ("m/m_MMBench_TEST_CN.tsv", "mcq-circular", "MMBench_TEST_CN"),
        ("m/m_BLINK_circular.xlsx", "mcq-circular", "BLINK_circular"),
        ("m/m_BLINK.xlsx", "mcq", "BLINK"),
        ("x/my_model_v2_MMStar.xlsx", "mcq", "MMStar"),
    ],
)
def test_detect(name, benchmark, dataset):
    found = benchmarks.detect(name)
    assert found is not None and (found.benchmark.name, found.dataset) == (benchmark, dataset)


def test_detect_skips_evaluation_outputs_and_names_unsupported():
    for name in ("m/m_MMStar_acc.csv", "m/m_MMBench_DEV_EN_openai_result.xlsx", "m/m_MME_auxmatch.xlsx", "m/m_MME_score.csv", "m/x.pkl"):
        assert benchmarks.detect(name) is None
        assert benchmarks.non_result(name) is not None
    assert benchmarks.detect("m/m_MMBench_Video.xlsx") is None
    assert benchmarks.non_result("m/m_MMStar.xlsx") is None
    model, dataset, reason = benchmarks.unsupported("vila_8b/vila_8b_BMMR.xlsx")
    assert (model, dataset) == ("vila_8b", "BMMR") and "math_equal" in reason
    # a listed name is named whatever folder it is in
    model, dataset, reason = benchmarks.unsupported("elsewhere/vila_8b_BMMR_mini.xlsx", listed_only=True)
    assert (model, dataset) == ("vila_8b", "BMMR_mini") and "math_equal" in reason
    model, dataset, reason = benchmarks.unsupported("m/m_TreeBench.xlsx")
    assert (model, dataset) == ("m", "TreeBench") and "raises TypeError" in reason
    assert benchmarks.unsupported("vila_8b/vila_8b_NewBench.xlsx")[1] == "NewBench"
    assert benchmarks.unsupported("elsewhere/results.csv") is None
