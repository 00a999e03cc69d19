"""Reading agent-framework GAIA results JSONL and formatting it for ``gaia-fast view``.

The text block is byte-for-byte the output of agent-framework's ``gaia_viewer`` (spec
§5.4); gaia-fast appends its own per-level table *after* that block, so anything that
parses ``gaia_viewer`` output from the top keeps working (``--plain`` drops the table).

Results rows are plain dicts as read from the JSONL (spec §5.3: ``task_id, level,
question, answer, prediction, is_correct, score, runtime_seconds, error, timestamp, …``;
unknown keys are ignored). Python semantics are kept where ``gaia_viewer`` relies on them:
``--level N`` compares with ``==`` (so ``1.0`` and ``true`` match ``--level 1``), verdicts
use the truthiness of ``is_correct``, and values are shown with ``str()`` (``None`` for a
JSON null).

Errors and timeouts (:func:`is_error`, :func:`is_timeout`). A row's *status* is its
top-level ``status`` string if it has one, else ``evaluation_details.status`` (what
gaia-fast's runner writes: ``ok``, ``timeout``, ``error``, ``bad_type``, ``no_truth``, …).

* a row is an **error** when its ``error`` is not null (an empty string counts: an
  exception was caught), or its status is ``error`` or ``timeout``;
* a row is a **timeout** when its status is ``timeout``. A row that has a status is
  decided by it alone (the runner tells its own per-task timeout apart from a
  ``TimeoutError`` the agent raised, which has status ``error``). Without a status (an
  agent-framework file), a row is a timeout when its ``error`` contains ``timeout`` or
  ``timed out`` in any case (``"timeout after 30s"``, ``"TimeoutError: …"``) or is
  exactly ``""``: agent-framework stores ``str(exception)``, and the ``TimeoutError``
  of ``asyncio.wait_for`` has an empty message. Another exception with an empty message
  is therefore counted as a timeout too; such a file does not allow telling them apart.

Nothing here prints; :mod:`gaia_fast.cli.view` does.
"""

from __future__ import annotations

import io
import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "MISSING",
    "LevelStats",
    "Results",
    "SkippedLine",
    "filter_results",
    "format_results",
    "is_error",
    "is_timeout",
    "level_display",
    "level_key",
    "level_stats",
    "level_table",
    "read_results",
    "render_level_table",
    "row_status",
    "runtime_of",
]


class _Missing:
    """Marks a key that is absent from a row (distinct from a JSON null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"


#: The level of a row without a ``level`` key (shown as ``?``, as ``gaia_viewer`` does).
MISSING: Any = _Missing()


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class SkippedLine:
    """A non-blank line that is not a JSON object: 1-based ``line`` number and ``reason``."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass
class Results:
    """The rows of a results file, in file order, and the lines that were skipped."""

    rows: list[dict[str, Any]]
    skipped: list[SkippedLine] = field(default_factory=list)
    path: Path | None = None


