"""``gaia-fast report RESULTS --html PAGE``: one self-contained HTML page for a GAIA run.

Exit codes: 0 ok, 2 a missing/unreadable results file or an unwritable page.
"""

from __future__ import annotations

from pathlib import Path

import click

from gaia_fast.cli._common import BadInput, read_results_file, report_skipped_lines

__all__ = ["report"]


@click.command("report")
@click.argument("results_file", type=click.Path(path_type=Path))
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to write the self-contained HTML page.",
)
@click.option("--title", help="Page title (default: the results file name).")
def report(results_file: Path, html_path: Path, title: str | None) -> None:
    """Write one self-contained HTML page for a GAIA results JSONL: run summary, accuracy
    by level, runtime histograms, errors and timeouts, and the rows where the official,
    lenient and graded scorers (or the stored verdict) disagree. No network needed to view it.
    """
    from gaia_fast.harness.html_report import write_report

    res = read_results_file(results_file)
    report_skipped_lines(results_file, res.skipped)
    try:
        write_report(res, html_path, title=title)
    except OSError as e:
        raise BadInput(f"cannot write {e.filename or html_path}: {e.strerror or e}") from None
    n = len(res.rows)
    click.echo(f"Report for {n} task{'s' if n != 1 else ''} written to {html_path}")
