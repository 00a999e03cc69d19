"""The ``gaia-fast`` command line: one thin module per command.

``grade`` (re-grade archives), ``run`` (run an agent on GAIA), ``view`` (print a results
file), ``report`` (HTML page of a run). Exit codes: 0 ok, 1 a failed check (an invalid
submission, an archive that could not be graded), 2 bad input or usage, 130 interrupted.
"""

from __future__ import annotations

import click

from gaia_fast import __version__
from gaia_fast.cli.grade import grade
from gaia_fast.cli.report import report
from gaia_fast.cli.run import run
from gaia_fast.cli.view import view

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="gaia-fast", message="%(prog)s %(version)s")
def main() -> None:
    """gaia-fast: exact, fast answer scoring for AI benchmarks."""


for _command in (grade, run, view, report):
    main.add_command(_command)
