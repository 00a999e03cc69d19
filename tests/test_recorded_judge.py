"""Recorded judges replayed: VLMEvalKit's own judge files beside a result file decide the rows
its rules cannot, offline (``find_records`` + ``grade(recorded=..., judge_policy=...)``), pickles
never run code, rows tell the truth (no_prediction, answer_not_in_options, duplicate_index), and
MMVet is re-graded from its recorded scores. Data: tests/data/vlmevalkit_judged/README.md."""

from __future__ import annotations

import json
import math
import pickle
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.io import safe_pickle
from gaia_fast.io.readers import InputError
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import judged, mcq, yorn
from gaia_fast.scorers.vlm.recorded import Records, find_records, index_key

DATA = Path(__file__).parent / "data" / "vlmevalkit_judged"
TREE = Path(__file__).parent / "data" / "vlmevalkit_tree" / "vila_8b"
ERAS = {"c03": ("openai", "classic"), "head": ("gpt-4o-mini", "2026-06")}
STAT_KEYS = {"decided", "decided_unit", "flags", "method", "archive_method", "matches_archive"}


def _same_report(ours: pl.DataFrame, path: Path) -> bool:
    """Our report equals VLMEvalKit's csv (splits come from a set upstream: matched by name)."""
    theirs = pl.read_csv(path, infer_schema_length=0)
    a = ours
    if a.columns != theirs.columns or a.height != theirs.height:
        return False
    if "split" in a.columns:
        a, theirs = a.sort("split"), theirs.sort("split")
    for c in a.columns:
        for x, y in zip(a[c].to_list(), theirs[c].to_list()):
            if c in ("split", "Category"):
                if str(x) != y:
                    return False
            elif not (float(x) == float(y) or (math.isnan(float(x)) and math.isnan(float(y)))):
                return False
    return True


def _grade_mcq(path: Path, bench: str, variant: str, **kw):
    return mcq.grade(read_result_table(path), benchmark=bench, variant=variant, **kw)


# --------------------------------------------------------------------------------------
# Pickles never run code
# --------------------------------------------------------------------------------------


def test_malicious_pickle_is_refused_and_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    evil = DATA / "evil" / "m_MMStar_openai_result.pkl"
    folder = tmp_path / "m"
    folder.mkdir()
    shutil.copy(DATA / "synth_c03" / "m_MMStar.xlsx", folder / "m_MMStar.xlsx")
    shutil.copy(evil, folder / "m_MMStar_openai_result.pkl")
    with pytest.raises(safe_pickle.UnsafePickleError) as e:
        find_records(folder / "m_MMStar.xlsx")
    assert "m_MMStar_openai_result.pkl" in str(e.value) and "system" in str(e.value)
    with pytest.raises(safe_pickle.UnsafePickleError):
        safe_pickle.load(evil)
    assert not (tmp_path / "gaia_fast_pickle_ran").exists()
    # Control: the file really is hostile (plain pickle runs its command).
    pickle.loads(evil.read_bytes())
    assert (tmp_path / "gaia_fast_pickle_ran").exists()


def test_safe_pickle_reads_real_judge_caches():
    c03 = safe_pickle.load(DATA / "synth_c03" / "m_CCBench_openai_result.pkl")
    head = safe_pickle.load(DATA / "synth_head" / "m_CCBench_gpt-4o-mini_result.pkl")
    # 2024 circular keys are index % 1e6 floats, head's g_index ints: NumPy scalars either way.
    assert sorted(type(k).__name__ for k in c03) == ["float64"] * 5
    assert sorted(type(k).__name__ for k in head) == ["int64"] * 5
    assert {index_key(k) for k in c03} == {index_key(k) for k in head} == {"0", "1", "2", "3", "4"}
    assert safe_pickle.load(DATA / "synth_c03" / "m_POPE_tmp.pkl") == {4: "Unknown", 5: "Yes", 7: "No"}
    mmvet = safe_pickle.load(DATA / "synth_head" / "m_MMVet_gpt-4-turbo.pkl")
    assert mmvet[5]["score"] == 0.9 and mmvet[6]["log"].endswith("All 5 retries failed.\n")
    with pytest.raises(InputError, match="broken.pkl"):
        safe_pickle.loads(b"\x80\x04\x95", source="broken.pkl")


