"""The EASI spatial_bench families against reports VLMEvalKit's own evaluate wrote
(tests/data/vlmevalkit_spatial/README.md): VsiSuperCount's rules and the recorded LLM
grades of the MCQ sets, cell by cell."""

from __future__ import annotations

import json
import math
import pickle
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import spatial
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_spatial"
JUDGE = "llm_gpt-4o-mini"
MCQ = [
    ("SynthModel_MindCubeBench_raw_qa", "mindcubebench"),
    ("SynthModel_MMSIVideoBench", "mmsivideobench"),
    ("SynthModel_Spatial-DISE", "spatialdise"),
]


def _same_report(ours: pl.DataFrame, theirs_path: Path) -> None:
    theirs = read_report(theirs_path)
    assert ours.columns == theirs.columns
    assert ours.height == theirs.height
    assert report_differences(ours, theirs) == []
    # Exact, not only within tolerance: both are the same floats (or the same %.4f text).
    for c in ours.columns:
        assert ours[c].to_list() == theirs[c].to_list(), c


def test_vsisupercount_report_matches_vlmevalkit():
    path = DATA / "SynthModel_VsiSuperCount_10mins.xlsx"
    res = spatial.grade(read_result_table(path), benchmark="vsisupercount")
    _same_report(res.report, DATA / "SynthModel_VsiSuperCount_10mins_extract_matching_acc.csv")
    assert res.report["metric"].to_list()[0] == "overall"
    assert res.stats["decided"] == {"rules": 40, "recorded": 0, "live": 0, "undecided": 0}
    assert res.stats["reference_error"] is None


def test_vsisupercount_rows_match_vlmevalkit():
    path = DATA / "SynthModel_VsiSuperCount_10mins.xlsx"
    res = spatial.grade(read_result_table(path), benchmark="vsisupercount")
    ref = pl.read_excel(DATA / "SynthModel_VsiSuperCount_10mins_extract_matching.xlsx")
    ref = ref.sort("index")
    ours = res.rows.with_columns(pl.col("index").cast(pl.Int64)).sort("index")
    assert ours["index"].to_list() == ref["index"].to_list()
    assert ours["score"].to_list() == ref[spatial.MRA_KEY].cast(pl.Float64).to_list()
    want = [None if v is None else float(v) for v in ref["pred_extracted"].to_list()]
    got = [None if v is None else float(v) for v in ours["extracted"].to_list()]
    assert got == want
    assert set(ours["status"]) == {"ok", "no_answer", "bad_truth"}


@pytest.mark.parametrize(("text", "want"), [
    ("twenty one", 1.0),  # "twenty" and "one" become two numbers; the last wins
    ("<answer> 8 apples </answer>", 8.0),
    ("<think>3 or 4</think> 5", 5.0),
    ("3 </think> there are four", 4.0),
    ("[41, 2]", 41.0),
    ("[]", None),
    ("[1,", 1.0),
    ("1,000", 0.0),
    ("no idea", None),
    ("nan", None),
    (".5e1", 5.0),
    ("8\u200b", 8.0),
])
def test_can_match_na(text, want):
    assert spatial.can_match_na(text) == want


def test_mean_relative_accuracy_thresholds():
    assert spatial.mean_relative_accuracy(12, 12) == 1.0
    assert spatial.mean_relative_accuracy(8, 7) == 0.8  # err 1/7 passes 1 - .5 ... 1 - .85
    assert spatial.mean_relative_accuracy(0.3, 0.0) == 0.5  # target 0: the absolute error
    assert spatial.mean_relative_accuracy(-2, 2) == 0.0
    assert spatial.mean_relative_accuracy(11, 20) == 0.1  # err .45 passes only 1 - .5


def test_vsisupercount_missing_question_type_is_a_reference_error():
    frame = pl.DataFrame({"index": ["1", "2"], "answer": ["3", "4"], "question_type": ["a", None], "prediction": ["3", "4"]})
    res = spatial.grade(frame, benchmark="vsisupercount")
    assert "TypeError upstream" in res.stats["reference_error"]
    assert res.report["metric"].to_list() == ["overall", f"a_{spatial.MRA_KEY}"]


@pytest.mark.parametrize(("stem", "bench"), MCQ)
def test_mcq_report_matches_vlmevalkit(stem, bench):
    path = DATA / f"{stem}.xlsx"
    records = find_records(path, "spatial")
    assert records is not None and records.judge == JUDGE
    assert [p.name for p in records.files] == [f"{stem}_{JUDGE}.xlsx", f"{stem}_{JUDGE}_judge.pkl"]
    res = spatial.grade(read_result_table(path), benchmark=bench, recorded=records)
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")
    n = res.rows.height
    assert res.stats["decided"] == {"rules": 0, "recorded": n, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] is True
    ref = pl.read_excel(DATA / f"{stem}_{JUDGE}.xlsx", infer_schema_length=0)
    grades = dict(zip(ref["index"].to_list(), ref["judge_grade"].to_list()))
    hits = dict(zip(ref["index"].to_list(), ref["hit"].to_list()))
    for row in res.rows.iter_rows(named=True):
        assert row["judge_grade"] == grades[row["index"]]
        assert row["score"] == float(hits[row["index"]])


