"""Twin of the native row order of ``answer_comparison.csv`` (spec ``gaia.md`` §4 step 5:
Zypher ``grade.py`` sorts its rows by task id with Python's stable ``sorted``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence


def stable_order(keys: Sequence[str | None]) -> list[int]:
    """Row indexes in ascending key order (Python's ``str`` order: by code point), rows
    with equal keys in their order, ``None`` after every key."""
    return sorted(range(len(keys)), key=lambda i: (keys[i] is None, keys[i] or ""))


def repeat_starts(keys: Sequence[str | None], order: Sequence[int]) -> list[int]:
    """Positions in ``order`` where a run of two or more equal (non-``None``) keys
    begins."""
    out = []
    for p in range(len(order) - 1):
        k = keys[order[p]]
        if k is not None and keys[order[p + 1]] == k and (p == 0 or keys[order[p - 1]] != k):
            out.append(p)
    return out


def csv_rows(columns: Sequence[Sequence[str | None]], order: Sequence[int]) -> bytes:
    """Rows ``order`` of ``columns`` written by Python's ``csv.writer`` (minimal quoting,
    CR LF line ends; ``None`` written as an empty field), UTF-8."""
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator="\r\n")
    for i in order:
        w.writerow(["" if c[i] is None else c[i] for c in columns])
    return out.getvalue().encode()
