"""HiPhO (scorers/vlm/hipho.py) against VLMEvalKit's own HiPhODataset.evaluate at e8e78f05,
run on the synthetic archive in tests/data/vlmevalkit_hipho (see its README)."""

from __future__ import annotations

import json
import math
import shutil
import warnings
from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("pylatexenc")

from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import hipho

DATA = Path(__file__).parent / "data" / "vlmevalkit_hipho"
EXPECTED = json.loads((DATA / "expected_rows.json").read_text())
REPORTED = (
    "M/M_IPhO_2025.xlsx",
    "M/M_F_MA_2025.xlsx",
    "M/M_HiPhO_ALL.xlsx",
    "N/N_PanPhO_2024.xlsx",
    "N/N_EuPhO_2024.xlsx",
    "E/E_EuPhO_2025.xlsx",  # an inf point total: inf and NaN in the report
)
FILES = (*REPORTED, "F/F_NBPhO_2024.xlsx")

_cache: dict[str, object] = {}


def graded(name: str):
    if name not in _cache:
        _cache[name] = hipho.grade(read_result_table(DATA / name), all_subsets=name.endswith("HiPhO_ALL.xlsx"))
    return _cache[name]


def reference_report(name: str) -> Path:
    return DATA / name.replace(".xlsx", "_score.json")


@pytest.mark.parametrize("name", REPORTED)
def test_report_matches_reference_cell_by_cell(name):
    result = graded(name)
    theirs = json.loads(reference_report(name).read_text())
    if name.endswith("HiPhO_ALL.xlsx"):
        ours = dict(zip(result.report["key"].to_list(), result.report["value"].to_list()))
        flat = {"evaluation_type": theirs["evaluation_type"], "total_subsets": theirs["total_subsets"]}
        for sub, res in theirs["subset_results"].items():
            flat.update({f"subset_results|{sub}|{k}": v for k, v in res.items()})
        assert list(ours) == list(flat)  # the same keys in the same order (subsets in ALL_SUBSETS order)
        assert ours == {k: str(v) for k, v in flat.items()}
    else:
        (ours,) = result.report.to_dicts()
        assert list(ours) == list(theirs)
        for k, v in theirs.items():
            assert ours[k] == v or (math.isnan(ours[k]) and math.isnan(v)), k
    if not name.startswith("E/"):
        assert report_differences(result.report, read_report(reference_report(name))) == []
    # The run's other report holds the same values.
    twin = "_ALL_exact_matching_score.json" if name.endswith("HiPhO_ALL.xlsx") else "_exact_matching_score.json"
    assert json.loads((DATA / name.replace(".xlsx", twin)).read_text()) == theirs


@pytest.mark.parametrize("name", FILES)
def test_rows_match_reference(name):
    rows = graded(name).rows
    expected = EXPECTED[name]
    statuses = rows["status"].to_list()
    coarse = rows["coarse_grained_score"].to_list()
    top = rows["max_points"].to_list()
    reasons = rows["reason"].to_list()
    checked = unreproduced = 0
    for i, status in enumerate(statuses):
        want = expected.get(str(i))
        if want is None:  # HiPhO_ALL: a subset upstream skips
            assert status == "not_graded", i
        elif want == "FAIL":
            assert status == "excluded", (i, reasons[i])
        elif status == "unreproduced":
            assert reasons[i].startswith("the verifier evals"), (i, reasons[i])
            unreproduced += 1
        else:
            assert status == "ok", (i, reasons[i])
            assert coarse[i] == want["coarse"] and top[i] == want["points"], (i, coarse[i], want, reasons[i])
            checked += 1
    assert checked + unreproduced == sum(v != "FAIL" for v in expected.values())
    assert unreproduced == (6 if name.startswith("F/") else 0)  # only the mixed file has eval'd names


def test_counts_and_notes():
    ipho = graded("M/M_IPhO_2025.xlsx")
    assert ipho.stats["excluded_rows"] == 1 and ipho.stats["unreproduced_rows"] == 0
    assert "evaluate then raises ValueError" in ipho.stats["reference_error"] and "(1 raise, 0 of no" in ipho.stats["reference_error"]
    assert ipho.rows["status"][19] == "excluded" and "marking" in ipho.rows["reason"][19]
    fma = graded("M/M_F_MA_2025.xlsx")
    assert fma.stats["excluded_rows"] == 0 and fma.stats["reference_error"] is None
    assert fma.stats["accuracy"] == pytest.approx(36.5 / 58.5)
    all_ = graded("M/M_HiPhO_ALL.xlsx")
    assert all_.stats["not_graded_rows"] == 5 and all_.stats["excluded_rows"] == 1
    # The mixed file: rows whose answer text the verifier evals into one of its own names are
    # not reproduced, so its report is null rather than a guess.
    mixed = graded("F/F_NBPhO_2024.xlsx")
    assert mixed.stats["unreproduced_rows"] == 6, mixed.stats
    assert mixed.report.null_count().row(0) == (1,) * len(hipho.REPORT_KEYS)
    assert "not reproduced" in mixed.stats["reference_error"]