def test_mcq_from_the_cache_alone(tmp_path):
    stem = "SynthModel_MindCubeBench_raw_qa"
    for name in (f"{stem}.xlsx", f"{stem}_{JUDGE}_judge.pkl"):
        shutil.copy(DATA / name, tmp_path / name)
    records = find_records(tmp_path / f"{stem}.xlsx", "spatial")
    assert [p.name for p in records.files] == [f"{stem}_{JUDGE}_judge.pkl"]
    res = spatial.grade(read_result_table(tmp_path / f"{stem}.xlsx"), benchmark="mindcubebench", recorded=records)
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")


def test_rows_without_a_recorded_grade_need_a_judge(tmp_path):
    stem = "SynthModel_MindCubeBench_raw_qa"
    shutil.copy(DATA / f"{stem}.xlsx", tmp_path / f"{stem}.xlsx")
    with open(DATA / f"{stem}_{JUDGE}_judge.pkl", "rb") as f:
        cache = pickle.load(f)  # our own test data
    del cache[1], cache[5]
    with open(tmp_path / f"{stem}_{JUDGE}_judge.pkl", "wb") as f:
        pickle.dump(cache, f)
    records = find_records(tmp_path / f"{stem}.xlsx", "spatial")
    res = spatial.grade(read_result_table(tmp_path / f"{stem}.xlsx"), benchmark="mindcubebench", recorded=records)
    assert res.stats["decided"] == {"rules": 0, "recorded": 10, "live": 0, "undecided": 2}
    assert res.stats["matches_archive"] is False
    status = dict(zip(res.rows["index"].to_list(), res.rows["status"].to_list()))
    assert status["1"] == status["5"] == "needs_judge"
    assert res.stats["tasks"] == 10
    # index 5 (around, graded A) and 1 (rotation, graded B) are left out of the means.
    assert res.report["around_accuracy"].to_list() == [66.6667]
    assert res.report["rotation_accuracy"].to_list() == [33.3333]


def test_no_records_need_a_judge_and_judge_none_takes_the_rule_path():
    path = DATA / "SynthModel_Spatial-DISE.xlsx"
    frame = read_result_table(path)
    res = spatial.grade(frame, benchmark="spatialdise", recorded=None)
    assert set(res.rows["status"]) == {"needs_judge"}
    assert res.stats["decided"]["undecided"] == frame.height
    # --judge none: VLMEvalKit's exact_matching policy (compute_mcq_score); this archive
    # was graded by an LLM, so the run is another method than the archive's.
    res = spatial.grade(frame, benchmark="spatialdise", recorded=find_records(path, "spatial"), judge_policy="none")
    assert res.stats["decided"] == {"rules": frame.height, "recorded": 0, "live": 0, "undecided": 0}
    assert res.stats["archive_method"] == f"judge {JUDGE}" and res.stats["matches_archive"] is False
    _same_report(res.report, DATA / "rules" / "SynthModel_Spatial-DISE_extract_matching_acc.csv")
    with pytest.raises(ValueError, match="live judging"):
        spatial.grade(frame, benchmark="spatialdise", judge=lambda p: "A")
    with pytest.raises(ValueError, match="unknown spatial benchmark"):
        spatial.grade(frame, benchmark="nope")


RULES = [
    ("MindCubeBench_raw_qa", "mindcubebench"),
    ("MMSIVideoBench", "mmsivideobench"),
    ("Spatial-DISE", "spatialdise"),
    ("VSI-Bench", "vsibench"),
    ("VSI-Bench-Debiased", "vsibench"),
    ("SPBench-SI", "spbench"),
    ("SiteBenchImage", "sitebench"),
    ("StareBench", "starebench"),
]


@pytest.mark.parametrize(("name", "bench"), RULES)
def test_archives_graded_without_a_judge_replay_the_rule_path(name, bench):
    path = DATA / "rules" / f"SynthModel_{name}.xlsx"
    records = find_records(path, "spatial")
    assert records.judge == spatial.RULES_TAG
    assert [p.name for p in records.files] == [f"SynthModel_{name}_extract_matching.xlsx"]
    res = spatial.grade(read_result_table(path), benchmark=bench, recorded=records)
    _same_report(res.report, DATA / "rules" / f"SynthModel_{name}_extract_matching_acc.csv")
    assert res.stats["decided"]["rules"] == res.rows.height - res.stats.get("crashed_rows", 0)
    assert res.stats["matches_archive"] is True


