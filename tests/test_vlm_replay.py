"""The shared replay stats helpers (gaia_fast.scorers.vlm._replay)."""

import math

import pytest
from gaia_fast.scorers.vlm import _replay as r


def test_method_line_skips_zero_counts_and_names_the_unit():
    line = r.method_line([("rules", 3, "prefetch"), ("recorded judge gpt4", 0), ("x", 2)], undecided=1, unit="questions")
    assert line == "rules (prefetch, 3 questions) + x (2 questions) + 1 questions undecided (needs_judge)"
    assert r.method_line([("rules", 0)], undecided=0) == "no rows"


def test_decided_from_routes_maps_judge_to_live_and_ignores_errors():
    assert r.decided_from_routes({"recorded": 4, "judge": 2, "needs_judge": 1, "error": 5}) == {
        "rules": 0, "recorded": 4, "live": 2, "undecided": 1,
    }


def test_replay_matches_needs_records_auto_and_nothing_open():
    assert r.replay_matches("judge gpt4", "auto", 0, 0) is True
    assert r.replay_matches("judge gpt4", "auto", 0, 1) is False
    assert r.replay_matches("judge gpt4", "none", 0) is False
    assert r.replay_matches(None, "auto") is False


def test_disagreement_keys_flag_only_when_nonzero():
    assert r.disagreement_keys("record_disagreements", 0) == {"record_disagreements": 0, "flags": {}}
    assert r.disagreement_keys("prefetch_disagreements", 2) == {"prefetch_disagreements": 2, "flags": {"prefetch_disagreements": 2}}


def test_tally_keys_and_method_keys_order():
    t = r.tally_keys(5, 0, 0)
    assert list(t) == ["rows", "tasks", "correct", "accuracy"] and math.isnan(t["accuracy"])
    assert r.tally_keys(5, 4, 3) == {"rows": 5, "tasks": 4, "correct": 3.0, "accuracy": 0.75}
    keys = r.method_keys({"rules": 1}, "m", "auto", None, False, "questions")
    assert list(keys) == ["decided", "decided_unit", "method", "judge_policy", "archive_method", "matches_archive"]
    assert keys["decided_unit"] == "questions"


def test_check_replay_args_rejects_bad_policy_and_records():
    with pytest.raises(ValueError, match="judge_policy must be one of 'auto', 'none', not 'live'"):
        r.check_replay_args("live", None)
    with pytest.raises(TypeError, match="recorded must be a Records"):
        r.check_replay_args("auto", {"1": {}})
    assert r.judge_label(None) == "recorded judge" and not r.has_record_files(None)


def test_replay_stats_key_order_counts_flags_and_records(tmp_path):
    import polars as pl
    from gaia_fast.scorers.vlm.recorded import Records

    rows = pl.DataFrame({"status": ["ok", "needs_judge", "ok"]})
    rec = Records(tmp_path / "m_X.xlsx", "judged", "gpt4", (tmp_path / "m_X_gpt4.xlsx",), {"1": {"score": 1}}, (), ["a note"])
    s = r.replay_stats(
        "x", "classic", rows, input_rows=3, tasks=2, correct=1, decided=r.decided_from_routes({"recorded": 2, "needs_judge": 1}),
        method="m", judge_policy="auto", archive_method="judge gpt4", matches=False,
        counts={"record_disagreements": 0, "records_without_row": 2}, crashed_rows=1, reference_error="e", recorded=rec,
    )
    assert list(s) == [
        "benchmark", "variant", "rows", "tasks", "correct", "accuracy", "decided", "decided_unit", "method", "judge_policy",
        "archive_method", "matches_archive", "record_disagreements", "records_without_row", "flags", "status", "judge",
        "crashed_rows", "reference_error", "records",
    ]
    assert s["flags"] == {"records_without_row": 2}  # by default the counts that are not 0
    assert s["status"] == {"needs_judge": 1, "ok": 2} and s["accuracy"] == 0.5 and s["correct"] == 1.0
    assert s["records"] == {"judge": "gpt4", "files": ["m_X_gpt4.xlsx"], "entries": 1, "notes": ["a note"]}
    # No records given: no "records" key; an explicit accuracy and flags replace the defaults
    # (the accuracy keeps its place).
    s = r.replay_stats(
        "x", None, rows, input_rows=3, tasks=2, correct=1, decided={}, method="m", judge_policy="none",
        archive_method=None, matches=False, counts={"n": 1}, flags={}, accuracy=0.25,
    )
    assert "records" not in s and s["flags"] == {} and s["n"] == 1 and s["accuracy"] == 0.25
    assert list(s).index("accuracy") == 5 and s["crashed_rows"] == 0 and s["reference_error"] is None


def test_rules_only_stats_optional_keys_keep_their_places():
    import polars as pl

    rows = pl.DataFrame({"status": ["ok", "unparsed"]})
    s = r.rules_only_stats("q", "classic", rows, input_rows=2, tasks=1, correct=True, accuracy=None, method="rules", flags={"unparsed": 1})
    assert list(s) == [
        "benchmark", "variant", "rows", "tasks", "correct", "accuracy", "decided", "decided_unit", "method",
        "archive_method", "matches_archive", "flags", "status", "judge", "reference_error",
    ]
    assert s["decided"] == {"rules": 1, "recorded": 0, "live": 0, "undecided": 0} and s["correct"] == 1.0
    assert s["matches_archive"] is True and s["archive_method"] is None and s["status"] == {"ok": 1, "unparsed": 1}
    s = r.rules_only_stats(
        "s", None, rows, input_rows=2, tasks=1, correct=0, accuracy=0.0, method="rules", archive_method="judge j",
        matches=False, crashed_rows=0,
    )
    assert "flags" not in s and list(s)[-4:] == ["status", "judge", "crashed_rows", "reference_error"]
    assert s["matches_archive"] is False and s["archive_method"] == "judge j"
