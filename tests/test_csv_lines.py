"""The comparison lines: native CSV line builder == pure-Python twin == Python's
``csv.writer(lineterminator="\\r\\n")``, the dialect of Zypher's ``answer_comparison.csv``."""

from __future__ import annotations

import csv
import io
import os
import time

import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gaia_fast import _native
from gaia_fast.io.writers import COMPARISON_COLUMNS, comparison_exprs, comparison_line_exprs
from gaia_fast.reference.csvline import csv_line, csv_lines

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def oracle(row) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerow(row)
    out = buf.getvalue()
    assert out.endswith("\r\n")
    return out[:-2]


def native(rows) -> list[str]:
    k = len(rows[0]) if rows else 0
    cols = [pl.Series([r[j] for r in rows], dtype=pl.String) for j in range(k)]
    return pl.Series(_native.csv_lines_arrow(cols)).to_list()


CURATED = [
    ["t1", "1", "Paris", "paris", "True"],
    [None, None, None, None, None],
    ["", "", "", "", ""],
    ["", None, "", None, ""],
    ["a,b", 'say "hi"', '"', '""', ","],
    ["l1\nl2", "cr\r", "\r\n", "\n", "\r"],
    [" lead", "trail ", "  ", "\t", " , "],
    ['"quoted at ends"', 'a"b', '"', 'x""', '""""'],
    ["é", "日本語", "\u2028", "😀,😀", "\x00"],
    ["\x0b\x0c\x1c\x1d\x1e\x1f\x85", ";", "'", "\\", "="],
    ["x" * 100_000, 'y"' * 50_000, "z," * 70_000, "é" * 40_000, "\n" * 1000],
    ["0123456789abc", "0123456789ab", "0123456", "01234567", "012345678"],
]


@pytest.mark.parametrize("row", CURATED, ids=range(len(CURATED)))
def test_curated_rows(row):
    want = oracle(row)
    assert csv_line(row) == want
    assert native([row]) == [want]


def test_curated_as_one_column_set():
    want = [oracle(r) for r in CURATED]
    assert csv_lines([list(c) for c in zip(*CURATED)]) == want
    assert native(CURATED) == want


@pytest.mark.parametrize("row", [[""], [None], ["x"], [","], [], ["", ""], [None, None]])
def test_short_rows(row):
    # A row of one empty field is written '""' (a blank line would be skipped by readers).
    assert csv_line(row) == oracle(row)
    if row:
        assert native([row]) == [oracle(row)]


field = st.one_of(st.none(), st.text(), st.text(alphabet=',"\r\n a\u00e9\u65e5'))


@SETTINGS
@given(st.integers(1, 6).flatmap(lambda k: st.lists(st.lists(field, min_size=k, max_size=k), max_size=30)))
def test_arbitrary_rows(rows):
    want = [oracle(r) for r in rows]
    assert [csv_line(r) for r in rows] == want
    assert native(rows) == want


@SETTINGS
@given(st.lists(st.one_of(st.none(), st.text(alphabet=st.characters(exclude_categories=()))), min_size=1, max_size=6))
def test_twin_on_lone_surrogates(row):
    # Polars strings are UTF-8, so only the twin can see these; it must still be csv.writer.
    assert csv_line(row) == oracle(row)


def test_arrow_inputs_of_every_string_type_and_chunking():
    rows = [[f"id{i}", None if i % 3 == 0 else f"v,{i}", "é" * (i % 20), '"' * (i % 4)] for i in range(200)]
    want = [oracle(r) for r in rows]
    cols = [[r[j] for r in rows] for j in range(4)]
    as_types = [
        pa.array(cols[0], type=pa.string()),
        pa.array(cols[1], type=pa.large_string()),
        pa.array(cols[2], type=pa.string_view()),
        pa.chunked_array([cols[3][:7], cols[3][7:150], cols[3][150:]], type=pa.string()),
    ]
    assert pl.Series(_native.csv_lines_arrow(as_types)).to_list() == want
    chunked = pl.concat([pl.Series(cols[0][:100]), pl.Series(cols[0][100:])], rechunk=False)
    got = pl.Series(_native.csv_lines_arrow([chunked, pl.Series(cols[1]), pl.Series(cols[2]), pl.Series(cols[3])])).to_list()
    assert got == want
    # All-null columns, typed or Arrow Null.
    for null in (pl.Series([None] * 3, dtype=pl.String), pa.nulls(3)):
        assert pl.Series(_native.csv_lines_arrow([null, pl.Series(["a", "b", "c"])])).to_list() == [",a", ",b", ",c"]


