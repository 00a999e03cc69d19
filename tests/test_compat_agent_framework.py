"""``gaia_fast.compat.agent_framework`` against the real ``agent-framework-lab[gaia]``
package (installed by the ``test`` extra): same types, same scorer decisions, the same
agent on one local dataset folder gives the same task ids and verdicts, and each side's
viewer reads the other's results file."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
import textwrap
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from _local_server import LocalServer

from gaia_fast.compat import agent_framework as af

real = pytest.importorskip("agent_framework_lab_gaia", reason="agent-framework-lab[gaia] is not installed")

DATA = Path(__file__).parent / "data"

TASKS = [
    ("t-01", "How many?", "42", 1),
    ("t-02", "Cost?", "1250", 1),
    ("t-03", "Colours?", "red, green, blue", 1),
    ("t-04", "Name?", "Sea Gull", 2),
    ("t-05", "Ratio?", "0.5", 2),
    ("t-06", "Year?", "1927", 2),
    ("t-07", "Hidden", "?", 3),
    ("t-08", "Which?", "apple; pear", 3),
    ("t-09", "Fail", "x", 1),
]
#: What the agent answers: agreed by both scorers (no near-1e-6 numbers, no inf).
ANSWERS = {"t-01": "42", "t-02": "$1,250", "t-03": "red, green, blue", "t-04": "seagull", "t-05": "0.25", "t-06": "1927", "t-08": "Apple, Pear"}


def make_dataset(root: Path) -> Path:
    split = root / "2023" / "validation"
    split.mkdir(parents=True)
    rows = [{"task_id": t, "Question": q, "Final answer": a, "Level": lv, "file_name": ""} for t, q, a, lv in TASKS]
    (split / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def test_types_have_the_same_fields_in_the_same_order():
    for name in ("Task", "Prediction", "Evaluation", "TaskResult"):
        ours = [f.name for f in dataclasses.fields(getattr(af, name))]
        theirs = [f.name for f in dataclasses.fields(getattr(real, name))]
        assert ours[: len(theirs)] == theirs, name
    assert af.Prediction("x").messages == [] == real.Prediction("x").messages


def test_gaia_scorer_agrees_with_the_real_one_on_the_conformance_vectors():
    rows = [json.loads(line) for line in (DATA / "gaia_official.jsonl").read_text().splitlines()]
    differ = []
    for r in rows:
        pred, truth = r["prediction"], r["truth"]
        if truth is None:
            continue
        try:
            expected = real.gaia_scorer(pred, truth)
        except Exception as e:  # noqa: BLE001
            expected = type(e)
        try:
            got = af.gaia_scorer(pred, truth)
        except Exception as e:  # noqa: BLE001
            got = type(e)
        if expected != got and not (isinstance(expected, type) and isinstance(got, type)):
            differ.append((pred, truth, expected, got))
    assert len(rows) > 20000
    assert differ == []


def test_scorer_keeps_agent_frameworks_tolerance():
    assert af.gaia_scorer("1000.0000001", "1000") is True  # within 1e-6
    assert af.gaia_scorer("inf", "inf") is False  # inf - inf is nan
    assert af.gaia_scorer(None, "None") is True
    with pytest.raises(TypeError):
        af.gaia_scorer("x", None)  # type: ignore[arg-type]


async def agent(task):
    if task.task_id == "t-09":
        raise RuntimeError("tool crashed")
    return af.Prediction(ANSWERS.get(task.task_id, "no idea"), messages=[{"role": "assistant", "content": "done"}])


async def real_agent(task):
    if task.task_id == "t-09":
        raise RuntimeError("tool crashed")
    return real.Prediction(ANSWERS.get(task.task_id, "no idea"), messages=[{"role": "assistant", "content": "done"}])


def test_same_run_same_tasks_and_verdicts(tmp_path):
    data = make_dataset(tmp_path / "gaia")
    ours_out, theirs_out = tmp_path / "ours.jsonl", tmp_path / "theirs.jsonl"
    ours = asyncio.run(af.GAIA(data_dir=str(data)).run(agent, level=[1, 2, 3], parallel=3, out=str(ours_out)))
    theirs = asyncio.run(real.GAIA(data_dir=str(data)).run(real_agent, level=[1, 2, 3], parallel=3, out=str(theirs_out)))
    assert sorted(r.task_id for r in ours) == sorted(r.task_id for r in theirs)
    assert "t-07" not in {r.task_id for r in ours}  # "?" answers are dropped by both
    verdict = lambda results: {r.task_id: (r.evaluation.is_correct, r.evaluation.score, r.error is not None) for r in results}  # noqa: E731
    assert verdict(ours) == verdict(theirs)
    assert {r.task_id for r in ours if r.evaluation.is_correct} == {"t-01", "t-02", "t-03", "t-04", "t-06", "t-08"}
    for res in ours:
        assert isinstance(res, af.TaskResult) and res.task_id == res.task.task_id

    # The files: same keys in the same order; each viewer reads the other's file.
    ours_rows = [json.loads(x) for x in ours_out.read_text().splitlines()]
    theirs_rows = [json.loads(x) for x in theirs_out.read_text().splitlines()]
    assert [list(r) for r in ours_rows] == [list(r) for r in theirs_rows[: len(ours_rows)]]
    by_id = lambda rows: {r["task_id"]: {k: r[k] for k in ("level", "question", "answer", "prediction", "is_correct", "score", "messages", "file_name")} for r in rows}  # noqa: E731
    assert by_id(ours_rows) == by_id(theirs_rows)

    def view(fn, path: Path, *flags: str) -> str:
        code = f"import sys; sys.argv = ['gaia_viewer', {str(path)!r}, *{list(flags)!r}]; {fn}"
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout

    ours_view = "from gaia_fast.compat.agent_framework import viewer_main; viewer_main()"
    theirs_view = "from agent_framework_lab_gaia import viewer_main; viewer_main()"
    for flags in ((), ("--incorrect-only",), ("--level", "2")):
        # The lines after the summary are per row, in file order: compare as sets.
        a, b = view(theirs_view, ours_out, *flags), view(ours_view, ours_out, *flags)
        assert a == b
        c, d = view(theirs_view, theirs_out, *flags), view(ours_view, theirs_out, *flags)
        assert c == d
        assert a.splitlines()[:2] == c.splitlines()[:2]  # same totals and accuracy on both files


def test_max_n_counts_per_level_and_levels_filter(tmp_path):
    data = make_dataset(tmp_path / "gaia")
    seen: list[str] = []

    def sync_agent(task):
        seen.append(task.task_id)
        return "x"

    results = asyncio.run(af.GAIA(data_dir=str(data)).run(sync_agent, level=[1, 2], max_n=2))
    levels = [r.task.level for r in results]
    assert sorted(levels) == [1, 1, 2, 2]
    assert sorted(seen) == sorted(r.task_id for r in results)
    with pytest.raises(RuntimeError, match=r"No GAIA tasks found for levels \[4\]"):
        asyncio.run(af.GAIA(data_dir=str(data)).run(sync_agent, level=4))


def test_without_data_or_token_the_error_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with pytest.raises(RuntimeError, match="HF_TOKEN environment variable or hf_token parameter is required"):
        asyncio.run(af.GAIA(data_dir=str(tmp_path / "empty")).run(agent))


TELEMETRY_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from gaia_fast.compat.agent_framework import GAIA, GAIATelemetryConfig, Prediction

    async def agent(task):
        return Prediction("42")

    cfg = GAIATelemetryConfig(enable_tracing=True, otlp_endpoint=sys.argv[3] or None, trace_to_file=sys.argv[2] != "", file_path=sys.argv[2] or None)
    results = asyncio.run(GAIA(data_dir=sys.argv[1], telemetry_config=cfg).run(agent, level=1))
    print(len(results))
    """
)


