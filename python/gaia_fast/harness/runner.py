"""Run an agent on GAIA tasks: bounded concurrency, per-task timeouts, every result saved
the moment it is known, resumable.

``await run(task_runner, tasks, parallel=4, timeout=300, out="results.jsonl")`` (or
:func:`run_sync` from a script) calls ``task_runner(task)`` for every task, grades the
answer (default: the leaderboard's ``question_scorer``) and returns one
:class:`~gaia_fast.harness.TaskResult` per task, in the order of ``tasks``.

Reliability rules:

- At most ``parallel`` tasks run at once. A sync runner runs in its own daemon thread,
  so a blocking agent neither stalls the others nor keeps the process alive at exit.
- ``timeout`` (seconds; None or 0 = none) bounds the runner and, separately, the
  evaluator. An async runner is cancelled when it runs out of time; a sync one cannot be
  interrupted, so it is abandoned (its thread finishes in the background and its answer
  is discarded).
- Anything the runner or the evaluator raises becomes the result's ``error``
  (``"ExceptionType: message"``; a timeout gives ``"TimeoutError: …"``) with
  ``Prediction("", [])`` when the runner failed and ``Evaluation(False, 0.0)``; the run
  goes on. That includes ``SystemExit`` (an agent calling ``sys.exit``),
  ``KeyboardInterrupt`` raised by the agent's own code, ``GeneratorExit``, a
  ``CancelledError`` the agent did not receive from the run, and any other
  ``BaseException``, in sync agents (their threads) and async ones (also in tasks they
  spawn, under :func:`run_sync`).
- Only a real interrupt stops the run: SIGINT (Ctrl-C) or SIGTERM delivered to the
  process, or the cancellation of the task awaiting :func:`run`. During a run in the main
  thread, gaia-fast handles SIGINT (unless it is ignored or has a custom handler) and
  SIGTERM (when it has the default action), so that a ``KeyboardInterrupt`` seen in agent
  code is never mistaken for one. On an interrupt the tasks in flight are abandoned (a
  sync agent's thread is left to finish on its own, its answer discarded), every finished
  task is already in ``out``, and :func:`run` raises :class:`RunInterrupted` (a
  ``KeyboardInterrupt`` carrying the signal number). Rerunning resumes. A second SIGINT
  while the run winds down raises ``KeyboardInterrupt`` at once.
- What the runner returns: a :class:`Prediction`, or a ``str`` (wrapped in one). None is
  an error (``TypeError: the task runner returned None …``, prediction ``""``, as
  agent-framework records a failed task). A prediction that is neither ``str`` nor None
  (``42``, ``["a"]``) is recorded **as given** (so the results file shows what the agent
  said), scored wrong without calling the evaluator, with ``error`` and
  ``evaluation_details.status = "bad_type"``: gaia-fast never ``str()``-s an answer
  (``42`` vs truth ``"42.0"`` would otherwise depend on an accident of formatting), and
  ``gaia-fast grade`` reads such a row back as ``bad_type`` too. ``Prediction(None)`` is
  scored as the leaderboard scores None (the text ``"None"``).
- Tasks without truth (``task.has_truth`` False, e.g. the test split) are run and saved;
  the default evaluator returns ``Evaluation(False, 0.0, {"status": "no_truth"})`` and
  they are left out of the running accuracy.

Results file (``out``): one JSON object per line, appended and flushed (and fsync-ed)
as each task finishes, with exactly the agent-framework keys in its order
(:data:`RESULT_KEYS`), so its ``gaia_viewer``, ``gaia-fast view`` and ``gaia-fast grade``
read it. With ``resume=True`` (the default) task ids already in ``out`` are not run
again and their rows come back as results with ``resumed=True``; an incomplete last line
left by a crash is cut off. ``resume=False`` starts ``out`` afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import json
import logging
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from gaia_fast.harness.types import Evaluation, Evaluator, Prediction, Task, TaskResult, TaskRunner
from gaia_fast.scorers.gaia import official_explained, question_scorer

__all__ = [
    "RESULT_KEYS",
    "RunInterrupted",
    "RunProgress",
    "encode_row",
    "gaia_evaluator",
    "read_results",
    "result_row",
    "run",
    "run_sync",
]

log = logging.getLogger("gaia_fast.harness.runner")

#: Keys of a results row, in order: the agent-framework lab's results JSONL (spec §5.3).
RESULT_KEYS = (
    "task_id",
    "level",
    "question",
    "answer",
    "prediction",
    "is_correct",
    "score",
    "runtime_seconds",
    "error",
    "timestamp",
    "task_metadata",
    "file_name",
    "messages",
    "prediction_metadata",
    "evaluation_details",
)


# --------------------------------------------------------------------------- evaluator


def gaia_evaluator(task: Task, prediction: Prediction) -> Evaluation:
    """The default evaluator: the leaderboard's ``question_scorer`` (native), score 1.0 or
    0.0, and ``details`` with the branch that decided (``reason``) and a ``status``
    (``ok``, ``no_prediction`` for None, ``no_truth``, ``bad_type``)."""
    if not task.has_truth:
        return Evaluation(False, 0.0, {"status": "no_truth", "reason": "the task has no answer to grade against"})
    p = prediction.prediction
    if p is not None and not isinstance(p, str):
        return Evaluation(False, 0.0, {"status": "bad_type", "reason": f"the prediction is {_kind(p)}, not a str"})
    assert task.answer is not None
    correct = bool(question_scorer(p, task.answer))
    try:
        reason = official_explained(p, task.answer)[1]
    except Exception:  # noqa: BLE001 - the explanation is a courtesy; the decision stands
        reason = None
    details: dict[str, Any] = {"scorer": "gaia", "status": "ok" if p is not None else "no_prediction"}
    if reason is not None:
        details["reason"] = reason
    return Evaluation(correct, 1.0 if correct else 0.0, details)


def _kind(v: Any) -> str:
    r = repr(v)
    return f"{type(v).__name__} ({r if len(r) <= 60 else r[:57] + '...'})"


# --------------------------------------------------------------------------- encoding


def _message(m: Any) -> Any:
    """One message as agent-framework writes it: ``model_dump()``, else ``__dict__``,
    else ``str()`` (so a plain dict message becomes its Python repr)."""
    dump = getattr(m, "model_dump", None)
    if callable(dump) and not isinstance(m, type):
        try:
            return dump()
        except Exception:  # noqa: BLE001
            return str(m)
    d = getattr(m, "__dict__", None)
    if isinstance(d, dict) and not isinstance(m, type):
        return dict(d)
    return str(m)


def result_row(result: TaskResult, *, timestamp: str | None = None) -> dict[str, Any]:
    """The results-file row of ``result``: the :data:`RESULT_KEYS` in order. ``timestamp``
    defaults to the local time now (``datetime.now().isoformat()``)."""
    t, p, e = result.task, result.prediction, result.evaluation
    msgs = p.messages if isinstance(p.messages, (list, tuple)) else ([] if p.messages is None else [p.messages])
    return {
        "task_id": t.task_id,
        "level": t.level,
        "question": t.question,
        "answer": t.answer,
        "prediction": p.prediction,
        "is_correct": e.is_correct,
        "score": e.score,
        "runtime_seconds": result.runtime_seconds,
        "error": result.error,
        "timestamp": timestamp if timestamp is not None else datetime.now().isoformat(),
        "task_metadata": t.metadata,
        "file_name": t.file_name,
        "messages": [_message(m) for m in msgs],
        "prediction_metadata": p.metadata,
        "evaluation_details": e.details,
    }


_SCALAR_KEYS = (str, int, float, bool, type(None))
_SURROGATE = re.compile("[\ud800-\udfff]")


def _sanitize(v: Any, path: frozenset[int] = frozenset()) -> Any:
    """JSON-ready: non-finite floats → None (the stdlib would write ``NaN``, which is not
    JSON), keys the stdlib refuses → ``str()``, reference cycles → a marker string."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, (str, int, type(None))):
        return v
    if isinstance(v, (dict, list, tuple)):
        if id(v) in path:
            return "<cycle>"
        inner = path | {id(v)}
        if isinstance(v, dict):
            return {(k if isinstance(k, _SCALAR_KEYS) else str(k)): _sanitize(x, inner) for k, x in v.items()}
        return [_sanitize(x, inner) for x in v]
    return v  # left to default=str


