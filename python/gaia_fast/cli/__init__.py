"""The ``gaia-fast`` command line: one thin module per command.

``grade`` (re-grade archives), ``run`` (run an agent on GAIA), ``view`` (print a results
file), ``report`` (HTML page of a run). Exit codes: 0 ok, 1 a failed check (an invalid
submission, an archive that could not be graded), 2 bad input or usage, 130 interrupted.
"""

from __future__ import annotations

import os
import sys

import click

from gaia_fast import __version__

# Polars' allocator keeps memory freed by the streaming pass for 0.5 s, then leaves it
# to the kernel to take back when it runs short (until then it still counts as
# resident) for 1 s more. A grade frees far more memory than it holds, and a phase
# (pass, range split, one range held as lines) starts while the last one's freed pages
# still count, so the peak grew with the archive (50M rows: +18-30 % over 10M). Freed
# pages go back after 0.1 s (50M: +7-9 %, and every peak lower); pages used again then
# fault in anew: about 5 % more CPU. Polars reads this once, on its first import (its
# defaults come first; a user's own setting, after ours, wins).
#
# Polars' streaming engine hands rows from step to step in morsels of 100,000 by default;
# the grade's pass feeds one scan to several sinks and aggregates, and a morsel waits in
# each lagging one's queue, so what the pass held moved with the timing (10M distinct
# ids: 680-820 MiB, 50M: 850-940). Morsels of 50,000 hold half as much (10M: 530-540 MiB,
# 50M: 565-575) at the same speed (25,000: 500 MiB, 7 % slower). A user's own setting wins.
if "polars" not in sys.modules:
    _user = os.environ.get("_RJEM_MALLOC_CONF")
    os.environ["_RJEM_MALLOC_CONF"] = "dirty_decay_ms:100,muzzy_decay_ms:0" + (f",{_user}" if _user else "")
    os.environ.setdefault("POLARS_IDEAL_MORSEL_SIZE", "50000")

from gaia_fast.cli.grade import grade  # noqa: E402 (Polars is imported from here on)
from gaia_fast.cli.report import report  # noqa: E402
from gaia_fast.cli.run import run  # noqa: E402
from gaia_fast.cli.view import view  # noqa: E402

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="gaia-fast", message="%(prog)s %(version)s")
def main() -> None:
    """gaia-fast: exact, fast answer scoring for AI benchmarks."""


for _command in (grade, run, view, report):
    main.add_command(_command)
