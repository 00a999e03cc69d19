"""``gaia-fast run MODULE:FUNCTION --data DIR --out results.jsonl``: run a user's agent on
GAIA from the shell.

FUNCTION takes a :class:`~gaia_fast.harness.Task` and returns a
:class:`~gaia_fast.harness.Prediction` or a ``str``; it may be sync or ``async``.
MODULE is a module name (importable from the current directory) or a ``.py`` file.
Results go to ``--out`` as they finish (agent-framework JSONL); rerunning the same
command resumes. Exit codes: 0 the run finished (failed tasks, also an agent that calls
``sys.exit`` or raises ``KeyboardInterrupt``, are in the results), 2 bad input or usage,
130 interrupted by Ctrl-C/SIGINT, 143 by SIGTERM (what finished is saved; rerun to
resume).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from gaia_fast.cli._common import BadInput

__all__ = ["import_callable", "run"]


def import_callable(target: str, what: str = "MODULE:FUNCTION") -> Callable[..., Any]:
    """``module:attr`` or ``path/to/file.py:attr`` (``attr`` may be dotted) → the callable.
    The current directory is importable, as with ``python -m``. Raises BadInput."""
    module_part, sep, attr = target.rpartition(":")
    if not sep or not module_part or not attr:
        raise BadInput(f"{target!r}: expected {what}, e.g. my_agent:solve or agents/my_agent.py:solve")
    try:
        if module_part.endswith(".py") or "/" in module_part or "\\" in module_part:
            file = Path(module_part)
            if not file.is_file():
                raise BadInput(f"{target!r}: no such file {module_part}")
            name = f"_gaia_fast_user_{file.stem}_{abs(hash(str(file.resolve())))}"
            module = sys.modules.get(name)
            if module is None:
                spec = importlib.util.spec_from_file_location(name, file)
                if spec is None or spec.loader is None:
                    raise BadInput(f"{target!r}: cannot import {module_part}")
                module = importlib.util.module_from_spec(spec)
                sys.path.insert(0, str(file.resolve().parent))  # its sibling modules
                sys.modules[name] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    sys.modules.pop(name, None)
                    raise
        else:
            if "" not in sys.path and str(Path.cwd()) not in sys.path:
                sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(module_part)
    except BadInput:
        raise
    except Exception as e:  # noqa: BLE001 - any failure of the user's module is bad input
        logging.getLogger("gaia_fast.harness").debug("import of %s failed", module_part, exc_info=True)
        raise BadInput(f"cannot import {module_part}: {type(e).__name__}: {e}") from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BadInput(f"{target!r}: {module_part} has no attribute {attr!r}") from None
    if not callable(obj):
        raise BadInput(f"{target!r} is a {type(obj).__name__}, not a callable")
    return obj


def _levels(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[int] | None:
    out: list[int] = []
    for v in values:
        for piece in v.split(","):
            piece = piece.strip()
            if not piece.isdigit():
                raise click.BadParameter(f"{v!r}: levels are integers, e.g. --level 1 --level 2 or --level 1,2")
            out.append(int(piece))
    return sorted(set(out)) or None


class _StderrLog(logging.Handler):
    def __init__(self, console: Any, level: int) -> None:
        super().__init__(level)
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        tag = "[yellow]warning:[/]" if record.levelno >= logging.WARNING else "[dim]info:[/]"
        msg = record.getMessage()
        if record.exc_info and self.level <= logging.DEBUG:
            msg += "\n" + logging.Formatter().formatException(record.exc_info)
        self.console.print(f"{tag} ", end="", markup=True, highlight=False)
        self.console.print(msg, markup=False, highlight=False)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def _summary(results: list) -> dict[str, Any]:
    """Per-level accuracy through :func:`gaia_fast.grading.summary.summary` (tasks without truth
    are excluded, as ``grade`` excludes them), plus run counts."""
    import polars as pl

    from gaia_fast.grading.summary import summary

    frame = pl.DataFrame(
        {
            "task_id": [r.task_id for r in results],
            "level": [r.task.level for r in results],
            "score": [bool(r.evaluation.is_correct) if r.task.has_truth else None for r in results],
            "status": ["ok" if r.task.has_truth else "no_truth" for r in results],
        },
        schema={"task_id": pl.String, "level": pl.Int64, "score": pl.Boolean, "status": pl.String},
    )
    summ = summary(frame)
    errors = [r for r in results if r.error]
    summ.update(
        {
            "resumed": sum(r.resumed for r in results),
            "ran": sum(not r.resumed for r in results),
            "errors": len(errors),
            "timeouts": sum((r.evaluation.details or {}).get("status") == "timeout" for r in errors),
            "no_truth": sum(not r.task.has_truth for r in results),
        }
    )
    return summ


def _print_summary(console: Any, summ: dict[str, Any], out: Path) -> None:
    from rich.table import Table

    excluded = summ["excluded"] > 0
    t = Table(title="GAIA run — scorer gaia" if summ.get("default_evaluator") else "GAIA run", title_justify="left")
    for c in ("Level", "Tasks", "Correct", "Accuracy"):
        t.add_column(c, justify="left" if c == "Level" else "right")
    if excluded:
        t.add_column("No truth", justify="right")
    for r in summ["levels"]:
        row = ["?" if r["level"] is None else str(r["level"]), str(r["tasks"]), str(r["correct"]), _pct(r["accuracy"])]
        t.add_row(*row, *([str(r["excluded"])] if excluded else []))
    t.add_section()
    t.add_row("Macro (mean of levels)", "", "", _pct(summ["accuracy_macro"]), *([""] if excluded else []))
    t.add_row(
        "Overall (weighted)",
        str(summ["tasks"]),
        str(summ["correct"]),
        _pct(summ["accuracy_weighted"]),
        *([str(summ["excluded"])] if excluded else []),
    )
    console.print(t)
    line = f"{summ['rows']} task(s): {summ['ran']} run now, {summ['resumed']} already in {out}"
    if summ["errors"]:
        line += f"; {summ['errors']} failed ({summ['timeouts']} timed out)"
    console.print(line)
    if summ["no_truth"]:
        console.print(f"{summ['no_truth']} task(s) have no answer to grade against (e.g. the test split): not in the accuracy")
    console.print(f"Results in {out}")


@click.command("run")
@click.argument("target", metavar="MODULE:FUNCTION")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="Local GAIA copy: the dataset folder (2023/<split>/metadata.jsonl or metadata*.parquet), a split folder or a metadata file.",
)
@click.option("--split", type=click.Choice(("validation", "test")), default="validation", show_default=True)
@click.option("--level", "levels", multiple=True, callback=_levels, metavar="N", help="Only these levels (repeat, or 1,2). Default: all.")
@click.option("--max-n", type=click.IntRange(min=0), help="Run at most N tasks in all (after --level and --seed).")
@click.option("--seed", type=int, help="Shuffle the tasks with this seed (default: file order).")
@click.option("--parallel", type=click.IntRange(min=1), default=1, show_default=True, help="Tasks run at once.")
@click.option("--timeout", type=click.FloatRange(min=0), default=0, show_default=True, help="Seconds per task (0 = none).")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Results JSONL (agent-framework format), appended as tasks finish.")
@click.option("--evaluator", "evaluator_target", metavar="MODULE:FUNCTION", help="Custom evaluator (Task, Prediction) -> Evaluation. Default: the leaderboard scorer.")
@click.option("--resume/--no-resume", default=True, show_default=True, help="Skip task ids already in --out; --no-resume starts --out afresh.")
@click.option("--progress/--no-progress", default=None, help="Progress bar with the running accuracy (default: when stderr is a terminal).")
@click.option("--otel", is_flag=True, help="OpenTelemetry spans per task, through the global tracer provider (needs gaia-fast[otel]).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Log each failure with its traceback.")
def run(
    target: str,
    data: Path,
    split: str,
    levels: list[int] | None,
    max_n: int | None,
    seed: int | None,
    parallel: int,
    timeout: float,
    out: Path,
    evaluator_target: str | None,
    resume: bool,
    progress: bool | None,
    otel: bool,
    as_json: bool,
    verbose: bool,
) -> None:
    """Run the agent MODULE:FUNCTION on GAIA tasks and grade its answers.

    FUNCTION(task) returns a Prediction or a str, sync or async. Each finished task is
    appended to --out at once; rerun the same command to resume after a crash or Ctrl-C.
    """
    from rich.console import Console

    from gaia_fast.harness import runner as _runner
    from gaia_fast.datasets.gaia import load
    from gaia_fast.io.readers import InputError

    out_console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    err = Console(file=sys.stderr, highlight=False, soft_wrap=True)
    logger = logging.getLogger("gaia_fast")
    handler = _StderrLog(err, logging.DEBUG if verbose else logging.WARNING)
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.WARNING)
    try:
        if otel:
            try:
                import opentelemetry  # noqa: F401
            except ImportError:
                raise BadInput("--otel needs OpenTelemetry: pip install 'gaia-fast[otel]'") from None
        if out.exists() and out.is_dir():
            raise BadInput(f"--out {out} is a directory")
        agent = import_callable(target)
        evaluator = import_callable(evaluator_target) if evaluator_target else None
        try:
            tasks = load(data, split=split, level=levels, max_n=max_n, seed=seed)
        except InputError as e:
            raise BadInput(str(e)) from None
        if not tasks:
            which = f"level(s) {', '.join(map(str, levels))}" if levels else "any level"
            raise BadInput(f"no {split} tasks of {which} in {data}")
        show = sys.stderr.isatty() if progress is None else progress
        try:
            results = _runner._run_owned(
                agent,
                tasks,
                parallel=parallel,
                timeout=timeout or None,
                out=out,
                evaluator=evaluator,
                resume=resume,
                progress=show,
                tracing=otel,
            )
        except KeyboardInterrupt as e:
            # RunInterrupted (SIGINT/SIGTERM during the run) or a second Ctrl-C
            signum = e.signal if isinstance(e, _runner.RunInterrupted) else signal.SIGINT
            n = len(_runner.read_results(out)) if out.exists() else 0
            how = "" if signum == signal.SIGINT else f" by {signal.Signals(signum).name}"
            err.print(f"interrupted{how}: {n} result(s) saved in {out}; run the same command again to resume", markup=False)
            sys.exit(128 + signum)
        except OSError as e:
            raise BadInput(f"cannot write {e.filename or out}: {e.strerror or e}") from None
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)

    summ = _summary(results)
    summ["default_evaluator"] = evaluator is None
    if as_json:
        click.echo(json.dumps({"out": str(out), "split": split, **summ}, indent=2, ensure_ascii=False, default=str))
    else:
        _print_summary(out_console, summ, out)
