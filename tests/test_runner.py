"""The run harness under faults: tasks that raise, hang past the timeout, return None or
non-str; parallel limits; results JSONL (agent-framework keys, encoder); resume, including
a run killed half way in a subprocess; progress callback; OpenTelemetry spans."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from gaia_fast.harness import Evaluation, Prediction, Task, TaskResult
from gaia_fast.io.readers import read_archive
from gaia_fast.harness.runner import RESULT_KEYS, RunProgress, encode_row, gaia_evaluator, read_results, result_row, run, run_sync

AF_KEYS = [
    "task_id", "level", "question", "answer", "prediction", "is_correct", "score", "runtime_seconds", "error",
    "timestamp", "task_metadata", "file_name", "messages", "prediction_metadata", "evaluation_details",
]  # fmt: skip


def make_tasks(n: int, prefix: str = "t") -> list[Task]:
    return [Task(f"{prefix}{i}", f"Question {i}?", str(i), i % 3 + 1, metadata={"Level": i % 3 + 1, "i": i}) for i in range(n)]


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def by_id(results: list[TaskResult]) -> dict[str, TaskResult]:
    return {r.task_id: r for r in results}


# --------------------------------------------------------------------------- basics


def test_run_grades_with_question_scorer_and_keeps_order(tmp_path):
    tasks = make_tasks(6)
    answers = {"t0": "0", "t1": "$1", "t2": "two", "t3": " 3 ", "t4": "4.0", "t5": "5, 6"}

    async def agent(task: Task) -> str:
        await asyncio.sleep(0.01 * (6 - int(task.task_id[1:])))  # finish in reverse order
        return answers[task.task_id]

    out = tmp_path / "results.jsonl"
    results = run_sync(agent, tasks, parallel=6, out=out)
    assert [r.task_id for r in results] == [t.task_id for t in tasks]  # input order
    assert [r.evaluation.is_correct for r in results] == [True, True, False, True, True, False]
    assert [r.evaluation.score for r in results] == [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    assert results[0].evaluation.details == {"scorer": "gaia", "status": "ok", "reason": "number: 0 == 0"}
    assert all(r.error is None and r.runtime_seconds is not None and r.runtime_seconds >= 0 for r in results)
    rows = lines(out)
    assert [r["task_id"] for r in rows] == ["t5", "t4", "t3", "t2", "t1", "t0"]  # completion order
    assert all(list(r) == AF_KEYS for r in rows) and list(RESULT_KEYS) == AF_KEYS
    r0 = next(r for r in rows if r["task_id"] == "t0")
    assert r0["prediction"] == "0" and r0["answer"] == "0" and r0["is_correct"] is True and r0["task_metadata"] == {"Level": 1, "i": 0}
    datetime.fromisoformat(r0["timestamp"])


def test_async_api_in_a_running_loop(tmp_path):
    async def main() -> list[TaskResult]:
        async def agent(task: Task) -> str:
            return task.answer or ""

        return await run(agent, make_tasks(3), parallel=2, timeout=5, out=tmp_path / "a.jsonl")

    results = asyncio.run(main())
    assert [r.evaluation.is_correct for r in results] == [True] * 3 and len(lines(tmp_path / "a.jsonl")) == 3


def test_sync_and_callable_objects(tmp_path):
    class Agent:
        def __call__(self, task: Task) -> Prediction:
            return Prediction(task.answer, [{"role": "assistant", "content": "hi"}], {"model": "m"})

    class AsyncAgent:
        async def __call__(self, task: Task) -> str:
            return task.answer or ""

    def returns_coroutine(task: Task):
        async def inner() -> str:
            return task.answer or ""

        return inner()

    for agent in (Agent(), AsyncAgent(), returns_coroutine, lambda t: t.answer):
        results = run_sync(agent, make_tasks(3))
        assert all(r.evaluation.is_correct and r.error is None for r in results), agent


def test_results_readable_by_grade_reader(tmp_path):
    out = tmp_path / "r.jsonl"
    run_sync(lambda t: "0" if t.task_id == "t0" else 7, make_tasks(3), out=out)
    frame, skipped = read_archive(out)
    assert skipped == []
    assert frame.get_column("task_id").to_list() == ["t0", "t1", "t2"]
    assert frame.get_column("truth").to_list() == ["0", "1", "2"]
    # a non-str prediction is read back as bad_type, never str()-ed
    assert frame.get_column("input_status").to_list() == [None, "bad_type", "bad_type"]


# --------------------------------------------------------------------------- faults


def test_faults_are_recorded_and_never_stop_the_run(tmp_path):
    cancelled = threading.Event()

    async def agent(task: Task):
        i = int(task.task_id[1:])
        if i == 0:
            raise ValueError("tool exploded")
        if i == 1:
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.set()
                raise
        if i == 2:
            return None
        if i == 3:
            return 3  # an int
        if i == 4:
            return Prediction(["4"])  # a list inside a Prediction
        if i == 5:
            return Prediction(None)  # scored as the text "None", as upstream
        if i == 6:
            raise TimeoutError("the agent's own HTTP timeout")
        if i == 7:
            raise KeyError("k")
        return task.answer

    out = tmp_path / "r.jsonl"
    tasks = make_tasks(9)
    tasks[5] = Task("t5", "Q5?", "None", 3)
    t0 = time.perf_counter()
    results = by_id(run_sync(agent, tasks, parallel=3, timeout=0.3, out=out))
    assert time.perf_counter() - t0 < 5
    assert cancelled.wait(2), "the timed-out task was not cancelled"
    r = results["t0"]
    assert r.error == "ValueError: tool exploded" and r.prediction == Prediction("", []) and r.evaluation.is_correct is False
    assert r.evaluation.details == {"status": "error", "stage": "runner"}
    r = results["t1"]
    assert r.error == "TimeoutError: the runner took longer than the 0.3 s timeout"
    assert r.evaluation.details == {"status": "timeout", "stage": "runner"} and 0.25 < r.runtime_seconds < 3
    r = results["t2"]
    assert r.error.startswith("TypeError: the task runner returned None") and r.prediction.prediction == ""
    r = results["t3"]
    assert r.prediction.prediction == 3 and r.evaluation == Evaluation(False, 0.0, r.evaluation.details)
    assert r.evaluation.details["status"] == "bad_type" and "int (3)" in r.error
    r = results["t4"]
    assert r.prediction.prediction == ["4"] and r.evaluation.details["status"] == "bad_type" and "list" in r.error
    r = results["t5"]
    assert r.error is None and r.evaluation.is_correct and r.evaluation.details["status"] == "no_prediction"
    r = results["t6"]  # not our timeout: an ordinary error
    assert r.error == "TimeoutError: the agent's own HTTP timeout" and r.evaluation.details["status"] == "error"
    assert results["t7"].error == "KeyError: 'k'"
    assert results["t8"].error is None and results["t8"].evaluation.is_correct
    rows = {x["task_id"]: x for x in lines(out)}
    assert len(rows) == 9
    assert rows["t3"]["prediction"] == 3 and rows["t4"]["prediction"] == ["4"] and rows["t5"]["prediction"] is None
    assert rows["t0"]["prediction"] == "" and rows["t0"]["error"] == "ValueError: tool exploded"


def test_sync_agent_hanging_past_timeout_is_abandoned():
    release = threading.Event()

    def agent(task: Task) -> str:
        if task.task_id == "t0":
            release.wait(10)  # blocks a thread; cannot be cancelled
            return "too late"
        return task.answer or ""

    t0 = time.perf_counter()
    results = run_sync(agent, make_tasks(4), parallel=2, timeout=0.2)
    assert time.perf_counter() - t0 < 3
    release.set()
    assert results[0].error is not None and results[0].error.startswith("TimeoutError") and results[0].prediction.prediction == ""
    assert all(r.evaluation.is_correct for r in results[1:])


def test_evaluator_faults():
    def bad_evaluator(task: Task, pred: Prediction) -> Evaluation:
        if task.task_id == "t0":
            raise RuntimeError("judge down")
        if task.task_id == "t1":
            return "yes"  # type: ignore[return-value]
        if task.task_id == "t2":
            time.sleep(1)
        return task.task_id == "t3"  # a bool is accepted

    results = run_sync(lambda t: "answer", make_tasks(4), evaluator=bad_evaluator, timeout=0.2)
    r0, r1, r2, r3 = results
    assert r0.error == "RuntimeError: judge down" and r0.prediction.prediction == "answer"  # the answer is kept
    assert r0.evaluation.details == {"status": "error", "stage": "evaluator"}
    assert r1.error.startswith("TypeError: the evaluator returned str")
    assert r2.error.startswith("TimeoutError: the evaluator took longer") and r2.evaluation.details["stage"] == "evaluator"
    assert r3.error is None and r3.evaluation == Evaluation(True, 1.0)


def test_async_evaluator_and_custom_scores():
    async def judge(task: Task, pred: Prediction) -> Evaluation:
        await asyncio.sleep(0)
        return Evaluation(pred.prediction == "yes", 0.75, {"judge": "j"})

    (r,) = run_sync(lambda t: "yes", make_tasks(1), evaluator=judge)
    assert r.evaluation == Evaluation(True, 0.75, {"judge": "j"})


def test_no_truth_tasks_run_but_are_not_graded(tmp_path):
    tasks = [Task("a", "q", "?", 1), Task("b", "q", None, 2), Task("c", "q", "x", 1)]
    seen: list[RunProgress] = []
    out = tmp_path / "r.jsonl"
    results = run_sync(lambda t: "x", tasks, out=out, progress=seen.append)
    assert [r.evaluation.details["status"] for r in results] == ["no_truth", "no_truth", "ok"]
    assert [r.evaluation.is_correct for r in results] == [False, False, True]
    assert seen[-1].graded == 1 and seen[-1].correct == 1 and seen[-1].accuracy == 1.0
    assert [r["answer"] for r in lines(out)] == ["?", None, "x"]
    assert gaia_evaluator(Task("a", "q", " ? "), Prediction("?")).details["status"] == "no_truth"


def test_bad_arguments():
    with pytest.raises(ValueError, match="duplicate task ids: a"):
        run_sync(lambda t: "x", [Task("a", "q"), Task("a", "q2")])
    with pytest.raises(ValueError, match="parallel"):
        run_sync(lambda t: "x", make_tasks(1), parallel=0)
    with pytest.raises(ValueError, match="timeout"):
        run_sync(lambda t: "x", make_tasks(1), timeout=-1)
    with pytest.raises(TypeError, match="Task objects"):
        run_sync(lambda t: "x", [{"task_id": "a"}])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="answer must be a str or None, got int"):
        run_sync(lambda t: "x", [Task("a", "q", 42)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        run_sync("agent", make_tasks(1))  # type: ignore[arg-type]

    async def inside_a_loop() -> None:
        with pytest.raises(RuntimeError, match="await gaia_fast.harness.runner.run"):
            run_sync(lambda t: "x", make_tasks(1))

    asyncio.run(inside_a_loop())
    assert run_sync(lambda t: "x", []) == []


# --------------------------------------------------------------------------- parallel limits


@pytest.mark.parametrize("parallel", [1, 3])
def test_parallel_limit_async(parallel):
    active = peak = 0

    async def agent(task: Task) -> str:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.01)
        active -= 1
        return task.answer or ""

    results = run_sync(agent, make_tasks(12), parallel=parallel)
    assert peak == parallel and len(results) == 12


def test_parallel_limit_sync_threads():
    lock = threading.Lock()
    active = peak = 0

    def agent(task: Task) -> str:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.02)
        with lock:
            active -= 1
        return task.answer or ""

    t0 = time.perf_counter()
    results = run_sync(agent, make_tasks(12), parallel=4)
    assert peak == 4 and all(r.evaluation.is_correct for r in results)
    assert time.perf_counter() - t0 < 12 * 0.02  # really concurrent


# --------------------------------------------------------------------------- resume


def test_resume_skips_done_ids(tmp_path):
    out = tmp_path / "r.jsonl"
    tasks = make_tasks(6)
    run_sync(lambda t: t.answer, tasks[:4], out=out)
    calls: list[str] = []

    def agent(task: Task) -> str:
        calls.append(task.task_id)
        return "wrong"

    results = run_sync(agent, tasks, out=out, parallel=2)
    assert sorted(calls) == ["t4", "t5"]
    assert [r.resumed for r in results] == [True] * 4 + [False] * 2
    assert [r.evaluation.is_correct for r in results] == [True] * 4 + [False] * 2
    assert results[0].evaluation.details["reason"] == "number: 0 == 0" and results[0].runtime_seconds is not None
    ids = [r["task_id"] for r in lines(out)]
    assert sorted(ids) == [f"t{i}" for i in range(6)]  # no duplicates
    # nothing left to do: the results come back from the file
    again = run_sync(lambda t: pytest.fail("must not run"), tasks, out=out)
    assert all(r.resumed for r in again) and len(lines(out)) == 6
    # resume=False starts afresh
    run_sync(lambda t: "x", tasks[:2], out=out, resume=False)
    assert [r["task_id"] for r in lines(out)] == ["t0", "t1"]


def test_resume_repairs_the_file_end(tmp_path, caplog):
    out = tmp_path / "r.jsonl"
    tasks = make_tasks(4)
    run_sync(lambda t: t.answer, tasks[:2], out=out)
    good = out.read_bytes()
    out.write_bytes(good + b'{"task_id":"t2","level":3,"quest')  # killed mid-write
    with caplog.at_level(logging.WARNING, logger="gaia_fast"):
        run_sync(lambda t: t.answer, tasks, out=out)
    assert "incomplete last line" in caplog.text
    data = out.read_bytes()
    assert data.startswith(good) and data.endswith(b"\n")
    assert sorted(r["task_id"] for r in lines(out)) == ["t0", "t1", "t2", "t3"]
    # a complete last row without its newline is kept, and a newline added
    out.write_bytes(data.rstrip(b"\n"))
    run_sync(lambda t: t.answer, make_tasks(5), out=out)
    assert sorted(r["task_id"] for r in lines(out)) == ["t0", "t1", "t2", "t3", "t4"]
    # garbage lines elsewhere are skipped with a warning, not fatal
    caplog.clear()
    with out.open("ab") as f:
        f.write(b"not json\n[1,2]\n\n")
    with caplog.at_level(logging.WARNING, logger="gaia_fast"):
        results = run_sync(lambda t: pytest.fail("all done"), make_tasks(5), out=out)
    assert "not a JSON line" in caplog.text and "not a results row" in caplog.text
    assert all(r.resumed for r in results)
    assert set(read_results(out)) == {"t0", "t1", "t2", "t3", "t4"}


KILL_SCRIPT = r"""
import sys, time
from gaia_fast.harness import Task
from gaia_fast.harness.runner import run_sync
tasks = [Task(f"t{i:02d}", f"Q{i}?", str(i), i % 3 + 1) for i in range(int(sys.argv[2]))]
def agent(task):
    time.sleep(0.04)
    return task.answer
