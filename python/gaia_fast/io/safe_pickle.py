"""Reading VLMEvalKit's judge caches (``*.pkl``) without running code.

A pickle names the callables that rebuild its objects, and ``pickle.load`` calls them: a
crafted file can run any command. VLMEvalKit's caches (``{stem}_{judge}_result.pkl``,
``{stem}_tmp.pkl``, ``{stem}_{judge}.pkl``) hold only dicts, lists, text, numbers and the
NumPy scalars their keys come from (``line['index']`` of a pandas row is ``numpy.int64``;
circular keys ``index % 1e6`` are ``numpy.float64``). So this unpickler resolves only an
explicit allow-list of globals: a few harmless builtins, ``collections.OrderedDict``, and
NumPy's scalar, dtype and array rebuilders (under both their NumPy 1 and NumPy 2 module
names). ``allow_pandas=True`` adds the few pandas/pyarrow rebuilders of a plain DataFrame
(:data:`PANDAS_NAMES`: VLMEvalKit's later ``dump`` pickles the result table under the
cache's name when the xlsx cannot be written). Any other global is refused with
:class:`UnsafePickleError`, which names the file, before anything runs.
"""

from __future__ import annotations

import collections
import io
import os
import pickle
from pathlib import Path
from typing import Any

from gaia_fast.io.readers import InputError

__all__ = ["ALLOWED", "PANDAS_NAMES", "UnsafePickleError", "load", "loads"]


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

#: The globals of a pickled pandas DataFrame of plain columns (numbers, text, booleans), by
#: the names pandas 1.x to 3.x and pyarrow give them. VLMEvalKit's ``dump`` (2025 on) falls
#: back to pickling the whole result table under the cache's own name
#: (``{stem}_{J}_result.pkl``) when writing the xlsx fails. Each name is resolved here from
#: the installed libraries; names they lack are left out. These rebuild containers from
#: their parts (their classes and parts pass this same list) and run nothing else.
PANDAS_NAMES: tuple[tuple[str, str], ...] = (
    ("pandas", "DataFrame"), ("pandas.core.frame", "DataFrame"),
    ("pandas", "Series"), ("pandas.core.series", "Series"),
    ("pandas", "Index"), ("pandas.core.indexes.base", "Index"), ("pandas.core.indexes.base", "_new_Index"),
    ("pandas", "RangeIndex"), ("pandas.core.indexes.range", "RangeIndex"),
    ("pandas.core.indexes.numeric", "Int64Index"), ("pandas.core.indexes.numeric", "Float64Index"),
    ("pandas.core.internals.managers", "BlockManager"), ("pandas.core.internals.managers", "SingleBlockManager"),
    ("pandas._libs.internals", "_unpickle_block"), ("pandas.core.internals.blocks", "new_block"),
    ("pandas", "StringDtype"), ("pandas.core.arrays.string_", "StringDtype"), ("pandas.core.arrays.string_", "StringArray"),
    ("pandas.arrays", "StringArray"), ("pandas.arrays", "ArrowStringArray"),
    ("pandas.core.arrays.string_arrow", "ArrowStringArray"), ("pandas.arrays", "BooleanArray"),
    ("pandas.core.arrays.boolean", "BooleanArray"), ("pandas.arrays", "IntegerArray"),
    ("pandas.core.arrays.integer", "IntegerArray"), ("pandas", "Int64Dtype"), ("pandas", "BooleanDtype"),
    ("pyarrow.lib", "_restore_array"), ("pyarrow.lib", "py_buffer"), ("pyarrow.lib", "type_for_alias"),
    ("builtins", "slice"), ("__builtin__", "slice"), ("builtins", "bytearray"), ("__builtin__", "bytearray"),
)  # fmt: skip


def _pandas_globals() -> dict[tuple[str, str], Any]:
    import importlib

    out: dict[tuple[str, str], Any] = {}
    for mod, name in PANDAS_NAMES:
        try:
            # protocol 0-2 pickles say __builtin__ for builtins
            out[(mod, name)] = getattr(importlib.import_module("builtins" if mod == "__builtin__" else mod), name)
        except (ImportError, AttributeError):
            continue
    if ("pandas.arrays", "ArrowStringArray") in out:
        # pickle protocol 4/5 name StringDtype by its defining module
        dtype = out.get(("pandas", "StringDtype"))
        if dtype is not None:
            out[(dtype.__module__, "StringDtype")] = dtype
    return out


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: Any, source: str, allowed: dict[tuple[str, str], Any]) -> None:
        super().__init__(file)
        self._source = source
        self._allowed = allowed

    def find_class(self, module: str, name: str) -> Any:
        try:
            return self._allowed[(module, name)]
        except KeyError:
            raise UnsafePickleError(
                self._source,
                f"refused to unpickle: it names the global {module}.{name}, which a judge cache never holds "
                "(only containers, text, numbers and NumPy scalars are read; nothing was run)",
            ) from None

    def persistent_load(self, pid: Any) -> Any:
        raise UnsafePickleError(self._source, "refused to unpickle: it uses persistent ids (a judge cache never does)")


def loads(data: bytes, *, source: str = "<bytes>", allow_pandas: bool = False) -> Any:
    """Unpickle ``data`` with the allow-list (plus :data:`PANDAS_NAMES` with
    ``allow_pandas``); ``source`` names it in errors."""
    allowed = {**ALLOWED, **_pandas_globals()} if allow_pandas else ALLOWED
    try:
        return _Unpickler(io.BytesIO(data), source, allowed).load()
    except UnsafePickleError:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged cache is bad input, named
        raise InputError(source, f"cannot read the pickle: {type(e).__name__}: {e}") from None


def load(path: str | os.PathLike, *, allow_pandas: bool = False) -> Any:
    """Read a judge cache file with the allow-list (see the module doc)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError(p, f"cannot read: {e}") from None
    return loads(data, source=str(p), allow_pandas=allow_pandas)
