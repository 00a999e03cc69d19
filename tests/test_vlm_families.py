"""VLMEvalKit families added for issue 22 (step 2): each small archive in
``tests/data/vlmevalkit_families/`` was graded by VLMEvalKit's own ``evaluate`` (the commit
and functions are in that folder's README); here gaia-fast grades the same file and every
cell of its report must equal the reference's."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest

from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table

DATA = Path(__file__).parent / "data" / "vlmevalkit_families"


def _same(x: object, y: object, where: object) -> None:
    """One cell: numbers equal exactly (NaN equals NaN), other values as text."""
    try:
        fx, fy = float(x), float(y)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        assert str(x) == str(y), where
        return
    assert (math.isnan(fx) and math.isnan(fy)) or fx == fy, (where, x, y)


def assert_csv_report(ours: pl.DataFrame, expected: Path, key: str | None = None) -> int:
    """Every cell of the reference's CSV report; rows matched on ``key`` when the reference
    lists them in ``set`` order. Returns how many cells were compared."""
    theirs = pl.read_csv(expected, infer_schema_length=0)
    assert ours.columns == theirs.columns
    assert ours.height == theirs.height
    mine = {str(r[key]): r for r in ours.iter_rows(named=True)} if key else None
    n = 0
    for i, row in enumerate(theirs.iter_rows(named=True)):
        got = mine[row[key]] if mine is not None else ours.row(i, named=True)
        for c in theirs.columns:
            _same(got[c], row[c], (expected.name, i, c))
            n += 1
    return n


def assert_json_report(ours: dict, expected: Path | dict) -> int:
    """Every value of the reference's JSON report (nested objects too), keys in order."""
    theirs = json.loads(expected.read_text(encoding="utf-8")) if isinstance(expected, Path) else expected
    assert list(ours) == list(theirs)
    n = 0
    for k in theirs:
        if isinstance(theirs[k], dict):
            n += assert_json_report(ours[k], theirs[k])
        else:
            _same(ours[k], theirs[k], k)
            n += 1
    return n


# --------------------------------------------------------------------------------------
# Yes / no: AMBER, VSR-zeroshot
# --------------------------------------------------------------------------------------

YORN = DATA / "yorn"


@pytest.mark.parametrize(("dataset", "benchmark", "cells"), [("AMBER", "amber", 6), ("VSR-zeroshot", "vsr", 4)])
@pytest.mark.parametrize("variant", ["classic", "2025-05"])
def test_yorn_report_and_rows(dataset, benchmark, cells, variant):
    from gaia_fast.scorers.vlm import yorn

    path = YORN / f"m_{dataset}.xlsx"
    found = benchmarks.detect(path)
    assert found is not None and found.benchmark.name == benchmark and found.dataset == dataset
    frame = read_result_table(path)
    result = yorn.grade(frame, variant=variant, **found.benchmark.options)
    assert assert_csv_report(result.report, YORN / f"m_{dataset}{found.benchmark.report}") == cells
    aux = pl.read_excel(YORN / f"m_{dataset}_auxmatch.xlsx", infer_schema_length=0)
    assert result.rows["extracted"].to_list() == aux["extracted"].to_list()
    assert [("true" if s == 1.0 else "false") for s in result.rows["score"].to_list()] == aux["score"].to_list()
    assert result.rows.height == frame.height


def test_amber_compares_answers_ignoring_case_and_vsr_does_not():
    from gaia_fast.scorers.vlm import yorn

    frame = pl.DataFrame(
        {
            "index": [1, 2, 3],
            "answer": ["yes", "Yes", "NO"],
            "prediction": ["Yes", "yes", "no"],
            "category": ["discriminative-relation", "relation", "other"],
            "image_path": ["a", "a", "b"],
        }
    )
    amber = yorn.grade(frame, benchmark="amber")
    assert amber.rows["score"].to_list() == [1.0, 1.0, 1.0]
    assert amber.report.columns == ["Relation", "other", "Avg ACC"]
    vsr = yorn.grade(frame, benchmark="vsr")
    assert vsr.rows["score"].to_list() == [0.0, 1.0, 0.0]
    # Only the exact "Yes" answer is a positive: 1 true and 1 false positive; f1 unscaled.
    assert vsr.report.row(0) == (50.0, 100.0, (1 / 3) * 100, 2 * 0.5 / 1.5)


