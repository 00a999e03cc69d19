"""``gaia-fast grade``.

``gaia-fast grade ARCHIVE [--metadata DATASET] …`` re-grades a result archive, writes
``answer_comparison.csv`` (and ``--out`` with every column), and prints accuracy per
level, the macro average over levels and the weighted overall. Exit codes: 0 ok, 1 an
invalid leaderboard submission (``--submission``) or an archive that could not be graded,
2 bad input or usage, 3 an incomplete result (rows that need a judge).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import polars as pl

from gaia_fast.cli._common import BadInput
from gaia_fast.cli._grade_report import (
    print_audits,
    print_input_warnings,
    print_outputs,
    print_summary,
)
from gaia_fast.cli._many import grade_bulk
from gaia_fast.cli.vlm import BENCHMARKS, grade_vlm
from gaia_fast.datasets.gaia import load_metadata
from gaia_fast.frame import SCORERS
from gaia_fast.grading.archive import OutputError, check_outputs_writable
from gaia_fast.grading.discover import (
    expand,
    is_metadata_folder,
    is_parquet_dataset,
    is_workspace,
    single,
)
from gaia_fast.grading.execute import GradeOptions, LocalExecutor
from gaia_fast.grading.plan import Plan
from gaia_fast.io.readers import InputError, is_json_task_folder
from gaia_fast.io.writers import table_format

SPLITS = ("validation", "test")


def _consoles(as_json: bool):
    from rich.console import Console

    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    err = Console(file=sys.stderr, highlight=False, soft_wrap=True)
    return out, err


class _RichLogHandler(logging.Handler):
    def __init__(self, console) -> None:
        super().__init__(logging.WARNING)
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        self.console.print(f"[yellow]warning:[/] {record.getMessage()}", markup=True, highlight=False)


@contextmanager
def _library_warnings(console) -> Iterator[None]:
    logger = logging.getLogger("gaia_fast")
    handler = _RichLogHandler(console)
    logger.addHandler(handler)
    old = logger.level
    if logger.level == logging.NOTSET or logger.level > logging.WARNING:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def _num(x: Any, graded: bool) -> str:
    if x is None:
        return "—"
    return f"{x:.2f}" if graded else str(int(x))


def _cell(v: Any, limit: int = 60) -> str:
    if v is None:
        return "∅"
    s = str(v)
    s = s.replace("\r", "\\r").replace("\n", "\\n")
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _score_text(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "True" if v else "False"
    return f"{v:.2f}"


@click.command("grade")
@click.argument("archives", nargs=-1, type=click.Path(path_type=Path), metavar="PATH...")
@click.option(
    "--metadata",
    type=click.Path(exists=True, path_type=Path),
    help="GAIA task metadata: metadata.jsonl / metadata*.parquet, or a dataset folder (2023/<split>/).",
)
@click.option("--split", type=click.Choice(SPLITS), default="validation", show_default=True, help="Split of --metadata.")
@click.option("--scorer", type=click.Choice(SCORERS), default="gaia", show_default=True)
@click.option("--prediction-col", metavar="NAME", help="Column/key holding the predictions.")
@click.option("--truth-col", metavar="NAME", help="Column/key holding the reference answers.")
@click.option("--id-col", metavar="NAME", help="Column/key holding the task ids.")
@click.option("--level-col", metavar="NAME", help="Column/key holding the levels.")
@click.option(
    "--comparison",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("answer_comparison.csv"),
    show_default=True,
    help="Where to write answer_comparison.csv (Zypher format); `none` writes none (the scored table and the summary only; `./none` is a file).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Write all rows and columns (.csv, .jsonl, .parquet). Several archives: a folder, one <archive>.scored.parquet each.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
@click.option("--compare", type=click.Choice(SCORERS), help="Second scorer: list the rows on which the two disagree.")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=50,
    show_default=True,
    help="Rows shown in the --compare and --explain tables (0 = all).",
)
@click.option("--explain", is_flag=True, help="Add the reason for each decision.")
@click.option("--skip-bad-lines", is_flag=True, help="Skip (and report) unreadable lines instead of stopping.")
@click.option("--submission", is_flag=True, help="Validate ARCHIVE as a leaderboard submission (needs --metadata).")
@click.option(
    "--benchmark",
    type=click.Choice(("auto", "gaia", *BENCHMARKS)),
    default=None,
    help="What the archives hold: GAIA results, a VLMEvalKit benchmark, or auto (from each file name "
    "{model}_{dataset}.xlsx; other files are GAIA archives). Default: auto.",
)
@click.option("--variant", help="VLMEvalKit benchmarks: the reference version to reproduce (see the README).")
@click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="VLMEvalKit benchmarks: grade each file as VLMEvalKit's evaluation code stood on this date (each "
    "benchmark picks its variant from its date table; see the README). Not with --variant.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deterministic MCQ fallback.")
@click.option(
    "--judge",
    "judge_policy",
    type=click.Choice(("auto", "none")),
    default="auto",
    show_default=True,
    help="VLMEvalKit rows the rules cannot decide: auto takes the archive's recorded judge reply (then --judge-model, if "
    "given; else the row is needs_judge); none reproduces VLMEvalKit's exact_matching policy.",
)
@click.option("--judge-model", help="LLM judge model (OpenAI-compatible API; key from OPENAI_API_KEY).")
@click.option("--judge-base-url", help="Base URL of the judge API (default: OPENAI_BASE_URL or OpenAI).")
@click.option("--judge-cache/--no-judge-cache", default=True, show_default=True, help="Reuse judge replies from the on-disk cache.")
@click.option("--save-judge-responses", type=click.Path(dir_okay=False, path_type=Path), help="Write every judge prompt and reply as JSONL.")
@click.option(
    "--judge-max-wait",
    type=click.FloatRange(min=0, min_open=True),
    default=300.0,
    show_default=True,
    metavar="SECONDS",
    help="Bound on the time the run spends on failed judge requests and waits between retries (summed); then the remaining judge calls fail at once.",
)
@click.option("--acc", type=click.Path(dir_okay=False, path_type=Path), help="VLMEvalKit benchmarks: where to write the report (default ./<file stem> + the report name VLMEvalKit uses, e.g. _acc.csv, _score.json).")
@click.option(
    "--summary",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Several archives: write the one-row-per-archive table here (.csv or .parquet).",
)
@click.option(
    "--all-runs",
    is_flag=True,
    help="VLMEvalKit run folders (T{YYYYMMDD}_G{commit}): grade every run's copy of each file, not only the one VLMEvalKit reads next.",
)
@click.option(
    "--pivot",
    is_flag=True,
    help="Several archives: also print models x datasets (each dataset's headline number, the archive's own beside it); "
    "with --summary, write that table instead of one row per archive.",
)
@click.option(
    "--report-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("gaia-fast-reports"),
    show_default=True,
    help="Several archives: folder for the per-archive reports (VLMEvalKit's names; answer_comparison.csv per GAIA run).",
)
@click.option("--jobs", type=click.IntRange(min=1), help="Several archives: how many to grade at once (default: the CPU count).")
@click.option("--chunk-rows", type=click.IntRange(min=1), default=1_000_000, hidden=True)
@click.option("--engine", type=click.Choice(("local", "ray")), default="local", show_default=True, help="ray: read and score on a Ray cluster (gaia-fast[ray]); PATH must be readable on every node.")
@click.option("--ray-address", metavar="ADDR", help="--engine ray: the cluster to join (e.g. auto, ray://head:10001); default: RAY_ADDRESS, else a local instance.")
@click.option(
    "--ray-timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="--engine ray: fail when no batch or file finishes for this long (a task that never ends)  [default: 600]",
)
@click.option(
    "--ray-connect-timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="--engine ray: fail when the cluster does not answer (or a local instance does not start) within this  [default: 60]",
)
@click.option(
    "--duplicates",
    type=click.Choice(("last", "first", "any-correct", "all")),
    default="last",
    show_default=True,
    help="GAIA: rows sharing a task id (reruns): grade the last, the first, the first correct one (else the last), or all of them. The count is reported.",
)
@click.option(
    "--truth",
    "truth_side",
    type=click.Choice(("metadata", "archive")),
    default="metadata",
    show_default=True,
    help="GAIA: where a row's truth comes from when the archive carries one and --metadata has another (every conflict is listed).",
)
@click.option(
    "--strip-template",
    is_flag=True,
    help="GAIA: grade answers as their leftover template meant (FINAL ANSWER: x, <answer>x</answer>, a number's trailing period); the summary gives both counts.",
)
@click.option("--dedupe", type=click.Choice(("auto", "on", "off")), default="auto", hidden=True, help="Score each distinct (prediction, truth) of a batch once.")
def grade(archives: tuple[Path, ...], **options: Any) -> None:
    """Grade result archives: files, globs and folders.

    One file (or one workspace folder of <task_id>/answer.txt) is graded as GAIA results
    unless its name is a VLMEvalKit result file's ({model}_{dataset}.xlsx/.tsv/.csv of a
    known dataset), which gets its benchmark from the dataset name: known layouts (agent-framework, smolagents, gaia-agent, leaderboard submission,
    answer_comparison.csv) are detected; --prediction-col/--truth-col/--id-col map any
    other. Truth comes from the archive or from --metadata (joined on task id; tasks with
    no row in the archive count as missing). A folder holding only Parquet parts of one
    table is one archive. One archive is graded in one streaming pass: memory does not grow
    with the archive.

    Several paths, globs or a folder: every result file is graded (in parallel) and one row
    per archive is printed. VLMEvalKit files {model}_{dataset}.xlsx/.tsv/.csv get their
    benchmark from the dataset name; evaluation outputs (*_acc.csv, *_openai_result.xlsx,
    *.pkl, ...) are skipped and listed; other files are GAIA archives (one --metadata for
    all). Reports go to --report-dir; exit code 1 when an archive could not be graded.
    """
    engine = options.pop("engine")
    if str(options["comparison"]) == "none":
        if not archives or engine == "ray":
            raise click.UsageError("--comparison none applies to grading an archive on the local engine")
        options["comparison"] = None
    ray_options = {k: options.pop(k) for k in ("ray_address", "ray_timeout", "ray_connect_timeout")}
    as_of = options.pop("as_of")
    if as_of is not None:
        if options["variant"] is not None:
            raise click.UsageError("--as-of picks each file's variant from its date; do not combine it with --variant")
        if engine == "ray":
            raise click.UsageError("--as-of applies to VLMEvalKit files, not --engine ray (GAIA archives)")
        as_of = as_of.date()
    options["as_of"] = as_of
    if engine != "ray":
        used = [f"--{k.replace('_', '-')}" for k, v in ray_options.items() if v is not None]
        if used:
            raise click.UsageError(f"{', '.join(used)} needs --engine ray")
    if not archives:
        if engine == "ray":
            raise click.UsageError("--engine ray grades one PATH per call (a file, or a folder or glob of Parquet parts)")
        _grade_zypher(options["comparison"], options["as_json"])
        return
    summary, report_dir, jobs = options.pop("summary"), options.pop("report_dir"), options.pop("jobs")
    benchmark = options["benchmark"]
    one = archives[0]
    if engine == "ray":
        from gaia_fast.cli.grade_ray import grade_ray

        grade_ray(archives, **ray_options, **options)
        return
    if len(archives) == 1 and summary is None and not options["pivot"] and (
        one.is_file() or is_workspace(one) or is_parquet_dataset(one) or is_metadata_folder(one) or is_json_task_folder(one)
    ):
        # One archive: a plan of one, with its detailed report.
        plan = single(one, benchmark or "auto")
        if not plan.jobs:
            raise BadInput(f"{one}: {plan.skipped_files[0].reason}; nothing to grade")
        if plan.jobs[0].benchmark is None:
            raise BadInput(f"{one}: {plan.jobs[0].reason}; --benchmark NAME grades it with a flow anyway (gaia, mcq, ...)")
        options["benchmark"] = plan.jobs[0].benchmark
        grade_archive(plan, **options)
        return
    out_console, err = _consoles(options["as_json"])
    with _library_warnings(err):
        # The metadata's task ids tell a GAIA archive from other tables in a folder search.
        meta = load_meta(options)
        try:
            exclude = [report_dir] + ([options["out"]] if options.get("out") is not None else [])
            ids = set(meta["task_id"].drop_nulls().to_list()) if meta is not None else None
            plan = expand([str(a) for a in archives], benchmark or "auto", exclude=exclude, all_runs=options["all_runs"], metadata_ids=ids)
        except FileNotFoundError as e:
            raise BadInput(str(e)) from None
        code = grade_bulk(plan, options, meta, summary=summary, report_dir=report_dir, jobs=jobs, err=err, out=out_console)
    if code:
        sys.exit(code)


def _grade_zypher(comparison: Path, as_json: bool) -> None:
    """No PATH: a Zypher checkout's workspace, configured by its BENCHMARK_* variables."""
    from gaia_fast.compat.zypher import grade_workspace, settings

    try:
        config = settings()
        result = grade_workspace(config, comparison)
    except InputError as e:
        raise BadInput(f"{e} (gaia-fast grade with no PATH grades a Zypher workspace; see BENCHMARK_WORKSPACE)") from None
    if as_json:
        matches = sum(1 for r in result.rows if r["match"])
        payload = {
            "workspace": str(config.workspace),
            "metadata": str(config.metadata),
            "level": config.level,
            "settings_from": config.sources,
            "rows": len(result.rows),
            "correct": matches,
            "accuracy_weighted": matches / len(result.rows) if result.rows else None,
            "other_levels_skipped": result.other_levels,
            "comparison": str(comparison),
        }
        click.echo(json.dumps(payload, indent=2))
        return
    click.echo(result.report_text(), nl=False)
    if result.other_levels:
        click.echo(f"({result.other_levels} answer file(s) of tasks not at level {config.level} were not graded: BENCHMARK_LEVEL)", err=True)


