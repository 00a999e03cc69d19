"""VisFactor: the archives in ``tests/data/vlmevalkit_ocr_families/`` were graded by
VLMEvalKit's own ``VisFactor.evaluate`` at four commits (README there); gaia-fast grades the
same files and every report cell and every row's verdict and extracted answer must be equal."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import visfactor

DATA = Path(__file__).parent / "data" / "vlmevalkit_ocr_families"
STEMS = ("m_VisFactor", "m_VisFactor_CoT")


def _frame(stem: str) -> pl.DataFrame:
    return read_result_table(DATA / f"{stem}.xlsx")


@pytest.mark.parametrize("stem", STEMS)
def test_head_report_and_rows_equal_the_reference(stem: str) -> None:
    res = visfactor.grade(_frame(stem))
    theirs = pl.read_csv(DATA / f"{stem}_acc.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    for c in theirs.columns:
        assert res.report[c][0] == float(theirs[c][0]), c
    verbose = pl.read_excel(DATA / f"{stem}_verbose.xlsx", infer_schema_length=0)
    assert verbose.height == res.rows.height
    for i, (t, mine) in enumerate(zip(verbose["correct"].to_list(), res.rows["score"].to_list())):
        assert (None if t is None else float(t.lower() == "true")) == mine, i
    for i, (t, mine) in enumerate(zip(verbose["pred"].to_list(), res.rows["extracted"].to_list())):
        assert (t or "") == (mine or ""), i  # pandas writes "" and None alike as an empty cell


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize(("variant", "commit"), [("2025-07", "17973eb8"), ("2025-06", "2eea9afc")])
def test_older_key_value_reports(stem: str, variant: str, commit: str) -> None:
    res = visfactor.grade(_frame(stem), variant=variant)
    lines = (DATA / f"{stem}_acc_{commit}.csv").read_text().splitlines()
    theirs = [(k, float(v)) for k, v in (ln.split(",") for ln in lines)]
    assert list(zip(res.report["key"], res.report["value"])) == theirs


def test_first_version_differs_where_the_reference_did() -> None:
    head = visfactor.grade(_frame("m_VisFactor")).report.to_dicts()[0]
    first = dict(visfactor.grade(_frame("m_VisFactor"), variant="2025-06").report.iter_rows())
    assert head["I3"] == 0.75 and first["I3"] == 0.25  # the JSON value itself, no number extraction


def test_broken_letter_rule_of_48ead4b5() -> None:
    res = visfactor.grade(_frame("m_VisFactor"), variant="2025-07-07")  # 48ead4b5 raised TypeError here
    assert "extract_last_uppercase_letter" in res.stats["reference_error"]
    assert res.report["value"].null_count() == res.report.height
    ok = visfactor.grade(_frame("m_VisFactor_CoT"), variant="2025-07-07")  # no VZ3 rows: 48ead4b5 graded it
    lines = (DATA / "m_VisFactor_CoT_acc_17973eb8.csv").read_text().splitlines()
    assert list(zip(ok.report["key"], ok.report["value"])) == [(k, float(v)) for k, v in (ln.split(",") for ln in lines)]


def test_units_and_statuses() -> None:
    assert visfactor.extract_json_answer('x {"answer": "a"} y { "answer" : \'B\' }') == "B"
    assert visfactor.extract_json_answer("none") == ""
    res = visfactor.grade(_frame("m_VisFactor"))
    assert res.rows.filter(pl.col("category_id") == "ZZ9")["status"].to_list() == ["no_rule"]
    assert res.report["ZZ9"][0] == 1.0  # NaN counts as right in all(), as upstream
    with pytest.raises(ValueError, match="eval_index"):
        visfactor.grade(_frame("m_VisFactor").drop("eval_index"))


def test_registry_maps_every_visfactor_name() -> None:
    rows = [json.loads(x) for x in (Path(__file__).parent / "data" / "vlmevalkit_datasets.jsonl").read_text().splitlines()]
    names = [r["name"] for r in rows if r["class"] == "VisFactor"]
    assert len(names) == 8
    for name in names:
        b = benchmarks.for_dataset(name)
        assert b is not None and b.module == "gaia_fast.scorers.vlm.visfactor", name
    assert benchmarks.get("visfactor").variant_on("2025-07-08") == "2025-07-07"