def test_amber_needs_category_and_image_path():
    from gaia_fast.scorers.vlm import yorn

    with pytest.raises(ValueError, match="image_path"):
        yorn.grade(pl.DataFrame({"prediction": ["yes"], "answer": ["yes"], "category": ["x"]}), benchmark="amber")


# --------------------------------------------------------------------------------------
# PHYSICS: the eight Physics_yale names
# --------------------------------------------------------------------------------------

PHYSICS = DATA / "physics"
PHYSICS_NAMES = (
    "atomic_dataset", "electro_dataset", "mechanics_dataset", "optics_dataset", "quantum_dataset",
    "statistics_dataset", "Physics", "Physics_blankim",
)  # fmt: skip


@pytest.mark.parametrize("name", PHYSICS_NAMES)
def test_physics_names_map_to_the_physics_flow(name):
    found = benchmarks.detect(f"outputs/m/m_{name}.xlsx")
    assert found is not None and (found.benchmark.name, found.dataset) == ("atomic", name)
    assert found.benchmark.module == "gaia_fast.scorers.vlm.physics"


def _false_judge(prompt: str) -> str:
    """The reference run's judge: every reply is "False" (only SymPy and exact matches score)."""
    return "False"


@pytest.mark.parametrize(
    ("dataset", "variant", "expected"),
    [
        ("electro_dataset", "head", "m_electro_dataset_gpt-4o-mini_score.csv"),
        ("Physics", "head", "m_Physics_gpt-4o-mini_score.csv"),
        ("electro_dataset", "8f07d6cf", "m_electro_dataset_gpt-4o-mini_score_8f07d6cf.csv"),
    ],
)
def test_physics_report_equals_the_reference(dataset, variant, expected):
    from gaia_fast.scorers.vlm import physics

    found = benchmarks.detect(PHYSICS / f"m_{dataset}.xlsx")
    assert found is not None and found.benchmark.name == "atomic"
    assert found.benchmark.variant_on("2025-05-01" if variant == "8f07d6cf" else "2026-08-18") == variant
    result = physics.grade(read_result_table(PHYSICS / f"m_{dataset}.xlsx"), variant=variant, judge=_false_judge)
    assert assert_csv_report(result.report, PHYSICS / expected) == 7 * 4
    if variant == "head":
        judged = pl.read_excel(PHYSICS / "m_electro_dataset_gpt-4o-mini.xlsx")
        assert result.rows["score"].to_list() == judged["res"].cast(pl.Float64).to_list()


# --------------------------------------------------------------------------------------
# OlympiadBench, OlympiadBench_EN, OlympiadBench_CN
# --------------------------------------------------------------------------------------

OLYMPIAD = DATA / "olympiad"


@pytest.mark.parametrize("name", ["OlympiadBench", "OlympiadBench_EN", "OlympiadBench_CN"])
def test_olympiad_names_map_to_the_olympiad_flow(name):
    found = benchmarks.detect(f"m_{name}.xlsx")
    assert found is not None and (found.benchmark.name, found.dataset) == ("olympiadbench", name)


def test_olympiad_rows_and_report_equal_the_reference():
    from gaia_fast.scorers.vlm import olympiad

    result = olympiad.grade(read_result_table(OLYMPIAD / "m_OlympiadBench.xlsx"), variant="vlmevalkit")
    judged = pl.read_excel(OLYMPIAD / "m_OlympiadBench_judge_result.xlsx", infer_schema_length=0)
    assert result.rows["score"].to_list() == [s == "true" for s in judged["score"].to_list()]
    assert assert_csv_report(result.report, OLYMPIAD / "m_OlympiadBench_score_result.csv") == 17
    assert result.stats.get("report_error") is None


