"""Column names (and a few ids) of a result file, read cheaply: discovery decides what a file
is from its header, so it must not load the table (a spreadsheet's sheet is streamed until
its first row ends)."""

from __future__ import annotations

import csv
import json
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

__all__ = ["read_columns", "read_values"]

_M = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_CSV = {".csv": ",", ".tsv": "\t"}


def _first_sheet(z: zipfile.ZipFile) -> str:
    wb = ElementTree.fromstring(z.read("xl/workbook.xml"))
    sheet = wb.find(f"{_M}sheets/{_M}sheet")
    if sheet is None:
        raise ValueError("the workbook has no sheet")
    rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    for r in rels:
        if r.get("Id") == sheet.get(_REL):
            target = (r.get("Target") or "").lstrip("/")
            return target if target.startswith("xl/") else "xl/" + target
    raise ValueError("the first sheet's part is not named in the workbook")


def _col_index(ref: str) -> int:
    letters = re.match(r"[A-Z]+", ref)
    idx = 0
    for ch in letters.group(0) if letters else "":
        idx = idx * 26 + (ord(ch) - 64)
    return idx - 1


def _shared_strings(z: zipfile.ZipFile, wanted: set[int]) -> dict[int, str]:
    """The shared strings with these indexes, parsed only as far as the largest one."""
    out: dict[int, str] = {}
    if not wanted or "xl/sharedStrings.xml" not in z.namelist():
        return out
    last = max(wanted)
    i = 0
    with z.open("xl/sharedStrings.xml") as f:
        for event, el in ElementTree.iterparse(f, events=("end",)):
            if el.tag != f"{_M}si":
                continue
            if i in wanted:
                out[i] = "".join(t.text or "" for t in el.iter(f"{_M}t"))
            el.clear()
            if i >= last:
                break
            i += 1
    return out


def _xlsx_rows(path: Path, rows: int) -> list[list[str | None]]:
    """The first ``rows`` rows of the first sheet as text (None: an empty cell)."""
    with zipfile.ZipFile(path) as z:
        part = _first_sheet(z)
        raw: list[dict[int, tuple[str | None, str | None]]] = []
        with z.open(part) as f:
            current: dict[int, tuple[str | None, str | None]] | None = None
            for event, el in ElementTree.iterparse(f, events=("start", "end")):
                if el.tag == f"{_M}row":
                    if event == "start":
                        current = {}
                    else:
                        raw.append(current or {})
                        el.clear()
                        if len(raw) >= rows:
                            break
                elif event == "end" and el.tag == f"{_M}c" and current is not None:
                    t = el.get("t")
                    if t == "inlineStr":
                        value = "".join(x.text or "" for x in el.iter(f"{_M}t"))
                    else:
                        v = el.find(f"{_M}v")
                        value = v.text if v is not None else None
                    current[_col_index(el.get("r") or "A")] = (t, value)
        wanted = {int(v) for row in raw for t, v in row.values() if t == "s" and v is not None and v.isdigit()}
        strings = _shared_strings(z, wanted)
    out = []
    for row in raw:
        width = max(row) + 1 if row else 0
        cells: list[str | None] = [None] * width
        for i, (t, v) in row.items():
            cells[i] = strings.get(int(v)) if t == "s" and v is not None and v.isdigit() else v
        out.append(cells)
    return out


def _text_rows(path: Path, delimiter: str, rows: int) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f, delimiter=delimiter)
        out = []
        for row in reader:
            out.append(row)
            if len(out) >= rows:
                break
    return out


def _jsonl_objects(path: Path, rows: int) -> list[dict]:
    out = []
    with open(path, "rb") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError(f"line {lineno} is not a JSON object")  # noqa: TRY004 - bad data, not a bad argument
            out.append(obj)
            if len(out) >= rows:
                break
    return out


def read_columns(path: str | Path) -> list[str]:
    """The column names of a result file (``.xlsx``, ``.csv``, ``.tsv``, ``.jsonl``,
    ``.parquet``): its header row, the keys of its first JSON line, or its schema.
    ``ValueError`` (naming the file) when they cannot be read."""
    p = Path(path)
    ext = p.suffix.lower()
    try:
        if ext in (".xlsx", ".xlsm"):
            rows = _xlsx_rows(p, 1)
            return [c or "" for c in rows[0]] if rows else []
        if ext in _CSV:
            rows = _text_rows(p, _CSV[ext], 1)
            return rows[0] if rows else []
        if ext in (".jsonl", ".ndjson"):
            objs = _jsonl_objects(p, 1)
            return list(objs[0]) if objs else []
        if ext in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            return list(pq.read_schema(p).names)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, ElementTree.ParseError, UnicodeDecodeError, csv.Error) as e:
        raise ValueError(f"{p}: cannot read its column names ({type(e).__name__}: {e})") from None
    except Exception as e:  # noqa: BLE001 - e.g. pyarrow's errors on a broken footer
        raise ValueError(f"{p}: cannot read its column names ({type(e).__name__}: {e})") from None
    raise ValueError(f"{p}: no column reader for {ext or 'a file without an extension'}")


def read_values(path: str | Path, column: str, rows: int = 20) -> list[str]:
    """Up to ``rows`` non-empty values of ``column`` from the top of a result file, as text
    (to tell GAIA task ids from other ids without reading the table)."""
    p = Path(path)
    ext = p.suffix.lower()
    values: list[object] = []
    try:
        if ext in (".xlsx", ".xlsm"):
            table = _xlsx_rows(p, rows + 1)
            if table:
                i = table[0].index(column)
                values = [r[i] if i < len(r) else None for r in table[1:]]
        elif ext in _CSV:
            table = _text_rows(p, _CSV[ext], rows + 1)
            if table:
                i = table[0].index(column)
                values = [r[i] if i < len(r) else None for r in table[1:]]
        elif ext in (".jsonl", ".ndjson"):
            values = [o.get(column) for o in _jsonl_objects(p, rows)]
        elif ext in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            f = pq.ParquetFile(p)
            if f.num_row_groups:
                values = f.read_row_group(0, columns=[column]).column(0).to_pylist()[:rows]
    except Exception:  # noqa: BLE001 - unreadable ids: nothing to match
        return []
    return [str(v) for v in values if v is not None and str(v).strip()]