def test_pickled_result_table_is_read_only_with_the_pandas_allow_list(tmp_path):
    """VLMEvalKit's later dump pickles the result table under the cache's name when its xlsx
    cannot be written: such a DataFrame is read (plain pandas/pyarrow rebuilders only)."""
    pytest.importorskip("pandas")
    src = DATA / "synth_head"
    table = pl.read_excel(src / "m_MMStar_gpt-4o-mini_result.xlsx").to_pandas()
    d = tmp_path / "p"
    d.mkdir()
    shutil.copy(src / "m_MMStar.xlsx", d / "m_MMStar.xlsx")
    blob = pickle.dumps(table)
    (d / "m_MMStar_gpt-4o-mini_result.pkl").write_bytes(blob)
    with pytest.raises(safe_pickle.UnsafePickleError, match="pandas"):
        safe_pickle.loads(blob, source="x.pkl")
    rec = find_records(d / "m_MMStar.xlsx")
    assert [p.name for p in rec.files] == ["m_MMStar_gpt-4o-mini_result.pkl"] and len(rec) == 12
    res = _grade_mcq(d / "m_MMStar.xlsx", "mcq", "2026-06", recorded=rec)
    assert _same_report(res.report, src / "m_MMStar_acc.csv") and res.stats["decided"]["recorded"] == 7
    # A pandas function that runs something is not on the list.
    evil = b"\x80\x02cpandas\neval\nX\x05\x00\x00\x001 + 1\x85R."
    with pytest.raises(safe_pickle.UnsafePickleError, match="pandas.eval"):
        safe_pickle.loads(evil, source="e.pkl", allow_pandas=True)


# --------------------------------------------------------------------------------------
# Finding records
# --------------------------------------------------------------------------------------


def test_find_records_names_of_every_era(tmp_path):
    r = find_records(DATA / "synth_c03" / "m_MMStar.xlsx")
    assert isinstance(r, Records) and (r.kind, r.judge) == ("mcq", "openai")
    assert [p.name for p in r.files] == ["m_MMStar_openai_result.xlsx", "m_MMStar_openai_result.pkl"]
    assert len(r) == 12 and r.get(6)["hit"] in ("0", "1") and "randomly" in r.get("6.0")["log"]
    assert find_records(DATA / "synth_head" / "m_CCBench.xlsx").judge == "gpt-4o-mini"
    y = find_records(DATA / "synth_c03" / "m_POPE.xlsx")
    assert (y.kind, y.judge) == ("yorn", None) and y.get(5) == {"extracted": "Yes", "tmp": "Yes"}
    j = find_records(DATA / "instructblip_7b" / "instructblip_7b_MMVet.xlsx")
    assert (j.kind, j.judge, len(j)) == ("judged", "gpt4", 218) and "log" not in j.columns
    assert find_records(TREE / "vila_8b_TextVQA_VAL.xlsx") is None
    # A longer dataset name's records are not this file's; PRINT_VANILLA side files neither.
    d = tmp_path / "x"
    d.mkdir()
    for name in ("x_MMBench.xlsx", "x_MMBench_V11.xlsx"):
        shutil.copy(DATA / "synth_c03" / "m_CCBench.xlsx", d / name)
    shutil.copy(DATA / "synth_c03" / "m_CCBench_openai_result.xlsx", d / "x_MMBench_V11_openai_result.xlsx")
    shutil.copy(DATA / "synth_c03" / "m_CCBench_openai_result.pkl", d / "x_MMBench_openai_vanilla_result.pkl")
    assert find_records(d / "x_MMBench.xlsx") is None
    assert find_records(d / "x_MMBench_V11.xlsx").judge == "openai"


def test_unusable_record_files_are_reported_not_used(tmp_path, caplog):
    """What test_grade_many's tree holds: a pickle of None and a copy without hit/log."""
    d = tmp_path / "v"
    d.mkdir()
    shutil.copy(TREE / "vila_8b_MMStar.xlsx", d / "vila_8b_MMStar.xlsx")
    shutil.copy(TREE / "vila_8b_MMStar.xlsx", d / "vila_8b_MMStar_openai_result.xlsx")
    (d / "vila_8b_MMStar_openai_result.pkl").write_bytes(b"\x80\x04N.")
    with caplog.at_level("WARNING", logger="gaia_fast.scorers.vlm.recorded"):
        assert find_records(d / "vila_8b_MMStar.xlsx") is None
    assert "no 'hit'" in caplog.text and "NoneType" in caplog.text
    # Graded as before (exact matching), and not claimed to be the archive's method.
    res = mcq.grade(read_result_table(d / "vila_8b_MMStar.xlsx"), benchmark="mcq", recorded=None)
    assert res.stats["accuracy"] == pytest.approx(0.4166666666666667, abs=0) and res.stats["matches_archive"] is False
    # Strict replay: an empty Records leaves the open rows undecided.
    strict = mcq.grade(read_result_table(d / "vila_8b_MMStar.xlsx"), benchmark="mcq", recorded=Records.empty(d / "vila_8b_MMStar.xlsx"))
    assert strict.stats["decided"]["undecided"] == 12 and strict.stats["archive_method"] is None


