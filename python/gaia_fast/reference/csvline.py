"""Pure-Python twin of the native CSV line builder (``gaia_fast._native.csv_lines_arrow``).

Written from the dialect of Python's ``csv.writer`` with its defaults (delimiter ``,``,
quote ``"``, ``QUOTE_MINIMAL``, ``doublequote=True``) and ``lineterminator="\\r\\n"``,
which is what Zypher's ``grade.py`` writes ``answer_comparison.csv`` with:

* a field is quoted only when it holds ``,``, ``"``, CR or LF (the delimiter, the quote,
  and the characters of the line end); inside quotes every ``"`` is doubled;
* ``None`` and ``""`` are both written as nothing, except that a row made of one empty
  field is written ``""`` (otherwise it would be a blank line, which readers skip);
* nothing else is changed: spaces, tabs, NUL and any other character are written as they
  are.

A line is returned without its line end. The test-suite checks this twin against
``csv.writer`` itself, and the native builder against this twin.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["csv_field", "csv_line", "csv_lines"]

_SPECIAL = frozenset(',"\r\n')


def csv_field(value: str | None) -> str:
    """One field as written between delimiters."""
    if not value:
        return ""
    if any(c in _SPECIAL for c in value):
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_line(fields: Sequence[str | None]) -> str:
    """One row as CSV text, without its line end."""
    if len(fields) == 1 and not fields[0]:
        return '""'
    return ",".join(csv_field(f) for f in fields)


def csv_lines(columns: Sequence[Sequence[str | None]]) -> list[str]:
    """The line of every row of equally long ``columns`` (row ``i`` takes field ``k`` from
    ``columns[k][i]``)."""
    if not columns:
        return []
    rows: Iterable[tuple[str | None, ...]] = zip(*columns, strict=True)
    return [csv_line(row) for row in rows]
