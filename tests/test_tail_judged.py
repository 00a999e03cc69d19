"""CharXiv and ChartMuseum re-graded from the judge verdicts VLMEvalKit recorded beside the
result file; the reports compared cell by cell with the ones VLMEvalKit's own evaluate wrote
on the same archives. Data: tests/data/vlmevalkit_tail_judged/README.md."""

from __future__ import annotations

import json
import math
import pickle
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from gaia_fast import benchmarks
from gaia_fast.cli import main
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import tail_judged
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_tail_judged"
CASES = {
    # folder: (result file, benchmark, judge, VLMEvalKit's report)
    "charxiv_head": ("m_CharXiv_descriptive_val.xlsx", "charxiv_descriptive", "gpt-4o-mini", "m_CharXiv_descriptive_val_gpt-4o-mini_acc.csv"),
    "charxiv_2025_05": ("m_CharXiv_reasoning_val.xlsx", "charxiv_reasoning", "gpt-4o-mini", "m_CharXiv_reasoning_val_gpt-4o-mini_score.csv"),
    "chartmuseum": ("m_ChartMuseum_test.xlsx", "chartmuseum", "gpt-4.1-mini-2025-04-14", "m_ChartMuseum_test_acc.csv"),
}


def _assert_same_report(ours: pl.DataFrame, path: Path) -> None:
    theirs = pl.read_csv(path, infer_schema_length=0)
    assert ours.columns == theirs.columns
    assert ours.height == theirs.height == 1
    assert list(ours.row(0)) == [float(x) for x in theirs.row(0)]


@pytest.mark.parametrize("folder", sorted(CASES))
def test_archive_report_is_reproduced_cell_by_cell(folder):
    name, bench, judge, report = CASES[folder]
    path = DATA / folder / name
    rec = find_records(path)
    assert (rec.kind, rec.judge) == ("tail_judged", judge)
    frame = read_result_table(path)
    res = tail_judged.grade(frame, benchmark=bench, recorded=rec)
    _assert_same_report(res.report, DATA / folder / report)
    assert res.stats["decided"] == {"rules": 0, "recorded": frame.height, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] is True
    assert set(res.rows["status"]) == {"ok"}


def test_charxiv_reads_the_table_not_the_positional_cache():
    path = DATA / "charxiv_head" / "m_CharXiv_descriptive_val.xlsx"
    rec = find_records(path)
    assert [p.name for p in rec.files] == ["m_CharXiv_descriptive_val_gpt-4o-mini.xlsx"]
    assert any("row position" in n for n in rec.notes)
    # Keys are the indexes (1000, 1003, ...), not the cache's positions 0..19.
    assert sorted(map(int, rec.entries)) == list(range(1000, 1060, 3))
    stored = pl.read_excel(path.with_name("m_CharXiv_descriptive_val_gpt-4o-mini.xlsx"), infer_schema_length=0)
    res = tail_judged.grade(read_result_table(path), benchmark="charxiv_descriptive", recorded=rec)
    assert res.rows["score"].to_list() == [float(x) for x in stored["score"].to_list()]


def test_chartmuseum_verdicts_and_order_follow_the_pickle():
    folder = DATA / "chartmuseum"
    cache = pickle.loads((folder / "m_ChartMuseum_test_gpt-4.1-mini-2025-04-14.pkl").read_bytes())
    res = tail_judged.grade(read_result_table(folder / "m_ChartMuseum_test.xlsx"), benchmark="chartmuseum", recorded=find_records(folder / "m_ChartMuseum_test.xlsx"))
    got = dict(zip(map(int, res.rows["index"].to_list()), res.rows["score"].to_list()))
    assert got == {k: float("yes" in v[0].lower()) for k, v in cache.items()}
    # Category columns in the order the pickle first names them (not the rows' order).
    first = list(dict.fromkeys(v[1] for v in cache.values()))
    assert res.report.columns == [*first, "Overall"]


