"""`gaia-fast grade` on bad input, one test per class: what the user gets (exit code and
message naming file, line and field) and what is left on disk (never half a file, never
an input overwritten)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gaia_fast.cli import main

GOOD = [{"task_id": "a", "prediction": "1", "true_answer": "1"}, {"task_id": "b", "prediction": "2", "true_answer": "3"}]


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def _run(*args):
        return CliRunner().invoke(main, ["grade", *map(str, args)], catch_exceptions=False)

    return _run


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# --------------------------------------------------------------------------- empty, binary, truncated


@pytest.mark.parametrize(
    "name, message",
    [
        ("empty.csv", "empty.csv:1: empty file: no header line"),
        ("empty.parquet", "empty.parquet: cannot read Parquet"),
        ("empty.xlsx", "empty.xlsx: cannot read spreadsheet"),
        ("empty.jsonl", "has no truth column"),
    ],
)
def test_empty_file(run, tmp_path, name, message):
    (tmp_path / name).write_bytes(b"")
    r = run(name)
    assert r.exit_code == 2 and message in r.stderr
    assert not (tmp_path / "answer_comparison.csv").exists()


def test_empty_jsonl_with_metadata_counts_every_task_missing(run, tmp_path):
    (tmp_path / "empty.jsonl").write_bytes(b"")
    meta = write_jsonl(tmp_path / "metadata.jsonl", [{"task_id": "a", "Level": 1, "Final answer": "1", "Question": "?", "file_name": ""}])
    s = json.loads(run("empty.jsonl", "--metadata", meta, "--json").stdout)
    assert (s["input_rows"], s["status_counts"]) == (0, {"missing": 1})


@pytest.mark.parametrize(
    "name, message",
    [
        ("bin.jsonl", "bin.jsonl:1: invalid UTF-8"),
        ("bin.csv", "bin.csv:1: invalid UTF-8 in the header"),
        ("bin.parquet", "bin.parquet: cannot read Parquet"),
        ("bin.xlsx", "bin.xlsx: cannot read spreadsheet"),
    ],
)
def test_binary_file(run, tmp_path, name, message):
    (tmp_path / name).write_bytes((bytes(range(128, 256)) + bytes(range(128))) * 8)
    r = run(name)
    assert r.exit_code == 2 and message in r.stderr, r.output


@pytest.mark.parametrize("ext, message", [("parquet", "cannot read Parquet"), ("xlsx", "cannot read spreadsheet")])
def test_truncated_file(run, tmp_path, ext, message):
    frame = pl.DataFrame({"task_id": ["a", "b"], "prediction": ["1", "2"], "truth": ["1", "3"]})
    whole = tmp_path / f"whole.{ext}"
    frame.write_parquet(whole) if ext == "parquet" else frame.write_excel(whole)
    data = whole.read_bytes()
    (tmp_path / f"cut.{ext}").write_bytes(data[: len(data) // 2])
    r = run(f"cut.{ext}")
    assert r.exit_code == 2 and f"cut.{ext}: {message}" in r.stderr


# --------------------------------------------------------------------------- invalid UTF-8, each reader


def test_invalid_utf8_jsonl_names_line_and_field(run, tmp_path):
    (tmp_path / "a.jsonl").write_bytes(b'{"task_id":"a","prediction":"x\xff\xfe","true_answer":"x"}\n')
    r = run("a.jsonl", "--truth-col", "true_answer")
    assert r.exit_code == 2
    assert "a.jsonl:1: field 'prediction': invalid UTF-8" in r.stderr and "no truth column" not in r.stderr


def test_invalid_utf8_jsonl_later_line_and_skip(run, tmp_path):
    (tmp_path / "a.jsonl").write_bytes(b'{"task_id":"a","prediction":"x","true_answer":"x"}\n{"task_id":"b","prediction":"x\xff","true_answer":"x"}\n')
    r = run("a.jsonl")
    assert r.exit_code == 2 and "a.jsonl:2: field 'prediction': invalid UTF-8" in r.stderr
    r = run("a.jsonl", "--skip-bad-lines", "--json")
    assert r.exit_code == 0 and "skipped a.jsonl:2: field 'prediction': invalid UTF-8" in r.stderr
    assert json.loads(r.stdout)["rows"] == 1


@pytest.mark.parametrize("ext, sep", [("csv", b","), ("tsv", b"\t")])
def test_invalid_utf8_csv_tsv(run, tmp_path, ext, sep):
    (tmp_path / f"a.{ext}").write_bytes(sep.join([b"task_id", b"prediction", b"truth"]) + b"\n" + sep.join([b"a", b"1", b"1"]) + b"\n" + sep.join([b"b", b"x\xff", b"2"]) + b"\n")
    r = run(f"a.{ext}")
    assert r.exit_code == 2 and f"a.{ext}:3: field 'prediction': invalid UTF-8" in r.stderr
    r = run(f"a.{ext}", "--skip-bad-lines", "--json")
    assert r.exit_code == 0 and f"skipped a.{ext}:3: field 'prediction': invalid UTF-8" in r.stderr


def test_invalid_utf8_json_document(run, tmp_path):
    (tmp_path / "a.json").write_bytes(b'[{"task_id":"a","prediction":"x\xff","truth":"x"}]')
    r = run("a.json")
    assert r.exit_code == 2 and "a.json: invalid UTF-8" in r.stderr


def test_invalid_utf8_workspace_answer_is_a_read_error_row(run, tmp_path):
    for tid, body in (("t1", b"FINAL ANSWER: 1"), ("t2", b"x\xff")):
        (tmp_path / "ws" / tid).mkdir(parents=True)
        (tmp_path / "ws" / tid / "answer.txt").write_bytes(body)
    meta = write_jsonl(tmp_path / "metadata.jsonl", [{"task_id": t, "Level": 1, "Final answer": "1", "Question": "?", "file_name": ""} for t in ("t1", "t2")])
    s = json.loads(run("ws", "--metadata", meta, "--json").stdout)
    assert s["status_counts"] == {"ok": 1, "read_error": 1} and s["tasks"] == 2


# --------------------------------------------------------------------------- types, columns, ids


def test_wrong_json_types(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", [{"task_id": "a", "prediction": 17, "true_answer": "17"}, {"task_id": "b", "prediction": ["x"], "true_answer": "x"}, {"task_id": {"x": 1}, "prediction": "x", "true_answer": "x"}])
    r = run("a.jsonl")
    assert r.exit_code == 2 and "a.jsonl:3: field 'task_id': task id is a JSON object" in r.stderr
    r = run("a.jsonl", "--skip-bad-lines", "--json", "--out", "o.jsonl")
    assert r.exit_code == 0 and "skipped a.jsonl:3" in r.stderr
    s = json.loads(r.stdout)
    assert s["status_counts"] == {"bad_type": 2} and s["tasks"] == 2 and s["correct"] == 0
    reasons = [json.loads(x)["reason"] for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert "JSON number (17)" in reasons[0] and "JSON array" in reasons[1]


def test_missing_columns(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", [{"task_id": "a", "answer_text": "1"}])
    r = run("a.jsonl")
    assert r.exit_code == 2 and "a.jsonl: cannot tell which column holds the predictions" in r.stderr
    write_jsonl(tmp_path / "b.jsonl", GOOD)
    r = run("b.jsonl", "--truth-col", "gold")
    assert r.exit_code == 2 and "b.jsonl: field 'gold': no truth column 'gold'" in r.stderr
    write_jsonl(tmp_path / "c.jsonl", [{"task_id": "a", "prediction": "1"}])
    r = run("c.jsonl")
    assert r.exit_code == 2 and "has no truth column" in r.stderr


def test_duplicate_ids_warn_and_grade_every_row(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", [*GOOD, {"task_id": "a", "prediction": "5", "true_answer": "1"}])
    r = run("a.jsonl", "--json", "--duplicates", "all")
    assert r.exit_code == 0 and "1 task id(s) occur more than once (every row is graded): a" in r.stderr
    assert json.loads(r.stdout)["rows"] == 3
    # The default (issue 21): the last row of a rerun task is graded, and the count said.
    r = run("a.jsonl", "--json")
    assert r.exit_code == 0 and "1 task id(s) occur more than once (--duplicates last: 1 rerun row(s) not graded): a" in r.stderr
    s = json.loads(r.stdout)
    assert s["rows"] == 2 and s["audit"]["duplicates"] == {"policy": "last", "task_ids": 1, "rows_not_graded": 1}


# --------------------------------------------------------------------------- paths


def test_unreadable_paths(run, tmp_path):
    r = run("nope.jsonl")
    assert r.exit_code == 2 and "nope.jsonl: path does not exist" in r.stderr
    r = run("parts/*.parquet")
    assert r.exit_code == 2 and "parts/*.parquet: no path matches this pattern" in r.stderr
    (tmp_path / "x.parquet").write_bytes(b"")
    os.symlink(tmp_path / "gone.parquet", tmp_path / "dangling.parquet")
    r = run("dangling.parquet")
    assert r.exit_code == 2 and "dangling.parquet: a link to" in r.stderr and "gone.parquet, which does not exist" in r.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_permission_denied(run, tmp_path):
    p = write_jsonl(tmp_path / "a.jsonl", GOOD)
    p.chmod(0)
    try:
        r = run("a.jsonl")
        assert r.exit_code == 2 and "a.jsonl" in r.stderr and "ermission denied" in r.stderr
    finally:
        p.chmod(0o644)


def test_output_into_missing_folder_names_the_users_path(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", GOOD)
    for opt in ("--out", "--comparison"):
        r = run("a.jsonl", opt, "no/such/dir/x.csv")
        assert r.exit_code == 2
        assert f"cannot write no/such/dir/x.csv ({opt}): folder no/such/dir does not exist" in r.stderr
        assert ".tmp" not in r.stderr


def test_output_into_read_only_folder(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", GOOD)
    if os.geteuid() == 0:
        # root writes into chmod-ed folders; a read-only file system still refuses it
        if not os.path.isdir("/sys"):
            pytest.skip("no read-only folder for root")
        target = "/sys/x.parquet"
        r = run("a.jsonl", "--out", target)
        assert r.exit_code == 2 and f"cannot write {target}" in r.stderr and ".tmp" not in r.stderr
        return
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        r = run("a.jsonl", "--out", ro / "x.parquet")
        assert r.exit_code == 2 and f"cannot write {ro / 'x.parquet'} (--out): folder {ro} is not writable" in r.stderr
    finally:
        ro.chmod(0o755)


@pytest.mark.parametrize("how", ["same", "dot", "symlink", "hardlink"])
@pytest.mark.parametrize("opt", ["--out", "--comparison"])
def test_output_equal_to_an_input_is_refused(run, tmp_path, opt, how):
    src = write_jsonl(tmp_path / "a.jsonl", GOOD)
    before = src.read_bytes()
    target = {"same": "a.jsonl", "dot": "./sub/../a.jsonl", "symlink": "link.jsonl", "hardlink": "hard.jsonl"}[how]
    (tmp_path / "sub").mkdir()
    if how == "symlink":
        os.symlink(src, tmp_path / target)
    if how == "hardlink":
        os.link(src, tmp_path / target)
    r = run("a.jsonl", opt, target)
    assert r.exit_code == 2
    assert f"{opt} {Path(target)} is the input a.jsonl: refusing to overwrite an input" in r.stderr
    assert src.read_bytes() == before and not (tmp_path / "answer_comparison.csv").exists()


def test_output_equal_to_the_metadata_is_refused(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", GOOD)
    meta = write_jsonl(tmp_path / "metadata.jsonl", [{"task_id": "a", "Level": 1, "Final answer": "1", "Question": "?", "file_name": ""}])
    before = meta.read_bytes()
    r = run("a.jsonl", "--metadata", meta, "--out", "metadata.jsonl")
    assert r.exit_code == 2 and "is the input" in r.stderr and meta.read_bytes() == before


def test_two_outputs_equal_are_refused(run, tmp_path):
    write_jsonl(tmp_path / "a.jsonl", GOOD)
    r = run("a.jsonl", "--out", "x.csv", "--comparison", "./x.csv")
    assert r.exit_code == 2 and "--comparison x.csv and --out x.csv are the same file" in r.stderr
    assert not (tmp_path / "x.csv").exists()


def test_failed_grade_keeps_old_outputs_and_leaves_no_temporary_file(run, tmp_path):
    lines = [json.dumps({"task_id": f"t{i}", "prediction": "1", "true_answer": "1"}) for i in range(100)]
    lines[70] = '{"task_id": "t70", "prediction": '
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "old.parquet").write_bytes(b"OLD")
    (tmp_path / "answer_comparison.csv").write_bytes(b"OLD CSV")
    r = run("a.jsonl", "--out", "old.parquet")
    assert r.exit_code == 2 and "a.jsonl:71: invalid JSON" in r.stderr
    assert (tmp_path / "old.parquet").read_bytes() == b"OLD"
    assert (tmp_path / "answer_comparison.csv").read_bytes() == b"OLD CSV"
    assert leftovers(tmp_path) == []


# --------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_during_a_long_grade(tmp_path):
    n = 4_000_000
    archive = tmp_path / "big.parquet"
    pl.select(
        pl.format("t{}", pl.int_range(n) % 997).alias("task_id"),
        (pl.int_range(n) % 101).cast(pl.String).alias("prediction"),
        (pl.int_range(n) % 103).cast(pl.String).alias("truth"),
    ).write_parquet(archive)
    out = tmp_path / "scored.parquet"
    out.write_bytes(b"OLD")
    cmp = tmp_path / "cmp.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gaia_fast.cli", "grade", str(archive), "--out", str(out), "--comparison", str(cmp), "--json"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        # Interrupt once the grade is writing (its temporary outputs exist).
        while not any(p.name.startswith(".gaia-fast.") and any(p.iterdir()) for p in tmp_path.iterdir()):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=60)
        stopped = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode != 0
    assert b"Aborted" in err, err
    assert stopped < 30
    assert out.read_bytes() == b"OLD"
    assert not cmp.exists()
    assert leftovers(tmp_path) == []