def test_registry_maps_the_names():
    for name, bench in [
        ("VsiSuperCount_120mins_2fps", "vsisupercount"),
        ("VsiSuperRecall_240mins_16frame", "vsisuperrecall"),
        ("MMSIBench_wo_circular", "mmsibench"),
        ("Spatial-DISE_TRAIN_SEPARATE", "spatialdise"),
        ("OmniSpatialBench_manual_cot", "omnispatialbench"),
        ("STI-Bench_30frame", "stibench"),
    ]:
        entry = benchmarks.for_dataset(name)
        assert entry is not None and entry.name == bench and entry.module == "gaia_fast.scorers.vlm.spatial"
        assert entry.options["benchmark"] in spatial.BENCHMARKS
    assert benchmarks.for_dataset("MMSIVideo_U50") is None  # no grading upstream (other)
    assert benchmarks.for_dataset("VSI-Bench-Debiased_1fps").name == "vsibench"
    assert benchmarks.for_dataset("SPBench-MV_CoT").name == "spbench"
    assert benchmarks.for_dataset("SiteBenchVideo_32frame").name == "sitebench"
    assert benchmarks.for_dataset("StareBench_CoT").name == "starebench"
    assert benchmarks.for_dataset("SparBench_tiny").name == "sparbench"


def test_tab_separated_csv_report_is_read():
    rep = read_report(DATA / "SynthModel_VsiSuperCount_10mins_extract_matching_acc.csv")
    assert rep.columns == ["metric", "value"]
    assert rep["value"].dtype == pl.Float64


VSI = [
    ("SynthModel_VSI-Bench", "vsibench", 21),
    ("SynthModel_VSI-Bench-Debiased", "vsibench", 19),  # no _hard rows: the easy/medium splits count in overall, unlisted
    ("SynthModel_SPBench-SI", "spbench", 15),
]


@pytest.mark.parametrize(("stem", "bench", "n"), VSI)
def test_vsibench_report_matches_vlmevalkit(stem, bench, n):
    path = DATA / f"{stem}.xlsx"
    records = find_records(path, "spatial")
    assert [p.name for p in records.files] == [
        f"{stem}_{JUDGE}.xlsx", f"{stem}_{JUDGE}_mcq_judge.pkl", f"{stem}_{JUDGE}_na_judge.pkl"
    ]
    res = spatial.grade(read_result_table(path), benchmark=bench, recorded=records)
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")
    assert res.stats["decided"] == {"rules": 0, "recorded": n, "live": 0, "undecided": 0}
    ref = pl.read_excel(DATA / f"{stem}_{JUDGE}.xlsx", infer_schema_length=0)
    want = {}
    for r in ref.iter_rows(named=True):
        want[r["index"]] = float(r["hit"]) if r["task_type"] == "MCQ" else float(r[spatial.MRA_KEY])
    got = dict(zip(res.rows["index"].to_list(), res.rows["score"].to_list()))
    assert got == want


def test_vsibench_from_the_caches_alone(tmp_path):
    stem = "SynthModel_VSI-Bench"
    for name in (f"{stem}.xlsx", f"{stem}_{JUDGE}_mcq_judge.pkl", f"{stem}_{JUDGE}_na_judge.pkl"):
        shutil.copy(DATA / name, tmp_path / name)
    records = find_records(tmp_path / f"{stem}.xlsx", "spatial")
    res = spatial.grade(read_result_table(tmp_path / f"{stem}.xlsx"), benchmark="vsibench", recorded=records)
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")


def test_vsibench_unknown_question_type():
    frame = pl.DataFrame({"index": ["1"], "answer": ["3"], "question_type": ["made_up"], "prediction": ["3"]})
    res = spatial.grade(frame, benchmark="vsibench", recorded=None)
    assert res.rows["status"].to_list() == ["error"]
    assert "ValueError upstream" in res.stats["reference_error"]
    with pytest.raises(ValueError, match="one rule"):
        spatial.grade(frame, benchmark="vsibench", variant="2025-12")


def test_sitebench_accuracy_and_caa_match_vlmevalkit():
    stem = "SynthModel_SiteBenchImage"
    path = DATA / f"{stem}.xlsx"
    records = find_records(path, "spatial")
    assert [p.name for p in records.files] == [f"{stem}_{JUDGE}.xlsx", f"{stem}_{JUDGE}_mcq_judge.pkl"]
    res = spatial.grade(read_result_table(path), benchmark="sitebench", recorded=records)
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")
    # the category VLMEvalKit does not list counts in the overall numbers only
    assert "some other category_accuracy" not in res.report["metric"].to_list()