def test_olympiad_en_alone_raises_in_the_reference_report():
    """An English-only file (OlympiadBench_EN): the reference scores the rows, then divides
    by zero for the first Chinese source; the rows agree and the crash is reported."""
    from gaia_fast.scorers.vlm import olympiad

    result = olympiad.grade(read_result_table(OLYMPIAD / "m_OlympiadBench_EN.xlsx"), variant="vlmevalkit")
    judged = pl.read_excel(OLYMPIAD / "m_OlympiadBench_EN_judge_result.xlsx", infer_schema_length=0)
    assert result.rows["score"].to_list() == [s == "true" for s in judged["score"].to_list()]
    assert "ZeroDivisionError" in result.stats["report_error"]
    assert result.report["OE_MM_maths_zh_CEE"][0] is None


# --------------------------------------------------------------------------------------
# How pandas types a column (what str(x) gives upstream)
# --------------------------------------------------------------------------------------


def test_pandas_view_of_columns_equals_pandas():
    from gaia_fast.scorers.vlm._pandas import pandas_str

    frame = pl.read_excel(DATA / "pandas" / "pandas_view.xlsx", infer_schema_length=0)
    expected = json.loads((DATA / "pandas" / "pandas_view_expected.json").read_text())
    assert list(expected) == frame.columns
    for c in frame.columns:
        assert pandas_str(frame[c]).to_list() == expected[c], c


# --------------------------------------------------------------------------------------
# VQA-shaped datasets: CountBenchQA, ZEROBench, TallyQA, MTVQA, ERQA, VizWiz, PlotQA
# --------------------------------------------------------------------------------------

VQA = DATA / "vqa"

# (result file, benchmark, the day whose variant applies, expected report, rows file)
VQA_CASES = [
    ("m_CountBenchQA.xlsx", "countbenchqa", "2026-08-18", "m_CountBenchQA_acc.csv", "m_CountBenchQA_rows.json"),
    ("numeric/m_CountBenchQA.xlsx", "countbenchqa", "2026-08-18", "numeric/m_CountBenchQA_acc.csv", None),
    ("v2025_05/m_CountBenchQA.xlsx", "countbenchqa", "2025-06-01", "v2025_05/m_CountBenchQA_returned.json", None),
    ("m_ZEROBench.xlsx", "zerobench", "2026-08-18", "m_ZEROBench_returned.json", "m_ZEROBench_rows.json"),
    ("m_ZEROBench_sub.xlsx", "zerobench", "2025-06-05", "m_ZEROBench_sub_returned.json", "m_ZEROBench_sub_rows.json"),
    ("m_TallyQA.xlsx", "tallyqa", "2026-08-18", "m_TallyQA_acc.csv", "m_TallyQA_rows.json"),
    ("numeric/m_TallyQA.xlsx", "tallyqa", "2025-06-07", "numeric/m_TallyQA_acc.csv", "numeric/m_TallyQA_rows.json"),
    ("m_MTVQA_TEST.xlsx", "mtvqa", "2026-08-18", "m_MTVQA_TEST_acc.json", "m_MTVQA_TEST_rows.json"),
    ("m_ERQA.xlsx", "erqa", "2026-08-18", "m_ERQA_acc.csv", None),
    ("m_VizWiz.xlsx", "vizwiz", "2024-11-25", "m_VizWiz_acc.csv", "m_VizWiz_rows.json"),
    ("m_VizWiz.xlsx", "vizwiz", "2026-08-18", "m_VizWiz_acc.csv", "m_VizWiz_rows.json"),
    ("m_PlotQA.xlsx", "plotqa", "2026-08-18", "m_PlotQA_acc.csv", None),
    # ImageVQADataset with a prediction column pandas reads as floats ("12" -> "12.0")
    ("numeric/m_DocVQA_VAL.xlsx", "docvqa", "2026-08-18", "numeric/m_DocVQA_VAL_acc.csv", None),
    ("numeric/m_TextVQA_VAL.xlsx", "textvqa", "2026-08-18", "numeric/m_TextVQA_VAL_acc.csv", None),
    ("m_ChartQAPro.xlsx", "chartqapro", "2026-08-18", "m_ChartQAPro_acc.csv", None),
    ("m_ChartQAPro_CoT.xlsx", "chartqapro", "2026-03-04", "m_ChartQAPro_CoT_acc.csv", None),
    ("m_ChartQAPro_PoT.xlsx", "chartqapro", "2026-08-18", "m_ChartQAPro_PoT_acc.csv", None),
    ("m_ChartQAPro_PoT.xlsx", "chartqapro", "2025-10-17", "v2025_10/m_ChartQAPro_PoT_acc.csv", None),
    ("m_DA-2K.xlsx", "da2k", "2026-08-18", "m_DA-2K_rating.json", None),
    ("m_tdbench_grounding_rot90.xlsx", "tdbench-grounding", "2026-08-18", "m_tdbench_grounding_rot90_acc.csv", None),
]


