"""``gaia_fast.viewer`` is ``gaia_fast.harness.viewer``: the old name stays importable."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("gaia_fast.harness.viewer")