def test_reports_with_every_row_reproduced_would_match():
    # Same file, the unreproduced rows dropped from both sides: the totals agree.
    name = "F/F_NBPhO_2024.xlsx"
    frame = read_result_table(DATA / name)
    keep = [i for i, s in enumerate(graded(name).rows["status"].to_list()) if s != "unreproduced"]
    ours = hipho.grade(frame[keep]).report.to_dicts()[0]
    expected = EXPECTED[name]
    total = top = 0.0
    for i in keep:
        want = expected[str(i)]
        if want != "FAIL":
            total = round(total + want["coarse"], 2)
            top += want["points"]
    assert ours["coarse_grained_total_score"] == total and ours["max_possible_score"] == round(top, 2)


def test_registry_and_grade_many(tmp_path):
    b = benchmarks.for_dataset("IPhO_2025")
    assert b.name == "hipho" and b.grading == "rules" and b.report == "_exact_matching_score.json"
    assert benchmarks.for_dataset("HiPhO_ALL").name == "hipho-all"
    for name in ("EuPhO_2024", "APhO_2025", "PanMechanics_2025", "F_MA_2024", "NBPhO_2025", "PanPhO_2024"):
        assert benchmarks.for_dataset(name) is b
    assert benchmarks.for_dataset("APhO_2024") is None
    assert b.variant_on("2026-08-18") == "head"
    with pytest.raises(ValueError):
        b.variant_on("2025-11-30")  # 72be960f's main-thread version: not reproduced
    from gaia_fast.grading import many

    tree = tmp_path / "M"
    tree.mkdir()
    for stem in ("M_F_MA_2025", "M_IPhO_2025", "M_HiPhO_ALL"):
        shutil.copy(DATA / "M" / f"{stem}.xlsx", tree)
        # the score file evaluate writes for any result format (an xlsx run also has _score.json)
        twin = "_ALL_exact_matching_score.json" if stem.endswith("ALL") else "_exact_matching_score.json"
        shutil.copy(DATA / "M" / f"{stem}{twin}", tree)
    records = {r.dataset: r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"}
    assert set(records) == {"F_MA_2025", "IPhO_2025", "HiPhO_ALL"}
    for ds, r in records.items():
        assert r.status == "ok", (ds, r.error)
        assert r.archive_report is not None and r.archive_report.endswith("exact_matching_score.json")
    assert "left out of the totals" in records["IPhO_2025"].error
    for stem in ("M_F_MA_2025", "M_IPhO_2025", "M_HiPhO_ALL"):
        twin = "_ALL_exact_matching_score.json" if stem.endswith("ALL") else "_exact_matching_score.json"
        written = json.loads((tmp_path / "R" / "M" / f"{stem}{twin}").read_text())
        theirs = json.loads((DATA / "M" / f"{stem}_score.json").read_text())
        if stem.endswith("ALL"):
            # nested as upstream; its leaves are written as the report frame's text cells
            assert list(written) == list(theirs) and written["subset_results"].keys() == theirs["subset_results"].keys()
            assert written["subset_results"]["F_MA_2024"]["score_rate"] == str(theirs["subset_results"]["F_MA_2024"]["score_rate"])
        else:
            assert written == theirs


def _py_pi(s: str, pi: float):
    # what handle_pi does, with Python's own eval, on texts safe to eval
    i = s.find("pi")
    while i != -1:
        s = s[:i] + ("*" if i > 0 and s[i - 1].isdigit() else "1*") + f"{pi}" + s[i + 2 :]
        i = s.find("pi", i + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # "3(1*pi)": 'int' object is not callable
            return eval(s, {"__builtins__": {}})  # arithmetic texts written here
    except Exception:  # noqa: BLE001
        return s


@pytest.mark.parametrize(
    "text",
    ["2pi", "pi/2", "pi^2", "2^3pi", "pi**2", "1//2*pi", "pi%2", "(pi)", "3(pi)", "-pi", "~pi", "2pir", "r*pi", "pi/0",
     "²pi", "10**10000pi", "1e400*pi", "pi^2^3", "(-8)**(1/3)*pi", "pipi", "2.5pi", "0pi", "pi_2", "π"],
)  # fmt: skip
@pytest.mark.parametrize("pi", [math.pi, 3.14, 180])
def test_pi_eval_matches_python(text, pi):
    got = hipho._pi_value(text, pi)
    want = _py_pi(text, pi)
    assert type(got) is type(want) and (got == want or (isinstance(got, float) and math.isnan(got) and math.isnan(want)))


@pytest.mark.parametrize("text", ["max(pi,3)", "abs(-pi)", "pi.real", "pi<4", "(pi,2)", "'a'*pi", "not pi", "round(pi)"])
def test_pi_eval_of_defined_names_is_not_guessed(text):
    with pytest.raises(hipho._Unsupported):
        hipho._pi_value(text, math.pi)


def test_cells():
    assert hipho._list_cell(float("nan")) == [] and hipho._list_cell("") == [] and hipho._list_cell("nan") == []
    assert hipho._list_cell('["a", 1]') == ["a", 1] and hipho._list_cell("[not json") == ["[not json"]
    assert hipho._list_cell(" 3.5 ") == ["3.5"] and hipho._list_cell(2.0) == ["2.0"]
    assert hipho._points_cell(None) == [0.0] and hipho._points_cell(2) == [2.0] and hipho._points_cell("[1, null, 2]") == [1.0, 2.0]
    assert hipho._points_cell('["x", [1]]') == [0.0]  # ValueError first: the whole text, then 0
    assert hipho._points_cell("abc") == [0.0] and hipho._points_cell(" 1.5 ") == [1.5]
    with pytest.raises(hipho._RowFails):
        hipho._points_cell("[[1], 2]")  # float([1]) raises TypeError upstream
    assert hipho._criteria([[]]) == 0 and hipho._criteria(["", " "]) == 0 and hipho._criteria([["a"], []]) == 1
    assert hipho._criteria([[], [["b"]]]) == 1 and hipho._criteria([0, "0"]) == 1


def test_boxes():
    assert hipho._last_boxes(r"\boxed{1} x \boxed{2} y \boxed{3}", 2) == ["2", "3"]
    assert hipho._last_boxes(r"\boxed{1} \boxed{2", 2) == ["1"]  # the unclosed one is skipped
    assert hipho._last_boxes(r"\fbox{1}", 1) == [None] and hipho._last_boxes("none", 3) == []
    assert hipho._last_boxes(r"\boxed{a{b}c}", 1) == ["a{b}c"] and hipho._last_box(r"\boxed{1} \boxed{2") is None


def test_bad_input():
    with pytest.raises(ValueError, match="no 'answer' column"):
        hipho.grade(pl.DataFrame({"prediction": ["x"]}))
    with pytest.raises(ValueError, match="unknown HiPhO variant"):
        hipho.grade(pl.DataFrame({"prediction": ["x"], "answer": ["1"]}), variant="72be960f")


def test_xlsx_era_report_and_judge_run_archives(tmp_path):
    """Only _score.json beside the file: found and compared; a run with --judge (its
    fine-grained marks and xverify from an LLM) writes other numbers there: "differs", not ok."""
    from gaia_fast.grading import many

    tree = tmp_path / "J"
    tree.mkdir()
    shutil.copy(DATA / "M" / "M_IPhO_2025.xlsx", tree / "J_IPhO_2025.xlsx")
    shutil.copy(DATA / "M" / "M_IPhO_2025_score.json", tree / "J_IPhO_2025_score.json")
    shutil.copy(DATA / "M" / "M_F_MA_2025.xlsx", tree / "J_F_MA_2025.xlsx")
    judged = json.loads((DATA / "M" / "M_F_MA_2025_score.json").read_text())
    judged.update(fine_grained_total_score=12.5, fine_grained_score_rate=21.37, total_score=40.0, score_rate=68.38)
    (tree / "J_F_MA_2025_gpt-4o_score.json").write_text(json.dumps(judged, indent=4))
    (tree / "J_F_MA_2025_score.json").write_text(json.dumps(judged, indent=4))
    shutil.copy(DATA / "M" / "M_HiPhO_ALL.xlsx", tree / "J_HiPhO_ALL.xlsx")
    (tree / "J_HiPhO_ALL_score.json").write_text(json.dumps({"evaluation_type": "HiPhO_ALL", "total_subsets": 0, "subset_results": {}}))
    records = {r.dataset: r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"}
    assert records["IPhO_2025"].status == "ok" and records["IPhO_2025"].archive_report.endswith("J_IPhO_2025_score.json")
    # the judge's own score file names the run: another method, said as such
    assert records["F_MA_2025"].status == "other_method", records["F_MA_2025"].error
    assert "judge gpt-4o" in records["F_MA_2025"].error
    # no judge file, other numbers: differs
    assert records["HiPhO_ALL"].status == "differs", records["HiPhO_ALL"].error


def test_judge_run_is_found():
    from gaia_fast.scorers.vlm.recorded import find_records

    assert find_records(DATA / "M" / "M_IPhO_2025.xlsx", "hipho") is None  # exact_matching: the no-judge run
    assert find_records(DATA / "M" / "M_HiPhO_ALL.xlsx", "hipho") is None


def test_judge_run_names(tmp_path):
    from gaia_fast.scorers.vlm.recorded import find_records

    for stem, score in (("X_IPhO_2024", "X_IPhO_2024_gpt-4o_score.json"), ("X_HiPhO_ALL", "X_HiPhO_ALL_ALL_gpt-4.1_score.json")):
        (tmp_path / f"{stem}.xlsx").write_bytes(b"")
        (tmp_path / score).write_text("{}")
        (tmp_path / f"{stem}_exact_matching_score.json").write_text("{}")
        found = find_records(tmp_path / f"{stem}.xlsx", "hipho")
        assert found is not None and found.judge == ("gpt-4o" if "IPhO" in stem else "gpt-4.1")
        assert found.files == (tmp_path / score,)


JUDGED = ("J/J_IPhO_2025.xlsx", "J/J_HiPhO_ALL.xlsx")


def judged(name: str, records=None):
    from gaia_fast.scorers.vlm.recorded import find_records

    records = records if records is not None else find_records(DATA / name, "hipho")
    return hipho.grade(read_result_table(DATA / name), all_subsets=name.endswith("HiPhO_ALL.xlsx"), recorded=records)


@pytest.mark.parametrize("name", JUDGED)
def test_judge_run_replayed_from_its_records(name):
    """A run with a judge (run_reference.py's FakeJudge): the recorded per-row fine and coarse
    scores, checked against the rules, give the archive's report exactly."""
    result = judged(name)
    assert result.stats["record_disagreements"] == 0 and result.stats["decided"]["undecided"] == 0
    assert result.stats["decided"]["rules"] > 0 and result.stats["decided"]["recorded"] > 0
    theirs = json.loads(reference_report(name).read_text())
    assert report_differences(result.report, read_report(reference_report(name))) == []
    if not name.endswith("HiPhO_ALL.xlsx"):
        assert result.report.to_dicts() == [theirs] and theirs["fine_grained_total_score"] > 0
    rows = result.rows
    for i, want in EXPECTED[name].items():
        i = int(i)
        assert rows["status"][i] == "ok"
        assert (rows["fine_grained_score"][i], rows["coarse_grained_score"][i]) == (want["fine"], want["coarse"]), i


def test_judge_run_missing_and_contradicting_records():
    from gaia_fast.scorers.vlm.recorded import find_records

    name = "J/J_IPhO_2025.xlsx"
    records = find_records(DATA / name, "hipho")
    assert records.judge == "fakejudge" and len(records) == 45
    del records.entries["3"]
    first_ok = next(k for k, v in EXPECTED[name].items() if v["coarse"] and records.entries[k]["fine"] == 0)
    records.entries[first_ok] = {**records.entries[first_ok], "coarse": 0.0}  # less than the rules give
    result = judged(name, records)
    assert result.rows["status"][3] == "needs_judge" and result.stats["decided"]["undecided"] == 1
    assert result.rows["status"][int(first_ok)] == "disagrees" and result.stats["record_disagreement_indexes"] == [int(first_ok)]
    assert result.report.null_count().row(0) == (1,) * len(hipho.REPORT_KEYS)


def test_judge_run_through_grade_many(tmp_path):
    from gaia_fast.grading import many

    tree = tmp_path / "J"
    shutil.copytree(DATA / "J", tree)
    records = {r.dataset: r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R") if r.status != "skipped"}
    assert set(records) == {"IPhO_2025", "HiPhO_ALL"}
    for r in records.values():
        assert r.status == "ok", r.error
        assert r.decided_recorded and r.archive_report.endswith("_score.json")