@pytest.mark.parametrize(("name", "benchmark", "day", "report", "rows"), VQA_CASES)
def test_vqa_family_report_and_rows(name, benchmark, day, report, rows):
    import importlib

    path = VQA / name
    found = benchmarks.detect(path)
    assert found is not None and found.benchmark.name == benchmark
    entry = found.benchmark
    module = importlib.import_module(entry.module)
    result = module.grade(read_result_table(path), variant=entry.variant_on(day), **entry.options)
    expected = VQA / report
    if expected.suffix == ".json":
        assert assert_json_report(result.report.row(0, named=True), expected) >= 1
    else:
        assert assert_csv_report(result.report, expected) >= 1
    if rows is not None:
        theirs = [float(x) for x in json.loads((VQA / rows).read_text())]
        if max(theirs, default=0) > 1:  # per-row runs that report percent
            theirs = [x / 100 for x in theirs]
        assert result.rows["score"].to_list() == theirs
    assert result.rows.height == read_result_table(path).height


def test_erqa_and_plotqa_rows_equal_the_reference_side_files():
    from gaia_fast.scorers.vlm import vqa, vqa_rules

    erqa = vqa_rules.grade(read_result_table(VQA / "m_ERQA.xlsx"), benchmark="erqa")
    detail = pl.read_excel(VQA / "m_ERQA_detail.xlsx", infer_schema_length=0)
    assert erqa.rows["score"].to_list() == [float(x) for x in detail["correct"].to_list()]
    assert erqa.rows["extracted"].to_list() == [("nan" if x is None else x) for x in detail["prediction"].to_list()]
    plot = vqa.grade(read_result_table(VQA / "m_PlotQA.xlsx"), benchmark="plotqa", variant="2025-09")
    matches = pl.read_excel(VQA / "m_PlotQA_results.xlsx", infer_schema_length=0)["eval_match"].to_list()
    assert plot.rows["score"].to_list() == [1.0 if m == "[True]" else 0.0 for m in matches]


def test_da2k_and_tdbench_rows_equal_the_reference_side_files():
    from gaia_fast.scorers.vlm import vqa_rules

    da = vqa_rules.grade(read_result_table(VQA / "m_DA-2K.xlsx"), benchmark="da2k")
    scored = pl.read_excel(VQA / "m_DA-2K_score.xlsx", infer_schema_length=0)
    assert da.rows["score"].to_list() == [float(x) for x in scored["score"].to_list()]
    for folder, method in ((VQA, "centroid"), (VQA / "iou", "iou")):
        frame = read_result_table(folder / "m_tdbench_grounding_rot90.xlsx")
        result = vqa_rules.grade(frame, benchmark="tdbench_grounding", variant=method)
        # The reference's rows are sorted by index.
        ours = dict(zip(frame["index"].to_list(), result.rows["score"].to_list()))
        # Typed read: a float cell read as text keeps only some of its digits.
        theirs = pl.read_excel(folder / f"m_tdbench_grounding_rot90_{method}_result.xlsx")
        assert [ours[str(i)] for i in theirs["index"].to_list()] == [float(h) for h in theirs["hit"].to_list()]
        assert assert_csv_report(result.report, folder / "m_tdbench_grounding_rot90_acc.csv") == 4


@pytest.mark.parametrize("name", ["m_ChartQAPro.xlsx", "m_ChartQAPro_CoT.xlsx"])
def test_chartqapro_first_version_raises_on_predictions_that_are_not_text(name):
    """At 2e35a574 a cell pandas reads as NaN ("n/a") or a number column raises
    AttributeError in the reference; the report is then null and the rows say why."""
    from gaia_fast.scorers.vlm import vqa_rules

    result = vqa_rules.grade(read_result_table(VQA / name), benchmark="chartqapro", variant="2025-10")
    assert "AttributeError: 'float' object has no attribute 'strip'" in result.stats["reference_error"]
    assert result.report["1"].null_count() == result.report.height
    assert "reference_error" in result.rows["status"].to_list()


