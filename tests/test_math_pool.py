"""The SymPy worker pool: order, caching, hard timeouts that replace the worker, errors,
threads, clean stops and clear start-up failures."""

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from gaia_fast.math.pool import Outcome, SympyPool, WorkerStartError

from _pool_funcs import always_killed, boom, die, killed, noisy, pid, sleepy, square, unpicklable


@pytest.fixture(scope="module")
def pool():
    with SympyPool(workers=2, timeout=1.0, warm=()) as p:
        yield p


def _gone(pids, limit=10.0):
    """True once none of ``pids`` runs (exited, or a zombie nobody reaped), within ``limit`` s."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if not [p for p in pids if _running(p)]:
            return True
        time.sleep(0.05)
    return False


def _running(p):
    try:
        with open(f"/proc/{p}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(p, 0)
        except ProcessLookupError:
            return False
        return True


def test_results_in_order_and_cached(pool):
    out = pool.map(square, [(i,) for i in range(20)] + [(3,)])
    assert [o.value for o in out] == [i * i for i in range(20)] + [9]
    assert all(o.status == "ok" for o in out)
    before = pool.stats["evaluated"]
    assert pool.map(square, [(5,)]) == [Outcome("ok", 25)]
    assert pool.stats["evaluated"] == before  # served from the cache


def test_a_stuck_item_is_killed_and_the_worker_replaced(pool):
    replaced = pool.stats["workers_replaced"]
    t0 = time.monotonic()
    out = pool.map(sleepy, [(30.0,), (0.01,), (0.02,)])
    assert time.monotonic() - t0 < 10
    assert out[0].status == "timeout" and "1 s" in out[0].error
    assert [o.value for o in out[1:]] == [0.01, 0.02]
    assert pool.stats["workers_replaced"] == replaced + 1
    assert pool.map(square, [(7,)])[0].value == 49  # the pool still works


def test_a_timeout_for_one_call(pool):
    out = pool.map(sleepy, [(0.6,)], timeout=0.2)
    assert out[0].status == "timeout" and "0.2 s" in out[0].error
    assert pool.timeout == 1.0
    assert pool.map(sleepy, [(0.3,)])[0] == Outcome("ok", 0.3)


def test_errors_and_dead_workers_are_results_not_exceptions(pool):
    out = pool.map(boom, [("bad input",)])
    assert out == [Outcome("error", None, "ValueError: bad input")]
    died = pool.map(die, [()])
    assert died[0].status == "error" and "died" in died[0].error and "3" in died[0].error
    assert pool.map(square, [(8,)])[0].value == 64  # the replacement worker answers
    bad = pool.map(unpicklable, [()])[0]
    assert bad.status == "error" and "pickle" in bad.error
    assert pool.map(square, [(9,)])[0].value == 81


def test_printing_and_reading_stdin_do_not_disturb_the_pipes(pool):
    assert pool.map(noisy, [(1,), (2,)]) == [Outcome("ok", (1, "")), Outcome("ok", (2, ""))]


def test_functions_must_be_importable(pool):
    def local(x):
        return x

    with pytest.raises(TypeError, match="module-level"):
        pool.map(local, [(1,)])
    local.__module__ = "__main__"
    with pytest.raises(TypeError, match="never import the caller's __main__"):
        pool.map(local, [(1,)])


def test_workers_follow_the_callers_sys_path(pool, tmp_path, monkeypatch):
    assert pool.map(square, [(11,)])[0].value == 121  # workers are up before the change
    (tmp_path / "late_module_for_pool.py").write_text("def triple(x):\n    return 3 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from late_module_for_pool import triple

    assert pool.map(triple, [(5,), (6,)]) == [Outcome("ok", 15), Outcome("ok", 18)]


def test_an_idle_worker_killed_from_outside_loses_no_item(pool):
    pool.map(square, [(12,), (13,)])
    victims = pool.pids
    assert len(victims) == 2
    for p in victims:
        os.kill(p, signal.SIGKILL)
    assert _gone(victims)
    assert pool.map(sleepy, [(0.011,), (0.012,)]) == [Outcome("ok", 0.011), Outcome("ok", 0.012)]
    assert not set(pool.pids) & set(victims)


def test_an_item_whose_worker_is_killed_runs_once_more_then_is_an_error(pool, tmp_path):
    marker = str(tmp_path / "ran")
    before = pool.stats["workers_replaced"]
    assert pool.map(killed, [(marker,)]) == [Outcome("ok", "second run")]
    out = pool.map(always_killed, [()])
    assert out == [Outcome("error", None, "worker process died (exit code -9)")]
    assert pool.stats["workers_replaced"] - before == 3  # one for the first item, two for the second
    assert pool.map(square, [(5,)])[0].value == 25


def test_threads_share_the_pool():
    with SympyPool(workers=2, timeout=10.0, warm=()) as shared:
        results: dict[int, list] = {}
        barrier = threading.Barrier(4, timeout=30)

        def work(t):
            barrier.wait()
            results[t] = shared.map(sleepy, [(0.01 * t + 0.001 * i,) for i in range(6)])

        threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=60)
        assert not any(th.is_alive() for th in threads)
        for t in range(4):
            assert [o.value for o in results[t]] == [0.01 * t + 0.001 * i for i in range(6)]
        assert len(shared.pids) <= 2
        assert shared.stats["evaluated"] == 24


def test_close_stops_the_workers_and_the_pool_can_start_again():
    p = SympyPool(workers=2, timeout=5.0, warm=())
    first = [o.value for o in p.map(pid, [(1,), (2,)])]
    started = p.pids
    assert set(first) <= set(started) and len(started) == 2
    p.close()
    assert p.pids == [] and _gone(started)
    assert p.map(square, [(4,)])[0].value == 16
    again = p.pids
    p.close()
    assert _gone(again)


# --- a worker that cannot start is a clear error ----------------------------------------


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_missing_executable(tmp_path):
    with SympyPool(workers=1, warm=(), executable=str(tmp_path / "no-python")) as p:
        with pytest.raises(WorkerStartError, match="cannot run .*no-python"):
            p.map(square, [(1,)])


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts")
def test_an_executable_that_exits(tmp_path):
    exe = _script(tmp_path, "exits", "exit 3\n")
    with SympyPool(workers=1, warm=(), executable=exe) as p:
        with pytest.raises(WorkerStartError, match="exited with code 3 before it was ready"):
            p.map(square, [(1,)])
        assert p.pids == []


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts")
def test_an_executable_that_never_answers(tmp_path):
    exe = _script(tmp_path, "sleeps", "exec sleep 60\n")
    with SympyPool(workers=1, warm=(), executable=exe, start_timeout=0.5) as p:
        t0 = time.monotonic()
        with pytest.raises(WorkerStartError, match="no sign of life within 0.5 s"):
            p.map(square, [(1,)])
        assert time.monotonic() - t0 < 10
        assert p.pids == []


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts")
def test_a_python_without_gaia_fast(tmp_path):
    # The worker program itself cannot be imported: the bootstrap says so over the pipe.
    exe = _script(
        tmp_path,
        "hidden",
        'while [ "$1" != "-c" ]; do shift; done\nshift\nboot="$1"\nshift\n'
        f'exec {sys.executable} -c "import sys; sys.modules[\'gaia_fast\'] = None\n$boot" "$@"\n',
    )
    with SympyPool(workers=1, warm=(), executable=exe) as p:
        with pytest.raises(WorkerStartError, match="cannot import gaia_fast.math.worker: ModuleNotFoundError"):
            p.map(square, [(1,)])


def test_a_warm_module_that_cannot_be_imported():
    with SympyPool(workers=1, warm=("no_such_module_for_pool",)) as p:
        with pytest.raises(WorkerStartError, match="cannot import 'no_such_module_for_pool': ModuleNotFoundError"):
            p.map(square, [(1,)])
        assert p.pids == []
