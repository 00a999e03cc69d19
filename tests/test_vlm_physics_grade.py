"""PHYSICS grading: SymPy equivalence through the worker pool, item scores of every
variant, PHYSIC_acc, statuses, and an end-to-end re-grade of real archive rows
(yale-nlp/Physics, 4 models) reproducing the recorded decisions."""

from __future__ import annotations

import collections
import json
import math
from pathlib import Path

import polars as pl
import pytest

from gaia_fast.math.pool import SympyPool
from gaia_fast.reference.vlm_physics import judge_prompt
from gaia_fast.scorers.vlm import physics as ph

DATA = Path(__file__).parent / "data"


def rows(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="module")
def pool():
    with SympyPool(workers=2, timeout=30.0, warm=("gaia_fast.math.physics",)) as p:
        yield p


def T(prompt: str) -> str:
    return "True"


def F(prompt: str) -> str:
    return "False"


# --- SymPy equivalence: every vector through the fast path + pool -------------------------


def test_equiv_vectors_through_the_pool(pool):
    # every curated pair and a quarter of the random ones (SymPy takes ~0.1 s a pair; the
    # fast-path pairs of every row are checked in test_vlm_physics.py)
    data = [r for i, r in enumerate(rows("physics_equiv_sympy.jsonl")) if r["origin"] == "curated" or i % 4 == 0]
    stats = {"fast_path": 0, "sympy": 0, "sympy_timeouts": 0}
    step = ph._SympyStep(pool, stats)
    pairs = [(r["pred"], r["gt"]) for r in data]
    step.resolve(pairs)
    bad = [(r["id"], r["pred"], r["gt"], step.get(p), r["sympy_result_8f07d6cf"]) for r, p in zip(data, pairs)
           if step.get(p).value != r["sympy_result_8f07d6cf"]]
    assert not bad, bad[:5]
    assert stats["fast_path"] > 0 and stats["sympy"] > 0
    assert not any(step.get(p).path == "timeout" for p in pairs)
    # head: True = equivalent without a judge; "llm" = the judge decides (text route or unproven)
    for r, p in zip(data, pairs):
        text = r["text_route_head"]
        assert (r["expected_head"] is True) == (not text and step.get(p).proven), r["id"]
        assert r["final_dcvlr_no_judge"] is False  # dcvlr: SymPy never decides, no judge


# --- item scores ------------------------------------------------------------------------

ITEMS = rows("physics_item.jsonl")
ITEM_FRAME = pl.DataFrame({"prediction": [r["prediction"] for r in ITEMS], "answer": [r["answer"] for r in ITEMS]})
CASES = [
    ("head", F, "expected_head_judge_false"),
    ("head", T, "expected_head_judge_true"),
    ("8f07d6cf", F, "expected_8f07d6cf_judge_false"),
    ("8f07d6cf", T, "expected_8f07d6cf_judge_true"),
    ("a039b677", F, "expected_8f07d6cf_judge_false"),
    ("a039b677", T, "expected_8f07d6cf_judge_true"),
    ("dcvlr", None, "expected_dcvlr_no_judge"),
    ("dcvlr", F, "expected_dcvlr_judge_false"),
    ("dcvlr", T, "expected_dcvlr_judge_true"),
]


@pytest.mark.parametrize(("variant", "judge", "key"), CASES)
def test_item_vectors(pool, variant, judge, key):
    res = ph.grade(ITEM_FRAME, variant=variant, judge=judge, pool=pool)
    got = res.rows["score"].to_list()
    bad = [(r["id"], r["prediction"], r["answer"], g, r[key]) for r, g in zip(ITEMS, got) if g != float(r[key])]
    assert not bad, bad[:5]
    assert res.rows.height == len(ITEMS)
    assert res.rows["status"].null_count() == 0 and res.rows["reason"].null_count() == 0
    if variant == "dcvlr":
        assert res.stats["fast_path"] == res.stats["sympy"] == 0  # the fork never reaches SymPy


def test_head_ground_truth_lists_match_vectors():
    for r in ITEMS:
        assert ph.head_ground_truths(r["answer"]) == r["head_gts"]


