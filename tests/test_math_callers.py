"""The math API from every kind of caller, each a real Python process: a script without a
``__main__`` guard, ``python -``, ``python -c``, a notebook-like ``__main__``, threads, a
running event loop. Also: the hard timeout on a hostile pair, a worker that cannot
start, and workers that never outlive their parent (normal exit, ``os._exit``, SIGKILL)."""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gaia_fast._native as nat

TESTS = Path(__file__).resolve().parent
ISSUE = 'import gaia_fast as gf\nprint(gf.math.olympiad_equal(r"\\frac{x^2-1}{x-1}", "x+1"))\n'
# Pairs the native fast paths leave to SymPy (checked below), with SymPy's verdicts.
PAIRS = [
    (r"\frac{x^2-1}{x-1}", "x+1", True),
    ("x^2+2x+1", "(x+1)^2", True),
    ("x^2", "x^3", False),
    (r"\frac{x^2-4}{x-2}", "x+3", False),
]
HOSTILE = ("(x+y+z+1)^{30}", "x^{30}+1")  # SymPy needs tens of seconds on this pair
LIMIT = 240  # seconds for any one child process (a loaded machine starts SymPy slowly)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), *filter(None, [env.get("PYTHONPATH")])])
    return env


class _Children:
    """The calling-context processes, all started at once (they mostly wait on start-up
    and on each other's CPU, so together they take about as long as the slowest)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.procs: dict[str, subprocess.Popen] = {}
        self.done: dict[str, tuple[int, subprocess.CompletedProcess]] = {}

    def start(self, name: str, args: list[str], stdin: str | None = None) -> None:
        source = subprocess.DEVNULL
        if stdin is not None:
            (self.folder / f"{name}.stdin").write_text(stdin)
            source = open(self.folder / f"{name}.stdin")  # noqa: SIM115 - closed after Popen
        try:
            self.procs[name] = subprocess.Popen(
                [sys.executable, *args],
                cwd=self.folder,
                env=_env(),
                stdin=source,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        finally:
            if stdin is not None:
                source.close()  # type: ignore[union-attr]

    def result(self, name: str) -> tuple[int, subprocess.CompletedProcess]:
        """The child's pid and its completed run (waits at most LIMIT seconds)."""
        if name not in self.done:
            proc = self.procs[name]
            try:
                out, err = proc.communicate(timeout=LIMIT)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate(timeout=30)
                pytest.fail(f"{name} did not finish within {LIMIT} s\n{err}")
            self.done[name] = (proc.pid, subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
        return self.done[name]

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.communicate(timeout=30)


def _state(pid: int) -> str | None:
    """The process state letter from /proc, None if there is no such process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


def _alive(pid: int) -> bool:
    if sys.platform.startswith("linux"):
        return _state(pid) not in (None, "Z")  # a zombie has exited; only reaping is left
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _workers_of(parent: int) -> list[int]:
    """Live math workers started by process ``parent`` (their command line names it)."""
    if not sys.platform.startswith("linux"):
        return []
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if any(b"gaia_fast.math.worker" in a for a in argv) and any(f'"parent": {parent}}}'.encode() in a for a in argv):
            if _alive(int(entry)):
                found.append(int(entry))
    return found


def _none_left(pids: list[int], parent: int, limit: float = 15.0) -> list[int]:
    """Waits up to ``limit`` s for the workers to end; returns those still running."""
    deadline = time.monotonic() + limit
    while True:
        left = sorted({p for p in pids if _alive(p)} | set(_workers_of(parent)))
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def _ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "EOFError" not in result.stderr, result.stderr
    return result.stdout


def test_the_pairs_need_sympy():
    for a, b, _ in PAIRS:
        assert nat.olympiad_judge_fast(a, b, None, "openbmb")[0] == "pending"
    assert nat.olympiad_judge_fast(*HOSTILE, None, "openbmb")[0] == "pending"


THREADS = f"""
import json, threading
import gaia_fast as gf
PAIRS = {[(a, b) for a, b, _ in PAIRS]!r}
out, errors = [None] * 4, []
barrier = threading.Barrier(4, timeout=60)
def work(i):
    try:
        barrier.wait()
        out[i] = gf.math.olympiad_equal(*PAIRS[i])
    except BaseException as e:
        errors.append(repr(e))
threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=180)
print(json.dumps({{"out": out, "errors": errors, "hung": [t.is_alive() for t in threads]}}))
"""

EVENT_LOOP = f"""
import asyncio, json
import gaia_fast as gf
PAIRS = {[(a, b) for a, b, _ in PAIRS]!r}
async def main():
    asyncio.get_running_loop()
    direct = gf.math.olympiad_equal(*PAIRS[0])  # a blocking call made from a coroutine
    many = await asyncio.wait_for(
        asyncio.gather(*(asyncio.to_thread(gf.math.olympiad_equal, a, b) for a, b in PAIRS)), 180
    )
    return [direct, *many]
