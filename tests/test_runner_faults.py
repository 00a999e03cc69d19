"""The runner survives its agents: SystemExit, KeyboardInterrupt, GeneratorExit, a custom
BaseException and a CancelledError raised by agent code are that task's error, in sync
agents (threads) and async ones (also in tasks they spawn); only SIGINT/SIGTERM to the
process stop a run, keeping every finished row, and a rerun resumes. Each scenario runs
as a real subprocess (`gaia-fast run` and a script calling run_sync)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gaia_fast.harness.runner import read_results

N = 10

AGENTS = r'''
import asyncio, sys, time

class Custom(BaseException):
    pass

def throw(e):
    raise e

FAULTS = {
    "t1": lambda: sys.exit(3),
    "t2": lambda: throw(KeyboardInterrupt("pressed by the agent")),
    "t3": lambda: throw(GeneratorExit()),
    "t4": lambda: throw(Custom("custom stop")),
    "t5": lambda: sys.exit(),
    "t6": lambda: throw(StopIteration("stop")),
}

def fault(task):
    f = FAULTS.get(task.task_id)
    if f is not None:
        f()

def sync_agent(task):
    fault(task)
    return task.answer

async def async_agent(task):
    await asyncio.sleep(0)
    if task.task_id == "t7":
        raise asyncio.CancelledError("the agent's own")
    fault(task)
    return task.answer

async def spawning_agent(task):
    async def tool():
        await asyncio.sleep(0)
        fault(task)
        return task.answer
    (value,) = await asyncio.gather(tool())
    return value

def sync_evaluator(task, prediction):
    if task.task_id == "t8":
        sys.exit(4)
    return prediction.prediction == task.answer

def slow_agent(task):
    time.sleep(0.05)
    return task.answer
'''

SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import agents
from gaia_fast.harness import Task
from gaia_fast.harness.runner import run_sync
tasks = [Task(f"t{i}", f"Q{i}?", str(i), 1) for i in range(int(sys.argv[4]))]
evaluator = agents.sync_evaluator if sys.argv[5] == "eval" else None
run_sync(getattr(agents, sys.argv[2]), tasks, parallel=3, out=sys.argv[3], evaluator=evaluator)
print("finished", flush=True)
"""

EXPECTED_ERRORS = {
    "t1": "SystemExit: 3",
    "t2": "KeyboardInterrupt: pressed by the agent",
    "t3": "GeneratorExit",
    "t4": "Custom: custom stop",
    "t5": "SystemExit",
}


