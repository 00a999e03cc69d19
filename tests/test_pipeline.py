"""The grade pipeline's stages: a plan of one and a plan of many through the same executor,
the records' headline numbers beside the archive's own report, the pivot table (CSV,
terminal, HTML) and the exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gaia_fast.cli import main
from gaia_fast.cli._many import exit_code
from gaia_fast.grading import discover, reporters
from gaia_fast.grading.execute import GradeOptions, LocalExecutor, grade_job
from gaia_fast.grading.plan import ArchiveRecord

TREE = Path(__file__).parent / "data" / "vlmevalkit_tree"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "gaia"


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "outputs"
    shutil.copytree(TREE, root)
    return root


def _cli(*args, cwd: Path):
    import os

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [*map(str, args)], catch_exceptions=False)
    finally:
        os.chdir(old)


def test_a_plan_of_one_is_the_same_job_as_in_a_tree(tree, tmp_path):
    one = discover.single(tree / "vila_8b" / "vila_8b_MMStar.xlsx")
    assert [(j.benchmark, j.model, j.dataset) for j in one.jobs] == [("mcq", "vila_8b", "MMStar")]
    (alone,) = LocalExecutor(1).run(one, GradeOptions(), [tmp_path / "a.csv"], [None], raise_errors=True)
    many = discover.expand([str(tree)])
    records = LocalExecutor().run(many, GradeOptions(), [None] * len(many.jobs), [None] * len(many.jobs))
    (same,) = [r for r in records if r.dataset == "MMStar"]
    assert (alone.correct, alone.tasks, alone.headline) == (same.correct, same.tasks, same.headline)
    # The record keeps the family's whole result for the detailed report.
    assert alone.detail["result"].report.height >= 1


def test_headlines_equal_the_archives_own_reports(tree):
    plan = discover.expand([str(tree)])
    records = LocalExecutor().run(plan, GradeOptions(), [None] * len(plan.jobs), [None] * len(plan.jobs))
    graded = [r for r in records if r.status != "skipped"]
    assert len(graded) == 10
    for r in graded:
        assert r.status == "ok", (r.dataset, r.error)
        assert r.archive_report is not None and r.archive_headline is not None
        assert r.headline == pytest.approx(r.archive_headline, rel=1e-12), r.dataset
    by = {r.dataset: r for r in graded}
    assert by["MME"].headline_metric == "perception+reasoning"
    assert by["HallusionBench"].headline_metric == "aAcc"
    assert by["MMStar"].headline_metric == "Overall"


def test_a_report_that_differs_from_the_archives_is_not_ok(tree, tmp_path):
    acc = tree / "vila_8b" / "vila_8b_RealWorldQA_acc.csv"
    acc.write_text(acc.read_text().replace("0.465359477124183", "0.5"))
    job = next(j for j in discover.expand([str(tree)]).jobs if j.dataset == "RealWorldQA")
    record = grade_job(job, GradeOptions())
    assert record.status == "differs"
    assert "vila_8b_RealWorldQA_acc.csv" in record.error and "0.5" in record.error
    assert record.archive_headline == 0.5 and record.headline == pytest.approx(0.465359477124183)
    # The pivot shows both numbers and the status.
    frame = reporters.pivot([record])
    assert frame.columns == ["model", "RealWorldQA", "RealWorldQA [archive]", "RealWorldQA [status]"]
    assert frame.row(0) == ("vila_8b", pytest.approx(0.465359477124183), 0.5, "differs")


def test_report_differences_matches_rows_by_label_and_names_cells():
    a = pl.DataFrame({"split": ["dev", "test"], "Overall": [0.5, 0.25]})
    b = pl.DataFrame({"split": ["test", "dev"], "Overall": ["0.25", "0.5"]})
    assert reporters.report_differences(a, b) == []
    c = pl.DataFrame({"split": ["dev", "test"], "Overall": [0.5, 0.3]})
    (only,) = reporters.report_differences(a, c)
    assert only.startswith("row 2 Overall: 0.25 vs 0.3")
    assert reporters.report_differences(a, c.rename({"Overall": "All"}))[0].startswith("columns differ")


@pytest.mark.parametrize(
    ("report", "expected"),
    [
        (pl.DataFrame({"split": ["none"], "Overall": [0.4], "math": [0.1]}), ("Overall", 0.4)),
        (pl.DataFrame({"split": ["VD", "Overall"], "aAcc": [1.0, 52.0], "fAcc": [2.0, 3.0]}), ("aAcc", 52.0)),
        (pl.DataFrame({"perception": [1500.0], "reasoning": [300.0], "OCR": [100.0]}), ("perception+reasoning", 1800.0)),
        (pl.DataFrame({"Text Recognition": [181], "Final Score": [438], "Final Score Norm": [43.8]}), ("Final Score", 438.0)),
        (pl.DataFrame({"Category": ["rec", "Overall"], "tot": [187.0, 218.0], "acc": [30.0, 26.1]}), ("acc", 26.1)),
        (pl.DataFrame({"split": ["none"]}), None),
    ],
)
def test_headline_rules(report, expected):
    assert reporters.headline(report) == expected


def test_headline_metrics_named_first_then_the_heuristic():
    amber = pl.DataFrame({"Attribute": [27.3], "Existence": [25.0], "Avg ACC": [22.1]})
    assert reporters.headline(amber) == ("Attribute", 27.3)  # the heuristic's first number
    assert reporters.headline(amber, ("Avg ACC",)) == ("Avg ACC", 22.1)
    assert reporters.headline(amber, ("missing", "Existence")) == ("Existence", 25.0)  # the first the report has
    assert reporters.headline(amber, ("missing",)) == ("Attribute", 27.3)  # another era's shape: the heuristic
    # A labelled report: the row labelled Overall; a flattened rating: the key's value.
    labelled = pl.DataFrame({"split": ["A", "Overall"], "total": [0.1, 0.6]})
    assert reporters.headline(labelled, ("total",)) == ("total", 0.6)
    rating = pl.DataFrame({"key": ["Exact_Match", "Jaccard", "Predictions|0|0|jaccard"], "value": ["0.4", "0.5", "1.0"]})
    assert reporters.headline(rating) is None
    assert reporters.headline(rating, ("Exact_Match",)) == ("Exact_Match", 0.4)


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("benchmark", "report", "expected"),
    [
        ("amber", "vlmevalkit_families/yorn/m_AMBER_score.csv", ("Avg ACC", 22.121212121212118)),
        ("mtvqa", "vlmevalkit_families/vqa/m_MTVQA_TEST_acc.json", ("Average", 80.0)),
        ("coco-caption", "vlmevalkit_ocr_caption/vila_8b/vila_8b_COCO_VAL_score.json", ("CIDEr", 19.691675084117435)),
        ("olympiadbench", "vlmevalkit_families/olympiad/m_OlympiadBench_score_result.csv", ("AVG", 43.75)),
        ("ccocr", "vlmevalkit_ocr_families/m_CCOCR_acc.csv", ("total", 0.6580070665814087)),
        ("visfactor", "vlmevalkit_ocr_families/m_VisFactor_acc.csv", ("ALL", 0.3759920634920635)),
        ("vcr-en-easy", "vlmevalkit_ocr_families/m_VCR_EN_EASY_100_en_easy_score.json", ("Exact_Match", 0.47368421052631576)),
        ("crpe", "vlmevalkit_tail_rules/crpe_2024-09/SynthModel_CRPE_RELATION_score.json", ("total", 0.8125)),
        ("mmniah", "vlmevalkit_tail_rules/mmniah/SynthModel_MM_NIAH_VAL_score.json", ("total", 0.6875)),
        ("mrarebench_dx", "vlmevalkit_tail_rules/mrare_dx/SynthModel_MRareBench_Diagnosis_detailed_metrics.json", ("hit_rate", 0.6)),
        ("vlrmbench", "vlmevalkit_tail_rules/vlrmbench/SynthModel_VLRMBench_score.csv", ("Overall_F1_weighted", 0.75)),
    ],
)
def test_registry_headline_is_the_reports_overall_cell(benchmark, report, expected):
    # The heuristic alone picks a part (AMBER's Attribute, MTVQA's FR, CC-OCR's lan_ocr,
    # CRPE's exist, MRareBench's n_total ...) or nothing (VCR's nested JSON).
    from gaia_fast import benchmarks

    frame = reporters.read_report(DATA / report)
    assert reporters.headline(frame) != expected
    assert reporters.headline(frame, benchmarks.get(benchmark).headline) == pytest.approx(expected)


def test_a_registry_headline_names_each_subsets_cell():
    # VLRMBench's subsets write other reports: the first of its names each one has.
    from gaia_fast import benchmarks

    frame = reporters.read_report(DATA / "vlmevalkit_tail_rules/vlrmbench/SynthModel_VLRMBench_Foresight_score.csv")
    assert reporters.headline(frame, benchmarks.get("vlrmbench").headline) == ("foresight_accuracy", 0.0)


def test_the_archive_headline_uses_the_registrys_metric(tmp_path):
    # VCR's own report is nested JSON: without the registry's Exact_Match the archive's
    # number was missing beside ours.
    src = DATA / "vlmevalkit_ocr_families"
    for f in src.glob("m_VCR_EN_EASY_100*"):
        shutil.copy(f, tmp_path)
    (job,) = discover.single(tmp_path / "m_VCR_EN_EASY_100.xlsx").jobs
    record = grade_job(job, GradeOptions())
    assert record.headline_metric == "Exact_Match"
    assert record.archive_headline == pytest.approx(0.47368421052631576) and record.headline == pytest.approx(record.archive_headline)


def test_read_report_json_and_csv(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"Final Score": 438, "Final Score Norm": 43.8}))
    assert reporters.headline(reporters.read_report(tmp_path / "s.json")) == ("Final Score", 438.0)
    (tmp_path / "a.csv").write_text('"split","Overall"\n"none","0.25"\n')
    frame = reporters.read_report(tmp_path / "a.csv")
    assert frame.schema == {"split": pl.String, "Overall": pl.Float64}


def test_pivot_summary_terminal_and_html(tree, tmp_path):
    result = _cli("grade", tree, "--summary", "p.csv", "--pivot", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    frame = pl.read_csv(tmp_path / "p.csv")
    assert frame["model"].to_list() == ["vila_8b"]
    assert frame["MMStar"][0] == pytest.approx(frame["MMStar [archive]"][0], rel=1e-12)
    assert not any(c.endswith("[status]") for c in frame.columns)  # every archive ok
    assert "model(s) x 10 dataset(s)" in result.output
    # The HTML page draws the same table, from the tree or from a --summary table.
    summary = _cli("grade", tree, "--summary", "s.csv", cwd=tmp_path)
    assert summary.exit_code == 0
    acc = tree / "vila_8b" / "vila_8b_MMStar_acc.csv"
    acc.write_text(acc.read_text().replace("0.4166666666666667", "0.42"))
    for source in (tmp_path / "s.csv", tree):
        page = tmp_path / f"{source.name}.html"
        res = _cli("report", source, "--html", page, cwd=tmp_path)
        assert res.exit_code == 0, res.output
        html = page.read_text()
        assert "Models × datasets" in html and "HallusionBench" in html
        bad = html.count('class="num bad"')
        # The summary was written before the edit: all cells agree; the tree now has one
        # report that differs.
        assert bad == (0 if source.suffix == ".csv" else 1), source


def test_a_summary_that_is_not_one_is_bad_input(tmp_path):
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    res = _cli("report", tmp_path / "x.csv", "--html", tmp_path / "x.html", cwd=tmp_path)
    assert res.exit_code == 2 and "not a gaia-fast grade --summary table" in res.output


def test_exit_codes():
    ok = ArchiveRecord("a", "mcq", status="ok")
    assert exit_code([ok, ArchiveRecord("b", "mcq", status="differs")]) == 0
    assert exit_code([ok, ArchiveRecord("b", "mcq", status="needs_judge")]) == 3
    assert exit_code([ArchiveRecord("b", "mcq", status="needs_judge"), ArchiveRecord("c", "gaia", status="error")]) == 1


def test_gaia_single_archive_goes_through_the_executor(tmp_path):
    res = _cli("grade", EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--json", cwd=tmp_path)
    assert res.exit_code == 0, res.output
    payload = json.loads(res.output)
    assert payload["comparison"]["path"] == "answer_comparison.csv" and (tmp_path / "answer_comparison.csv").exists()
    plan = discover.single(EXAMPLES / "results.jsonl")
    from gaia_fast.datasets.gaia import load_metadata

    (record,) = LocalExecutor(1).run(plan, GradeOptions(metadata=load_metadata(EXAMPLES / "dataset", "validation")), [None], [None])
    assert (record.tasks, record.correct) == (payload["tasks"], payload["correct"])


def test_single_vlm_file_prints_its_status_and_keeps_the_archives_report(tree, tmp_path):
    folder = tree / "vila_8b"
    before = (folder / "vila_8b_MMStar_acc.csv").read_bytes()
    res = _cli("grade", "vila_8b_MMStar.xlsx", cwd=folder)
    assert res.exit_code == 2 and "is the archive's own report" in res.output
    assert (folder / "vila_8b_MMStar_acc.csv").read_bytes() == before
    res = _cli("grade", folder / "vila_8b_MMStar.xlsx", cwd=tmp_path)
    assert res.exit_code == 0, res.output
    assert "Status: ok" in res.output and "Archive's own report:" in res.output and "ours 0.4167" in res.output
    res = _cli("grade", folder / "vila_8b_MMStar.xlsx", "--json", "--acc", tmp_path / "x_acc.csv", cwd=tmp_path)
    payload = json.loads(res.output)
    assert payload["status"] == "ok" and payload["archive_headline"] == pytest.approx(0.4166666666666667)


def test_reports_with_columns_in_another_order_and_2023_xlsx_index(tmp_path):
    # ChartQA's split columns come from a Python set upstream: the same cells in another order agree.
    ours = pl.DataFrame({"test_augmented": [63.8], "test_human": [37.9], "Overall": [50.9]})
    theirs = ours.select("test_human", "test_augmented", "Overall")
    assert reporters.report_differences(ours, theirs) == []
    assert reporters.report_differences(ours, theirs.with_columns(pl.lit(1.0).alias("test_human")))[0].startswith("row 1 test_human")
    # 2023's reports were written by pandas' to_excel, row index first: it is not a column.
    frame = pl.DataFrame({"field": ["Overall", "Art"], "acc": [30.8, 20.0]})
    import xlsxwriter

    book = xlsxwriter.Workbook(tmp_path / "r_acc.xlsx")  # the layout of pandas' to_excel: index column, blank header
    sheet = book.add_worksheet()
    sheet.write_row(0, 1, ["field", "acc"])
    for i, row in enumerate(frame.iter_rows()):
        sheet.write_row(i + 1, 0, [i, *row])
    book.close()
    assert reporters.read_report(tmp_path / "r_acc.xlsx").columns == ["field", "acc"]
    assert reporters.report_differences(frame, reporters.read_report(tmp_path / "r_acc.xlsx")) == []


def test_a_record_that_disagrees_with_the_rules_makes_the_file_differ(tmp_path):
    # The archive's recorded verdict for a row the rules decide is the archive's own
    # reading (VLMEvalKit takes answers from its dataset file): where they part, say so.
    judged = Path(__file__).parent / "data" / "vlmevalkit_judged" / "vila_8b_records"
    folder = tmp_path / "vila_8b"
    folder.mkdir()
    shutil.copy(TREE / "vila_8b" / "vila_8b_MMStar.xlsx", folder)
    record = pl.read_excel(judged / "vila_8b_MMStar_openai_result.xlsx")
    job = discover.single(folder / "vila_8b_MMStar.xlsx").jobs[0]
    record.write_excel(folder / "vila_8b_MMStar_openai_result.xlsx")
    same = grade_job(job, GradeOptions())  # the archive's own record: no disagreement
    assert same.detail["result"].stats["record_disagreements"] == 0 and same.status != "differs"
    flipped = record.with_columns(pl.when(pl.col("index") == 0).then(1 - pl.col("hit")).otherwise(pl.col("hit")).alias("hit"))
    flipped.write_excel(folder / "vila_8b_MMStar_openai_result.xlsx")
    record_ = grade_job(job, GradeOptions())
    assert record_.status == "differs"
    assert "1 row(s) where the rules' verdict differs from the archive's recorded one (index 0)" in record_.error


def test_a_report_written_under_another_eras_name_is_still_compared(tree, tmp_path):
    # MTVQA wrote _acc.csv in 2024 and _acc.json at head: whichever the archive holds is checked.
    folder = tree / "vila_8b"
    (folder / "vila_8b_RealWorldQA_acc.csv").rename(folder / "vila_8b_RealWorldQA_acc.json.bak")
    job = next(j for j in discover.expand([str(tree)]).jobs if j.dataset == "RealWorldQA")
    assert grade_job(job, GradeOptions()).archive_report is None
    (folder / "vila_8b_RealWorldQA_score.csv").write_text('"split","Overall"\n"none","0.25"\n')
    record = grade_job(job, GradeOptions())
    assert record.archive_report.endswith("vila_8b_RealWorldQA_score.csv") and record.status == "differs"
