"""ImageMCQDataset report variants and preprocessing (``scorers/vlm/mcq_reports.py``) against
the reports VLMEvalKit's own evaluation code wrote for the same archives
(``tests/data/vlmevalkit_mcq_families``; its README names the commit and the functions run).
Reports are compared cell by cell, keyed by their first column where the reference's row or
column order comes from a Python set."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import mcq, mcq_reports

DATA = Path(__file__).parent / "data" / "vlmevalkit_mcq_families"
EXPECTED = DATA / "expected"
#: The reference ran at VLMEvalKit head, whose matcher is ``2026-06``.
HEAD = "2026-06"


def _read_expected(path: Path) -> pl.DataFrame:
    sep = "\t" if path.suffix == ".tsv" else ","
    return pl.read_csv(path, separator=sep, infer_schema_length=0)


def _num(cell: str | None) -> float:
    return math.nan if cell in (None, "") else float(cell)


def _cells_equal(ours: pl.DataFrame, theirs: pl.DataFrame, *, key: str | None = None, ordered_cols: bool = True, tol: dict[str, float] | None = None) -> None:
    """Every cell equal: text as text, numbers exactly (NaN == NaN), or within ``tol[col]``."""
    tol = tol or {}
    if ordered_cols:
        assert ours.columns == theirs.columns
    else:
        assert sorted(ours.columns) == sorted(theirs.columns)
    assert ours.height == theirs.height
    if key is not None:
        ours_rows = {tuple(str(r[k]) for k in key.split("+")): r for r in ours.iter_rows(named=True)}
        theirs_rows = {tuple(str(r[k]) for k in key.split("+")): r for r in theirs.iter_rows(named=True)}
        assert ours_rows.keys() == theirs_rows.keys()
        pairs = [(ours_rows[k], theirs_rows[k]) for k in theirs_rows]
    else:
        pairs = list(zip(ours.iter_rows(named=True), theirs.iter_rows(named=True)))
    for a_row, b_row in pairs:
        for c in theirs.columns:
            a, b = a_row[c], b_row[c]
            if ours.schema[c] == pl.String:
                assert a == b, (c, a, b)
                continue
            bv = _num(b)
            if math.isnan(bv):
                assert a is None or math.isnan(a), (c, a, b)
            elif c in tol:
                assert abs(a - bv) <= tol[c], (c, a, b)
            else:
                assert a == bv, (c, a, b)


def _grade(dataset: str, variant: str = HEAD) -> mcq.GradeResult:
    entry = benchmarks.for_dataset(dataset)
    assert entry is not None and entry.module == "gaia_fast.scorers.vlm.mcq_reports"
    frame = read_result_table(DATA / f"m_{dataset}.xlsx")
    return mcq_reports.grade(frame, variant=variant, **entry.options)


@pytest.mark.parametrize(
    ("dataset", "key"),
    [
        ("MMVP", None),
        ("MMSci_DEV_MCQ", None),
        ("CV-Bench-3D", None),
        ("LEGO", None),
        ("MMMU_DEV_VAL", None),
        ("MMMB", None),
        ("MTL_MMBench_DEV", None),
    ],
)
def test_report_matches_vlmevalkit(dataset, key):
    result = _grade(dataset)
    assert result.stats.get("reference_error") is None
    _cells_equal(result.report, _read_expected(EXPECTED / f"m_{dataset}_acc.csv"), key=key)


def test_3dsrbench_results_tsv():
    result = _grade("3DSRBench")
    assert benchmarks.for_dataset("3DSRBench").report == "_results.tsv"
    _cells_equal(result.report, _read_expected(EXPECTED / "m_3DSRBench_results.tsv"))


def test_hrbench_rows_keyed_by_cycle_and_type():
    # The reference lists each cycle's categories in a set's order; the cells are the same.
    result = _grade("HRBench4K")
    _cells_equal(result.report, _read_expected(EXPECTED / "m_HRBench4K_acc.csv"), key="cycle+type")


def test_cvbench_2d_sources():
    # Source columns come from a set upstream (their order and the order Overall sums them in
    # change with PYTHONHASHSEED; the file was written with PYTHONHASHSEED=0): the Overall
    # cell may differ in its last bit.
    result = _grade("CV-Bench-2D")
    theirs = _read_expected(EXPECTED / "m_CV-Bench-2D_acc.csv")
    _cells_equal(result.report, theirs, key="split", ordered_cols=False, tol={"Overall": 4e-16})
    assert result.report.columns[0] == "split" and result.report.columns[-1] == "Overall"


def test_gmai_group_side_reports():
    result = _grade("GMAI-MMBench_VAL")
    # Its main report is report_acc (GMAIMMBenchDataset.evaluate returns it; it writes only
    # the three side tables).
    frame = read_result_table(DATA / "m_GMAI-MMBench_VAL.xlsx")
    assert result.report.equals(mcq.grade(frame, benchmark="mcq", variant=HEAD).report)
    groups = result.stats["group_reports"]
    assert list(groups) == list(mcq_reports.GMAI_GROUPS)
    for g, table in groups.items():
        _cells_equal(table, _read_expected(EXPECTED / f"m_GMAI-MMBench_VAL_{g}_acc.csv"))
    # An empty group cell reads as the name 'None', which matches no row: NaN, as upstream.
    assert math.isnan(groups["clinical vqa task"]["None"][0])


@pytest.mark.parametrize(("variant", "tag"), [("2026-06", "87f2dbe5"), ("2026-06+cot-2026-07", "head")])
def test_mmmu_pro_cot_both_eras(variant, tag):
    result = _grade("MMMU_Pro_10c_COT", variant)
    _cells_equal(result.report, _read_expected(EXPECTED / f"m_MMMU_Pro_10c_COT_acc.{tag}.csv"))


def test_mmmu_pro_cot_eras_differ_and_dates_pick_them():
    old = _grade("MMMU_Pro_10c_COT", "2026-06").stats["accuracy"]
    new = _grade("MMMU_Pro_10c_COT", "2026-06+cot-2026-07").stats["accuracy"]
    assert new > old
    entry = benchmarks.get("mmmu-pro-cot")
    assert entry.variant_on("2026-07-02") == "2026-06" and entry.variant_on("2026-07-03") == "2026-06+cot-2026-07"


def test_cot_postproc_rules():
    assert mcq_reports.cot_postproc("x\nAnswer: B", "2025-02") == " B"  # the A of "Answer" counts
    assert mcq_reports.cot_postproc("x\nAnswer: A", "2025-02") == "A"
    assert mcq_reports.cot_postproc("x\nAnswer: B", "2026-07") == "B"
    assert mcq_reports.cot_postproc("Answer: A\nAnswer: $C", "2026-07") == "C"
    assert mcq_reports.cot_postproc("Answer: A\nAnswer: $C", "2025-02") == "Answer: A\nAnswer: $C"


def test_mmvp_before_its_report_is_report_acc():
    entry = benchmarks.get("mmvp")
    assert entry.variant_on("2025-12-19") == "2025-08+report_acc"
    result = _grade("MMVP", "2025-08+report_acc")
    assert result.report.columns[:2] == ["split", "Overall"]
    # report_acc's Overall is the row accuracy, report_acc_MMVP's Average.
    assert result.report["Overall"][0] == _grade("MMVP", "2025-08").report["Average"][0]


def test_mmvp_odd_rows_are_the_reference_error():
    frame = read_result_table(DATA / "m_MMVP.xlsx")
    result = mcq_reports.grade(frame.head(5), report="mmvp", variant=HEAD)
    assert "AssertionError" in result.stats["reference_error"]


def test_lego_sort_rows_read_sequences_and_judge_is_refused():
    frame = read_result_table(DATA / "m_LEGO.xlsx")
    result = mcq_reports.grade(frame, matcher="lego", variant=HEAD)
    sort = result.rows.filter(pl.col("question_type") == "sort")
    assert result.stats["lego_sort_rows"] == sort.height > 0
    assert set(sort["extracted"].to_list()) - {"Z", "A", "B", "C", "D"}  # four-letter sequences
    plain = mcq.grade(frame, benchmark="mcq", variant=HEAD)
    assert result.stats["accuracy"] > plain.stats["accuracy"]
    with pytest.raises(ValueError, match="LEGO with a judge"):
        mcq_reports.grade(frame, matcher="lego", judge=lambda p: "A")


def test_can_infer_sequence():
    assert mcq_reports.can_infer_sequence("the order is bdac.") == "BDAC"
    assert mcq_reports.can_infer_sequence("First C, second A, third D, fourth B") == "CADB"
    assert mcq_reports.can_infer_sequence("AABB") is None
    assert mcq_reports.can_infer_sequence("no idea") is None


def test_mmmu_default_by_shape_and_can_infer_variants_preprocess():
    frame = read_result_table(DATA / "m_MMMU_DEV_VAL.xlsx")
    with pytest.raises(ValueError):
        mcq_reports.grade(frame, benchmark="mmmu", variant="2023-12")  # MMMU_eval needs its own columns
    # No variant: a main-branch file (no MMMU_eval columns) takes MMMU_preproc + the classic flow.
    default = mcq_reports.grade(frame, benchmark="mmmu")
    classic = mcq_reports.grade(frame, benchmark="mmmu", variant="classic")
    assert default.stats["variant"] == "classic" and "no MMMU_eval columns" in default.stats["variant_chosen_by"]
    assert default.report.equals(classic.report) and default.rows.equals(classic.rows)
    result = mcq_reports.grade(frame, benchmark="mmmu", variant=HEAD)
    assert result.stats["mmmu_open_questions"] == 10
    open_rows = result.rows.filter(pl.col("B") == "Other Answers")
    assert open_rows.height == 10 and set(open_rows["answer"].to_list()) == {"A"}


def test_concat_rows_keep_order_and_every_row():
    frame = read_result_table(DATA / "m_MTL_MMBench_DEV.xlsx")
    result = _grade("MTL_MMBench_DEV")
    assert result.rows.height == frame.height
    assert result.rows["index"].to_list() == frame["index"].to_list()
    assert set(result.rows["status"].to_list()) <= {"ok", "not_counted"}
    assert result.stats["tasks"] == 12  # two questions per member


def test_concat_needs_its_columns():
    frame = read_result_table(DATA / "m_MMVP.xlsx")
    with pytest.raises(ValueError, match="SUB_DATASET"):
        mcq_reports.grade(frame, concat="MMMB")


def test_3dsrbench_report_is_written_as_tsv(tmp_path):
    from gaia_fast.io.writers import write_report

    path = tmp_path / "m_3DSRBench_results.tsv"
    write_report(_grade("3DSRBench").report, path)
    _cells_equal(pl.read_csv(path, separator="\t", infer_schema_length=0).with_columns(pl.exclude("setting").cast(pl.Float64)),
                 _read_expected(EXPECTED / "m_3DSRBench_results.tsv"))


def test_grade_many_grades_every_family_archive(tmp_path):
    import shutil

    from gaia_fast.grading import many

    tree = tmp_path / "m"
    tree.mkdir()
    for p in DATA.glob("m_*.xlsx"):
        shutil.copy(p, tree / p.name)
    records = many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R")
    by = {r.dataset: r for r in records}
    assert set(by) == {p.stem[2:] for p in DATA.glob("m_*.xlsx")}
    # Copied without their reports or judge records: files where exact matching decided some
    # rows cannot be checked against the archive, and say so.
    assert {n for n, r in by.items() if r.status in ("ok", "unverified")} == set(by)
    assert by["LEGO"].status == "unverified" and by["A4Bench"].status == "ok"
    # MMMU with no date: a main-branch file (no MMMU_eval columns) gets MMMU_preproc and the
    # classic mcq flow; --as-of picks the matcher of its day.
    assert by["MMMU_DEV_VAL"].variant == "classic"
    plan = many.expand([str(tree / "m_MMMU_DEV_VAL.xlsx")])
    (again,) = many.grade_many(plan, report_dir=tmp_path / "S", as_of="2026-08-01")
    assert again.status == "unverified" and again.variant == "2026-06"
    assert (tmp_path / "R" / "m" / "m_3DSRBench_results.tsv").is_file()


def test_lego_classic_era_matches_aca64dbb():
    # matching_util.py of aca64dbb (LEGO added; the classic can_infer): the letter read
    # without the position rule and length guard that came in 2025-08.
    entry = benchmarks.get("lego")
    assert entry.variant_on("2025-04-08") == "classic"
    classic = _grade("LEGO", "classic")
    _cells_equal(classic.report, _read_expected(EXPECTED / "m_LEGO_acc.aca64dbb.csv"))
    assert classic.stats["accuracy"] > _grade("LEGO", HEAD).stats["accuracy"]


def test_concat_member_without_rows_and_foreign_rows():
    frame = read_result_table(DATA / "m_MMMB.xlsx")
    # Drop one member, and rename another's rows to a SUB_DATASET outside the set.
    sub = frame.filter(pl.col("SUB_DATASET") != "MMMB_ar").with_columns(
        pl.when(pl.col("SUB_DATASET") == "MMMB_tr").then(pl.lit("MMMB_xx")).otherwise(pl.col("SUB_DATASET")).alias("SUB_DATASET")
    )
    result = mcq_reports.grade(sub, concat="MMMB", variant=HEAD)
    # No split column: an absent member is a 'none' row with a NaN Overall, as report_acc gives.
    ar = result.report.filter(pl.col("DATASET") == "MMMB_ar")
    assert ar.height == 1 and math.isnan(ar["Overall"][0])
    assert "MMMB_xx" not in result.report["DATASET"].to_list()
    foreign = result.rows.filter(pl.col("SUB_DATASET") == "MMMB_xx")
    assert set(foreign["status"].to_list()) == {"not_counted"}
    assert result.stats["tasks"] == sub.height - foreign.height
    none = mcq_reports.grade(sub.with_columns(pl.lit("other").alias("SUB_DATASET")), concat="MMMB", variant=HEAD)
    assert none.stats["tasks"] == 0 and none.report.height == 6


def test_topviewrs_matches_vlmevalkit():
    result = _grade("TopViewRS")
    assert "log" not in result.rows.columns and "partial_match" in result.rows.columns
    _cells_equal(result.report, _read_expected(EXPECTED / "m_TopViewRS_acc.csv"))


def test_numpy_sum_is_numpys_pairwise_sum():
    np = pytest.importorskip("numpy")
    import random

    rng = random.Random(5)
    for n in [*range(40), 127, 128, 129, 255, 256, 1000, 4099]:
        values = [rng.random() * rng.choice([1.0, 1e-3, 1e5]) for _ in range(n)]
        assert mcq_reports.numpy_sum(values) == float(np.add.reduce(np.array(values, dtype=np.float64)))
