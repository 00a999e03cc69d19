"""A pool of worker processes for SymPy work with a hard per-item timeout.

SymPy can hang on adversarial input (huge powers, pathological simplify). Signals cannot
interrupt a thread, and a thread pool cannot kill a stuck item, so each item runs in a
worker process; when an item overruns its deadline the worker is killed, the item is
recorded as ``timeout`` and a fresh worker takes its place. Results are cached by
(function, arguments), so repeated pairs cost one evaluation.

Workers are their own program (:mod:`gaia_fast.math.worker`): the parent's Python with
the parent's ``sys.path``, but never the parent's ``__main__``, so callers need no
``if __name__ == "__main__":`` guard. Nothing is forked from the parent's Python state
(it usually runs Polars/rayon threads, and forking a multi-threaded process can
deadlock). Workers die with the parent, even when it is killed with SIGKILL.

A pool may be used from several threads at once: each ``map`` call checks out the idle
workers it needs (starting new ones up to ``workers``) and returns them when done.
"""

from __future__ import annotations

import json
import os
import pickle
import selectors
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from queue import SimpleQueue
from typing import Any, Literal

from gaia_fast.math.worker import BOOTSTRAP, FrameReader, encode, write_all

__all__ = ["Outcome", "SympyPool", "WorkerStartError", "default_pool"]