def gaia_options(options: dict[str, Any], meta: pl.DataFrame | None, **extra: Any) -> GradeOptions:
    """The grading options of GAIA archives from the command's options."""
    return GradeOptions(
        metadata=meta,
        metadata_path=options.get("metadata") if meta is not None else None,
        split=options.get("split", "validation"),
        scorer=options.get("scorer", "gaia"),
        compare=options.get("compare"),
        explain=options.get("explain", False),
        limit=options.get("limit", 50),
        prediction_col=options.get("prediction_col"),
        truth_col=options.get("truth_col"),
        id_col=options.get("id_col"),
        level_col=options.get("level_col"),
        skip_bad_lines=options.get("skip_bad_lines", False),
        submission=options.get("submission", False),
        dedupe=options.get("dedupe", "auto"),
        chunk_rows=options.get("chunk_rows", 1_000_000),
        duplicates=options.get("duplicates", "all"),
        truth=options.get("truth_side", "metadata"),
        strip_template=options.get("strip_template", False),
        seed=options.get("seed", 0),
        variant=options.get("variant"),
        as_of=options.get("as_of"),
        judge_policy=options.get("judge_policy", "auto"),
        **extra,
    )


def load_meta(options: dict[str, Any]) -> pl.DataFrame | None:
    """``--metadata`` loaded (None without it); bad metadata is bad input."""
    if options.get("metadata") is None:
        return None
    try:
        return load_metadata(options["metadata"], options["split"])
    except InputError as e:
        raise BadInput(str(e)) from None


