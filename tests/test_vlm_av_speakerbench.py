"""AV-SpeakerBench: ``tests/data/vlmevalkit_ocr_families/m_AV-SpeakerBench_8frame.xlsx`` was
graded by VLMEvalKit's own ``AVSpeakerBench.evaluate`` at e8e78f05 (README there); gaia-fast
grades the same file: the ``_rating.json`` values and every row's score must be equal."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import av_speakerbench as avs

DATA = Path(__file__).parent / "data" / "vlmevalkit_ocr_families"
STEM = "m_AV-SpeakerBench_8frame"


def test_rating_and_rows_equal_the_reference() -> None:
    res = avs.grade(read_result_table(DATA / f"{STEM}.xlsx"))
    theirs = json.loads((DATA / f"{STEM}_rating.json").read_text())
    ours = res.report.to_dicts()[0]
    assert list(ours) == list(theirs) and list(ours["by_task"]) == list(theirs["by_task"])
    assert ours == theirs  # exact floats
    scored = pl.read_excel(DATA / f"{STEM}_score.xlsx", infer_schema_length=0)
    assert [float(x) for x in scored["score"].to_list()] == res.rows["score"].to_list()
    assert res.stats["rules"] == {"fallback": 2, "missing": 4, "token": 25}
    assert res.rows["status"].to_list().count("shared_index") == 1  # index 3 twice: the later row decides


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("The answer is C.", "C"),
        ("<think>A</think><answer>b</answer>", "B"),
        ("(d)", "D"),
        ("nothing", "A"),  # the reference's fallback
        ("Best answer: D", "D"),
        ("xyz b", "B"),
        (None, "A"),
    ],
)
def test_parse_choice(text: str | None, letter: str) -> None:
    assert avs.parse_choice(text)[0] == letter


def test_registry_maps_every_name() -> None:
    rows = [json.loads(x) for x in (Path(__file__).parent / "data" / "vlmevalkit_datasets.jsonl").read_text().splitlines()]
    names = [r["name"] for r in rows if r["class"] == "AVSpeakerBench"]
    assert len(names) == 13
    for name in names:
        b = benchmarks.for_dataset(name)
        assert b is not None and b.module == "gaia_fast.scorers.vlm.av_speakerbench", name
    assert benchmarks.for_dataset("AV-SpeakerBench_audio_only") is None  # not a configuration upstream
