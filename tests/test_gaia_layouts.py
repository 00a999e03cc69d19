"""GAIA result layouts of agent frameworks, read with no column flags (issue 21).

Each sample in tests/data/gaia_layouts/ holds MADE-UP tasks in one framework's exact
field structure (see docs/gaia_layouts.md for the file each structure was read from)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from gaia_fast.io import gaia_fields
from gaia_fast.io.readers import (
    QUESTION,
    VERDICT,
    InputError,
    detect_layout,
    read_archive,
    scan_archive,
)

DATA = Path(__file__).parent / "data" / "gaia_layouts"


def read(name: str, **kw):
    frame, skipped, layout = read_archive(DATA / name, with_layout=True, **kw)
    assert skipped == []
    return frame, layout


# --------------------------------------------------------------------------- one test per layout


def test_smolagents_decentralized_jsonl_has_no_task_id_but_a_question():
    frame, layout = read("smolagents_decentralized.jsonl")
    assert (layout.name, layout.task_id, layout.prediction, layout.truth, layout.question) == (
        "smolagents-decentralized", None, "answer", "true_answer", "question"
    )
    assert frame.get_column("task_id").null_count() == 5
    assert frame.get_column("prediction").to_list() == ["42", "Ossory", "amberleaf, zest-root", None, "7"]
    assert frame.get_column(QUESTION)[0].startswith("A made-up orchard")


def test_tapeagents_folder_of_tapes_is_one_archive_with_nested_fields():
    frame, layout = read("tapeagents_tapes")
    assert (layout.name, layout.task_id, layout.prediction, layout.truth, layout.level) == (
        "tapeagents-tape", "metadata.task.task_id", "metadata.result", "metadata.task.Final answer", "metadata.level"
    )
    assert frame.select("task_id", "prediction", "truth", "level").rows() == [
        ("mk-0001", "42", "42", 1),
        ("mk-0002", "Brindle", "Ossory", 1),
        ("mk-0005", "Tamsin", "Tamsin", 3),
    ]
    assert frame.get_column("file").to_list() == ["l1_task000.json", "l1_task001.json", "l3_task002.json"]
    scan = scan_archive(DATA / "tapeagents_tapes")
    assert len(scan.files) == 3 and scan.frame.collect().height == 3


def test_open_deep_research_jsonl_with_its_verdict():
    frame, layout = read("open_deep_research.jsonl")
    assert (layout.name, layout.prediction, layout.truth, layout.level, layout.verdict) == (
        "smolagents", "prediction", "true_answer", "task", "is_correct"
    )
    assert frame.get_column(VERDICT).to_list() == [True, True, False, True, False]


def test_openhands_output_prefers_the_scorer_facing_answer_over_the_raw_one():
    frame, layout = read("openhands_output.jsonl")
    assert (layout.name, layout.task_id, layout.prediction, layout.truth, layout.level, layout.verdict) == (
        "openhands-output", "instance_id", "test_result.model_answer", "test_result.ground_truth", "instance.Level", "test_result.score"
    )
    assert frame.get_column("prediction").to_list() == ["42", "the Ossory river", "150.", "Tamsin"]
    assert frame.get_column("level").to_list() == [1, 1, 2, 3]  # "1" (a string in instance) read as a level
    assert frame.get_column(VERDICT).to_list() == [True, False, False, True]  # true / false / 1


def test_agents_course_submission_is_an_object_holding_a_list():
    frame, layout = read("agents_course_submission.json")
    assert (layout.name, layout.task_id, layout.prediction, layout.truth) == ("agents-course-submission", "task_id", "submitted_answer", None)
    assert frame.get_column("task_id").to_list() == ["mk-0001", "mk-0002", "mk-0005"]


def test_agents_course_results_log_is_a_json_list():
    frame, layout = read("agents_course_results_log.json")
    assert (layout.name, layout.task_id, layout.prediction) == ("agents-course-log", "Task ID", "Submitted Answer")
    assert frame.get_column("prediction").to_list() == ["42", "AGENT ERROR: made-up timeout"]


def test_agentjo_results_take_the_raw_output_and_a_string_verdict():
    frame, layout = read("agentjo_results.json")
    assert (layout.name, layout.task_id, layout.prediction, layout.truth, layout.verdict) == (
        "agentjo-results", None, "output", "true_answer", "is_correct"
    )
    assert frame.get_column(VERDICT).to_list() == [True, False]  # "True" / "False"


def test_named_layouts_keep_their_names_and_columns():
    _, layout = read("leaderboard_templates.jsonl")
    assert (layout.name, layout.task_id, layout.prediction, layout.verdict) == ("leaderboard-submission", "task_id", "model_answer", None)


# --------------------------------------------------------------------------- shapes


def test_shapes_json_lines_list_object_with_list_and_one_record(tmp_path):
    rows = [{"task_id": "a", "submitted_answer": "1"}, {"task_id": "b", "submitted_answer": "2"}]
    (tmp_path / "l.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    (tmp_path / "list.json").write_text(json.dumps(rows))
    (tmp_path / "obj.json").write_text(json.dumps({"run": "x", "entries": rows}))  # an unnamed key: its only list
    (tmp_path / "one.json").write_text(json.dumps(rows[0]))
    for name, n in (("l.jsonl", 2), ("list.json", 2), ("obj.json", 2), ("one.json", 1)):
        frame, _ = read_archive(tmp_path / name)
        assert frame.get_column("prediction").to_list() == ["1", "2"][:n], name


def test_folder_of_per_task_files_takes_ids_from_file_names(tmp_path):
    d = tmp_path / "runs"
    (d / "sub").mkdir(parents=True)
    (d / "mk-0001.json").write_text(json.dumps({"final_answer": "42"}))
    (d / "sub" / "mk-0002.json").write_text(json.dumps({"final_answer": "Ossory"}))
    (d / "notes.txt").write_text("not a result")
    frame, _, layout = read_archive(d, with_layout=True)
    assert layout.name.endswith("+file-names")
    assert frame.select("task_id", "prediction", "file").rows() == [("mk-0001", "42", "mk-0001.json"), ("mk-0002", "Ossory", "sub/mk-0002.json")]


def test_a_bad_file_in_a_folder_is_named(tmp_path):
    d = tmp_path / "runs"
    d.mkdir()
    (d / "a.json").write_text(json.dumps({"task_id": "a", "final_answer": "1"}))
    (d / "b.json").write_text(json.dumps({"task_id": "b", "final_answer": "2"}))
    (d / "c.json").write_text(json.dumps({"task_id": "c", "final_answer": "3"}))
    (d / "d.json").write_text("{not json")
    with pytest.raises(InputError, match=r"d\.json:1: invalid JSON"):
        read_archive(d)
    frame, skipped = read_archive(d, skip_bad_lines=True)
    assert frame.height == 3 and len(skipped) == 1 and skipped[0].path.endswith("d.json")


def test_nested_records_in_json_lines(tmp_path):
    p = tmp_path / "n.jsonl"
    p.write_text(json.dumps({"metadata": {"result": "7", "task": {"task_id": "t1", "Final answer": "7", "Level": 2}}}) + "\n")
    frame, _, layout = read_archive(p, with_layout=True)
    assert frame.select("task_id", "prediction", "truth", "level").rows() == [("t1", "7", "7", 2)]
    assert layout.nested


# --------------------------------------------------------------------------- the vocabulary


def test_two_answer_fields_are_listed_with_the_flag():
    with pytest.raises(InputError) as e:
        detect_layout(["task_id", "submitted_answer", "final_answer"], "x.jsonl")
    assert "'submitted_answer', 'final_answer'" in str(e.value) and "--prediction-col" in str(e.value)
    layout = detect_layout(["task_id", "submitted_answer", "final_answer"], "x.jsonl", prediction_col="final_answer")
    assert layout.prediction == "final_answer"


def test_raw_responses_only_when_no_scorer_facing_answer():
    assert gaia_fields.recognise(["output", "final_answer"]).prediction == "final_answer"
    assert gaia_fields.recognise(["output", "task_id"]).prediction == "output"
    assert gaia_fields.recognise(["task_id", "question"]) is None


def test_verdict_values():
    vals = [True, False, 1, 0, 1.0, 0.5, "True", "false", " PASSED ", "✅", None, "maybe", [1]]
    want = [True, False, True, False, True, None, True, False, True, True, None, None, None]
    assert [gaia_fields.verdict_value(v) for v in vals] == want
    # The expression form agrees on what a column can hold.
    s = pl.Series(["True", "false", " PASSED ", "✅", None, "maybe", "1", "0.0"])
    assert pl.select(gaia_fields.verdict_expr(pl.lit(s))).to_series().to_list() == [True, False, True, True, None, None, True, False]


def test_get_path_prefers_a_dotted_top_level_key():
    assert gaia_fields.get_path({"a.b": 1, "a": {"b": 2}}, "a.b") == 1
    assert gaia_fields.get_path({"a": {"b.c": 3}}, "a.b.c") == 3
    assert gaia_fields.get_path({"a": 1}, "a.b") is None


def test_inspect_logs_are_graded_unaided_with_inspects_verdict_audited(tmp_path):
    # An Inspect log (.eval, or JSON with "eval" and "samples") is read by gaia_fast.io.inspect_logs;
    # its own verdict is audited against the official rule like any framework's.
    from click.testing import CliRunner

    from gaia_fast.cli import main

    logs = Path(__file__).parent / "data" / "inspect_logs"
    for name in ("gaia_made_up.eval", "gaia_made_up.json"):
        frame, _ = read_archive(logs / name)
        assert frame.height >= 5 and frame["task_id"].null_count() == 0
        r = CliRunner().invoke(main, ["grade", str(logs / name), "--json", "--comparison", str(tmp_path / f"{name}.csv")])
        assert r.exit_code == 0, r.output
        payload = json.loads(r.stdout)
        assert payload["layout"] == "inspect-log" and payload["tasks"] == 5
        audit = payload["audit"]["verdict"]
        assert audit["rows"] == 4 and audit["agree"] == 4 and audit["disagree"] == 0  # the errored sample has no score


# --------------------------------------------------------------------------- held-out real layouts


def test_rllm_evaluation_results_take_predicted_answer():
    # rLLM-style GAIA evaluation (yayashuxue/rllm gaia_evaluation_results.json; the same row
    # fields in Pochita7/bishe gaia_results.jsonl): an object with a run summary and a list
    # "detailed_results"; "trajectory" is a Python repr holding the task's "Final answer" as
    # text, never a field.
    frame, layout = read("rllm_gaia_evaluation_results.json")
    assert (layout.task_id, layout.prediction, layout.truth, layout.verdict) == ("task_id", "predicted_answer", "ground_truth", "is_correct")
    assert frame.get_column("prediction").to_list() == ["42", "", "0.056", "tamsin"]
    assert frame.get_column(VERDICT).to_list() == [True, False, True, False]


def test_a_gaia_file_named_like_an_evaluation_output_is_graded_with_benchmark_gaia(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from gaia_fast.cli import main

    f = DATA / "rllm_gaia_evaluation_results.json"  # "*_results.json": VLMEvalKit's name of a judged copy
    meta = DATA / "metadata"
    r = CliRunner().invoke(main, ["grade", str(f), "--metadata", str(meta), "--comparison", str(tmp_path / "c.csv")])
    assert r.exit_code != 0 and "not a result file" in r.output and "--benchmark gaia" in r.output
    r = CliRunner().invoke(main, ["grade", str(f), "--metadata", str(meta), "--benchmark", "gaia", "--json", "--comparison", str(tmp_path / "c.csv")])
    assert r.exit_code == 0, r.output
    payload = json.loads(r.stdout)
    assert (payload["input_rows"], payload["tasks"], payload["correct"]) == (4, 5, 2)  # 42; "tamsin" = "Tamsin"
    v = payload["audit"]["verdict"]
    assert (v["agree"], v["disagree"]) == (2, 2)
    assert {(d["task_id"], d["framework"], d["official"]) for d in v["disagreements"]} == {("mk-0004", True, False), ("mk-0005", False, True)}
    # A quoted glob follows the same rule.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "gaia_results.json").write_bytes(f.read_bytes())
    glob = str(tmp_path / "runs" / "*.json")
    r = CliRunner().invoke(main, ["grade", glob, "--metadata", str(meta), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["archives"] == [] and len(json.loads(r.stdout)["skipped_files"]) == 1
    r = CliRunner().invoke(main, ["grade", glob, "--metadata", str(meta), "--benchmark", "gaia", "--json"])
    assert r.exit_code == 0, r.output
    (job,) = json.loads(r.stdout)["archives"]
    assert (job["rows"], job["correct"], job["status"]) == (4, 2, "ok")


def test_a_file_with_no_task_of_the_metadata_is_warned_about(tmp_path):
    # A test-split submission (or another benchmark's file) against validation metadata:
    # every row is an unknown task, and the 0% would mislead without the warning.
    from click.testing import CliRunner

    from gaia_fast.cli import main

    f = tmp_path / "gaia_submission.jsonl"
    f.write_text("".join(json.dumps({"task_id": f"test-{i}", "model_answer": "42"}) + "\n" for i in range(3)))
    r = CliRunner().invoke(main, ["grade", str(f), "--metadata", str(DATA / "metadata"), "--json", "--comparison", str(tmp_path / "c.csv")])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["status_counts"] == {"missing": 5, "unknown_task": 3}
    assert "none of its 3 row(s) is a task of --metadata (split validation)" in " ".join(r.stderr.split())
    assert len(got["warnings"]) == 1 and "none of its 3 row(s) is a task of --metadata" in got["warnings"][0]
    # A folder of archives says it in the file's note (the summary's error / note column).
    summary = tmp_path / "summary.csv"
    r = CliRunner().invoke(
        main, ["grade", str(tmp_path), "--benchmark", "gaia", "--metadata", str(DATA / "metadata"), "--summary", str(summary), "--report-dir", str(tmp_path / "rep")]
    )
    assert r.exit_code == 0, r.output
    (row,) = [x for x in pl.read_csv(summary).iter_rows(named=True) if x["path"].endswith("gaia_submission.jsonl")]
    assert row["status"] == "ok" and "none of its 3 row(s) is a task of --metadata" in row["error"]
    # One known task is enough: no warning.
    f.write_text(json.dumps({"task_id": "mk-0001", "model_answer": "42"}) + "\n" + json.dumps({"task_id": "test-1", "model_answer": "1"}) + "\n")
    r = CliRunner().invoke(main, ["grade", str(f), "--metadata", str(DATA / "metadata"), "--json", "--comparison", str(tmp_path / "c.csv")])
    assert r.exit_code == 0 and "none of its" not in r.stderr


def test_gaia_task_records_are_not_graded_as_answers(tmp_path):
    # The dataset itself in a converted form (WYRipple/ExpSeek data/gaia.jsonl: id, task_id,
    # question, answer, Level, Annotator_Metadata): "answer" is the truth. Taken as the final
    # answer, every task would be graded correct.
    p = tmp_path / "gaia.jsonl"
    rec = {"id": 1, "task_id": "mk-0001", "question": "q", "answer": "42", "Level": 1, "Annotator_Metadata": {"Steps": "1."}}
    p.write_text(json.dumps(rec) + "\n")
    with pytest.raises(InputError, match=r"GAIA tasks \(they carry 'Annotator_Metadata'\): 'answer' is the task's truth.*--prediction-col"):
        read_archive(p)
    frame, _ = read_archive(p, prediction_col="answer")  # the user's choice stands
    assert frame.get_column("prediction").to_list() == ["42"]
    # A result that copies its task in keeps "answer" as the model's: the truth is "Final answer".
    p.write_text(json.dumps({**rec, "Final answer": "41", "Annotator Metadata": {}}) + "\n")
    frame, _, layout = read_archive(p, with_layout=True)
    assert (layout.prediction, layout.truth) == ("answer", "Final answer")


def test_a_file_whose_questions_are_not_gaias_is_warned_about(tmp_path):
    # Another benchmark's results with no task ids (WYRipple/ExpSeek's WebWalker eval rounds:
    # question, answer = gold, prediction): no question joins the metadata, so each row is
    # graded against the file's own truth beside every metadata task missing.
    from click.testing import CliRunner

    from gaia_fast.cli import main

    f = tmp_path / "eval_round1.jsonl"
    rows = [{"question": f"Not a GAIA question {i}?", "answer": "x", "prediction": "x" if i else "y", "termination": "answer"} for i in range(3)]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = CliRunner().invoke(main, ["grade", str(f), "--metadata", str(DATA / "metadata"), "--json", "--comparison", str(tmp_path / "c.csv")])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["audit"]["join"]["unmatched"] == 3
    assert "none of its 3 question(s) is a question of --metadata" in " ".join(r.stderr.split())
    # The GAIA sample joins on its questions: no warning.
    r = CliRunner().invoke(main, ["grade", str(DATA / "smolagents_decentralized.jsonl"), "--metadata", str(DATA / "metadata"), "--json", "--comparison", str(tmp_path / "c.csv")])
    assert r.exit_code == 0 and "is a question of --metadata" not in r.stderr


def test_camel_objects_one_after_another_in_a_jsonl_file(tmp_path):
    # CAMEL's GAIABenchmark (camel-ai/camel examples/benchmarks/gaia_results.jsonl) appends
    # json.dumps(result, indent=2) per task: pretty-printed objects, not JSON Lines. The
    # leaderboard fields (task_id, model_answer) with the truth and verdict beside them.
    frame, layout = read("camel_gaia_results.jsonl")
    assert (layout.name, layout.task_id, layout.prediction, layout.truth, layout.verdict) == (
        "leaderboard-submission", "task_id", "model_answer", "ground_truth", "score"
    )
    assert frame.select("task_id", "prediction", "truth").rows() == [
        ("mk-0001", "42", "42"), ("mk-0002", "search the map for the river", "Ossory"), ("mk-0005", "tamsin", "Tamsin")
    ]
    assert frame.get_column(VERDICT).to_list() == [True, False, False]
    assert scan_archive(DATA / "camel_gaia_results.jsonl").frame.collect().height == 3
    # A broken object is named by the line it breaks on.
    bad = tmp_path / "gaia_results.jsonl"
    bad.write_text((DATA / "camel_gaia_results.jsonl").read_text().replace('"score": 0,', '"score": 0', 1))
    with pytest.raises(InputError, match=r"gaia_results\.jsonl:\d+: invalid JSON.*objects one after another"):
        read_archive(bad)
