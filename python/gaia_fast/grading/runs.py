"""VLMEvalKit run folders and the VLMEvalKit code that graded them.

Since 2024-11 (VLMEvalKit #583) each ``run.py`` call writes into
``{work_dir}/{model}/{eval_id}/`` and then links every file of the run whose name holds
``{model}_{dataset}`` into ``{work_dir}/{model}/`` (absolute links until 2026-04, relative
ones from #1499). ``eval_id`` is ``T{YYYYMMDD}_G{commit}`` (the first 8 characters of
VLMEvalKit's ``git rev-parse HEAD``; empty or ``unknown`` outside a git checkout) and, from
2026-04, ``T{YYYYMMDD}-{HHMMSS}`` with the commit in the run folder's ``status.json``.

The commit picks the variant: ``data/vlmevalkit_commits.csv`` (rebuilt by
``scripts/vlmevalkit_commits.py``) gives the UTC day of each commit of VLMEvalKit's main line.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from gaia_fast.benchmarks import RUN_FOLDER

__all__ = ["RunFolder", "commit_day", "commit_table", "run_folder"]

_TABLE = Path(__file__).resolve().parent.parent / "data" / "vlmevalkit_commits.csv"


@dataclass(frozen=True)
class RunFolder:
    """What a run folder's name (and ``status.json``) say."""

    name: str
    #: the day of the run (``T{YYYYMMDD}``; the machine's local day)
    day: _dt.date | None
    #: ``HHMMSS`` of the 2026 layout, else None
    time: str | None
    #: the VLMEvalKit commit as recorded (None: not recorded)
    commit: str | None
    #: the UTC day that commit landed on VLMEvalKit's main line (None: unknown, see ``note``)
    as_of: _dt.date | None
    #: why ``as_of`` is None
    note: str | None

    def sort_key(self) -> tuple:
        """Oldest first: the day, then the time (2026 layout), then the name."""
        return (self.day or _dt.date.min, self.time or "", self.name)


@lru_cache(maxsize=1)
def commit_table() -> tuple[dict[str, _dt.date], int, str]:
    """``(prefix -> day, prefix length, description of the table's range)``."""
    rows: dict[str, _dt.date] = {}
    length = 0
    header = "VLMEvalKit's main line"
    with open(_TABLE, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line == "commit,date":
                continue
            if line.startswith("#"):
                header = line.lstrip("# ").split(";")[0]
                continue
            try:
                prefix, day = line.split(",")
                rows[prefix] = _dt.date.fromisoformat(day)
            except ValueError:
                raise ValueError(f"{_TABLE}:{lineno}: not 'commit,YYYY-MM-DD': {line!r}") from None
            length = len(prefix)
    return rows, length, header


def commit_day(commit: str) -> tuple[_dt.date | None, str | None]:
    """``(day, None)`` for a commit (full or abbreviated) of VLMEvalKit's main line, else
    ``(None, why)``."""
    c = commit.strip().lower()
    if not c or c == "unknown":
        return None, "VLMEvalKit recorded no commit (it did not run from a git checkout)"
    rows, length, header = commit_table()
    if any(ch not in "0123456789abcdef" for ch in c):
        return None, f"{commit!r} is not a commit hash"
    if len(c) >= length:
        day = rows.get(c[:length])
        if day is not None:
            return day, None
    else:
        hits = [d for p, d in rows.items() if p.startswith(c)]
        if len(hits) == 1:
            return hits[0], None
        if hits:
            return None, f"commit {c} is ambiguous in gaia-fast's table of VLMEvalKit commits"
    return None, (
        f"commit {c} is not in gaia-fast's table of VLMEvalKit commits ({header}): a fork, a side branch or a newer "
        "commit"
    )


def _status_commit(folder: Path) -> tuple[str | None, str | None]:
    status = folder / "status.json"
    try:
        data = json.loads(status.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "its status.json is missing, so its VLMEvalKit commit is unknown"
    except (OSError, ValueError) as e:
        return None, f"its status.json cannot be read ({e}), so its VLMEvalKit commit is unknown"
    commit = data.get("commit") if isinstance(data, dict) else None
    if not commit:
        return None, "its status.json names no commit"
    return str(commit), None


def run_folder(folder: str | Path) -> RunFolder | None:
    """The run folder ``folder`` (its name; for the 2026 layout also its ``status.json``),
    or None when the name is not a run folder's."""
    folder = Path(folder)
    m = RUN_FOLDER.fullmatch(folder.name)
    if m is None:
        return None
    try:
        day: _dt.date | None = _dt.datetime.strptime(m["day"], "%Y%m%d").date()
    except ValueError:
        day = None
    if m["time"] is not None:
        commit, why = _status_commit(folder)
    else:
        commit, why = m["commit"], None
    as_of = None
    if commit is not None:
        as_of, why = commit_day(commit)
        if commit.lower() == "unknown" or not commit:
            commit = None
    note = None if as_of is not None else f"run folder {folder.name}: {why}; the variant is not picked from the code's date"
    return RunFolder(folder.name, day, m["time"], commit, as_of, note)
