"""The streaming grade plan gives the same outputs, byte for byte, as grading the whole
archive in memory (read_archive -> score_archive -> write_comparison_csv / write_table),
whatever the input format, the block and partition sizes, and dedupe on or off."""

from __future__ import annotations

import json
import random
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import gaia_fast.grading.archive as archive
import gaia_fast.io.readers as readers
from gaia_fast.cli import main
from gaia_fast.datasets.gaia import join_metadata, load_metadata
from gaia_fast.grading.summary import score_archive, summary
from gaia_fast.io.readers import read_archive, scan_archive
from gaia_fast.io.writers import write_comparison_csv, write_table

ANSWERS = ["17", "17.0", "1,250", "$1,250", "Paris", "paris ", "a, b; c", 'say "hi"', "", "line\nbreak", "ünï", "3.14159", "?", None]


def rows(n: int, seed: int = 0, distinct_ids: int = 40) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        tid = None if rng.random() < 0.02 else f"t{rng.randrange(distinct_ids):03d}"
        out.append(
            {
                "task_id": tid,
                "prediction": rng.choice(ANSWERS),
                "true_answer": rng.choice(ANSWERS[:-1]),
                "task": rng.choice([1, 2, 3, None]),
                "extra": rng.randrange(1000),
                "note": rng.choice(["x", "y,z", None]),
            }
        )
    return out


def eager_outputs(path: Path, tmp: Path, *, scorer: str = "gaia", meta: pl.DataFrame | None = None, **cols) -> tuple[bytes, pl.DataFrame, dict]:
    frame, _skipped, _layout = read_archive(path, with_layout=True, **cols)
    if meta is not None:
        frame = join_metadata(frame, meta)
    scored = score_archive(frame, scorer)
    cmp = tmp / "eager_cmp.csv"
    write_comparison_csv(scored, cmp)
    out = tmp / "eager_out.parquet"
    write_table(scored.drop("input_status", "input_reason", strict=False), out)
    return cmp.read_bytes(), pl.read_parquet(out), summary(scored)


def stream_outputs(path: Path | str, tmp: Path, *, scorer: str = "gaia", meta: pl.DataFrame | None = None, dedupe: str = "auto", sort_budget: int = archive.SORT_BUDGET, **cols):
    return stream_outputs_of(scan_archive(path, **cols), tmp, scorer=scorer, meta=meta, dedupe=dedupe, sort_budget=sort_budget)


def stream_outputs_of(scan, tmp: Path, *, scorer: str = "gaia", meta: pl.DataFrame | None = None, dedupe: str = "auto", sort_budget: int = archive.SORT_BUDGET):
    cmp = tmp / "stream_cmp.csv"
    out = tmp / "stream_out.parquet"
    got = archive.grade_scan(
        scan, meta=meta, scorer=scorer, compare=None, explain=False, comparison=cmp, out=out, limit=10, want_duplicates=True, dedupe=dedupe, sort_budget=sort_budget
    )
    return cmp.read_bytes(), pl.read_parquet(out), got


def write_jsonl(path: Path, data: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data), encoding="utf-8")
    return path


@pytest.mark.parametrize("scorer", ["gaia", "gaia-lenient", "gaia-graded"])
@pytest.mark.parametrize("dedupe", ["on", "off", "auto"])
def test_parquet_stream_equals_eager(tmp_path, scorer, dedupe):
    path = tmp_path / "a.parquet"
    pl.DataFrame(rows(6000)).write_parquet(path, row_group_size=700)
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, scorer=scorer, truth_col="true_answer")
    # A tiny sort budget forces several range partitions (and a null-id partition).
    s_cmp, s_out, got = stream_outputs(path, tmp_path, scorer=scorer, dedupe=dedupe, sort_budget=20_000, truth_col="true_answer")
    assert s_cmp == e_cmp
    assert s_out.equals(e_out)
    assert got.summary == e_sum
    assert got.duplicates == 40
    if dedupe == "on":
        assert got.dedupe.deduped > 0 and got.dedupe.scored < got.dedupe.rows
    if dedupe == "off":
        assert got.dedupe.deduped == 0 and got.dedupe.scored == got.dedupe.rows


