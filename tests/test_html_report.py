"""`gaia-fast report --html`: the page's sections and charts, escaping, self-containment,
determinism, scorer disagreements, atomic writing and the CLI paths."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from gaia_fast.cli.report import report
from gaia_fast.harness.html_report import SECTION_IDS, build_report, write_report
from gaia_fast.harness.viewer import read_results

SCRIPT = "<script>alert('x')</script>"


def _row(tid: str, level, answer, prediction, ok: bool, runtime=5.0, error=None, **extra) -> dict:
    return {
        "task_id": tid, "level": level, "question": f"Question for {tid}?", "answer": answer, "prediction": prediction,
        "is_correct": ok, "score": 1.0 if ok else 0.0, "runtime_seconds": runtime, "error": error,
        "timestamp": "2026-01-15T10:00:00.5", "task_metadata": {}, "file_name": None, "messages": [],
        "prediction_metadata": None, "evaluation_details": None, **extra,
    }


ROWS = [
    _row("ok-1", 1, "42", "42", True, 3.0),
    _row("ok-2", 2, "Paris", "paris", True, 40.0),
    _row("wrong-1", 1, "blue", "red", False, 8.0),
    _row("lenient-fp", 2, "17", "17000", False, 12.0),  # lenient True, official False
    _row("stored-vs-official", 3, "7", "7.001", True, 20.0),  # stored True, official False (graded 'close')
    _row("xss", 1, "Sea Gull", SCRIPT, False, 2.0),
    _row("crash", 2, "3", "", False, 1.5, "ValueError: tool <exploded> & died"),
    _row("af-timeout", 3, "5", "", False, 300.0, ""),  # agent-framework timeout: error ""
    _row("runner-timeout", 1, "5", "", False, 300.0, "timeout after 300s", status="timeout"),
    _row("no-truth", 1, "?", "anything", False, 4.0),
    _row("number-answer", 2, 42, "42", True, 6.0),
    _row("<b>id</b>", 1, "a & b", 'say "a & b"', False, 7.0),
]


@pytest.fixture
def results(tmp_path: Path) -> Path:
    p = tmp_path / "results.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n{bad line\n", encoding="utf-8")
    return p


@pytest.fixture
def page(results: Path) -> str:
    return build_report(results)


def section(page: str, sid: str) -> str:
    start = page.index(f'<section id="{sid}"')
    return page[start : page.index("</section>", start)]


def card(page: str, label: str) -> str:
    m = re.search(rf'<div class="label">{label}</div><div class="value">([^<]*)</div>', page)
    assert m, label
    return m.group(1)


def test_structure(page):
    assert page.startswith("<!DOCTYPE html>\n<html")
    assert page.rstrip().endswith("</html>")
    for sid in SECTION_IDS:
        assert f'<section id="{sid}"' in page
    assert page.count("<svg") >= 6  # accuracy, outcomes, runtime + per level, scorers
    assert "<title>GAIA results — results.jsonl</title>" in page
    assert "Accuracy by level" in section(page, "accuracy")
    assert "Outcomes by level" in section(page, "accuracy")
    assert "Per level" in section(page, "runtime")


def test_summary_cards(page):
    assert card(page, "Tasks") == "12"
    assert card(page, "Correct") == "4"
    assert card(page, "Accuracy") == "33.3%"
    # levels 1: 1/6, 2: 2/4, 3: 1/2 -> mean(16.67, 50, 50)
    assert card(page, "Macro accuracy") == "38.9%"
    assert card(page, "Errors") == "3"
    assert card(page, "Timeouts") == "2"
    assert "1 line skipped" in section(page, "summary")


def test_user_text_is_escaped(page):
    assert "<script" not in page.lower()  # the page has no script at all
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "<b>id</b>" not in page
    assert "&lt;b&gt;id&lt;/b&gt;" in page
    assert "tool &lt;exploded&gt; &amp; died" in page
    assert "say &quot;a &amp; b&quot;" in page


def test_self_contained(page):
    low = page.lower()
    for bad in ("<link", "<script", "<img", "<iframe", "@import", "url(", " src="):
        assert bad not in low
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}


def test_deterministic(results, page):
    assert build_report(results) == page
    assert build_report(read_results(results)) == page
    assert build_report(str(results)) == page


def test_errors_section(page):
    errs = section(page, "errors")
    assert "3 tasks raised, 2 of them timed out" in errs
    assert "(empty message — asyncio timeout)" in errs
    assert "timeout after 300s" in errs
    assert "ValueError: tool &lt;exploded&gt; &amp; died" in errs
    for tid in ("crash", "af-timeout", "runner-timeout"):
        assert f">{tid}</span>" in errs
    assert ">ok-1</span>" not in errs


def test_disagreements(page):
    dis = section(page, "disagreements")
    ol = dis[dis.index('id="official-vs-lenient"') : dis.index('id="stored-vs-official"')]
    so = dis[dis.index('id="stored-vs-official"') :]
    # lenient false positive with a real prediction: shown in the main table
    assert ">lenient-fp</span>" in ol and "17000" in ol
    # empty predictions that only the lenient rule accepts: folded away
    assert '<details class="more"><summary>3 more rows with an empty prediction' in ol
    # stored verdict vs re-scored official
    assert ">stored-vs-official</span>" in so and "7.001" in so
    assert "0.94 <span class=\"muted\">close</span>" in so
    assert ">ok-1</span>" not in dis
    # rows that cannot be re-scored are named, not silently dropped
    assert "1 row without a truth" in dis
    assert "1 row whose answer or prediction is not text not re-scored" in dis
    # accuracy by scorer: 10 re-scored rows
    assert "gaia (official)" in dis and "/10)" in dis


def test_accuracy_section_numbers(page):
    acc = section(page, "accuracy")
    assert "16.7%" in acc and "50.0%" in acc
    assert "1 / 6" in acc and "2 / 4" in acc and "1 / 2" in acc
    assert "overall" in acc


def test_runtime_histogram_counts(page):
    rt = section(page, "runtime")
    assert "bins of" in rt
    assert 'aria-label="Runtime histogram, all tasks"' in rt
    assert 'aria-label="Runtime histogram, level 1"' in rt


def test_empty_results(tmp_path):
    p = tmp_path / "empty.jsonl"
    p.write_text("", encoding="utf-8")
    html = build_report(p)
    for sid in SECTION_IDS:
        assert f'<section id="{sid}"' in html
    assert "No results in this file." in html
    assert card(html, "Tasks") == "0"
    assert card(html, "Accuracy") == "—"


def test_dataframe_and_row_list_inputs():
    df = pl.DataFrame([r for r in ROWS if isinstance(r["answer"], str)]).drop("task_metadata", "messages")
    html = build_report(df, title="From a frame")
    assert "<title>From a frame</title>" in html
    assert card(html, "Tasks") == "11"
    assert build_report(ROWS) == build_report(list(ROWS))


def test_lone_surrogate_does_not_break_the_page():
    html = build_report([_row("s", 1, "a", "a\ud800", False)])
    html.encode("utf-8")  # writable as UTF-8
    assert "a\ufffd" in html


def test_write_report_is_atomic(tmp_path, results):
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()
    out.write_text("old", encoding="utf-8")
    assert write_report(results, out) == out
    assert out.read_text(encoding="utf-8") == build_report(results)
    assert sorted(p.name for p in out.parent.iterdir()) == ["report.html"]  # no temp file left


def test_write_report_failure_leaves_no_temp(tmp_path, monkeypatch):
    import gaia_fast.harness.html_report as hr

    out = tmp_path / "report.html"

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(hr.os, "replace", boom)
    with pytest.raises(OSError):
        write_report(ROWS, out)
    assert list(tmp_path.iterdir()) == []


def test_cli_report(tmp_path, results):
    out = tmp_path / "report.html"
    r = CliRunner().invoke(report, [str(results), "--html", str(out)], catch_exceptions=False)
    assert r.exit_code == 0
    assert r.stdout == f"Report for 12 tasks written to {out}\n"
    assert "skipped 1 line" in r.stderr
    assert out.read_text(encoding="utf-8") == build_report(results)


def test_cli_report_title(tmp_path, results):
    out = tmp_path / "report.html"
    CliRunner().invoke(report, [str(results), "--html", str(out), "--title", "Run <7>"], catch_exceptions=False)
    assert "<title>Run &lt;7&gt;</title>" in out.read_text(encoding="utf-8")


def test_cli_report_missing_input_exits_2(tmp_path):
    r = CliRunner().invoke(report, [str(tmp_path / "nope.jsonl"), "--html", str(tmp_path / "r.html")])
    assert r.exit_code == 2
    assert "results file not found" in r.stderr
    assert not (tmp_path / "r.html").exists()


def test_cli_report_unwritable_destination_exits_2(tmp_path, results):
    r = CliRunner().invoke(report, [str(results), "--html", str(tmp_path / "no" / "such" / "dir" / "r.html")])
    assert r.exit_code == 2
    assert "cannot write" in r.stderr


def test_cli_report_needs_html(results):
    r = CliRunner().invoke(report, [str(results)])
    assert r.exit_code == 2
    assert "--html" in r.stderr