def test_vqa_rules_edge_cases():
    from gaia_fast.scorers.vlm import vqa_rules

    assert vqa_rules.tally_count("Eleven apples and 3 pears") == 11  # leftmost, digits or words
    assert vqa_rules.tally_count("1e3") is None and vqa_rules.tally_count("twentyone") is None
    assert vqa_rules.tally_count(20.7) is None and vqa_rules.tally_count(2.5) == 2 and vqa_rules.tally_count(True) == 1
    zero = vqa_rules.grade(pl.DataFrame({"answers": ["42", "x"], "prediction": ["{4\n2} {42}", "none"]}), benchmark="zerobench")
    assert zero.rows["extracted"].to_list() == ["42", ""] and zero.rows["score"].to_list() == [1.0, 0.0]
    bad = vqa_rules.grade(
        pl.DataFrame({"answer": ["a"], "category": ["x"], "split": ["val"], "prediction": ["a"]}), benchmark="mtvqa"
    )
    assert "AssertionError" in bad.stats["reference_error"] and bad.report.row(0) == (None, None)
    with pytest.raises(ValueError, match="answers"):
        vqa_rules.grade(pl.DataFrame({"answer": ["3"], "prediction": ["3"]}), benchmark="countbenchqa", variant="2025-05")
    tally = vqa_rules.grade(pl.DataFrame({"answer": ["3", ""], "prediction": ["3", "4"]}), benchmark="tallyqa")
    assert "astype(int)" in tally.stats["reference_error"] and tally.report["TallyQA"][0] is None


def test_defaults_of_datasets_that_never_ran_the_classic_rules():
    """PlotQA and VSR-zeroshot were added after the changes the classic variants predate."""
    from gaia_fast.scorers.vlm import vqa, yorn

    plot = vqa.grade(read_result_table(VQA / "m_PlotQA.xlsx"), benchmark="plotqa")
    assert plot.stats["variant"] == "2025-09"
    assert assert_csv_report(plot.report, VQA / "m_PlotQA_acc.csv") == 1
    vsr = yorn.grade(read_result_table(YORN / "m_VSR-zeroshot.xlsx"), benchmark="vsr")
    assert vsr.stats["variant"] == "2025-05"


def test_side_outputs_of_these_families_are_not_results():
    for name in (
        "m/m_ERQA_detail.xlsx",  # ERQA's per-row table
        "m/m_PlotQA_results.xlsx",  # ImageVQADataset / PlotQA per-row table
        "m/m_tdbench_grounding_REresult.csv",  # TDBench's cross-rotation table
        "m/m_tdbench_grounding_rot0_centroid_result.xlsx",
        "m/m_DA-2K_rating.json",
        "m/m_DA-2K_score.xlsx",
        "m/m_AMBER_auxmatch.xlsx",
    ):
        assert benchmarks.detect(name) is None and benchmarks.non_result(name) is not None, name


def test_olympiad_report_has_vlmevalkit_name(tmp_path):
    """A tree's OlympiadBench report is written as {stem}_score_result.csv, as upstream."""
    import shutil

    from click.testing import CliRunner

    from gaia_fast.cli import main

    tree = tmp_path / "outputs" / "m"
    tree.mkdir(parents=True)
    shutil.copy(OLYMPIAD / "m_OlympiadBench.xlsx", tree / "m_OlympiadBench.xlsx")
    r = CliRunner().invoke(main, ["grade", str(tmp_path / "outputs"), "--report-dir", str(tmp_path / "rep"), "--as-of", "2026-08-18", "--json"])
    assert r.exit_code == 0, r.output
    report = tmp_path / "rep" / "m" / "m_OlympiadBench_score_result.csv"
    assert assert_csv_report(pl.read_csv(report), OLYMPIAD / "m_OlympiadBench_score_result.csv") == 17
