"""`gaia-fast run MODULE:FUNCTION`: importing the agent, loading, running, the summary,
resuming (also after Ctrl-C in a subprocess) and each bad-input path (exit code 2)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_fast.cli.run import run as run_command
from gaia_fast.harness.runner import read_results


def dataset(root: Path, split: str = "validation") -> Path:
    d = root / "2023" / split
    d.mkdir(parents=True)
    rows = [
        {"task_id": f"t{i}", "Question": f"Q{i}?", "Level": i % 3 + 1, "Final answer": "?" if split == "test" else str(i), "file_name": ""}
        for i in range(6)
    ]
    (d / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


AGENT = '''
import asyncio

def solve(task):
    """Right on level 1, wrong elsewhere."""
    return task.answer if task.level == 1 else "wrong"

async def asolve(task):
    await asyncio.sleep(0)
    return task.answer

def crash(task):
    raise RuntimeError("agent crashed on " + task.task_id)

class Agents:
    @staticmethod
    def by_attr(task):
        return task.answer

def judge(task, prediction):
    return True

NOT_CALLABLE = 3
'''


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A dataset, an agent module with a unique name in the cwd, and an invoker."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    name = f"agent_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(AGENT)
    dataset(tmp_path / "ds")

    def invoke(*args: str):
        return CliRunner().invoke(run_command, [str(a) for a in args], catch_exceptions=False)

    return name, invoke


def test_run_prints_summary_and_writes_results(env, tmp_path):
    name, invoke = env
    r = invoke(f"{name}:solve", "--data", "ds", "--out", "results.jsonl", "--parallel", "2", "--timeout", "30")
    assert r.exit_code == 0, r.output
    assert "Macro (mean of levels)" in r.stdout and "Overall (weighted)" in r.stdout
    assert "33.3%" in r.stdout  # 2 of 6 (level 1 only)
    assert "6 task(s): 6 run now, 0 already in results.jsonl" in r.stdout
    rows = read_results(tmp_path / "results.jsonl")
    assert len(rows) == 6 and rows["t0"]["is_correct"] is True and rows["t1"]["is_correct"] is False

    again = invoke(f"{name}:solve", "--data", "ds", "--out", "results.jsonl")
    assert again.exit_code == 0 and "6 task(s): 0 run now, 6 already in results.jsonl" in again.stdout
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 6


def test_json_summary_levels_max_n_seed(env):
    name, invoke = env
    r = invoke(f"{name}:asolve", "--data", "ds", "--out", "a.jsonl", "--level", "1,2", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert (s["tasks"], s["correct"], s["ran"], s["errors"]) == (4, 4, 4, 0)
    assert [x["level"] for x in s["levels"]] == [1, 2] and s["accuracy_weighted"] == 1.0
    r = invoke(f"{name}:asolve", "--data", "ds", "--out", "b.jsonl", "--level", "3", "--level", "1", "--max-n", "3", "--seed", "1", "--json")
    s = json.loads(r.stdout)
    assert s["tasks"] == 3 and {x["level"] for x in s["levels"]} <= {1, 3}


def test_failures_are_reported_not_fatal(env):
    name, invoke = env
    r = invoke(f"{name}:crash", "--data", "ds", "--out", "c.jsonl")
    assert r.exit_code == 0, r.output
    assert "6 failed (0 timed out)" in r.stdout
    rows = read_results("c.jsonl")
    assert rows["t3"]["error"] == "RuntimeError: agent crashed on t3"


def test_targets_file_path_dotted_and_evaluator(env, tmp_path):
    name, invoke = env
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "mine.py").write_text("def go(task):\n    return 'x'\n")
    r = invoke("agents/mine.py:go", "--data", "ds", "--out", "f.jsonl", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["correct"] == 0
    r = invoke("agents/mine.py:go", "--data", "ds", "--out", "g.jsonl", "--evaluator", f"{name}:judge", "--json")
    assert json.loads(r.stdout)["correct"] == 6
    r = invoke(f"{name}:Agents.by_attr", "--data", "ds", "--out", "h.jsonl", "--json")
    assert json.loads(r.stdout)["correct"] == 6


def test_test_split_has_no_truth(env, tmp_path):
    name, invoke = env
    dataset(tmp_path / "ds2", split="test")
    r = invoke(f"{name}:solve", "--data", "ds2", "--split", "test", "--out", "t.jsonl")
    assert r.exit_code == 0, r.output
    assert "6 task(s) have no answer to grade against" in r.stdout
    assert all(row["answer"] == "?" for row in read_results(tmp_path / "t.jsonl").values())


def test_no_resume_starts_afresh(env, tmp_path):
    name, invoke = env
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps({"task_id": "t0", "prediction": "old"}) + "\n")
    r = invoke(f"{name}:asolve", "--data", "ds", "--out", out, "--json")
    assert json.loads(r.stdout)["resumed"] == 1
    r = invoke(f"{name}:asolve", "--data", "ds", "--out", out, "--no-resume", "--json")
    assert json.loads(r.stdout)["resumed"] == 0 and len(out.read_text().splitlines()) == 6


@pytest.mark.parametrize(
    "target, extra, message",
    [
        ("nocolon", [], "expected MODULE:FUNCTION"),
        ("no_such_module_xyz:f", [], "cannot import no_such_module_xyz: ModuleNotFoundError"),
        ("{name}:missing", [], "has no attribute 'missing'"),
        ("{name}:NOT_CALLABLE", [], "is a int, not a callable"),
        ("missing/file.py:f", [], "no such file"),
        ("broken.py:f", [], "cannot import broken.py: ZeroDivisionError"),
        ("{name}:solve", ["--level", "7"], "no validation tasks of level(s) 7"),
        ("{name}:solve", ["--level", "one"], "levels are integers"),
        ("{name}:solve", ["--evaluator", "{name}:nope"], "has no attribute 'nope'"),
        ("{name}:solve", ["--split", "test"], "no metadata.jsonl or metadata*.parquet for split 'test'"),
        ("{name}:solve", ["--out", "ds"], "is a directory"),
    ],
)
def test_bad_input_exits_2(env, tmp_path, target, extra, message):
    name, invoke = env
    (tmp_path / "broken.py").write_text("1 / 0\n")
    args = [target.format(name=name), "--data", "ds", *[e.format(name=name) for e in extra]]
    if "--out" not in extra:
        args += ["--out", "r.jsonl"]
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert not (tmp_path / "r.jsonl").exists()


def test_bad_data_path_exits_2(env):
    name, invoke = env
    r = invoke(f"{name}:solve", "--data", "nowhere", "--out", "r.jsonl")
    assert r.exit_code == 2 and "nowhere" in r.output
    r = invoke(f"{name}:solve", "--data", "ds")
    assert r.exit_code == 2 and "--out" in r.output


SLOW_AGENT = '''
import asyncio

async def slow(task):
    await asyncio.sleep(0.05)
    return task.answer
'''


def test_ctrl_c_then_resume(tmp_path):
    root = tmp_path / "ds"
    d = root / "2023" / "validation"
    d.mkdir(parents=True)
    n = 60
    (d / "metadata.jsonl").write_text(
        "".join(json.dumps({"task_id": f"t{i:02d}", "Question": "q", "Level": 1, "Final answer": str(i)}) + "\n" for i in range(n))
    )
    (tmp_path / "slow_agent.py").write_text(SLOW_AGENT)
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-c", "from gaia_fast.cli.run import run; run()", "slow_agent:slow", "--data", str(root), "--out", str(out), "--parallel", "2"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n") >= 6):
            if proc.poll() is not None:
                pytest.fail(f"the run ended early: {proc.communicate()}")
            time.sleep(0.005)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert b"interrupted:" in stderr and b"run the same command again to resume" in stderr
    done = set(read_results(out))
    assert 6 <= len(done) < n
    resumed = subprocess.run(cmd + ["--json", "--parallel", "8"], cwd=tmp_path, capture_output=True, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    s = json.loads(resumed.stdout)
    assert (s["resumed"], s["ran"], s["correct"]) == (len(done), n - len(done), n)
    ids = [json.loads(x)["task_id"] for x in out.read_text().splitlines()]
    assert len(ids) == n and len(set(ids)) == n
