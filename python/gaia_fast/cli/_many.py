"""``gaia-fast grade PATH...`` with several archives (or a folder): grade them side by side
with :mod:`gaia_fast.grading.many` and print one row per archive."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from gaia_fast.cli._common import BadInput
from gaia_fast.grading.many import ArchiveRecord, Plan, grade_many, write_summary

#: Options that only make sense for one archive, with the flag that sets them.
SINGLE_ONLY = {
    "out": "--out",
    "compare": "--compare",
    "explain": "--explain",
    "submission": "--submission",
    "acc": "--acc",
    "judge_model": "--judge-model",
    "save_judge_responses": "--save-judge-responses",
}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.2f}%"


def _num(x: Any) -> str:
    if x is None:
        return "—"
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def _short(text: str | None, limit: int = 70) -> str:
    if not text:
        return ""
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summary_table(records: list[ArchiveRecord]):
    from rich.table import Table

    t = Table(title=f"{len(records)} archive(s)", title_justify="left")
    for name, justify in (  # the archive's folder is in --json / --summary
        ("archive", "left"),
        ("benchmark", "left"),
        ("model", "left"),
        ("dataset", "left"),
        ("variant", "left"),
        ("rows", "right"),
        ("tasks", "right"),
        ("correct", "right"),
        ("accuracy", "right"),
        ("no fallback", "right"),
        ("status", "left"),
        ("error / note", "left"),
    ):
        t.add_column(name, justify=justify)
    style = {"ok": "green", "error": "red", "skipped": "yellow"}
    for r in records:
        t.add_row(
            Path(r.path).name,
            r.benchmark or "",
            r.model or "",
            r.dataset or "",
            r.variant or "",
            _num(r.rows),
            _num(r.tasks),
            _num(r.correct),
            _pct(r.accuracy),
            _pct(r.accuracy_no_fallback),
            f"[{style.get(r.status, 'white')}]{r.status}[/]",
            _short(r.error[len(r.path) + 2 :] if r.error and r.error.startswith(r.path + ": ") else r.error),
        )
    return t


def grade_bulk(plan: Plan, options: dict[str, Any], *, summary: Path | None, report_dir: Path, jobs: int | None, err, out) -> int:
    """Grade ``plan``, print (or emit JSON), write ``summary``; return the exit code."""
    ctx = click.get_current_context()
    used = [flag for key, flag in SINGLE_ONLY.items() if options.get(key)]
    if ctx.get_parameter_source("comparison") != click.core.ParameterSource.DEFAULT:
        used.append("--comparison")
    if used:
        raise click.UsageError(f"{', '.join(used)} only apply to one archive; with several, reports go to --report-dir")
    if summary is not None and summary.suffix.lower() not in (".csv", ".parquet", ".pq"):
        raise click.BadParameter(f"{summary}: write the summary as .csv or .parquet", param_hint="--summary")
    meta = None
    if options.get("metadata") is not None:
        from gaia_fast.datasets.gaia import load_metadata
        from gaia_fast.io.readers import InputError

        try:
            meta = load_metadata(options["metadata"], options["split"])
        except InputError as e:
            raise BadInput(str(e)) from None
    as_json = options.get("as_json", False)
    if not plan.jobs and not plan.skipped_files:
        raise BadInput("no result files found")

    def progress(record: ArchiveRecord) -> None:
        if not as_json:
            err.print(f"{record.status:>7} {record.path}", markup=False, highlight=False)

    records = grade_many(
        plan,
        report_dir=report_dir,
        jobs=jobs,
        metadata=meta,
        scorer=options.get("scorer", "gaia"),
        variant=options.get("variant"),
        as_of=options.get("as_of"),
        seed=options.get("seed", 0),
        prediction_col=options.get("prediction_col"),
        truth_col=options.get("truth_col"),
        id_col=options.get("id_col"),
        level_col=options.get("level_col"),
        skip_bad_lines=options.get("skip_bad_lines", False),
        chunk_rows=options.get("chunk_rows", 1_000_000),
        on_done=progress,
    )
    if summary is not None:
        try:
            write_summary(records, summary)
        except OSError as e:
            raise BadInput(f"cannot write {summary}: {e.strerror or e}") from None
    if as_json:
        payload = {
            "archives": [r.to_dict() for r in records],
            "skipped_files": [s.to_dict() for s in plan.skipped_files],
            "report_dir": str(report_dir),
            "summary": None if summary is None else str(summary),
            "as_of": None if options.get("as_of") is None else options["as_of"].isoformat(),
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
    else:
        if not out.is_terminal:
            out.width = max(out.width, 200)  # a log or a pipe: do not squeeze the table to 80 columns
        out.print(summary_table(records))
        if plan.skipped_files:
            out.print(f"Skipped {len(plan.skipped_files)} file(s) that are not results:")
            for s in plan.skipped_files:
                out.print(f"  {s.path}: {s.reason}", markup=False, highlight=False)
        written = sum(1 for r in records if r.report)
        out.print(f"Reports written to {report_dir}/ ({written})" + (f"; summary to {summary}" if summary else ""))
    failed = [r for r in records if r.status == "error"]
    if failed and not as_json:
        err.print(f"[red]{len(failed)} archive(s) could not be graded[/]", markup=True, highlight=False)
    return 1 if failed else 0