# --------------------------------------------------------------------------------------
# Multiple choice: vanilla and circular, each era, judged and exact-matching archives
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("era", sorted(ERAS))
@pytest.mark.parametrize("name,bench,recorded_n", [("m_MMStar", "mcq", 7), ("m_CCBench", "mcq-circular", 3)])
def test_judged_mcq_archive_is_reproduced_from_its_records(era, name, bench, recorded_n):
    judge, variant = ERAS[era]
    path = DATA / f"synth_{era}" / f"{name}.xlsx"
    rec = find_records(path)
    res = _grade_mcq(path, bench, variant, recorded=rec)
    assert _same_report(res.report, path.with_name(f"{name}_acc.csv"))
    s = res.stats
    assert STAT_KEYS <= set(s)
    assert s["decided"] == {"rules": 12 - recorded_n if bench == "mcq" else 2, "recorded": recorded_n, "live": 0, "undecided": 0}
    assert s["decided_unit"] == ("rows" if bench == "mcq" else "questions")
    assert s["archive_method"] == f"judge {judge}" and s["matches_archive"] is True
    assert s["method"].startswith("rules (") and f"recorded judge {judge} ({recorded_n} " in s["method"]
    # Rules alone (exact matching) give another number and say they are not the archive's method.
    rules = _grade_mcq(path, bench, variant, recorded=rec, judge_policy="none")
    assert not _same_report(rules.report, path.with_name(f"{name}_acc.csv"))
    assert rules.stats["method"] == "exact_matching (--judge none)" and rules.stats["matches_archive"] is False
    assert rules.stats["decided"]["recorded"] == 0


@pytest.mark.parametrize("era", sorted(ERAS))
@pytest.mark.parametrize("name,bench", [("m_MMStar", "mcq"), ("m_CCBench", "mcq-circular")])
def test_judge_named_file_holding_exact_matching_is_detected(era, name, bench):
    judge, variant = ERAS[era]
    path = DATA / f"synth_{era}_exact" / f"{name}.xlsx"
    rec = find_records(path)
    assert rec.judge == judge  # the file carries the judge's name...
    for policy in ("auto", "none"):
        res = _grade_mcq(path, bench, variant, recorded=rec, judge_policy=policy)
        assert _same_report(res.report, path.with_name(f"{name}_acc.csv"))
        # ...but its logs show exact matching, so --judge none is the archive's own method.
        assert res.stats["archive_method"] == f"exact_matching (files named {judge})"
        assert res.stats["matches_archive"] is True


def test_vanilla_rows_say_what_decided_them():
    path = DATA / "synth_c03" / "m_MMStar.xlsx"
    res = _grade_mcq(path, "mcq", "classic", recorded=find_records(path), log=True)
    rows = {int(r["index"]): r for r in res.rows.iter_rows(named=True)}
    assert rows[1]["reason"].startswith("prefetch") and rows[1]["score"] == 1.0
    assert rows[4]["extracted"] == "B" and rows[4]["score"] == 1.0 and "reply 'B' reads B" in rows[4]["reason"]
    assert rows[5]["extracted"] == "B" and rows[5]["score"] == 0.0
    # The random draw: its letter is not recorded, its hit is; the hit reproduces the draw.
    assert rows[6]["extracted"] is None and rows[6]["score"] == 1.0 and "random" in rows[6]["reason"]
    assert rows[6]["log"] == "Match Log: Failed to predict, thus randomly generate one. . "
    assert rows[8]["status"] == "no_prediction" and rows[8]["extracted"] == "Z" and rows[8]["score"] == 0.0
    assert rows[9]["status"] == "answer_not_in_options" and rows[9]["score"] == 0.0
    assert res.stats["flags"] == {"no_prediction": 1, "answer_not_in_options": 1}
    assert res.stats["record_disagreements"] == 0 and res.stats["recorded_random"] == 1


