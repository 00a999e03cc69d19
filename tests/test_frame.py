"""Batch API: score_batch / score_frame / expr.score over every column kind, with nulls,
placeholders, chunking and bad input; every result checked against the scalar scorers."""

from __future__ import annotations

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gaia_fast as gf
from gaia_fast.reference import gaia as twin

PRED = ["$1,000", "1, 0", "sea gull", None, "17000", "e, b", "Straße", "ΑΣ Α", "", "x"]
TRUTH = ["1000", "1,000", "Seagull", "17", "17", "b, e", "STRASSE", "ασα", "?", None]


def scalar(scorer: str, p: str | None, t: str | None, placeholder: bool = True):
    if t is None or (placeholder and t.strip() == "?"):
        return None
    if scorer == "gaia":
        return gf.question_scorer(p, t)
    if scorer == "gaia-lenient":
        return gf.lenient_match(p, t)
    return gf.graded_score(p, t).score


COLUMN_KINDS = {
    "polars": lambda v: pl.Series(v, dtype=pl.String),
    "list": list,
    "pa_string": lambda v: pa.array(v, type=pa.string()),
    "pa_large_string": lambda v: pa.array(v, type=pa.large_string()),
    "pa_string_view": lambda v: pa.array(v, type=pa.string_view()),
    "pa_chunked": lambda v: pa.chunked_array([v[:3], v[3:7], v[7:]], type=pa.string()),
}


@pytest.mark.parametrize("scorer", gf.frame.SCORERS)
@pytest.mark.parametrize("kind", COLUMN_KINDS)
def test_score_batch_matches_scalar_for_every_column_kind(scorer, kind):
    make = COLUMN_KINDS[kind]
    got = gf.score_batch(make(PRED), make(TRUTH), scorer)
    assert got.name == "score"
    assert got.to_list() == [scalar(scorer, p, t) for p, t in zip(PRED, TRUTH)]


def test_score_batch_explain_gives_status_and_reason():
    out = gf.score_batch(["1, 0", None, "x"], ["1,000", "17", None], explain=True)
    assert out.columns == ["score", "status", "reason"]
    assert out["score"].to_list() == [True, False, None]
    assert out["status"].cast(pl.String).to_list() == ["ok", "no_prediction", "no_truth"]
    assert out["reason"].to_list() == ["list: all 2 pieces match", 'number: prediction "None" is not a number (truth 17)', None]


def test_chunk_boundaries_of_the_two_columns_need_not_agree():
    n = 5000
    preds = [str(i % 7) for i in range(n)]
    truths = [str(i % 5) for i in range(n)]
    p = pl.concat([pl.Series(preds[:1234]), pl.Series(preds[1234:4000]), pl.Series(preds[4000:])], rechunk=False)
    t = pa.chunked_array([truths[:10], truths[10:4999], truths[4999:]])
    assert p.n_chunks() == 3
    got = gf.score_batch(p, t).to_list()
    assert got == [a == b for a, b in zip(preds, truths)]


def test_score_frame_keeps_the_input_chunking():
    df = pl.concat([frame(), frame(), frame()], rechunk=False)
    assert df["pred"].n_chunks() == 3
    out = gf.score_frame(df, prediction="pred", truth="gold")
    assert out["score"].n_chunks() == 3
    assert out["score"].to_list() == [scalar("gaia", p, t) for p, t in zip(PRED * 3, TRUTH * 3)]


def test_placeholder_truth_can_be_scored_when_asked():
    got = gf.score_batch(["", "x"], ["?", " ? "], placeholder_is_missing=False).to_list()
    assert got == [True, False]  # the reference: "" and "?" both normalise to ""
    assert gf.score_batch(["", "x"], ["?", " ? "]).to_list() == [None, None]


def test_all_null_and_empty_columns():
    assert gf.score_batch(pl.Series([None, None], dtype=pl.String), ["1", None]).to_list() == [False, None]
    assert gf.score_batch(pl.Series([None, None]), ["None", "x"]).to_list() == [True, False]
    assert gf.score_batch([], []).to_list() == []


def test_lone_surrogates_are_scored_like_the_twin():
    preds, truths = ["a\ud800", "x"], ["A\ud800", "y"]
    got = gf.score_batch(preds, truths).to_list()
    assert got == [twin.question_scorer(p, t) for p, t in zip(preds, truths)] == [True, False]


