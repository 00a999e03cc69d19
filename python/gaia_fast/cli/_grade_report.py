"""What ``gaia-fast grade`` prints for one GAIA archive, on either engine (local, Ray):
the warnings about the input on stderr, the per-level table and the row counts, and where
the outputs went."""

from __future__ import annotations

from typing import Any


def print_input_warnings(err, *, skipped: list[Any], differ: int, duplicates: int, examples: list[str]) -> None:
    """Skipped lines (each named by file and line), rows whose truth differs from the
    metadata's, and task ids that occur more than once (the first few)."""
    for s in skipped:
        err.print(f"[yellow]skipped[/] {s}", markup=True, highlight=False)
    if differ:
        err.print(
            f"[yellow]warning:[/] {differ} row(s) carry a truth that differs from the metadata's; the metadata's is used",
            markup=True,
            highlight=False,
        )
    if duplicates:
        err.print(
            f"[yellow]warning:[/] {duplicates} task id(s) occur more than once (every row is graded): {', '.join(examples)}",
            markup=True,
            highlight=False,
        )


def print_summary(console, result: dict[str, Any], scorer: str, *, engine: str | None = None) -> None:
    """The archive line, the accuracy by level, the rows by status, exclusions and
    skipped lines of ``result`` (the command's JSON payload)."""
    from gaia_fast.cli.grade import _level_table

    src = f" against {result['metadata']} ({result['split']})" if result["metadata"] else ""
    how = f", engine {engine}" if engine else ""
    console.print(f"{result['archive']} ({result['layout']} layout, {result['input_rows']} rows{how}){src}")
    console.print(_level_table(f"Accuracy by level — scorer {scorer}", result, scorer == "gaia-graded"))
    counts = ", ".join(f"{k} {v}" for k, v in result["status_counts"].items())
    console.print(f"Rows: {result['rows']} ({counts})")
    if result["excluded"]:
        console.print(f"Excluded from accuracy (no truth / task not in metadata): {result['excluded']}")
    if result["skipped_lines"]:
        console.print(f"Skipped lines: {len(result['skipped_lines'])}")


def print_outputs(console, result: dict[str, Any]) -> None:
    """Where ``answer_comparison.csv`` and ``--out`` were written."""
    console.print(f"Comparison written to {result['comparison']['path']} ({result['comparison']['rows']} rows)")
    if result["out"]:
        console.print(f"All rows written to {result['out']}")
