"""``gaia-fast grade PATH...`` with several archives (or a folder): grade them side by side
with the grading pipeline (:mod:`gaia_fast.grading`) and print one row per archive."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from gaia_fast import benchmarks
from gaia_fast.cli._common import BadInput
from gaia_fast.grading.archive import OutputError
from gaia_fast.grading.execute import LocalExecutor, out_paths, report_paths
from gaia_fast.grading.plan import ArchiveRecord, Plan, columns
from gaia_fast.grading.reporters import pivot, write_pivot, write_summary

#: Options that only make sense for one archive: the flag, and why.
SINGLE_ONLY = {
    "submission": ("--submission", "it checks one leaderboard submission file; check each file in its own call"),
    "acc": ("--acc", "each archive's report goes to --report-dir under VLMEvalKit's name"),
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

    compare = next((r.compare for r in records if r.compare), None)
    t = Table(title=f"{len(records)} archive(s)", title_justify="left")
    heads = [  # the archive's folder is in --json / --summary
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
    ]
    if compare:
        heads += [(f"{compare} acc.", "right"), ("disagree", "right")]
    for name, justify in (*heads, ("status", "left"), ("error / note", "left")):
        t.add_column(name, justify=justify)
    style = {"ok": "green", "ok_by_shape": "green", "error": "red", "skipped": "yellow"}
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
            *((_pct(r.compare_accuracy), _num(r.disagreements)) if compare else ()),
            f"[{style.get(r.status, 'white')}]{r.status}[/]",
            _short(r.error[len(r.path) + 2 :] if r.error and r.error.startswith(r.path + ": ") else r.error),
        )
    return t


def pivot_table(records: list[ArchiveRecord]):
    """Models x datasets: each cell our headline number, the archive's own beside it in
    brackets where the tree has one; red where they differ or the status is not ok."""
    from rich.table import Table

    frame = pivot(records)
    datasets = [c for c in frame.columns if c != "model" and not c.endswith("]")]
    t = Table(title=f"{frame.height} model(s) x {len(datasets)} dataset(s): ours (the archive's own)", title_justify="left")
    t.add_column("model")
    for d in datasets:
        t.add_column(d, justify="right")
    for row in frame.iter_rows(named=True):
        cells = []
        for d in datasets:
            ours, theirs, status = row[d], row.get(f"{d} [archive]"), row.get(f"{d} [status]")
            text = "—" if ours is None else f"{ours:.4g}"
            if theirs is not None:
                text += f" ({theirs:.4g})"
            if status:
                text += f" {status}"
            bad = status is not None or (theirs is not None and (ours is None or abs(ours - theirs) > 1e-9 * max(1.0, abs(theirs))))
            cells.append(f"[red]{text}[/]" if bad else text)
        t.add_row(row["model"], *cells)
    return t


def exit_code(records: list[ArchiveRecord]) -> int:
    """1 when an archive could not be graded, 3 when one is incomplete (rows that need a
    judge, or report cells that need what the archive does not hold), else 0."""
    if any(r.status == "error" for r in records):
        return 1
    if any(r.status in ("needs_judge", "incomplete") for r in records):
        return 3
    return 0


def grade_bulk(plan: Plan, options: dict[str, Any], meta, *, summary: Path | None, report_dir: Path, jobs: int | None, err, out) -> int:
    """Grade ``plan``, print (or emit JSON), write ``summary``; return the exit code."""
    ctx = click.get_current_context()
    for key, (flag, why) in SINGLE_ONLY.items():
        if options.get(key):
            raise click.UsageError(f"{flag} applies to one archive, not several: {why}")
    if ctx.get_parameter_source("comparison") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--comparison applies to one archive, not several: each GAIA archive's answer_comparison.csv goes to --report-dir/<run>/")
    out_dir = _out_dir(options.get("out"))
    if options.get("explain") and out_dir is None:
        raise click.UsageError("--explain with several archives adds the reason column to the scored tables: give --out DIR")
    gaia = [j for j in plan.jobs if j.benchmark == "gaia"]
    vlm_modules = sorted({benchmarks.get(j.benchmark).module for j in plan.jobs if j.benchmark not in (None, "gaia")})
    if options.get("compare") and not gaia:
        raise click.UsageError(f"--compare applies to GAIA archives (a second GAIA scorer); none of the {len(plan.jobs)} archive(s) is one")
    if summary is not None and summary.suffix.lower() not in (".csv", ".parquet", ".pq"):
        raise click.BadParameter(f"{summary}: write the summary as .csv or .parquet", param_hint="--summary")
    as_json = options.get("as_json", False)
    if not plan.jobs and not plan.skipped_files:
        raise BadInput("no result files found")

    judges = _judges(options, vlm_modules, err if not as_json else None)

    def progress(record: ArchiveRecord) -> None:
        if not as_json:
            err.print(f"{record.status:>7} {record.path}", markup=False, highlight=False)

    try:
        records = _run(plan, options, judges, report_dir=report_dir, jobs=jobs, meta=meta, out_dir=out_dir, on_done=progress)
    except OutputError as e:
        raise BadInput(str(e)) from None
    if judges.recorders and options.get("save_judge_responses") is not None:
        from gaia_fast.judge import save_responses

        save_responses([r for rec in judges.recorders for r in rec.replies], options["save_judge_responses"])
    pivoted = options.get("pivot", False)
    if summary is not None:
        try:
            (write_pivot if pivoted else write_summary)(records, summary)
        except OSError as e:
            raise BadInput(f"cannot write {summary}: {e.strerror or e}") from None
    if as_json:
        cols = columns(records)
        payload = {
            "archives": [r.to_dict(cols) for r in records],
            "skipped_files": [s.to_dict() for s in plan.skipped_files],
            "report_dir": str(report_dir),
            "out": None if out_dir is None else str(out_dir),
            "summary": None if summary is None else str(summary),
            "as_of": None if options.get("as_of") is None else options["as_of"].isoformat(),
            **({"pivot": pivot(records).to_dicts()} if pivoted else {}),
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
    else:
        if not out.is_terminal:
            out.width = max(out.width, 200)  # a log or a pipe: do not squeeze the table to 80 columns
        out.print(summary_table(records))
        if pivoted:
            out.print(pivot_table(records))
        if plan.skipped_files:
            out.print(f"Skipped {len(plan.skipped_files)} file(s) that are not results:")
            for s in plan.skipped_files:
                out.print(f"  {s.path}: {s.reason}", markup=False, highlight=False)
        written = sum(1 for r in records if r.report)
        out.print(f"Reports written to {report_dir}/ ({written})" + (f"; summary to {summary}" if summary else ""))
        if out_dir is not None:
            out.print(f"Scored tables written to {out_dir}/ ({sum(1 for r in records if r.out)})")
    failed = [r for r in records if r.status == "error"]
    incomplete = [r for r in records if r.status == "needs_judge"]
    if failed and not as_json:
        err.print(f"[red]{len(failed)} archive(s) could not be graded[/]", markup=True, highlight=False)
    if incomplete and not as_json:
        err.print(f"[yellow]{len(incomplete)} archive(s) are incomplete: rows need a judge (--judge-model)[/]", markup=True, highlight=False)
    return exit_code(records)


def _out_dir(out: Path | None) -> Path | None:
    """``--out`` with several archives: a folder (made when absent), never one file."""
    if out is None:
        return None
    if out.exists() and not out.is_dir():
        raise click.BadParameter(f"{out} is a file; with several archives --out names a folder for their scored tables", param_hint="--out")
    if not out.exists() and out.suffix.lower() in (".parquet", ".pq", ".csv", ".jsonl", ".ndjson", ".xlsx", ".tsv"):
        raise click.BadParameter(
            f"{out} looks like a file name; with several archives --out names a folder (each archive's scored table is written into it)",
            param_hint="--out",
        )
    return out


class _Judges:
    """The judges of a bulk run: one per family module (each has its own system prompt),
    shared by that family's archives, with one progress line on stderr."""

    def __init__(self) -> None:
        self.by_module: dict[str, Any] = {}
        self.options: dict[str, dict[str, Any]] = {}
        self.recorders: list[Any] = []
        self.bar: Any = None


