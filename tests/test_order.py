"""The native row order of the comparison file (task ids sorted, stable, nulls last)
against its twin: curated keys, hypothesis-generated Unicode, and archive-sized columns
of repeated and of distinct ids, in every Arrow string layout."""

from __future__ import annotations

import io
import random

import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaia_fast import _native
from gaia_fast.reference import csv_rows, repeat_starts
from gaia_fast.reference import stable_order as twin

# Arrow strings are UTF-8: no lone surrogates.
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)


def native(keys, layout: str = "polars") -> list[int]:
    if layout == "polars":
        col = pl.Series("k", keys, dtype=pl.String)
    elif layout == "large":
        col = pa.array(keys, type=pa.large_string())
    elif layout == "chunked":
        half = len(keys) // 2
        col = pa.chunked_array([pa.array(keys[:half], type=pa.string()), pa.array(keys[half:], type=pa.string())], type=pa.string())
    else:
        raise ValueError(layout)
    return pl.Series(_native.stable_order(col)).to_list()


CURATED = [
    [],
    [None],
    ["b", None, "a", "b", "a", ""],
    ["ab", "ab\x00", "ab", "a", "ab\x00\x00\x00\x00\x00\x00\x00\x00", None, ""],
    ["é", "z", "\U00010000", "\uffff", "e\u0301", "E", "é"],
    ["00000071-6f1a-4c9e-9b2d-000003000001", "00000071-6f1a-4c9e-9b2d-000003000000", "00000071-6f1a-4c9e-9b2d-00000300000"],
]


@pytest.mark.parametrize("keys", CURATED)
@pytest.mark.parametrize("layout", ["polars", "large", "chunked"])
def test_curated_keys(keys, layout):
    assert native(keys, layout) == twin(keys)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT), max_size=200))
def test_arbitrary_unicode_keys(keys):
    assert native(keys) == twin(keys)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT), min_size=1, max_size=6), st.lists(st.integers(0, 5), max_size=400))
def test_repeated_keys(pool, picks):
    # Few distinct keys over many rows: the counting sort's path.
    keys = [pool[i % len(pool)] for i in picks]
    assert native(keys) == twin(keys)


@pytest.mark.parametrize("shape", ["repeated", "distinct", "shared start", "mixed"])
def test_archive_sized_columns(shape):
    rng = random.Random(shape)
    n = 60_000
    if shape == "repeated":
        ids = [f"{rng.randrange(466):08x}-6f1a-4c9e-9b2d-{rng.randrange(3):012d}" for _ in range(n)]
    elif shape == "distinct":
        ids = [f"{rng.getrandbits(128):032x}" for _ in range(n)]
    elif shape == "shared start":
        ids = [f"validation/2023/level-{rng.randrange(3)}/task-0000000000-{rng.randrange(10**9):09d}-é" for _ in range(n)]
    else:
        ids = [rng.choice(["", "t", "t1", "t10", "τ", None]) if rng.random() < 0.5 else f"t{rng.randrange(10**6)}" for _ in range(n)]
    want = twin(ids)
    assert native(ids) == want
    # The twin agrees with Polars' stable sort, which the eager comparison writer uses.
    polars_order = pl.DataFrame({"k": ids}).with_row_index().sort("k", nulls_last=True, maintain_order=True).get_column("index")
    assert polars_order.to_list() == want


def written(columns, sort=True, batch=50):
    rows = _native.CsvRows()
    for i in range(0, len(columns[0]), batch):
        rows.add([pl.Series(c[i : i + batch], dtype=pl.String) for c in columns])
    assert len(rows) == len(columns[0])
    out = io.BytesIO()
    got = rows.write(out, sort=sort)
    return out.getvalue(), got


def expected(columns, sort=True):
    keys = columns[0]
    if not sort:
        return csv_rows(columns, range(len(keys))), None
    order = twin(keys)
    starts = repeat_starts(keys, order)
    firsts = [keys[order[s]] for s in starts[:5]]
    return csv_rows(columns, order), (len(starts), firsts, keys[order[-1]] if order else None)