def grade_archive(plan: Plan, **options: Any) -> None:
    """Grade a plan of one archive and print its detailed report."""
    job = plan.jobs[0]
    if job.benchmark != "gaia":
        gaia_only = {"--metadata": options["metadata"], "--submission": options["submission"], "--compare": options["compare"]}
        used = [flag for flag, value in gaia_only.items() if value]
        if used:
            raise click.UsageError(f"{', '.join(used)} only apply to GAIA archives, not --benchmark {job.benchmark}")
        grade_vlm(job, options, *_consoles(options["as_json"]))
        return
    out, comparison, as_json = options["out"], options["comparison"], options["as_json"]
    out_console, err = _consoles(as_json)
    if out is not None:
        try:
            table_format(out)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
    if options["submission"] and options["metadata"] is None:
        raise click.UsageError("--submission needs --metadata (the split's task ids and levels)")
    try:
        check_outputs_writable({**({"--comparison": comparison} if comparison is not None else {}), **({"--out": out} if out is not None else {})})
    except OutputError as e:
        raise BadInput(str(e)) from None

    with _library_warnings(err):
        meta = load_meta(options)
        grading = gaia_options(options, meta, variant_scope="all", progress=lambda scan: _progress(scan, as_json, err))
        try:
            (record,) = LocalExecutor(1).run(plan, grading, [comparison], [out], raise_errors=True)
        except (InputError, OutputError, ValueError) as e:
            raise BadInput(str(e)) from None
        except OSError as e:
            raise BadInput(f"cannot write {e.filename or ''}: {e.strerror or e}") from None
        detail = record.detail
        outcome, scan, check = detail["outcome"], detail["scan"], detail["check"]
        print_input_warnings(
            err,
            skipped=scan.skipped,
            differ=outcome.differ,
            duplicates=outcome.duplicates,
            examples=outcome.duplicate_examples,
            policy=(outcome.audit.get("duplicates") or {}).get("policy", "all"),
            not_graded=(outcome.audit.get("duplicates") or {}).get("rows_not_graded", 0),
            truth_side=options.get("truth_side", "metadata"),
        )
    result = detail["result"]
    for warning in result.get("warnings", []):
        err.print(f"[yellow]warning:[/] {warning}", markup=True, highlight=False)
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False, default=str))
    else:
        _print_report(out_console, result, outcome, options["scorer"], options["compare"], options["limit"], options["explain"])
        print_audits(out_console, result["audit"], options["limit"])
    if check is not None and not check.valid:
        err.print(f"[red]invalid submission:[/] {len(check.errors)} problem(s)", markup=True, highlight=False)
        sys.exit(1)