def _safe_str(v: Any) -> str:
    try:
        return str(v)
    except Exception:  # noqa: BLE001
        return f"<unprintable {type(v).__name__}>"


def encode_row(row: dict[str, Any]) -> str:
    """One results line (without the newline): stdlib JSON, raw UTF-8
    (``ensure_ascii=False``), compact separators as orjson writes, NaN/∞ → null,
    unserialisable values → ``str()``. Lone surrogates, which UTF-8 cannot hold, are
    written as ``\\udXXX`` escapes, so the file stays valid UTF-8 and JSON."""
    try:
        text = json.dumps(_sanitize(row), ensure_ascii=False, separators=(",", ":"), default=_safe_str, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        # a free-form field defeats the encoder (e.g. NaN inside a custom object's dict,
        # too deep a nesting): keep the row, with that field as text
        row = dict(row)
        for k in ("task_metadata", "messages", "prediction_metadata", "evaluation_details", "prediction"):
            row[k] = _safe_str(row[k]) if row[k] is not None else None
        text = json.dumps(_sanitize(row), ensure_ascii=False, separators=(",", ":"), default=_safe_str, allow_nan=False)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


# --------------------------------------------------------------------------- results file


def read_results(path: str | os.PathLike) -> dict[str, dict[str, Any]]:
    """The rows of a results file by task id (the last row of an id wins). Blank,
    unparsable and non-object lines are skipped with a warning, as viewers skip them."""
    rows, _ = _scan(Path(path))
    return rows


def _scan(path: Path) -> tuple[dict[str, dict[str, Any]], int | None]:
    """Rows by task id, and where to cut the file (the offset of an incomplete last line
    that does not parse, else None)."""
    rows: dict[str, dict[str, Any]] = {}
    data = path.read_bytes()
    cut = None
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    offset = 0
    for lineno, raw in enumerate(lines, 1):
        _parse_into(rows, raw, path, lineno)
        offset += len(raw) + 1
    if tail.strip():
        try:
            json.loads(tail)
        except (UnicodeDecodeError, json.JSONDecodeError):
            cut = offset  # an incomplete last line: the process died while writing it
        else:
            _parse_into(rows, tail, path, len(lines) + 1)
    return rows, cut


def _parse_into(rows: dict[str, dict[str, Any]], raw: bytes, path: Path, lineno: int) -> None:
    if not raw.strip():
        return
    try:
        obj = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        log.warning("%s:%d: not a JSON line, skipped", path, lineno)
        return
    if not isinstance(obj, dict) or not isinstance(obj.get("task_id"), str):
        log.warning("%s:%d: not a results row (no task_id), skipped", path, lineno)
        return
    rows[obj["task_id"]] = obj


class _ResultsFile:
    """Append-only JSONL: one ``write`` + flush + fsync per row, so a killed process
    leaves at most one incomplete last line (cut off by the next resume)."""

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.done: dict[str, dict[str, Any]] = {}
        path.parent.mkdir(parents=True, exist_ok=True)
        if resume and path.exists():
            self.done, cut = _scan(path)
            if cut is not None:
                log.warning("%s: cut off an incomplete last line (a run was interrupted while writing it)", path)
                with open(path, "r+b") as f:
                    f.truncate(cut)
            self.fh = open(path, "ab")
            if self.fh.tell() > 0:
                with open(path, "rb") as f:
                    f.seek(-1, os.SEEK_END)
                    if f.read(1) != b"\n":
                        self.fh.write(b"\n")  # a complete last row without its newline
        else:
            self.fh = open(path, "wb")

    def write(self, result: TaskResult) -> None:
        self.fh.write(encode_row(result_row(result)).encode("utf-8") + b"\n")
        self.fh.flush()
        try:
            os.fsync(self.fh.fileno())
        except OSError:  # pragma: no cover - e.g. a pipe
            pass

    def close(self) -> None:
        self.fh.close()


def _result_from_row(task: Task, row: dict[str, Any]) -> TaskResult:
    def num(v: Any) -> float | None:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    msgs = row.get("messages")
    pmeta, details, err = row.get("prediction_metadata"), row.get("evaluation_details"), row.get("error")
    return TaskResult(
        task=task,
        prediction=Prediction(row.get("prediction"), msgs if isinstance(msgs, list) else [], pmeta if isinstance(pmeta, dict) else None),
        evaluation=Evaluation(bool(row.get("is_correct")), num(row.get("score")) or 0.0, details if isinstance(details, dict) else None),
        runtime_seconds=num(row.get("runtime_seconds")),
        error=err if isinstance(err, str) else None,
        resumed=True,
    )


# --------------------------------------------------------------------------- progress


@dataclass(frozen=True)
class RunProgress:
    """Where a run stands, passed to the ``progress`` callback once at the start and after
    every finished task. ``graded`` counts finished tasks that have a truth; ``correct``
    those of them judged correct; both include resumed rows."""

    total: int
    done: int
    resumed: int
    graded: int
    correct: int
    errors: int
    last: TaskResult | None = None

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.graded if self.graded else None


class _RichBar:
    """A rich progress bar with the running accuracy, on stderr (only when asked for)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self.bar = Progress(
            TextColumn("GAIA"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[acc]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
            transient=False,
        )
        self.task: Any = None

    def __enter__(self) -> _RichBar:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.bar.__exit__(*exc)

    def __call__(self, p: RunProgress) -> None:
        acc = "acc —" if p.accuracy is None else f"acc {p.accuracy:.1%} ({p.correct}/{p.graded})"
        if p.errors:
            acc += f", {p.errors} error(s)"
        if self.task is None:
            self.task = self.bar.add_task("run", total=p.total, completed=p.done, acc=acc)
        else:
            self.bar.update(self.task, completed=p.done, acc=acc)


# --------------------------------------------------------------------------- tracing


class _NoSpan:
    def set_attribute(self, *a: Any) -> None:
        pass

    def set_status(self, *a: Any) -> None:
        pass


class _Tracing:
    """OpenTelemetry spans (extra ``gaia-fast[otel]``), or nothing. Span names follow
    agent-framework: ``gaia.tasks.execute_all`` > ``gaia.task.run`` >
    ``gaia.task.execute`` / ``gaia.task.evaluate``."""

    def __init__(self, tracing: Any) -> None:
        self.tracer = None
        if tracing is None or tracing is False:
            return
        try:
            from opentelemetry import trace
            from opentelemetry.trace import Status, StatusCode
        except ImportError:
            raise ImportError("tracing needs OpenTelemetry: pip install 'gaia-fast[otel]'") from None
        self.tracer = trace.get_tracer("gaia_fast.harness.runner") if tracing is True else tracing
        self._status, self._code = Status, StatusCode

    @contextlib.contextmanager
    def span(self, name: str, **attrs: Any) -> Iterator[Any]:
        if self.tracer is None:
            yield _NoSpan()
            return
        with self.tracer.start_as_current_span(name, record_exception=False, set_status_on_exception=False) as sp:
            for k, v in attrs.items():
                if v is not None:
                    sp.set_attribute(f"gaia.{k}", v)
            yield sp

    def finish(self, sp: Any, result: TaskResult) -> None:
        if self.tracer is None:
            return
        e = result.evaluation
        sp.set_attribute("gaia.is_correct", bool(e.is_correct))
        if isinstance(e.score, (int, float)) and math.isfinite(e.score):
            sp.set_attribute("gaia.score", float(e.score))
        if result.runtime_seconds is not None:
            sp.set_attribute("gaia.runtime_seconds", result.runtime_seconds)
        if result.error:
            sp.set_attribute("gaia.error", result.error)
            sp.set_status(self._status(self._code.ERROR, result.error))


# --------------------------------------------------------------------------- calling user code


def _is_async(fn: Any) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None))


class _Raised(Exception):
    """A ``BaseException`` that is not an ``Exception`` (``SystemExit``,
    ``KeyboardInterrupt``, ``GeneratorExit``, a custom one) or a ``StopIteration``,
    raised by user code, carried as an ordinary exception so that neither the event loop
    nor a coroutine boundary acts on it."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(original)
        self.original = original


class _ForcedInterrupt(KeyboardInterrupt):
    """A second SIGINT while an interrupted run winds down: it must not be taken for the
    agent's own error."""


def _carry(e: BaseException) -> BaseException:
    if isinstance(e, (RunInterrupted, _ForcedInterrupt)):
        return e
    return e if isinstance(e, Exception) and not isinstance(e, StopIteration) else _Raised(e)


def _in_thread(fn: Callable[..., Any], *args: Any) -> asyncio.Future:
    """Call ``fn`` in a new daemon thread (with the caller's context, so tracing spans
    nest); the future resolves on the loop. Daemon: a hung agent cannot block exit.
    Whatever ``fn`` raises comes back as an ordinary exception (see :class:`_Raised`)."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future = loop.create_future()
    ctx = contextvars.copy_context()

    def deliver(ok: bool, value: Any) -> None:
        if not fut.done():
            fut.set_result(value) if ok else fut.set_exception(value)

    def target() -> None:
        try:
            value, ok = ctx.run(fn, *args), True
        except BaseException as e:  # noqa: BLE001 - the agent's, handed to the loop as its error
            value, ok = _carry(e), False
        try:
            loop.call_soon_threadsafe(deliver, ok, value)
        except RuntimeError:  # the loop is closed: the run is over, nobody waits
            pass

    threading.Thread(target=target, name=f"gaia-fast-{getattr(fn, '__name__', 'task')}", daemon=True).start()
    return fut


async def _call(fn: Callable[..., Any], timeout: float | None, *args: Any) -> Any:
    async def go() -> Any:
        try:
            value = await (fn(*args) if _is_async(fn) else _in_thread(fn, *args))
            while inspect.isawaitable(value):  # a sync callable that returned a coroutine
                value = await value
        except asyncio.CancelledError:
            if _cancelled_by_run():
                raise
            raise _Raised(asyncio.CancelledError("raised by the agent, not by the run")) from None
        except _Raised:
            raise
        except BaseException as e:  # noqa: BLE001 - SystemExit & co. from the agent's own code
            carried = _carry(e)
            if carried is e:
                raise
            raise carried from None
        return value

    if not timeout:
        return await go()
    try:
        async with asyncio.timeout(timeout) as scope:
            return await go()
    except TimeoutError:
        if scope.expired():  # ours, not a TimeoutError raised by the agent itself
            raise _OutOfTime from None
        raise


def _cancelled_by_run() -> bool:
    """True when the current task was cancelled from outside (the run's interrupt, the
    per-task timeout, the caller of :func:`run`), False when a ``CancelledError`` only
    came up from the agent's own code."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


class _OutOfTime(Exception):
    """The per-task timeout expired (told apart from the agent's own TimeoutErrors)."""


def _as_prediction(value: Any) -> tuple[Prediction, str | None]:
    if isinstance(value, Prediction):
        pred = value
    elif isinstance(value, str):
        pred = Prediction(value)
    elif value is None:
        return Prediction("", []), "TypeError: the task runner returned None; expected a Prediction or a str"
    else:
        pred = Prediction(value)
    p = pred.prediction
    if p is not None and not isinstance(p, str):
        return pred, f"TypeError: the prediction is {_kind(p)}, not a str; recorded as given and scored as wrong"
    return pred, None


def _as_evaluation(value: Any) -> Evaluation:
    if isinstance(value, Evaluation):
        ok, score = value.is_correct, value.score
        return Evaluation(bool(ok), float(score) if score is not None else 0.0, value.details)
    if isinstance(value, bool):
        return Evaluation(value, 1.0 if value else 0.0)
    raise TypeError(f"the evaluator returned {_kind(value)}; expected an Evaluation or a bool")


def _describe(e: BaseException) -> str:
    if isinstance(e, _Raised):
        e = e.original
    try:
        msg = str(e)
    except Exception:  # noqa: BLE001
        msg = "<unprintable>"
    return f"{type(e).__name__}: {msg}" if msg else type(e).__name__


# --------------------------------------------------------------------------- run


class RunInterrupted(KeyboardInterrupt):
    """The run was stopped by SIGINT or SIGTERM (``signal``: its number). Every task that
    finished is in the results file; the same call resumes."""

    def __init__(self, signum: int, done: int, total: int) -> None:
        super().__init__(f"{signal.Signals(signum).name}: {done} of {total} task(s) finished")
        self.signal = signum
        self.done = done
        self.total = total


class _Interrupts:
    """SIGINT/SIGTERM handlers for the duration of a run (main thread only), so that a
    real interrupt is a flag plus the cancellation of the run's workers, never a
    ``KeyboardInterrupt`` raised in the middle of agent code. SIGINT is taken over when its
    handler is Python's default or asyncio's (``asyncio.run``); SIGTERM when it has the
    default action. The previous handlers come back when the run ends."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self.stop = stop
        self.signum: int | None = None
        self._saved: dict[int, Any] = {}
        self._loop = asyncio.get_running_loop()

    def __enter__(self) -> _Interrupts:
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                current = signal.getsignal(signum)
            except (ValueError, OSError):  # pragma: no cover - platform without it
                continue
            if signum == signal.SIGINT:
                ours = current is signal.default_int_handler or _is_asyncio_handler(current)
            else:
                ours = current == signal.SIG_DFL
            if ours:
                try:
                    signal.signal(signum, self._handle)
                except (ValueError, OSError):  # pragma: no cover
                    continue
                self._saved[signum] = current
        return self

    def __exit__(self, *exc: Any) -> None:
        for signum, handler in self._saved.items():
            try:
                signal.signal(signum, handler)
            except (ValueError, OSError):  # pragma: no cover
                pass
        self._saved.clear()

    def _handle(self, signum: int, frame: Any) -> None:
        if self.signum is not None:
            if signum == signal.SIGINT:  # a second Ctrl-C: stop waiting for the wind-down
                raise _ForcedInterrupt
            return
        self.signum = signum
        try:
            self._loop.call_soon_threadsafe(self.stop)
        except RuntimeError:  # pragma: no cover - the loop is closed
            pass


def _is_asyncio_handler(handler: Any) -> bool:
    """asyncio.Runner's SIGINT handler (a bound method, wrapped in a partial on 3.11+)."""
    func = getattr(handler, "func", handler)
    return isinstance(getattr(func, "__self__", None), asyncio.Runner)


def _guard_task_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task:
    """Task factory of the loops :func:`run_sync` owns: a ``SystemExit`` or
    ``KeyboardInterrupt`` raised inside a task an agent spawned (``asyncio.gather``,
    ``create_task``) would otherwise leave the event loop and end the run; here it (and
    any other ``BaseException`` but ``CancelledError``) is that task's exception, carried
    as an ordinary one, which reaches the agent that awaits it."""
    return asyncio.Task(_guarded(coro), loop=loop, **kwargs)


async def _guarded(coro: Any) -> Any:
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except BaseException as e:  # noqa: BLE001 - GeneratorExit too: CPython mishandles it across a Task await
        carried = _carry(e)
        if carried is e:
            raise
        raise carried from None


async def _run_one(task: Task, task_runner: Any, evaluator: Any, timeout: float | None, tracing: _Tracing) -> TaskResult:
    start = time.perf_counter()
    pred, evaluation, error = Prediction("", []), Evaluation(False, 0.0), None
    with tracing.span("gaia.task.run", task_id=task.task_id, level=task.level) as sp:
        stage = "runner"
        try:
            with tracing.span("gaia.task.execute", task_id=task.task_id):
                value = await _call(task_runner, timeout, task)
            pred, error = _as_prediction(value)
            if error is not None:
                status = "error" if value is None else "bad_type"
                evaluation = Evaluation(False, 0.0, {"status": status, "stage": stage, "reason": error.removeprefix("TypeError: ")})
            else:
                stage = "evaluator"
                with tracing.span("gaia.task.evaluate", task_id=task.task_id):
                    evaluation = _as_evaluation(await _call(evaluator, timeout, task, pred))
        except _OutOfTime:
            error = f"TimeoutError: the {stage} took longer than the {timeout:g} s timeout"
            evaluation = Evaluation(False, 0.0, {"status": "timeout", "stage": stage})
        except Exception as e:  # noqa: BLE001 - recorded, never stops the run
            error = _describe(e)
            evaluation = Evaluation(False, 0.0, {"status": "error", "stage": stage})
            log.info("task %s: the %s raised %s", task.task_id, stage, error, exc_info=True)
        result = TaskResult(task, pred, evaluation, time.perf_counter() - start, error)
        tracing.finish(sp, result)
    return result


async def run(
    task_runner: TaskRunner | Callable[[Task], Any],
    tasks: Iterable[Task],
    parallel: int = 1,
    timeout: float | None = None,
    out: str | os.PathLike | None = None,
    evaluator: Evaluator | Callable[[Task, Prediction], Any] | None = None,
    resume: bool = True,
    *,
    progress: bool | Callable[[RunProgress], None] = False,
    tracing: Any = False,
) -> list[TaskResult]:
    """Run ``task_runner`` on ``tasks`` and grade each answer; see the module docstring
    for the rules. Returns one result per task in the order of ``tasks`` (resumed ones
    included, with ``resumed=True``).

    ``progress``: a callable taking :class:`RunProgress`, or True for a rich progress bar
    with the running accuracy on stderr (library code shows nothing unless asked).
    ``tracing``: True for OpenTelemetry spans from the global tracer provider, or a
    ``Tracer`` to use; needs the ``otel`` extra. Raises ValueError on duplicate task ids
    or bad arguments, OSError when ``out`` cannot be written (the run stops: results that
    cannot be saved would be lost), :class:`RunInterrupted` on SIGINT/SIGTERM (every
    finished task is in ``out``)."""
    tasks = list(tasks)
    for t in tasks:
        if not isinstance(t, Task):
            raise TypeError(f"tasks must be Task objects, got {_kind(t)}")
        if t.answer is not None and not isinstance(t.answer, str):
            raise TypeError(f"task {t.task_id!r}: answer must be a str or None, got {_kind(t.answer)}")
    ids = [t.task_id for t in tasks]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"duplicate task ids: {', '.join(dup[:5])}")
    if not callable(task_runner):
        raise TypeError(f"task_runner must be callable, got {_kind(task_runner)}")
    if isinstance(parallel, bool) or not isinstance(parallel, int) or parallel < 1:
        raise ValueError(f"parallel must be an int >= 1, got {parallel!r}")
    if timeout is not None and (not isinstance(timeout, (int, float)) or timeout < 0 or math.isnan(timeout)):
        raise ValueError(f"timeout must be a number of seconds >= 0 or None, got {timeout!r}")
    evaluator = evaluator if evaluator is not None else gaia_evaluator
    tracer = _Tracing(tracing)

    file = _ResultsFile(Path(out), resume) if out is not None else None
    results: dict[str, TaskResult] = {}
    if file is not None:
        for t in tasks:
            if t.task_id in file.done:
                results[t.task_id] = _result_from_row(t, file.done[t.task_id])
    pending = [t for t in tasks if t.task_id not in results]
    if results:
        log.info("resuming: %d of %d task(s) already in %s", len(results), len(tasks), out)

    counts = {"graded": 0, "correct": 0, "errors": 0}

    def count(r: TaskResult) -> None:
        if r.task.has_truth:
            counts["graded"] += 1
            counts["correct"] += bool(r.evaluation.is_correct)
        counts["errors"] += r.error is not None

    for r in results.values():
        count(r)
    resumed = len(results)

    bar = _RichBar() if progress is True else None
    callback = bar if bar is not None else (progress if callable(progress) else None)

    def report(last: TaskResult | None) -> None:
        if callback is None:
            return
        try:
            callback(RunProgress(len(tasks), len(results), resumed, counts["graded"], counts["correct"], counts["errors"], last))
        except Exception:  # noqa: BLE001 - a broken display must not stop the run
            log.warning("the progress callback raised", exc_info=True)

    def record(r: TaskResult) -> None:
        if file is not None:
            file.write(r)
        results[r.task_id] = r
        count(r)
        report(r)

    queue = iter(pending)
    workers: list[asyncio.Task] = []

    async def worker() -> None:
        for task in queue:
            if interrupts.signum is not None:
                return
            record(await _run_one(task, task_runner, evaluator, timeout or None, tracer))

    def stop() -> None:
        for w in workers:
            w.cancel()

    with contextlib.ExitStack() as stack:
        if file is not None:
            stack.callback(file.close)
        if bar is not None:
            stack.enter_context(bar)
        interrupts = stack.enter_context(_Interrupts(stop))
        report(None)
        with tracer.span(
            "gaia.tasks.execute_all", total=len(tasks), pending=len(pending), parallel=parallel, timeout=timeout or None
        ):
            if pending:
                try:
                    async with asyncio.TaskGroup() as group:
                        for _ in range(min(parallel, len(pending))):
                            workers.append(group.create_task(worker()))
                except ExceptionGroup as eg:  # e.g. OSError writing `out`: raise it as such
                    raise eg.exceptions[0] from None
        if interrupts.signum is not None:
            log.info("interrupted by %s: %d of %d task(s) finished", signal.Signals(interrupts.signum).name, len(results), len(tasks))
            raise RunInterrupted(interrupts.signum, len(results), len(tasks))
    return [results[t.task_id] for t in tasks]