def test_all_distinct_pairs_turn_dedupe_off(tmp_path):
    path = tmp_path / "a.parquet"
    n = 20_000
    pl.DataFrame({"task_id": [f"t{i}" for i in range(n)], "prediction": [str(i) for i in range(n)], "truth": [str(i + (i % 2)) for i in range(n)]}).write_parquet(path)
    _, _, got = stream_outputs(path, tmp_path, dedupe="auto")
    assert got.summary["correct"] == n // 2
    assert got.dedupe.deduped == 0  # every batch probed as all-distinct was scored directly


def test_jsonl_blocks_equal_eager(tmp_path, monkeypatch):
    data = rows(3000, seed=1)
    data[5].update(prediction=17, true_answer="17")  # a bad_type row
    data[2500]["prediction"] = ["a"]  # a bad_type row in a later block
    path = write_jsonl(tmp_path / "a.jsonl", data)
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    monkeypatch.setattr(readers, "_BLOCK_BYTES", 4096)  # many blocks
    s_cmp, s_out, got = stream_outputs(path, tmp_path, truth_col="true_answer")
    assert s_cmp == e_cmp
    assert s_out.equals(e_out)
    assert got.summary == e_sum and got.summary["status_counts"]["bad_type"] == 2


def test_jsonl_bad_line_in_a_later_block_names_its_line(tmp_path, monkeypatch):
    lines = [json.dumps(r) for r in rows(2000, seed=2)]
    lines[1500] = '{"task_id": "t1", "prediction": '
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(readers, "_BLOCK_BYTES", 2048)
    with pytest.raises(readers.InputError) as e:
        stream_outputs(path, tmp_path, truth_col="true_answer")
    assert str(e.value).startswith(f"{path}:1501: invalid JSON")
    scan = scan_archive(path, truth_col="true_answer", skip_bad_lines=True)
    archive.grade_scan(scan, meta=None, scorer="gaia", compare=None, explain=False, comparison=tmp_path / "c.csv", out=None, limit=1, want_duplicates=False)
    assert [(s.line, s.message.split(":")[0]) for s in scan.skipped] == [(1501, "invalid JSON")]


def test_csv_stream_equals_eager(tmp_path):
    path = tmp_path / "a.csv"
    pl.DataFrame(rows(4000, seed=3)).write_csv(path)
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum


def test_csv_bad_row_found_by_rescan(tmp_path):
    path = tmp_path / "a.csv"
    body = "task_id,prediction,truth\n" + "".join(f"t{i},{i},{i}\n" for i in range(5000))
    lines = body.splitlines(keepends=True)
    lines[3001] = "t3000,1,2,3\n"
    path.write_text("".join(lines))
    with pytest.raises(readers.InputError) as e:
        stream_outputs(path, tmp_path)
    assert str(e.value) == f"{path}:3002: expected 3 fields, found 4"


@pytest.mark.parametrize("how", ["folder", "list"])
def test_parquet_parts_are_one_archive(tmp_path, how):
    data = pl.DataFrame(rows(3000, seed=4))
    whole = tmp_path / "whole.parquet"
    data.write_parquet(whole)
    parts = tmp_path / "parts"
    parts.mkdir()
    for i, start in enumerate(range(0, 3000, 1000)):
        data.slice(start, 1000).write_parquet(parts / f"part-{i:03d}.parquet")
    e_cmp, e_out, e_sum = eager_outputs(whole, tmp_path, truth_col="true_answer")
    if how == "folder":
        s_cmp, s_out, got = stream_outputs(parts, tmp_path, truth_col="true_answer")
    else:
        scan = readers.scan_parquet_parts(sorted(parts.glob("part-*.parquet")), parts, {"truth_col": "true_answer"})
        s_cmp, s_out, got = stream_outputs_of(scan, tmp_path)
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum


def test_folder_with_other_files_is_not_a_parquet_table(tmp_path):
    (tmp_path / "p.parquet").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("x")
    assert readers.parquet_parts(tmp_path) is None