def test_rows_without_a_verdict_need_a_judge(tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(DATA / "charxiv_head", folder)
    judged = pl.read_excel(folder / "m_CharXiv_descriptive_val_gpt-4o-mini.xlsx")
    judged.head(15).write_excel(folder / "m_CharXiv_descriptive_val_gpt-4o-mini.xlsx")
    path = folder / "m_CharXiv_descriptive_val.xlsx"
    res = tail_judged.grade(read_result_table(path), benchmark="charxiv_descriptive", recorded=find_records(path))
    assert res.stats["decided"] == {"rules": 0, "recorded": 15, "live": 0, "undecided": 5}
    assert res.stats["matches_archive"] is False
    assert res.rows["status"].to_list() == ["ok"] * 15 + ["needs_judge"] * 5
    none = tail_judged.grade(read_result_table(path), benchmark="charxiv_descriptive", recorded=None)
    assert none.stats["decided"]["undecided"] == 20 and none.report.height == 0
    with pytest.raises(ValueError, match="live judging is not supported"):
        tail_judged.grade(read_result_table(path), benchmark="charxiv_descriptive", judge=object())


def test_unknown_category_is_an_error_row(tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(DATA / "charxiv_2025_05", folder)
    path = folder / "m_CharXiv_reasoning_val.xlsx"
    frame = read_result_table(path).with_columns(pl.when(pl.col("index") == "1000").then(pl.lit("9")).otherwise(pl.col("inst_category")).alias("inst_category"))
    res = tail_judged.grade(frame, benchmark="charxiv_reasoning", recorded=find_records(path))
    assert res.rows["status"].to_list()[0] == "error" and "KeyError" in res.stats["reference_error"]
    assert res.stats["matches_archive"] is False


def test_registry_entries():
    for name, bench in (("CharXiv_descriptive_val", "charxiv_descriptive"), ("CharXiv_reasoning_val", "charxiv_reasoning"), ("ChartMuseum_dev", "chartmuseum"), ("ChartMuseum_test", "chartmuseum")):
        entry = benchmarks.for_dataset(name)
        assert entry is not None and entry.module == "gaia_fast.scorers.vlm.tail_judged" and entry.options == {"benchmark": bench}
        assert entry.grading == "judge"


CLI_REPORTS = {
    "charxiv_head": CASES["charxiv_head"][3],
    "chartmuseum": CASES["chartmuseum"][3],
    "llavabench_ko_head": "m_LLaVABench_KO_score.csv",
    "memlens": "m_MemLens_32K_score.csv",
    "dude": "m_DUDE_gpt-4o_score.csv",
    "slidevqa": "m_SLIDEVQA_gpt-4o_score.csv",
    "sfe_head": "m_SFE_score.csv",
    "mmlongbench_doc": "m_MMLongBench_DOC_gpt-4o_score.csv",
    "phyx_mini_oe": "m_PhyX_mini_OE_deepseek_score.csv",
    "phyx_mini_mc": "m_PhyX_mini_MC_deepseek_score.csv",
    "longdocurl": "m_LongDocURL_score.csv",
    "medqbench_caption": "m_MedqbenchCaption_dev_score.json",
}


@pytest.mark.parametrize("folder", sorted(CLI_REPORTS))
def test_cli_checks_the_archive_report(tmp_path, monkeypatch, folder):
    # The executor finds the records (tail_judged.RECORD_KIND) and the archive's own report,
    # and the two reports agree.
    shutil.copytree(DATA / folder, tmp_path / "m")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", "m", "--as-of", "2026-08-18", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (rec,) = json.loads(r.output)["archives"]
    assert rec["status"] == "ok", rec
    assert rec["archive_report"].endswith(CLI_REPORTS[folder])


@pytest.mark.parametrize("folder", ["llavabench_ko_head", "llavabench_ko_2025_07"])
def test_llavabench_ko_is_llavabench_flow(folder):
    from gaia_fast.scorers.vlm import judged

    entry = benchmarks.for_dataset("LLaVABench_KO")
    assert entry.module == "gaia_fast.scorers.vlm.judged" and entry.options == {"benchmark": "llavabench"} and entry.grading == "judge"
    path = DATA / folder / "m_LLaVABench_KO.xlsx"
    rec = find_records(path, "judged")
    assert [p.name for p in rec.files] == ["m_LLaVABench_KO_openai_result.xlsx"]
    res = judged.grade(read_result_table(path), benchmark="llavabench", recorded=rec)
    # Upstream lists the categories in set order (it differs between the two runs): by split.
    theirs = pl.read_csv(DATA / folder / "m_LLaVABench_KO_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    ours = {r[0]: list(r[1:]) for r in res.report.iter_rows()}
    assert ours == {r[0]: [float(x) for x in r[1:]] for r in theirs.iter_rows()}
    assert res.stats["decided"]["undecided"] == 0


def test_m4bench_acc_from_the_details_file():
    folder = DATA / "m4bench"
    path = folder / "m_State_Invariance.xlsx"
    rec = find_records(path)
    assert (rec.kind, rec.judge, [p.name for p in rec.files]) == ("tail_judged", None, ["m_State_Invariance_details.xlsx"])
    res = tail_judged.grade(read_result_table(path), benchmark="m4bench", recorded=rec)
    expected = json.loads((folder / "expected_acc.json").read_text())
    # M4Bench.evaluate's returned acc at its first commit and at head.
    assert res.report.to_dicts() == [expected["191dfa09"]] == [expected["e8e78f05"]]
    assert res.stats["decided"] == {"rules": 0, "recorded": 16, "live": 0, "undecided": 0} and res.stats["matches_archive"]
    # Each row's verdict is the score VLMEvalKit wrote beside parsed_pred.
    stored = pl.read_excel(folder / "m_State_Invariance_details.xlsx", infer_schema_length=0)
    assert res.rows["score"].to_list() == [1.0 if v.lower() == "true" else 0.0 for v in stored["score"].to_list()]
    assert stored["parsed_pred"].null_count() == 2  # replies get_ans reads as no letter: wrong
    for name in ("State_Invariance", "State_Comparison", "Spatial_Perception", "Instance_Comparison", "Detailed_Difference"):
        entry = benchmarks.for_dataset(name)
        assert entry.options == {"benchmark": "m4bench"} and entry.grading == "judge"


def test_m4bench_without_details_needs_a_judge(tmp_path):
    shutil.copy(DATA / "m4bench" / "m_State_Invariance.xlsx", tmp_path)
    path = tmp_path / "m_State_Invariance.xlsx"
    assert find_records(path, "tail_judged") is None
    res = tail_judged.grade(read_result_table(path), benchmark="m4bench", recorded=None)
    assert res.stats["decided"]["undecided"] == 16 and set(res.rows["status"]) == {"needs_judge"}


def _memlens(folder: Path):
    path = folder / "m_MemLens_32K.xlsx"
    return tail_judged.grade(read_result_table(path), benchmark="memlens", recorded=find_records(path))


def test_memlens_report_cell_by_cell():
    folder = DATA / "memlens"
    rec = find_records(folder / "m_MemLens_32K.xlsx")
    assert (rec.judge, [p.name for p in rec.files]) == ("gpt-4o-mini", ["m_MemLens_32K_gpt-4o-mini_memlens_judge.jsonl"])
    res = _memlens(folder)
    theirs = pl.read_csv(folder / "m_MemLens_32K_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns == ["question_type", "metric", "score", "num"]
    assert [(a, b, float(c), int(d)) for a, b, c, d in theirs.iter_rows()] == list(res.report.iter_rows())
    assert res.stats["decided"] == {"rules": 0, "recorded": 14, "live": 0, "undecided": 0} and res.stats["matches_archive"]
    assert res.stats["flags"] == {}
    # Row verdicts are the per-row detail VLMEvalKit wrote (row order, no index column).
    detail = pl.read_excel(folder / "m_MemLens_32K_gpt-4o-mini_memlens_eval.xlsx", infer_schema_length=0)
    assert res.rows["score"].to_list() == [float(x) for x in detail["judge_score"].to_list()]
    assert "auto zero" in res.rows["reason"][9]
    assert benchmarks.for_dataset("MemLens_256K").options == {"benchmark": "memlens"}


def test_memlens_resumed_lines_and_missing_rows(tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(DATA / "memlens", folder)
    jsonl = folder / "m_MemLens_32K_gpt-4o-mini_memlens_judge.jsonl"
    lines = jsonl.read_text().splitlines()
    recs = [json.loads(x) for x in lines]
    # A resumed run appends: the later line of an idx wins (upstream's dict fill).
    flipped = next(r for r in recs if r["idx"] == 1) | {"judge_score": 1}
    keep = [x for x, r in zip(lines, recs) if r["idx"] not in (12, 13)]
    jsonl.write_text("\n".join([*keep, json.dumps(flipped)]) + "\n")
    res = _memlens(folder)
    assert res.rows["score"][1] == 1.0
    assert res.stats["decided"] == {"rules": 0, "recorded": 12, "live": 0, "undecided": 2}
    assert res.rows["status"].to_list()[12:] == ["needs_judge", "needs_judge"] and not res.stats["matches_archive"]
    jsonl.write_text("not json\n")
    with pytest.raises(Exception, match="line 1: not JSON"):
        find_records(folder / "m_MemLens_32K.xlsx")


@pytest.mark.parametrize(("folder", "bench", "name"), [("dude", "dude", "m_DUDE"), ("slidevqa", "slidevqa", "m_SLIDEVQA")])
def test_docqa_report_cell_by_cell(folder, bench, name):
    path = DATA / folder / f"{name}.xlsx"
    rec = find_records(path)
    assert (rec.kind, rec.judge, [p.name for p in rec.files]) == ("tail_judged", "gpt-4o", [f"{name}_gpt-4o.xlsx"])
    res = tail_judged.grade(read_result_table(path), benchmark=bench, recorded=rec)
    theirs = pl.read_csv(DATA / folder / f"{name}_gpt-4o_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    assert [(a, int(b), float(c)) for a, b, c in theirs.iter_rows()] == list(res.report.iter_rows())
    assert res.stats["decided"] == {"rules": 0, "recorded": 12, "live": 0, "undecided": 0} and res.stats["matches_archive"]
    # DUDE_acc / SlideVQA_acc wrote each row's anls back into the judge table.
    stored = pl.read_excel(DATA / folder / f"{name}_gpt-4o.xlsx", infer_schema_length=0)
    # (the xlsx text of a float keeps nine digits)
    assert res.rows["score"].to_list() == pytest.approx([float(x) for x in stored["score" if bench == "dude" else "anls"].to_list()], abs=1e-9)
    entry = benchmarks.for_dataset(name[2:])
    assert entry.options == {"benchmark": bench} and benchmarks.for_dataset(name[2:] + "_MINI") is entry


def test_anls_rules():
    # Lengths after upper(): "ß" counts two there, so "straße" vs "strasse" is 1 - 2/7.
    assert tail_judged.anls_compute("straße", "strasse") == 1 - 2 / 7
    assert tail_judged.anls_compute("abcd", "abxy") == 0.0  # 0.5 is not above the threshold
    assert tail_judged.anls_compute("", "") == 1.0
    assert tail_judged.slidevqa_f1("a b c", "c b a a") == pytest.approx(8 / 7)  # repeats count in precision


def test_dude_empty_pred_is_an_upstream_crash(tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(DATA / "dude", folder)
    table = pl.read_excel(folder / "m_DUDE_gpt-4o.xlsx", infer_schema_length=0)
    table.with_columns(pl.when(pl.col("index") == "11").then(pl.lit("NA")).otherwise(pl.col("pred")).alias("pred")).write_excel(folder / "m_DUDE_gpt-4o.xlsx")
    path = folder / "m_DUDE.xlsx"
    res = tail_judged.grade(read_result_table(path), benchmark="dude", recorded=find_records(path))
    assert res.rows["status"][1] == "error" and "AttributeError" in res.stats["reference_error"]
    assert not res.stats["matches_archive"] and res.report["num"][0] == 11


@pytest.mark.parametrize(("folder", "variant"), [("sfe_head", "classic"), ("sfe_2025_06", "2025-06")])
def test_sfe_report_cell_by_cell(folder, variant):
    path = DATA / folder / "m_SFE.xlsx"
    rec = find_records(path)
    assert [p.name for p in rec.files] == ["m_SFE_judge.xlsx", "m_SFE_tmp.pkl"]
    res = tail_judged.grade(read_result_table(path), benchmark="sfe", recorded=rec, variant=variant)
    theirs = pl.read_csv(DATA / folder / "m_SFE_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    # Upstream lists splits in set order: compared by split. Empty cells are NaN (no rows).
    ours = {r[0]: r[1:] for r in res.report.iter_rows()}
    for row in theirs.iter_rows():
        mine = ours[row[0]]
        assert [(None if math.isnan(x) else x) for x in mine] == [float(v) if v else None for v in row[1:]], row[0]
    assert res.stats["decided"] == {"rules": 0, "recorded": 14, "live": 0, "undecided": 0} and res.stats["matches_archive"]
    entry = benchmarks.for_dataset("SFE-zh")
    assert entry.options == {"benchmark": "sfe"} and [entry.variant_on(d) for d in ("2025-06-20", "2026-01-01")] == ["2025-06", "classic"]


def test_sfe_circular_groups_score_on_their_main_row():
    frame = pl.DataFrame({"index": ["1", "2", "3", "4"], "g_index": ["1", "1", "3", "3"], "prediction": ["p"] * 4})
    from gaia_fast.scorers.vlm.recorded import Records

    rec = Records(Path("m_SFE.xlsx"), "tail_judged", None, (Path("m_SFE_judge.xlsx"),), {"1": {"score": 4.5}, "3": {"score": 9}})
    res = tail_judged.grade(frame, benchmark="sfe", recorded=rec)
    assert res.rows["status"].to_list() == ["ok", "grouped", "ok", "grouped"]
    assert res.report.to_dicts() == [{"split": "none", "Overall": (4.5 + 9) / 2 / 9 * 100}]


def test_mmlongbench_doc_report_cell_by_cell():
    folder = DATA / "mmlongbench_doc"
    path = folder / "m_MMLongBench_DOC.xlsx"
    rec = find_records(path)
    assert (rec.judge, [p.name for p in rec.files]) == ("gpt-4o", ["m_MMLongBench_DOC_gpt-4o.xlsx"])
    res = tail_judged.grade(read_result_table(path), benchmark="mmlongbench_doc", recorded=rec)
    theirs = pl.read_csv(folder / "m_MMLongBench_DOC_gpt-4o_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    assert [(a, int(b), float(c)) for a, b, c in theirs.iter_rows()] == list(res.report.iter_rows())
    assert res.stats["decided"]["recorded"] == 14 and res.stats["matches_archive"]
    stored = pl.read_excel(folder / "m_MMLongBench_DOC_gpt-4o.xlsx", infer_schema_length=0)
    assert res.rows["score"].to_list() == pytest.approx([float(x) for x in stored["score"].to_list()], abs=1e-9)
    assert "SyntaxError" in res.rows["reason"][10]  # "[Red car, blue bike]": eval raises upstream, 0.0


def test_eval_score_rules():
    assert tail_judged.eval_score("5", "5.0", "Int") == 1.0
    assert tail_judged.eval_score("5.0", "5", "Int") == 0.0  # int("5.0") raises: pred becomes ''
    assert tail_judged.eval_score("0.25", "25%", "Float") == 1.0
    assert tail_judged.eval_score("['a', 'b']", "['B', 'A']", "List") == 1.0
    with pytest.raises(Exception, match="NameError"):
        tail_judged.eval_score("['a', 'b']", "[a, b]", "List")  # eval of unknown names raises: 0.0 upstream
    # A text eval() could run (a name in its scope) is never evaluated here: an error row.
    with pytest.raises(tail_judged._NotLiteral):
        tail_judged.eval_score("['a']", "[os.getcwd()]", "List")


@pytest.mark.parametrize(("folder", "bench", "name"), [("phyx_mini_oe", "phyx_oe", "m_PhyX_mini_OE"), ("phyx_mini_mc", "phyx_mc", "m_PhyX_mini_MC")])
def test_phyx_report_cell_by_cell(folder, bench, name):
    path = DATA / folder / f"{name}.xlsx"
    rec = find_records(path)
    assert (rec.judge, [p.name for p in rec.files]) == ("deepseek", [f"{name}_deepseek.xlsx", f"{name}_deepseek.pkl"])
    res = tail_judged.grade(read_result_table(path), benchmark=bench, recorded=rec)
    _assert_same_report(res.report, DATA / folder / f"{name}_deepseek_score.csv")
    n = res.rows.height
    # The rows PhyX_auxeval decided without the judge, by the log it recorded.
    logs = pl.read_excel(DATA / folder / f"{name}_deepseek.xlsx", infer_schema_length=0)["log"].to_list()
    rules = sum(1 for x in logs if x in ("Matched at string level", "Unmatched at string level", "Fail to Call API"))
    assert 0 < rules < n
    assert res.stats["decided"] == {"rules": rules, "recorded": n - rules, "live": 0, "undecided": 0}
    assert res.stats["matches_archive"] and res.stats["rule_disagreements"] == 0
    # Each row's res and extraction as PhyX_auxeval recorded them.
    stored = pl.read_excel(DATA / folder / f"{name}_deepseek.xlsx", infer_schema_length=0)
    assert res.rows["score"].to_list() == [float(x) for x in stored["res"].to_list()]
    assert res.rows["extracted"].to_list() == stored["extracted"].to_list()
    # Without records only the rules decide.
    bare = tail_judged.grade(read_result_table(path), benchmark=bench, recorded=None)
    assert bare.stats["decided"] == {"rules": rules, "recorded": 0, "live": 0, "undecided": n - rules}
    assert benchmarks.for_dataset(name[2:].replace("_mini", "")).options == {"benchmark": bench}


def test_longdocurl_report_cell_by_cell(tmp_path):
    folder = DATA / "longdocurl"
    path = folder / "m_LongDocURL.xlsx"
    rec = find_records(path)
    assert (rec.judge, [p.name for p in rec.files]) == ("gpt-4o", ["m_LongDocURL_gpt-4o_extract.pkl", "m_LongDocURL_gpt-4o_extract.xlsx"])
    res = tail_judged.grade(read_result_table(path), benchmark="longdocurl", recorded=rec)
    theirs = pl.read_csv(folder / "m_LongDocURL_score.csv", infer_schema_length=0)
    assert res.report.columns == theirs.columns
    assert [(a, b, float(c), int(d)) for a, b, c, d in theirs.iter_rows()] == list(res.report.iter_rows())
    assert res.stats["decided"] == {"rules": 0, "recorded": 12, "live": 0, "undecided": 0} and res.stats["matches_archive"]
    detail = pl.read_csv(folder / "m_LongDocURL_longdocurl_eval.tsv", separator="\t", infer_schema_length=0)
    assert res.rows["score"].to_list() == [float(x) for x in detail["score_v3"].to_list()]
    # Upstream's second run reuses the _extract.xlsx, where the extracted numbers and lists
    # came back as text: a different report (rerun_score.csv). From the xlsx alone (no
    # cache) ours is that one.
    shutil.copytree(folder, tmp_path / "m")
    (tmp_path / "m" / "m_LongDocURL_gpt-4o_extract.pkl").unlink()
    alone = find_records(tmp_path / "m" / "m_LongDocURL.xlsx")
    res2 = tail_judged.grade(read_result_table(path), benchmark="longdocurl", recorded=alone)
    rerun = pl.read_csv(folder / "rerun_score.csv", infer_schema_length=0)
    assert [(a, b, float(c), int(d)) for a, b, c, d in rerun.iter_rows()] == list(res2.report.iter_rows())
    assert res2.report["score"][0] != res.report["score"][0]


@pytest.mark.parametrize(("folder", "name"), [("medqbench_caption", "m_MedqbenchCaption_dev"), ("medqbench_paired", "m_MedqbenchPairedDescription_dev")])
def test_medqbench_report_from_the_scored_result_file(folder, name):
    path = DATA / folder / f"{name}.xlsx"
    res = tail_judged.grade(read_result_table(path), benchmark="medqbench")
    theirs = json.loads((DATA / folder / f"{name}_score.json").read_text())
    assert res.report.to_dicts() == [theirs]
    assert res.stats["decided"] == {"rules": 0, "recorded": 6, "live": 0, "undecided": 0} and res.stats["matches_archive"]
    # The NOSCORE row: every metric None (left out of the means, as upstream does).
    assert res.rows.filter(pl.col("prediction").str.contains("NOSCORE"))["completeness_value"].to_list() == [None]
    entry = benchmarks.for_dataset(name[2:])
    assert entry.options == {"benchmark": "medqbench"} and entry.grading == "judge"


def test_medqbench_unjudged_result_file_needs_a_judge():
    frame = pl.DataFrame({"index": ["1", "2"], "prediction": ["a", "b"], "description": ["x", "y"]})
    res = tail_judged.grade(frame, benchmark="medqbench")
    assert res.stats["decided"]["undecided"] == 2 and res.report.height == 0 and not res.stats["matches_archive"]