print(json.dumps(asyncio.run(main())))
"""

HOSTILE_RUN = f"""
import json, time
from gaia_fast.math.olympiad import judge_many, olympiad_pool
from gaia_fast.reference.vlm_olympiad import is_equal
pool = olympiad_pool(2.0)  # the pool of olympiad_equal(..., timeout=2.0)
# Workers up before the clock starts (a generous limit: the machine may be loaded).
assert not pool.map(is_equal, [("x^2", "x^3", 1e-8, "openbmb")], timeout=120)[0].value
t0 = time.monotonic()
(d,) = judge_many([{HOSTILE[0]!r}], [{HOSTILE[1]!r}], timeout=2.0)
seconds = time.monotonic() - t0
(after,) = pool.map(is_equal, [(r"\\frac{{x^2-1}}{{x-1}}", "x+1", 1e-8, "openbmb")], timeout=120)
print(json.dumps({{"status": d.status, "equal": d.equal, "seconds": seconds, "after": bool(after.value)}}))
"""

NOTEBOOK = (  # a notebook's __main__ is made at run time, without __file__; cells are exec'd in it
    "import sys, types\n"
    "main = types.ModuleType('__main__')\n"
    "sys.modules['__main__'] = main\n"
    f"exec(compile({ISSUE!r}, '<cell 1>', 'exec'), main.__dict__)\n"
)

IPYTHON = ["-m", "IPython", "--no-banner", "--quick", "--HistoryManager.enabled=False", "--colors=NoColor", "-c", ISSUE]


@pytest.fixture(scope="module")
def children(tmp_path_factory):
    folder = tmp_path_factory.mktemp("callers")
    (folder / "s.py").write_text(ISSUE)
    kids = _Children(folder)
    try:
        kids.start("script", ["s.py"])
        kids.start("stdin", ["-"], stdin=ISSUE)
        both = ISSUE + 'print(gf.math.physics_equal("x^2+2x+1", "(x+1)^2"), gf.math.physics_equal("x^2", "x^3"))\n'
        kids.start("dash_c", ["-c", both])
        kids.start("notebook", ["-c", NOTEBOOK])
        if importlib.util.find_spec("IPython") is not None:
            kids.start("ipython", IPYTHON)
        kids.start("threads", ["-c", THREADS])
        kids.start("event_loop", ["-c", EVENT_LOOP])
        kids.start("hostile", ["-c", HOSTILE_RUN])
        no_python = "import multiprocessing\nmultiprocessing.set_executable('/no/such/python')\n" + ISSUE
        kids.start("cannot_start", ["-c", no_python])
        yield kids
    finally:
        kids.stop()


def test_a_script_without_a_main_guard(children):
    pid, result = children.result("script")
    assert _ok(result).split() == ["True"]
    assert _none_left([], pid) == []


def test_python_dash_reading_stdin(children):
    pid, result = children.result("stdin")
    assert _ok(result).split() == ["True"]
    assert _none_left([], pid) == []


def test_python_dash_c_with_both_math_functions(children):
    pid, result = children.result("dash_c")
    assert _ok(result).split() == ["True", "True", "False"]
    assert _none_left([], pid) == []


def test_a_notebook_like_main(children):
    pid, result = children.result("notebook")
    assert _ok(result).split() == ["True"]
    assert _none_left([], pid) == []


def test_ipython(children):
    if "ipython" not in children.procs:
        pytest.skip("IPython is not installed")
    pid, result = children.result("ipython")
    assert result.returncode == 0, result.stderr
    assert "EOFError" not in result.stdout + result.stderr and "Traceback" not in result.stdout
    assert result.stdout.split()[-1] == "True"
    assert _none_left([], pid) == []


def test_four_threads_at_once(children):
    pid, result = children.result("threads")
    got = json.loads(_ok(result))
    assert got == {"out": [v for _, _, v in PAIRS], "errors": [], "hung": [False] * 4}
    assert _none_left([], pid) == []


def test_inside_a_running_event_loop(children):
    pid, result = children.result("event_loop")
    assert json.loads(_ok(result)) == [True] + [v for _, _, v in PAIRS]
    assert _none_left([], pid) == []


def test_a_hostile_pair_is_stopped_at_its_timeout(children):
    pid, result = children.result("hostile")
    got = json.loads(_ok(result))
    assert got["status"] == "timeout" and got["equal"] is False and got["after"] is True
    assert 2.0 <= got["seconds"] < 15.0
    assert _none_left([], pid) == []


def test_a_worker_that_cannot_start_is_a_clear_error(children):
    _, result = children.result("cannot_start")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "gaia_fast.math.pool.WorkerStartError: math worker could not start: cannot run '/no/such/python'"
    )


KILL_PARENT = """
import json, os, sys, time
from gaia_fast.math.pool import SympyPool
from _pool_funcs import hold_gil, sleepy, square
pool = SympyPool(workers=2, timeout=600.0, warm=())
pool.map(square, [(1,), (2,)])
print(json.dumps({"parent": os.getpid(), "workers": pool.pids}), flush=True)
how = sys.argv[1]
if how == "exit":
    os._exit(0)  # no atexit, no cleanup
