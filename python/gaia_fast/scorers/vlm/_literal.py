"""The reference's ``eval(line['answer'])`` on answer cells, done safely.

A cell holds a Python literal (``"['CENTRE']"``). ``ast.literal_eval`` reads every literal
``eval`` reads; a cell that is not a literal (an expression, a name) would be evaluated
upstream and is reported here instead. Each distinct cell is parsed once.
"""

from __future__ import annotations

import ast
from typing import Any

import polars as pl

__all__ = ["parse_literals"]


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