def test_caa_counts_options():
    assert spatial._n_options("['a', 'b']", None, True, True) == 2
    assert spatial._n_options(None, "['a', 'b', 'c']", True, True) == 4  # candidates column wins even when empty
    assert spatial._n_options(None, "['a', 'b', 'c']", False, True) == 3
    assert spatial._n_options("[]", None, True, False) == 4
    assert spatial._caa([1, 0], [2, 2]) == 0.0
    assert spatial._caa([1], [1]) == 0.0  # denominator 0


def test_vsisupercount_archive_graded_by_a_judge_is_another_method(tmp_path):
    stem = "SynthModel_VsiSuperCount_10mins"
    shutil.copy(DATA / f"{stem}.xlsx", tmp_path / f"{stem}.xlsx")
    with open(tmp_path / f"{stem}_{JUDGE}_na_judge.pkl", "wb") as f:
        pickle.dump({100: ("A", "12")}, f)
    records = find_records(tmp_path / f"{stem}.xlsx", "spatial")
    res = spatial.grade(read_result_table(tmp_path / f"{stem}.xlsx"), benchmark="vsisupercount", recorded=records)
    assert res.stats["archive_method"] == f"judge {JUDGE}"
    assert res.stats["matches_archive"] is False
    plain = spatial.grade(read_result_table(DATA / f"{stem}.xlsx"), benchmark="vsisupercount", recorded=find_records(DATA / f"{stem}.xlsx", "spatial"))
    assert plain.stats["archive_method"] is None and plain.stats["matches_archive"] is True


def test_starebench_accuracy_f1_macro_match_vlmevalkit():
    stem = "SynthModel_StareBench"
    path = DATA / f"{stem}.xlsx"
    records = find_records(path, "spatial")
    res = spatial.grade(read_result_table(path), benchmark="starebench", recorded=records)
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")
    # tangram_puzzle's one row was extracted as "yes" (not an option letter): no F1 column
    assert "tangram_puzzle_f1" not in res.report.columns and "folding_nets_f1" in res.report.columns


def test_stare_f1():
    q = "A. yes B. no"
    assert spatial._stare_f1([(q, "A", "A"), (q, "B", "A"), (q, "A", "B")]) == 0.5
    assert spatial._stare_f1([(q, "A", "yes")]) is None
    assert spatial._stare_f1([(q, "B", "B")]) == 0.0  # no true positive


def test_matching_functions_agree_with_vlmevalkit():
    """358 texts and what VLMEvalKit's can_match_option / can_match_na returned for them."""
    n = 0
    for line in (DATA / "matching_vectors.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        assert spatial.can_match_option(r["text"]) == r["option"], r["text"]
        got, want = spatial.can_match_na(r["text"]), r["na"]
        assert got == want or (got is not None and want is not None and math.isinf(got) and got == want), r["text"]
        n += 1
    assert n == 358


def test_sparbench_report_matches_vlmevalkit():
    stem = "SynthModel_SparBench"
    path = DATA / f"{stem}.xlsx"
    res = spatial.grade(read_result_table(path), benchmark="sparbench", recorded=find_records(path, "spatial"))
    _same_report(res.report, DATA / f"{stem}_extract_matching_acc.csv")
    ref = pl.read_excel(DATA / f"{stem}_extract_matching.xlsx", infer_schema_length=0)
    want = {}
    for r in ref.iter_rows(named=True):
        col = {"MCQ": "hit", "NA": spatial.MRA_KEY, "SPECIAL": "vci_metric"}[r["task_type"]]
        want[r["index"]] = float(r[col])
    got = dict(zip(res.rows["index"].to_list(), res.rows["score"].to_list()))
    assert got.keys() == want.keys()
    # the xlsx reader gives 15 significant digits (0.8800000000000001 reads as 0.88)
    assert all(math.isclose(got[k], want[k], rel_tol=1e-14) for k in want)
    # answer "xyz" and a prediction with no option letter: both unreadable, counted a hit upstream
    row = res.rows.filter(pl.col("index") == "15").row(0, named=True)
    assert row["score"] == 1.0 and row["status"] == "no_answer"


def test_vci_metric():
    assert spatial.vci_metric("move_right:0.3", "move_right:0.3") == 1.0
    assert spatial.vci_metric("move_forward:1", "move_backward:1") == 0.8  # one of five moves wrong


def test_mmsivideo_subset_report_matches_vlmevalkit():
    stem = "SynthModel_MMSIVideoBench_1fps"
    path = DATA / f"{stem}.xlsx"
    res = spatial.grade(read_result_table(path), benchmark="mmsivideobench", recorded=find_records(path, "spatial"))
    _same_report(res.report, DATA / f"{stem}_{JUDGE}_acc.csv")
    subset = pl.DataFrame(res.stats["report_subset"])
    _same_report(subset, DATA / f"{stem}_{JUDGE}_subset_acc.csv")
