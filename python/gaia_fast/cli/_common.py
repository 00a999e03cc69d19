"""What the commands share: the exit-code-2 error and reading a results JSONL."""

from __future__ import annotations

from pathlib import Path

import click

from gaia_fast.harness.viewer import Results, SkippedLine, read_results

#: How many skipped lines are listed one by one on stderr.
_SHOW_SKIPPED = 20


class BadInput(click.ClickException):
    """Bad input or an unwritable output: exit code 2."""

    exit_code = 2


def read_results_file(path: Path) -> Results:
    try:
        return read_results(path)
    except FileNotFoundError:
        raise BadInput(f"results file not found: {path}") from None
    except IsADirectoryError:
        raise BadInput(f"results file is a directory: {path}") from None
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror or e}") from None


def report_skipped_lines(path: Path, skipped: list[SkippedLine]) -> None:
    if not skipped:
        return
    n = len(skipped)
    click.echo(f"warning: skipped {n} line{'s' if n != 1 else ''} of {path} that {'are' if n != 1 else 'is'} not a JSON object", err=True)
    for s in skipped[:_SHOW_SKIPPED]:
        click.echo(f"  {s}", err=True)
    if n > _SHOW_SKIPPED:
        click.echo(f"  … {n - _SHOW_SKIPPED} more", err=True)


