"""`gaia-fast grade`: every layout, the summaries, the outputs and each bad-input path."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gaia_fast.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "gaia"


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run the CLI in tmp_path (answer_comparison.csv lands there)."""
    monkeypatch.chdir(tmp_path)

    def _run(*args: str):
        return CliRunner().invoke(main, ["grade", *map(str, args)], catch_exceptions=False)

    return _run


def jsonl(path: Path, rows: list, raw: dict[int, str] | None = None) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    for i, text in (raw or {}).items():
        lines.insert(i, text)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def metadata(folder: Path, tasks: dict[str, tuple[str, int]], split: str = "validation") -> Path:
    d = folder / "2023" / split
    d.mkdir(parents=True)
    jsonl(
        d / "metadata.jsonl",
        [{"task_id": t, "Question": f"Synthetic {t}?", "Level": lvl, "Final answer": a, "file_name": ""} for t, (a, lvl) in tasks.items()],
    )
    return folder


def summary_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --------------------------------------------------------------------------- the shipped example


def test_readme_command_on_example(run, tmp_path):
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Accuracy by level" in out and "Macro (mean of levels)" in out and "Overall (weighted)" in out
    assert "56.7%" in out and "58.3%" in out  # macro vs weighted differ
    assert "missing 1" in out and "no_prediction 1" in out
    csv = (tmp_path / "answer_comparison.csv").read_bytes()
    assert csv.startswith(b"task_id,level,expected_answer,actual_answer,match\r\n")
    assert b"example-10,2,Bluebird,,False\r\n" in csv


