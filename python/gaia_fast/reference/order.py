"""Twin of the native row order of ``answer_comparison.csv`` (spec ``gaia.md`` §4 step 5:
Zypher ``grade.py`` sorts its rows by task id with Python's stable ``sorted``)."""

from __future__ import annotations

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


def lines_in_order(lines: Sequence[str | None], order: Sequence[int]) -> bytes:
    """The lines in ``order``, UTF-8, each ended by CR LF (``None`` as an empty line)."""
    return b"".join((lines[i] or "").encode() + b"\r\n" for i in order)