def test_metadata_lookup_equals_join(tmp_path):
    data = rows(3000, seed=5, distinct_ids=30)
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path)
    meta_dir = tmp_path / "meta" / "2023" / "validation"
    meta_dir.mkdir(parents=True)
    # t000..t034: five tasks have no row; t025..t029 rows are unknown to the metadata
    tasks = [{"task_id": f"t{i:03d}", "Question": "?", "Level": 1 + i % 3, "Final answer": ANSWERS[i % 8], "file_name": ""} for i in range(35) if not 25 <= i < 30]
    write_jsonl(meta_dir / "metadata.jsonl", tasks)
    meta = load_metadata(tmp_path / "meta", "validation")
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, meta=meta, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, meta=meta, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert got.summary["status_counts"]["missing"] == 5 and got.summary["status_counts"]["unknown_task"] > 0
    assert got.input_rows == 3000


def test_cli_folder_of_parts_is_one_archive(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    parts = tmp_path / "parts"
    parts.mkdir()
    for i in range(2):
        pl.DataFrame({"task_id": [f"a{i}", f"b{i}"], "prediction": ["1", "2"], "truth": ["1", "3"]}).write_parquet(parts / f"p{i}.parquet")
    (parts / "_SUCCESS").write_text("")
    r = CliRunner().invoke(main, ["grade", str(parts), "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert (s["rows"], s["correct"]) == (4, 2)
    assert (tmp_path / "answer_comparison.csv").read_text().splitlines()[1:] == ["a0,0,1,1,True", "a1,0,1,1,True", "b0,0,3,2,False", "b1,0,3,2,False"]


def test_mostly_distinct_ids_stream_equals_eager(tmp_path):
    path = tmp_path / "a.parquet"
    data = rows(5000, seed=6, distinct_ids=10**9)
    data[10]["task_id"] = data[20]["task_id"] = "same"
    pl.DataFrame(data).write_parquet(path)
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=50_000, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert got.duplicates >= 1 and "same" in got.duplicate_examples


def test_progress_bar_counts_rows_and_bytes_and_is_off_with_json(tmp_path, monkeypatch):
    import sys

    from rich.progress import Progress

    grade_cli = sys.modules["gaia_fast.cli.grade"]  # the package exports the command under this name

    path = tmp_path / "a.parquet"
    pl.DataFrame(rows(5000, seed=7)).write_parquet(path, row_group_size=1000)
    infos: list[str] = []
    real_update = Progress.update

    def update(self, task, **kw):
        if "info" in kw:
            infos.append(kw["info"])
        return real_update(self, task, **kw)

    monkeypatch.setattr(Progress, "update", update)
    monkeypatch.setattr(grade_cli, "_PROGRESS_ROWS", 1000)  # "long" from 1000 rows on
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", str(path), "--truth-col", "true_answer"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert infos and infos[-1].startswith("5,000/5,000 rows · ") and infos[-1].endswith(f"/{grade_cli._human_bytes(path.stat().st_size)}")
    infos.clear()
    r = CliRunner().invoke(main, ["grade", str(path), "--truth-col", "true_answer", "--json"], catch_exceptions=False)
    assert r.exit_code == 0 and infos == []


def _eager_duplicates(path: Path, **cols) -> tuple[int, list[str]]:
    frame, _skipped, _layout = read_archive(path, with_layout=True, **cols)
    ids = frame.get_column("task_id")
    counts = ids.drop_nulls().value_counts()
    dup = counts.filter(pl.col("count") > 1).get_column("task_id").sort()
    return len(dup), dup.head(5).to_list()


@pytest.mark.parametrize("budget", [archive.SORT_BUDGET, 20_000, 500])
def test_already_sorted_ids_are_copied_in_order(tmp_path, monkeypatch, budget):
    # Sorted ids (nulls last) in range partitions larger than the budget (500 bytes) are
    # copied without a sort, a few rows at a time: runs of one id cross the batch edges
    # and are counted once. (Partitions that fit the budget are held as lines and
    # ordered natively, sorted or not.)
    data = rows(4000, seed=8, distinct_ids=300)
    data.sort(key=lambda r: (r["task_id"] is None, r["task_id"] or ""))
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path)
    monkeypatch.setattr(archive, "_BATCH_ROWS", 7)
    sorts = []
    real = archive._ComparisonOut.write_sorting
    monkeypatch.setattr(archive._ComparisonOut, "write_sorting", lambda *a: sorts.append(1) or real(*a))
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=budget, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert not sorts or budget > 500
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")


@pytest.mark.parametrize("nulls", [False, True])
def test_sorted_archive_with_ranges_planned_is_copied_without_split_or_sort(tmp_path, monkeypatch, nulls):
    # Ranges are planned before the pass (a Parquet table larger than the budget); the
    # comparison rows come out of the pass in task-id order, so they are copied as they
    # are: no split by range, no sort. Unsorted, the same plan sorts each range.
    data = rows(5000, seed=23, distinct_ids=2000)
    if not nulls:
        data = [r for r in data if r["task_id"] is not None]
    data.sort(key=lambda r: (r["task_id"] is None, r["task_id"] or ""))
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path, row_group_size=300)
    monkeypatch.setattr(archive, "_BATCH_ROWS", 64)
    splits, sorts = [], []
    real_split, real_sort = archive._split, archive._ComparisonOut.write_sorting
    monkeypatch.setattr(archive, "_split", lambda *a: splits.append(1) or real_split(*a))
    monkeypatch.setattr(archive._ComparisonOut, "write_sorting", lambda *a: sorts.append(1) or real_sort(*a))
    planned = []
    real_plan = archive._plan_partitions
    monkeypatch.setattr(archive, "_plan_partitions", lambda *a: planned.append(real_plan(*a)) or planned[-1])
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=40_000, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert planned[-1] and not splits and not sorts
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")
    assert got.duplicates > 100
    random.Random(1).shuffle(data)
    pl.DataFrame(data).write_parquet(path, row_group_size=300)
    e_cmp, _, _ = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, _, _ = stream_outputs(path, tmp_path, sort_budget=40_000, truth_col="true_answer")
    assert s_cmp == e_cmp and sorts


def test_one_heavy_id_among_distinct_ones_is_partitioned_and_equal(tmp_path, monkeypatch):
    # One id holds most rows: its range partition cannot be split further and is
    # copied as it is (it is sorted); the others are split again or sorted in memory.
    data = rows(6000, seed=9, distinct_ids=10**9)
    for i, r in enumerate(data):
        if i % 5:
            r["task_id"] = "t5000"
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path, row_group_size=500)
    monkeypatch.setattr(archive, "_BATCH_ROWS", 64)
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=20_000, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")