def test_spans_go_to_a_local_file(tmp_path):
    data = make_dataset(tmp_path / "gaia")
    traces = tmp_path / "traces" / "gaia_traces.json"
    r = subprocess.run([sys.executable, "-c", TELEMETRY_SCRIPT, str(data), str(traces), ""], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    spans = [json.loads(x) for x in traces.read_text().splitlines()]
    names = {s["name"] for s in spans}
    assert {"gaia.benchmark.run", "gaia.data.ensure", "gaia.tasks.load", "gaia.tasks.execute_all", "gaia.task.run", "gaia.task.execute", "gaia.task.evaluate"} <= names
    assert sum(s["name"] == "gaia.task.run" for s in spans) == int(r.stdout) == 4
    run_span = next(s for s in spans if s["name"] == "gaia.benchmark.run")
    assert run_span["attributes"]["gaia.benchmark.total_tasks"] == 4
    assert len({s["trace_id"] for s in spans}) == 1
    assert set(spans[0]) == {"trace_id", "span_id", "name", "start_time", "end_time", "duration_ns", "attributes", "status"}


class _Collector(BaseHTTPRequestHandler):
    bodies: list[tuple[str, str, bytes]] = []

    def do_POST(self):  # noqa: N802
        n = int(self.headers.get("Content-Length") or 0)
        _Collector.bodies.append((self.path, self.headers.get("Content-Type", ""), self.rfile.read(n)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a):
        pass


def test_spans_are_exported_over_otlp_to_a_local_collector(tmp_path):
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="the otel extra is not installed")
    data = make_dataset(tmp_path / "gaia")
    with LocalServer(_Collector, lifetime=180) as server:
        r = subprocess.run([sys.executable, "-c", TELEMETRY_SCRIPT, str(data), "", server.url], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
    assert _Collector.bodies, "the collector received nothing"
    path, ctype, body = _Collector.bodies[0]
    assert path == "/v1/traces" and ctype == "application/x-protobuf"
    assert b"gaia.task.run" in b"".join(b for _, _, b in _Collector.bodies)
