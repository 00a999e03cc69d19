"""Rebuild ``python/gaia_fast/data/vlmevalkit_commits.csv``: VLMEvalKit's commits and the UTC
day each was committed, so a run folder ``T{YYYYMMDD}_G{commit}`` tells which VLMEvalKit code
graded it (``--as-of`` for that file).

    git clone https://github.com/open-compass/VLMEvalKit
    python scripts/vlmevalkit_commits.py --git-dir VLMEvalKit/.git [--branch main]

What goes in, and why:

* only the first-parent history of ``--branch`` (main): the benchmark date tables
  (``Benchmark.variants``) are keyed by the day a change landed on main, and a main commit
  holds exactly the changes dated on or before it (main's committer dates never go
  backwards; the script checks). A commit from a merged side branch, a pull request or a
  fork can lack changes dated before it, so it is left out: such a run gets no date and the
  summary says so, rather than a guessed variant.
* the day is the committer date in UTC, as in the date tables.
* prefixes are cut to the shortest length (at least 7) at which no two commits of the whole
  clone (every ref) share one, so a run's 8-character ``G`` commit matches at most one row.
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "python" / "gaia_fast" / "data" / "vlmevalkit_commits.csv"


def _git(git_dir: str, *args: str) -> str:
    env = {**os.environ, "TZ": "UTC", "LC_ALL": "C"}
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True, env=env).stdout


def build(git_dir: str, branch: str = "main", min_length: int = 7) -> tuple[list[tuple[str, str]], int]:
    """``(rows, prefix length)``: rows ``(prefix, YYYY-MM-DD)`` newest first."""
    lines = _git(git_dir, "log", "--first-parent", "--format=%H %ct %cd", "--date=format-local:%Y-%m-%d", branch).split("\n")
    commits = [tuple(line.split()) for line in lines if line.strip()]
    stamps = [int(ct) for _, ct, _ in commits]
    if any(a < b for a, b in itertools.pairwise(stamps)):
        raise SystemExit(f"{branch}: committer dates go backwards along the first-parent history; a date cannot stand for the code")
    everything = _git(git_dir, "rev-list", "--all").split()
    length = min_length
    while len({h[:length] for h in everything}) < len(set(everything)):
        length += 1
    return [(h[:length], day) for h, _, day in commits], length


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git-dir", required=True, help="a VLMEvalKit clone's .git (or a bare clone)")
    ap.add_argument("--branch", default="main")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows, length = build(args.git_dir, args.branch)
    head = _git(args.git_dir, "rev-parse", args.branch).strip()
    tmp = args.out.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"# VLMEvalKit {args.branch} first-parent commits up to {head[:8]} ({rows[0][1]}); scripts/vlmevalkit_commits.py\n")
        f.write("commit,date\n")
        f.writelines(f"{prefix},{day}\n" for prefix, day in rows)
    tmp.replace(args.out)
    print(f"{args.out}: {len(rows)} commits, {length}-character prefixes, {rows[-1][1]} .. {rows[0][1]}", file=sys.stderr)


if __name__ == "__main__":
    main()