def test_bad_input_is_a_clear_error():
    with pytest.raises(TypeError, match=r"predictions\[1\]: expected str or None, got int"):
        gf.score_batch(["1", 2], ["1", "2"])
    with pytest.raises(TypeError, match="string column"):
        gf.score_batch(pl.Series([1, 2]), pl.Series(["1", "2"]))
    with pytest.raises(ValueError, match="3 rows but truths has 2"):
        gf.score_batch(["1", "2", "3"], ["1", "2"])
    with pytest.raises(ValueError, match="unknown scorer"):
        gf.score_batch(["1"], ["1"], "gaia-strict")
    with pytest.raises(TypeError, match="expected a column"):
        gf.score_batch("12", "12")


def frame() -> pl.DataFrame:
    return pl.DataFrame({"id": range(len(PRED)), "pred": PRED, "gold": TRUTH, "level": [1, 2, 3] * 3 + [1]})


def test_score_frame_keeps_every_row_and_adds_status_and_reason():
    out = gf.score_frame(frame(), prediction="pred", truth="gold", explain=True)
    assert out.columns == ["id", "pred", "gold", "level", "score", "status", "reason"]
    assert out["id"].to_list() == list(range(len(PRED)))
    assert out["score"].to_list() == [scalar("gaia", p, t) for p, t in zip(PRED, TRUTH)]
    status = out["status"].cast(pl.String).to_list()
    assert status[3] == "no_prediction" and status[8] == "no_truth" and status[9] == "no_truth"
    assert status.count("ok") == 7
    reasons = out["reason"].to_list()
    assert reasons[0] == "number: 1000 == 1000"
    assert reasons[1] == twin.official_explained("1, 0", "1,000")[1]
    assert reasons[8] is None


def test_graded_frame_uses_the_level_column():
    df = pl.DataFrame({"prediction": ["Paris", "Paris"], "truth": ["paris", "paris"], "level": [1, 3]})
    out = gf.score_frame(df, "gaia-graded", level="level", explain=True)
    assert out["score"].to_list() == [0.95, 0.9]
    assert out["kind"].cast(pl.String).to_list() == ["normalized", "normalized"]
    assert "level 3" in out["reason"][1]


def test_score_frame_lazy_and_arrow_return_their_own_type():
    lazy = gf.score_frame(frame().lazy(), prediction="pred", truth="gold")
    assert isinstance(lazy, pl.LazyFrame)
    eager = gf.score_frame(frame(), prediction="pred", truth="gold")
    assert lazy.collect(engine="streaming").equals(eager)
    table = gf.score_frame(frame().to_arrow(), prediction="pred", truth="gold")
    assert isinstance(table, pa.Table) and table.num_rows == len(PRED)
    assert table.column("score").to_pylist() == eager["score"].to_list()


def test_score_frame_names_a_missing_column():
    with pytest.raises(KeyError, match="truth column 'truth' not in frame"):
        gf.score_frame(frame(), prediction="pred")


def test_expr_runs_in_streaming_engine_and_sink_parquet(tmp_path):
    n = 300_000  # several morsels
    df = pl.DataFrame({"p": [str(i % 11) for i in range(n)], "t": [str(i % 13) for i in range(n)]})
    src, dst = tmp_path / "in.parquet", tmp_path / "out.parquet"
    df.write_parquet(src, row_group_size=50_000)
    want = [a == b for a, b in zip(df["p"], df["t"])]
    lazy = pl.scan_parquet(src).with_columns(gf.expr.score("p", "t"))
    assert lazy.collect(engine="streaming")["score"].to_list() == want
    lazy.sink_parquet(dst)
    assert pq.read_table(dst).column("score").to_pylist() == want


def test_expr_accepts_expressions_and_other_scorers():
    df = pl.DataFrame({"p": ["17000", "Paris"], "t": ["17", "PARIS"]})
    out = df.select(
        gf.expr.score(pl.col("p"), pl.col("t"), "gaia-lenient").alias("lenient"),
        gf.expr.score("p", "t", "gaia-graded").alias("graded"),
    )
    assert out["lenient"].to_list() == [True, True]
    assert out["graded"].to_list() == [0.0, 0.95]
