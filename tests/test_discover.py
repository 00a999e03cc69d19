"""Discovery over VLMEvalKit trees with run folders (tests/data/vlmevalkit_runs/README.md):
one job per model and dataset, from the file VLMEvalKit reads next; links that point nowhere;
the commit's day; side files; GAIA only when a file looks like one; unknown datasets skipped
with the nearest names or graded by their multiple-choice shape."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import shutil
import uuid
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from gaia_fast import benchmarks
from gaia_fast.grading import discover, runs
from gaia_fast.grading.headers import read_columns
from gaia_fast.grading.plan import Job

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "vlmevalkit_tree" / "vila_8b"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "gaia"

_spec = importlib.util.spec_from_file_location("build_tree", DATA / "vlmevalkit_runs" / "build_tree.py")
assert _spec is not None and _spec.loader is not None
build_tree = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_tree)

NEW = f"T20250810_G{build_tree.NEW_COMMIT}"
OLD = f"T20241120_G{build_tree.OLD_COMMIT}"


@pytest.fixture(params=["native", "dangling", "copies"])
def tree(request, tmp_path) -> Path:
    return build_tree.build(tmp_path / "outputs", request.param)


def _by(plan, *keys: str) -> dict:
    out: dict = {}
    for j in plan.jobs:
        k = tuple(getattr(j, key) for key in keys)
        assert k not in out, f"{k} twice: {out[k].path} and {j.path}"
        out[k] = j
    return out


def _in_run(p: Path) -> bool:
    return benchmarks.is_run_folder(p.parent.name)


def test_no_file_is_gaia_and_each_pair_once(tree):
    plan = discover.expand([tree])
    assert not [j for j in plan.jobs if j.benchmark == "gaia"]
    by = _by(plan, "model", "dataset")  # asserts each (model, dataset) once
    assert set(by) == {
        ("instructblip_7b", "MMStar"),
        ("llava_7b", "MMStar"), ("llava_7b", "POPE"),
        ("qwen_vl", "MMStar"), ("qwen_vl", "RealWorldQA"),
        ("vila_8b", "MMStar"), ("vila_8b", "RealWorldQA"), ("vila_8b", "CharXiv_reasoning_val"),
        ("vila_8b", "MyShapeBench"), ("vila_8b", "MyCircularSet"), ("vila_8b", "MMStarr"), ("vila_8b", "MMVet"),
        ("vila_8b", "MMMU_DEV_VAL_gpt-4o-mini"),
    }  # fmt: skip
    # no file read twice, through a link and in its run folder
    real = [os.path.realpath(j.path) for j in plan.jobs]
    assert len(real) == len(set(real))
    # the file VLMEvalKit reads next: the newest run's MMStar, not the older one
    mmstar = by[("vila_8b", "MMStar")]
    assert (mmstar.benchmark, mmstar.run, mmstar.commit) == ("mcq", NEW, build_tree.NEW_COMMIT)
    assert Path(mmstar.path).read_bytes() == (SAMPLE / "vila_8b_MMStar.xlsx").read_bytes()
    assert by[("vila_8b", "RealWorldQA")].run == OLD  # only the older run has it
    # the VLMEvalKit file that came out "gaia, ok, 1.9 %" before: a dataset with no flow here
    charxiv = by[("vila_8b", "CharXiv_reasoning_val")]
    # CharXiv is judge-graded: its flow replays the records beside it (judge records are side files).
    assert charxiv.benchmark == "charxiv_reasoning" and charxiv.run is not None
    assert by[("instructblip_7b", "MMStar")].run is None and by[("instructblip_7b", "MMStar")].note is None
    # every file found is a job or a listed skip
    accounted = [str(j.path) for j in plan.jobs] + [s.path for s in plan.skipped_files]
    found = [str(p) for p in tree.rglob("*") if p.is_file() or p.is_symlink()]
    assert sorted(accounted) == sorted(found)
    older = {Path(s.path).relative_to(tree).as_posix(): s.reason for s in plan.skipped_files}[f"vila_8b/{OLD}/vila_8b_MMStar.xlsx"]
    assert "another copy of vila_8b/vila_8b_MMStar.xlsx" in older and "--all-runs" in older


def test_model_folder_link_or_copy_is_used_when_it_exists(tmp_path):
    for links in ("native", "copies"):
        tree = build_tree.build(tmp_path / links, links)
        by = _by(discover.expand([tree]), "model", "dataset")
        for j in by.values():
            if j.model != "instructblip_7b":
                assert not _in_run(Path(j.path)), j.path  # the model folder's entry
        assert by[("vila_8b", "MMStar")].note is None and by[("vila_8b", "MMStar")].run == NEW


def test_all_runs_grades_every_run_folder_copy_once(tree):
    plan = discover.expand([tree], all_runs=True)
    assert not [j for j in plan.jobs if j.benchmark == "gaia"]
    by = _by(plan, "model", "dataset", "run")
    mmstar = {k[2] for k in by if k[:2] == ("vila_8b", "MMStar")}
    assert mmstar == {OLD, NEW}
    assert {k[2] for k in by if k[:2] == ("qwen_vl", "MMStar")} == {"T20260515-101500"}
    for j in plan.jobs:
        if j.model != "instructblip_7b":
            assert _in_run(Path(j.path)), j.path  # the model folder's copies are the runs' files
    real = [os.path.realpath(j.path) for j in plan.jobs]
    assert len(real) == len(set(real))
    accounted = [str(j.path) for j in plan.jobs] + [s.path for s in plan.skipped_files]
    assert sorted(accounted) == sorted(str(p) for p in tree.rglob("*") if p.is_file() or p.is_symlink())
    assert by[("vila_8b", "MMStar", OLD)].as_of == dt.date(2024, 11, 20)
    assert by[("vila_8b", "MMStar", NEW)].as_of == dt.date(2025, 8, 4)


def test_a_copy_that_matches_no_run_is_graded_with_a_note(tmp_path):
    tree = build_tree.build(tmp_path / "t", "copies")
    edited = tree / "vila_8b" / "vila_8b_MMStar.xlsx"
    pl.read_excel(edited, infer_schema_length=0).with_columns(pl.lit("B").alias("prediction")).write_excel(edited, autofit=False)
    job = _by(discover.expand([tree]), "model", "dataset")[("vila_8b", "MMStar")]
    assert job.path == edited and job.run is None and job.as_of is None
    assert "copy of none of its run folders" in job.note and OLD in job.note and NEW in job.note
    # --all-runs: both runs' copies and the odd one out
    alls = [j for j in discover.expand([tree], all_runs=True).jobs if (j.model, j.dataset) == ("vila_8b", "MMStar")]
    assert sorted((j.run or "") for j in alls) == ["", OLD, NEW]


def test_dangling_links_are_reported_and_the_run_copy_used(tmp_path):
    tree = build_tree.build(tmp_path / "t", "dangling")
    (tree / "vila_8b" / OLD / "vila_8b_RealWorldQA.xlsx").unlink()  # the link's only copy
    plan = discover.expand([tree])
    by = _by(plan, "model", "dataset")
    mmstar = by[("vila_8b", "MMStar")]
    assert mmstar.path == tree / "vila_8b" / NEW / "vila_8b_MMStar.xlsx"
    assert mmstar.run == NEW and mmstar.as_of == dt.date(2025, 8, 4)
    assert str(tree / "vila_8b" / "vila_8b_MMStar.xlsx") in mmstar.note and "does not exist" in mmstar.note
    assert str(build_tree.ELSEWHERE) in mmstar.note
    assert ("vila_8b", "RealWorldQA") not in by
    skipped = {Path(s.path).relative_to(tree).as_posix(): s.reason for s in plan.skipped_files}
    assert "does not exist" in skipped["vila_8b/vila_8b_RealWorldQA.xlsx"] and "no run folder" in skipped["vila_8b/vila_8b_RealWorldQA.xlsx"]
    assert "does not exist" in skipped["vila_8b/vila_8b_MMStar_acc.csv"]  # a side file's dangling link says so too
    # the 2026 run's relative link still resolves: no note
    assert by[("qwen_vl", "MMStar")].path == tree / "qwen_vl" / "qwen_vl_MMStar.xlsx" and by[("qwen_vl", "MMStar")].note is None
    # --all-runs: the dangling link is listed, the run copies graded
    plan = discover.expand([tree], all_runs=True)
    skipped = {Path(s.path).relative_to(tree).as_posix(): s.reason for s in plan.skipped_files}
    assert "run folders' copies are graded" in skipped["vila_8b/vila_8b_MMStar.xlsx"]


def test_as_of_comes_from_the_run_folders_commit(tmp_path):
    tree = build_tree.build(tmp_path / "t", "native")
    by = _by(discover.expand([tree]), "model", "dataset")
    qwen = by[("qwen_vl", "MMStar")]  # the 2026 layout: the commit is in status.json
    assert (qwen.run, qwen.commit, qwen.as_of, qwen.note) == ("T20260515-101500", build_tree.STATUS_COMMIT, dt.date(2026, 5, 11), None)
    unknown = by[("llava_7b", "MMStar")]
    assert (unknown.commit, unknown.as_of) == ("deadbeef", None) and "deadbeef is not in gaia-fast's table" in unknown.note
    nocommit = by[("qwen_vl", "RealWorldQA")]
    assert (nocommit.commit, nocommit.as_of) == (None, None) and "recorded no commit" in nocommit.note
    # the day picks the variant the executor uses: c3371551 brought can_infer's 2025-08 rules
    assert benchmarks.variant_on("mcq", by[("vila_8b", "MMStar")].as_of) == "2025-08"
    assert benchmarks.variant_on("mcq", by[("vila_8b", "RealWorldQA")].as_of) == "classic"
    (tree / "qwen_vl" / "T20260515-101500" / "status.json").unlink()
    qwen = _by(discover.expand([tree]), "model", "dataset")[("qwen_vl", "MMStar")]
    assert qwen.as_of is None and "status.json is missing" in qwen.note


def test_run_folder_names_and_the_commit_table():
    assert benchmarks.is_run_folder("T20250430_G1a2b3c4d") and benchmarks.is_run_folder("T20260515-101500")
    assert benchmarks.is_run_folder("T20250430_Gunknown") and benchmarks.is_run_folder("T20250430_G")
    assert not benchmarks.is_run_folder("T2025_G1") and not benchmarks.is_run_folder("vila_8b")
    assert benchmarks.model_folder("o/m/T20250430_G1a2b3c4d/m_MMStar.xlsx") == Path("o/m")
    rows, length, _ = runs.commit_table()
    assert length == 7 and len(rows) > 1500
    assert rows["4ff78b6"] == dt.date(2024, 11, 8)  # #583 itself
    assert rows["0bccf45"] == dt.date(2026, 6, 17)  # committed 2026-06-18 01:43 +08:00: the UTC day
    assert "392c8e7" not in rows  # VMCBench, merged from a side branch: not a main-line state
    assert runs.commit_day("c3371551")[0] == dt.date(2025, 8, 4)
    assert runs.commit_day("c3371551aaaa")[0] == dt.date(2025, 8, 4)  # a longer hash of the same commit
    day, why = runs.commit_day("zz")
    assert day is None and "not a commit hash" in why
    lines = (Path(runs.__file__).parent.parent / "data" / "vlmevalkit_commits.csv").read_text().splitlines()
    days = [line.split(",")[1] for line in lines[2:]]
    assert days == sorted(days, reverse=True)  # the first-parent history, newest first


def test_side_files_are_listed_not_graded(tmp_path):
    tree = build_tree.build(tmp_path / "t", "native")
    plan = discover.expand([tree])
    skipped = {Path(s.path).relative_to(tree).as_posix(): s.reason for s in plan.skipped_files}
    for name in ("vila_8b_MMVet_gpt4.xlsx", "vila_8b_CharXiv_reasoning_val_gpt-4o-mini.xlsx"):
        for where in ("vila_8b", f"vila_8b/{NEW}"):
            assert "side file of vila_8b_" in skipped[f"{where}/{name}"], name
    assert "_result" in skipped["vila_8b/vila_8b_MMStar_gpt-4o-mini_result.xlsx"]
    assert "judge cache" in skipped["vila_8b/vila_8b_MMVet_gpt4.pkl"]
    assert "run status" in skipped["qwen_vl/status.json"]
    assert not {j.dataset for j in plan.jobs} & {"MMVet_gpt4", "CharXiv_reasoning_val_gpt-4o-mini"}
    # a longer name that is a dataset of its own is a result, not a side file of the shorter one
    m = tmp_path / "m"
    m.mkdir()
    for name in ("MMStar", "MMStar_MINI", "OCRBench", "OCRBench_v2", "MMBench_DEV_EN", "MMBench_DEV_EN_gpt-4o-mini"):
        shutil.copyfile(SAMPLE / "vila_8b_MMStar.xlsx", m / f"m_{name}.xlsx")
    plan = discover.expand([m])
    assert {j.dataset: j.benchmark for j in plan.jobs} == {
        "MMStar": "mcq", "MMStar_MINI": "mcq", "OCRBench": "ocrbench", "OCRBench_v2": "ocrbench_v2", "MMBench_DEV_EN": "mcq-circular",
    }  # fmt: skip
    assert [Path(s.path).name for s in plan.skipped_files] == ["m_MMBench_DEV_EN_gpt-4o-mini.xlsx"]


def test_unknown_dataset_is_skipped_with_the_nearest_names(tmp_path):
    tree = build_tree.build(tmp_path / "t", "native")
    job = _by(discover.expand([tree]), "model", "dataset")[("vila_8b", "MMStarr")]
    assert job.benchmark is None and job.by_shape is False
    assert "unknown dataset MMStarr" in job.reason and "nearest known: MMStar" in job.reason and "not graded" in job.reason
    judge = _by(discover.expand([tree]), "model", "dataset")[("vila_8b", "MMMU_DEV_VAL_gpt-4o-mini")]
    assert judge.benchmark is None and "MMMU_DEV_VAL" in judge.reason
    assert benchmarks.nearest_datasets("RealWorldQ")[0] == "RealWorldQA"
    assert benchmarks.nearest_datasets("qqqqqqqqqqqq") == []


def test_unknown_multiple_choice_table_is_graded_by_shape(tmp_path):
    tree = build_tree.build(tmp_path / "t", "native")
    by = _by(discover.expand([tree]), "model", "dataset")
    shaped = by[("vila_8b", "MyShapeBench")]
    assert (shaped.benchmark, shaped.by_shape, shaped.run) == ("mcq", True, NEW)
    assert "multiple-choice shape" not in shaped.note and "graded by its table's shape" in shaped.note
    circular = by[("vila_8b", "MyCircularSet")]
    assert (circular.benchmark, circular.by_shape) == ("mcq-circular", True) and "circular" in circular.note
    assert not [j for j in by.values() if j.by_shape and j.dataset not in ("MyShapeBench", "MyCircularSet")]
    # the shape needs every column: no question column, no grading by shape
    m = tmp_path / "m"
    m.mkdir()
    build_tree._mcq_frame(question=False).write_excel(m / "m_NoQuestion.xlsx")
    build_tree._mcq_frame().write_csv(m / "m_CsvShape.tsv", separator="\t")
    by = _by(discover.expand([m]), "dataset")
    assert by[("NoQuestion",)].benchmark is None and "not the multiple-choice shape" in by[("NoQuestion",)].reason
    assert (by[("CsvShape",)].benchmark, by[("CsvShape",)].by_shape) == ("mcq", True)
    # a dataset VLMEvalKit grades with its own evaluate is not graded by shape, whatever its
    # columns: one of the coverage page's (its reason from there), one it does not list
    build_tree._mcq_frame().write_excel(m / "m_CMMMU_VAL.xlsx")
    build_tree._mcq_frame().write_excel(m / "m_ChartCap.xlsx")
    by = _by(discover.expand([m]), "dataset")
    job = by[("CMMMU_VAL",)]
    assert job.benchmark is None and "(CMMMU: custom choice/judgement/fill-in matching" in job.reason
    job = by[("ChartCap",)]
    assert job.benchmark is None and "ChartCapDataset.evaluate" in job.reason


def test_gaia_only_by_layout_or_ids(tmp_path):
    runs_dir = tmp_path / "runs"
    runs_dir.mkdir()
    shutil.copy(EXAMPLES / "results.jsonl", runs_dir / "agent_a.jsonl")
    ids = [str(uuid.UUID(int=i)) for i in range(1, 4)]
    pl.DataFrame({"id": ids, "prediction": ["1", "2", "3"], "truth": ["1", "2", "4"]}).write_csv(runs_dir / "uuids.csv")
    pl.DataFrame({"id": ["1", "2", "3"], "prediction": ["1", "2", "3"], "truth": ["1", "2", "4"]}).write_csv(runs_dir / "numbered.csv")
    pl.DataFrame({"x": [1]}).write_parquet(runs_dir / "other.parquet")
    plan = discover.expand([runs_dir])
    assert {j.path.name: j.benchmark for j in plan.jobs} == {"agent_a.jsonl": "gaia", "uuids.csv": "gaia"}
    skipped = {Path(s.path).name: s.reason for s in plan.skipped_files}
    assert "no known GAIA layout" in skipped["numbered.csv"] and "columns: id, prediction, truth" in skipped["numbered.csv"]
    assert "other.parquet" in skipped
    # a VLMEvalKit-named table in a file type VLMEvalKit never writes results in: listed, not GAIA
    build_tree._mcq_frame(question=False).write_ndjson(runs_dir / "vila_8b_MMStar.jsonl")
    skipped = {Path(s.path).name: s.reason for s in discover.expand([runs_dir]).skipped_files}
    assert "named like VLMEvalKit's MMStar results" in skipped["vila_8b_MMStar.jsonl"]
    (runs_dir / "vila_8b_MMStar.jsonl").unlink()
    # ids that match --metadata make it a GAIA archive
    plan = discover.expand([runs_dir], metadata_ids={"1", "2", "3"})
    assert {j.path.name for j in plan.jobs if j.benchmark == "gaia"} == {"agent_a.jsonl", "uuids.csv", "numbered.csv"}
    # a VLMEvalKit table is not GAIA for having a task_id column; ids of the metadata are
    m = tmp_path / "m"
    m.mkdir()
    frame = pl.DataFrame({"index": [0, 1], "task_id": ["a", "b"], "answer": ["x", "y"], "prediction": ["x", "z"]})
    frame.write_excel(m / "m_SomeBench.xlsx")
    assert _by(discover.expand([m]), "dataset")[("SomeBench",)].benchmark is None
    assert discover.expand([m], metadata_ids={"a", "b"}).jobs[0].benchmark == "gaia"


def test_a_file_named_explicitly_keeps_its_behaviour_and_gets_its_run(tmp_path):
    tree = build_tree.build(tmp_path / "t", "native")
    plan = discover.expand([tree / "vila_8b" / NEW / "vila_8b_MMStar.xlsx"])
    [job] = plan.jobs
    assert (job.benchmark, job.model, job.dataset, job.run, job.as_of) == ("mcq", "vila_8b", "MMStar", NEW, dt.date(2025, 8, 4))
    gaia = tmp_path / "results.jsonl"
    shutil.copy(EXAMPLES / "results.jsonl", gaia)
    [job] = discover.expand([gaia]).jobs
    assert (job.benchmark, job.run, job.note) == ("gaia", None, None)
    (tmp_path / "gone.xlsx").symlink_to("/mnt/cluster/nowhere/gone.xlsx")
    with pytest.raises(FileNotFoundError, match="a link to /mnt/cluster/nowhere/gone.xlsx, which does not exist"):
        discover.expand([tmp_path / "gone.xlsx"])


def test_quoted_glob_uses_the_folder_rules(tmp_path):
    tree = build_tree.build(tmp_path / "t", "native")
    plan = discover.expand([str(tree / "vila_8b" / "*.xlsx")])
    assert not [j for j in plan.jobs if j.benchmark == "gaia"]
    names = {j.path.name: j for j in plan.jobs}
    assert names["vila_8b_MMStar.xlsx"].run == NEW and names["vila_8b_MyShapeBench.xlsx"].by_shape
    assert "side file" in {Path(s.path).name: s.reason for s in plan.skipped_files}["vila_8b_MMVet_gpt4.xlsx"]


def test_headers_are_read_without_loading_the_table(tmp_path):
    for f in sorted(SAMPLE.glob("*.xlsx")):
        assert read_columns(f) == pl.read_excel(f, infer_schema_length=0).columns, f.name
    assert read_columns(EXAMPLES / "results.jsonl")[:2] == ["task_id", "level"]
    bad = tmp_path / "m_Broken.xlsx"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="m_Broken.xlsx: cannot read its column names"):
        read_columns(bad)
    job = discover.expand([tmp_path]).jobs[0]
    assert job.benchmark is None and "cannot read" in job.reason


def test_job_fields_have_defaults():
    job = Job(Path("x.xlsx"), "mcq")
    assert (job.run, job.commit, job.as_of, job.by_shape, job.note) == (None, None, None, False, None)


def test_the_cli_grades_each_pair_once_and_nothing_as_gaia(tmp_path, monkeypatch):
    from gaia_fast.cli import main

    tree = build_tree.build(tmp_path / "outputs", "dangling")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", str(tree), "--json", "--report-dir", str(tmp_path / "rep")], catch_exceptions=False)
    payload = json.loads(r.stdout)
    rows = payload["archives"]
    assert not [a for a in rows if a["benchmark"] == "gaia"]
    pairs = [(a["model"], a["dataset"]) for a in rows]
    assert len(pairs) == len(set(pairs)) == 13
    mmstar = next(a for a in rows if (a["model"], a["dataset"]) == ("vila_8b", "MMStar"))
    assert mmstar["path"].endswith(f"{NEW}/vila_8b_MMStar.xlsx") and mmstar["run"] == NEW
    # The run folder's commit (c3371551, 2025-08-04) picks can_infer's 2025-08 rules. The
    # judge records beside it hold no reply for the rows those rules leave open, so the
    # file is incomplete (not ok) and says how many rows need a judge.
    assert (mmstar["variant"], mmstar["status"]) == ("2025-08", "needs_judge")
    assert mmstar["undecided"] == 44 and "44 rows need a judge" in mmstar["error"]
    assert mmstar["archive_headline"] == pytest.approx(0.4166666666666667, abs=0)
    # Incomplete (3) is outranked by an archive that could not be graded (1): the synthetic
    # MMVet file has no category column.
    assert r.exit_code == 1
    assert next(a for a in rows if a["dataset"] == "MMVet")["status"] == "error"
    older = next(a for a in rows if (a["model"], a["dataset"]) == ("vila_8b", "RealWorldQA"))
    assert (older["run"], older["variant"], older["status"]) == (OLD, "classic", "ok")
