"""Reading VLMEvalKit's judge caches (``*.pkl``) without running code.

A pickle names the callables that rebuild its objects, and ``pickle.load`` calls them: a
crafted file can run any command. VLMEvalKit's caches (``{stem}_{judge}_result.pkl``,
``{stem}_tmp.pkl``, ``{stem}_{judge}.pkl``) hold only dicts, lists, text, numbers and the
NumPy scalars their keys come from (``line['index']`` of a pandas row is ``numpy.int64``;
circular keys ``index % 1e6`` are ``numpy.float64``). So this unpickler resolves only an
explicit allow-list of globals: a few harmless builtins, ``collections.OrderedDict``, and
NumPy's scalar, dtype and array rebuilders (under both their NumPy 1 and NumPy 2 module
names). No pandas object was found in real caches, so none is allowed. Any other global
is refused with :class:`UnsafePickleError`, which names the file, before anything runs.
"""

from __future__ import annotations

import collections
import io
import os
import pickle
from pathlib import Path
from typing import Any

from gaia_fast.io.readers import InputError

__all__ = ["ALLOWED", "UnsafePickleError", "load", "loads"]


class UnsafePickleError(InputError):
    """A pickle names a global outside the allow-list (nothing of it was run)."""


def _numpy_globals() -> dict[tuple[str, str], Any]:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with polars' users; without it no numpy pickle loads
        return {}
    try:
        from numpy._core import multiarray, numeric
    except ImportError:  # pragma: no cover - NumPy 1
        from numpy.core import multiarray, numeric  # type: ignore[no-redef]
    out: dict[tuple[str, str], Any] = {}
    # Pickles written by NumPy 1 name numpy.core, by NumPy 2 numpy._core: both map to the
    # objects resolved here (never through an import of the name the file gives).
    for mod in ("numpy.core.multiarray", "numpy._core.multiarray"):
        out[(mod, "scalar")] = multiarray.scalar
        out[(mod, "_reconstruct")] = multiarray._reconstruct
    for mod in ("numpy.core.numeric", "numpy._core.numeric"):
        out[(mod, "_frombuffer")] = numeric._frombuffer  # protocol 5 arrays
    out[("numpy", "dtype")] = np.dtype
    out[("numpy", "ndarray")] = np.ndarray
    return out


_BUILTINS: dict[tuple[str, str], Any] = {
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "complex"): complex,
    ("builtins", "bytearray"): bytearray,
    ("__builtin__", "set"): set,  # protocol 0-2 pickles of Python 2
    ("__builtin__", "frozenset"): frozenset,
    ("collections", "OrderedDict"): collections.OrderedDict,
    # bytes in protocol 2 pickles: _codecs.encode(text, "latin1") only turns text into bytes
    ("_codecs", "encode"): __import__("codecs").encode,
}

#: Every global a judge cache may name: ``(module, name) -> object``.
ALLOWED: dict[tuple[str, str], Any] = {**_BUILTINS, **_numpy_globals()}


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: Any, source: str) -> None:
        super().__init__(file)
        self._source = source

    def find_class(self, module: str, name: str) -> Any:
        try:
            return ALLOWED[(module, name)]
        except KeyError:
            raise UnsafePickleError(
                self._source,
                f"refused to unpickle: it names the global {module}.{name}, which a judge cache never holds "
                "(only containers, text, numbers and NumPy scalars are read; nothing was run)",
            ) from None

    def persistent_load(self, pid: Any) -> Any:
        raise UnsafePickleError(self._source, "refused to unpickle: it uses persistent ids (a judge cache never does)")


def loads(data: bytes, *, source: str = "<bytes>") -> Any:
    """Unpickle ``data`` with the allow-list; ``source`` names it in errors."""
    try:
        return _Unpickler(io.BytesIO(data), source).load()
    except UnsafePickleError:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged cache is bad input, named
        raise InputError(source, f"cannot read the pickle: {type(e).__name__}: {e}") from None


def load(path: str | os.PathLike) -> Any:
    """Read a judge cache file with the allow-list (see the module doc)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError(p, f"cannot read: {e}") from None
    return loads(data, source=str(p))