class WorkerStartError(RuntimeError):
    """A math worker process could not start; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """The result of one item: ``ok`` with ``value``, ``timeout``, or ``error`` (the
    exception's type name and message in ``error``)."""

    status: Literal["ok", "timeout", "error"]
    value: Any = None
    error: str | None = None


def _default_executable() -> str:
    # multiprocessing's choice: sys.executable, or what multiprocessing.set_executable()
    # configured (embedding applications set it).
    from multiprocessing import spawn

    return os.fsdecode(spawn.get_executable() or "")


def _interpreter_flags() -> list[str]:
    try:
        return list(subprocess._args_from_interpreter_flags())  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a private helper; without it the flags are just not passed
        return []


class _Launcher:
    """Starts workers from one long-lived thread. On Linux a worker asks the kernel to kill
    it when its parent dies, and "parent" there is the thread that started it: starting
    workers from a caller's short-lived thread would kill them when that thread ends."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._requests: SimpleQueue = SimpleQueue()
        threading.Thread(target=self._loop, name="gaia-fast-math-launcher", daemon=True).start()

    def _loop(self) -> None:
        while True:
            argv, future = self._requests.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, close_fds=True)
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                future.set_exception(e)
            else:
                future.set_result(proc)

    def popen(self, argv: list[str], limit: float = 60.0) -> subprocess.Popen:
        future: Future = Future()
        self._requests.put((argv, future))
        try:
            return future.result(timeout=limit)
        except FutureTimeout:
            raise WorkerStartError(f"math worker could not start: no process after {limit:g} s") from None


_launcher: _Launcher | None = None
_launcher_lock = threading.Lock()
_pools: weakref.WeakSet[SympyPool] = weakref.WeakSet()


def _launch(argv: list[str]) -> subprocess.Popen:
    global _launcher
    with _launcher_lock:
        if _launcher is None or _launcher.pid != os.getpid():
            _launcher = _Launcher()
        launcher = _launcher
    return launcher.popen(argv)


def _after_fork_in_child() -> None:
    # The child has no launcher thread, and its copies of the parent's worker pipes must
    # not keep the parent's workers alive nor be used: each pool starts afresh.
    global _launcher, _launcher_lock, _default_lock
    _launcher, _launcher_lock, _default_lock = None, threading.Lock(), threading.Lock()
    for pool in list(_pools):
        pool._forget_workers()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class _Worker:
    def __init__(self, proc: subprocess.Popen, start_limit: float, gen: int) -> None:
        self.proc = proc
        assert proc.stdin is not None and proc.stdout is not None
        self.fd = proc.stdout.fileno()
        self.reader = FrameReader()
        self.ready = False
        self.restarted = False  # a replacement for a worker killed before it was ready
        self.job: int | None = None
        self.deadline = time.monotonic() + start_limit  # start-up, then the current item
        self.path = _sys_path()
        self.gen = gen

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        write_all(self.proc.stdin.fileno(), data)

    def read(self) -> list[bytes] | None:
        """The complete frames received so far; None at end of stream."""
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            data = b""
        return self.reader.feed(data) if data else None

    def close_pipes(self) -> None:
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass

    def exit_code(self, limit: float = 5.0) -> int | None:
        try:
            return self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        self.exit_code()
        self.close_pipes()


def _stop_all(workers: Iterable[_Worker], owner: int, grace: float = 1.0) -> None:
    """End of input for every worker (they exit on it), then kill what is left."""
    if os.getpid() != owner:  # a forked child: these are the parent's workers
        return
    workers = list(workers)
    for w in workers:
        try:
            if w.proc.stdin is not None:
                w.proc.stdin.close()
        except OSError:
            pass
    deadline = time.monotonic() + grace
    for w in workers:
        if w.exit_code(max(0.0, deadline - time.monotonic())) is None:
            w.kill()
        w.close_pipes()


class SympyPool:
    """Run picklable module-level functions over many argument tuples in worker processes.

    ``timeout`` is per item, in seconds of wall time from when the item starts.
    ``warm``: modules each worker imports before its first item. ``start_timeout``: how
    long a worker may take to start (importing ``warm`` included) before that is an error.
    ``executable``: the Python to run workers with (default: ``sys.executable``, or what
    ``multiprocessing.set_executable`` set). A worker that cannot start raises
    :class:`WorkerStartError` saying why.
    """

    def __init__(
        self,
        workers: int | None = None,
        timeout: float = 10.0,
        warm: Sequence[str] = ("sympy",),
        *,
        start_timeout: float = 120.0,
        executable: str | None = None,
    ) -> None:
        self.size = max(1, workers or os.cpu_count() or 1)
        self.timeout = timeout
        self.warm = tuple(warm)
        self.start_timeout = start_timeout
        self.executable = executable
        self._cache: dict[tuple[str, Hashable], Outcome] = {}
        self.stats = {"evaluated": 0, "cached": 0, "timeouts": 0, "errors": 0, "workers_replaced": 0}
        self._new_state()
        _pools.add(self)

    def _new_state(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._live: set[_Worker] = set()  # started and not stopped: idle or checked out
        self._gen = 0
        self._finalizer = weakref.finalize(self, _stop_all, self._live, self._pid)

    def _forget_workers(self) -> None:
        for w in self._live:
            w.close_pipes()
        self._finalizer.detach()
        self._new_state()

    def __enter__(self) -> SympyPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pids(self) -> list[int]:
        """Process ids of this pool's live workers."""
        with self._lock:
            return sorted(w.pid for w in self._live)

    def close(self) -> None:
        """Stop the workers (the pool stays usable: the next ``map`` starts new ones).
        Workers busy in another thread's ``map`` stop when that call returns."""
        with self._lock:
            self._gen += 1
            idle, self._idle = self._idle, []
            self._live.difference_update(idle)
        _stop_all(idle, self._pid)

    def map(self, func: Callable[..., Any], items: Sequence[tuple], *, timeout: float | None = None) -> list[Outcome]:
        """``func(*args)`` for every tuple in ``items``, in order. ``timeout`` overrides
        the pool's per-item limit for this call."""
        name = _importable_name(func)
        limit = self.timeout if timeout is None else timeout
        results: list[Outcome | None] = [None] * len(items)
        todo: list[int] = []
        first_of: dict[Hashable, int] = {}
        duplicates: list[tuple[int, int]] = []
        with self._lock:
            for i, args in enumerate(items):
                key = (name, args)
                if key in self._cache:
                    results[i] = self._cache[key]
                    self.stats["cached"] += 1
                elif key in first_of:
                    duplicates.append((i, first_of[key]))
                    self.stats["cached"] += 1
                else:
                    first_of[key] = i
                    todo.append(i)
        if todo:
            self._run(func, items, todo, results, limit)
        with self._lock:
            for i in todo:
                self._cache[(name, items[i])] = results[i]  # type: ignore[assignment]
        for i, j in duplicates:
            results[i] = results[j]
        return results  # type: ignore[return-value]

    # --- workers ---------------------------------------------------------------------

    def _start(self) -> _Worker:
        exe = self.executable or _default_executable()
        if not exe:
            raise WorkerStartError(
                "math worker could not start: no Python executable (sys.executable is empty; "
                "pass executable= or call multiprocessing.set_executable())"
            )
        config = {"path": _sys_path(), "warm": list(self.warm), "parent": os.getpid()}
        # -P: no working directory on the path while the bootstrap imports the stdlib (a
        # user's json.py must not shadow it); the worker then takes the caller's sys.path.
        argv = [exe, *_interpreter_flags(), "-P", "-c", BOOTSTRAP, json.dumps(config)]
        try:
            proc = _launch(argv)
        except OSError as e:
            raise WorkerStartError(f"math worker could not start: cannot run {exe!r}: {e}") from e
        return _Worker(proc, self.start_timeout, self._gen)

    def _checkout(self, want: int, block: bool = True) -> list[_Worker]:
        """Up to ``want`` workers for this call: idle ones first, then new ones while the
        pool is below its size; with ``block``, waits for at least one."""
        with self._lock:
            while True:
                got: list[_Worker] = []
                while self._idle and len(got) < want:
                    got.append(self._idle.pop())
                try:
                    while len(got) < want and len(self._live) < self.size:
                        w = self._start()
                        self._live.add(w)
                        got.append(w)
                except BaseException:
                    self._idle.extend(got)
                    raise
                if got or not block:
                    return got
                self._lock.wait(0.5)  # other calls hold every worker; one returns soon

    def _checkin(self, workers: list[_Worker]) -> None:
        stop: list[_Worker] = []
        kill: list[_Worker] = []
        with self._lock:
            for w in workers:
                if w not in self._live:
                    continue
                if w.job is not None:  # abandoned mid-item (an exception): its reply is stale
                    self._live.discard(w)
                    kill.append(w)
                elif w.gen != self._gen:  # the pool was closed meanwhile
                    self._live.discard(w)
                    stop.append(w)
                else:
                    self._idle.append(w)
            self._lock.notify_all()
        for w in kill:
            w.kill()
        _stop_all(stop, self._pid)

    def _replace(self, w: _Worker, mine: list[_Worker]) -> _Worker:
        w.kill()
        with self._lock:
            self._live.discard(w)
            fresh = self._start()
            self._live.add(fresh)
            self.stats["workers_replaced"] += 1
        mine[mine.index(w)] = fresh
        return fresh

    def _start_failed(self, w: _Worker, why: str | None) -> WorkerStartError:
        if why is None:
            code = w.exit_code()
            why = (
                f"killed by signal {-code}"
                if code is not None and code < 0
                else f"exited with code {code}"
                if code is not None
                else "closed its output"
            )
            why = f"the worker process ({w.proc.args[0]}) {why} before it was ready; its stderr may say more"
        w.kill()
        with self._lock:
            self._live.discard(w)
        return WorkerStartError(f"math worker could not start: {why}")

    # --- one call --------------------------------------------------------------------

    def _run(self, func: Callable[..., Any], items: Sequence[tuple], todo: list[int], results: list, limit: float) -> None:
        queue = list(reversed(todo))
        retried: set[int] = set()
        want = min(self.size, len(todo))
        mine = self._checkout(want)
        try:
            while True:
                for w in list(mine):
                    if w.ready and w.job is None and queue:
                        self._dispatch(w, mine, func, items, queue, limit)
                active = [w for w in mine if not w.ready or w.job is not None]
                if not queue and not any(w.job is not None for w in mine):
                    return
                if queue and len(mine) < want:
                    mine += self._checkout(want - len(mine), block=False)
                    active = [w for w in mine if not w.ready or w.job is not None]
                pause = max(0.0, min(w.deadline for w in active) - time.monotonic())
                for w in _readable(active, pause):
                    self._receive(w, mine, results, queue, retried)
                now = time.monotonic()
                for w in active:
                    if w not in mine or now < w.deadline:
                        continue
                    if not w.ready:
                        raise self._start_failed(w, f"no sign of life within {self.start_timeout:g} s")
                    if w.job is not None:
                        results[w.job] = Outcome("timeout", None, f"no result within {limit:g} s")
                        w.job = None
                        with self._lock:
                            self.stats["evaluated"] += 1
                            self.stats["timeouts"] += 1
                        self._replace(w, mine)
        finally:
            self._checkin(mine)

    def _dispatch(
        self, w: _Worker, mine: list[_Worker], func: Callable[..., Any], items: Sequence[tuple], queue: list[int], limit: float
    ) -> None:
        if w.proc.poll() is not None:  # it died while idle (e.g. killed from outside)
            self._replace(w, mine)
            return
        i = queue.pop()
        path = None
        current = _sys_path()
        if current != w.path:  # the caller changed sys.path since: the worker follows
            path = w.path = current
        data = encode((path, pickle.dumps((func, items[i]), protocol=pickle.HIGHEST_PROTOCOL)))
        try:
            w.send(data)
        except OSError:  # it died while idle: the item has not run, give it to a new worker
            queue.append(i)
            self._replace(w, mine)
            return
        w.job, w.deadline = i, time.monotonic() + limit

    def _receive(self, w: _Worker, mine: list[_Worker], results: list, queue: list[int], retried: set[int]) -> None:
        frames = w.read()
        if frames is None:
            if not w.ready:
                code = w.exit_code()
                if code is not None and code < 0 and not w.restarted:
                    # Killed from outside (a signal) before its ready message was read, e.g.
                    # while idle after an earlier call: start another, once. A worker that
                    # cannot start fails on its own (an exit code or a "failed" message).
                    self._replace(w, mine).restarted = True
                    return
                raise self._start_failed(w, None)
            if w.job is not None:  # the worker died (e.g. out of memory)
                code = w.exit_code()
                if code is not None and code < 0 and w.job not in retried:
                    # Killed by a signal: from outside between items (the item may not have
                    # started), or by the kernel for memory another process used. Once more
                    # on a fresh worker; a second death is the item's result.
                    retried.add(w.job)
                    queue.append(w.job)
                    w.job = None
                    self._replace(w, mine)
                    return
                results[w.job] = Outcome("error", None, f"worker process died (exit code {code})")
                w.job = None
                with self._lock:
                    self.stats["evaluated"] += 1
                    self.stats["errors"] += 1
            self._replace(w, mine)
            return
        for body in frames:
            try:
                message = pickle.loads(body)
            except Exception as e:  # noqa: BLE001 - e.g. a result class the parent cannot import
                message = ("error", None, f"cannot read the worker's reply: {type(e).__name__}: {e}")
            if not w.ready:
                if message[0] == "failed":
                    raise self._start_failed(w, message[1])
                w.ready = True
                continue
            if w.job is None:  # pragma: no cover - the protocol sends one reply per item
                continue
            status, value, error = message
            results[w.job] = Outcome(status, value, error)
            w.job = None
            with self._lock:
                self.stats["evaluated"] += 1
                self.stats["errors"] += status == "error"


def _sys_path() -> list[str]:
    # Entries the import system uses (str, or path-like objects some callers append).
    return [os.fspath(p) for p in sys.path if isinstance(p, (str, os.PathLike)) and isinstance(os.fspath(p), str)]


def _readable(workers: list[_Worker], timeout: float) -> list[_Worker]:
    with selectors.DefaultSelector() as sel:
        for w in workers:
            sel.register(w.fd, selectors.EVENT_READ, w)
        return [key.data for key, _ in sel.select(timeout)]


def _importable_name(func: Callable[..., Any]) -> str:
    """``module.qualname`` of ``func``, which workers import by that name."""
    module = getattr(func, "__module__", None)
    name = f"{module}.{getattr(func, '__qualname__', repr(func))}"
    if module in (None, "__main__", "__mp_main__"):
        raise TypeError(
            f"{name}: math workers run functions by module and name, and never import the caller's "
            "__main__; define the function in an importable module"
        )
    try:
        pickle.dumps(func, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # noqa: BLE001
        raise TypeError(f"{name} cannot be sent to a math worker ({e}); use a module-level function") from e
    return name


_default: SympyPool | None = None
_default_lock = threading.Lock()


def default_pool(timeout: float = 10.0) -> SympyPool:
    """A process-wide pool, started on first use and closed at exit."""
    global _default
    with _default_lock:
        if _default is None or _default.timeout != timeout:
            if _default is not None:
                _default.close()
            _default = SympyPool(timeout=timeout)
        return _default