def read_results(path: str | Path) -> Results:
    """Read a results JSONL: one JSON object per line. Blank lines (``line.strip()`` empty,
    as ``gaia_viewer`` tests) are ignored; lines that are not valid UTF-8, not valid JSON,
    or not an object are skipped and listed in ``Results.skipped``.

    Raises ``FileNotFoundError`` / ``IsADirectoryError`` / ``PermissionError`` as ``open``
    does.
    """
    p = Path(path)
    data = p.read_bytes()
    rows: list[dict[str, Any]] = []
    skipped: list[SkippedLine] = []
    for no, raw in enumerate(data.split(b"\n"), 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            skipped.append(SkippedLine(no, f"invalid UTF-8 at byte {e.start}"))
            continue
        if no == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            col = f" (column {e.colno})" if isinstance(e, json.JSONDecodeError) else ""
            skipped.append(SkippedLine(no, f"not valid JSON: {msg}{col}"))
            continue
        if not isinstance(value, dict):
            skipped.append(SkippedLine(no, f"a JSON {_json_kind(value)}, not an object"))
            continue
        rows.append(value)
    return Results(rows, skipped, p)


def _json_kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else type(v).__name__


# --------------------------------------------------------------------------- gaia_viewer


def filter_results(
    rows: Iterable[dict[str, Any]],
    *,
    level: int | None = None,
    correct_only: bool = False,
    incorrect_only: bool = False,
) -> list[dict[str, Any]]:
    """``gaia_viewer``'s filters: ``level == N`` (Python ``==`` on the JSON value), then
    truthy ``is_correct`` — or, only when ``correct_only`` is off, falsy ``is_correct``."""
    out = list(rows)
    if level is not None:
        out = [r for r in out if _eq(r.get("level"), level)]
    if correct_only:
        out = [r for r in out if r.get("is_correct")]
    elif incorrect_only:
        out = [r for r in out if not r.get("is_correct")]
    return out


def _eq(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - exotic values never equal an int
        return False


def _show(v: Any) -> str:
    """``f"{v}"`` as ``gaia_viewer`` formats a JSON value."""
    return f"{v}"


def format_results(
    rows: Sequence[dict[str, Any]],
    *,
    detailed: bool = False,
    level: int | None = None,
    correct_only: bool = False,
    incorrect_only: bool = False,
) -> str:
    """The exact text ``gaia_viewer`` prints for these rows and flags, every line ending
    in ``\\n``; ``"No results match the filters.\\n"`` when the filters leave nothing.

    Where ``gaia_viewer`` would crash (a question that is null or not a string, a runtime
    that is not a number) the value is shown with ``str()`` instead.
    """
    shown = filter_results(rows, level=level, correct_only=correct_only, incorrect_only=incorrect_only)
    if not shown:
        return "No results match the filters.\n"
    total = len(shown)
    correct = sum(1 for r in shown if r.get("is_correct"))
    accuracy = correct / total
    out = io.StringIO()
    w = out.write
    w("GAIA Results Summary:\n")
    w(f"Total: {total}, Correct: {correct}, Accuracy: {accuracy:.3f}\n")
    w("-" * 80 + "\n")
    for i, r in enumerate(shown, 1):
        mark = "✓" if r.get("is_correct") else "✗"
        w(f"[{i}/{total}] {mark} Level {_show(r.get('level', '?'))} - {_show(r.get('task_id', 'unknown'))}\n")
        if not detailed:
            continue
        q = r.get("question", "N/A")
        q = q if isinstance(q, str) else _show(q)
        w(f"Question: {q[:100]}...\n")
        w(f"Answer: {_show(r.get('answer', 'N/A'))}\n")
        w(f"Prediction: {_show(r.get('prediction', 'N/A'))}\n")
        if r.get("error"):
            w(f"Error: {_show(r.get('error'))}\n")
        rt = r.get("runtime_seconds")
        if rt:
            try:
                w(f"Runtime: {rt:.2f}s\n")
            except (TypeError, ValueError):
                w(f"Runtime: {_show(rt)}s\n")
        w("-" * 40 + "\n")
    return out.getvalue()


# --------------------------------------------------------------------------- errors / timeouts


def row_status(row: dict[str, Any]) -> str | None:
    """The row's status, lower-cased: top-level ``status``, else
    ``evaluation_details.status``; None when neither is a string."""
    status = row.get("status")
    if not isinstance(status, str):
        details = row.get("evaluation_details")
        status = details.get("status") if isinstance(details, dict) else None
    return status.strip().lower() if isinstance(status, str) else None


def is_timeout(row: dict[str, Any]) -> bool:
    """True for a timed-out task (see the module docstring for the rule)."""
    status = row_status(row)
    if status is not None:
        return status == "timeout"
    err = row.get("error")
    if not isinstance(err, str):
        return False
    low = err.lower()
    return err == "" or "timeout" in low or "timed out" in low


def is_error(row: dict[str, Any]) -> bool:
    """True when the task raised (``error`` not null, ``""`` included) or its status is
    ``error``/``timeout``. Timeouts are errors."""
    if row_status(row) in ("error", "timeout"):
        return True
    err = row.get("error")
    return err is not None and err is not False


def runtime_of(row: dict[str, Any]) -> float | None:
    """``runtime_seconds`` as a finite non-negative float, else None."""
    v = row.get("runtime_seconds")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = float(v)
    return f if math.isfinite(f) and f >= 0 else None


# --------------------------------------------------------------------------- per level


def level_key(row: dict[str, Any]) -> Any:
    """Group key of a row's level: integers (``1``, ``1.0``) as int, other values as their
    ``str()``; :data:`MISSING` when absent, None for a JSON null."""
    if "level" not in row:
        return MISSING
    v = row["level"]
    if v is None:
        return None
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return str(v)


def level_display(key: Any) -> str:
    """How a level group is labelled: the value, ``?`` when absent, ``None`` for null."""
    if key is MISSING:
        return "?"
    return _show(key)


def _sort_key(key: Any) -> tuple[int, Any]:
    if isinstance(key, int):
        return (0, key)
    if isinstance(key, str):
        return (1, key)
    return (2, 0) if key is None else (3, 0)


@dataclass(frozen=True)
class LevelStats:
    """Counts for one level (``level`` is a group key, see :func:`level_display`)."""

    level: Any
    tasks: int
    correct: int
    errors: int
    timeouts: int
    runtimes: tuple[float, ...]

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.tasks if self.tasks else None

    @property
    def mean_runtime(self) -> float | None:
        return statistics.fmean(self.runtimes) if self.runtimes else None

    @property
    def median_runtime(self) -> float | None:
        return statistics.median(self.runtimes) if self.runtimes else None


def level_stats(rows: Iterable[dict[str, Any]]) -> list[LevelStats]:
    """One :class:`LevelStats` per level, integer levels first (ascending), then other
    values, then null, then rows without a level. ``correct`` counts truthy ``is_correct``."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(level_key(r), []).append(r)
    out = []
    for key in sorted(groups, key=_sort_key):
        g = groups[key]
        out.append(
            LevelStats(
                level=key,
                tasks=len(g),
                correct=sum(1 for r in g if r.get("is_correct")),
                errors=sum(1 for r in g if is_error(r)),
                timeouts=sum(1 for r in g if is_timeout(r)),
                runtimes=tuple(t for t in (runtime_of(r) for r in g) if t is not None),
            )
        )
    return out


def _runtime_text(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def level_table(rows: Sequence[dict[str, Any]]):
    """A rich Table: per level tasks, correct, accuracy, errors, timeouts and mean/median
    runtime in seconds (over the rows that have one), then ``All`` (weighted) and ``Macro`` (mean of the level accuracies)."""
    from rich import box
    from rich.table import Table

    stats = level_stats(rows)
    t = Table(title="By level", title_justify="left", box=box.SIMPLE_HEAD, show_edge=False)
    t.add_column("Level")
    for name in ("Tasks", "Correct", "Accuracy", "Errors", "Timeouts", "Mean s", "Median s"):
        t.add_column(name, justify="right")
    for s in stats:
        t.add_row(
            level_display(s.level),
            str(s.tasks),
            str(s.correct),
            f"{s.accuracy:.3f}" if s.accuracy is not None else "—",
            str(s.errors),
            str(s.timeouts),
            _runtime_text(s.mean_runtime),
            _runtime_text(s.median_runtime),
        )
    t.add_section()
    tasks = sum(s.tasks for s in stats)
    correct = sum(s.correct for s in stats)
    all_rt = [x for s in stats for x in s.runtimes]
    t.add_row(
        "All",
        str(tasks),
        str(correct),
        f"{correct / tasks:.3f}" if tasks else "—",
        str(sum(s.errors for s in stats)),
        str(sum(s.timeouts for s in stats)),
        _runtime_text(statistics.fmean(all_rt) if all_rt else None),
        _runtime_text(statistics.median(all_rt) if all_rt else None),
    )
    accs = [s.accuracy for s in stats if s.accuracy is not None]
    t.add_row("Macro", "", "", f"{statistics.fmean(accs):.3f}" if accs else "—", "", "", "", "")
    return t


def render_level_table(rows: Sequence[dict[str, Any]], width: int = 80) -> str:
    """:func:`level_table` as plain text (no colour), lines stripped of trailing spaces."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False, legacy_windows=False)
    console.print(level_table(rows))
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"
