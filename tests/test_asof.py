"""``--as-of DATE`` (each benchmark's date -> variant table), single-file auto-detection, and
``mcq_vanilla_eval``'s index keying (SEEDBench2, whose indexes repeat)."""

from __future__ import annotations

import csv
import datetime as dt
import importlib
import json
import math
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gaia_fast import benchmarks
from gaia_fast.cli import main
from gaia_fast.reference.vlm_mcq import mcq_vanilla_eval
from gaia_fast.scorers.vlm import mcq

DATA = Path(__file__).parent / "data"
TREE = DATA / "vlmevalkit_tree"
SEED2 = DATA / "vlmevalkit_mcq" / "vila_8b_SEEDBench2.xlsx"
SEED2_HITS = DATA / "vlmevalkit_mcq" / "vila_8b_SEEDBench2_hits.csv"
SEED2_INDEX = DATA / "vlmevalkit_mcq" / "vila_8b_SEEDBench2_index.csv"
EXAMPLES = Path(__file__).parent.parent / "examples" / "gaia"


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def _run(*args):
        return CliRunner().invoke(main, ["grade", *map(str, args)], catch_exceptions=False)

    return _run


# ----------------------------------------------------------------------------- date -> variant


@pytest.mark.parametrize(
    ("name", "day", "variant"),
    [
        # can_infer: classic from c6bdffd3, 2025-08 from c3371551, 2026-06 from a67ace50.
        ("mcq", "2024-03-19", "classic"),
        ("mcq", "2024-07-27", "classic"),
        ("mcq", "2025-08-03", "classic"),
        ("mcq", "2025-08-04", "2025-08"),
        ("mmt-bench", "2026-06-16", "2025-08"),
        ("mcq-circular", "2026-06-17", "2026-06"),
        ("mcq", "2030-01-01", "2026-06"),
        # YOrN_Extraction: the period rule of 928a95b0.
        ("mme", "2025-05-12", "classic"),
        ("pope", "2025-05-13", "2025-05"),
        ("hallusionbench", "2024-07-27", "classic"),
        # PHYSICS: 8f07d6cf, a039b677, 1e2b2f99.
        ("atomic", "2025-04-18", "8f07d6cf"),
        ("atomic", "2025-12-24", "8f07d6cf"),
        ("atomic", "2025-12-25", "a039b677"),
        ("atomic", "2026-03-18", "a039b677"),
        ("atomic", "2026-03-19", "head"),
        ("olympiadbench", "2024-11-16", "vlmevalkit"),
        ("omni3dbench", "2025-06-06", "vlmevalkit"),
        ("vmcbench", "2025-03-05", None),
        ("livexivvqa", "2025-07-29", "dcvlr"),
        ("mmmu", "2023-12-22", "2023-12"),
    ],
)
def test_variant_on_boundaries(name, day, variant):
    assert benchmarks.variant_on(name, day) == variant
    assert benchmarks.get(name).variant_on(dt.date.fromisoformat(day)) == variant


@pytest.mark.parametrize(
    ("name", "day", "first"),
    [
        ("mcq", "2024-03-18", "2024-03-19"),
        ("mme", "2023-12-31", "2024-03-19"),
        ("olympiadbench", "2024-11-15", "2024-11-16"),
        ("omni3dbench", "2025-06-05", "2025-06-06"),
        ("vmcbench", "2025-03-04", "2025-03-05"),
        ("atomic", "2025-04-17", "2025-04-18"),
    ],
)
def test_a_date_before_the_first_entry_is_an_error_naming_it(name, day, first):
    with pytest.raises(ValueError, match=f"{name}: --as-of {day} is before {first}"):
        benchmarks.variant_on(name, day)


def test_variant_on_rejects_non_dates_and_tableless_benchmarks():
    with pytest.raises(ValueError, match="not a date"):
        benchmarks.variant_on("mcq", "27/07/2024")
    with pytest.raises(ValueError, match="gaia: no date table"):
        benchmarks.variant_on("gaia", "2024-07-27")
    assert benchmarks.variant_on("mcq", dt.datetime(2025, 8, 4, 0, 0)) == "2025-08"