def test_bad_columns():
    with pytest.raises(ValueError, match="rows"):
        _native.csv_lines_arrow([pl.Series(["a"]), pl.Series(["a", "b"])])
    with pytest.raises(TypeError):
        _native.csv_lines_arrow([pl.Series([1, 2])])
    assert pl.Series(_native.csv_lines_arrow([])).to_list() == []


def scored_frame(n: int = 2000, seed: int = 5) -> pl.DataFrame:
    import random

    rng = random.Random(seed)
    alphabet = ["a", " ", ",", '"', "\r", "\n", "é", "日", "", "\x00", "'"]

    def text():
        return None if rng.random() < 0.1 else "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 6)))

    return pl.DataFrame(
        {
            "task_id": [text() for _ in range(n)],
            "prediction": [text() for _ in range(n)],
            "truth": [text() for _ in range(n)],
            "level": [rng.choice([1, 2, 3, None]) for _ in range(n)],
            "score": [rng.choice([True, False, None]) for _ in range(n)],
            "status": pl.Series([rng.choice(["ok", "no_truth", "unknown_task", "missing", None]) for _ in range(n)], dtype=pl.Categorical),
        }
    )


def test_comparison_lines_are_csv_writer_rows():
    frame = scored_frame()
    rows = frame.select(comparison_exprs(frame.schema)).rows()
    got = frame.select(comparison_line_exprs(frame.schema))
    assert got.columns == ["task_id", "line"]
    assert got.get_column("line").to_list() == [oracle(r) for r in rows]
    assert got.get_column("task_id").to_list() == [r[0] for r in rows]


def test_comparison_lines_stream(tmp_path):
    # Elementwise: the streaming engine runs it batch by batch, in order.
    frame = scored_frame(30_000, seed=6)
    parts = []
    for i in range(3):
        p = tmp_path / f"p{i}.parquet"
        frame.slice(i * 10_000, 10_000).write_parquet(p, row_group_size=1500)
        parts.append(str(p))
    lf = pl.scan_parquet(parts)
    out = tmp_path / "lines.parquet"
    lf.select(comparison_line_exprs(lf.collect_schema())).sink_parquet(out, engine="streaming")
    want = frame.select(comparison_line_exprs(frame.schema))
    assert pl.read_parquet(out).equals(want)
    rows = frame.select(comparison_exprs(frame.schema)).rows()
    assert want.get_column("line").to_list() == [oracle(r) for r in rows]


def test_comparison_columns_are_the_header():
    assert ",".join(COMPARISON_COLUMNS) == oracle(list(COMPARISON_COLUMNS))


def test_text_buffers_are_reused_only_once_released():
    # The binding keeps released text buffers for later calls: a column still alive must
    # keep its text, and a reused buffer must not show its old text.
    rows = [[f"row-{i}-" + "x" * (i % 50), None if i % 7 == 0 else 'a,"b"' * (i % 3), str(i)] for i in range(5000)]
    want = [oracle(r) for r in rows]
    cols = [pl.Series([r[j] for r in rows], dtype=pl.String) for j in range(3)]
    alive = [pl.Series(_native.csv_lines_arrow(cols)) for _ in range(12)]
    for _ in range(3):
        for k in range(0, 12, 2):
            alive[k] = None  # released: its buffer may go to the next call
        short = [pl.Series(["s"] * 10), pl.Series([None] * 10, dtype=pl.String)]
        assert pl.Series(_native.csv_lines_arrow(short)).to_list() == ["s,"] * 10
        for k in range(0, 12, 2):
            alive[k] = pl.Series(_native.csv_lines_arrow(cols))
        assert all(s.to_list() == want for s in alive)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="thread names read from /proc")
def test_released_text_buffers_are_freed_when_idle():
    # Kept buffers are freed by a reaper thread soon after the last call, so they do not
    # add to the memory of what follows the streaming pass.
    def reapers():
        names = []
        for t in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{t}/comm") as f:
                    names.append(f.read().strip())
            except OSError:
                pass
        return names.count("gaia-fast-csvli")

    lines = pl.Series(_native.csv_lines_arrow([pl.Series(["x" * 40] * 1000)]))
    del lines
    assert reapers() <= 1  # one reaper at most (it may already be done on a slow machine)
    deadline = time.monotonic() + 10
    while reapers() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reapers() == 0