def _drop_record(src: Path, dst: Path, stem: str, judge: str, index: int) -> Path:
    """A copy of the archive whose records lack ``index`` (the table only)."""
    dst.mkdir()
    shutil.copy(src / f"{stem}.xlsx", dst / f"{stem}.xlsx")
    table = pl.read_excel(src / f"{stem}_{judge}_result.xlsx", infer_schema_length=0)
    table.filter(pl.col("index") != str(index)).write_excel(dst / f"{stem}_{judge}_result.xlsx")
    return dst / f"{stem}.xlsx"


def test_rows_without_a_record_need_a_judge(tmp_path):
    path = _drop_record(DATA / "synth_c03", tmp_path / "a", "m_MMStar", "openai", 4)
    rec = find_records(path)
    res = _grade_mcq(path, "mcq", "classic", recorded=rec)
    row = res.rows.filter(pl.col("index") == "4").row(0, named=True)
    assert row["status"] == "needs_judge" and row["score"] is None
    assert res.stats["decided"] == {"rules": 5, "recorded": 6, "live": 0, "undecided": 1}
    assert res.stats["matches_archive"] is False and "1 rows undecided (needs_judge)" in res.stats["method"]
    # The report counts the 11 decided rows only.
    decided = res.rows.filter(pl.col("score").is_not_null())
    assert res.report["Overall"][0] == pytest.approx(decided["score"].sum() / 11, abs=0)
    # A live judge decides it instead.
    live = _grade_mcq(path, "mcq", "classic", recorded=rec, judge=lambda prompt: "B")
    assert live.stats["decided"] == {"rules": 5, "recorded": 6, "live": 1, "undecided": 0}
    assert _same_report(live.report, DATA / "synth_c03" / "m_MMStar_acc.csv")


def test_circular_question_without_a_record_needs_a_judge(tmp_path):
    path = _drop_record(DATA / "synth_head", tmp_path / "c", "m_CCBench", "gpt-4o-mini", 2)
    res = _grade_mcq(path, "mcq-circular", "2026-06", recorded=find_records(path))
    assert res.stats["decided"] == {"rules": 2, "recorded": 2, "live": 0, "undecided": 1}
    assert res.stats["questions"] == 4
    assert res.rows.filter(pl.col("circular_group") == 2)["status"].to_list() == ["needs_judge", "needs_judge"]


def test_rule_decisions_against_the_record_are_counted(tmp_path):
    """A record that disagrees with the rules (another matcher or answer key) is reported."""
    d = tmp_path / "d"
    d.mkdir()
    shutil.copy(DATA / "synth_c03" / "m_MMStar.xlsx", d / "m_MMStar.xlsx")
    table = pl.read_excel(DATA / "synth_c03" / "m_MMStar_openai_result.xlsx", infer_schema_length=0)
    table.with_columns(pl.when(pl.col("index") == "1").then(pl.lit("0")).otherwise(pl.col("hit")).alias("hit")).write_excel(
        d / "m_MMStar_openai_result.xlsx"
    )
    res = _grade_mcq(d / "m_MMStar.xlsx", "mcq", "classic", recorded=find_records(d / "m_MMStar.xlsx"))
    assert res.stats["record_disagreements"] == 1 and res.stats["record_disagreement_indexes"] == ["1"]
    assert res.stats["matches_archive"] is False


def test_no_records_keeps_todays_exact_matching():
    path = DATA / "synth_c03" / "m_MMStar.xlsx"
    res = _grade_mcq(path, "mcq", "classic")
    assert res.stats["archive_method"] is None and res.stats["matches_archive"] is False
    assert res.stats["decided"] == {"rules": 12, "recorded": 0, "live": 0, "undecided": 0}
    assert "exact_matching (7 rows; no recorded judge files)" in res.stats["method"]
    with pytest.raises(ValueError, match="judge_policy"):
        _grade_mcq(path, "mcq", "classic", judge_policy="maybe")


# --------------------------------------------------------------------------------------
# Rows tell the truth
# --------------------------------------------------------------------------------------


