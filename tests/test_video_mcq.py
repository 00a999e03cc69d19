"""WorldSense and Video-TT (``video_mcq``): extract_characters_regex, the archive's
``_score.xlsx`` replayed for the rows the regex leaves open, exact matching under
``--judge none``, and ``get_dimension_rating``'s ``_rating.json`` compared cell by cell with
what VLMEvalKit's own ``evaluate`` wrote. Data: tests/data/vlmevalkit_regex_mcq/README.md."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading.reporters import headline, read_report, report_differences
from gaia_fast.io.vlm import read_result_table
from gaia_fast.io.writers import write_report
from gaia_fast.scorers.vlm import video_mcq
from gaia_fast.scorers.vlm.recorded import find_records

DATA = Path(__file__).parent / "data" / "vlmevalkit_regex_mcq"
SETS = [("WorldSense", "worldsense"), ("Video-TT", "videott"), ("Video-MME-v2_64frame", "videommev2"),
        ("LongVideoBench", "longvideobench"), ("EgoExoBench_MCQ", "egoexobench")]
ROWS = {"worldsense": 12, "videott": 20, "videommev2": 16, "longvideobench": 14, "egoexobench": 12}


def _grade(path: Path, bench: str, policy: str = "auto", recorded="find"):
    rec = find_records(path, "video_mcq") if recorded == "find" else recorded
    return video_mcq.grade(read_result_table(path), benchmark=bench, variant="2026-06", recorded=rec, judge_policy=policy)


def _leaves(path: Path) -> dict[str, object]:
    out: dict[str, object] = {}

    def walk(d, pre=""):
        for k, v in d.items():
            if isinstance(v, list):  # EgoExoBench's [correct, total, 'acc%']
                v = {str(i): x for i, x in enumerate(v)}
            walk(v, f"{pre}{k}|") if isinstance(v, dict) else out.__setitem__(pre + k, v)

    walk(json.loads(path.read_text(encoding="utf-8")))
    return out


def _same_cells(report: pl.DataFrame, path: Path) -> None:
    theirs = _leaves(path)
    ours = dict(zip(report["key"].to_list(), report["value"].to_list()))
    assert list(ours) == list(theirs)  # every leaf, in the JSON's order
    for k, v in theirs.items():
        if isinstance(v, str) or isinstance(ours[k], str):
            assert ours[k] == str(v), k  # '0.667' / 'nan' / '66.67%' strings (EgoExoBench's counts as text), exactly
        else:
            assert ours[k] == pytest.approx(float(v), rel=1e-12, abs=0), k


@pytest.mark.parametrize(("name", "bench"), SETS)
def test_recorded_score_file_replays_the_judge(name, bench):
    path = DATA / "judge" / f"m_{name}.xlsx"
    res = _grade(path, bench)
    _same_cells(res.report, DATA / "judge" / f"m_{name}_rating.json")
    score_file = next((DATA / "judge").glob(f"m_{name}_score.*"))  # EgoExoBench's is .csv
    read = pl.read_excel if score_file.suffix == ".xlsx" else pl.read_csv
    recorded = read(score_file)["score"].cast(pl.Float64).to_list()
    assert res.rows["score"].to_list() == recorded
    st = res.stats
    assert st["decided"]["recorded"] > 0 and st["decided"]["undecided"] == 0 and st["matches_archive"] is True
    assert st["record_disagreements"] == 0 and st["reference_error"] is None
    assert report_differences(res.report, read_report(DATA / "judge" / f"m_{name}_rating.json")) == []


@pytest.mark.parametrize(("name", "bench"), SETS)
def test_judge_none_is_exact_matching(name, bench):
    path = DATA / "exact" / f"m_{name}.xlsx"
    res = _grade(path, bench, policy="none")
    _same_cells(res.report, DATA / "exact" / f"m_{name}_rating.json")
    assert res.stats["decided"]["recorded"] == 0 and res.stats["decided_exact"] > 0
    # The judge archive's rows give other numbers under exact matching (the judge mattered).
    judged = _grade(DATA / "judge" / f"m_{name}.xlsx", bench)
    assert judged.rows["score"].sum() > res.rows["score"].sum()


@pytest.mark.parametrize(("name", "bench"), SETS)
def test_no_score_file_needs_judge(tmp_path, name, bench):
    shutil.copy(DATA / "judge" / f"m_{name}.xlsx", tmp_path / f"m_{name}.xlsx")
    path = tmp_path / f"m_{name}.xlsx"
    assert find_records(path, "video_mcq") is None
    res = _grade(path, bench)
    open_rows = res.rows.filter(pl.col("status") == "needs_judge")
    assert open_rows.height == res.stats["decided"]["undecided"] > 0
    assert open_rows["score"].null_count() == open_rows.height
    assert res.rows.height == ROWS[bench]  # nothing dropped
    if bench == "videommev2":
        # Every group of four has an undecided row here: all are left out, as the stats say.
        assert res.stats["groups_left_out"] == 4


def test_regex_rules():
    f = video_mcq.extract_characters_regex
    assert f("Best answer:Best option: D") == "D"  # the glued prefix is one string upstream
    assert f("Best answer: D") == "B"  # not deleted on its own: the 'B' of 'Best' is read, as upstream
    assert f("The best option is B") == "B"  # 'The best option isThe correct...' does not match; 'The answer' is not in it
    assert f("I think it is (D) because") == "D"
    assert f("b") == ""
    assert f("one two three four five six seven eight nine ten eleven") == ""
    assert f("one two three four five six seven eight nine ten eleven C") == "C"
    assert f("The answer is A") == "A"
    assert video_mcq.extract_option_choices("Q?\nA. x\nnoise\nC. z.") == {"A": "x", "C": "z"}


@pytest.mark.parametrize("policy", ["none", "auto"])
def test_worldsense_scores_land_on_the_row_their_index_names(policy):
    # data.loc[idx, 'score']: with the index reversed each verdict lands on the mirrored row
    # (VLMEvalKit's own evaluate on reversed/); one that is no row label breaks upstream.
    path = DATA / "reversed" / "m_WorldSense.xlsx"
    res = _grade(path, "worldsense", policy=policy)
    _same_cells(res.report, DATA / "reversed" / "m_WorldSense_rating.json")
    own = _grade(DATA / "exact" / "m_WorldSense.xlsx", "worldsense", policy="none")
    assert res.rows["score"].to_list() == own.rows["score"].to_list()  # each row's own verdict
    landed = pl.read_excel(DATA / "reversed" / "m_WorldSense_score.xlsx")["score"].cast(pl.Float64).to_list()
    assert landed == own.rows["score"].to_list()[::-1] != own.rows["score"].to_list()
    if policy == "auto":
        assert res.stats["decided"]["recorded"] > 0 and res.stats["record_disagreements"] == 0
    frame = read_result_table(path)
    bad = frame.with_columns(pl.Series("index", [str(i + 1) for i in range(12)]))
    res = video_mcq.grade(bad, benchmark="worldsense", judge_policy="none")
    assert res.report.height == 0 and "not a row label" in res.stats["reference_error"]


def test_regex_v2_rules():
    f = video_mcq.extract_characters_regex_v2
    assert f("Final Answer: F") == "F"
    assert f("Best answer: D") == "D"  # v2's list has its commas: the prefix is deleted
    assert f("Hmm") == "H"  # any capital A-H
    assert f("well i would say that the answer must be the second one of them all") == ""
    assert video_mcq.extract_characters_regex("Final Answer: F") == ""  # v1 reads A-D only


def test_videommev2_groups():
    cal = video_mcq._cal_logic
    assert cal([1, 1, 0, 1], "[1, 2, 3, 4]") == 25.0
    assert cal([1, 0, 1, 0], "[1, [2, 3], 4]") == 100.0 * 4 / 12  # a right third question extends a run of one
    assert cal([0, 1, 0, 0], "[[1, 2], 3, 4]") == 10.0  # a right second question after a wrong first
    assert cal([1, 1, 1, 1], "[[1, 2], 3, 4]") == 100.0
    frame = read_result_table(DATA / "exact" / "m_Video-MME-v2_64frame.xlsx")
    res = video_mcq.grade(frame.head(14), benchmark="videommev2", judge_policy="none")
    assert res.report.height == 0 and "IndexError" in res.stats["reference_error"]
    res = video_mcq.grade(frame.head(15), benchmark="videommev2", judge_policy="none")  # 15 rows: the last group has 3
    assert res.stats["reference_error"] is None and res.report.height > 0
    odd = frame.with_columns(pl.Series("group_structure", ["[1, 2]"] * 16))
    res = video_mcq.grade(odd, benchmark="videommev2", judge_policy="none")
    assert "Unknown group_structure_list" in res.stats["reference_error"]


def test_longvideobench_and_egoexo_rules():
    assert video_mcq.extract_characters_regex("The best answer is E", "ABCDE") == "E"
    assert video_mcq.extract_characters_regex("The best answer is E") == ""  # A-D only elsewhere
    frame = read_result_table(DATA / "exact" / "m_LongVideoBench.xlsx")
    res = video_mcq.grade(frame, benchmark="longvideobench", judge_policy="none")
    assert res.rows.filter(pl.col("extracted") == "E")["score"].to_list() == [1.0, 0.0]  # answer chr(65 + 4) / chr(65 + 0)
    bad = frame.with_columns(pl.Series("duration_group", ["30"] * 14))
    assert "KeyError" in video_mcq.grade(bad, benchmark="longvideobench", judge_policy="none").stats["reference_error"]
    ego = read_result_table(DATA / "exact" / "m_EgoExoBench_MCQ.xlsx")
    missing = ego.with_columns(pl.when(pl.col("index") == "3").then(None).otherwise(pl.col("prediction")).alias("prediction"))
    res = video_mcq.grade(missing, benchmark="egoexobench", judge_policy="none")
    assert res.report.height == 0 and "AttributeError" in res.stats["reference_error"]


def test_written_list_report_round_trip(tmp_path):
    res = _grade(DATA / "judge" / "m_EgoExoBench_MCQ.xlsx", "egoexobench")
    out = tmp_path / "r_rating.json"
    write_report(res.report, out)
    theirs = json.loads((DATA / "judge" / "m_EgoExoBench_MCQ_rating.json").read_text())
    mine = json.loads(out.read_text())
    assert list(mine) == list(theirs) and all(len(v) == 3 for v in mine.values())
    assert [str(x) for x in mine["overall"]] == [str(x) for x in theirs["overall"]]


def test_videott_missing_capability_is_a_reference_error():
    frame = read_result_table(DATA / "exact" / "m_Video-TT.xlsx").head(10)
    res = video_mcq.grade(frame, benchmark="videott", judge_policy="none")
    assert res.report.height == 0 and "ZeroDivisionError" in res.stats["reference_error"]


def test_registry_and_report_round_trip(tmp_path):
    for name in ("WorldSense", "WorldSense_8frame_audio", "WorldSense_0.5fps_subs", "WorldSense_1fps"):
        assert benchmarks.for_dataset(name).name == "worldsense"
    for name in ("Video-TT", "Video_TT_16frame", "Video_TT_64frame"):
        assert benchmarks.for_dataset(name).name == "videott"
    assert benchmarks.get("worldsense").variant_on("2025-03-01") == "classic"
    assert benchmarks.get("videott").variant_on("2026-08-01") == "2026-06"
    for name in ("Video-MME-v2", "Video-MME-v2_64frame_resize_reasoning", "Video-MME-v2_1fps_subs_interleave"):
        assert benchmarks.for_dataset(name).name == "videommev2"
    assert benchmarks.for_dataset("Video-MME-v2_8frame") is None  # no such config upstream
    res = _grade(DATA / "judge" / "m_WorldSense.xlsx", "worldsense")
    out = tmp_path / "m_WorldSense_rating.json"
    write_report(res.report, out)
    assert _leaves(out) == _leaves(DATA / "judge" / "m_WorldSense_rating.json")
    assert headline(read_report(out)) == ("overall|overall", 0.667)


def test_grade_many_matches_the_archive(tmp_path):
    from gaia_fast.grading import many

    tree = tmp_path / "m"
    tree.mkdir()
    for mode in ("judge",):
        for p in (DATA / mode).iterdir():
            shutil.copy(p, tree / p.name)
    records = many.grade_many(many.expand([str(tree)]), report_dir=tmp_path / "R", as_of="2026-08-01")
    by = {r.dataset: r for r in records if r.status != "skipped"}
    assert set(by) == {"WorldSense", "Video-TT", "Video-MME-v2_64frame", "LongVideoBench", "EgoExoBench_MCQ"}
    for r in by.values():
        assert r.status == "ok", r.error
        assert r.archive_report is not None and r.decided_recorded > 0
    assert by["Video-TT"].headline == 70.0 and math.isclose(by["WorldSense"].headline, 0.667)
    assert math.isclose(by["Video-MME-v2_64frame"].headline, 37.395833333333336, rel_tol=1e-15)
    assert math.isclose(by["LongVideoBench"].headline, 0.643) and math.isclose(by["EgoExoBench_MCQ"].headline, 66.67)


VM_ERAS = ["2024-07", "2024-09", "2024-09-20", "2025-07", "2026-06"]


@pytest.mark.parametrize("era", VM_ERAS)
@pytest.mark.parametrize("mode", ["judge", "exact"])
def test_videomme_eras(era, mode):
    # Each era's archive was written by that commit's own evaluate (README); the index is
    # reversed, so the eras that place scores by row label give other per-category cells.
    path = DATA / f"videomme_{era}" / mode / "m_Video-MME.xlsx"
    expected = path.with_name("m_Video-MME_rating.json")
    policy = "auto" if mode == "judge" else "none"
    res = _grade_era(path, era, policy)
    _same_cells(res.report, expected)
    assert res.stats["reference_error"] is None and res.stats["record_disagreements"] == 0
    if era == "2024-07":
        assert res.stats["decided"]["recorded"] == 0 and (res.rows["score"] == -1).sum() == 7
    else:
        assert (res.stats["decided"]["recorded"] > 0) == (mode == "judge")
    # Another era's rule does not give this report (placement, decimals, the fallback).
    other = {"2024-07": "2025-07", "2024-09": "2024-09-20", "2024-09-20": "2025-07", "2025-07": "2024-09-20", "2026-06": "2024-09"}[era]
    assert report_differences(_grade_era(path, other, policy).report, read_report(expected)) != []


def _grade_era(path: Path, era: str, policy: str):
    return video_mcq.grade(read_result_table(path), benchmark="videomme", variant=era,
                           recorded=find_records(path, "video_mcq"), judge_policy=policy)


def test_videomme_registry_eras():
    entry = benchmarks.get("videomme")
    for name in ("Video-MME", "Video-MME_8frame", "Video-MME_0.5fps_subs"):
        assert benchmarks.for_dataset(name) is entry
    assert entry.variant_on("2024-08-01") == "2024-07" and entry.variant_on("2024-09-15") == "2024-09"
    assert entry.variant_on("2025-01-01") == "2024-09-20" and entry.variant_on("2025-07-30") == "2025-07"
    assert entry.variant_on("2026-08-18") == "2026-06"
    with pytest.raises(ValueError):
        video_mcq.grade(read_result_table(DATA / "videomme_2026-06" / "exact" / "m_Video-MME.xlsx"), benchmark="videomme", variant="classic")


@pytest.mark.parametrize(("name", "bench"), [("WorldSense", "worldsense"), ("LongVideoBench", "longvideobench")])
def test_first_commits_exact_matching(name, bench):
    # Written by the sets' first commits (bf73bae8, ef766b81) with their own classic can_infer.
    path = DATA / "first_commits" / f"m_{name}.xlsx"
    res = video_mcq.grade(read_result_table(path), benchmark=bench, variant="classic", judge_policy="none")
    _same_cells(res.report, path.with_name(f"m_{name}_rating.json"))
    assert benchmarks.for_dataset(name).variant_on("2025-03-01" if bench == "worldsense" else "2024-12-01") == "classic"
