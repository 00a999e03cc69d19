"""`gaia-fast grade PATH...` (several archives) with the options a single archive takes:
--out DIR (one scored table per archive), --compare and --explain for the GAIA archives,
the judge options for the VLMEvalKit families; GAIA archives stream through the plan of
the single-archive command, so every output equals the single calls' byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from gaia_fast.benchmarks import detect

from gaia_fast.grading import many
from test_cli_judge_faults import JudgeServer
from test_grade_many import EXAMPLES, TREE, run  # noqa: F401 - run is the CLI fixture

@pytest.fixture
def runs(tmp_path) -> Path:
    """Three GAIA runs of one agent (JSONL, CSV, Parquet) and a workspace folder."""
    root = tmp_path / "runs"
    root.mkdir()
    rows = [json.loads(line) for line in (EXAMPLES / "results.jsonl").read_text().splitlines() if line.strip()]
    shutil.copy(EXAMPLES / "results.jsonl", root / "agent_a.jsonl")
    for row in rows[:3]:
        row["prediction"] = f"{row['prediction']} units" if row.get("prediction") else "wrong"
    frame = pl.DataFrame([{k: r.get(k) for k in ("task_id", "level", "question", "prediction")} for r in rows])
    frame.write_csv(root / "agent_b.csv")
    frame.with_columns(pl.lit("run c").alias("note")).write_parquet(root / "agent_c.parquet")
    shutil.copytree(EXAMPLES / "workspace", root / "ws_run")
    return root


def _single(run, tmp_path: Path, archive: Path, *extra) -> tuple[dict, Path, Path]:
    d = tmp_path / "single" / archive.name
    d.mkdir(parents=True)
    r = run(archive, "--metadata", EXAMPLES / "dataset", "--comparison", d / "answer_comparison.csv", "--out", d / "out.parquet", "--json", *extra)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), d / "answer_comparison.csv", d / "out.parquet"


def test_gaia_archives_bulk_equals_single_calls(run, runs, tmp_path):
    rep, out = tmp_path / "rep", tmp_path / "scored"
    args = ("--metadata", EXAMPLES / "dataset", "--report-dir", rep, "--out", out, "--compare", "gaia-lenient", "--explain", "--json")
    r = run(runs, *args)
    assert r.exit_code == 0, r.output
    p = json.loads(r.stdout)
    by = {a["dataset"]: a for a in p["archives"]}
    assert set(by) == {"agent_a", "agent_b", "agent_c", "ws_run"}
    # GAIA archives fill the optional columns of --out and --compare, not VLMEvalKit's.
    assert set(p["archives"][0]) == set(many.COLUMNS) | {"out", "compare", "compare_accuracy", "disagreements"}
    assert p["out"] == str(out)
    for name, archive in (("agent_a", "agent_a.jsonl"), ("agent_b", "agent_b.csv"), ("agent_c", "agent_c.parquet"), ("ws_run", "ws_run")):
        a = by[name]
        single, cmp_file, out_file = _single(run, tmp_path, runs / archive, "--compare", "gaia-lenient", "--explain")
        assert a["status"] == "ok", a
        assert (a["rows"], a["tasks"], a["correct"], a["accuracy"]) == (
            single["input_rows"],
            single["tasks"],
            single["correct"],
            single["accuracy_weighted"],
        )
        assert (a["compare"], a["compare_accuracy"], a["disagreements"]) == (
            "gaia-lenient",
            single["compare"]["summary"]["accuracy_weighted"],
            single["compare"]["disagreements"],
        )
        # the same plan: the report and the scored table equal the single call's to the byte / cell
        assert Path(a["report"]) == rep / name / "answer_comparison.csv"
        assert Path(a["report"]).read_bytes() == cmp_file.read_bytes()
        stem = archive.rsplit(".", 1)[0]
        assert Path(a["out"]) == out / f"{stem}.scored.parquet"
        ours, theirs = pl.read_parquet(a["out"]), pl.read_parquet(out_file)
        assert "reason" in ours.columns and "compare_score" in ours.columns
        assert ours.equals(theirs, null_equal=True), name
    assert by["agent_b"]["correct"] < by["agent_a"]["correct"]
    assert by["agent_b"]["disagreements"] > 0  # "N units" is wrong for the official scorer, right for the lenient one

    # a second run over the same tree never grades the scored tables it wrote, wherever --out is
    r2 = run(runs, "--metadata", EXAMPLES / "dataset", "--report-dir", rep, "--out", runs / "scored", "--json")
    r3 = run(runs, "--metadata", EXAMPLES / "dataset", "--report-dir", rep, "--json")
    assert r2.exit_code == 0 and r3.exit_code == 0, r3.output
    assert {a["dataset"] for a in json.loads(r3.stdout)["archives"]} == set(by)
    assert {Path(s["path"]).name for s in json.loads(r3.stdout)["skipped_files"]} == {"scored"} or all(
        "scored table" in s["reason"] for s in json.loads(r3.stdout)["skipped_files"]
    )


def test_gaia_archives_stream_in_the_bulk_path(run, runs, tmp_path, monkeypatch):
    """JSONL, CSV and Parquet archives never go through the eager reader."""
    from gaia_fast.io import readers

    def eager(*args, **kwargs):
        raise AssertionError(f"eager read of {args[0] if args else kwargs}")

    monkeypatch.setattr(readers, "read_archive", eager)
    (runs / "ws_run").rename(tmp_path / "ws_run")  # a workspace is small and read eagerly
    r = run(runs, "--metadata", EXAMPLES / "dataset", "--report-dir", tmp_path / "rep", "--json")
    assert r.exit_code == 0, r.output
    assert [a["status"] for a in json.loads(r.stdout)["archives"]] == ["ok", "ok", "ok"]


def test_out_for_vlm_archives_equals_single_calls(run, tmp_path):
    tree = tmp_path / "outputs"
    shutil.copytree(TREE, tree)
    (tree / "llava").mkdir()
    shutil.copy(TREE / "vila_8b" / "vila_8b_MMStar.xlsx", tree / "llava" / "llava_MMStar.xlsx")
    pl.DataFrame({"index": ["0"], "question": ["Is it red?"], "answer": ["Yes"], "prediction": ["Yes"]}).write_excel(tree / "llava" / "llava_BMMR.xlsx")
    r = run(tree, "--out", tmp_path / "scored", "--report-dir", tmp_path / "rep", "--json")
    assert r.exit_code == 0, r.output
    archives = json.loads(r.stdout)["archives"]
    records = [a for a in archives if a["status"] in ("ok", "unverified")]
    # llava's MMStar copy has no judge records and no report beside it: the rows the rules
    # leave open are matched exactly, and the summary says that cannot be checked.
    assert next(a for a in archives if a["model"] == "llava" and a["dataset"] == "MMStar")["status"] == "unverified"
    # every result file of a known dataset (the tree's, and llava's MMStar; BMMR has no flow)
    assert len(records) == sum(1 for p in tree.rglob("*.xlsx") if detect(p)) >= 11
    for a in records:
        src = Path(a["path"])
        # the folders below the one all archives share are kept: one model per folder
        assert Path(a["out"]) == tmp_path / "scored" / src.parent.name / f"{src.stem}.scored.parquet"
        single = tmp_path / "single" / f"{src.stem}.parquet"
        single.parent.mkdir(exist_ok=True)
        s = run(src, "--benchmark", a["benchmark"], "--out", single, "--acc", tmp_path / "single" / f"{src.stem}_acc.csv", "--json")
        assert s.exit_code == 0, s.output
        assert pl.read_parquet(a["out"]).equals(pl.read_parquet(single), null_equal=True), src.name
    skipped = [a for a in json.loads(r.stdout)["archives"] if a["status"] == "skipped"]
    assert skipped and all(a["out"] is None for a in skipped)


def test_out_refuses_two_archives_to_one_file_and_inputs(run, runs, tmp_path):
    pl.read_csv(runs / "agent_b.csv", infer_schema_length=0).write_ndjson(runs / "agent_b.jsonl")
    r = run(runs, "--metadata", EXAMPLES / "dataset", "--out", tmp_path / "scored")
    assert r.exit_code == 2
    assert "agent_b.csv and " in r.output and "agent_b.jsonl would both be written to" in r.output
    assert not (tmp_path / "scored").exists() and not (tmp_path / "gaia-fast-reports").exists()
    (runs / "agent_b.jsonl").unlink()
    (runs / "agent_a.scored.parquet").write_bytes(b"a file the user keeps")
    r = run(runs, "--metadata", EXAMPLES / "dataset", "--out", runs)
    assert r.exit_code == 2 and "would replace the input" in r.output and "agent_a.scored.parquet" in r.output
    assert (runs / "agent_a.scored.parquet").read_bytes() == b"a file the user keeps"
    r = run(runs, "--out", "scored.parquet")
    assert r.exit_code == 2 and "looks like a file name" in r.output and "names a folder" in r.output
    (tmp_path / "afile").write_text("x")
    r = run(runs, "--out", tmp_path / "afile")
    assert r.exit_code == 2 and "is a file" in r.output


def test_options_refused_with_a_reason(run, runs, tmp_path):
    xlsx = tmp_path / "m_RealWorldQA.xlsx"
    shutil.copy(TREE / "vila_8b" / "vila_8b_RealWorldQA.xlsx", xlsx)
    cases = [
        ((runs, "--submission"), "--submission applies to one archive"),
        ((runs, "--acc", "a.csv"), "--report-dir"),
        ((runs, "--comparison", "c.csv"), "--report-dir/<run>/"),
        ((runs, "--explain"), "give --out DIR"),
        ((xlsx, TREE / "vila_8b" / "vila_8b_MMStar.xlsx", "--compare", "gaia-lenient"), "none of the 2 archive(s) is one"),
        ((runs, "--metadata", EXAMPLES / "dataset", "--judge-model", "m"), "GAIA archives are scored without a judge"),
        ((xlsx, TREE / "vila_8b" / "vila_8b_MMStar.xlsx", "--save-judge-responses", "j.jsonl"), "needs a judge"),
    ]
    for args, text in cases:
        r = run(*args)
        assert r.exit_code == 2 and text in r.output, (args, r.output)
    assert not (tmp_path / "gaia-fast-reports").exists()


def test_judge_options_apply_to_the_families_that_use_a_judge(run, runs, tmp_path, monkeypatch):
    folder = tmp_path / "mixed"
    folder.mkdir()
    frame = pl.DataFrame(
        {
            "index": [1, 2, 3],
            "question": ["Which?"] * 3,
            "A": ["red"] * 3,
            "B": ["blue"] * 3,
            "answer": ["A", "B", "A"],
            "prediction": ["A", "I cannot tell", "no idea at all"],
        }
    )
    frame.write_excel(folder / "m_LiveXivVQA.xlsx")
    shutil.copy(runs / "agent_a.jsonl", folder / "agent_a.jsonl")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with JudgeServer(ok_first=None) as judge:
        common = ("--judge-model", "m", "--judge-base-url", judge.url, "--no-judge-cache")
        r = run(folder, "--metadata", EXAMPLES / "dataset", "--out", tmp_path / "scored", "--save-judge-responses", tmp_path / "j.jsonl", "--json", *common)
        assert r.exit_code == 0, r.output
        asked = len(judge.prompts)
        single = tmp_path / "single.parquet"
        s = run(folder / "m_LiveXivVQA.xlsx", "--benchmark", "livexivvqa", "--out", single, "--acc", tmp_path / "acc.csv", *common)
        assert s.exit_code == 0, s.output
    # the two rows can_infer leaves to the judge, asked again while the reply names no option: the same in both runs
    assert asked >= 2 and len(judge.prompts) == 2 * asked
    by = {a["dataset"]: a for a in json.loads(r.stdout)["archives"]}
    assert by["agent_a"]["status"] == by["LiveXivVQA"]["status"] == "ok"
    rows = pl.read_parquet(by["LiveXivVQA"]["out"])
    assert rows.equals(pl.read_parquet(single), null_equal=True)
    assert rows["reason"][1:].str.contains("random_fallback").all()  # the reply names no option
    saved = [json.loads(line) for line in (tmp_path / "j.jsonl").read_text().splitlines()]
    assert len(saved) == asked and all(x["reply"] == "True" and x["error"] is None for x in saved)