#: Rows (or bytes) from which a grade shows a progress bar.
_PROGRESS_ROWS = 2_000_000
_PROGRESS_BYTES = 128 << 20


def _human_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


@contextmanager
def _progress(scan, as_json: bool, err) -> Iterator[Any]:
    """A progress bar (rows, bytes) on stderr for long grades; off with --json."""
    big = (scan.rows or 0) >= _PROGRESS_ROWS or scan.bytes >= _PROGRESS_BYTES
    if as_json or not big:
        yield None
        return
    import threading

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    lock = threading.Lock()
    done = [0]
    total_rows = scan.rows

    def describe() -> str:
        rows = done[0]
        if total_rows:
            read = scan.bytes * min(1.0, rows / total_rows)
            return f"{rows:,}/{total_rows:,} rows · {_human_bytes(read)}/{_human_bytes(scan.bytes)}"
        return f"{rows:,} rows · {_human_bytes(scan.bytes)} archive"

    with Progress(
        TextColumn("Grading"), BarColumn(), TextColumn("{task.fields[info]}"), TimeElapsedColumn(), console=err, transient=True
    ) as bar:
        task = bar.add_task("grade", total=total_rows, info=describe())

        def on_rows(n: int) -> None:
            with lock:
                done[0] += n
                bar.update(task, completed=done[0], info=describe())

        yield on_rows