run_sync(agent, tasks, parallel=2, out=sys.argv[1])
print("finished", flush=True)
"""


def test_killed_run_resumes_without_loss_or_duplicates(tmp_path):
    out = tmp_path / "r.jsonl"
    n = 60
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(out), str(n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if out.exists() and out.read_bytes().count(b"\n") >= 8:
                break
            if proc.poll() is not None:
                pytest.fail(f"the run ended early: {proc.communicate()}")
            time.sleep(0.005)
        proc.kill()
        stdout, _ = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert b"finished" not in stdout, "the run finished before it was killed"
    before = out.read_bytes()
    complete = before[: before.rfind(b"\n") + 1]
    done = set(read_results(out))
    assert 8 <= len(done) < n

    calls: list[str] = []

    def agent(task: Task) -> str:
        calls.append(task.task_id)
        return task.answer or ""

    tasks = [Task(f"t{i:02d}", f"Q{i}?", str(i), i % 3 + 1) for i in range(n)]
    results = run_sync(agent, tasks, parallel=4, out=out)
    assert set(calls) == {t.task_id for t in tasks} - done and len(calls) == len(set(calls))
    after = out.read_bytes()
    assert after.startswith(complete)  # rows written before the kill are untouched
    ids = [r["task_id"] for r in lines(out)]
    assert len(ids) == n and set(ids) == {t.task_id for t in tasks}  # nothing lost, no duplicates
    assert all(r.evaluation.is_correct for r in results)


# --------------------------------------------------------------------------- encoder


def test_encoder_rules():
    @dataclass
    class Msg:
        role: str
        text: str

    class Model:
        def model_dump(self) -> dict:
            return {"role": "tool", "n": 1}

    task = Task("é-1", "Qué? \u2028", "42", 1, "f.png", {"x": float("nan"), "y": [float("inf"), 1.5], 3: "int key", (1, 2): "tuple key"})
    pred = Prediction("$42", [Msg("assistant", "hi"), {"role": "user", "content": "q"}, "raw", Model()], {"obj": object(), "s": "\ud800"})
    result = TaskResult(task, pred, Evaluation(True, 1.0, None), float("nan"), None)
    row = result_row(result, timestamp="2026-01-02T03:04:05")
    line = encode_row(row)
    assert "\n" not in line and "é" in line and "\u2028" in line  # raw UTF-8 like orjson
    assert "\\ud800" in line
    line.encode("utf-8")  # valid UTF-8 despite the lone surrogate
    back = json.loads(line)
    assert list(back) == AF_KEYS
    assert back["runtime_seconds"] is None  # NaN -> null
    assert back["task_metadata"] == {"x": None, "y": [None, 1.5], "3": "int key", "(1, 2)": "tuple key"}
    assert back["messages"] == [{"role": "assistant", "text": "hi"}, "{'role': 'user', 'content': 'q'}", "raw", {"role": "tool", "n": 1}]
    assert back["prediction_metadata"]["obj"].startswith("<object object")
    assert back["prediction_metadata"]["s"] == "\ud800"
    assert back["timestamp"] == "2026-01-02T03:04:05" and back["file_name"] == "f.png"
    assert line.startswith('{"task_id":"é-1","level":1,')  # compact, as orjson writes
    cyclic: dict = {"a": 1}
    cyclic["self"] = cyclic
    assert json.loads(encode_row({"task_metadata": cyclic}))["task_metadata"] == {"a": 1, "self": "<cycle>"}


# --------------------------------------------------------------------------- progress


def test_progress_callback():
    seen: list[RunProgress] = []
    tasks = make_tasks(4)
    run_sync(lambda t: "0" if t.task_id != "t3" else 1 / 0, tasks, progress=seen.append)
    assert [p.done for p in seen] == [0, 1, 2, 3, 4]
    assert seen[0].last is None and seen[-1].last is not None
    last = seen[-1]
    assert (last.total, last.graded, last.correct, last.errors) == (4, 4, 1, 1) and last.accuracy == 0.25

    def broken(p: RunProgress) -> None:
        raise RuntimeError("display broke")

    assert len(run_sync(lambda t: "x", tasks, progress=broken)) == 4  # the run goes on


def test_progress_bar_on_request(capsys):
    run_sync(lambda t: t.answer, make_tasks(3), progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    run_sync(lambda t: t.answer, make_tasks(3))
    assert capsys.readouterr() == ("", "")  # the library shows nothing unless asked


def test_progress_counts_resumed(tmp_path):
    out = tmp_path / "r.jsonl"
    run_sync(lambda t: t.answer, make_tasks(2), out=out)
    seen: list[RunProgress] = []
    run_sync(lambda t: "no", make_tasks(3), out=out, progress=seen.append)
    assert (seen[0].done, seen[0].resumed, seen[0].correct) == (2, 2, 2)
    assert (seen[-1].done, seen[-1].graded, seen[-1].correct) == (3, 3, 2)


# --------------------------------------------------------------------------- tracing


def test_opentelemetry_spans():
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test")

    def agent(task: Task) -> str:
        with tracer.start_as_current_span("agent.step"):  # the agent's own span, in a worker thread
            if task.task_id == "t2":
                raise ValueError("bad")
            return task.answer or ""

    run_sync(agent, make_tasks(3), parallel=2, tracing=tracer)
    spans = exporter.get_finished_spans()
    names = sorted(s.name for s in spans)
    assert names == sorted(["gaia.tasks.execute_all"] + ["gaia.task.run", "gaia.task.execute", "agent.step"] * 3 + ["gaia.task.evaluate"] * 2)
    by_span = {s.context.span_id: s for s in spans}
    root = next(s for s in spans if s.name == "gaia.tasks.execute_all")
    assert root.attributes["gaia.total"] == 3
    for s in spans:
        if s.name == "gaia.task.run":
            assert s.parent.span_id == root.context.span_id
        if s.name in ("gaia.task.execute", "gaia.task.evaluate"):
            assert by_span[s.parent.span_id].name == "gaia.task.run"
        if s.name == "agent.step":
            assert by_span[s.parent.span_id].name == "gaia.task.execute"
    runs = {s.attributes["gaia.task_id"]: s for s in spans if s.name == "gaia.task.run"}
    assert runs["t0"].attributes["gaia.is_correct"] is True and runs["t0"].attributes["gaia.level"] == 1
    assert runs["t2"].status.status_code == trace.StatusCode.ERROR and runs["t2"].attributes["gaia.error"] == "ValueError: bad"


def test_tracing_without_opentelemetry(monkeypatch):
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    with pytest.raises(ImportError, match=r"gaia-fast\[otel\]"):
        run_sync(lambda t: "x", make_tasks(1), tracing=True)
    assert len(run_sync(lambda t: "x", make_tasks(1))) == 1  # off by default: no import