def test_default_variant(pool):
    df = pl.DataFrame({
        "prediction": ["so \\boxed{\\frac{1}{2}}", "\\boxed{a^{b^{c^{d}}}}", "\\boxed {7}", "\\boxed{2}", "\\boxed{10.2\\ \\text{eV}}", "x"],
        "answer": ["0.5", "a^{b^{c^{d}}}", "7", "[1, 2]", "10.2", "1"],
        "category": ["a", "a", "b", "b", "b", None],
    })
    res = ph.grade(df, pool=pool)
    assert res.rows["score"].to_list() == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0]
    assert res.rows["status"].to_list() == ["ok", "ok", "ok", "ok", "no_judge", "ok"]
    assert res.rows["extracted"].to_list()[1] == ["a^{b^{c^{d}}}"]
    assert "fast path" in res.rows["reason"][0]
    with_judge = ph.grade(df, pool=pool, judge=T)
    assert with_judge.rows["score"].to_list()[4] == 1.0 and with_judge.stats["judge_calls"] == 1
    rep = res.report.to_dicts()
    assert [r["Subject"] for r in rep] == ["Overall", "a", "b", None]
    assert rep[0] == {"Subject": "Overall", "tot": 6, "hit": 4.0, "acc": 4 / 6 * 100}


def test_statuses_never_raise(pool):
    df = pl.DataFrame({
        "prediction": [None, "", "\\boxed{\\boxed{}}", "\\boxed{1}", "\\boxed{1}", "\\boxed{x}"],
        "answer": ["1", "1", "1", None, "[x, y]", "y"],
    })
    head = ph.grade(df, variant="head", pool=pool, judge=F)
    assert head.rows["status"].to_list() == ["no_prediction", "no_prediction", "extract_error", "no_answer", "bad_answer", "ok"]
    assert head.rows["score"].to_list() == [0.0] * 6

    def boom(prompt: str) -> str:
        raise RuntimeError("API down")

    broken = ph.grade(df, variant="8f07d6cf", pool=pool, judge=boom)
    # 8f07d6cf takes "[x, y]" as one (unparseable) ground truth, so the judge is asked
    assert broken.rows["status"].to_list()[3:] == ["no_answer", "judge_error", "judge_error"]
    assert broken.rows["score"].to_list()[3:] == [0.0, 0.0, 0.0]
    # the message is in the reason, first; the failures are counted
    assert all(r.startswith("judge_error: RuntimeError: API down; ") for r in broken.rows["reason"].to_list()[4:])
    assert broken.stats["judge_failures"] == broken.stats["judge_calls"] == 2
    numeric = ph.grade(pl.DataFrame({"prediction": [5, None], "answer": ["5", "5"]}), variant="8f07d6cf", pool=pool)
    assert numeric.rows["status"].to_list() == ["no_prediction", "no_prediction"]
    with pytest.raises(ValueError):
        ph.grade(df, variant="nope")


def test_failed_judge_calls_are_asked_again_later_in_the_run(pool):
    """A prompt that failed is not remembered: a row that reaches it in a later round asks
    the judge again (a success is remembered: asked once)."""
    calls: list[str] = []

    def flaky(prompt: str) -> str:
        calls.append(prompt)
        if "\\text{b}" in prompt:
            if sum("\\text{b}" in c for c in calls) == 1:
                raise RuntimeError("blip")
            return "True"
        return "False"

    # round 1: row 0 asks (a, g) -> False, row 1 asks (b, g) -> fails;
    # round 2: row 0 moves on to (b, g) and asks again -> True
    df = pl.DataFrame({"prediction": ["\\boxed{\\text{a}} \\boxed{\\text{b}}", "\\boxed{\\text{b}}"], "answer": ["g", "g"]})
    res = ph.grade(df, pool=pool, judge=flaky)
    assert res.rows["status"].to_list() == ["ok", "judge_error"]
    assert res.rows["score"].to_list() == [1.0, 0.0]
    assert len(calls) == 3 and res.stats["judge_failures"] == 1
    assert res.rows["reason"][1].startswith("judge_error: RuntimeError: blip; ")


def test_timeouts_are_recorded(pool):
    df = pl.DataFrame({"prediction": ["\\boxed{\\sin^2 x + \\cos^2 x}"], "answer": ["1"]})
    res = ph.grade(df, variant="head", pool=pool, judge=T, standardize_timeout=1e-4)
    assert res.rows["status"].to_list() == ["timeout"]
    assert res.rows["score"].to_list() == [1.0]  # as upstream: the judge decides
    assert res.stats["sympy_timeouts"] == 1
    assert pool.map(ph._sym.standardize, [("1",)])[0].status == "ok"  # the pool still works