elif how == "idle":
    time.sleep(600)
elif how == "ctrl-c":
    pool.map(sleepy, [(600.0,)])
else:
    pool.map(hold_gil, [(sys.argv[2], 10**13)])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("how", ["exit", "idle", "gil", "ctrl-c"])
def test_workers_never_outlive_their_parent(tmp_path, how):
    if how == "gil" and not sys.platform.startswith("linux"):
        pytest.skip("a worker stuck in C is killed with its parent by PR_SET_PDEATHSIG, on Linux")
    marker = tmp_path / "busy"
    # stderr into a file: a surviving worker would hold a pipe open and block the read
    with open(tmp_path / "stderr", "w") as stderr:
        parent = subprocess.Popen(
            [sys.executable, "-c", KILL_PARENT, how, str(marker)],
            cwd=tmp_path,
            env=_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches it
        )
    try:
        assert parent.stdout is not None
        ready, _, _ = select.select([parent.stdout], [], [], LIMIT)
        assert ready, f"the parent printed nothing within {LIMIT} s"
        info = json.loads(parent.stdout.readline())
        workers = info["workers"]
        assert len(workers) == 2
        if how != "exit":  # (after os._exit they may already be gone)
            assert all(_alive(p) for p in workers)
        if how == "gil":
            deadline = time.monotonic() + 60
            while not (marker.exists() and marker.read_text()) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert int(marker.read_text()) in workers  # a worker is inside the C loop
        if how == "ctrl-c":  # the whole group gets SIGINT: workers leave it to the parent
            time.sleep(0.5)
            os.killpg(parent.pid, signal.SIGINT)
        elif how != "exit":
            parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=60)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=30)
        if parent.stdout is not None:
            parent.stdout.close()
    left = _none_left(workers, info["parent"])
    for p in _workers_of(info["parent"]):  # none should be left; if some are, end them
        os.kill(p, signal.SIGKILL)
    assert left == []
    if how == "ctrl-c":
        assert "KeyboardInterrupt" in (tmp_path / "stderr").read_text()
