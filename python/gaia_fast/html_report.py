"""``gaia_fast.html_report`` is ``gaia_fast.harness.html_report``: the old name stays importable."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("gaia_fast.harness.html_report")
