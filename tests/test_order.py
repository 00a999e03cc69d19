"""The native row order of the comparison file (task ids sorted, stable, nulls last)
against its twin: curated keys, hypothesis-generated Unicode, and archive-sized columns
of repeated and of distinct ids, in every Arrow string layout."""

from __future__ import annotations

import random

import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaia_fast import _native
from gaia_fast.reference import lines_in_order, repeat_starts
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


def written(keys, lines):
    chunks: list[bytes] = []
    got = _native.write_in_key_order(pl.Series(keys, dtype=pl.String), pl.Series(lines, dtype=pl.String), chunks.append)
    return b"".join(chunks), got


def expected(keys, lines):
    order = twin(keys)
    starts = repeat_starts(keys, order)
    firsts = [keys[order[s]] for s in starts[:5]]
    return lines_in_order(lines, order), (len(starts), firsts, keys[order[-1]] if order else None)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.sampled_from(["a", "b", "é", "", "a\x00"]), TEXT), st.one_of(st.none(), TEXT)), max_size=120))
def test_lines_written_in_key_order(pairs):
    keys = [k for k, _ in pairs]
    lines = [v for _, v in pairs]
    assert written(keys, lines) == expected(keys, lines)


def test_lines_written_in_chunks_across_many_rows():
    # More than one 4 MiB chunk, repeated and distinct keys.
    rng = random.Random(5)
    keys = [f"t{rng.randrange(300)}" if i % 2 else f"u{rng.getrandbits(64):x}" for i in range(40_000)]
    lines = [f"{k},1,{'x' * rng.randrange(300)},y,True" for k in keys]
    data, got = written(keys, lines)
    assert len(data) > 4 << 20
    assert (data, got) == expected(keys, lines)
