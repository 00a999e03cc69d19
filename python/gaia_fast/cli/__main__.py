"""``python -m gaia_fast.cli``: the same as the ``gaia-fast`` command."""

from gaia_fast.cli import main

main()
