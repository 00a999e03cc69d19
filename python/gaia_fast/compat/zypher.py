"""Zypher's GAIA bench: grade a workspace of ``<task_id>/answer.txt`` the way its
``bench/grade.py`` does, configured the way its ``bench.ts`` is.

``gaia-fast grade`` with no PATH runs this. The settings come from the environment, then
from a ``.env`` file in the current folder (the environment wins, as Deno's dotenv loader
does), then grade.py's fixed paths:

=====================  ============================================  ==================
variable               meaning                                       default
=====================  ============================================  ==================
BENCHMARK_WORKSPACE    the workspace folder                          ``bench/workspace``
BENCHMARK_DATASET      the GAIA dataset folder                       ``bench/GAIA``
BENCHMARK_MODE         the split: ``validation`` or ``test``         ``validation``
BENCHMARK_METADATA     metadata file name without ``.jsonl``        ``metadata``
BENCHMARK_LEVEL        grade only the answers of tasks of this level (all)
=====================  ============================================  ==================

The metadata file is ``$BENCHMARK_DATASET/2023/$BENCHMARK_MODE/$BENCHMARK_METADATA.jsonl``
(as ``bench.ts`` builds it). ``answer_comparison.csv`` and the printed report are
grade.py's, byte for byte: one row per answer file (metadata tasks without one are not
counted anywhere), an unknown task id is ``NOT_FOUND`` at level 0, an answer that could not
be read or starts with ``ERROR:`` is wrong, rows sorted by task id; the decision is the
leaderboard's ``question_scorer``. With ``BENCHMARK_LEVEL`` set, answer files of tasks of
other levels (or unknown tasks) are left out and counted in :attr:`ZypherGrade.other_levels`.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_fast.io.readers import InputError

__all__ = ["ENV_KEYS", "ZypherGrade", "ZypherSettings", "grade_workspace", "settings"]

ENV_KEYS = ("BENCHMARK_WORKSPACE", "BENCHMARK_DATASET", "BENCHMARK_MODE", "BENCHMARK_METADATA", "BENCHMARK_LEVEL")
_DEFAULTS = {
    "BENCHMARK_WORKSPACE": "bench/workspace",
    "BENCHMARK_DATASET": "bench/GAIA",
    "BENCHMARK_MODE": "validation",
    "BENCHMARK_METADATA": "metadata",
}
_RULE = "=" * 60


@dataclass(frozen=True)
class ZypherSettings:
    workspace: Path
    metadata: Path
    mode: str
    level: int | None
    #: Where each value came from: ``environment``, ``.env`` or ``default``.
    sources: dict[str, str] = field(default_factory=dict)


def _dotenv(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines (``export`` prefix, quotes and ``#`` comments allowed)."""
    out: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return out
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot read: {e}") from None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        out[key] = value
    return out


def settings(environ: Mapping[str, str] | None = None, cwd: str | os.PathLike | None = None) -> ZypherSettings:
    """The bench settings (see the module docstring); InputError for a bad mode or level."""
    environ = os.environ if environ is None else environ
    base = Path.cwd() if cwd is None else Path(cwd)
    dotenv = _dotenv(base / ".env")
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    for key in ENV_KEYS:
        if environ.get(key):
            values[key], sources[key] = environ[key], "environment"
        elif dotenv.get(key):
            values[key], sources[key] = dotenv[key], ".env"
        elif key in _DEFAULTS:
            values[key], sources[key] = _DEFAULTS[key], "default"
    mode = values["BENCHMARK_MODE"]
    if mode not in ("validation", "test"):
        raise InputError("BENCHMARK_MODE", f"must be 'validation' or 'test', got {mode!r}")
    level = None
    if "BENCHMARK_LEVEL" in values:
        raw = values["BENCHMARK_LEVEL"]
        if not raw.strip().isdigit():
            raise InputError("BENCHMARK_LEVEL", f"must be a level number, got {raw!r}")
        level = int(raw)
    dataset = base / values["BENCHMARK_DATASET"]
    return ZypherSettings(
        workspace=base / values["BENCHMARK_WORKSPACE"],
        metadata=dataset / "2023" / mode / f"{values['BENCHMARK_METADATA']}.jsonl",
        mode=mode,
        level=level,
        sources=sources,
    )