def test_runs_count_each_duplicated_id_once_across_chunks():
    ids = ["a", "a", "a", "b", "c", "c", "d", "e", "e", "e", "e", None, None]
    whole = archive._Runs()
    whole.feed(pl.Series(ids, dtype=pl.String))
    for size in (1, 2, 3, 5):
        r = archive._Runs()
        for i in range(0, len(ids), size):
            r.feed(pl.Series(ids[i : i + size], dtype=pl.String))
        assert (r.count, r.first) == (whole.count, whole.first) == (3, ["a", "c", "e"])


@pytest.mark.parametrize("sort", [False, True])
def test_comparison_lines_are_the_bytes_of_the_csv_writer(sort):
    # The streamed comparison's lines are built natively from the rows of the pass, in
    # order or sorting them; they must be the bytes write_comparison_rows gives the same
    # rows, whatever the text holds.
    from io import BytesIO

    from gaia_fast.io.writers import comparison_exprs, write_comparison_rows

    rng = random.Random(11)
    alphabet = ['a', 'Z', '0', ' ', ',', '"', '\r', '\n', '\t', ';', "'", 'é', '日', '\u2028', '\x00', '\\', '=', '-', '""', '\r\n']

    def text():
        r = rng.random()
        if r < 0.08:
            return None
        if r < 0.16:
            return ""
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 8)))

    n = 3000
    frame = pl.DataFrame(
        {
            "task_id": [text() for _ in range(n)],
            "prediction": [text() for _ in range(n)],
            "truth": [text() for _ in range(n)],
            "level": [rng.choice([1, 2, None]) for _ in range(n)],
            "score": [rng.choice([True, False, None]) for _ in range(n)],
            "status": [rng.choice(["ok", "no_truth", "unknown_task", "missing", None]) for _ in range(n)],
        }
    )
    a, b = BytesIO(), BytesIO()
    rows = frame.select(comparison_exprs(frame.schema))
    if sort:
        rows = rows.sort("task_id", nulls_last=True, maintain_order=True)
    write_comparison_rows(rows, a, header=True)
    out = archive._ComparisonOut(b)
    if sort:
        rows_in_batches = frame.select(comparison_exprs(frame.schema))
        out.write_sorting(rows_in_batches.slice(i, 700) for i in range(0, n, 700))
    else:
        out.write(rows)
    assert b.getvalue() == a.getvalue()
    assert b.getvalue().count(b'"') > 100  # quoting was exercised


