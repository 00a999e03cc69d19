"""The version is one number everywhere, and ``import gaia_fast`` stays light."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

import gaia_fast


def test_version_is_the_installed_distributions():
    assert gaia_fast.__version__ == importlib.metadata.version("gaia-fast")
    assert gaia_fast.__version__.count(".") >= 2


def test_cli_version_flag():
    for flag in ("--version", "-V"):
        r = subprocess.run([sys.executable, "-m", "gaia_fast.cli", flag], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stdout == f"gaia-fast {gaia_fast.__version__}\n"


def test_cold_import_pulls_no_heavy_optional_module():
    code = (
        "import sys, json, gaia_fast; gaia_fast.question_scorer('1', '1'); "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sympy', 'ray', 'antlr4', 'huggingface_hub', 'opentelemetry', 'agent_framework', 'polars', 'pyarrow', 'numpy') "
        "or m in ('gaia_fast.judge', 'gaia_fast.math.pool', 'gaia_fast.compat.agent_framework'))))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(r.stdout) == []