@dataclass
class ZypherGrade:
    """grade.py's rows (sorted by task id) and what it prints."""

    rows: list[dict[str, Any]]
    comparison: Path
    other_levels: int = 0

    def csv_text(self) -> str:
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, fieldnames=["task_id", "level", "expected_answer", "actual_answer", "match"])
        w.writeheader()
        for r in self.rows:
            w.writerow(r)
        return buf.getvalue()

    def report_text(self) -> str:
        """grade.py's report, from the blank line after its scorer chatter to the end."""
        out = ["", f"Comparison completed. Results saved to {self.comparison.name}", f"Total tasks processed: {len(self.rows)}"]
        by_level: dict[Any, list[dict[str, Any]]] = {}
        for r in self.rows:
            by_level.setdefault(r["level"], []).append(r)
        out += ["", _RULE, "RESULTS BY LEVEL", _RULE]
        percentages = []
        matches_all = 0
        for level in sorted(by_level):
            rows = by_level[level]
            matches = sum(1 for r in rows if r["match"])
            pct = matches / len(rows) * 100
            percentages.append(pct)
            matches_all += matches
            out += ["", f"Level {level}:", f"  Correct: {matches}/{len(rows)} ({pct:.1f}%)", f"  Incorrect: {len(rows) - matches}"]
            wrong = [r for r in rows if not r["match"]]
            if wrong:
                out.append("  Mismatches:")
                out += [f"    {r['task_id']}: Expected '{r['expected_answer']}', Got '{r['actual_answer']}'" for r in wrong]
        out += ["", _RULE, "OVERALL SUMMARY", _RULE]
        if percentages:
            out.append(f"Average percentage across levels: {sum(percentages) / len(percentages):.1f}%")
        overall = matches_all / len(self.rows) * 100 if self.rows else 0
        out += [f"Overall percentage (weighted): {overall:.1f}%", f"Total correct: {matches_all}/{len(self.rows)}"]
        return "\n".join(out) + "\n"


def _metadata(path: Path) -> dict[str, tuple[Any, Any]]:
    """task id -> (Final answer, Level), read as grade.py reads them."""
    import json

    out: dict[str, tuple[Any, Any]] = {}
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise InputError(path, f"cannot read the metadata: {e.strerror or e}") from None
    with f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                out[data["task_id"]] = (data["Final answer"], data["Level"])
            except (ValueError, TypeError) as e:
                raise InputError(path, f"not a JSON object: {e}", line=lineno) from None
            except KeyError as e:
                raise InputError(path, f"no {e.args[0]!r} field", line=lineno, field=str(e.args[0])) from None
    return out


def grade_workspace(config: ZypherSettings, comparison: str | os.PathLike = "answer_comparison.csv") -> ZypherGrade:
    """Grade the workspace and write ``comparison`` atomically (never over an answer file
    or the metadata)."""
    from gaia_fast.io.readers import read_archive
    from gaia_fast.io.writers import atomic_path
    from gaia_fast.scorers.gaia import question_scorer

    if not config.workspace.is_dir():
        raise InputError(config.workspace, "no such workspace folder (set BENCHMARK_WORKSPACE)")
    meta = _metadata(config.metadata)
    frame, _ = read_archive(config.workspace)
    rows: list[dict[str, Any]] = []
    other = 0
    for task_id, answer in zip(frame.get_column("task_id").to_list(), frame.get_column("prediction").to_list()):
        expected, level = meta.get(task_id, ("NOT_FOUND", 0))
        if config.level is not None and level != config.level:
            other += 1
            continue
        answer = answer if answer is not None else ""
        if expected == "NOT_FOUND" or answer.startswith("ERROR:"):
            match = False
        else:
            match = question_scorer(answer, str(expected))
        rows.append({"task_id": task_id, "expected_answer": expected, "actual_answer": answer, "level": level, "match": match})
    rows.sort(key=lambda r: r["task_id"])
    dest = Path(comparison)
    target = dest.resolve()
    if target == config.metadata.resolve() or (target.name == "answer.txt" and target.parent.parent == config.workspace.resolve()):
        raise InputError(dest, "the comparison file would overwrite an input; choose another path")
    result = ZypherGrade(rows, dest, other)
    try:
        with atomic_path(dest) as tmp, open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(result.csv_text())
    except OSError as e:
        raise InputError(dest, f"cannot write: {e.strerror or e}") from None
    return result