def test_empty_predictions_are_not_reported_ok():
    frame = read_result_table(TREE / "vila_8b_MMStar.xlsx")
    blank = pl.Series(range(frame.height)) < 101
    frame = frame.with_columns(pl.when(blank).then(None).otherwise(pl.col("prediction")).alias("prediction"))
    res = mcq.grade(frame, benchmark="mcq")
    assert res.stats["flags"]["no_prediction"] == 101
    assert (res.rows["status"] == "no_prediction").sum() == 101
    assert res.stats["status"]["no_prediction"] == 101 and res.stats["status"].get("ok", 0) < 1400


def test_duplicate_index_rows_are_flagged():
    frame = read_result_table(DATA / "synth_c03" / "m_MMStar.xlsx")
    frame = pl.concat([frame, frame.head(1)])
    res = mcq.grade(frame, benchmark="mcq")
    assert res.stats["flags"]["duplicate_index"] == 2
    assert res.rows.filter(pl.col("index") == "1")["status"].to_list() == ["duplicate_index", "duplicate_index"]


# --------------------------------------------------------------------------------------
# Yes / no
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("era,variant", [("c03", "classic"), ("head", "2025-05")])
def test_yorn_archive_is_reproduced_from_its_records(era, variant, tmp_path):
    path = DATA / f"synth_{era}" / "m_POPE.xlsx"
    frame = read_result_table(path)
    res = yorn.grade(frame, benchmark="pope", variant=variant, recorded=find_records(path))
    assert _same_report(res.report, path.with_name("m_POPE_score.csv"))
    assert res.stats["decided"] == {"rules": 5, "recorded": 3, "live": 0, "undecided": 0}
    assert res.stats["archive_method"] == "judge unnamed" and res.stats["matches_archive"] is True
    rows = {int(r["index"]): r for r in res.rows.iter_rows(named=True)}
    assert (rows[5]["extracted"], rows[7]["extracted"], rows[4]["extracted"]) == ("Yes", "No", "Unknown")
    # The _tmp.pkl alone (no _auxmatch) gives the same rows, as VLMEvalKit's evaluate would.
    d = tmp_path / "t"
    d.mkdir()
    for name in ("m_POPE.xlsx", "m_POPE_tmp.pkl"):
        shutil.copy(path.with_name(name), d / name)
    tmp_only = yorn.grade(frame, benchmark="pope", variant=variant, recorded=find_records(d / "m_POPE.xlsx"))
    assert _same_report(tmp_only.report, path.with_name("m_POPE_score.csv"))
    rules = yorn.grade(frame, benchmark="pope", variant=variant, recorded=find_records(path), judge_policy="none")
    assert not _same_report(rules.report, path.with_name("m_POPE_score.csv")) and rules.stats["matches_archive"] is False


def test_yorn_unknown_without_a_record_needs_a_judge(tmp_path):
    d = tmp_path / "y"
    d.mkdir()
    shutil.copy(DATA / "synth_c03" / "m_POPE.xlsx", d / "m_POPE.xlsx")
    aux = pl.read_excel(DATA / "synth_c03" / "m_POPE_auxmatch.xlsx", infer_schema_length=0)
    aux.filter(pl.col("index") != "5").write_excel(d / "m_POPE_auxmatch.xlsx")
    res = yorn.grade(read_result_table(d / "m_POPE.xlsx"), benchmark="pope", recorded=find_records(d / "m_POPE.xlsx"))
    assert res.stats["decided"] == {"rules": 5, "recorded": 2, "live": 0, "undecided": 1}
    assert res.rows.filter(pl.col("index") == "5")["status"].to_list() == ["needs_judge"]
    assert res.report.filter(pl.col("split") == "Overall")["acc"][0] == pytest.approx(4 / 7 * 100)
    # An _auxmatch answer against the extraction of a row the rules read is counted.
    aux.with_columns(pl.when(pl.col("index") == "1").then(pl.lit("No")).otherwise(pl.col("extracted")).alias("extracted")).write_excel(
        d / "m_POPE_auxmatch.xlsx"
    )
    other = yorn.grade(read_result_table(d / "m_POPE.xlsx"), benchmark="pope", recorded=find_records(d / "m_POPE.xlsx"))
    assert other.stats["record_disagreements"] == 1 and other.stats["record_disagreement_indexes"] == ["1"]
    assert other.stats["matches_archive"] is False
    aux.filter(pl.col("index") != "5").write_excel(d / "m_POPE_auxmatch.xlsx")
    # A live judge is asked about that row only (index 4's recorded Unknown is the archive's judge's answer).
    asked = []
    live = yorn.grade(read_result_table(d / "m_POPE.xlsx"), benchmark="pope", recorded=find_records(d / "m_POPE.xlsx"),
                      judge=lambda prompt: asked.append(prompt) or "Yes")
    assert len(asked) == 1 and "There might be one" in asked[0]
    assert live.stats["decided"] == {"rules": 5, "recorded": 2, "live": 1, "undecided": 0}
    assert _same_report(live.report, DATA / "synth_c03" / "m_POPE_score.csv")


