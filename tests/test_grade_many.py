"""`gaia-fast grade PATH...` with several archives: folders, globs, VLMEvalKit trees, several
GAIA runs with one --metadata, broken and skipped files, the summary outputs."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gaia_fast.cli import main
from gaia_fast.grading import many

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "gaia"
TREE = Path(__file__).parent / "data" / "vlmevalkit_tree"


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def _run(*args):
        return CliRunner().invoke(main, ["grade", *map(str, args)], catch_exceptions=False)

    return _run


@pytest.fixture
def tree(tmp_path) -> Path:
    """The sample tree plus the kinds of files a real one holds beside the results."""
    root = tmp_path / "outputs"
    shutil.copytree(TREE, root)
    d = root / "vila_8b"
    (d / "vila_8b_MMStar_openai_result.pkl").write_bytes(b"\x80\x04N.")
    shutil.copy(d / "vila_8b_MMStar.xlsx", d / "vila_8b_MMStar_openai_result.xlsx")
    (d / "vila_8b_BMMR_score.csv").write_text("x\n1\n")
    pl.DataFrame({"index": ["0"], "question": ["Is it red?"], "answer": ["Yes"], "prediction": ["Yes"]}).write_excel(d / "vila_8b_BMMR.xlsx")
    return root


def _payload(result) -> dict:
    return json.loads(result.stdout)


def _equal_reports(ours: Path, theirs: Path) -> None:
    a = pl.read_csv(ours, infer_schema_length=0)
    b = pl.read_csv(theirs, infer_schema_length=0)
    assert a.columns == b.columns and a.height == b.height
    if "split" in a.columns and a["split"].sort().to_list() == b["split"].sort().to_list():
        # Splits come from a set upstream (their order varies between runs): match by name.
        a, b = a.sort("split"), b.sort("split")
    for c in a.columns:
        for x, y in zip(a[c].to_list(), b[c].to_list()):
            if c == "split":
                assert x == y
            else:
                assert float(x) == float(y) or (math.isnan(float(x)) and math.isnan(float(y))), (ours.name, c, x, y)


def test_tree_reports_equal_the_archives_own(run, tree, tmp_path):
    reports = tmp_path / "reports"
    r = run(tree, "--json", "--report-dir", reports, "--summary", tmp_path / "summary.csv")
    assert r.exit_code == 0, r.output
    p = _payload(r)
    by_dataset = {a["dataset"]: a for a in p["archives"]}
    assert set(by_dataset) == {
        "MMStar", "RealWorldQA", "ScienceQA_VAL", "CCBench", "MME", "POPE", "HallusionBench", "BMMR",
        "ChartQA_TEST", "TextVQA_VAL", "OCRVQA_TESTCORE",
    }  # fmt: skip
    assert by_dataset["CCBench"]["benchmark"] == "mcq-circular" and by_dataset["CCBench"]["tasks"] == 510
    assert by_dataset["MMStar"]["benchmark"] == "mcq" and by_dataset["MMStar"]["variant"] == "classic"
    assert by_dataset["MMStar"]["accuracy"] == pytest.approx(0.4166666666666667, abs=0)
    unsup = by_dataset["BMMR"]
    assert (unsup["benchmark"], unsup["status"]) == ("unsupported", "skipped") and "math_equal" in unsup["error"]
    assert by_dataset["MME"]["benchmark"] == "mme" and by_dataset["MME"]["report"].endswith("vila_8b_MME_score.csv")
    for a in p["archives"]:
        assert set(many.COLUMNS) <= set(a) <= set(many.COLUMNS) | set(many.OPTIONAL_COLUMNS)
        if a["status"] == "ok":
            assert a["model"] == "vila_8b" and a["rows"] > 0 and a["error"] is None
            _equal_reports(Path(a["report"]), TREE / "vila_8b" / Path(a["report"]).name)
            assert Path(a["report"]).parent == reports / "vila_8b"
    skipped = {Path(s["path"]).name: s["reason"] for s in p["skipped_files"]}
    assert "judge cache" in skipped["vila_8b_MMStar_openai_result.pkl"]
    assert "_result" in skipped["vila_8b_MMStar_openai_result.xlsx"]
    assert "_score" in skipped["vila_8b_BMMR_score.csv"]
    assert "_acc" in skipped["vila_8b_CCBench_acc.csv"]
    assert "not a result file type" in skipped["README.md"]
    table = pl.read_csv(tmp_path / "summary.csv")
    assert table.columns[: len(many.COLUMNS)] == list(many.COLUMNS) and table.height == 11
    # The headline beside the archive's own, for every VLMEvalKit file graded.
    assert {"headline", "archive_headline"} <= set(table.columns) <= set(many.COLUMNS) | set(many.OPTIONAL_COLUMNS)
    assert table.filter(pl.col("dataset") == "CCBench")["correct"].item() == by_dataset["CCBench"]["correct"]


def test_reports_never_replace_the_archives_files(run, tree):
    before = (tree / "vila_8b" / "vila_8b_MMStar_acc.csv").read_bytes()
    r = run(tree, "--json", "--report-dir", tree)
    assert r.exit_code == 0, r.output
    assert (tree / "vila_8b" / "vila_8b_MMStar_acc.csv").read_bytes() == before
    reports = [Path(a["report"]) for a in _payload(r)["archives"] if a["report"]]
    assert reports and all(p.parent.name == "vila_8b-2" for p in reports)
    # a second run does not grade its own earlier reports
    r2 = run(tree, "--json", "--report-dir", tree / "vila_8b-2")
    assert r2.exit_code == 0, r2.output
    assert len(_payload(r2)["archives"]) == 11


def test_printed_table_and_listing(run, tree):
    r = run(tree, "--report-dir", "rep")
    assert r.exit_code == 0, r.output
    assert "mcq-circular" in r.stdout and "CCBench" in r.stdout and "33.92%" in r.stdout
    assert "unsupported" in r.stdout and "skipped" in r.stdout
    assert "Skipped 17 file(s) that are not results" in r.stdout
    assert "vila_8b_MMStar_openai_result.pkl: not a result file: a judge cache" in r.stdout


def test_quoted_glob_and_variant(run, tree):
    r = run(str(tree / "vila_8b" / "vila_8b_*.xlsx"), "--json", "--variant", "2026-06")
    assert r.exit_code == 0, r.output
    p = _payload(r)
    assert sorted(a["dataset"] for a in p["archives"]) == [
        "BMMR", "CCBench", "ChartQA_TEST", "HallusionBench", "MME", "MMStar", "OCRVQA_TESTCORE", "POPE", "RealWorldQA",
        "ScienceQA_VAL", "TextVQA_VAL",
    ]  # fmt: skip
    mcq = [a for a in p["archives"] if a["status"] != "skipped" and a["benchmark"].startswith("mcq")]
    assert {a["variant"] for a in mcq} == {"2026-06"}
    # This tree was graded with the classic matcher: another variant's numbers are not the
    # archive's, and the summary says so instead of calling them ok.
    assert {a["status"] for a in mcq} == {"differs"}
    assert all("differs from the archive's own report" in a["error"] for a in mcq)
    # --variant is a can_infer version; the yes/no files keep their own default
    assert {a["variant"] for a in p["archives"] if a["benchmark"] in ("mme", "pope", "hallusionbench")} == {"classic"}
    assert {a["variant"] for a in p["archives"] if a["benchmark"] in ("chartqa", "textvqa", "ocrvqa")} == {"classic"}
    assert "vila_8b_MMStar_openai_result.xlsx" in {Path(s["path"]).name for s in p["skipped_files"]}
    r = run(str(tree / "nothing_*.xlsx"))
    assert r.exit_code == 2 and "no path matches" in r.output


def test_several_gaia_runs_with_one_metadata_and_a_broken_file(run, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(EXAMPLES / "results.jsonl", runs / "agent_a.jsonl")
    rows = [json.loads(line) for line in (EXAMPLES / "results.jsonl").read_text().splitlines() if line.strip()]
    for row in rows[:3]:
        row["prediction"] = "wrong on purpose"
    (runs / "agent_b.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (runs / "broken.jsonl").write_text('{"task_id": "x", "prediction": "1"}\nnot json at all\n')
    shutil.copytree(EXAMPLES / "workspace", runs / "ws_run")
    shutil.copytree(EXAMPLES / "dataset", runs / "dataset")  # metadata kept beside the runs
    r = run(runs, "--metadata", EXAMPLES / "dataset", "--json", "--report-dir", tmp_path / "rep", "--summary", tmp_path / "s.parquet")
    assert r.exit_code == 1, r.output
    p = _payload(r)
    by = {a["dataset"]: a for a in p["archives"]}
    assert set(by) == {"agent_a", "agent_b", "broken", "ws_run"}
    a = by["agent_a"]
    assert (a["benchmark"], a["status"], a["rows"], a["tasks"], a["correct"]) == ("gaia", "ok", 11, 12, 7)
    assert a["accuracy"] == pytest.approx(7 / 12)
    # the same numbers as the single-archive command
    single = json.loads(run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--json").stdout)
    assert (a["tasks"], a["correct"], a["accuracy"]) == (single["tasks"], single["correct"], single["accuracy_weighted"])
    assert by["agent_b"]["correct"] < a["correct"]
    assert by["ws_run"]["status"] == "ok" and by["ws_run"]["tasks"] == 12
    b = by["broken"]
    assert b["status"] == "error" and "broken.jsonl" in b["error"] and "broken.jsonl:2: invalid JSON" in b["error"]
    comparison = Path(a["report"])
    assert comparison == tmp_path / "rep" / "agent_a" / "answer_comparison.csv"
    assert comparison.read_bytes().startswith(b"task_id,level,expected_answer,actual_answer,match\r\n")
    assert [(Path(s["path"]).name, s["reason"]) for s in p["skipped_files"]] == [("dataset", "GAIA task metadata (pass it as --metadata)")]
    table = pl.read_parquet(tmp_path / "s.parquet")
    assert table["status"].to_list() == [x["status"] for x in p["archives"]]


def test_one_archive_keeps_todays_output(run, tmp_path):
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset")
    assert r.exit_code == 0 and "Accuracy by level" in r.stdout
    assert (tmp_path / "answer_comparison.csv").exists() and not (tmp_path / "gaia-fast-reports").exists()
    # --benchmark auto on one VLMEvalKit file: that file's own report, as --benchmark mcq would
    shutil.copy(TREE / "vila_8b" / "vila_8b_RealWorldQA.xlsx", tmp_path / "vila_8b_RealWorldQA.xlsx")
    r = run(tmp_path / "vila_8b_RealWorldQA.xlsx", "--benchmark", "auto", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["benchmark"] == "mcq"
    assert (tmp_path / "vila_8b_RealWorldQA_acc.csv").exists()


def test_single_archive_options_are_refused_in_bulk(run, tree):
    r = run(tree, "--submission")
    assert r.exit_code == 2 and "--submission applies to one archive" in r.output
    r = run(tree, "--summary", "s.txt")
    assert r.exit_code == 2 and ".csv or .parquet" in r.output


def test_explicit_benchmark_for_every_file(run, tree, tmp_path):
    r = run(tree / "vila_8b" / "vila_8b_CCBench.xlsx", tree / "vila_8b" / "vila_8b_RealWorldQA.xlsx", "--benchmark", "mcq", "--json")
    assert r.exit_code == 0, r.output
    by = {a["dataset"]: a for a in _payload(r)["archives"]}
    assert by["CCBench"]["benchmark"] == "mcq" and by["CCBench"]["tasks"] == 2040


def test_parquet_dataset_and_workspace_predicates(tmp_path):
    part = tmp_path / "ds"
    (part / "day=1").mkdir(parents=True)
    (part / "day=2").mkdir(parents=True)
    frame = pl.DataFrame({"task_id": ["a"], "prediction": ["1"], "truth": ["1"]})
    frame.write_parquet(part / "day=1" / "part-0.parquet")
    frame.with_columns(pl.lit("b").alias("task_id")).write_parquet(part / "day=2" / "part-0.parquet")
    (part / "_SUCCESS").write_text("")
    assert many.is_parquet_dataset(part)
    pl.DataFrame({"other": [1]}).write_parquet(part / "part-2.parquet")
    assert not many.is_parquet_dataset(part)  # not one table
    (part / "part-2.parquet").unlink()
    (part / "notes.txt").write_text("x")
    assert not many.is_parquet_dataset(part)
    assert not many.is_parquet_dataset(tmp_path / "missing")
    assert many.is_workspace(EXAMPLES / "workspace") and not many.is_workspace(part)
    (part / "notes.txt").unlink()
    (tmp_path / "notes.md").write_text("x")  # so tmp_path itself is not one dataset
    plan = many.expand([str(tmp_path)])
    assert [(j.path, j.benchmark) for j in plan.jobs] == [(part, "gaia")]
    assert [Path(s.path).name for s in plan.skipped_files] == ["notes.md"]
    (record,) = many.grade_many(plan, report_dir=tmp_path / "rep")
    assert (record.status, record.rows, record.tasks, record.correct) == ("ok", 2, 2, 2), record
    assert (tmp_path / "rep" / "ds" / "answer_comparison.csv").read_text().count("True") == 2


def test_library_records_and_threads(tree, tmp_path):
    plan = many.expand([tree], exclude=tmp_path / "r")
    seen = []
    records = many.grade_many(plan, report_dir=tmp_path / "r", jobs=3, on_done=seen.append)
    assert [r.path for r in records] == [str(j.path) for j in plan.jobs]
    assert sorted(r.path for r in seen) == sorted(r.path for r in records)
    frame = many.records_frame(records)
    assert frame.columns[: len(many.COLUMNS)] == list(many.COLUMNS) and frame.height == len(plan.jobs)
    serial = many.grade_many(plan, report_dir=None, jobs=1)
    assert [(r.accuracy, r.correct) for r in serial] == [(r.accuracy, r.correct) for r in records]
    assert all(r.report is None for r in serial)
