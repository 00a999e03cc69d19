"""``gaia-fast grade FILE --benchmark NAME`` for VLMEvalKit result files: read the table,
grade it with the family's ``grade`` (extract → score → aggregate), write the per-row
results and the benchmark's ``*_acc.csv`` report, print the report.

With a judge (``--judge-model``), judge work shows a progress bar on stderr (not with
``--json``). A dead judge cannot stall the run: the judge's circuit breaker fails the
remaining calls at once after 5 consecutive failed requests, and ``--judge-max-wait``
bounds the time spent on failed requests and retry waits. Rows whose judge call failed get
status ``judge_error`` (with the message in ``reason``); the outputs are written, and the
command exits with 1. Judged replies are cached, failures never are: the same command run
again asks the judge only for what failed."""

from __future__ import annotations

import importlib
import json
import threading
from pathlib import Path
from typing import Any

import click
import polars as pl
from rich.console import Console
from rich.table import Table

from gaia_fast import benchmarks
from gaia_fast.grading.plan import Job
from gaia_fast.io.readers import InputError
from gaia_fast.io.writers import table_format
from gaia_fast.judge import JudgeEvent, OpenAIJudge, RecordingJudge, save_responses

#: ``--benchmark`` names of the VLMEvalKit families (the registry's non-GAIA entries).
BENCHMARKS = tuple(name for name in benchmarks.names() if name != "gaia")


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.2f}" if abs(v) >= 1 or v == 0 else f"{v:.4f}"
    return str(v)


def _report_table(title: str, report: pl.DataFrame) -> Table:
    t = Table(title=title, title_justify="left")
    for c in report.columns:
        t.add_column(str(c), justify="left" if report[c].dtype == pl.String else "right")
    for row in report.iter_rows():
        t.add_row(*(_fmt(v) for v in row))
    return t


def grade_vlm(job: Job, options: dict[str, Any], out_console: Console, err: Console) -> None:
    """Grade a plan of one VLMEvalKit file (``job``) and print its report."""
    from gaia_fast.cli._common import BadInput
    from gaia_fast.grading.execute import GradeOptions, LocalExecutor
    from gaia_fast.grading.plan import Plan

    archive, benchmark = job.path, job.benchmark
    entry = benchmarks.get(benchmark)
    out, acc, as_json, as_of = options.get("out"), options.get("acc"), options.get("as_json", False), options.get("as_of")
    judge_model, save_judge_responses = options.get("judge_model"), options.get("save_judge_responses")
    for path, flag in ((out, "--out"), (acc, "--acc")):
        # A report may also be a JSON object (VLMEvalKit's _score.json) or TSV (_results.tsv).
        if path is not None and not (flag == "--acc" and path.suffix.lower() in (".json", ".tsv")):
            try:
                table_format(path)
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint=flag) from None
    if as_of is not None:
        try:
            entry.variant_on(as_of)
        except ValueError as e:
            raise BadInput(f"{archive}: {e}") from None
    judge = None
    client = None
    extra: dict[str, Any] = {}
    bar = _JudgeBar(err) if judge_model and not as_json else None
    if judge_model:
        client, judge, extra = make_judge(
            entry.module,
            judge_model=judge_model,
            judge_base_url=options.get("judge_base_url"),
            judge_cache=options.get("judge_cache", True),
            judge_max_wait=options.get("judge_max_wait", 300.0),
            on_event=bar,
        )
    elif save_judge_responses is not None:
        raise click.UsageError("--save-judge-responses needs a judge (--judge-model)")
    grading = GradeOptions(
        variant=options.get("variant"),
        variant_scope="all",
        as_of=as_of,
        seed=options.get("seed", 0),
        judge_policy=options.get("judge_policy", "auto"),
        judges={entry.module: judge} if judge is not None else {},
        judge_options={entry.module: extra},
    )
    if acc is None:
        acc = Path(f"{archive.stem}{entry.report or '_acc.csv'}")
        if acc.exists() and acc.resolve() == archive.with_name(acc.name).resolve():
            # Run beside the archive, the default would replace VLMEvalKit's own report.
            raise BadInput(f"{acc} is the archive's own report; give --acc PATH to write gaia-fast's report elsewhere")
    try:
        if bar is not None:
            bar.start()
        try:
            (record,) = LocalExecutor(1).run(Plan(jobs=[job]), grading, [acc], [out], raise_errors=True)
        finally:
            if bar is not None:
                bar.stop()
    except InputError as e:
        raise click.ClickException(str(e)) from None
    except ValueError as e:  # bad variant or missing column, raised before any row is scored
        raise click.ClickException(f"{archive}: {e}") from None
    result, variant = record.detail["result"], record.detail["variant"]
    if client is not None:
        result.stats["judge_client"] = {**client.stats, "breaker_open": bool(client.breaker and client.breaker.is_open)}
    judge_errors = _judge_errors(result.rows)
    if judge_errors:
        result.stats["judge_error_rows"] = judge_errors[0]
    if judge is not None and save_judge_responses is not None:
        save_responses(judge.replies, save_judge_responses)

    if as_json:
        payload = {
            "benchmark": benchmark,
            "variant": result.stats.get("variant", variant) if variant is None else variant,
            **({"as_of": as_of.isoformat()} if as_of is not None else {}),
            "file": str(archive),
            "rows": result.rows.height,
            "report": result.report.to_dicts(),
            "stats": result.stats,
        }
        payload.update(status=record.status, note=record.error, archive_report=record.archive_report, archive_headline=record.archive_headline)
        out_console.print_json(json.dumps(payload, default=str))
        _exit_on_judge_errors(judge_errors, err)
        if record.status == "needs_judge":
            raise SystemExit(3)
        return
    shown = variant or result.stats.get("variant")
    as_of_text = f" as of {as_of.isoformat()}" if as_of is not None else ""
    out_console.print(
        f"{archive} — {benchmark}" + (f" (variant {shown}{as_of_text})" if shown else as_of_text) + f", {result.rows.height} rows"
    )
    out_console.print(_report_table("Report", result.report))
    if "status" in result.rows.columns:
        counts = result.rows.get_column("status").cast(pl.String).value_counts(sort=True)
        out_console.print("Rows by status: " + ", ".join(f"{s} {n}" for s, n in counts.iter_rows()))
    for key, value in result.stats.items():
        if not isinstance(value, (dict, list)):
            out_console.print(f"{key}: {_fmt(value)}")
    style = "green" if record.status in ("ok", "ok_by_shape") else "red"
    out_console.print(f"Status: [{style}]{record.status}[/]" + (f" ({record.error})" if record.error else ""), markup=True)
    if record.archive_report is not None:
        out_console.print(f"Archive's own report: {record.archive_report} ({record.headline_metric} {_fmt(record.archive_headline)}; ours {_fmt(record.headline)})")
    err.print(f"Report written to {acc}" + (f"; rows to {out}" if out else ""))
    _exit_on_judge_errors(judge_errors, err)
    if record.status == "needs_judge":
        raise SystemExit(3)