# --------------------------------------------------------------------------------------
# The VILA tree with its own records: every report still the archive's
# --------------------------------------------------------------------------------------


def test_vila_tree_with_its_records_equals_its_own_reports(tmp_path):
    d = tmp_path / "vila_8b"
    shutil.copytree(TREE, d)
    for f in (DATA / "vila_8b_records").iterdir():
        shutil.copy(f, d / f.name)
    expected_recorded = {"MMStar": 12, "RealWorldQA": 0, "ScienceQA_VAL": 26, "CCBench": 1, "MME": 8, "POPE": 0, "HallusionBench": 21}
    seen = {}
    for path in sorted(d.glob("vila_8b_*.xlsx")):
        found = benchmarks.detect(path)
        if found is None or found.benchmark.module.rsplit(".", 1)[-1] not in ("mcq", "yorn"):
            continue
        module = mcq if found.benchmark.module.endswith("mcq") else yorn
        rec = find_records(path)
        assert rec is not None and rec.files, path.name
        res = module.grade(read_result_table(path), recorded=rec, **found.benchmark.options)
        assert _same_report(res.report, path.with_name(path.stem + found.benchmark.report)), path.name
        assert res.stats["matches_archive"] is True and res.stats["record_disagreements"] == 0, path.name
        seen[found.dataset] = res.stats["decided"]["recorded"]
        if found.dataset in ("MMStar", "ScienceQA_VAL", "CCBench"):
            assert res.stats["archive_method"] == "exact_matching (files named openai)"
    assert seen == expected_recorded


# --------------------------------------------------------------------------------------
# Judge-only datasets: MMVet
# --------------------------------------------------------------------------------------


def test_real_2023_mmvet_archive_report_is_reproduced_cell_by_cell():
    folder = DATA / "instructblip_7b"
    path = folder / "instructblip_7b_MMVet.xlsx"
    res = judged.grade(read_result_table(path), recorded=find_records(path))
    assert res.stats["variant"] == "2023-12"  # no log column: the 2023-12-06 code
    archive = pl.read_excel(folder / "instructblip_7b_MMVet_gpt4_score.xlsx")
    assert res.report.columns == archive.columns == ["Category", "tot", "acc"]
    assert res.report.height == archive.height == 7
    for ours, theirs in zip(res.report.iter_rows(), archive.iter_rows()):
        assert ours[:2] == theirs[:2]
        assert float(f"{ours[2]:.16G}") == theirs[2]  # xlsxwriter keeps 16 significant digits
    expected = json.loads((DATA / "expected_mmvet.json").read_text())
    assert res.report.to_dict(as_series=False) == expected["2023-12 (ca3c9b52)"]
    assert res.stats["decided"] == {"rules": 0, "recorded": 218, "live": 0, "undecided": 0}
    assert res.stats["archive_method"] == "judge gpt4" and res.stats["matches_archive"] is True
    assert res.stats["accuracy"] == pytest.approx(0.305045871559633)
    # The same records through head's MMVet_acc (its rec/ocr double count included).
    head = judged.grade(read_result_table(path), recorded=find_records(path), variant="classic")
    assert head.report.to_dict(as_series=False) == expected["classic (head e8e78f05)"]
    assert pl.DataFrame(head.stats["report_fine"]).to_dict(as_series=False) == expected["classic fine (head e8e78f05)"]