def dataset(root: Path, n: int) -> Path:
    d = root / "ds" / "2023" / "validation"
    d.mkdir(parents=True)
    rows = [{"task_id": f"t{i}", "Question": f"Q{i}?", "Level": 1, "Final answer": str(i)} for i in range(n)]
    (d / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root / "ds"


@pytest.fixture
def work(tmp_path):
    (tmp_path / "agents.py").write_text(AGENTS)
    return tmp_path


def cli(work: Path, target: str, out: Path, *extra: str) -> list[str]:
    data = work / "ds"
    if not data.exists():
        dataset(work, N)
    return [sys.executable, "-m", "gaia_fast.cli", "run", target, "--data", str(data), "--out", str(out), "--parallel", "3", *extra]


def script(work: Path, agent: str, out: Path, n: int = N, evaluator: str = "-") -> list[str]:
    return [sys.executable, "-c", SCRIPT, str(work), agent, str(out), str(n), evaluator]


def check_rows(out: Path, n: int = N) -> dict[str, dict]:
    rows = {r["task_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(rows) == sorted(f"t{i}" for i in range(n))
    return rows


@pytest.mark.parametrize("agent", ["sync_agent", "async_agent", "spawning_agent"])
@pytest.mark.parametrize("how", ["cli", "script"])
def test_agent_base_exceptions_are_task_errors(work, how, agent):
    out = work / f"{how}_{agent}.jsonl"
    cmd = cli(work, f"agents:{agent}", out, "--json") if how == "cli" else script(work, agent, out)
    proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    if how == "script":
        assert "finished" in proc.stdout
    else:
        summary = json.loads(proc.stdout)
        assert summary["errors"] == 6 + (agent == "async_agent") and summary["ran"] == N
    rows = check_rows(out)
    for tid, error in EXPECTED_ERRORS.items():
        assert rows[tid]["error"] == error, (tid, rows[tid])
        assert rows[tid]["evaluation_details"] == {"status": "error", "stage": "runner"} and rows[tid]["prediction"] == ""
    # StopIteration cannot leave a coroutine (PEP 479): an async agent's becomes RuntimeError
    assert rows["t6"]["error"] == ("StopIteration: stop" if agent == "sync_agent" else "RuntimeError: coroutine raised StopIteration")
    if agent == "async_agent":
        assert rows["t7"]["error"] == "CancelledError: raised by the agent, not by the run"
    ok = [r for r in rows.values() if r["error"] is None]
    assert len(ok) == N - len(EXPECTED_ERRORS) - 1 - (agent == "async_agent")
    assert all(r["is_correct"] for r in ok)


def test_evaluator_calling_sys_exit_is_that_tasks_error(work):
    out = work / "r.jsonl"
    proc = subprocess.run(script(work, "sync_agent", out, evaluator="eval"), cwd=work, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "finished" in proc.stdout, proc.stderr
    rows = check_rows(out)
    assert rows["t8"]["error"] == "SystemExit: 4" and rows["t8"]["evaluation_details"]["stage"] == "evaluator"
    assert rows["t8"]["prediction"] == "8"  # the answer is kept


def _interrupt(cmd: list[str], cwd: Path, out: Path, sig: int, after: int) -> subprocess.CompletedProcess:
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_bytes().count(b"\n") >= after):
            if proc.poll() is not None:
                pytest.fail(f"the run ended before the signal: {proc.communicate(timeout=10)}")
            if time.monotonic() > deadline:
                pytest.fail("no rows within 60 s")
            time.sleep(0.005)
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_cli_signal_keeps_rows_and_resumes(work, sig):
    n = 80
    dataset(work, n)
    out = work / "r.jsonl"
    cmd = cli(work, "agents:slow_agent", out)
    stopped = _interrupt(cmd, work, out, sig, after=6)
    assert stopped.returncode == 128 + sig, stopped.stderr
    assert "interrupted" in stopped.stderr and "run the same command again to resume" in stopped.stderr
    if sig == signal.SIGTERM:
        assert "by SIGTERM" in stopped.stderr
    data = out.read_bytes()
    assert data.endswith(b"\n")  # the file was closed between rows
    done = set(read_results(out))
    assert 6 <= len(done) < n
    resumed = subprocess.run(cmd + ["--json", "--parallel", "8"], cwd=work, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert (summary["resumed"], summary["ran"], summary["correct"]) == (len(done), n - len(done), n)
    ids = [json.loads(x)["task_id"] for x in out.read_text().splitlines()]
    assert len(ids) == n and len(set(ids)) == n
    assert out.read_bytes().startswith(data)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_run_sync_script_signal_keeps_rows_and_resumes(work, sig):
    n = 80
    out = work / "r.jsonl"
    cmd = script(work, "slow_agent", out, n=n)
    stopped = _interrupt(cmd, work, out, sig, after=6)
    assert "finished" not in stopped.stdout
    if sig == signal.SIGINT:  # a KeyboardInterrupt: the script ends as on Ctrl-C
        assert stopped.returncode == -signal.SIGINT, stopped.stderr
        assert "KeyboardInterrupt: SIGINT:" in stopped.stderr and "task(s) finished" in stopped.stderr
    else:  # SIGTERM delivered again with its default action, after the file was closed
        assert stopped.returncode == -signal.SIGTERM, stopped.stderr
    assert out.read_bytes().endswith(b"\n")
    done = set(read_results(out))
    assert 6 <= len(done) < n
    again = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "finished" in again.stdout, again.stderr
    ids = [json.loads(x)["task_id"] for x in out.read_text().splitlines()]
    assert len(ids) == n and set(ids) == {f"t{i}" for i in range(n)}


def test_agent_keyboard_interrupt_is_not_a_run_interrupt_but_sigint_still_is(work):
    """An agent raising KeyboardInterrupt on every task does not stop the run; a real
    SIGINT during that same run does."""
    (work / "kb.py").write_text(
        "import time\n"
        "def agent(task):\n"
        "    time.sleep(0.05)\n"
        "    raise KeyboardInterrupt('agent')\n"
    )
    n = 80
    dataset(work, n)
    out = work / "r.jsonl"
    stopped = _interrupt(cli(work, "kb:agent", out), work, out, signal.SIGINT, after=10)
    assert stopped.returncode == 130, stopped.stderr
    rows = read_results(out)
    assert 10 <= len(rows) < n and all(r["error"] == "KeyboardInterrupt: agent" for r in rows.values())


def test_sigterm_with_a_custom_handler_is_left_alone(work):
    """A program that handles SIGTERM itself keeps its handler during a run: the signal
    (sent by an agent half way) reaches it and the run goes on."""
    code = (
        "import os, signal, time\n"
        "from gaia_fast.harness import Task\n"
        "from gaia_fast.harness.runner import run_sync\n"
        "seen = []\n"
        "signal.signal(signal.SIGTERM, lambda s, f: seen.append(s))\n"
        "def agent(task):\n"
        "    if task.task_id == 't5':\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        time.sleep(0.2)\n"
        "    return task.answer\n"
        "tasks = [Task(f't{i}', 'q', str(i)) for i in range(20)]\n"
        "run_sync(agent, tasks, parallel=3, out='r.jsonl')\n"
        "print('finished', seen, flush=True)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=work, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"finished [{int(signal.SIGTERM)}]" in proc.stdout
    assert len(read_results(work / "r.jsonl")) == 20


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_signals_restored_after_run(work):
    code = (
        "import signal\n"
        "from gaia_fast.harness import Task\n"
        "from gaia_fast.harness.runner import run_sync\n"
        "run_sync(lambda t: t.answer, [Task('a', 'q', 'x')])\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.split() == ["True", "True"], proc.stderr


def test_await_run_in_a_callers_loop_records_base_exceptions(tmp_path):
    """``await run(...)`` in the caller's own loop: an async agent's SystemExit and
    KeyboardInterrupt (raised in its own frames) and a sync agent's are task errors."""
    import asyncio

    from gaia_fast.harness import Task
    from gaia_fast.harness.runner import run

    async def agent(task: Task) -> str:
        await asyncio.sleep(0)
        if task.task_id == "a":
            raise SystemExit(5)
        if task.task_id == "b":
            raise KeyboardInterrupt
        return task.answer or ""

    def sync_agent(task: Task) -> str:
        if task.task_id == "a":
            raise SystemExit("bye")
        return task.answer or ""

    tasks = [Task(i, "q", i) for i in ("a", "b", "c")]

    async def main() -> tuple[list, list]:
        return await run(agent, tasks, parallel=2), await run(sync_agent, tasks, out=tmp_path / "r.jsonl")

    first, second = asyncio.run(main())
    assert [r.error for r in first] == ["SystemExit: 5", "KeyboardInterrupt", None]
    assert [r.error for r in second] == ["SystemExit: bye", None, None]
    assert len(read_results(tmp_path / "r.jsonl")) == 3
