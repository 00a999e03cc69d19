"""Module attributes imported on first use (keeps ``import gaia_fast`` free of SymPy)."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any


def lazy_exports(module: str, namespace: dict[str, Any], exports: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``module`` that load each name in ``exports`` (name →
    defining module) when first asked for, and cache it in ``namespace``."""

    def __getattr__(name: str) -> Any:
        if name not in exports:
            # A submodule not imported yet (``gaia_fast.frame`` after ``import gaia_fast``).
            if "__path__" in namespace and not name.startswith("_") and importlib.util.find_spec(f"{module}.{name}") is not None:
                return importlib.import_module(f"{module}.{name}")
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(exports[name]), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(exports) | {k for k in namespace if not k.startswith("_")})

    return __getattr__, __dir__