def _accepted(entry: benchmarks.Benchmark) -> tuple:
    module = importlib.import_module(entry.module)
    if entry.name == "vmcbench":
        return (None,)
    return tuple(getattr(module, "VARIANTS"))


@pytest.mark.parametrize("name", [n for n in benchmarks.names() if n != "gaia"])
def test_every_vlmevalkit_benchmark_has_a_sorted_table_of_variants_its_module_accepts(name):
    entry = benchmarks.get(name)
    assert entry.variants, f"{name} has no date table"
    days = [dt.date.fromisoformat(d) for d, _ in entry.variants]
    assert days == sorted(days) and len(set(days)) == len(days)
    for _, variant in entry.variants:
        assert variant in _accepted(entry), (name, variant)


# ----------------------------------------------------------------------------- --as-of, CLI


def test_as_of_single_file_picks_the_variant_of_that_day(run, tmp_path):
    mmstar = TREE / "vila_8b" / "vila_8b_MMStar.xlsx"
    got = {}
    for day in ("2025-08-03", "2025-08-04", "2026-06-17"):
        r = run(mmstar, "--as-of", day, "--acc", tmp_path / f"{day}.csv", "--json")
        assert r.exit_code == 0, r.output
        payload = json.loads(r.stdout)
        assert payload["benchmark"] == "mcq" and payload["as_of"] == day
        got[day] = payload["variant"]
    assert got == {"2025-08-03": "classic", "2025-08-04": "2025-08", "2026-06-17": "2026-06"}
    r = run(mmstar, "--as-of", "2024-07-27", "--acc", tmp_path / "t.csv")
    assert r.exit_code == 0, r.output
    assert "(variant classic as of 2024-07-27)" in r.stdout
    # The tree's date reproduces the archive's report.
    ours = pl.read_csv(tmp_path / "t.csv")
    theirs = pl.read_csv(TREE / "vila_8b" / "vila_8b_MMStar_acc.csv")
    assert ours.columns == theirs.columns
    assert ours.row(0) == theirs.row(0)


def test_as_of_with_variant_is_a_usage_error(run):
    r = run(TREE / "vila_8b" / "vila_8b_MMStar.xlsx", "--as-of", "2024-07-27", "--variant", "classic")
    assert r.exit_code == 2
    assert "--as-of" in r.output and "--variant" in r.output


def test_as_of_before_a_benchmark_existed_is_a_clear_error(run):
    r = run(TREE / "vila_8b" / "vila_8b_MME.xlsx", "--as-of", "2024-01-01")
    assert r.exit_code == 2
    assert "vila_8b_MME.xlsx: mme: --as-of 2024-01-01 is before 2024-03-19" in r.output


def test_as_of_rejects_a_malformed_date(run):
    r = run(TREE / "vila_8b" / "vila_8b_MME.xlsx", "--as-of", "July 2024")
    assert r.exit_code == 2
    assert "July 2024" in r.output


def _tree_copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(TREE, tree)
    return tree


def test_as_of_on_a_tree_names_each_files_variant_everywhere(run, tmp_path):
    tree = _tree_copy(tmp_path)
    summary = tmp_path / "summary.csv"
    r = run(tree, "--as-of", "2025-06-01", "--report-dir", tmp_path / "rep", "--summary", summary, "--json")
    assert r.exit_code == 0, r.output
    payload = json.loads(r.stdout)
    assert payload["as_of"] == "2025-06-01"
    archives = {Path(a["path"]).name: a for a in payload["archives"]}
    # 2025-06-01: can_infer still classic, YOrN_Extraction already 2025-05.
    want = {
        "vila_8b_MMStar.xlsx": "classic",
        "vila_8b_CCBench.xlsx": "classic",
        "vila_8b_MME.xlsx": "2025-05",
        "vila_8b_POPE.xlsx": "2025-05",
        "vila_8b_HallusionBench.xlsx": "2025-05",
    }
    for name, variant in want.items():
        assert archives[name]["status"] == "ok", archives[name]
        assert archives[name]["variant"] == variant, name
    with open(summary, newline="", encoding="utf-8") as f:
        table = {Path(row["path"]).name: row["variant"] for row in csv.DictReader(f)}
    for name, variant in want.items():
        assert table[name] == variant
    r = run(tree, "--as-of", "2026-07-01", "--report-dir", tmp_path / "rep2")
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stdout.splitlines() if "vila_8b_MMStar.xlsx" in line]
    assert lines and "2026-06" in lines[0]


