"""Yes / no family (MME, POPE, HallusionBench): VLMEvalKit's YOrN_Extraction natively and in
its twin, the three ratings, the archive's own per-row extraction (`_auxmatch.xlsx`) and
reports (`_score.csv`) of the VILA-1.5 8B sample tree, through the library and the CLI."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from _vlm_cli import grade_one_file
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gaia_fast import _native, benchmarks
from gaia_fast.cli import main
from gaia_fast.io.vlm import read_result_table
from gaia_fast.reference import vlm_yorn as twin
from gaia_fast.scorers.vlm import yorn

TREE = Path(__file__).parent / "data" / "vlmevalkit_tree" / "vila_8b"
DATASETS = {"MME": "mme", "POPE": "pope", "HallusionBench": "hallusionbench"}


def _score_csv(path: Path) -> pl.DataFrame:
    return pl.read_csv(path, infer_schema_length=0)


def _assert_report_equal(ours: pl.DataFrame, theirs: pl.DataFrame) -> int:
    """Every number of the archive's report, exactly; rows matched by ``split`` (the
    reference lists them in ``set`` order). Returns how many numbers were compared."""
    assert ours.columns == theirs.columns
    assert ours.height == theirs.height
    n = 0
    if "split" in theirs.columns:
        got = {row[0]: row for row in ours.iter_rows()}
        for row in theirs.iter_rows():
            mine = got[row[0]]
            for x, y in zip(mine[1:], row[1:]):
                assert float(x) == float(y), (row[0], x, y)
                n += 1
    else:
        for c in theirs.columns:
            assert float(ours[c][0]) == float(theirs[c][0]), (c, ours[c][0], theirs[c][0])
            n += 1
    return n


# --------------------------------------------------------------------------------------
# The archive: per-row extraction and reports
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dataset", list(DATASETS))
@pytest.mark.parametrize("variant", ["classic", "2025-05"])
def test_auxmatch_rows_and_score_csv(dataset, variant):
    frame = read_result_table(TREE / f"vila_8b_{dataset}.xlsx")
    result = yorn.grade(frame, benchmark=DATASETS[dataset], variant=variant)
    aux = pl.read_excel(TREE / f"vila_8b_{dataset}_auxmatch.xlsx", infer_schema_length=0)
    assert result.rows["index"].to_list() == aux["index"].to_list()
    assert result.rows["extracted"].to_list() == aux["extracted"].to_list()
    assert [("true" if s == 1.0 else "false") for s in result.rows["score"].to_list()] == aux["score"].to_list()
    # The twin agrees row by row too.
    preds = frame["prediction"].fill_null("nan").to_list()
    assert [twin.yorn_extract(p, variant) for p in preds] == aux["extracted"].to_list()
    n = _assert_report_equal(result.report, _score_csv(TREE / f"vila_8b_{dataset}_score.csv"))
    assert n == {"MME": 16, "POPE": 16, "HallusionBench": 36}[dataset]
    assert result.stats["reference_error"] is None
    assert result.stats["variant"] == variant
    assert result.rows.height == frame.height == result.stats["rows"]
    if dataset == "POPE":  # a row counts once per split, as the report's acc
        assert result.stats["tasks"] == 9000 and result.stats["accuracy"] * 100 == float(_score_csv(TREE / "vila_8b_POPE_score.csv")["acc"][0])
    else:
        assert result.stats["tasks"] == frame.height


def test_rows_keep_prediction_extracted_score_rule():
    frame = read_result_table(TREE / "vila_8b_HallusionBench.xlsx")
    rows = yorn.grade(frame, benchmark="hallusionbench").rows
    assert rows.columns[: len(frame.columns)] == frame.columns
    assert rows["prediction"].to_list() == frame["prediction"].to_list()
    assert set(rows["rule"].unique()) == {"yes", "no", "both", "neither"}
    unknown = rows.filter(pl.col("extracted") == "Unknown")
    assert unknown.height == 21 and set(unknown["status"]) == {"unknown"} and set(unknown["score"]) == {0.0}
    assert set(rows.filter(pl.col("extracted") != "Unknown")["status"]) == {"ok"}
    assert rows.filter(pl.col("rule") == "both")["reason"][0].startswith("both:")


def test_twin_ratings_equal_the_archive():
    frame = read_result_table(TREE / "vila_8b_MME.xlsx")
    ex = [twin.yorn_extract(p) for p in frame["prediction"].to_list()]
    score = [a == e for a, e in zip(frame["answer"].to_list(), ex)]
    values, error = twin.mme_rating(frame["category"].to_list(), frame["image_path"].to_list(), score)
    ref = _score_csv(TREE / "vila_8b_MME_score.csv")
    assert error is None and list(values) == ref.columns
    assert all(values[c] == float(ref[c][0]) for c in ref.columns)

    frame = read_result_table(TREE / "vila_8b_POPE.xlsx")
    ex = [twin.yorn_extract(p) for p in frame["prediction"].to_list()]
    score = [a == e for a, e in zip(frame["answer"].to_list(), ex)]
    rows = twin.pope_rating(frame["category"].to_list(), frame["answer"].to_list(), ex, score)
    ours = pl.DataFrame(rows)
    _assert_report_equal(ours, _score_csv(TREE / "vila_8b_POPE_score.csv"))

    frame = read_result_table(TREE / "vila_8b_HallusionBench.xlsx")
    ex = [twin.yorn_extract(p) for p in frame["prediction"].to_list()]
    score = [a == e for a, e in zip(frame["answer"].to_list(), ex)]
    rows, error = twin.hallusion_rating(frame["index"].to_list(), frame["category"].to_list(), frame["l2-category"].to_list(), score)
    assert error is None
    _assert_report_equal(pl.DataFrame(rows), _score_csv(TREE / "vila_8b_HallusionBench_score.csv"))


# --------------------------------------------------------------------------------------
# CLI and registry
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dataset", list(DATASETS))
def test_cli_one_file_writes_vlmevalkit_score_csv(dataset, tmp_path, monkeypatch):
    rows = grade_one_file(TREE / f"vila_8b_{dataset}.xlsx", tmp_path, monkeypatch)
    report = tmp_path / f"vila_8b_{dataset}_score.csv"
    _assert_report_equal(_score_csv(report), _score_csv(TREE / f"vila_8b_{dataset}_score.csv"))
    assert {"prediction", "extracted", "rule", "score", "status", "reason"} <= set(rows.columns)


def test_cli_tree_reports_equal(tmp_path, monkeypatch):
    root = tmp_path / "outputs" / "vila_8b"
    root.mkdir(parents=True)
    for dataset in DATASETS:
        for suffix in (".xlsx", "_auxmatch.xlsx", "_score.csv"):
            shutil.copy(TREE / f"vila_8b_{dataset}{suffix}", root)
    monkeypatch.chdir(tmp_path)
    reports = tmp_path / "reports"
    r = CliRunner().invoke(main, ["grade", str(tmp_path / "outputs"), "--json", "--report-dir", str(reports)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    import json

    payload = json.loads(r.stdout)
    archives = {a["dataset"]: a for a in payload["archives"]}
    assert set(archives) == set(DATASETS)
    for dataset, bench in DATASETS.items():
        a = archives[dataset]
        assert (a["benchmark"], a["status"], a["variant"]) == (bench, "ok", "classic")
        assert Path(a["report"]) == reports / "vila_8b" / f"vila_8b_{dataset}_score.csv"
        _assert_report_equal(_score_csv(Path(a["report"])), _score_csv(TREE / f"vila_8b_{dataset}_score.csv"))
    skipped = {Path(s["path"]).name for s in payload["skipped_files"]}
    assert {f"vila_8b_{d}_auxmatch.xlsx" for d in DATASETS} <= skipped


@pytest.mark.parametrize(
    ("name", "bench"),
    [("vila_8b_MME.xlsx", "mme"), ("m_POPE.tsv", "pope"), ("x_y_HallusionBench.xlsx", "hallusionbench")],
)
def test_detect(name, bench):
    found = benchmarks.detect(name)
    assert found is not None and found.benchmark.name == bench and found.benchmark.report == "_score.csv"


@pytest.mark.parametrize("name", ["m_MME-RealWorld.xlsx", "m_MMERealWorld.xlsx", "m_MME_auxmatch.xlsx", "m_MME_score.csv"])
def test_detect_not_yorn(name):
    found = benchmarks.detect(name)
    assert found is None or found.benchmark.name not in DATASETS.values()


# --------------------------------------------------------------------------------------
# Extraction: upstream's edge cases
# --------------------------------------------------------------------------------------

CASES = [
    # (output, classic, 2025-05, rule)
    ("Yes", "Yes", "Yes", "yes"),
    ("No, there is no car.", "No", "No", "no"),
    ("yes and no", "Unknown", "Unknown", "both"),
    ("The eyes are blue", "Unknown", "Unknown", "neither"),
    ("nan", "Unknown", "Unknown", "neither"),
    ("YES!", "Yes", "Yes", "yes"),
    ("Yes.", "Yes", "Yes", "yes"),
    ("(No)", "No", "No", "no"),
    ("yes/no", "Unknown", "Unknown", "both"),
    # '/' next to a space somewhere: every '/' is removed, "yes/no" becomes "yesno".
    ("yes/no / maybe", "Unknown", "Unknown", "neither"),
    # A digit-comma-digit anywhere removes every mark.
    ("yes/no, 1,000", "Unknown", "Unknown", "neither"),
    ("No\u001c", "No", "No", "no"),
    ("No\u200b", "Unknown", "Unknown", "neither"),
    ("\u0130s it? yes", "Yes", "Yes", "yes"),
    # Only the first 32 periods are removed; "1." counts among them only in classic.
    (". " * 32 + "yes.", "Unknown", "Unknown", "neither"),
    (". " * 31 + "yes.", "Yes", "Yes", "yes"),
    ("1. " * 32 + "yes.", "Unknown", "Yes", "neither"),
    ("Answer: 2.no", "Unknown", "Unknown", "neither"),
]


@pytest.mark.parametrize(("output", "classic", "v2025", "rule"), CASES)
def test_extraction_cases(output, classic, v2025, rule):
    assert yorn.yorn_extract_explained(output, "classic") == (classic, rule)
    assert yorn.yorn_extract(output, "2025-05") == v2025
    assert twin.yorn_extract_explained(output, "classic") == (classic, rule)
    assert twin.yorn_extract(output, "2025-05") == v2025


def test_process_punctuation_variants():
    text = "3.5. a.b 7."
    assert twin.process_punctuation(text, "classic") == "3.5 ab 7" == _native.yorn_process_punctuation(text, "classic")
    assert twin.process_punctuation(text, "2025-05") == "3.5. ab 7." == _native.yorn_process_punctuation(text, "2025-05")


def test_str_of_non_text_and_bad_variant():
    assert yorn.yorn_extract(None) == "Unknown"  # str(None) == "None"
    assert yorn.yorn_extract(float("nan")) == "Unknown"
    with pytest.raises(ValueError, match="unknown yes/no variant"):
        yorn.yorn_extract("yes", "head")
    with pytest.raises(ValueError, match="unknown yes/no variant"):
        twin.yorn_extract("yes", "head")


def test_lone_surrogate_goes_to_the_twin():
    assert _native.yorn_extract_explained("yes \ud800") == ("Yes", "yes")
    assert _native.yorn_process_punctuation("a.\ud800") == "a\ud800"


# --------------------------------------------------------------------------------------
# Native vs twin, hypothesis
# --------------------------------------------------------------------------------------

ATOMS = ["yes", "no", "Yes", "NO", " ", ".", ",", "1", "\u0661", "/", "-", "!", "?", "(", ")", "\n", "\u001c", "\u0130", "\u03a3", "eyes", "not", "1,0", "_"]
texts = st.lists(st.one_of(st.sampled_from(ATOMS), st.text(max_size=3)), max_size=40).map("".join)
variants = st.sampled_from(list(twin.VARIANTS))


@settings(max_examples=400, deadline=None)
@given(output=texts, variant=variants)
@example(output="1. " * 40 + "no", variant="classic")
def test_parity_atoms(output, variant):
    assert _native.yorn_extract_explained(output, variant) == twin.yorn_extract_explained(output, variant)
    assert _native.yorn_process_punctuation(output, variant) == twin.process_punctuation(output, variant)


@settings(max_examples=400, deadline=None)
@given(output=st.text(), variant=variants)
def test_parity_any_unicode(output, variant):
    assert _native.yorn_extract_explained(output, variant) == twin.yorn_extract_explained(output, variant)
    assert _native.yorn_process_punctuation(output, variant) == twin.process_punctuation(output, variant)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preds=st.lists(st.one_of(st.none(), texts), max_size=50), variant=variants)
def test_parity_column(preds, variant):
    codes = pl.Series(_native.yorn_arrow(pl.Series(preds, dtype=pl.String), variant)).to_list()
    want = [twin.yorn_extract_explained("nan" if p is None else p, variant)[1] for p in preds]
    assert [twin.RULES[c] for c in codes] == want


# Ratings: the product (polars) against the twin (plain Python) on random tables.

answers = st.sampled_from(["Yes", "No", None, "yes"])
preds_yn = st.sampled_from(["Yes", "No", "yes and no", "maybe", None])


def _frame(**cols) -> pl.DataFrame:
    return pl.DataFrame({k: pl.Series(v, dtype=pl.String) for k, v in cols.items()})


def _numbers_equal(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a == b or (math.isnan(a) and math.isnan(b))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.lists(st.tuples(st.sampled_from(["a,b", "a", "b", "c,a", None]), answers, preds_yn), min_size=1, max_size=40))
def test_pope_parity(data):
    cat, ans, pred = map(list, zip(*data))
    result = yorn.grade(_frame(category=cat, answer=ans, prediction=pred), benchmark="pope")
    ex = [twin.yorn_extract("nan" if p is None else p) for p in pred]
    score = [a == e for a, e in zip(ans, ex)]
    want = twin.pope_rating(cat, ans, ex, score)
    got = result.report.to_dicts()
    assert [g["split"] for g in got] == [w["split"] for w in want]
    for g, w in zip(got, want):
        assert all(_numbers_equal(g[k], float(w[k])) for k in ("Overall", "acc", "precision", "recall")), (g, w)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(
        st.tuples(st.sampled_from(["OCR", "count", "scene"]), st.sampled_from(["1.jpg", "2.jpg", "3.jpg"]), answers, preds_yn),
        min_size=1,
        max_size=40,
    ),
    full=st.booleans(),
)
def test_mme_parity(data, full):
    cat, img, ans, pred = map(list, zip(*data))
    if full:  # every category of both super-categories, two questions per image
        for c in twin.MME_SUPER["perception"] + twin.MME_SUPER["reasoning"]:
            cat += [c, c]
            img += ["z.jpg", "z.jpg"]
            ans += ["Yes", "No"]
            pred += ["Yes", "yes"]
    result = yorn.grade(_frame(category=cat, image_path=img, answer=ans, prediction=pred), benchmark="mme")
    ex = [twin.yorn_extract("nan" if p is None else p) for p in pred]
    want, error = twin.mme_rating(cat, img, [a == e for a, e in zip(ans, ex)])
    got = result.report.to_dicts()[0]
    assert list(got) == list(want)
    assert all(_numbers_equal(got[k], want[k]) for k in want), (got, want)
    assert (result.stats["reference_error"] is None) == (error is None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(
        st.tuples(
            st.sampled_from(["VD", "VS", None]),
            st.sampled_from(["VD_ocr", "VS_map"]),
            st.tuples(*[st.sampled_from(["0", "1"])] * 3),
            answers,
            preds_yn,
        ),
        min_size=1,
        max_size=40,
    )
)
def test_hallusion_parity(data):
    cat, l2, ids, ans, pred = map(list, zip(*data))
    index = [f"{c or 'X'}_{l}_{i}_{s}_{f}_{q}" for i, (c, l, (s, f, q)) in enumerate(zip(cat, l2, ids))]
    result = yorn.grade(_frame(index=index, category=cat, **{"l2-category": l2}, answer=ans, prediction=pred), benchmark="hallusionbench")
    ex = [twin.yorn_extract("nan" if p is None else p) for p in pred]
    want, error = twin.hallusion_rating(index, cat, l2, [a == e for a, e in zip(ans, ex)])
    assert error is None
    got = result.report.to_dicts()
    assert [g["split"] for g in got] == [w["split"] for w in want]
    for g, w in zip(got, want):
        assert all(_numbers_equal(g[k], w[k]) for k in ("aAcc", "fAcc", "qAcc")), (g, w)


# --------------------------------------------------------------------------------------
# Where the reference raises, bad input, the judge
# --------------------------------------------------------------------------------------


def test_mme_image_with_one_question_and_missing_category():
    frame = _frame(category=["OCR", "OCR", "count"], image_path=["a", "a", "b"], answer=["Yes", "No", "Yes"], prediction=["yes", "no", "yes"])
    result = yorn.grade(frame, benchmark="mme")
    assert "one question" in result.stats["reference_error"]
    row = result.report.to_dicts()[0]
    assert row["OCR"] == 200.0 and row["count"] is None and row["perception"] is None and row["reasoning"] is None
    values, error = twin.mme_rating(frame["category"].to_list(), frame["image_path"].to_list(), [True, True, True])
    assert "one question" in error and values["OCR"] == 200.0 and values["count"] is None


def test_hallusion_short_index_is_a_reference_error():
    frame = _frame(index=["VD_ocr_1_0_0_0", "VD_ocr_1"], **{"l2-category": ["VD_ocr", "VD_ocr"]}, answer=["Yes", "No"], prediction=["yes", "no"])
    result = yorn.grade(frame, benchmark="hallusionbench")
    assert "fewer than 6" in result.stats["reference_error"] and result.report.height == 0
    assert result.rows["score"].to_list() == [1.0, 1.0]
    assert "fewer than 6" in twin.hallusion_rating(frame["index"].to_list(), None, frame["l2-category"].to_list(), [True, True])[1]


def test_pope_explodes_categories_and_answer_is_case_sensitive():
    frame = _frame(category=["a,b", "a"], answer=["Yes", "yes"], prediction=["yes", "yes"])
    result = yorn.grade(frame, benchmark="pope")
    assert result.rows["score"].to_list() == [1.0, 0.0]
    report = {r["split"]: r for r in result.report.to_dicts()}
    assert list(report) == ["Overall", "a", "b"]
    assert report["Overall"]["acc"] == (2 / 3) * 100  # three exploded rows, two right
    assert report["a"]["acc"] == 50.0 and report["b"]["acc"] == 100.0
    assert report["a"]["precision"] == 50.0 and report["a"]["recall"] == 100.0


def test_missing_columns_and_bad_arguments():
    with pytest.raises(ValueError, match="'image_path'"):
        yorn.grade(_frame(category=["OCR"], answer=["Yes"], prediction=["yes"]), benchmark="mme")
    with pytest.raises(ValueError, match="'l2-category'"):
        yorn.grade(_frame(index=["a_b_c_d_e_f"], answer=["Yes"], prediction=["yes"]), benchmark="hallusionbench")
    with pytest.raises(ValueError, match="unknown yes/no benchmark"):
        yorn.grade(_frame(answer=["Yes"], prediction=["yes"]), benchmark="vqa2")
    with pytest.raises(ValueError, match="unknown yes/no variant"):
        yorn.grade(_frame(answer=["Yes"], prediction=["yes"]), benchmark="pope", variant="dcvlr")


def test_judge_reads_unknown_rows_only():
    asked = []

    def judge(prompt: str) -> str:
        asked.append(prompt)
        if "boom" in prompt:
            raise RuntimeError("down")
        return "Yes" if "maybe" in prompt else "Unknown"

    frame = _frame(
        question=["Is it red", "Is it blue", "Is it big", "Is it old"],
        answer=["Yes", "Yes", "No", "No"],
        prediction=["yes", "maybe", "hmm", "boom"],
    )
    rows = yorn.grade(frame, benchmark="pope", judge=judge).rows
    assert len(asked) == 3 and "Question: Is it blue?\nAnswer: maybe\nYour output: " in asked[0]
    assert rows["extracted"].to_list() == ["Yes", "Yes", "Unknown", "Unknown"]
    assert rows["rule"].to_list() == ["yes", "judge", "judge", "neither"]
    assert rows["status"].to_list() == ["ok", "ok", "unknown", "judge_error"]
    assert rows["score"].to_list() == [1.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="'question'"):
        yorn.grade(frame.drop("question"), benchmark="pope", judge=judge)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["yes", "no", "Yes", "NO", " ", ".", ",", "5", "\n", "x", "\ud800", "\udfff", "\ue000", "\U000f0000"]), max_size=10).map("".join))
def test_lone_surrogates_are_decided_natively_as_the_twin_does(text):
    from gaia_fast.reference import vlm_yorn as twin

    for variant in ("classic", "2025-05"):
        assert _native.yorn_extract_explained(text, variant) == twin.yorn_extract_explained(text, variant)
        assert _native.yorn_process_punctuation(text, variant) == twin.process_punctuation(text, variant)
