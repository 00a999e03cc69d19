"""``gaia_fast.runner`` is ``gaia_fast.harness.runner``: the old name stays importable."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("gaia_fast.harness.runner")
