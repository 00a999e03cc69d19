"""The reference's ``eval(line['answer'])`` on answer cells, done safely.

A cell holds a Python literal (``"['CENTRE']"``). ``ast.literal_eval`` reads every literal
``eval`` reads; a cell that is not a literal (an expression, a name) would be evaluated
upstream and is reported here instead. Each distinct cell is parsed once.
"""

from __future__ import annotations

import ast
from typing import Any

import polars as pl

__all__ = ["flatten", "parse_literals"]


def parse_literals(cells: pl.Series) -> list[tuple[Any, str | None]]:
    """``(value, None)`` or ``(None, why)`` for every cell, in order (a null cell is NaN
    upstream, and ``eval`` of a float raises)."""
    parsed: dict[str | None, tuple[Any, str | None]] = {}
    out = []
    for cell in cells.to_list():
        hit = parsed.get(cell)
        if hit is None:
            if cell is None:
                hit = (None, "the answer cell is empty (eval(nan) raises upstream)")
            else:
                try:
                    hit = (ast.literal_eval(cell), None)
                except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as e:
                    hit = (None, f"the answer is not a Python literal ({type(e).__name__})")
            parsed[cell] = hit
        out.append(hit)
    return out


def flatten(lists: list[list[str]]) -> tuple[pl.Series, pl.Series]:
    """A column of lists as the natives take it: every item in one String column, and each
    row's item count."""
    flat = pl.Series("items", [x for row in lists for x in row], pl.String)
    counts = pl.Series("counts", [len(row) for row in lists], pl.Int64)
    return flat, counts
