"""Ray Data: the batch function, grade_dataset's summary and `grade --engine ray` give the
local path's decisions, statuses and summaries, row for row, on a local Ray instance."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.json as pj
import pytest
from click.testing import CliRunner

# Ray binds to the host's address unless told that no cluster will join: keep the test
# instance (and its workers) on 127.0.0.1.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray", reason="Ray Data is not installed (pip install 'gaia-fast[ray]')")

import gaia_fast as gf  # noqa: E402
from gaia_fast.cli import main  # noqa: E402
from gaia_fast.grading.summary import score_archive, summary  # noqa: E402
from gaia_fast.integrations import ray as gfr  # noqa: E402

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "gaia"
SCORERS = ("gaia", "gaia-lenient", "gaia-graded")


@pytest.fixture(scope="module")
def ray_local():
    """One local Ray instance for the module (starting one takes seconds), on 127.0.0.1."""
    from ray._private import ray_constants

    no_cluster, ray_constants.ENABLE_RAY_CLUSTER = ray_constants.ENABLE_RAY_CLUSTER, False
    t0 = time.perf_counter()
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.WARNING,
        _node_ip_address="127.0.0.1",
    )
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.execution_options.preserve_order = True
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    logging.getLogger("gaia_fast").info("ray started in %.1f s", time.perf_counter() - t0)
    assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")
    yield ray
    ray.shutdown()
    ray_constants.ENABLE_RAY_CLUSTER = no_cluster


@pytest.fixture(scope="module")
def official() -> pa.Table:
    """gaia_official.jsonl plus a level column (1-3, and null) for the per-level summary."""
    t = pj.read_json(DATA / "gaia_official.jsonl")
    n = t.num_rows
    levels = pa.array([None if i % 7 == 0 else 1 + i % 3 for i in range(n)], pa.int64())
    return t.append_column("level", levels)


def _local(table: pa.Table, scorer: str, explain: bool = False) -> pl.DataFrame:
    frame = pl.from_arrow(table)
    return gf.score_frame(frame, scorer, "prediction", "truth", level="level", explain=explain)


def _same_floats(a: float | None, b: float | None) -> bool:
    return a == b if a is None or b is None else a == pytest.approx(b, rel=1e-12, abs=1e-12)


def _assert_same_summary(ray_s: dict, local_s: dict, graded: bool) -> None:
    assert ray_s.keys() == local_s.keys()
    for k in ("rows", "tasks", "excluded", "status_counts"):
        assert ray_s[k] == local_s[k], k
    assert [(r["level"], r["tasks"], r["excluded"]) for r in ray_s["levels"]] == [
        (r["level"], r["tasks"], r["excluded"]) for r in local_s["levels"]
    ]
    pairs = [("correct", ray_s["correct"], local_s["correct"])]
    pairs += [(k, ray_s[k], local_s[k]) for k in ("accuracy_macro", "accuracy_weighted")]
    for a, b in zip(ray_s["levels"], local_s["levels"], strict=True):
        pairs += [("level correct", a["correct"], b["correct"]), ("level accuracy", a["accuracy"], b["accuracy"])]
    for name, a, b in pairs:
        if graded:
            # graded scores are summed in another order across blocks: last-ulp freedom
            assert _same_floats(a, b), (name, a, b)
        else:
            assert a == b and type(a) is type(b), (name, a, b)


def test_import_does_not_import_ray():
    import subprocess
    import sys

    code = "import sys, gaia_fast, gaia_fast.integrations; print('ray' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


@pytest.mark.parametrize("scorer", SCORERS)
def test_batch_function_matches_local_row_for_row(ray_local, official, scorer):
    ds = ray.data.from_arrow(official).repartition(5)
    fn = gfr.ScoreBatch(scorer, "prediction", "truth", level="level", explain=True)
    got = pl.from_arrow(
        pa.concat_tables(ds.map_batches(fn, batch_format="pyarrow", batch_size=1000).iter_batches(batch_format="pyarrow", batch_size=None))
    )
    want = _local(official, scorer, explain=True)
    assert got.height == official.num_rows == want.height
    # input columns come back untouched, in order
    assert got.select("prediction", "truth", "expected", "level").equals(pl.from_arrow(official))
    assert got.get_column("score").equals(want.get_column("score"), null_equal=True)
    for col in ("status", "reason", *(("kind",) if scorer == "gaia-graded" else ())):
        assert got.schema[col] == pl.String
        assert got.get_column(col).equals(want.get_column(col).cast(pl.String), null_equal=True), col
    if scorer == "gaia":
        # the conformance expectations on every row that has a decision (GAIA's "?"
        # placeholder, in any spacing, is no_truth here)
        exp = got.filter(pl.col("status") != "no_truth")
        assert exp.height > 20_000
        assert exp.get_column("score").equals(exp.get_column("expected"))


def test_batch_function_columns_and_errors(ray_local):
    t = pa.table(
        {
            "p": pa.array(["42", None, "x"], pa.large_string()),
            "t": pa.array(["42.0", "a", None]).dictionary_encode(),
            "score": [9, 9, 9],
        }
    )
    out = gfr.ScoreBatch("gaia", "p", "t", status=False)(t)
    # an existing score column is replaced (as score_frame does); no status asked for
    assert out.column_names == ["p", "t", "score"]
    assert out.column("score").to_pylist() == [True, False, None]
    assert out.column("p").chunks[0].buffers()[2].address == t.column("p").chunks[0].buffers()[2].address  # no copy
    graded = gfr.ScoreBatch("gaia-graded", "p", "t", prefix="g_")(t)
    assert graded.column_names == ["p", "t", "score", "g_score", "g_status", "g_kind"]
    assert graded.column("g_status").to_pylist() == ["ok", "no_prediction", "no_truth"]
    with pytest.raises(TypeError, match="prediction column 'score' is Arrow int64"):
        gfr.ScoreBatch("gaia", "score", "t")(t)
    with pytest.raises(KeyError, match="truth column 'nope'"):
        gfr.ScoreBatch("gaia", "p", "nope")(t)
    with pytest.raises(ValueError, match="unknown scorer"):
        gfr.ScoreBatch("exact")


@pytest.mark.parametrize("scorer", ["gaia", "gaia-graded"])  # lenient shares gaia's Boolean path
def test_grade_dataset_summary_equals_local(ray_local, official, scorer):
    ds = ray.data.from_arrow(official).repartition(4)
    scored, s = gfr.grade_dataset(ds, scorer=scorer, prediction="prediction", truth="truth", level="level")
    want = _local(official, scorer)
    _assert_same_summary(s, summary(want), scorer == "gaia-graded")
    assert scored.count() == official.num_rows
    got = pl.from_arrow(pa.concat_tables(scored.iter_batches(batch_format="pyarrow", batch_size=None)))
    assert got.get_column("score").equals(want.get_column("score"), null_equal=True)


def test_grade_dataset_without_level_and_empty(ray_local, official):
    ds = ray.data.from_arrow(official.drop_columns(["level"]))
    _, s = gfr.grade_dataset(ds, scorer="gaia")
    want = gf.score_frame(pl.from_arrow(official.drop_columns(["level"])), "gaia")
    _assert_same_summary(s, summary(want), False)
    assert [r["level"] for r in s["levels"]] == [None]
    empty = official.slice(0, 0)
    _, s0 = gfr.grade_dataset(ray.data.from_arrow(empty), scorer="gaia", level="level")
    assert s0 == summary(_local(empty, "gaia"))


def test_archive_batch_is_the_local_archive_path(ray_local):
    """With input statuses (bad_type, unknown_task, …) the batch function of the CLI path
    gives what score_archive gives."""
    from gaia_fast.datasets.gaia import join_metadata

    meta = pl.DataFrame({"task_id": ["a", "b", "c"], "truth": ["1", "x", "?"], "level": [1, 2, 3], "question": ["q"] * 3, "file_name": [""] * 3})
    frame = pl.DataFrame(
        {
            "task_id": ["a", "b", "c", "zz"],
            "prediction": ["1.0", None, "y", "w"],
            "input_status": [None, "bad_type", None, None],
            "input_reason": [None, "prediction 'p' is a JSON number (1), not a string", None, None],
        }
    )
    got = pl.from_arrow(gfr.ArchiveBatch("gaia", metadata=meta)(frame.to_arrow()))
    want = score_archive(join_metadata(frame, meta).head(frame.height), "gaia")
    assert got.get_column("status").to_list() == want.get_column("status").cast(pl.String).to_list() == [
        "ok",
        "bad_type",
        "no_truth",
        "unknown_task",
    ]
    assert got.get_column("score").to_list() == want.get_column("score").to_list()


# --------------------------------------------------------------------------- the command line


def _cli(*args):
    return CliRunner().invoke(main, ["grade", *map(str, args)], catch_exceptions=False)


def _pair(tmp_path: Path, archive, *extra):
    """Run grade locally and on Ray with the same options; return both (json, comparison
    bytes, --out frame, stderr)."""
    res = []
    for engine in ("local", "ray"):
        d = tmp_path / engine
        d.mkdir(parents=True)
        out = d / "all.parquet"
        # Ray grades every row of a rerun task and runs no audits (local engine only).
        local = ("--duplicates", "all") if engine == "local" else ()
        r = _cli(archive, *extra, *local, "--engine", engine, "--comparison", d / "cmp.csv", "--out", out, "--json")
        assert r.exit_code == 0, r.output
        s = json.loads(r.stdout)
        s.pop("audit", None)
        res.append((s, (d / "cmp.csv").read_bytes(), pl.read_parquet(out), r.stderr))
    return res


def _same_out(a: pl.DataFrame, b: pl.DataFrame) -> None:
    strings = [c for c, t in a.schema.items() if t in (pl.Categorical,) or isinstance(t, pl.Enum)]
    a = a.with_columns(pl.col(strings).cast(pl.String))
    assert a.columns == b.columns
    assert a.equals(b.select(a.columns).cast(a.schema), null_equal=True)


def test_cli_engine_ray_equals_local_on_example(ray_local, tmp_path):
    (loc, cmp_l, out_l, _), (ray_s, cmp_r, out_r, _) = _pair(tmp_path, EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset")
    assert ray_s.pop("engine") == "ray"
    for k in ("comparison", "out"):
        loc.pop(k), ray_s.pop(k)
    assert ray_s == loc
    assert cmp_r == cmp_l
    _same_out(out_l, out_r)


def test_cli_engine_ray_statuses_and_parquet_parts(ray_local, tmp_path):
    meta_dir = tmp_path / "GAIA" / "2023" / "validation"
    meta_dir.mkdir(parents=True)
    tasks = {f"t{i}": (str(i), 1 + i % 3) for i in range(40)}
    tasks["q"] = ("?", 2)
    (meta_dir / "metadata.jsonl").write_text(
        "".join(json.dumps({"task_id": t, "Question": "?", "Level": lv, "Final answer": a, "file_name": ""}) + "\n" for t, (a, lv) in tasks.items())
    )
    rows = [{"task_id": f"t{i}", "prediction": str(i) if i % 4 else f"{i}.0 units", "note": i} for i in range(0, 36)]
    rows += [{"task_id": "t1", "prediction": "dup"}, {"task_id": "nope", "prediction": "x"}, {"task_id": "q", "prediction": "y"}]
    rows[0]["truth"], rows[5]["truth"], rows[6]["truth"] = "0", "wrong", "also wrong"  # two differ from the metadata
    src = tmp_path / "r.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows) + json.dumps({"task_id": "t37", "prediction": 37}) + "\n")
    (loc, cmp_l, out_l, err_l), (ray_s, cmp_r, out_r, err_r) = _pair(tmp_path / "jsonl", src, "--metadata", tmp_path / "GAIA")
    for s in (loc, ray_s):
        s.pop("comparison"), s.pop("out"), s.pop("engine", None)
    assert ray_s == loc
    for err in (err_l, err_r):
        assert "1 task id(s) occur more than once" in err and ": t1" in err
        assert "2 row(s) carry a truth that differs from the metadata's" in err
    assert set(loc["status_counts"]) == {"ok", "missing", "unknown_task", "no_truth", "bad_type"}
    assert cmp_r == cmp_l
    _same_out(out_l, out_r)

    # the same archive as a folder of Parquet parts (read with ray.data.read_parquet), by URI
    parts = tmp_path / "parts"
    parts.mkdir()
    frame = pl.DataFrame(rows, schema={"task_id": pl.String, "prediction": pl.String, "truth": pl.String, "note": pl.Int64})
    for i, chunk in enumerate(frame.iter_slices(10)):
        chunk.write_parquet(parts / f"part-{i}.parquet")
    r = _cli(f"file://{parts}", "--metadata", tmp_path / "GAIA", "--engine", "ray", "--comparison", tmp_path / "p.csv", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    first = loc["status_counts"]
    assert s["status_counts"] == {**{k: v for k, v in first.items() if k != "bad_type"}, "missing": first["missing"] + 1}
    assert (s["rows"], s["input_rows"]) == (loc["rows"], len(rows))


def test_cli_engine_ray_table_and_errors(ray_local, tmp_path):
    src = tmp_path / "r.jsonl"
    src.write_text('{"task_id": "a", "prediction": "1", "truth": "1", "level": 1}\n{"task_id": "b", "prediction": "2", "truth": "3", "level": 2}\n')
    r = _cli(src, "--engine", "ray", "--comparison", tmp_path / "c.csv")
    assert r.exit_code == 0, r.output
    assert "Accuracy by level" in r.stdout and "engine ray" in r.stdout and "50.0%" in r.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "a", "prediction": "1", "truth": "1"}\n{oops\n')
    r = _cli(bad, "--engine", "ray", "--comparison", tmp_path / "c2.csv")
    assert r.exit_code == 2 and "bad.jsonl:2: invalid JSON" in r.stderr
    skip = [_cli(bad, "--skip-bad-lines", "--engine", e, "--comparison", tmp_path / f"s-{e}.csv", "--json") for e in ("local", "ray")]
    assert [x.exit_code for x in skip] == [0, 0]
    loc, on_ray = (json.loads(x.stdout) for x in skip)
    assert on_ray["skipped_lines"] == loc["skipped_lines"] and loc["skipped_lines"][0]["line"] == 2
    assert (on_ray["rows"], on_ray["correct"]) == (loc["rows"], loc["correct"]) == (1, 1)
    pq = tmp_path / "bad.parquet"
    pl.DataFrame({"task_id": [1.5], "prediction": ["a"], "truth": ["a"]}).write_parquet(pq)
    r = _cli(pq, "--engine", "ray", "--comparison", tmp_path / "c3.csv")
    assert r.exit_code == 2 and "task id column is Float64" in r.stderr
    r = _cli(src, "--engine", "ray", "--compare", "gaia-lenient")
    assert r.exit_code == 2 and "--compare" in r.output
    r = _cli(src, "--ray-address", "auto")
    assert r.exit_code == 2 and "--engine ray" in r.output
    assert not (tmp_path / "c2.csv").exists() and not (tmp_path / "c3.csv").exists()
