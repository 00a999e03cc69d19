"""ImageShortQADataset (LiveMMBench, HLE, EMMA, PathVQA, MMESCI): can_infer for the option
rows, the recorded judge verdicts for the rest, ``report_acc``; compared cell by cell with
the reports VLMEvalKit's own code wrote. Data: tests/data/vlmevalkit_math_judged/README.md."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from gaia_fast import benchmarks
from gaia_fast.cli import main
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import shortqa
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_math_judged" / "shortqa"
NAMES = {"LiveMMBench_Infographic": (2, 9), "MMESCI_EN": (1, 4)}


def _assert_same_report(ours: pl.DataFrame, path: Path) -> None:
    theirs = pl.read_csv(path, infer_schema_length=0)
    assert ours.columns == theirs.columns
    assert ours.height == theirs.height
    for a, b in zip(ours.iter_rows(), theirs.iter_rows()):
        assert a[0] == b[0]
        assert list(a[1:]) == [float(x) for x in b[1:]]


@pytest.mark.parametrize("name", sorted(NAMES))
@pytest.mark.parametrize("variant", ["2026-06", "classic"])
def test_archive_report_is_reproduced_cell_by_cell(name, variant):
    path = DATA / f"m_{name}.xlsx"
    rec = find_records(path)
    assert rec.kind == "shortqa" and [p.name for p in rec.files] == [f"m_{name}_judge.xlsx", f"m_{name}_tmp.pkl"]
    res = shortqa.grade(read_result_table(path), recorded=rec, variant=variant)
    _assert_same_report(res.report, path.with_name(f"m_{name}_acc.csv"))
    rules, recorded = NAMES[name]
    assert res.stats["decided"] == {"rules": rules, "recorded": recorded, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] is True and res.stats["record_disagreements"] == 0
    # Each row's score is the hit VLMEvalKit wrote in _judge.xlsx.
    judged = pl.read_excel(path.with_name(f"m_{name}_judge.xlsx"), infer_schema_length=0)
    assert res.rows["score"].cast(pl.Int64).cast(pl.String).to_list() == judged["hit"].to_list()


def test_option_rows_are_decided_by_the_rule_and_the_rest_need_a_judge(tmp_path):
    path = DATA / "m_LiveMMBench_Infographic.xlsx"
    none = shortqa.grade(read_result_table(path), recorded=find_records(path), judge_policy="none")
    assert none.stats["decided"] == {"rules": 2, "recorded": 0, "live": 0, "undecided": 9}
    assert none.rows.filter(pl.col("status") == "ok")["index"].to_list() == ["5", "6"]
    assert none.report["Overall"].to_list() == [0.5]
    # A verdict missing from both records, and one contradicting the rule.
    shutil.copy(path, tmp_path)
    table = pl.read_excel(path.with_name("m_LiveMMBench_Infographic_judge.xlsx"), infer_schema_length=0)
    table = table.filter(pl.col("index") != "1").with_columns(
        pl.when(pl.col("index") == "5").then(pl.lit("0")).otherwise(pl.col("hit")).alias("hit")
    )
    table.write_excel(tmp_path / "m_LiveMMBench_Infographic_judge.xlsx")
    p = tmp_path / path.name
    res = shortqa.grade(read_result_table(p), recorded=find_records(p))
    assert res.stats["decided"]["undecided"] == 1 and res.rows["status"][0] == "needs_judge"
    assert res.stats["record_disagreements"] == 1 and res.stats["matches_archive"] is False
    assert res.rows["score"][4] == 1.0  # the rule's verdict, not the record's


def test_bad_input_is_named():
    frame = read_result_table(DATA / "m_MMESCI_EN.xlsx")
    with pytest.raises(ValueError, match="no 'answer' column"):
        shortqa.grade(frame.drop("answer"))
    with pytest.raises(ValueError, match="live judging is not supported"):
        shortqa.grade(frame, judge=lambda p: "yes")


def test_registry_maps_the_family():
    names = ["hle", "hle_verified", "LiveMMBench_Infographic", "LiveMMBench_Perception", "LiveMMBench_Reasoning",
             "LiveMMBench_Reasoning_circular", "LiveMMBench_Spatial", "EMMA", "EMMA_COT", "PathVQA_VAL",
             "PathVQA_TEST", "MMESCI_VisionOnly", "MMESCI_ZH", "MMESCI_EN", "MMESCI_FR", "MMESCI_ES", "MMESCI_JA"]  # fmt: skip
    for name in names:
        found = benchmarks.detect(Path(f"m/m_{name}.xlsx"))
        assert found is not None and found.benchmark.name == "shortqa" and found.dataset == name, name
    entry = benchmarks.get("shortqa")
    assert not any(re.fullmatch(rx, "LiveMMBench_Creation") for rx in entry.datasets)  # its own evaluate
    assert [entry.variant_on(d) for d in ("2025-03-01", "2025-09-01", "2026-08-18")] == ["classic", "2025-08", "2026-06"]


def test_cli_checks_each_archive_report(tmp_path, monkeypatch):
    shutil.copytree(DATA, tmp_path / "m")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", "m", "--as-of", "2026-08-18", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    archives = json.loads(r.output)["archives"]
    assert [(a["dataset"], a["status"]) for a in archives] == [
        ("LiveMMBench_Infographic", "ok"), ("LiveMMBench_Reasoning_circular", "ok"), ("MMESCI_EN", "ok"),
    ]  # fmt: skip
    assert all(a["archive_report"].endswith("_acc.csv") for a in archives)


@pytest.mark.parametrize("variant", ["2026-06", "classic"])
def test_circular_set_is_reproduced_one_verdict_per_question(variant):
    path = DATA / "m_LiveMMBench_Reasoning_circular.xlsx"
    rec = find_records(path)
    assert sorted(rec.entries) == ["1", "2", "3", "4", "5"]  # keyed by the main index
    res = shortqa.grade(read_result_table(path), recorded=rec, variant=variant)
    _assert_same_report(res.report, path.with_name("m_LiveMMBench_Reasoning_circular_acc.csv"))
    assert res.stats["decided"] == {"rules": 2, "recorded": 3, "live": 0, "undecided": 0}
    assert res.stats["decided_unit"] == "questions" and res.stats["tasks"] == 5 and res.stats["matches_archive"] is True
    by_index = dict(zip(res.rows["index"].to_list(), zip(res.rows["score"].to_list(), res.rows["status"].to_list())))
    assert by_index["1000002"] == (0.0, "ok")  # rotation 1 read as another letter: the question fails by rule
    assert by_index["1000003"] == (1.0, "ok")  # a rotation without a letter: the recorded judge decides
    assert by_index["1000006"] == (None, "not_counted")  # no main row 6: upstream never reads it
    # Without the recorded verdicts, the judge's three questions need a judge.
    none = shortqa.grade(read_result_table(path), recorded=rec, variant=variant, judge_policy="none")
    assert none.stats["decided"] == {"rules": 2, "recorded": 0, "live": 0, "undecided": 3}
