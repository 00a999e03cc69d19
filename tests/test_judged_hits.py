"""AyaVisionBench, VLMBias, Asclepius (``judged_hits``): the recorded verdicts replayed, the
report compared cell by cell with what VLMEvalKit's own ``evaluate`` wrote (scripted judge).
Data: tests/data/vlmevalkit_step1/README.md."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading import many
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import judged_hits
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_step1"
CASES = [
    ("aya_2025-09", "SynthModel_AyaVisionBench", "ayavision", "_acc.csv"),
    ("aya_head", "SynthModel_AyaVisionBench", "ayavision", "_acc.csv"),
    ("vlmbias_2025-09", "SynthModel_VLMBias", "vlmbias", "_acc.csv"),
    ("vlmbias_head", "SynthModel_VLMBias", "vlmbias", "_acc.csv"),
    ("asclepius_head", "SynthModel_Asclepius", "asclepius", "_gpt-4o-mini_score.csv"),
]


def _csv(path: Path) -> tuple[list[str], list[str]]:
    with path.open() as f:
        header, values = list(csv.reader(f))
    return header, values


@pytest.mark.parametrize(("sub", "stem", "bench", "report"), CASES)
def test_report_matches_vlmevalkit(sub, stem, bench, report):
    path = DATA / sub / f"{stem}.xlsx"
    records = find_records(path, "judged_hits")
    assert records is not None and records.judge in ("gpt-4o-mini", "gpt-4o")
    res = judged_hits.grade(read_result_table(path), benchmark=bench, recorded=records)
    header, values = _csv(DATA / sub / f"{stem}{report}")
    assert res.report.columns == header
    assert [str(v) if isinstance(v, str) else v for v in res.report.row(0)] == [v if v == "none" else float(v) for v in values]
    assert res.stats["matches_archive"] and res.stats["decided"]["undecided"] == 0


def test_without_records():
    frame = read_result_table(DATA / "vlmbias_head" / "SynthModel_VLMBias.xlsx")
    res = judged_hits.grade(frame, benchmark="vlmbias")
    # the brace rule decides the six rows it matches; the judge's three need a judge
    assert res.stats["decided"] == {"rules": 6, "recorded": 0, "live": 0, "undecided": 3}
    assert res.report.height == 0 and res.rows["status"].to_list()[4] == "needs_judge"
    aya = judged_hits.grade(read_result_table(DATA / "aya_head" / "SynthModel_AyaVisionBench.xlsx"), benchmark="ayavision")
    assert set(aya.rows["status"]) == {"needs_judge"} and aya.report.height == 0
    asc = judged_hits.grade(read_result_table(DATA / "asclepius_head" / "SynthModel_Asclepius.xlsx"), benchmark="asclepius")
    assert asc.stats["status"] == {"missing_truth": 1, "needs_judge": 7}


def test_rule_and_bad_records():
    assert judged_hits.omni_rule("{4} or rather {3}", "3")[0]
    assert judged_hits.omni_rule("{The Two}", "2")[0] and judged_hits.omni_rule("{isnt}", "isn't")[0]
    assert not judged_hits.omni_rule("five or so", "5")[0]
    path = DATA / "aya_head" / "SynthModel_AyaVisionBench.xlsx"
    records = find_records(path, "judged_hits")
    records.entries["2"]["hit"] = "maybe"
    res = judged_hits.grade(read_result_table(path), benchmark="ayavision", recorded=records)
    assert res.rows["status"][2] == "error" and res.report.height == 0
    with pytest.raises(ValueError, match="live judging"):
        judged_hits.grade(pl.DataFrame({"index": ["1"], "answer": ["a"], "prediction": ["a"]}), benchmark="ayavision", judge=object())


def test_registry_and_executor(tmp_path):
    for name, bench, grading in (("AyaVisionBench", "ayavision", "judge"), ("VLMBias", "vlmbias", "rules+judge-fallback"), ("Asclepius", "asclepius", "judge")):
        b = benchmarks.for_dataset(name)
        assert b is not None and b.name == bench and b.grading == grading
    for sub, stem, _, _ in CASES:
        tree = tmp_path / sub / "SynthModel"
        tree.mkdir(parents=True)
        for f in (DATA / sub).iterdir():
            if f.name != "returned.json":
                shutil.copy(f, tree / f.name)
        (record,) = [r for r in many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / sub / "R") if r.status != "skipped"]
        assert record.status == "ok" and record.archive_report is not None and record.undecided == 0, (sub, record.status, record.error)