def make_judge(
    module_name: str,
    *,
    judge_model: str,
    judge_base_url: str | None,
    judge_cache: bool,
    judge_max_wait: float | None,
    on_event: Any = None,
) -> tuple[OpenAIJudge, RecordingJudge, dict[str, Any]]:
    """The judge of one family (its module): the client, the recording wrapper the family
    calls, and the extra options of the family's ``grade``. Bad judge settings are a usage
    error."""
    module = importlib.import_module(module_name)
    try:
        # The family's system prompt, where its reference sends one (PHYSICS does).
        client = OpenAIJudge(
            model=judge_model,
            base_url=judge_base_url,
            system=getattr(module, "JUDGE_SYSTEM_PROMPT", None),
            cache_dir=None if judge_cache else False,
            max_wait=judge_max_wait,
            on_event=on_event,
        )
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    extra: dict[str, Any] = {}
    if not judge_cache and module_name.rsplit(".", 1)[-1] == "physics":
        # Asked again, a judge may answer differently; keep the reference's one call per
        # pair, in order.
        extra = {"judge_cache": False, "judge_concurrency": 1}
    return client, RecordingJudge(client), extra


def _judge_errors(rows: pl.DataFrame) -> tuple[int, str | None] | tuple[()]:
    """(count, first reason) of the rows with status ``judge_error``; () when none."""
    if "status" not in rows.columns:
        return ()
    failed = rows.filter(pl.col("status").cast(pl.String) == "judge_error")
    if failed.height == 0:
        return ()
    first = failed.get_column("reason")[0] if "reason" in failed.columns else None
    return failed.height, first


def _exit_on_judge_errors(judge_errors: tuple, err: Console) -> None:
    """Outputs are written; a run with failed judge calls still ends with exit status 1."""
    if not judge_errors:
        return
    n, first = judge_errors
    err.print(
        f"error: {n} row(s) have status judge_error (their failed judge calls count as not equivalent)"
        + (f"; first: {first}" if first else "")
        + ". Run the same command again to judge only those rows (judged prompts come from the cache).",
        markup=False,
        highlight=False,
    )
    raise SystemExit(1)


class _JudgeBar:
    """A rich progress line for judge work on stderr, driven by the judge events
    (:class:`JudgeEvent`) from the judge's threads (rich's Progress is thread-safe)."""

    def __init__(self, console: Console) -> None:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("judge"),
            TextColumn("{task.fields[text]}"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self.counts = dict.fromkeys(("request", "cache_hit", "retry", "success", "failure"), 0)
        self.breaker = ""
        self.task: Any = None
        self.started = False
        self._lock = threading.Lock()

    def start(self) -> None:
        self.task = self.progress.add_task("judge", total=None, text=self._text())
        self.progress.start()
        self.started = True

    def stop(self) -> None:
        if self.started:
            self.progress.update(self.task, text=self._text())
            self.progress.stop()
            self.started = False

    def _text(self) -> str:
        c = self.counts
        asked = c["request"] + c["cache_hit"]
        done = c["success"] + c["failure"] + c["cache_hit"]
        text = f"{done}/{asked} call(s) done, {c['cache_hit']} cached, {c['retry']} retries, {c['failure']} failed"
        return text + (f" [{self.breaker}]" if self.breaker else "")

    def __call__(self, event: JudgeEvent) -> None:
        with self._lock:
            if event.kind in self.counts:
                self.counts[event.kind] += 1
            elif event.kind == "breaker_open":
                self.breaker = "circuit breaker open: remaining calls fail at once"
            elif event.kind == "breaker_closed":
                self.breaker = ""
            text = self._text()
        if self.task is not None:
            self.progress.update(self.task, text=text)