def test_head_mmvet_archive_is_reproduced(tmp_path):
    path = DATA / "synth_head" / "m_MMVet.xlsx"
    rec = find_records(path)
    assert [p.suffix for p in rec.files] == [".xlsx", ".pkl"]
    res = judged.grade(read_result_table(path), recorded=rec)
    assert res.stats["variant"] == "classic"
    assert _same_report(res.report, path.with_name("m_MMVet_gpt-4-turbo_score.csv"))
    assert _same_report(pl.DataFrame(res.stats["report_fine"]), path.with_name("m_MMVet_gpt-4-turbo_score_fine.csv"))
    # --judge none: MMVet has no judge-free policy.
    none = judged.grade(read_result_table(path), recorded=rec, judge_policy="none")
    assert none.stats["decided"]["undecided"] == 6 and set(none.rows["status"]) == {"needs_judge"}
    # A row with no record: needs_judge, or the live judge's score.
    d = tmp_path / "v"
    d.mkdir()
    shutil.copy(path, d / "m_MMVet.xlsx")
    table = pl.read_excel(path.with_name("m_MMVet_gpt-4-turbo.xlsx"), infer_schema_length=0)
    table.filter(pl.col("index") != "3").write_excel(d / "m_MMVet_gpt-4-turbo.xlsx")
    part = judged.grade(read_result_table(d / "m_MMVet.xlsx"), recorded=find_records(d / "m_MMVet.xlsx"))
    assert part.stats["decided"] == {"rules": 0, "recorded": 5, "live": 0, "undecided": 1}
    assert part.stats["matches_archive"] is False and part.stats["tasks"] == 5
    live = judged.grade(read_result_table(d / "m_MMVet.xlsx"), recorded=find_records(d / "m_MMVet.xlsx"), judge=lambda p: "0.0")
    assert live.stats["decided"]["live"] == 1
    assert _same_report(live.report, path.with_name("m_MMVet_gpt-4-turbo_score.csv"))


def test_judge_only_dataset_without_records_or_judge_is_refused():
    frame = read_result_table(DATA / "instructblip_7b" / "instructblip_7b_MMVet.xlsx")
    with pytest.raises(ValueError, match="recorded=find_records"):
        judged.grade(frame)
    with pytest.raises(ValueError, match="recorded=find_records"):
        judged.grade(read_result_table(DATA / "synth_head" / "m_LLaVABench.xlsx"), benchmark="llavabench")


def test_mmvet_score_that_is_not_a_number_is_an_error(tmp_path):
    d = tmp_path / "e"
    d.mkdir()
    src = DATA / "instructblip_7b"
    shutil.copy(src / "instructblip_7b_MMVet.xlsx", d / "instructblip_7b_MMVet.xlsx")
    table = pl.read_excel(src / "instructblip_7b_MMVet_gpt4.xlsx", infer_schema_length=0)
    table.with_columns(
        pl.when(pl.col("index") == "1").then(pl.lit("Failed to obtain answer via API.")).otherwise(pl.col("score")).alias("score")
    ).write_excel(d / "instructblip_7b_MMVet_gpt4.xlsx")
    res = judged.grade(read_result_table(d / "instructblip_7b_MMVet.xlsx"), recorded=find_records(d / "instructblip_7b_MMVet.xlsx"))
    assert res.rows["status"][0] == "error" and res.stats["crashed_rows"] == 1
    assert "not numbers" in res.stats["reference_error"]


def test_judge_only_datasets_are_registered():
    found = benchmarks.detect(DATA / "instructblip_7b" / "instructblip_7b_MMVet.xlsx")
    assert found is not None and found.benchmark.name == "mmvet" and found.benchmark.module == "gaia_fast.scorers.vlm.judged"
    assert benchmarks.variant_on("mmvet", "2023-12-06") == "2023-12" and benchmarks.variant_on("mmvet", "2024-07-27") == "classic"
    llava = benchmarks.detect(DATA / "synth_head" / "m_LLaVABench.xlsx")
    assert llava is not None and llava.benchmark.name == "llavabench"
    listed = [name for name in ("MMVet", "LLaVABench") if any(re.fullmatch(rx, name) for rx in benchmarks.UNSUPPORTED)]
    assert listed == []
    assert benchmarks.get("mmvet").grading == benchmarks.get("llavabench").grading == "judge"


