"""The stats keys shared by the families that replay an archive's recorded judge outputs
(math_judged, shortqa, judged, spatial, video_mcq, mcq/yorn): who decided each row
(``decided``), the method line, whether the re-grade matches the archive's, the
disagreement count and the summary of the records read (:func:`replay_stats`: a replay
family's whole stats dict); and the stats of a family graded by its rules alone
(:func:`rules_only_stats`). One place, so the keys the pipeline reads are spelled, counted
and ordered the same way everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeGuard

import polars as pl

from gaia_fast.scorers.vlm.recorded import Records

__all__ = [
    "JUDGE_POLICIES",
    "check_replay_args",
    "decided_from_routes",
    "disagreement_keys",
    "has_record_files",
    "judge_label",
    "method_keys",
    "method_line",
    "records_summary",
    "replay_matches",
    "replay_stats",
    "rules_only_stats",
    "status_counts",
    "tally_keys",
]

#: ``judge_policy`` values: ``auto`` replays the records, ``none`` grades by the rules alone.
JUDGE_POLICIES = ("auto", "none")


def check_replay_args(judge_policy: str, recorded: Records | None) -> None:
    """ValueError for a ``judge_policy`` not in :data:`JUDGE_POLICIES`; TypeError for a
    ``recorded`` that is neither None nor :class:`Records`."""
    if judge_policy not in JUDGE_POLICIES:
        raise ValueError(f"judge_policy must be one of {', '.join(map(repr, JUDGE_POLICIES))}, not {judge_policy!r}")
    if recorded is not None and not isinstance(recorded, Records):
        raise TypeError(f"recorded must be a Records (find_records) or None, not {type(recorded).__name__}")


def judge_label(recorded: Records | None) -> str:
    """``"recorded judge {J}"``, or ``"recorded judge"`` when the files name no judge."""
    return f"recorded judge {recorded.judge}" if recorded is not None and recorded.judge else "recorded judge"


def has_record_files(recorded: Records | None) -> TypeGuard[Records]:
    """Whether the archive's recorded files were found (an ``archive_method`` is known)."""
    return recorded is not None and bool(recorded.files)


def decided_from_routes(routes: dict[str, int]) -> dict[str, int]:
    """``decided`` from per-route counts: ``rules``, ``recorded``, live (``judge``) and
    ``needs_judge`` (undecided); a route not counted is 0."""
    return {
        "rules": routes.get("rules", 0),
        "recorded": routes.get("recorded", 0),
        "live": routes.get("judge", 0),
        "undecided": routes.get("needs_judge", 0),
    }


def method_line(parts: Iterable[tuple[str, int] | tuple[str, int, str]], undecided: int = 0, unit: str = "rows") -> str:
    """``"label (n rows) + ... + k rows undecided (needs_judge)"``: each ``(label, count)``
    or ``(label, count, detail)`` (``label (detail, n rows)``) whose count is not 0, then the
    undecided count; ``"no rows"`` when every count is 0."""
    out = []
    for label, n, *detail in parts:
        if n:
            out.append(f"{label} ({detail[0]}, {n} {unit})" if detail else f"{label} ({n} {unit})")
    if undecided:
        out.append(f"{undecided} {unit} undecided (needs_judge)")
    return " + ".join(out) or "no rows"


def replay_matches(archive_method: str | None, judge_policy: str, *open_counts: int) -> bool:
    """``matches_archive`` of a replay: the archive's records were found, they were used
    (``judge_policy="auto"``) and every count given (undecided rows, disagreements,
    errors...) is 0."""
    return archive_method is not None and judge_policy == "auto" and all(n == 0 for n in open_counts)


def tally_keys(rows: int, tasks: int, correct: float) -> dict[str, Any]:
    """``rows`` (input rows), ``tasks`` (rows or questions counted), ``correct`` (a float) and
    ``accuracy`` (``correct / tasks``; NaN with nothing counted)."""
    return {"rows": rows, "tasks": tasks, "correct": float(correct), "accuracy": correct / tasks if tasks else math.nan}


def method_keys(
    decided: dict[str, int], method: str, judge_policy: str, archive_method: str | None, matches: bool, unit: str = "rows"
) -> dict[str, Any]:
    """The method keys in the order the stats list them: ``decided``, ``decided_unit``,
    ``method``, ``judge_policy``, ``archive_method``, ``matches_archive``."""
    return {
        "decided": decided,
        "decided_unit": unit,
        "method": method,
        "judge_policy": judge_policy,
        "archive_method": archive_method,
        "matches_archive": matches,
    }