def test_empty_frame(pool):
    empty = pl.DataFrame({"prediction": [], "answer": []}, schema={"prediction": pl.String, "answer": pl.String})
    for variant in ph.VARIANTS:
        res = ph.grade(empty, variant=variant, pool=pool)
        assert res.rows.height == 0 and res.stats["rows"] == 0


def test_physics_equal(pool):
    assert ph.physics_equal("\\frac{1}{2}", "0.5", pool=pool) is True
    assert ph.physics_equal("x^2+2x+1", "(x+1)^2", pool=pool) is True
    assert ph.physics_equal("0.1+0.2", "0.3", pool=pool) is False
    assert ph.physics_equal("10.2\\ \\text{eV}", "10.2", pool=pool) is False
    assert ph.physics_equal("10.2\\ \\text{eV}", "10.2", judge=T, pool=pool) is True
    assert ph.physics_equal(" 7 ", "7") is True  # identical after stripping: no SymPy needed
    assert ph.extract_boxed("\\boxed{\\boxed{}}", "physics-final") is None


# --- report -------------------------------------------------------------------------------


def test_report_vectors():
    bad = []
    for r in rows("physics_report.jsonl"):
        cats = [x["category"] for x in r["rows"]] if all("category" in x for x in r["rows"]) else None
        for key, field, double in (("expected_head", "res_frac", True), ("expected_8f07d6cf", "res_bool", True), ("expected_dcvlr", "res_bool", False)):
            got = ph.report([float(x[field]) for x in r["rows"]], cats, double_overall=double).to_dicts()
            if got != r[key]:
                bad.append((r["id"], key, got, r[key]))
    assert not bad, bad[:3]


# --- real archive rows (yale-nlp/Physics, 4 models) ---------------------------------------

REAL = rows("physics_realdata_small.jsonl")


def replay_judge(items: list[dict]):
    """Answers each prompt with the archive's recorded LLM results, in recorded order;
    an unrecorded prompt raises (the row would show judge_error)."""
    queues: dict[str, collections.deque] = collections.defaultdict(collections.deque)
    for r in items:
        for e in r["equivalency_results"]:
            if e["llm_result"] is not None:
                queues[judge_prompt(e["expr1"], e["expr2"])].append(bool(e["llm_result"]))

    def judge(prompt: str) -> str:
        return "True" if queues[prompt].popleft() else "False"

    return judge, queues


@pytest.mark.parametrize("model", sorted({r["model"] for r in REAL}))
def test_realdata_regrade_reproduces_the_archive(pool, model):
    items = [r for r in REAL if r["model"] == model]
    judge, queues = replay_judge(items)
    df = pl.DataFrame(
        {"prediction": [r["solution"] for r in items], "answer": [r["gt_final_answers"] for r in items]},
        schema={"prediction": pl.String, "answer": pl.List(pl.String)},
    )
    res = ph.grade(df, variant="yale", judge=judge, pool=pool, judge_cache=False, judge_concurrency=1)
    assert res.rows["extracted"].to_list() == [r["archive_final_answers"] for r in items]
    assert res.rows["score"].to_list() == [r["archive_accuracy"] for r in items]
    assert set(res.rows["status"].to_list()) == {"ok"}
    # every recorded judge call was made, and no other: SymPy decided exactly the pairs it
    # decided in the archive
    assert all(not q for q in queues.values())
    rec = [e for r in items for e in r["equivalency_results"]]
    assert res.stats["pair_events"]["sympy"] + res.stats["pair_events"]["sympy_fast"] == sum(e["sympy_result"] is True for e in rec)
    np = pytest.importorskip("numpy")
    accs = [r["archive_accuracy"] for r in items]
    (rep,) = res.report.to_dicts()
    assert rep["Overall Accuracy"] == math.fsum(accs) / len(accs)
    assert rep["Variance"] == float(np.var(accs, ddof=1))
    decided = sum(e["sympy_result"] is not None for e in rec)
    wrong = sum(e["sympy_result"] is False and bool(e["final_result"]) for e in rec)
    if decided:
        assert rep["Sympy Error Correct Ratio"] == wrong / decided
    else:
        assert math.isnan(rep["Sympy Error Correct Ratio"])
