"""``gaia-fast view RESULTS``: print a GAIA results JSONL as agent-framework's viewer does.

Exit codes: 0 ok (also when the filters leave nothing), 2 a missing/unreadable results
file. Lines that are not JSON objects are skipped and reported on stderr (count and line
numbers); stdout carries only the results.
"""

from __future__ import annotations

from pathlib import Path

import click

from gaia_fast.cli._common import read_results_file, report_skipped_lines
from gaia_fast.harness.viewer import filter_results, format_results, render_level_table

__all__ = ["view"]


@click.command("view")
@click.argument("results_file", type=click.Path(path_type=Path))
@click.option("--detailed", is_flag=True, help="Show each task's question, answer, prediction, error and runtime.")
@click.option("--level", type=int, metavar="N", help="Only tasks whose level equals N.")
@click.option("--correct-only", is_flag=True, help="Only correct tasks.")
@click.option("--incorrect-only", is_flag=True, help="Only incorrect tasks (ignored with --correct-only, as gaia_viewer does).")
@click.option("--plain", is_flag=True, help="Exactly gaia_viewer's output: no per-level table.")
def view(results_file: Path, detailed: bool, level: int | None, correct_only: bool, incorrect_only: bool, plain: bool) -> None:
    """Show a GAIA results JSONL the way agent-framework's gaia_viewer does, then a
    per-level table (tasks, correct, accuracy, errors, timeouts, runtime) of the shown rows.

    A row is a timeout when its status (top-level "status", else
    evaluation_details.status) is "timeout"; without a status, when its error is ""
    (agent-framework's asyncio timeout) or mentions "timeout"/"timed out".
    """
    res = read_results_file(results_file)
    report_skipped_lines(results_file, res.skipped)
    text = format_results(res.rows, detailed=detailed, level=level, correct_only=correct_only, incorrect_only=incorrect_only)
    click.echo(text, nl=False)
    if plain or text.startswith("No results match"):
        return
    shown = filter_results(res.rows, level=level, correct_only=correct_only, incorrect_only=incorrect_only)
    click.echo("")
    click.echo(render_level_table(shown), nl=False)