def disagreement_keys(name: str, n: int) -> dict[str, Any]:
    """``{name: n, "flags": {name: n}}`` (``flags`` empty when ``n`` is 0): rows the rules
    decided against the archive's record."""
    return {name: n, "flags": {name: n} if n else {}}


def status_counts(rows: pl.DataFrame) -> dict[str, int]:
    """Rows per ``status``, sorted by status."""
    return dict(sorted(rows.group_by("status").len().iter_rows()))


def records_summary(recorded: Records) -> dict[str, Any]:
    """``stats["records"]``: the judge named, the files read, the entries and the notes."""
    return {"judge": recorded.judge, "files": [p.name for p in recorded.files], "entries": len(recorded), "notes": list(recorded.notes)}


def replay_stats(
    benchmark: str,
    variant: str | None,
    rows: pl.DataFrame,
    *,
    input_rows: int,
    tasks: int,
    correct: float,
    decided: dict[str, int],
    method: str,
    judge_policy: str,
    archive_method: str | None,
    matches: bool,
    counts: dict[str, int] | None = None,
    flags: dict[str, int] | None = None,
    crashed_rows: int = 0,
    reference_error: str | None = None,
    recorded: Records | None = None,
    accuracy: float | None = None,
) -> dict[str, Any]:
    """A replay family's stats, keys in this order: ``benchmark``, ``variant``,
    :func:`tally_keys`, :func:`method_keys`, ``counts`` (disagreements and the like),
    ``flags`` (by default the counts that are not 0), ``status`` (:func:`status_counts` of
    the scored ``rows``), ``judge`` (False: no live judge), ``crashed_rows``,
    ``reference_error`` and, when ``recorded`` is given, ``records``
    (:func:`records_summary`). ``accuracy`` replaces ``correct / tasks`` where the family
    averages otherwise."""
    counts = counts or {}
    stats: dict[str, Any] = {"benchmark": benchmark, "variant": variant, **tally_keys(input_rows, tasks, correct)}
    if accuracy is not None:
        stats["accuracy"] = accuracy
    stats |= {
        **method_keys(decided, method, judge_policy, archive_method, matches),
        **counts,
        "flags": {k: n for k, n in counts.items() if n} if flags is None else flags,
        "status": status_counts(rows),
        "judge": False,
        "crashed_rows": crashed_rows,
        "reference_error": reference_error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return stats


def rules_only_stats(
    benchmark: str,
    variant: str | None,
    rows: pl.DataFrame,
    *,
    input_rows: int,
    tasks: int,
    correct: float,
    accuracy: float | None,
    method: str,
    archive_method: str | None = None,
    matches: bool = True,
    flags: dict[str, int] | None = None,
    crashed_rows: int | None = None,
    reference_error: str | None = None,
    averages: dict[str, float | None] | None = None,
    unit: str | None = "rows",
) -> dict[str, Any]:
    """The stats of a set graded by its rules alone (every scored row decided by the rules),
    keys in this order: ``benchmark``, ``variant``, ``rows``, ``tasks``, ``correct``,
    ``accuracy``, the other ``averages`` (when given), ``decided``, ``decided_unit``
    (``unit``; left out when None, as the stats of the single-module rules families never
    had it), ``method``, ``archive_method``, ``matches_archive``, ``flags`` (when given),
    ``status``, ``judge``, ``crashed_rows`` (when given), ``reference_error``."""
    stats: dict[str, Any] = {
        "benchmark": benchmark,
        "variant": variant,
        "rows": input_rows,
        "tasks": tasks,
        "correct": float(correct),
        "accuracy": accuracy,
        **(averages or {}),
        "decided": decided_from_routes({"rules": tasks}),
    }
    if unit is not None:
        stats["decided_unit"] = unit
    stats |= {
        "method": method,
        "archive_method": archive_method,
        "matches_archive": matches,
    }
    if flags is not None:
        stats["flags"] = flags
    stats |= {"status": status_counts(rows), "judge": False}
    if crashed_rows is not None:
        stats["crashed_rows"] = crashed_rows
    stats["reference_error"] = reference_error
    return stats
