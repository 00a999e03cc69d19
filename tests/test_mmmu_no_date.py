"""MMMU_DEV_VAL with no date (no run folder commit, no --as-of): the file's columns pick the era.
The 2023-12 side branch's file (the real qwen_chat archive, graded by 24ebca6b's MMMU_eval)
has question_type/field/subfield/topic_difficulty/image_type; main's files do not (the
synthetic m_MMMU_DEV_VAL, whose _acc.csv VLMEvalKit e8e78f05 wrote: see
tests/data/vlmevalkit_mcq_families/README.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from gaia_fast.grading import many
from gaia_fast.io.vlm import read_result_table
from gaia_fast.scorers.vlm import mcq_reports

DATA = Path(__file__).parent / "data"
OLD = DATA / "vlmevalkit_mcq" / "qwen_chat_MMMU_DEV_VAL.xlsx"
NEW = DATA / "vlmevalkit_mcq_families" / "m_MMMU_DEV_VAL.xlsx"


def test_shape_rule():
    assert mcq_reports.mmmu_eval_shape(read_result_table(OLD).columns)
    assert not mcq_reports.mmmu_eval_shape(read_result_table(NEW).columns)
    assert not mcq_reports.mmmu_eval_shape(
        ["question_type", "field", "subfield", "topic_difficulty"]
    )
    assert mcq_reports.mmmu_eval_shape(
        ["question_type", "field", "subfield", "topic_difficulty", "img_type"]
    )


def test_flat_archives_without_a_date_match_their_own_reports(tmp_path):
    old, new = tmp_path / "qwen_chat", tmp_path / "m"
    old.mkdir()
    new.mkdir()
    shutil.copy(OLD, old / OLD.name)
    shutil.copy(
        OLD.with_name("qwen_chat_MMMU_DEV_VAL_acc.xlsx"),
        old / "qwen_chat_MMMU_DEV_VAL_acc.xlsx",
    )
    shutil.copy(NEW, new / NEW.name)
    shutil.copy(
        DATA / "vlmevalkit_mcq_families" / "expected" / "m_MMMU_DEV_VAL_acc.csv",
        new / "m_MMMU_DEV_VAL_acc.csv",
    )
    records = {
        r.model: r
        for r in many.grade_many(
            many.expand([str(tmp_path)]), report_dir=tmp_path / "R"
        )
        if r.status != "skipped"
    }
    assert records["qwen_chat"].variant == "2023-12"
    assert records["m"].variant == "classic"
    for r in records.values():
        assert r.archive_report is not None and r.status == "ok", (
            r.model,
            r.status,
            r.error,
        )
