"""Archive readers, writers, GAIA metadata, joins and per-level reports."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import polars as pl
import pytest

from gaia_fast.datasets import join_metadata, load_metadata, validate_submission
from gaia_fast.io import InputError, comparison_frame, extract_final_answer, read_archive, write_comparison_csv, write_table
from gaia_fast.io.readers import detect_layout
from gaia_fast.grading.summary import level_report, score_archive, summary


def write_jsonl(path: Path, rows: list, *, raw_lines: dict[int, str] | None = None) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    for idx, text in (raw_lines or {}).items():
        lines.insert(idx, text)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def meta_rows(tasks: dict[str, tuple[str, int]]) -> list[dict]:
    return [
        {"task_id": t, "Question": f"Synthetic question {t}?", "Level": lvl, "Final answer": ans, "file_name": ""}
        for t, (ans, lvl) in tasks.items()
    ]


# --------------------------------------------------------------------------- extraction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FINAL ANSWER: $42", "$42"),
        ("  FINAL ANSWER: b; e  \n", "b; e"),
        ("FINAL ANSWER:17", "FINAL ANSWER:17"),  # no space: prefix kept
        ("final answer: sea gull", "final answer: sea gull"),  # case-sensitive
        ("FINAL ANSWER: FINAL ANSWER: x", "FINAL ANSWER: x"),  # removed once
        ("FINAL ANSWER:  x ", " x"),  # no strip after the prefix
        ("\x1c\x85FINAL ANSWER: x\u3000", "x"),  # Python str.strip() whitespace
        ("\ufeffFINAL ANSWER: x", "\ufeffFINAL ANSWER: x"),  # U+FEFF is not whitespace
        ("", ""),
    ],
)
def test_extract_final_answer(text, expected):
    assert extract_final_answer(text) == expected


# --------------------------------------------------------------------------- workspace


def test_workspace_reader(tmp_path):
    ws = tmp_path / "ws"
    for tid, data in {
        "a": b"FINAL ANSWER: one\r\ntwo\r\n",
        "b": b"  plain\rtext  ",
        "c": b"FINAL ANSWER: \xff\xfe",
        "d": "FINAL ANSWER: caf\u00e9".encode(),
    }.items():
        (ws / tid).mkdir(parents=True)
        (ws / tid / "answer.txt").write_bytes(data)
    (ws / ".hidden").mkdir()
    (ws / ".hidden" / "answer.txt").write_text("FINAL ANSWER: ignored")
    (ws / "no-answer").mkdir()
    frame, skipped = read_archive(ws)
    assert skipped == []
    assert frame.get_column("task_id").to_list() == ["a", "b", "c", "d"]
    assert frame.get_column("prediction").to_list() == [
        "one\ntwo",
        "plain\ntext",
        "ERROR: 'utf-8' codec can't decode byte 0xff in position 14: invalid start byte",
        "caf\u00e9",
    ]
    assert frame.get_column("input_status").to_list() == [None, None, "read_error", None]
    assert "invalid start byte" in frame.get_column("input_reason")[2]
    assert "truth" not in frame.columns


def test_workspace_rejects_metadata_folder(tmp_path):
    (tmp_path / "2023" / "validation").mkdir(parents=True)
    with pytest.raises(InputError, match="--metadata"):
        read_archive(tmp_path)


# --------------------------------------------------------------------------- JSON Lines layouts

AF_ROW = {
    "task_id": "task-a",
    "level": 1,
    "question": "Synthetic question A?",
    "answer": "42",
    "prediction": "$42",
    "is_correct": True,
    "score": 1.0,
    "runtime_seconds": 0.5,
    "error": None,
    "timestamp": "2026-11-21T22:59:54.827670",
    "task_metadata": {"Level": 1},
    "file_name": None,
    "messages": [{"role": "assistant", "text": "hi"}, "{'role': 'user', 'content': 'q'}", "raw"],
    "prediction_metadata": {"model": "m", "n": 1},
    "evaluation_details": None,
}


def test_agent_framework_jsonl(tmp_path):
    rows = [AF_ROW, {**AF_ROW, "task_id": "task-b", "level": 2, "answer": "b, e", "prediction": "", "score": 0.0}]
    frame, skipped, layout = read_archive(write_jsonl(tmp_path / "r.jsonl", rows), with_layout=True)
    assert layout.name == "agent-framework"
    assert frame.columns[:6] == ["task_id", "prediction", "truth", "level", "input_status", "input_reason"]
    assert frame.get_column("truth").to_list() == ["42", "b, e"]
    assert frame.get_column("prediction").to_list() == ["$42", ""]
    assert frame.get_column("level").to_list() == [1, 2]
    # originals kept; the colliding "score" is renamed
    assert "archive_score" in frame.columns and "score" not in frame.columns
    assert {"answer", "is_correct", "messages", "timestamp"} <= set(frame.columns)
    assert skipped == []


def test_smolagents_jsonl(tmp_path):
    rows = [
        {"agent_name": "a", "prediction": "17", "true_answer": "17", "task": 2, "task_id": "s1", "is_correct": True},
        {"agent_name": "a", "prediction": "Error: boom", "true_answer": "x", "task": "3", "task_id": "s2", "is_correct": False},
    ]
    frame, _, layout = read_archive(write_jsonl(tmp_path / "s.jsonl", rows), with_layout=True)
    assert layout.name == "smolagents"
    assert frame.get_column("truth").to_list() == ["17", "x"]
    assert frame.get_column("level").to_list() == [2, 3]
    assert "task" in frame.columns


def test_submission_jsonl(tmp_path):
    rows = [{"task_id": "t1", "model_answer": "a", "reasoning_trace": "r"}, {"task_id": "t2", "model_answer": None}]
    frame, _, layout = read_archive(write_jsonl(tmp_path / "sub.jsonl", rows), with_layout=True)
    assert layout.name == "leaderboard-submission"
    assert frame.get_column("prediction").to_list() == ["a", None]
    assert "truth" not in frame.columns


def test_gaia_agent_json(tmp_path):
    doc = {
        "metadata": {"dataset": "validation", "total": 2, "correct": 1, "accuracy": 50.0, "agent": "gaia-agent"},
        "results": [
            {"taskId": "g1", "question": "Q?", "level": 1, "files": [], "answer": "The answer is 17000", "expectedAnswer": "17", "correct": True, "durationMs": 5, "steps": 1, "stepDetails": [], "toolsUsed": ["search"], "summary": {"totalToolCalls": 1, "uniqueTools": 1, "hadError": False}},
            {"taskId": "g2", "question": "Q2?", "level": 3, "files": ["a.png"], "answer": "", "expectedAnswer": "x", "correct": False, "durationMs": 6, "steps": 0, "stepDetails": [], "toolsUsed": [], "summary": {"totalToolCalls": 0, "uniqueTools": 0, "hadError": True}, "error": "boom"},
        ],
    }
    path = tmp_path / "gaia-validation-2026-01-01T00-00-00-000Z.json"
    path.write_text(json.dumps(doc, indent=2))
    frame, _, layout = read_archive(path, with_layout=True)
    assert layout.name == "gaia-agent"
    assert frame.get_column("task_id").to_list() == ["g1", "g2"]
    assert frame.get_column("prediction").to_list() == ["The answer is 17000", ""]
    assert frame.get_column("truth").to_list() == ["17", "x"]
    assert frame.get_column("level").to_list() == [1, 3]
    assert frame.get_column("error").to_list() == [None, "boom"]


def test_generic_jsonl_and_column_mapping(tmp_path):
    rows = [{"qid": "q1", "out": "Paris", "gold": "paris", "lvl": 2}]
    path = write_jsonl(tmp_path / "x.jsonl", rows)
    with pytest.raises(InputError, match="--prediction-col"):
        read_archive(path)
    frame, _ = read_archive(path, prediction_col="out", truth_col="gold", id_col="qid", level_col="lvl")
    assert frame.select("task_id", "prediction", "truth", "level").row(0) == ("q1", "Paris", "paris", 2)
    with pytest.raises(InputError) as e:
        read_archive(path, prediction_col="nope")
    assert "'nope'" in str(e.value) and str(path) in str(e.value)


@pytest.mark.parametrize(
    ("value", "kind"),
    [(17, "number"), (17.5, "number"), (True, "boolean"), ([1], "array"), ({"a": 1}, "object")],
)
def test_non_string_prediction_is_bad_type(tmp_path, value, kind):
    rows = [
        {"task_id": "a", "prediction": "x", "truth": "x"},
        {"task_id": "b", "prediction": value, "truth": "17"},
        {"task_id": "c", "prediction": None, "truth": "y"},
    ]
    frame, skipped = read_archive(write_jsonl(tmp_path / "r.jsonl", rows))
    assert skipped == []
    assert frame.get_column("prediction").to_list() == ["x", None, None]
    assert frame.get_column("input_status").to_list() == [None, "bad_type", None]
    assert f"JSON {kind}" in frame.get_column("input_reason")[1]


def test_non_string_truth_is_bad_type(tmp_path):
    rows = [{"task_id": "a", "prediction": "17", "truth": 17}]
    frame, _ = read_archive(write_jsonl(tmp_path / "r.jsonl", rows))
    assert frame.get_column("truth").to_list() == [None]
    assert frame.get_column("input_status").to_list() == ["bad_type"]
    assert "truth" in frame.get_column("input_reason")[0]


def test_integer_task_ids_and_lone_surrogate(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"task_id": 7, "prediction": "a", "truth": "a"}\n{"task_id": "s", "prediction": "\\ud800x", "truth": "a"}\n')
    frame, _ = read_archive(path)
    assert frame.get_column("task_id").to_list() == ["7", "s"]
    assert frame.get_column("input_status").to_list() == [None, "read_error"]
    assert "surrogate" in frame.get_column("input_reason")[1]


def test_malformed_jsonl_line_names_file_and_line(tmp_path):
    rows = [{"task_id": "a", "prediction": "x", "truth": "x"}, {"task_id": "b", "prediction": "y", "truth": "y"}]
    path = write_jsonl(tmp_path / "r.jsonl", rows, raw_lines={1: '{"task_id": "broken", '})
    with pytest.raises(InputError) as e:
        read_archive(path)
    assert e.value.line == 2 and e.value.path == str(path)
    assert f"{path}:2:" in str(e.value)
    frame, skipped = read_archive(path, skip_bad_lines=True)
    assert frame.get_column("task_id").to_list() == ["a", "b"]
    assert [(s.line, s.path) for s in skipped] == [(2, str(path))]
    assert "invalid JSON" in skipped[0].message


def test_jsonl_other_bad_lines(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(
        b'{"task_id": "a", "prediction": "x", "truth": "x"}\r\n'
        b"\r\n"
        b"[1, 2]\n"
        b'{"task_id": "b", "prediction": "\xff", "truth": "x"}\n'
        b'{"task_id": true, "prediction": "y", "truth": "y"}\n'
        b'{"task_id": "c", "prediction": "z", "truth": "z"}\n'
    )
    with pytest.raises(InputError) as e:
        read_archive(path)
    assert e.value.line == 3 and "JSON array" in str(e.value)
    frame, skipped = read_archive(path, skip_bad_lines=True)
    assert frame.get_column("task_id").to_list() == ["a", "c"]
    assert [s.line for s in skipped] == [3, 4, 5]
    assert "invalid UTF-8" in skipped[1].message
    assert skipped[2].field == "task_id"


def test_empty_jsonl(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("")
    frame, skipped = read_archive(path)
    assert frame.height == 0 and skipped == []


# --------------------------------------------------------------------------- CSV / TSV / Parquet / XLSX


def test_csv_reader_quotes_nulls_and_newlines(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b'task_id,prediction,truth,level\r\nt1,"b, e","b, e",1\r\nt2,"multi\nline",x,2\r\nt3,,"",3\r\nt4,"",y,\r\n')
    frame, _, layout = read_archive(path, with_layout=True)
    assert layout.name == "generic"
    assert frame.get_column("prediction").to_list() == ["b, e", "multi\nline", None, ""]
    assert frame.get_column("truth").to_list() == ["b, e", "x", "", "y"]
    assert frame.get_column("level").to_list() == [1, 2, 3, None]


def test_csv_ragged_line_names_physical_line(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text('task_id,prediction,truth\nt1,"two\nlines",x\nt2,a,b,EXTRA\nt3,c\nt4,d,d\n')
    with pytest.raises(InputError) as e:
        read_archive(path)
    assert e.value.line == 4 and "expected 3 fields, found 4" in str(e.value)
    frame, skipped = read_archive(path, skip_bad_lines=True)
    assert frame.get_column("task_id").to_list() == ["t1", "t4"]
    assert [s.line for s in skipped] == [4, 5]


def test_csv_invalid_utf8_and_duplicate_header(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"task_id,prediction,truth\nt1,ok,ok\nt2,\xff,x\n")
    with pytest.raises(InputError) as e:
        read_archive(path)
    assert e.value.line == 3 and e.value.field == "prediction"
    dup = tmp_path / "d.csv"
    dup.write_text("prediction,prediction\na,b\n")
    with pytest.raises(InputError, match="duplicate column"):
        read_archive(dup)


def test_answer_comparison_csv_round_trip(tmp_path):
    path = tmp_path / "answer_comparison.csv"
    path.write_bytes(b'task_id,level,expected_answer,actual_answer,match\r\nt2,1,"b, e",b; e,True\r\n')
    frame, _, layout = read_archive(path, with_layout=True)
    assert layout.name == "answer-comparison"
    assert frame.select("task_id", "prediction", "truth", "level").row(0) == ("t2", "b; e", "b, e", 1)


def test_tsv(tmp_path):
    path = tmp_path / "r.tsv"
    path.write_text("index\tprediction\tanswer\tcategory\n0\tB\tB\tx\n1\tC, D\tA\ty\n")
    frame, _ = read_archive(path, truth_col="answer", id_col="index")
    assert frame.select("task_id", "prediction", "truth").rows() == [("0", "B", "B"), ("1", "C, D", "A")]


def test_parquet_typed_columns(tmp_path):
    path = tmp_path / "r.parquet"
    pl.DataFrame({"task_id": ["a", "b"], "prediction": ["x", None], "truth": ["x", "y"], "level": [1, 2]}).write_parquet(path)
    frame, _ = read_archive(path)
    assert frame.select("task_id", "prediction", "truth", "level").rows() == [("a", "x", "x", 1), ("b", None, "y", 2)]
    bad = tmp_path / "n.parquet"
    pl.DataFrame({"task_id": [1, 2], "prediction": [17, None], "truth": ["17", "x"]}).write_parquet(bad)
    frame, _ = read_archive(bad)
    assert frame.get_column("task_id").to_list() == ["1", "2"]
    assert frame.get_column("prediction").to_list() == [None, None]
    assert frame.get_column("input_status").to_list() == ["bad_type", None]
    assert "Int64" in frame.get_column("input_reason")[0]


def test_parquet_unreadable(tmp_path):
    path = tmp_path / "r.parquet"
    path.write_bytes(b"not parquet")
    with pytest.raises(InputError, match="Parquet"):
        read_archive(path)


def test_xlsx(tmp_path):
    pytest.importorskip("xlsxwriter")
    path = tmp_path / "r.xlsx"
    pl.DataFrame({"task_id": ["a", "b"], "prediction": ["x", "17"], "truth": ["x", "17"], "level": [1, 3]}).write_excel(path)
    frame, _ = read_archive(path)
    assert frame.select("task_id", "prediction", "truth", "level").rows() == [("a", "x", "x", 1), ("b", "17", "17", 3)]
    assert frame.get_column("input_status").to_list() == [None, None]


def test_xlsx_numeric_cell_is_bad_type(tmp_path):
    xlsxwriter = pytest.importorskip("xlsxwriter")
    path = tmp_path / "r.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    for r, row in enumerate([["task_id", "prediction", "truth"], ["a", "x", "x"], ["b", 17, "17"], ["c", True, "y"], ["d", "17", "17"]]):
        for c, v in enumerate(row):
            ws.write(r, c, v)
    wb.close()
    frame, _ = read_archive(path)
    assert frame.get_column("input_status").to_list() == [None, "bad_type", "bad_type", None]
    assert frame.get_column("prediction").to_list() == ["x", None, None, "17"]
    assert "B3" in frame.get_column("input_reason")[1] and "number" in frame.get_column("input_reason")[1]
    assert "boolean" in frame.get_column("input_reason")[2]


def test_unknown_extension_and_missing_file(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("x")
    with pytest.raises(InputError, match="unknown archive type"):
        read_archive(path)
    with pytest.raises(InputError, match="no such file"):
        read_archive(tmp_path / "absent.jsonl")


def test_detect_layout_names():
    assert detect_layout(["task_id", "model_answer"]).name == "leaderboard-submission"
    assert detect_layout(["prediction", "true_answer", "task", "task_id"]).level == "task"
    assert detect_layout(["taskId", "answer", "expectedAnswer", "level"]).prediction == "answer"
    assert detect_layout(["task_id", "answer", "prediction"]).truth == "answer"
    assert detect_layout(["task_id", "prediction", "truth"], truth_col="prediction", prediction_col="truth").prediction == "truth"


# --------------------------------------------------------------------------- writers


def test_atomic_write_table_three_formats(tmp_path):
    frame = pl.DataFrame(
        {
            "task_id": ["a", "b"],
            "prediction": ["x, y", None],
            "messages": [[{"role": "u", "text": "hi"}], []],
            "meta": [{"k": 1}, None],
            "status": pl.Series(["ok", "missing"], dtype=pl.Enum(["ok", "missing"])),
        }
    )
    for ext in ("csv", "jsonl", "parquet"):
        out = tmp_path / f"o.{ext}"
        write_table(frame, out)
        back = {"csv": pl.read_csv, "jsonl": pl.read_ndjson, "parquet": pl.read_parquet}[ext](out)
        assert back.columns == frame.columns and back.height == 2
        assert back.get_column("prediction").to_list() == ["x, y", None]
    text = (tmp_path / "o.csv").read_text()
    assert '"[{""role"":""u"",""text"":""hi""}]"' in text
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    with pytest.raises(ValueError, match="unknown output type"):
        write_table(frame, tmp_path / "o.xlsx")


def test_atomic_write_failure_keeps_old_file(tmp_path):
    out = tmp_path / "o.parquet"
    out.write_text("old")
    bad = pl.DataFrame({"x": pl.Series([object()], dtype=pl.Object)})
    with pytest.raises(Exception):
        write_table(bad, out)
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.parquet"]


def _python_csv(rows: list[list[str]]) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    for r in rows:
        w.writerow(r)
    return buf.getvalue().encode("utf-8")


def test_comparison_csv_matches_python_csv_module(tmp_path):
    values = ["", "plain", "b, e", 'He said "hi"', "a\rb", "a\nb", "a\r\nb", " lead", "x;y", "'q'", "\u2028", "\u00e9", '"', ","]
    scored = pl.DataFrame(
        {
            "task_id": [f"t{i:02d}" for i in range(len(values))],
            "prediction": values,
            "truth": list(reversed(values)),
            "level": [1] * len(values),
            "score": [i % 2 == 0 for i in range(len(values))],
            "status": ["ok"] * len(values),
        }
    )
    path = tmp_path / "answer_comparison.csv"
    assert write_comparison_csv(scored, path) == len(values)
    expected = _python_csv(
        [["task_id", "level", "expected_answer", "actual_answer", "match"]]
        + [[f"t{i:02d}", "1", t, p, str(i % 2 == 0)] for i, (p, t) in enumerate(zip(values, reversed(values)))]
    )
    assert path.read_bytes() == expected


def test_comparison_frame_rules():
    scored = pl.DataFrame(
        {
            "task_id": ["b", "a", "c", "d", None],
            "prediction": ["1", None, "x", "y", "z"],
            "truth": [None, "t", "?", "y", "z"],
            "level": [None, 2, 1, 3, 1],
            "score": [None, True, None, True, True],
            "status": ["unknown_task", "missing", "no_truth", "ok", "ok"],
        }
    )
    rows = comparison_frame(scored).rows()
    assert rows == [
        ("a", "2", "t", None, "False"),  # missing never matches
        ("b", "0", "NOT_FOUND", "1", "False"),
        ("c", "1", "?", "x", "False"),
        ("d", "3", "y", "y", "True"),
        (None, "1", "z", "z", "True"),
    ]


# --------------------------------------------------------------------------- metadata


def test_load_metadata_layouts(tmp_path):
    tasks = {"t1": ("42", 1), "t2": ("b, e", 2), "t3": ("?", 3)}
    split = tmp_path / "ds" / "2023" / "validation"
    split.mkdir(parents=True)
    rows = meta_rows(tasks)
    rows[1]["Level"] = "2"  # digit strings are accepted
    write_jsonl(split / "metadata.jsonl", rows)
    for p in (tmp_path / "ds", split, split / "metadata.jsonl"):
        meta = load_metadata(p)
        assert meta.columns == ["task_id", "truth", "level", "question", "file_name"]
        assert meta.select("task_id", "truth", "level").rows() == [("t1", "42", 1), ("t2", "b, e", 2), ("t3", "?", 3)]
        assert meta.get_column("file_name").to_list() == [None, None, None]
    test_dir = tmp_path / "ds" / "2023" / "test"
    test_dir.mkdir()
    pl.DataFrame({"task_id": ["x"], "Question": ["q"], "Level": [1], "Final answer": ["?"], "file_name": ["f.png"]}).write_parquet(
        test_dir / "metadata.parquet"
    )
    meta = load_metadata(tmp_path / "ds", split="test")
    assert meta.rows() == [("x", "?", 1, "q", "f.png")]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no metadata"):
        load_metadata(tmp_path / "empty")


def test_load_metadata_bad_lines(tmp_path):
    path = tmp_path / "metadata.jsonl"
    path.write_text('{"task_id": "a", "Level": 1, "Final answer": "x"}\n{"task_id": "b", "Level": 1, "Final answer": \n')
    with pytest.raises(InputError) as e:
        load_metadata(path)
    assert e.value.line == 2 and str(path) in str(e.value)
    path.write_text('{"task_id": "a", "Level": "one", "Final answer": "x"}\n')
    with pytest.raises(InputError) as e:
        load_metadata(path)
    assert e.value.field == "Level" and e.value.line == 1
    path.write_text('{"task_id": "a", "Level": 1, "Final answer": 5}\n')
    with pytest.raises(InputError, match="Final answer"):
        load_metadata(path)
    path.write_text('{"task_id": "a", "Level": 1, "Final answer": "x"}\n{"task_id": "a", "Level": 2, "Final answer": "y"}\n')
    with pytest.raises(InputError, match="duplicate task_id") as e:
        load_metadata(path)
    assert e.value.line == 2


def test_join_metadata_missing_and_unknown():
    archive = pl.DataFrame(
        {"task_id": ["t2", "zz", "t1"], "prediction": ["b", "1", "a"], "truth": ["old", "x", "a"], "input_status": [None] * 3, "input_reason": [None] * 3},
        schema_overrides={"input_status": pl.String, "input_reason": pl.String},
    )
    meta = pl.DataFrame({"task_id": ["t1", "t2", "t3"], "truth": ["a", "b", "c"], "level": [1, 2, 3], "question": [None] * 3, "file_name": [None] * 3})
    joined = join_metadata(archive, meta)
    assert joined.select("task_id", "prediction", "truth", "level", "input_status").rows() == [
        ("t2", "b", "b", 2, None),
        ("zz", "1", None, None, "unknown_task"),
        ("t1", "a", "a", 1, None),
        ("t3", None, "c", 3, "missing"),
    ]
    assert joined.get_column("archive_truth").to_list() == ["old", "x", "a", None]


# --------------------------------------------------------------------------- scoring + report


def _scored(scorer="gaia"):
    frame = pl.DataFrame(
        {
            "task_id": ["a", "b", "c", "d", "e", "f", "g"],
            "prediction": ["$42", "17000", None, None, "x", "y", "b, e"],
            "truth": ["42", "17", "Marlow", "c", "?", None, "b, e"],
            "level": [1, 1, 2, 2, 3, None, 3],
            "input_status": [None, None, None, "missing", None, "unknown_task", "bad_type"],
            "input_reason": [None, None, None, "no row", None, "not in metadata", "prediction is a JSON number"],
        },
        schema_overrides={"input_status": pl.String, "input_reason": pl.String},
    )
    return score_archive(frame, scorer)


def test_score_archive_statuses():
    s = _scored()
    assert s.get_column("status").cast(pl.String).to_list() == ["ok", "ok", "no_prediction", "missing", "no_truth", "unknown_task", "bad_type"]
    assert s.get_column("score").to_list() == [True, False, False, False, None, None, False]
    assert s.get_column("reason").to_list()[3:] == ["no row", None, "not in metadata", "prediction is a JSON number"]
    lenient = _scored("gaia-lenient")
    # the lenient rule accepts 17000 for 17 and a null prediction; forced-wrong rows stay wrong
    assert lenient.get_column("score").to_list() == [True, True, True, False, None, None, False]


def test_score_archive_chunks_and_progress():
    calls = []
    frame = pl.DataFrame({"prediction": ["1", "2", "3", None, "5"], "truth": ["1", "3", "3", "x", "5"]})
    s = score_archive(frame, chunk_rows=2, progress=lambda d, t: calls.append((d, t)))
    assert s.get_column("score").to_list() == [True, False, True, False, True]
    assert calls == [(2, 5), (4, 5), (5, 5)]


def test_level_report_and_summary():
    s = _scored()
    rep = level_report(s)
    assert rep.rows() == [(1, 2, 1, 0.5, 0), (2, 2, 0, 0.0, 0), (3, 1, 0, 0.0, 1), (None, 0, 0, None, 1)]
    summ = summary(s)
    assert summ["rows"] == 7 and summ["tasks"] == 5 and summ["correct"] == 1 and summ["excluded"] == 2
    assert summ["accuracy_weighted"] == pytest.approx(0.2)
    assert summ["accuracy_macro"] == pytest.approx((0.5 + 0 + 0) / 3)
    assert summ["status_counts"] == {"bad_type": 1, "missing": 1, "no_prediction": 1, "no_truth": 1, "ok": 2, "unknown_task": 1}


def test_graded_accuracy_is_mean_score():
    s = _scored("gaia-graded")
    rep = level_report(s)
    assert rep.schema["correct"] == pl.Float64
    lvl1 = rep.row(0, named=True)
    assert lvl1["tasks"] == 2 and 0 < lvl1["correct"] < 2
    assert lvl1["accuracy"] == pytest.approx(lvl1["correct"] / 2)


# --------------------------------------------------------------------------- submissions


def test_validate_submission(tmp_path):
    meta = pl.DataFrame({"task_id": ["t1", "t2", "t3", "t4"], "truth": ["a", "b", "c", "d"], "level": [1, 1, 2, 3]})
    path = tmp_path / "sub.jsonl"
    path.write_text(
        '{"task_id": "t1", "model_answer": "a"}\n'
        '{"task_id": "t1", "model_answer": "a"}\n'
        "not json\n"
        '{"task_id": "t2"}\n'
        '{"task_id": "nope", "model_answer": "x"}\n'
        '{"task_id": "t3", "model_answer": 3}\n'
    )
    check = validate_submission(path, meta, "validation")
    assert not check.valid
    msgs = [e["message"] for e in check.errors]
    assert "t1 is submitted more than once" in msgs[0]
    assert msgs[1] == "Line 2 is incorrectly formatted. Please fix it and resubmit your file."
    assert msgs[2] == "Line 3 contains no model_answer key. Please fix it and resubmit your file."
    assert msgs[3] == "nope not found in split validation. Are you sure you submitted the correct file?"
    assert "model_answer is a JSON int" in msgs[4]
    assert "not submitted: t2, t4" in msgs[5]
    assert msgs[6] == (
        "Your submission has 2 questions for level 1, 1 for level 2, and 0 for level 3, "
        "but it should have 2, 1, and 1 respectively. Please check your submission."
    )
    assert check.duplicates == {"t1": 2} and check.unknown == ["nope"] and check.missing == ["t2", "t4"]
    assert [e["line"] for e in check.errors[:5]] == [2, 3, 4, 5, 6]


def test_validate_submission_valid_and_official_counts(tmp_path):
    meta = pl.DataFrame({"task_id": ["t1", "t2"], "truth": ["a", "b"], "level": [1, 2]})
    path = write_jsonl(tmp_path / "sub.jsonl", [{"task_id": "t1", "model_answer": "a"}, {"task_id": "t2", "model_answer": None}])
    check = validate_submission(path, meta, "validation")
    assert check.valid, check.errors
    assert check.expected == {1: 1, 2: 1}
    assert "53/86/26" in check.notes[0]
    blank = tmp_path / "b.jsonl"
    blank.write_text('{"task_id": "t1", "model_answer": "a"}\n\n{"task_id": "t2", "model_answer": "b"}\n')
    check = validate_submission(blank, meta, "validation")
    assert [e["message"] for e in check.errors] == ["Line 1 is incorrectly formatted. Please fix it and resubmit your file."]


def test_library_does_not_print(tmp_path, capsys):
    path = write_jsonl(tmp_path / "r.jsonl", [{"task_id": "a", "prediction": "x", "truth": "x", "level": "one"}])
    frame, _ = read_archive(path)
    score_archive(frame)
    assert capsys.readouterr() == ("", "")
    assert os.listdir(tmp_path) == ["r.jsonl"]
