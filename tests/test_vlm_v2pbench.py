"""V2P-Bench: ``tests/data/vlmevalkit_ocr_families/m_V2PBench_8frame_nopack.xlsx`` was graded by
VLMEvalKit's own ``V2PBench.evaluate`` at e8e78f05 (README there); gaia-fast grades the same
file: the ``_score.txt`` must be byte-identical and every row's score equal."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import read_report
from gaia_fast.io.vlm import read_result_table
from gaia_fast.io.writers import write_report
from gaia_fast.scorers.vlm import v2pbench as v2p

DATA = Path(__file__).parent / "data" / "vlmevalkit_ocr_families"
STEM = "m_V2PBench_8frame_nopack"


def test_text_report_and_rows_equal_the_reference(tmp_path: Path) -> None:
    res = v2p.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    assert res.stats["reference_error"] is None
    assert res.report.equals(read_report(DATA / f"{STEM}_score.txt"))
    out = tmp_path / f"{STEM}_score.txt"
    write_report(res.report, out)
    assert out.read_bytes() == (DATA / f"{STEM}_score.txt").read_bytes()
    theirs = pl.read_excel(DATA / f"{STEM}_score.xlsx", infer_schema_length=0)["score"].to_list()
    assert [None if t is None else float(t) for t in theirs] == res.rows["score"].to_list()
    # index 5 twice: its first row decides position 5; position 7 is never written
    assert res.rows["status"].to_list().count("unscored") == 1 and res.rows["status"][7] == "unscored"


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("The answer is C", "C"),
        ("<think>B or D</think>D", "D"),
        ("Based on the video, c", "B"),  # the capital of "Based", as upstream
        ("it is not clear from the frames which of the four it is at all really", ""),
        ("Option: A.", "A"),
        ("d", ""),
    ],
)
def test_extract_choice(text: str, letter: str) -> None:
    assert v2p.extract_choice(text) == letter


def test_reference_errors() -> None:
    frame = read_result_table(DATA / f"{STEM}.xlsx").with_columns(pl.Series("index", [str(i + 100) for i in range(40)]))
    res = v2p.grade(frame)
    assert "not a row position" in res.stats["reference_error"] and res.report.height == 0
    bad_dim = read_result_table(DATA / f"{STEM}.xlsx").with_columns(pl.lit("17").alias("dimension"))
    assert "IndexError" in v2p.grade(bad_dim).stats["reference_error"]


def test_registry_maps_every_name() -> None:
    rows = [json.loads(x) for x in (Path(__file__).parent / "data" / "vlmevalkit_datasets.jsonl").read_text().splitlines()]
    names = [r["name"] for r in rows if r["class"] == "V2PBench"]
    assert len(names) == 7
    for name in names:
        b = benchmarks.for_dataset(name)
        assert b is not None and b.module == "gaia_fast.scorers.vlm.v2pbench" and b.report == "_score.txt", name
