"""How VLMEvalKit sees a result-table column: ``load()`` reads it with pandas, and the
evaluation code then calls ``str(x)`` (or compares the values themselves).

gaia-fast reads every cell as text. pandas does more: the texts it takes for NaN become
NaN, and a column whose every other cell reads as a number becomes numbers — int64 when
all are integers and none is missing, float64 otherwise — so ``str(x)`` of ``"007"`` is
``"7"``, of ``"3"`` beside a missing cell ``"3.0"``, of ``"1e-1"`` ``"0.1"``; a column of
only ``True``/``False`` words becomes booleans. Any other column keeps its texts (a
numeric cell inside it keeps the text the file stores for it).

:func:`pandas_column` gives that view: the column's pandas kind and each cell as pandas
holds it (Python ``int``/``float``/``bool``/``str``; NaN for a missing cell), and
:func:`pandas_str` gives ``str()`` of each. Python loops over the column only when it is
numeric or boolean (small answer columns of counting datasets); a text column stays in Polars.
"""

from __future__ import annotations

import math

import polars as pl

from gaia_fast import _native

__all__ = ["PANDAS_NA", "PY_WHITESPACE", "pandas_column", "pandas_str", "py_lower", "py_strip"]

#: pandas' default ``na_values``: cells with these texts load as NaN.
PANDAS_NA = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)  # fmt: skip

#: The characters Python's ``str.strip()`` removes (``str.isspace``).
PY_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

_INT = r"^[ \t]*[+-]?[0-9]+[ \t]*$"
_FLOAT = r"(?i)^[ \t]*[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?|inf|infinity)[ \t]*$"
_TRUE, _FALSE = ("True", "TRUE", "true"), ("False", "FALSE", "false")
_INT64 = (-(2**63), 2**63 - 1)


def py_strip(expr: pl.Expr) -> pl.Expr:
    """Python's ``str.strip()`` as a Polars expression."""
    return expr.str.strip_chars(PY_WHITESPACE)


def py_lower(series: pl.Series) -> pl.Series:
    """Python's ``str.lower()`` of each cell (natively; nulls stay null)."""
    values = series.to_list()
    mask = [v is not None for v in values]
    lowered = iter(_native.py_lower_many([v for v in values if v is not None]))
    return pl.Series(series.name, [next(lowered) if m else None for m in mask], pl.String)


def pandas_column(series: pl.Series, pandas_na: bool = True) -> tuple[str, pl.Series]:
    """``(kind, cells)``: the column's pandas kind (``int``, ``float``, ``bool`` or
    ``object``) and, for ``object``, the texts with null for NaN; for the others an
    Object series of Python values (``float('nan')`` for a missing cell)."""
    col = series if series.dtype == pl.String else series.cast(pl.String)
    missing = col.is_null()
    if pandas_na:
        missing = missing | col.is_in(PANDAS_NA).fill_null(False)
    present = col.filter(~missing)
    if present.len():
        if not missing.any() and bool(present.str.contains(_INT).all()):
            ints = [int(v) for v in present.to_list()]
            if all(_INT64[0] <= v <= _INT64[1] for v in ints):
                return "int", pl.Series(series.name, ints, pl.Object)
        elif bool(present.str.contains(_FLOAT).all()):
            values = [math.nan if m else float(v) for v, m in zip(col.to_list(), missing.to_list())]
            return "float", pl.Series(series.name, values, pl.Object)
        if not missing.any() and bool(present.is_in(_TRUE + _FALSE).all()):
            return "bool", pl.Series(series.name, [v in _TRUE for v in present.to_list()], pl.Object)
    elif col.len():
        return "float", pl.Series(series.name, [math.nan] * col.len(), pl.Object)  # all NaN
    return "object", col.set(missing, None)


def pandas_str(series: pl.Series, pandas_na: bool = True) -> pl.Series:
    """``str(x)`` of each cell as pandas loaded it (``"nan"`` for a missing one)."""
    kind, cells = pandas_column(series, pandas_na)
    if kind == "object":
        return cells.fill_null("nan").alias(series.name)
    return pl.Series(series.name, [str(v) for v in cells.to_list()], pl.String)