def test_as_of_the_trees_date_reproduces_every_report_of_the_sample(run, tmp_path):
    tree = _tree_copy(tmp_path)
    rep = tmp_path / "rep"
    r = run(tree, "--as-of", "2024-07-27", "--report-dir", rep, "--json")
    assert r.exit_code == 0, r.output
    compared = 0
    for theirs in sorted((tree / "vila_8b").glob("*_acc.csv")) + sorted((tree / "vila_8b").glob("*_score.csv")):
        ours = rep / "vila_8b" / theirs.name
        with open(theirs, newline="") as f:
            want = list(csv.DictReader(f))
        with open(ours, newline="") as f:
            got = list(csv.DictReader(f))
        key = next(iter(want[0]))
        want_rows = {row[key]: row for row in want}
        got_rows = {row[key]: row for row in got}
        assert want_rows.keys() == got_rows.keys(), theirs.name
        for k, row in want_rows.items():
            assert list(row) == list(got_rows[k]), theirs.name
            for col, value in row.items():
                if col == key:
                    continue
                a, b = float(value), float(got_rows[k][col])
                assert a == b or (math.isnan(a) and math.isnan(b)), (theirs.name, k, col, value, got_rows[k][col])
                compared += 1
    assert compared > 100


def test_as_of_before_one_familys_first_day_fails_that_file_only(run, tmp_path):
    tree = _tree_copy(tmp_path)
    r = run(tree, "--as-of", "2024-03-01", "--report-dir", tmp_path / "rep", "--json")
    assert r.exit_code == 1
    archives = json.loads(r.stdout)["archives"]
    errors = [a for a in archives if a["status"] == "error"]
    # Each family names its own first day (ChartQA's relaxed accuracy begins on 2024-03-27).
    assert errors and all(re.search(r"is before 2024-03-(19|27)", a["error"]) for a in errors)


# ----------------------------------------------------------------------------- single file auto


def test_one_vlmevalkit_file_is_graded_by_its_dataset_name(run, tmp_path):
    r = run(TREE / "vila_8b" / "vila_8b_MME.xlsx", "--json")
    assert r.exit_code == 0, r.output
    payload = json.loads(r.stdout)
    assert payload["benchmark"] == "mme" and payload["variant"] == "classic"
    written = tmp_path / "vila_8b_MME_score.csv"
    assert written.is_file()
    theirs = pl.read_csv(TREE / "vila_8b" / "vila_8b_MME_score.csv")
    assert pl.read_csv(written).columns == theirs.columns


def test_one_gaia_archive_is_still_graded_as_gaia(run):
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset")
    assert r.exit_code == 0, r.output
    assert "Overall (weighted)" in r.stdout


