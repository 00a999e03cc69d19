"""``gaia-fast report RESULTS --html PAGE``: one self-contained HTML page for a GAIA run;
``gaia-fast report TREE --html PAGE`` (a folder of results, or the ``--summary`` table of
``gaia-fast grade``): the models x datasets table of a re-graded tree.

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

    For a folder of results (a VLMEvalKit tree) or the --summary table of `gaia-fast grade`:
    the models x datasets table (each dataset's headline number, the archive's own beside
    it; cells that differ from the archive or are not ok marked) and one row per archive.
    """
    from gaia_fast.harness.html_report import write_report

    if results_file.is_dir() or results_file.suffix.lower() in (".csv", ".parquet", ".pq"):
        _tree_report(results_file, html_path, title)
        return

    res = read_results_file(results_file)
    report_skipped_lines(results_file, res.skipped)
    try:
        write_report(res, html_path, title=title)
    except OSError as e:
        raise BadInput(f"cannot write {e.filename or html_path}: {e.strerror or e}") from None
    n = len(res.rows)
    click.echo(f"Report for {n} task{'s' if n != 1 else ''} written to {html_path}")


def _tree_report(source: Path, html_path: Path, title: str | None) -> None:
    from gaia_fast.harness.tree_report import records_from_summary, write_tree_report

    if source.is_dir():
        from gaia_fast.grading.discover import expand
        from gaia_fast.grading.execute import GradeOptions, LocalExecutor

        plan = expand([str(source)])
        records = LocalExecutor().run(plan, GradeOptions(), [None] * len(plan.jobs), [None] * len(plan.jobs))
    else:
        try:
            records = records_from_summary(source)
        except (OSError, ValueError) as e:
            raise BadInput(f"{source}: {e}") from None
    try:
        write_tree_report(records, html_path, title=title or f"gaia-fast: {source.name}", source=str(source))
    except OSError as e:
        raise BadInput(f"cannot write {e.filename or html_path}: {e.strerror or e}") from None
    graded = sum(1 for r in records if r.status != "skipped")
    click.echo(f"Report for {graded} archive{'s' if graded != 1 else ''} written to {html_path}")
