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