def _judges(options: dict[str, Any], modules: list[str], console) -> _Judges:
    judges = _Judges()
    if not options.get("judge_model"):
        if options.get("save_judge_responses") is not None:
            raise click.UsageError("--save-judge-responses needs a judge (--judge-model)")
        return judges
    if not modules:
        raise click.UsageError("--judge-model applies to the VLMEvalKit families that use a judge; none of the archives is one (GAIA archives are scored without a judge)")
    from gaia_fast.cli.vlm import _JudgeBar, make_judge

    judges.bar = _JudgeBar(console) if console is not None else None
    for module in modules:
        _, recorder, extra = make_judge(
            module,
            judge_model=options["judge_model"],
            judge_base_url=options.get("judge_base_url"),
            judge_cache=options.get("judge_cache", True),
            judge_max_wait=options.get("judge_max_wait", 300.0),
            on_event=judges.bar,
        )
        judges.by_module[module] = recorder
        judges.options[module] = extra
        judges.recorders.append(recorder)
    return judges


def _run(plan: Plan, options: dict[str, Any], judges: _Judges, *, report_dir, jobs, meta, out_dir, on_done) -> list[ArchiveRecord]:
    from gaia_fast.cli.grade import gaia_options

    grading = gaia_options(options, meta, judges=judges.by_module, judge_options=judges.options)
    grading.limit = 1  # no detailed tables for several archives
    outs = out_paths(plan, out_dir) if out_dir is not None else [None] * len(plan.jobs)
    reports = report_paths(plan, report_dir)
    if judges.bar is not None:
        judges.bar.start()
    try:
        return LocalExecutor(jobs).run(plan, grading, reports, outs, on_done=on_done)
    finally:
        if judges.bar is not None:
            judges.bar.stop()
