"""``gaia-fast grade --engine ray [--ray-address ADDR] PATH``: the GAIA grade path on Ray.

Reading, the metadata join and scoring run as Ray tasks on the cluster (or a local Ray
instance started for the run); the summary comes from Ray aggregates; the blocks stream
back to this process only to be written to ``--out`` and ``answer_comparison.csv``. PATH
must be readable at the same path on every node (a shared file system or object store
mounted alike).

Every wait is bounded: connecting gives up after ``--ray-connect-timeout`` (at once when
the address's port refuses connections), and the run stops after ``--ray-timeout``
seconds in which no block, file or written batch finished, naming the archive and the
phase; both end with exit code 2. Progress goes to stderr (a live line on a terminal,
a line per phase in a log), not with ``--json``.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import click

from gaia_fast.cli._common import BadInput

#: Options the local path has and this engine does not (flag → why).
_UNSUPPORTED = {
    "compare": "--compare",
    "submission": "--submission",
    # The audits of issue 21 run in the local engine's pass only (Ray grades every row).
    "strip_template": "--strip-template",
}


def _start(address: str | None, timeout: float):
    """Connect to ``address`` (or start a local instance) within ``timeout`` seconds;
    returns (ray, started_here)."""
    try:
        import ray

        from gaia_fast.integrations.ray import connect
    except ImportError:
        raise click.UsageError("--engine ray needs Ray Data: pip install 'gaia-fast[ray]'") from None
    if ray.is_initialized():
        if address:
            logging.getLogger("gaia_fast").warning("Ray is already initialised in this process; --ray-address %s is not used", address)
        return ray, False
    try:
        connect(address, timeout=timeout, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, TimeoutError, RuntimeError, ValueError) as e:
        message = str(e) if str(e).startswith("cannot connect") else f"cannot connect to Ray at {address or 'a new local instance'}: {e}"
        raise BadInput(f"{message} (--ray-connect-timeout {timeout:g})" if isinstance(e, TimeoutError) else message) from None
    return ray, True


class _Progress:
    """The run's progress on stderr: a live line on a terminal; elsewhere (a log) a line
    as each phase ends and one every :attr:`every` seconds in a long phase."""

    every = 30.0

    def __init__(self, err) -> None:
        self.err = err
        self.live: Any = None
        self.task: Any = None
        self.last: Any = None
        self.printed_at = 0.0

    def __enter__(self) -> _Progress:
        if self.err.is_terminal:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.live = Progress(
                TextColumn("Ray · {task.fields[phase]}"), BarColumn(), TextColumn("{task.fields[info]}"), TimeElapsedColumn(), console=self.err, transient=True
            )
            self.task = self.live.add_task("ray", total=None, phase="starting", info="")
            self.live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
        elif self.last is not None:
            self._line(self.last)
        self.last = None

    @staticmethod
    def _info(p) -> str:
        if not p.done and not p.total:
            return ""  # a phase that counts nothing (a group-by)
        return f"{p.done:,}" + (f"/{p.total:,}" if p.total else "") + f" {p.unit}"

    def _line(self, p) -> None:
        info = self._info(p)
        self.err.print(f"ray: {p.phase} {info + ' ' if info else ''}({p.elapsed:.1f} s)", markup=False, highlight=False)

    def __call__(self, p) -> None:
        if self.live is not None:
            self.live.update(self.task, phase=p.phase, info=self._info(p), total=p.total, completed=p.done)
            return
        if self.last is not None and p.phase != self.last.phase:
            self._line(self.last)
            self.printed_at = 0.0
        elif p.elapsed - self.printed_at >= self.every:
            self._line(p)
            self.printed_at = p.elapsed
        self.last = p


def grade_ray(
    archives: tuple[Path, ...],
    *,
    ray_address: str | None,
    ray_timeout: float | None = None,
    ray_connect_timeout: float | None = None,
    **options: Any,
) -> None:
    """Run ``grade`` for one PATH (a file, a folder or glob of Parquet parts) on Ray: a plan
    of one GAIA job on the Ray executor."""
    from gaia_fast.cli._grade_report import print_input_warnings, print_outputs, print_summary
    from gaia_fast.cli.grade import _consoles, _library_warnings, gaia_options, load_meta
    from gaia_fast.grading.execute import RayExecutor
    from gaia_fast.grading.plan import Job, Plan
    from gaia_fast.io.readers import InputError, SkippedLine
    from gaia_fast.io.writers import table_format
    from gaia_fast.integrations.ray import CONNECT_TIMEOUT, STALL_TIMEOUT, RayTimeout

    if len(archives) != 1:
        raise click.UsageError("--engine ray grades one PATH per call (a file, or a folder or glob of Parquet parts)")
    used = [flag for key, flag in _UNSUPPORTED.items() if options.get(key)]
    if options.get("benchmark") not in (None, "gaia"):
        used.append(f"--benchmark {options['benchmark']}")
    if options.get("truth_side", "metadata") != "metadata":
        used.append("--truth archive")
    if used:
        raise click.UsageError(f"{', '.join(used)} not supported with --engine ray")
    out, comparison, as_json = options.get("out"), options["comparison"], options.get("as_json", False)
    if out is not None:
        try:
            table_format(out)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
    out_console, err = _consoles(as_json)
    stall = ray_timeout or STALL_TIMEOUT
    timeout = ray_connect_timeout or CONNECT_TIMEOUT
    plan = Plan(jobs=[Job(archives[0], "gaia", None, archives[0].name)])
    with _library_warnings(err):
        meta = load_meta(options)
        executor = RayExecutor(start=lambda: _start(ray_address, timeout), stall=stall, progress=_Progress(err) if not as_json else None)
        try:
            (record,) = executor.run(plan, gaia_options(options, meta), [comparison], [out], raise_errors=True)
        except InputError as e:
            raise BadInput(str(e)) from None
        except RayTimeout as e:
            raise BadInput(f"{e} (--ray-timeout {stall:g})") from None
        except OSError as e:
            raise BadInput(f"cannot write {e.filename or ''}: {e.strerror or e}") from None
        graded = record.detail["graded"]
        print_input_warnings(
            err,
            skipped=[SkippedLine(**s) for s in graded.skipped],
            differ=graded.truth_differs,
            duplicates=len(graded.duplicate_ids),
            examples=graded.duplicate_ids[:5],
        )
    result = record.detail["result"]
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False, default=str))
        return
    print_summary(out_console, result, options["scorer"], engine="ray")
    print_outputs(out_console, result)
    sys.stdout.flush()
