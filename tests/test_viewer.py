"""`gaia-fast view`: agent-framework gaia_viewer's exact text (spec §5.4), the flags, the
per-level table appended after it, skipped lines, and the error paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_fast.cli.view import view
from gaia_fast.harness.viewer import (
    MISSING,
    filter_results,
    format_results,
    is_error,
    is_timeout,
    level_stats,
    read_results,
    render_level_table,
    row_status,
)

ROWS = [
    {"task_id": "task-a", "level": 1, "question": "Synthetic question A?", "answer": "42", "prediction": "$42",
     "is_correct": True, "score": 1.0, "runtime_seconds": 1.25, "error": None},
    {"task_id": "task-b", "level": 2, "question": "Synthetic question B?", "answer": "Paris", "prediction": "paris",
     "is_correct": True, "score": 1.0, "runtime_seconds": 12.5, "error": None},
    {"task_id": "task-c", "level": 1, "question": "Synthetic question C?", "answer": "Sea Gull", "prediction": "",
     "is_correct": False, "score": 0.0, "runtime_seconds": 0.0012, "error": "tool exploded"},
    # agent-framework's asyncio timeout: error is str(TimeoutError()) == ""
    {"task_id": "task-d", "level": 3, "question": "Synthetic question D?", "answer": "17", "prediction": "",
     "is_correct": False, "score": 0.0, "runtime_seconds": 30.0, "error": ""},
    {"task_id": "task-e", "level": None, "question": "Synthetic question E?", "answer": "blue", "prediction": None,
     "is_correct": False, "score": 0.0, "runtime_seconds": 0.0, "error": None},
    # no task_id, no level, no prediction; gaia-fast runner's timeout
    {"question": "Q" * 150, "answer": "x", "is_correct": False, "runtime_seconds": 30.0,
     "error": "timeout after 30s", "status": "timeout"},
]

SUMMARY = (
    "GAIA Results Summary:\n"
    "Total: 6, Correct: 2, Accuracy: 0.333\n"
    + "-" * 80 + "\n"
)

PLAIN = SUMMARY + (
    "[1/6] ✓ Level 1 - task-a\n"
    "[2/6] ✓ Level 2 - task-b\n"
    "[3/6] ✗ Level 1 - task-c\n"
    "[4/6] ✗ Level 3 - task-d\n"
    "[5/6] ✗ Level None - task-e\n"
    "[6/6] ✗ Level ? - unknown\n"
)

TASK_C = (
    "[3/6] ✗ Level 1 - task-c\n"
    "Question: Synthetic question C?...\n"
    "Answer: Sea Gull\n"
    "Prediction: \n"
    "Error: tool exploded\n"
    "Runtime: 0.00s\n"
    "----------------------------------------\n"
)

DETAILED = SUMMARY + (
    "[1/6] ✓ Level 1 - task-a\n"
    "Question: Synthetic question A?...\n"
    "Answer: 42\n"
    "Prediction: $42\n"
    "Runtime: 1.25s\n"
    "----------------------------------------\n"
    "[2/6] ✓ Level 2 - task-b\n"
    "Question: Synthetic question B?...\n"
    "Answer: Paris\n"
    "Prediction: paris\n"
    "Runtime: 12.50s\n"
    "----------------------------------------\n"
    + TASK_C +
    "[4/6] ✗ Level 3 - task-d\n"
    "Question: Synthetic question D?...\n"
    "Answer: 17\n"
    "Prediction: \n"
    "Runtime: 30.00s\n"
    "----------------------------------------\n"
    "[5/6] ✗ Level None - task-e\n"
    "Question: Synthetic question E?...\n"
    "Answer: blue\n"
    "Prediction: None\n"
    "----------------------------------------\n"
    "[6/6] ✗ Level ? - unknown\n"
    f"Question: {'Q' * 100}...\n"
    "Answer: x\n"
    "Prediction: N/A\n"
    "Error: timeout after 30s\n"
    "Runtime: 30.00s\n"
    "----------------------------------------\n"
)

TABLE = (
    "By level\n"
    " Level   Tasks   Correct   Accuracy   Errors   Timeouts   Mean s   Median s\n"
    "────────────────────────────────────────────────────────────────────────────\n"
    " 1           2         1      0.500        1          0     0.63       0.63\n"
    " 2           1         1      1.000        0          0    12.50      12.50\n"
    " 3           1         0      0.000        1          1    30.00      30.00\n"
    " None        1         0      0.000        0          0     0.00       0.00\n"
    " ?           1         0      0.000        1          1    30.00      30.00\n"
    "\n"
    " All         6         2      0.333        3          2    12.29       6.88\n"
    " Macro                        0.300\n"
)


def write_jsonl(path: Path, rows: list, raw: dict[int, str] | None = None) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    for i, text in sorted((raw or {}).items()):
        lines.insert(i, text)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def results(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "results.jsonl", ROWS)


def run(*args: object):
    return CliRunner().invoke(view, [str(a) for a in args], catch_exceptions=False)


# ---------------------------------------------------------------- gaia_viewer text


def test_plain_summary_exact():
    assert format_results(ROWS) == PLAIN


def test_detailed_exact_including_spec_row():
    text = format_results(ROWS, detailed=True)
    assert text == DETAILED
    # spec §5.4's computed block, with the trailing space after "Prediction:"
    assert TASK_C in text
    assert "Prediction: \n" in TASK_C


def test_detailed_omits_falsy_error_and_runtime():
    text = format_results(ROWS, detailed=True)
    block_d = text.split("[4/6]")[1].split("[5/6]")[0]
    assert "Error:" not in block_d  # error "" is falsy
    block_e = text.split("[5/6]")[1].split("[6/6]")[0]
    assert "Runtime:" not in block_e  # 0.0 is falsy


def test_question_cut_to_100_and_ellipsis_always_added():
    text = format_results([{"task_id": "t", "level": 1, "question": "x" * 101}], detailed=True)
    assert f"Question: {'x' * 100}...\n" in text
    text = format_results([{"task_id": "t", "level": 1, "question": "short"}], detailed=True)
    assert "Question: short...\n" in text


def test_non_string_question_and_runtime_do_not_crash():
    text = format_results([{"task_id": 7, "level": 1, "question": None, "runtime_seconds": "slow"}], detailed=True)
    assert "[1/1] ✗ Level 1 - 7\n" in text
    assert "Question: None...\n" in text
    assert "Runtime: slows\n" in text


def test_level_filter_uses_python_equality():
    rows = [{"task_id": "i", "level": 1}, {"task_id": "f", "level": 1.0}, {"task_id": "s", "level": "1"},
            {"task_id": "b", "level": True}, {"task_id": "n", "level": None}, {"task_id": "m"}]
    assert [r["task_id"] for r in filter_results(rows, level=1)] == ["i", "f", "b"]


def test_level_flag(results):
    r = run(results, "--level", 1, "--plain")
    assert r.exit_code == 0
    assert r.stdout == (
        "GAIA Results Summary:\nTotal: 2, Correct: 1, Accuracy: 0.500\n" + "-" * 80 + "\n"
        "[1/2] ✓ Level 1 - task-a\n[2/2] ✗ Level 1 - task-c\n"
    )


def test_correct_only(results):
    r = run(results, "--correct-only", "--plain")
    assert r.stdout == (
        "GAIA Results Summary:\nTotal: 2, Correct: 2, Accuracy: 1.000\n" + "-" * 80 + "\n"
        "[1/2] ✓ Level 1 - task-a\n[2/2] ✓ Level 2 - task-b\n"
    )


def test_incorrect_only(results):
    r = run(results, "--incorrect-only", "--plain")
    assert r.stdout.startswith("GAIA Results Summary:\nTotal: 4, Correct: 0, Accuracy: 0.000\n")
    assert "[1/4] ✗ Level 1 - task-c\n" in r.stdout
    assert "[4/4] ✗ Level ? - unknown\n" in r.stdout
    assert "✓" not in r.stdout


def test_correct_only_wins_over_incorrect_only(results):
    # spec §5.4: with --level 1 --correct-only --incorrect-only only correct level-1 rows show
    r = run(results, "--level", 1, "--correct-only", "--incorrect-only", "--plain")
    assert r.stdout == (
        "GAIA Results Summary:\nTotal: 1, Correct: 1, Accuracy: 1.000\n" + "-" * 80 + "\n"
        "[1/1] ✓ Level 1 - task-a\n"
    )


def test_no_match_prints_message_and_exits_0(results):
    r = run(results, "--level", 9)
    assert r.exit_code == 0
    assert r.stdout == "No results match the filters.\n"
    r = run(results, "--level", 3, "--correct-only")
    assert r.stdout == "No results match the filters.\n"


def test_empty_file(tmp_path):
    p = tmp_path / "empty.jsonl"
    p.write_text("", encoding="utf-8")
    r = run(p)
    assert r.exit_code == 0
    assert r.stdout == "No results match the filters.\n"
    assert r.stderr == ""
    p.write_text("\n  \n\n", encoding="utf-8")  # blank lines are not bad lines
    r = run(p, "--detailed")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "No results match the filters.\n", "")


# ---------------------------------------------------------------- our table


def test_default_output_is_gaia_viewer_text_then_level_table(results):
    r = run(results)
    assert r.exit_code == 0
    assert r.stdout == PLAIN + "\n" + TABLE
    assert r.stderr == ""


def test_detailed_output_then_table(results):
    r = run(results, "--detailed")
    assert r.stdout == DETAILED + "\n" + TABLE


def test_plain_is_exactly_gaia_viewer(results):
    assert run(results, "--plain").stdout == PLAIN
    assert run(results, "--plain", "--detailed").stdout == DETAILED


def test_table_covers_the_filtered_rows(results):
    r = run(results, "--incorrect-only")
    table = r.stdout.split("By level\n", 1)[1]
    # level 2 only has a correct task, so it is not in the table
    assert [line.split()[0] for line in table.splitlines()[2:7] if line.strip()] == ["1", "3", "None", "?"]
    assert " All         4         0      0.000        3          2" in table


def test_render_level_table_directly():
    assert render_level_table(ROWS) == TABLE


def test_level_stats_order_and_groups():
    rows = [{"level": "x"}, {"level": 2}, {}, {"level": None}, {"level": 1.0}, {"level": 1}]
    stats = level_stats(rows)
    assert [s.level for s in stats] == [1, 2, "x", None, MISSING]
    assert stats[0].tasks == 2


# ---------------------------------------------------------------- errors and timeouts


@pytest.mark.parametrize(
    ("row", "error", "timeout"),
    [
        ({"error": None}, False, False),
        ({}, False, False),
        ({"error": "tool exploded"}, True, False),
        ({"error": ""}, True, True),  # agent-framework: str(asyncio.TimeoutError()) == ""
        ({"error": "timeout after 30s"}, True, True),  # gaia-fast runner
        ({"error": "TimeoutError: read"}, True, True),
        ({"error": "Request timed out."}, True, True),
        ({"error": None, "status": "timeout"}, True, True),
        ({"error": None, "status": "TIMEOUT"}, True, True),
        ({"error": None, "status": "error"}, True, False),
        ({"error": None, "status": "ok"}, False, False),
        # gaia-fast's runner: evaluation_details.status decides, the message does not
        ({"error": "TimeoutError: the runner took longer than the 300 s timeout",
          "evaluation_details": {"status": "timeout", "stage": "runner"}}, True, True),
        ({"error": "TimeoutError: upstream HTTP call", "evaluation_details": {"status": "error"}}, True, False),
        ({"error": "TypeError: the prediction is int", "evaluation_details": {"status": "bad_type"}}, True, False),
        ({"error": None, "evaluation_details": {"status": "ok"}}, False, False),
        ({"error": "", "evaluation_details": None}, True, True),  # no status: fall back to the message
        ({"error": "timeout", "status": "error", "evaluation_details": {"status": "timeout"}}, True, False),  # top-level wins
    ],
)
def test_error_and_timeout_rules(row, error, timeout):
    assert is_error(row) is error
    assert is_timeout(row) is timeout


def test_row_status():
    assert row_status({"status": " Timeout "}) == "timeout"
    assert row_status({"evaluation_details": {"status": "no_truth"}}) == "no_truth"
    assert row_status({"status": 3, "evaluation_details": "x"}) is None


# ---------------------------------------------------------------- reading, bad lines, missing file


def test_bad_lines_are_skipped_and_reported_on_stderr(tmp_path):
    p = write_jsonl(tmp_path / "r.jsonl", ROWS[:2], raw={1: "{not json", 2: "[1, 2]", 3: "", 4: '"text"'})
    r = run(p, "--plain")
    assert r.exit_code == 0
    assert r.stdout.startswith("GAIA Results Summary:\nTotal: 2, Correct: 2, Accuracy: 1.000\n")
    assert r.stderr.startswith(f"warning: skipped 3 lines of {p} that are not a JSON object\n")
    assert "  line 2: not valid JSON" in r.stderr
    assert "  line 3: a JSON array, not an object\n" in r.stderr
    assert "  line 5: a JSON string, not an object\n" in r.stderr


def test_read_results_details(tmp_path):
    p = tmp_path / "r.jsonl"
    p.write_bytes(
        "\ufeff".encode() + json.dumps(ROWS[0]).encode() + b"\r\n"
        + b"\xff\xfe broken\n"
        + b"null\n"
        + b"   \n"
        + json.dumps(ROWS[1]).encode()  # no final newline
    )
    res = read_results(p)
    assert [r["task_id"] for r in res.rows] == ["task-a", "task-b"]
    assert [(s.line, s.reason.split(" at ")[0]) for s in res.skipped] == [(2, "invalid UTF-8"), (3, "a JSON null, not an object")]


def test_many_bad_lines_are_counted_not_all_listed(tmp_path):
    p = write_jsonl(tmp_path / "r.jsonl", ROWS[:1], raw={i: "x" for i in range(1, 26)})
    r = run(p, "--plain")
    assert "skipped 25 lines" in r.stderr
    assert "  … 5 more\n" in r.stderr


def test_missing_file_exits_2(tmp_path):
    r = CliRunner().invoke(view, [str(tmp_path / "nope.jsonl")])
    assert r.exit_code == 2
    assert "results file not found" in r.stderr
    assert "nope.jsonl" in r.stderr
    assert r.stdout == ""


def test_directory_exits_2(tmp_path):
    r = CliRunner().invoke(view, [str(tmp_path)])
    assert r.exit_code == 2
    assert r.stdout == ""


def test_examples_archive_views(tmp_path):
    example = Path(__file__).resolve().parents[1] / "examples" / "gaia" / "results.jsonl"
    if not example.exists():
        pytest.skip("example archive not present")
    r = run(example)
    assert r.exit_code == 0
    assert r.stdout.startswith("GAIA Results Summary:\nTotal: ")
    assert "By level\n" in r.stdout