FIELD = st.one_of(st.none(), st.sampled_from(["", ",", '"', "\r", "\n", "\r\n", 'a "b", c', " x ", "é"]), TEXT)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.one_of(st.none(), st.sampled_from(["a", "b", "é", "", "a\x00", "a,b", '"q"']), TEXT), FIELD, FIELD), max_size=120),
    st.booleans(),
)
def test_rows_written_in_key_order_as_csv_writer_writes_them(rows, sort):
    columns = [list(c) for c in zip(*rows)] if rows else [[], [], []]
    assert written(columns, sort) == expected(columns, sort)


def test_rows_written_in_chunks_across_many_rows():
    # More than one 4 MiB chunk, repeated and distinct keys.
    rng = random.Random(5)
    keys = [f"t{rng.randrange(300)}" if i % 2 else f"u{rng.getrandbits(64):x}" for i in range(40_000)]
    answers = [("x" * rng.randrange(300)) + rng.choice(["", ",", '"']) for _ in keys]
    columns = [keys, ["1"] * len(keys), answers, [None] * len(keys), ["True"] * len(keys)]
    data, got = written(columns, batch=len(keys))  # one batch: built in parts on all cores
    assert len(data) > 4 << 20
    assert (data, got) == expected(columns)


def test_fields_not_checked_are_written_as_they_are():
    rows = _native.CsvRows()
    rows.add([pl.Series(["b", "a"]), pl.Series(["1", "2"]), pl.Series(["x,y", "z"])], [True, False, True])
    out = io.BytesIO()
    assert rows.write(out) == (0, [], "b")
    assert out.getvalue() == b'a,2,z\r\nb,1,"x,y"\r\n'


def test_columns_must_agree_in_length():
    with pytest.raises(ValueError, match="column 1 has 1 rows but column 0 has 2"):
        _native.CsvRows().add([pl.Series(["a", "b"]), pl.Series(["a"])])


def test_one_buffer_reused_after_clear():
    # The comparison writer keeps one buffer for every range: cleared rows must not
    # leak into the next range, whatever sizes come and go (batches of 40,000 rows are
    # built in parts on all cores, whose buffers are kept too).
    rng = random.Random(9)
    rows = _native.CsvRows()
    for n in (40_000, 300, 40_000, 0, 25_000):
        keys = [rng.choice([None, f"t{rng.randrange(50)}", f"u{rng.getrandbits(40):x}"]) for _ in range(n)]
        answers = [rng.choice([None, "", "a,b", 'say "x"', "x" * rng.randrange(40)]) for _ in range(n)]
        columns = [keys, answers]
        rows.clear()
        rows.reserve(n)
        for i in range(0, n, 30_000):
            rows.add([pl.Series(c[i : i + 30_000], dtype=pl.String) for c in columns])
        assert len(rows) == n
        out = io.BytesIO()
        got = rows.write(out)
        assert (out.getvalue(), got) == expected(columns)


def test_written_to_a_file_after_what_its_buffer_holds(tmp_path):
    # A real file is written through its descriptor: what Python buffered before goes
    # first, and writes after continue behind the rows.
    rng = random.Random(4)
    keys = [f"t{rng.randrange(10**6)}" for _ in range(60_000)]
    columns = [keys, [("x" * rng.randrange(200)) + rng.choice(["", ",", '"']) for _ in keys]]
    rows = _native.CsvRows()
    rows.add([pl.Series(c, dtype=pl.String) for c in columns])
    path = tmp_path / "out.csv"
    with open(path, "wb") as fh:
        fh.write(b"head\r\n")
        got = rows.write(fh)
        fh.write(b"tail\r\n")
    data, want = expected(columns)
    assert path.read_bytes() == b"head\r\n" + data + b"tail\r\n"
    assert got == want and len(data) > 4 << 20