def test_one_csv_without_a_dataset_name_is_gaia(run, tmp_path):
    path = tmp_path / "my_run.csv"
    path.write_text("task_id,prediction,truth\nt1,42,42\nt2,a,b\n", encoding="utf-8")
    r = run(path, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["correct"] == 1


# ----------------------------------------------------------------------------- SEEDBench2


def _seed2_hits() -> dict[int, int]:
    with open(SEED2_HITS, newline="") as f:
        return {int(r["index"]): int(r["hit"]) for r in csv.DictReader(f)}


def _seed2_full() -> pl.DataFrame:
    """The whole SEEDBench2 table's shape: its full index column (the evaluation order
    depends on all of it), with the sample's rows at their own places and empty rows
    elsewhere."""
    index = pl.read_csv(SEED2_INDEX)["index"]
    sample = pl.read_excel(SEED2)
    blank = pl.DataFrame({"row": pl.Series(range(index.len()), dtype=pl.Int64), "index": index})
    cells = sample.drop("index").with_columns(pl.col("row").cast(pl.Int64))
    return blank.join(cells, on="row", how="left", maintain_order="left")


def test_seedbench2_every_sample_row_gets_the_archives_hit():
    full = _seed2_full()
    result = mcq.grade(full, benchmark="mcq")
    hits = _seed2_hits()
    rows = result.rows.filter(pl.col("prediction").is_not_null())
    assert rows.height == 366
    got = [int(s) for s in rows["score"].to_list()]
    want = [hits[k] for k in rows["index"].to_list()]
    assert got == want
    stats = result.stats
    assert stats["shared_index_groups"] == 3099 and stats["duplicate_index_rows"] == 6198
    # The 32 indexes whose two rows disagree are decided by the evaluation order alone: the
    # last row of each in the file would give other numbers.
    assert stats["shared_index_conflicts"] == 32
    file_last = {}
    twin = mcq_vanilla_eval(full.to_dicts(), variant="classic")
    for i, r in enumerate(full.to_dicts()):
        file_last[r["index"]] = i
    differs = [i for i, t in enumerate(twin) if t["from_row"] != file_last[full["index"][i]]]
    assert differs
    assert [t["hit"] for t in twin] == [int(s) for s in result.rows["score"].to_list()]


def test_seedbench2_sample_rows_explain_the_shared_index():
    result = mcq.grade(pl.read_excel(SEED2), benchmark="mcq")
    stats = result.stats
    moved = result.rows.filter(pl.col("reason").str.contains("is shared with row"))
    assert moved.height == stats["duplicate_index_rows"] - stats["shared_index_groups"] > 0
    other = result.rows.filter(pl.col("reason").str.contains("scored against the answer of row"))
    assert other.height > 0
    lo, hi = stats["shared_index_correct_range"]
    assert lo <= float(result.rows["score"].sum()) <= hi and lo < hi


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.integers(-3, 40), max_size=300), st.lists(st.text("ab", max_size=3), max_size=120)))
def test_quicksort_order_is_numpys(keys):
    import numpy as np

    arr = np.empty(len(keys), dtype=object)
    arr[:] = keys
    assert mcq._quicksort_order(list(keys)) == np.argsort(arr, kind="quicksort").tolist()


def test_seedbench2_matches_the_twin_row_by_row():
    frame = pl.read_excel(SEED2)
    result = mcq.grade(frame, benchmark="mcq")
    twin = mcq_vanilla_eval(frame.to_dicts(), variant="classic")
    assert result.rows["extracted"].to_list() == [t["opt"] for t in twin]
    assert [int(s) for s in result.rows["score"].to_list()] == [t["hit"] for t in twin]
    assert result.report["Overall"][0] == pytest.approx(sum(t["hit"] for t in twin) / len(twin), abs=0)


def test_seedbench2_file_through_the_cli(run, tmp_path):
    acc = tmp_path / "acc.csv"
    r = run(SEED2, "--acc", acc, "--json")
    assert r.exit_code == 0, r.output
    payload = json.loads(r.stdout)
    assert payload["benchmark"] == "mcq"
    assert payload["stats"]["shared_index_conflicts"] == 32
    twin = mcq_vanilla_eval(pl.read_excel(SEED2).to_dicts(), variant="classic")
    assert pl.read_csv(acc)["Overall"][0] == sum(t["hit"] for t in twin) / len(twin)


_letters = st.sampled_from(["A", "B", "C", "D", "Z"])
_row = st.fixed_dictionaries(
    {
        "index": st.integers(0, 5),
        "answer": _letters,
        "prediction": st.one_of(_letters, st.sampled_from(["A cat", "dog", "B. dog", "the bird", "C fish", "x"])),
        "A": st.sampled_from(["cat", "dog"]),
        "B": st.sampled_from(["dog", "bird"]),
        "C": st.sampled_from(["bird", "fish"]),
        "D": st.sampled_from(["fish", "cat"]),
    }
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_row, min_size=1, max_size=14))
def test_shared_index_flow_matches_the_twin(rows):
    frame = pl.DataFrame(rows, schema={"index": pl.Int64, "answer": pl.String, "prediction": pl.String, **dict.fromkeys("ABCD", pl.String)})
    result = mcq.grade(frame, benchmark="mcq")
    twin = mcq_vanilla_eval(rows, variant="classic")
    assert [int(s) for s in result.rows["score"].to_list()] == [t["hit"] for t in twin]
    assert result.rows["extracted"].to_list() == [t["opt"] for t in twin]
    hits = [t["hit"] for t in twin]
    assert result.report["Overall"][0] == pytest.approx(sum(hits) / len(hits), abs=1e-15)