def test_partitions_split_again_when_one_pass_cannot_reach_the_budget(tmp_path, monkeypatch):
    path = tmp_path / "a.parquet"
    pl.DataFrame(rows(6000, seed=12, distinct_ids=700)).write_parquet(path)
    monkeypatch.setattr(archive, "_FANOUT", 2)
    depths = []
    real = archive._emit_sorted
    monkeypatch.setattr(archive, "_emit_sorted", lambda *a, **k: depths.append(a[-1] if len(a) > 6 else k.get("depth", 0)) or real(*a, **k))
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=20_000, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert max(depths) >= 3
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")


@pytest.mark.parametrize("fmt", ["parquet", "jsonl", "csv"])
def test_ranges_are_chosen_before_the_pass(tmp_path, monkeypatch, fmt):
    # A comparison larger than the budget is written once with its task-id range
    # (bounds from a sample read before the pass: slices of a Parquet table, the head
    # of a text file); a small one is not split at all.
    data = rows(5000, seed=21, distinct_ids=10**9)
    path = tmp_path / f"a.{fmt}"
    if fmt == "parquet":
        pl.DataFrame(data).write_parquet(path, row_group_size=300)
    elif fmt == "jsonl":
        write_jsonl(path, data)
    else:
        pl.DataFrame(data).write_csv(path)
    planned = []
    real = archive._plan_partitions
    monkeypatch.setattr(archive, "_plan_partitions", lambda *a: planned.append(real(*a)) or planned[-1])
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=40_000, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert planned[-1] is not None and len(planned[-1]) >= 2
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")
    s_cmp, _, _ = stream_outputs(path, tmp_path, sort_budget=archive.SORT_BUDGET, truth_col="true_answer")
    assert s_cmp == e_cmp and planned[-1] is None


