"""``gaia-fast grade FILE --benchmark NAME`` for VLMEvalKit result files: read the table,
grade it with the family's ``grade`` (extract → score → aggregate), write the per-row
results and the benchmark's ``*_acc.csv`` report, print the report."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import click
import polars as pl
from rich.console import Console
from rich.table import Table

from gaia_fast import benchmarks
from gaia_fast.io.readers import InputError
from gaia_fast.io.vlm import read_result_table
from gaia_fast.io.writers import table_format, write_table
from gaia_fast.judge import OpenAIJudge, RecordingJudge, save_responses

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


def grade_vlm(
    archive: Path,
    benchmark: str,
    *,
    variant: str | None,
    seed: int,
    judge_model: str | None,
    judge_base_url: str | None,
    judge_cache: bool = True,
    save_judge_responses: Path | None,
    out: Path | None,
    acc: Path | None,
    as_json: bool,
    err: Console,
    out_console: Console,
) -> None:
    entry = benchmarks.get(benchmark)
    options = dict(entry.options)
    module = importlib.import_module(entry.module)
    family = entry.module.rsplit(".", 1)[-1]
    for path, flag in ((out, "--out"), (acc, "--acc")):
        if path is not None:
            try:
                table_format(path)
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint=flag) from None
    judge = None
    if judge_model:
        try:
            # The family's system prompt, where its reference sends one (PHYSICS does).
            client = OpenAIJudge(
                model=judge_model,
                base_url=judge_base_url,
                system=getattr(module, "JUDGE_SYSTEM_PROMPT", None),
                cache_dir=None if judge_cache else False,
            )
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        judge = RecordingJudge(client)
        if not judge_cache and family == "physics":
            # Asked again, a judge may answer differently; keep the reference's one call per
            # pair, in order.
            options = {**options, "judge_cache": False, "judge_concurrency": 1}
    elif save_judge_responses is not None:
        raise click.UsageError("--save-judge-responses needs a judge (--judge-model)")
    try:
        frame = read_result_table(archive)
        result = module.grade(frame, variant=variant, seed=seed, judge=judge, **options)
    except InputError as e:
        raise click.ClickException(str(e)) from None
    except ValueError as e:  # bad variant or missing column, raised before any row is scored
        raise click.ClickException(f"{archive}: {e}") from None

    acc = acc or Path(f"{archive.stem}_acc.csv")
    write_table(result.report, acc)
    if out is not None:
        write_table(result.rows, out)
    if judge is not None and save_judge_responses is not None:
        save_responses(judge.replies, save_judge_responses)

    if as_json:
        payload = {
            "benchmark": benchmark,
            "variant": variant,
            "file": str(archive),
            "rows": result.rows.height,
            "report": result.report.to_dicts(),
            "stats": result.stats,
        }
        out_console.print_json(json.dumps(payload, default=str))
        return
    out_console.print(f"{archive} — {benchmark}" + (f" (variant {variant})" if variant else "") + f", {result.rows.height} rows")
    out_console.print(_report_table("Report", result.report))
    if "status" in result.rows.columns:
        counts = result.rows.get_column("status").cast(pl.String).value_counts(sort=True)
        out_console.print("Rows by status: " + ", ".join(f"{s} {n}" for s, n in counts.iter_rows()))
    for key, value in result.stats.items():
        if not isinstance(value, (dict, list)):
            out_console.print(f"{key}: {_fmt(value)}")
    err.print(f"Report written to {acc}" + (f"; rows to {out}" if out else ""))