def _level_table(title: str, summ: dict[str, Any], graded: bool):
    from rich.table import Table

    excluded = summ["excluded"] > 0
    t = Table(title=title, title_justify="left")
    t.add_column("Level")
    t.add_column("Tasks", justify="right")
    t.add_column("Correct", justify="right")
    t.add_column("Accuracy", justify="right")
    if excluded:
        t.add_column("Excluded", justify="right")
    for r in summ["levels"]:
        row = ["?" if r["level"] is None else str(r["level"]), str(r["tasks"]), _num(r["correct"], graded), _pct(r["accuracy"])]
        if excluded:
            row.append(str(r["excluded"]))
        t.add_row(*row)
    t.add_section()
    t.add_row("Macro (mean of levels)", "", "", _pct(summ["accuracy_macro"]), *([""] if excluded else []))
    t.add_row(
        "Overall (weighted)",
        str(summ["tasks"]),
        _num(summ["correct"], graded),
        _pct(summ["accuracy_weighted"]),
        *([str(summ["excluded"])] if excluded else []),
    )
    return t


def _print_report(console, result: dict[str, Any], outcome, scorer: str, compare, limit: int, explain: bool) -> None:
    from rich.table import Table

    graded = scorer == "gaia-graded"
    print_summary(console, result, scorer)
    if explain:
        shown = outcome.wrong
        t = Table(title=f"{outcome.wrong_total} row(s) not fully correct — scorer {scorer}", title_justify="left")
        for c in ("task_id", "level", "truth", "prediction", "score", "status", "reason"):
            t.add_column(c)
        for r in shown.iter_rows(named=True):
            t.add_row(
                _cell(r.get("task_id")),
                _cell(r.get("level")),
                _cell(r.get("truth")),
                _cell(r.get("prediction")),
                _score_text(r.get("score")),
                _cell(r.get("status")),
                _cell(r.get("reason"), 80),
            )
        console.print(t)
        if shown.height < outcome.wrong_total:
            console.print(f"… {outcome.wrong_total - shown.height} more (use --limit 0 or --out)")
    diff = outcome.diff
    if compare is not None and diff is not None:
        other = result["compare"]["summary"]
        console.print(_level_table(f"Accuracy by level — scorer {compare}", other, compare == "gaia-graded"))
        shown = diff
        t = Table(title=f"{outcome.diff_total} row(s) where {scorer} and {compare} disagree", title_justify="left")
        for c in ("task_id", "level", "truth", "prediction", scorer, compare):
            t.add_column(c)
        if explain:
            t.add_column(f"reason ({compare})")
        for r in shown.iter_rows(named=True):
            row = [
                _cell(r.get("task_id")),
                _cell(r.get("level")),
                _cell(r.get("truth")),
                _cell(r.get("prediction")),
                _score_text(r.get("score")),
                _score_text(r.get("compare_score")),
            ]
            if explain:
                row.append(_cell(r.get("compare_reason"), 80))
            t.add_row(*row)
        console.print(t)
        if shown.height < outcome.diff_total:
            console.print(f"… {outcome.diff_total - shown.height} more (use --limit 0 or --out)")
    sub = result.get("submission")
    if sub is not None:
        state = "[green]valid[/]" if sub["valid"] else "[red]INVALID[/]"
        console.print(f"Leaderboard submission check ({sub['split']}): {state}", markup=True)
        for note in sub["notes"]:
            console.print(f"  note: {note}")
        for e in sub["errors"]:
            where = f"line {e['line']}: " if e["line"] is not None else ""
            console.print(f"  {where}{e['message']}", markup=False)
        s = sub["scores"]
        levels = ", ".join(f"level {k.split('_')[1]} {_pct(v)}" for k, v in s.items() if k.startswith("level_"))
        console.print(f"Leaderboard score: {_pct(s['overall'])} ({_num(s['correct'], graded)}/{s['total']}; {levels})")
    print_outputs(console, result)