def test_bad_lines_are_reported_once_when_ranges_are_sampled(tmp_path):
    # The head sample is read on the side: a skipped line is reported by the pass only.
    data = rows(3000, seed=22, distinct_ids=10**9)
    path = tmp_path / "a.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in data[:10]) + "{not json\n" + "".join(json.dumps(r) + "\n" for r in data[10:])
    path.write_text(text, encoding="utf-8")
    scan = scan_archive(path, truth_col="true_answer", skip_bad_lines=True)
    _, _, got = stream_outputs_of(scan, tmp_path, sort_budget=30_000)
    assert [s.line for s in scan.skipped] == [11]
    assert got.summary["rows"] == 3000


def test_dedupe_auto_goes_the_way_that_timed_faster():
    # auto times batches both ways (alternating, dedupe first) and then keeps the
    # cheaper per row, timing the other way again every _REPROBE batches.
    d = archive.Dedupe("auto")
    ways = []
    for _ in range(2 * archive._PROBES):
        way = d.plan()
        ways.append(way)
        d.record(10_000, 100 if way else None, way, 0.004 if way else 0.001)  # dedupe 4x slower
    assert ways == [True, False] * archive._PROBES
    assert d.choice() is False
    later = [d.plan() for _ in range(2 * archive._REPROBE)]
    assert later.count(True) == 2 and later.count(False) == 2 * archive._REPROBE - 2
    e = archive.Dedupe("auto")
    for _ in range(2 * archive._PROBES):
        way = e.plan()
        e.record(10_000, 100 if way else None, way, 0.001 if way else 0.004)
    assert e.choice() is True and e.plan() is True
    assert archive.Dedupe("on").plan() is True and archive.Dedupe("off").plan() is False


@pytest.mark.parametrize("budget", [archive.SORT_BUDGET, 40_000])
@pytest.mark.parametrize("scorer", ["gaia", "gaia-graded"])
def test_comparison_is_the_same_whatever_out_is(tmp_path, budget, scorer):
    # Whatever --out is (none, Parquet, CSV, JSON Lines), the comparison is the same
    # bytes, with metadata (unknown and missing tasks), a second scorer and
    # explanations, split into ranges or not.
    data = rows(3000, seed=31, distinct_ids=900)
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path, row_group_size=400)
    ids = sorted({r["task_id"] for r in data if r["task_id"] is not None})
    meta = pl.DataFrame({"task_id": ids[::2] + ["zz-missing"], "truth": [f"m{i}" for i in range(len(ids[::2]))] + ["x"], "level": [1, 2, 3] * (len(ids[::2]) // 3) + [1] * (len(ids[::2]) % 3 + 1)})
    e_cmp, _, _ = eager_outputs(path, tmp_path, scorer=scorer, meta=meta, prediction_col="prediction", truth_col="true_answer")
    got = {}
    for out in [None, "o.parquet", "o.csv", "o.jsonl"]:
        cmp = tmp_path / f"cmp-{out}.csv"
        archive.grade_scan(
            scan_archive(path, truth_col="true_answer"), meta=meta, scorer=scorer, compare="gaia-lenient", explain=True,
            comparison=cmp, out=tmp_path / out if out else None, limit=5, want_duplicates=True, sort_budget=budget,
        )
        got[out] = cmp.read_bytes()
    assert all(v == e_cmp for v in got.values()), [k for k, v in got.items() if v != e_cmp]


@pytest.mark.parametrize("budget", [archive.SORT_BUDGET, 20_000])
def test_no_comparison_writes_none_and_finds_the_same_duplicates(tmp_path, budget):
    # comparison=None (the command's --comparison none): the scored table, the summary and
    # the duplicated task ids are those of a grade that writes the comparison.
    path = tmp_path / "a.parquet"
    pl.DataFrame(rows(6000, seed=5, distinct_ids=3000)).write_parquet(path, row_group_size=700)
    _, s_out, full = stream_outputs(path, tmp_path, sort_budget=budget, truth_col="true_answer")
    out = tmp_path / "none_out.parquet"
    before = set(tmp_path.iterdir())
    got = archive.grade_scan(
        scan_archive(path, truth_col="true_answer"), meta=None, scorer="gaia", compare=None, explain=False, comparison=None, out=out,
        limit=10, want_duplicates=True, sort_budget=budget,
    )
    assert set(tmp_path.iterdir()) - before == {out}  # no comparison, no scratch left behind
    assert pl.read_parquet(out).equals(s_out)
    assert got.summary == full.summary and got.comparison_rows == full.comparison_rows == 6000
    assert (got.duplicates, got.duplicate_examples) == (full.duplicates, full.duplicate_examples)
    assert got.duplicates > 100


def test_command_comparison_none(tmp_path):
    path = tmp_path / "a.parquet"
    pl.DataFrame(rows(500)).write_parquet(path)
    base = ["grade", str(path), "--truth-col", "true_answer"]
    r = CliRunner().invoke(main, [*base, "--comparison", str(tmp_path / "c.csv"), "--out", str(tmp_path / "with.parquet")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, [*base, "--comparison", "none", "--out", str(tmp_path / "o.parquet")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "No comparison written" in r.output
    assert not (tmp_path / "none").exists() and [p.name for p in tmp_path.glob("*.csv")] == ["c.csv"]
    # The default rerun policy applies as with a comparison: the same rows graded.
    assert pl.read_parquet(tmp_path / "o.parquet").equals(pl.read_parquet(tmp_path / "with.parquet"))
    assert 0 < pl.read_parquet(tmp_path / "o.parquet").height < 500


def test_profile_names_each_step_of_the_grade(tmp_path, monkeypatch):
    # GAIA_FAST_PROFILE (the benchmark's profile): wall seconds of each step, ordering apart
    # from writing the lines.
    path = tmp_path / "a.parquet"
    pl.DataFrame(rows(3000, seed=26, distinct_ids=10**9)).write_parquet(path, row_group_size=300)
    archive.PROFILE.clear()
    monkeypatch.setenv("GAIA_FAST_PROFILE", str(tmp_path / "profile.json"))
    r = CliRunner().invoke(main, ["grade", str(path), "--truth-col", "true_answer", "--comparison", str(tmp_path / "c.csv"), "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    got = json.loads((tmp_path / "profile.json").read_text())
    for step in ("pass: read, score, --out, comparison rows", "score (summed over batches)", "comparison: build lines", "comparison: ordering (native sort)", "comparison: write lines"):
        assert got[step] >= 0.0, step
    assert got["pass: read, score, --out, comparison rows"] > 0.0


@pytest.mark.parametrize("path_kind", ["scan", "split", "heavy"])
def test_few_ranges_are_read_by_filtered_scans_and_equal_the_split(tmp_path, monkeypatch, path_kind):
    # Up to _SCAN_RANGES ranges are read straight from the pass's file, one filtered scan
    # each; more (or a range over the budget: one heavy id) go through the split. Every
    # path writes the eager writer's bytes.
    data = rows(5000, seed=33, distinct_ids=10**9)
    if path_kind == "heavy":
        for r in data[:2500]:
            r["task_id"] = "heavy"
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path, row_group_size=300)
    if path_kind == "split":
        monkeypatch.setattr(archive, "_SCAN_RANGES", 0)
    used = []
    real_split, real_ranges = archive._split, archive._sorted_ranges
    monkeypatch.setattr(archive, "_split", lambda *a: used.append("split") or real_split(*a))
    monkeypatch.setattr(archive, "_sorted_ranges", lambda *a: used.append("scan") or real_ranges(*a))
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=120_000, truth_col="true_answer")
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")
    # a range over the budget (the heavy id's) is written apart and split again
    assert used == {"scan": ["scan"], "split": ["split"], "heavy": ["scan", "split"]}[path_kind], used


def test_split_into_many_files_per_range_keeps_archive_order(tmp_path, monkeypatch):
    # A range's split is written as several files (each of _SPLIT_FILE_ROWS rows at most,
    # so no open file's footer grows with the archive); rows of one task id spread over
    # several files must come out in archive order (the sort is stable), as the eager
    # writer's bytes.
    data = rows(5000, seed=41, distinct_ids=300)
    path = tmp_path / "a.parquet"
    pl.DataFrame(data).write_parquet(path, row_group_size=300)
    monkeypatch.setattr(archive, "_SCAN_RANGES", 0)
    monkeypatch.setattr(archive, "_SPLIT_FILE_ROWS", 97)
    files = []
    real_files = archive._partition_files
    monkeypatch.setattr(archive, "_partition_files", lambda *a: files.extend(real_files(*a)) or files[-len(real_files(*a)):])
    e_cmp, e_out, e_sum = eager_outputs(path, tmp_path, truth_col="true_answer")
    s_cmp, s_out, got = stream_outputs(path, tmp_path, sort_budget=120_000, truth_col="true_answer")
    assert files and max(len(f) for f in files) > 5
    assert s_cmp == e_cmp and s_out.equals(e_out) and got.summary == e_sum
    assert (got.duplicates, got.duplicate_examples) == _eager_duplicates(path, truth_col="true_answer")
    assert got.duplicates > 100