def run_sync(
    task_runner: TaskRunner | Callable[[Task], Any],
    tasks: Iterable[Task],
    parallel: int = 1,
    timeout: float | None = None,
    out: str | os.PathLike | None = None,
    evaluator: Evaluator | Callable[[Task, Prediction], Any] | None = None,
    resume: bool = True,
    *,
    progress: bool | Callable[[RunProgress], None] = False,
    tracing: Any = False,
) -> list[TaskResult]:
    """:func:`run` for scripts, on an event loop of its own. In a notebook or any running
    event loop, ``await run(...)`` instead.

    On an interrupt, once the results file is closed: SIGINT raises ``KeyboardInterrupt``
    (so an uncaught one ends the script as Ctrl-C does, exit status 130); SIGTERM is
    delivered again with its default action, ending the process as SIGTERM would have
    (status 143), only after every finished row is saved."""
    try:
        return _run_owned(task_runner, tasks, parallel, timeout, out, evaluator, resume, progress=progress, tracing=tracing)
    except RunInterrupted as e:
        if e.signal == signal.SIGTERM and threading.current_thread() is threading.main_thread():
            if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
                signal.raise_signal(signal.SIGTERM)
            raise
        raise KeyboardInterrupt(str(e)) from None


def _run_owned(
    task_runner: Any,
    tasks: Iterable[Task],
    parallel: int = 1,
    timeout: float | None = None,
    out: str | os.PathLike | None = None,
    evaluator: Any = None,
    resume: bool = True,
    *,
    progress: bool | Callable[[RunProgress], None] = False,
    tracing: Any = False,
) -> list[TaskResult]:
    """:func:`run` on an event loop of its own; raises :class:`RunInterrupted` as is (the
    command line reports it and picks the exit status)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError("run_sync cannot be called from a running event loop; use `await gaia_fast.harness.runner.run(...)`")
    with asyncio.Runner() as runner:
        runner.get_loop().set_task_factory(_guard_task_factory)
        return runner.run(run(task_runner, tasks, parallel, timeout, out, evaluator, resume, progress=progress, tracing=tracing))
