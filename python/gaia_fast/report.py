"""``gaia_fast.report`` is ``gaia_fast.grading.summary``: the old name stays importable."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("gaia_fast.grading.summary")