def test_llavabench_archive_is_reproduced(tmp_path):
    path = DATA / "synth_head" / "m_LLaVABench.xlsx"
    rec = find_records(path)
    assert (rec.kind, rec.judge, len(rec)) == ("judged", "openai", 11)
    frame = read_result_table(path)
    res = judged.grade(frame, benchmark="llavabench", recorded=rec)
    assert _same_report(res.report, path.with_name("m_LLaVABench_score.csv"))
    assert res.stats["decided"] == {"rules": 0, "recorded": 11, "live": 0, "undecided": 0}
    assert res.stats["archive_method"] == "judge openai" and res.stats["matches_archive"] is True
    assert "could not be parsed" in res.rows["reason"][1]  # the (-1, -1) review counts, as upstream
    d = tmp_path / "l"
    d.mkdir()
    shutil.copy(path, d / path.name)
    table = pl.read_excel(path.with_name("m_LLaVABench_openai_result.xlsx"), infer_schema_length=0)
    table.filter(pl.col("index") != "0").write_excel(d / "m_LLaVABench_openai_result.xlsx")
    part = judged.grade(frame, benchmark="llavabench", recorded=find_records(d / path.name))
    assert part.stats["decided"]["undecided"] == 1 and part.rows["status"][0] == "needs_judge"
    assert part.stats["matches_archive"] is False and part.stats["tasks"] == 10


def test_pairwise_sum_is_numpys():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(7)
    for n in (1, 7, 8, 9, 16, 127, 128, 129, 257, 1000, 4099):
        values = (rng.random(n) * 10).round(rng.integers(0, 4)).tolist()
        assert judged._pairwise_sum(values, 0, n) == float(np.sum(np.array(values)))
        assert judged._pandas_mean(values) == float(np.mean(np.array(values)))


def test_families_declare_the_records_they_replay():
    # A family module's RECORD_KIND is what the executor reads (one module + one registry
    # entry adds a family); each kind is one find_records knows, and grade takes the records.
    import importlib
    import inspect
    import types

    from gaia_fast.grading.execute import record_kind
    from gaia_fast.scorers.vlm.recorded import KINDS

    declared = {}
    for entry in benchmarks.BENCHMARKS.values():
        module = importlib.import_module(entry.module)
        kind = record_kind(module)
        if kind is None:
            continue
        declared[entry.module.rsplit(".", 1)[-1]] = kind
        assert kind in KINDS, entry.module
        params = inspect.signature(module.grade).parameters
        takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())  # mcq_reports passes them on
        assert takes_any or {"recorded", "judge_policy"} <= set(params), entry.module
    # The families the executor replayed records for before they declared it themselves.
    before = {k: k for k in ("mcq", "yorn", "judged", "spatial", "math_judged", "shortqa", "video_mcq", "video_mmmu", "tail_judged")}
    assert before | {"mcq_reports": "mcq"} == {k: v for k, v in declared.items() if k in (*before, "mcq_reports")}
    assert record_kind(importlib.import_module("gaia_fast.scorers.vlm.vqa")) is None
    with pytest.raises(TypeError, match="RECORD_KIND must be a record kind"):
        record_kind(types.SimpleNamespace(__name__="fake", RECORD_KIND=1))


@pytest.mark.parametrize("evil_newest", [True, False])
def test_a_hostile_pickle_of_another_judge_is_refused(tmp_path, monkeypatch, evil_newest):
    # The newest judge's files are what the archive's report came from: a hostile pickle
    # there raises. An older judge's is never loaded into the result: it is named in a note.
    import os

    monkeypatch.chdir(tmp_path)
    for f in (DATA / "synth_c03").glob("m_MMStar*"):
        shutil.copy(f, tmp_path)
    shutil.copy(DATA / "evil" / "m_MMStar_openai_result.pkl", tmp_path / "m_MMStar_gpt4_result.pkl")
    record = sorted(p for p in tmp_path.glob("m_MMStar_openai_result.*"))
    assert record
    for f in record:
        os.utime(f, (1, 1_600_000_000))
    os.utime(tmp_path / "m_MMStar_gpt4_result.pkl", (1, 1_700_000_000 if evil_newest else 1_500_000_000))
    if evil_newest:
        with pytest.raises(safe_pickle.UnsafePickleError, match="m_MMStar_gpt4_result.pkl"):
            find_records(tmp_path / "m_MMStar.xlsx")
    else:
        rec = find_records(tmp_path / "m_MMStar.xlsx")
        assert rec.judge == "openai" and all(f.name.startswith("m_MMStar_openai_result.") for f in rec.files)
        assert any(n.startswith("m_MMStar_gpt4_result.pkl: not read:") and "system" in n for n in rec.notes)
    assert not (tmp_path / "gaia_fast_pickle_ran").exists()