def test_example_json_summary(run):
    s = summary_json(run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--json"))
    assert s["layout"] == "agent-framework"
    assert (s["input_rows"], s["rows"], s["tasks"], s["correct"], s["excluded"]) == (11, 12, 12, 7, 0)
    assert s["accuracy_weighted"] == pytest.approx(7 / 12)
    assert s["accuracy_macro"] == pytest.approx((1.0 + 0.2 + 0.5) / 3)
    assert [(l["level"], l["tasks"], l["correct"]) for l in s["levels"]] == [(1, 5, 5), (2, 5, 1), (3, 2, 1)]
    assert s["status_counts"] == {"missing": 1, "no_prediction": 1, "ok": 10}
    assert s["comparison"]["rows"] == 12


def test_example_workspace_and_submission(run):
    s = summary_json(run(EXAMPLES / "workspace", "--metadata", EXAMPLES / "dataset", "--json"))
    assert s["layout"] == "workspace" and s["status_counts"] == {"missing": 2, "ok": 10}
    r = run(EXAMPLES / "submission.jsonl", "--metadata", EXAMPLES / "dataset", "--submission")
    assert r.exit_code == 0, r.output
    assert "Leaderboard submission check (validation): valid" in r.stdout
    assert "Leaderboard score: 58.3% (7/12" in r.stdout


def test_compare_lists_lenient_false_positive(run):
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--compare", "gaia-lenient")
    assert r.exit_code == 0, r.output
    assert "2 row(s) where gaia and gaia-lenient disagree" in r.stdout
    assert "17000" in r.stdout
    s = summary_json(run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--compare", "gaia-lenient", "--json"))
    rows = {row["task_id"]: row for row in s["compare"]["rows"]}
    assert s["compare"]["disagreements"] == 2
    assert rows["example-06"]["prediction"] == "17000" and rows["example-06"]["truth"] == "17"
    assert rows["example-06"]["score"] is False and rows["example-06"]["compare_score"] is True
    assert s["compare"]["summary"]["correct"] == 9


# --------------------------------------------------------------------------- Zypher spec §4 example


def test_comparison_csv_byte_exact_zypher_example(run, tmp_path):
    ws = tmp_path / "workspace"
    answers = {
        "t1": b"FINAL ANSWER: $42",
        "t2": b"  FINAL ANSWER: b; e  ",
        "t3": b"final answer: sea gull",
        "t4": b"FINAL ANSWER:17",
        "t5": b'FINAL ANSWER: He said "hi"',
        "t6": b"ERROR: model gave up",
        "t7": b"FINAL ANSWER: \xff not utf-8",
        "zz-unknown": b"1",
    }
    for tid, data in answers.items():
        (ws / tid).mkdir(parents=True)
        (ws / tid / "answer.txt").write_bytes(data)
    ds = metadata(
        tmp_path / "GAIA",
        {"t1": ("42", 1), "t2": ("b, e", 1), "t3": ("Sea Gull", 2), "t4": ("17", 2), "t5": ('He said "hi"', 3), "t6": ("x", 2), "t7": ("ok", 1)},
    )
    r = run(ws, "--metadata", ds, "--json")
    s = summary_json(r)
    expected = (
        b"task_id,level,expected_answer,actual_answer,match\r\n"
        b"t1,1,42,$42,True\r\n"
        b't2,1,"b, e",b; e,True\r\n'
        b"t3,2,Sea Gull,final answer: sea gull,False\r\n"
        b"t4,2,17,FINAL ANSWER:17,False\r\n"
        b't5,3,"He said ""hi""","He said ""hi""",True\r\n'
        b"t6,2,x,ERROR: model gave up,False\r\n"
        b"t7,1,ok,ERROR: 'utf-8' codec can't decode byte 0xff in position 14: invalid start byte,False\r\n"
        b"zz-unknown,0,NOT_FOUND,1,False\r\n"
    )
    assert (tmp_path / "answer_comparison.csv").read_bytes() == expected
    # gaia-fast's own accounting: the unknown task is excluded, the unreadable one is wrong
    assert (s["rows"], s["tasks"], s["correct"], s["excluded"]) == (8, 7, 3, 1)
    assert s["status_counts"] == {"ok": 6, "read_error": 1, "unknown_task": 1}
    assert [(l["level"], l["tasks"], l["correct"]) for l in s["levels"]] == [(1, 3, 2), (2, 3, 0), (3, 1, 1), (None, 0, 0)]


def test_comparison_path_option(run, tmp_path):
    target = tmp_path / "sub" / "cmp.csv"
    target.parent.mkdir()
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--comparison", target)
    assert r.exit_code == 0, r.output
    assert target.is_file() and not (tmp_path / "answer_comparison.csv").exists()
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--comparison", tmp_path / "nodir" / "c.csv")
    assert r.exit_code == 2 and "cannot write" in r.stderr


# --------------------------------------------------------------------------- --out


@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet"])
def test_out_formats_have_all_rows_and_columns(run, tmp_path, ext):
    out = tmp_path / f"all.{ext}"
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--out", out, "--explain")
    assert r.exit_code == 0, r.output
    back = {"csv": pl.read_csv, "jsonl": pl.read_ndjson, "parquet": pl.read_parquet}[ext](out)
    assert back.height == 12
    for col in ("task_id", "prediction", "truth", "level", "score", "status", "reason", "messages", "archive_score", "archive_truth"):
        assert col in back.columns, col
    by_id = {r["task_id"]: r for r in back.iter_rows(named=True)}
    assert by_id["example-10"]["status"] == "missing"
    assert by_id["example-07"]["status"] == "no_prediction"
    assert by_id["example-06"]["score"] in (False, "false")
    assert "17000" in by_id["example-06"]["reason"]


def test_out_bad_extension(run, tmp_path):
    r = run(EXAMPLES / "results.jsonl", "--out", tmp_path / "x.xlsx")
    assert r.exit_code == 2 and "--out" in r.stderr


def test_graded_scorer_and_explain(run, tmp_path):
    out = tmp_path / "g.jsonl"
    s = summary_json(run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--scorer", "gaia-graded", "--out", out, "--json", "--explain"))
    assert s["scorer"] == "gaia-graded" and isinstance(s["correct"], float)
    rows = {r["task_id"]: r for r in pl.read_ndjson(out).iter_rows(named=True)}
    assert rows["example-08"]["kind"] == "reordered" and 0 < rows["example-08"]["score"] < 1
    assert rows["example-10"]["kind"] is None and rows["example-10"]["score"] == 0.0
    cmp = (Path.cwd() / "answer_comparison.csv").read_text()
    assert "example-02,1,1250,\"$1,250\",True" in cmp  # graded 0.95 is an official match


# --------------------------------------------------------------------------- every layout


def test_smolagents_layout_truth_from_archive(run, tmp_path):
    rows = [
        {"agent_name": "a", "question": "q", "prediction": "17", "true_answer": "17", "task": 1, "task_id": "s1"},
        {"agent_name": "a", "question": "q", "prediction": "Error: x", "true_answer": "y", "task": 2, "task_id": "s2"},
        {"agent_name": "a", "question": "q", "prediction": "z", "true_answer": "?", "task": 2, "task_id": "s3"},
    ]
    s = summary_json(run(jsonl(tmp_path / "s.jsonl", rows), "--json"))
    assert s["layout"] == "smolagents"
    assert (s["tasks"], s["correct"], s["excluded"]) == (2, 1, 1)
    assert s["status_counts"] == {"no_truth": 1, "ok": 2}


def test_gaia_agent_json_layout(run, tmp_path):
    doc = {
        "metadata": {"dataset": "validation", "agent": "gaia-agent"},
        "results": [
            {"taskId": "g1", "level": 1, "answer": "I think it is 17000.", "expectedAnswer": "17", "correct": True, "stepDetails": []},
            {"taskId": "g2", "level": 2, "answer": "Paris", "expectedAnswer": "paris", "correct": True, "stepDetails": [{"a": 1}]},
        ],
    }
    path = tmp_path / "gaia-validation-latest.json"
    path.write_text(json.dumps(doc, indent=2))
    s = summary_json(run(path, "--scorer", "gaia-lenient", "--json"))
    assert s["layout"] == "gaia-agent" and s["correct"] == 2
    s = summary_json(run(path, "--json"))
    assert s["correct"] == 1


def test_csv_with_custom_columns(run, tmp_path):
    path = tmp_path / "r.csv"
    path.write_text('qid,model_output,gold,difficulty\nq1,"b, e","b, e",1\nq2,x,y,2\n')
    r = run(path)
    assert r.exit_code == 2 and "--prediction-col" in r.stderr
    s = summary_json(run(path, "--prediction-col", "model_output", "--truth-col", "gold", "--id-col", "qid", "--level-col", "difficulty", "--json"))
    assert s["layout"] == "custom" and (s["tasks"], s["correct"]) == (2, 1)
    assert [l["level"] for l in s["levels"]] == [1, 2]


def test_tsv_parquet_xlsx_layouts(run, tmp_path):
    frame = pl.DataFrame({"task_id": ["a", "b", "c"], "prediction": ["$42", "no", None], "truth": ["42", "yes", "z"], "level": [1, 2, 2]})
    frame.write_parquet(tmp_path / "r.parquet")
    frame.write_csv(tmp_path / "r.tsv", separator="\t")
    paths = [tmp_path / "r.parquet", tmp_path / "r.tsv"]
    try:
        import xlsxwriter  # noqa: F401

        frame.write_excel(tmp_path / "r.xlsx")
        paths.append(tmp_path / "r.xlsx")
    except ImportError:  # pragma: no cover
        pass
    for p in paths:
        s = summary_json(run(p, "--json"))
        assert (s["rows"], s["tasks"], s["correct"]) == (3, 3, 1), p
        assert s["status_counts"] == {"no_prediction": 1, "ok": 2}, p


def test_submission_layout_needs_truth(run, tmp_path):
    path = jsonl(tmp_path / "sub.jsonl", [{"task_id": "t1", "model_answer": "a"}])
    r = run(path)
    assert r.exit_code == 2 and "no truth column" in r.stderr


# --------------------------------------------------------------------------- metadata join


def test_metadata_join_missing_task_and_denominators(run, tmp_path):
    ds = metadata(tmp_path / "GAIA", {"t1": ("42", 1), "t2": ("x", 1), "t3": ("y", 2), "t4": ("?", 3)})
    rows = [
        {"task_id": "t1", "level": 1, "answer": "42", "prediction": "42"},
        {"task_id": "t3", "level": 2, "answer": "WRONG TRUTH", "prediction": "y"},
        {"task_id": "t4", "level": 3, "answer": "?", "prediction": "q"},
        {"task_id": "extra", "level": 1, "answer": "e", "prediction": "e"},
    ]
    out = tmp_path / "o.csv"
    r = run(jsonl(tmp_path / "r.jsonl", rows), "--metadata", ds, "--out", out, "--json")
    s = summary_json(r)
    assert "differs from the metadata" in r.stderr
    assert (s["rows"], s["tasks"], s["correct"], s["excluded"]) == (5, 3, 2, 2)
    assert s["status_counts"] == {"missing": 1, "no_truth": 1, "ok": 2, "unknown_task": 1}
    assert [(l["level"], l["tasks"], l["correct"]) for l in s["levels"]] == [(1, 2, 1), (2, 1, 1), (3, 0, 0)]
    back = {r["task_id"]: r for r in pl.read_csv(out).iter_rows(named=True)}
    assert back["t2"]["status"] == "missing" and back["t2"]["score"] is False
    assert back["extra"]["status"] == "unknown_task"
    assert back["t3"]["truth"] == "y" and back["t3"]["archive_truth"] == "WRONG TRUTH"


def test_metadata_split_and_parquet(run, tmp_path):
    d = tmp_path / "GAIA" / "2023" / "test"
    d.mkdir(parents=True)
    pl.DataFrame({"task_id": ["a", "b"], "Question": ["q", "q"], "Level": [1, 2], "Final answer": ["1", "2"], "file_name": ["", ""]}).write_parquet(
        d / "metadata.parquet"
    )
    path = jsonl(tmp_path / "r.jsonl", [{"task_id": "a", "model_answer": "1"}, {"task_id": "b", "model_answer": "3"}])
    s = summary_json(run(path, "--metadata", tmp_path / "GAIA", "--split", "test", "--json"))
    assert (s["split"], s["tasks"], s["correct"]) == ("test", 2, 1)
    r = run(path, "--metadata", tmp_path / "GAIA")
    assert r.exit_code == 2 and "no metadata.jsonl" in r.stderr


# --------------------------------------------------------------------------- bad input


def test_malformed_jsonl_line_exit_2(run, tmp_path):
    path = jsonl(tmp_path / "r.jsonl", [{"task_id": "a", "prediction": "x", "truth": "x"}] * 2, raw={1: "{oops"})
    r = run(path)
    assert r.exit_code == 2
    assert f"{path}:2:" in r.stderr and "invalid JSON" in r.stderr
    assert not (tmp_path / "answer_comparison.csv").exists()


def test_skip_bad_lines_reports_each(run, tmp_path):
    path = jsonl(
        tmp_path / "r.jsonl",
        [{"task_id": "a", "prediction": "x", "truth": "x"}, {"task_id": "b", "prediction": "y", "truth": "z"}],
        raw={1: "{oops", 2: "[1]"},
    )
    r = run(path, "--skip-bad-lines", "--json")
    s = summary_json(r)
    assert f"{path}:2:" in r.stderr and f"{path}:3:" in r.stderr
    assert [(x["line"], x["path"]) for x in s["skipped_lines"]] == [(2, str(path)), (3, str(path))]
    assert (s["input_rows"], s["tasks"], s["correct"]) == (2, 2, 1)
    r = run(path, "--skip-bad-lines")
    assert "Skipped lines: 2" in r.stdout


def test_numeric_prediction_is_bad_type_row(run, tmp_path):
    rows = [{"task_id": "a", "prediction": 17, "truth": "17"}, {"task_id": "b", "prediction": "17", "truth": "17"}, {"task_id": "c", "prediction": None, "truth": "None"}]
    out = tmp_path / "o.jsonl"
    s = summary_json(run(jsonl(tmp_path / "r.jsonl", rows), "--out", out, "--json"))
    assert s["status_counts"] == {"bad_type": 1, "no_prediction": 1, "ok": 1}
    assert (s["tasks"], s["correct"]) == (3, 2)  # null reads as "None", which matches truth "None"
    back = pl.read_ndjson(out).rows(named=True)
    assert back[0]["status"] == "bad_type" and back[0]["score"] is False and "JSON number (17)" in back[0]["reason"]


def test_unknown_column_exit_2(run, tmp_path):
    path = jsonl(tmp_path / "r.jsonl", [{"task_id": "a", "prediction": "x", "truth": "x"}])
    r = run(path, "--truth-col", "gold")
    assert r.exit_code == 2 and "'gold'" in r.stderr and str(path) in r.stderr


def test_missing_files_exit_2(run, tmp_path):
    r = run(tmp_path / "absent.jsonl")
    assert r.exit_code == 2 and "does not exist" in r.stderr
    path = jsonl(tmp_path / "r.jsonl", [{"task_id": "a", "prediction": "x", "truth": "x"}])
    r = run(path, "--metadata", tmp_path / "nowhere")
    assert r.exit_code == 2 and "does not exist" in r.stderr


def test_bad_metadata_line_exit_2(run, tmp_path):
    meta = tmp_path / "metadata.jsonl"
    meta.write_text('{"task_id": "a", "Level": 1, "Final answer": "x"}\n{"task_id": 5}\n')
    path = jsonl(tmp_path / "r.jsonl", [{"task_id": "a", "prediction": "x"}])
    r = run(path, "--metadata", meta)
    assert r.exit_code == 2 and f"{meta}:2" in r.stderr and "task_id" in r.stderr


def test_unknown_archive_type_exit_2(run, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("hello")
    r = run(path)
    assert r.exit_code == 2 and "unknown archive type" in r.stderr


def test_metadata_folder_given_as_archive(run):
    r = run(EXAMPLES / "dataset")
    assert r.exit_code == 2 and "--metadata" in r.stderr


# --------------------------------------------------------------------------- submissions


def test_submission_validation_errors_exit_1(run, tmp_path):
    ds = metadata(tmp_path / "GAIA", {"t1": ("a", 1), "t2": ("b", 1), "t3": ("c", 2), "t4": ("d", 3)})
    path = tmp_path / "sub.jsonl"
    path.write_text(
        '{"task_id": "t1", "model_answer": "a"}\n'
        '{"task_id": "t1", "model_answer": "a"}\n'
        '{"task_id": "t3", "model_answer": "c"}\n'
        '{"task_id": "nope", "model_answer": "x"}\n'
        "{broken\n"
    )
    r = run(path, "--metadata", ds, "--submission")
    assert r.exit_code == 1, r.output
    out = r.stdout
    assert "INVALID" in out
    assert "t1 is submitted more than once" in out
    assert "nope not found in split validation" in out
    assert "Line 4 is incorrectly formatted" in out
    assert "not submitted: t2, t4" in out
    assert "Your submission has 2 questions for level 1, 1 for level 2, and 0 for level 3" in out
    assert "invalid submission" in r.stderr
    s = json.loads(run(path, "--metadata", ds, "--submission", "--json").stdout)
    sub = s["submission"]
    assert sub["valid"] is False and sub["duplicates"] == {"t1": 2} and sub["unknown"] == ["nope"] and sub["missing"] == ["t2", "t4"]
    # leaderboard denominators: the split's counts, duplicates scored twice
    assert sub["scores"]["total"] == 4 and sub["scores"]["correct"] == 3.0
    assert sub["scores"]["level_1"] == 1.0 and sub["scores"]["level_3"] == 0.0


def test_submission_needs_metadata(run, tmp_path):
    path = jsonl(tmp_path / "sub.jsonl", [{"task_id": "t1", "model_answer": "a"}])
    r = run(path, "--submission")
    assert r.exit_code == 2 and "--metadata" in r.stderr


# --------------------------------------------------------------------------- long runs


def test_chunked_scoring_with_progress_gives_same_result(run, tmp_path):
    rows = [{"task_id": f"t{i}", "prediction": str(i % 7), "truth": str(i % 5), "level": 1 + i % 3} for i in range(50)]
    path = jsonl(tmp_path / "r.jsonl", rows)
    one = summary_json(run(path, "--json"))
    many = summary_json(run(path, "--json", "--chunk-rows", "7", "--compare", "gaia-graded"))
    for k in ("tasks", "correct", "accuracy_macro", "accuracy_weighted", "levels"):
        assert one[k] == many[k]


def test_help_lists_options():
    r = CliRunner().invoke(main, ["grade", "--help"])
    assert r.exit_code == 0
    for opt in ("--metadata", "--split", "--scorer", "--prediction-col", "--truth-col", "--id-col", "--comparison", "--out", "--json", "--compare", "--explain", "--skip-bad-lines", "--submission"):
        assert opt in r.output


def test_examples_are_synthetic():
    meta = pl.read_ndjson(EXAMPLES / "dataset" / "2023" / "validation" / "metadata.jsonl")
    assert meta.height == 12 and all(t.startswith("example-") for t in meta.get_column("task_id"))


def test_explain_lists_wrong_rows(run):
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--explain", "--limit", "0")
    assert r.exit_code == 0, r.output
    assert "5 row(s) not fully correct" in r.stdout
    assert "example-10" in r.stdout and "missing" in r.stdout
    r = run(EXAMPLES / "results.jsonl", "--metadata", EXAMPLES / "dataset", "--explain", "--limit", "2")
    assert "… 3 more" in r.stdout


def test_empty_archive_with_metadata_counts_every_task_missing(run, tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    s = summary_json(run(path, "--metadata", EXAMPLES / "dataset", "--json"))
    assert (s["input_rows"], s["rows"], s["tasks"], s["correct"]) == (0, 12, 12, 0)
    assert s["status_counts"] == {"missing": 12}


@pytest.mark.parametrize("user", [None, "muzzy_decay_ms:250"])
def test_command_sets_allocator_decay_before_polars(user):
    """The command returns freed pages promptly (its peak memory depends on it); a
    user's own ``_RJEM_MALLOC_CONF`` still has the last word. Checked in a fresh
    interpreter: Polars reads the setting once, when it is first imported."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
    if user is not None:
        env["_RJEM_MALLOC_CONF"] = user
    code = "import os, gaia_fast.cli, polars; print(os.environ['_RJEM_MALLOC_CONF'])"
    conf = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip()
    last = [o for o in conf.split(",") if o.startswith("muzzy_decay_ms:")][-1]
    assert last == ("muzzy_decay_ms:0" if user is None else f"muzzy_decay_ms:{user.split(':')[1]}")
    assert [o for o in conf.split(",") if o.startswith("dirty_decay_ms:")][-1] == "dirty_decay_ms:100"


@pytest.mark.parametrize("user", [None, "20000"])
def test_command_sets_morsel_size_before_polars(user):
    """The command's streaming pass holds half the memory with morsels of 50,000 rows;
    a user's own ``POLARS_IDEAL_MORSEL_SIZE`` wins. Checked in a fresh interpreter."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "POLARS_IDEAL_MORSEL_SIZE"}
    if user is not None:
        env["POLARS_IDEAL_MORSEL_SIZE"] = user
    code = "import os, gaia_fast.cli, polars; print(os.environ['POLARS_IDEAL_MORSEL_SIZE'])"
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert got == (user or "50000")
