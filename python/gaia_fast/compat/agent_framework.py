"""agent-framework's lab ``gaia`` module, on gaia-fast's runner and scorers.

Change one import line and an agent-framework GAIA script runs here::

    # from agent_framework.lab.gaia import GAIA, Task, Prediction
    from gaia_fast.compat.agent_framework import GAIA, Task, Prediction

Same names and signatures as ``agent_framework_lab_gaia`` (``GAIA``,
``GAIATelemetryConfig``, ``Task``, ``Prediction``, ``Evaluation``, ``TaskResult``,
``TaskRunner``, ``Evaluator``, ``gaia_scorer``, ``viewer_main``), the same dataset rules
(a ``data_dir`` holding a ``metadata.jsonl`` anywhere below it is used as is; otherwise the
dataset is downloaded with ``huggingface_hub`` using ``hf_token`` or ``HF_TOKEN``), the same
default evaluator and the same results file (its 15 keys in its order, compact JSON).

What gaia-fast adds underneath: tasks run on gaia-fast's runner (sync agents in threads,
rows appended and flushed as each task finishes, so a crash keeps what finished; one
agent's failure never ends the run) and scoring is native. Differences, each deliberate:

- ``max_n`` caps each level, as agent-framework documents it (its code caps the total).
- ``error`` reads ``"ExceptionType: message"`` (agent-framework stores ``str(exception)``,
  which is empty for a timeout); results come back in the order the tasks were drawn
  rather than in completion order.
- Spans are exported to ``otlp_endpoint`` over OTLP/HTTP (protobuf) with the OpenTelemetry
  SDK (extra ``gaia-fast[otel]``), and are flushed when ``run`` returns.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_fast.harness.types import Evaluation, Evaluator, Prediction, Task, TaskRunner
from gaia_fast.scorers.gaia import question_scorer

__all__ = [
    "GAIA",
    "Evaluation",
    "Evaluator",
    "GAIATelemetryConfig",
    "Prediction",
    "Task",
    "TaskResult",
    "TaskRunner",
    "gaia_scorer",
    "viewer_main",
]

#: The dataset repository and the revision agent-framework pins.
DATASET_REPO = "gaia-benchmark/GAIA"
DATASET_REVISION = "682dd723ee1e1697e00360edccf2366dc8418dd9"

#: agent-framework's ``gaia_scorer`` compares numbers with ``abs(a - b) < 1e-6``.
NUMBER_TOLERANCE = 1e-6


@dataclass
class TaskResult:
    """One finished task, field for field as agent-framework has it."""

    task_id: str
    task: Task
    prediction: Prediction
    evaluation: Evaluation
    runtime_seconds: float | None = None
    error: str | None = None


def gaia_scorer(model_answer: str | None, ground_truth: str) -> bool:
    """agent-framework's ``gaia_scorer``: the leaderboard's rule with numbers compared as
    ``abs(a - b) < 1e-6`` (so ``"inf"`` never equals ``"inf"``); None reads as ``"None"``;
    never prints."""
    if ground_truth is None:
        raise TypeError("argument of type 'NoneType' is not iterable")
    return question_scorer(model_answer, ground_truth, number_tolerance=NUMBER_TOLERANCE)


async def _default_evaluator(task: Task, prediction: Prediction) -> Evaluation:
    is_correct = gaia_scorer(prediction.prediction, task.answer or "")
    return Evaluation(is_correct=is_correct, score=1.0 if is_correct else 0.0)


# --------------------------------------------------------------------------- telemetry


class GAIATelemetryConfig:
    """Tracing of a run: ``enable_tracing`` turns spans on; ``otlp_endpoint`` exports them
    over OTLP/HTTP (``http://host:4318`` or a full ``…/v1/traces`` URL); ``trace_to_file``
    appends one JSON object per span to ``file_path`` (default ``gaia_traces.json``)."""

    def __init__(
        self,
        enable_tracing: bool = False,
        otlp_endpoint: str | None = None,
        trace_to_file: bool = False,
        file_path: str | None = None,
    ):
        self.enable_tracing = enable_tracing
        self.otlp_endpoint = otlp_endpoint
        self.trace_to_file = trace_to_file
        self.file_path = file_path or "gaia_traces.json"
        self._provider: Any = None

    def configure_otel_providers(self) -> None:
        """Build the tracer provider and its exporters (once). It becomes the global
        provider when none is set yet, so an agent's own spans land in the same trace."""
        if not self.enable_tracing or self._provider is not None:
            return
        try:
            from opentelemetry import trace
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor
        except ImportError:
            raise ImportError("tracing needs OpenTelemetry: pip install 'gaia-fast[otel]'") from None
        provider = TracerProvider(resource=Resource.create({"service.name": "gaia_benchmark"}))
        if self.otlp_endpoint:
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            except ImportError:
                raise ImportError("OTLP export needs opentelemetry-exporter-otlp-proto-http: pip install 'gaia-fast[otel]'") from None
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=_traces_url(self.otlp_endpoint), timeout=10)))
        if self.trace_to_file:
            provider.add_span_processor(BatchSpanProcessor(_file_exporter(self.file_path)))
        if type(trace.get_tracer_provider()).__name__ == "ProxyTracerProvider":
            trace.set_tracer_provider(provider)
        self._provider = provider

    def tracer(self) -> Any:
        """The run's tracer (None when tracing is off)."""
        if not self.enable_tracing:
            return None
        self.configure_otel_providers()
        return self._provider.get_tracer("gaia_benchmark", "1.0.0")

    def flush(self, timeout_s: float = 10.0) -> None:
        """Export every finished span now (bounded wait)."""
        if self._provider is not None:
            self._provider.force_flush(int(timeout_s * 1000))


def _traces_url(endpoint: str) -> str:
    from urllib.parse import urlsplit

    return endpoint if urlsplit(endpoint).path not in ("", "/") else endpoint.rstrip("/") + "/v1/traces"


def _file_exporter(path: str) -> Any:
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

    class FileSpanExporter(SpanExporter):
        """One JSON object per span, appended, in agent-framework's trace-file shape."""

        def __init__(self, file_path: str) -> None:
            self.file_path = file_path
            Path(file_path).absolute().parent.mkdir(parents=True, exist_ok=True)

        def export(self, spans: Sequence[Any]) -> Any:
            try:
                with open(self.file_path, "a", encoding="utf-8") as f:
                    for span in spans:
                        ctx = span.context
                        record = {
                            "trace_id": format(ctx.trace_id, "032x") if ctx else "unknown",
                            "span_id": format(ctx.span_id, "016x") if ctx else "unknown",
                            "name": span.name,
                            "start_time": span.start_time,
                            "end_time": span.end_time,
                            "duration_ns": (span.end_time - span.start_time) if (span.end_time and span.start_time) else None,
                            "attributes": dict(span.attributes) if span.attributes else {},
                            "status": {
                                "status_code": span.status.status_code.name if span.status else "UNSET",
                                "description": span.status.description if span.status else None,
                            },
                        }
                        f.write(json.dumps(record, default=str) + "\n")
                return SpanExportResult.SUCCESS
            except OSError:
                return SpanExportResult.FAILURE

        def shutdown(self) -> None:
            pass

    return FileSpanExporter(path)


class _Spans:
    """Spans around the run's stages, or nothing when tracing is off."""

    def __init__(self, tracer: Any) -> None:
        self.tracer = tracer

    def span(self, name: str, attributes: dict[str, Any] | None = None) -> Any:
        import contextlib

        if self.tracer is None:
            return contextlib.nullcontext(None)
        from opentelemetry.trace import SpanKind

        return self.tracer.start_as_current_span(name, kind=SpanKind.INTERNAL, attributes=attributes or {})


# --------------------------------------------------------------------------- data


def _level_of(v: Any) -> int | None:
    if isinstance(v, int):  # bool counts, as upstream's isinstance test lets it
        return v
    if isinstance(v, str) and v.isdigit():
        return int(v)
    return None


def _task_from(row: Any, source: Path, loaded: int, levels: Sequence[int] | None) -> Task | None:
    """One metadata row as agent-framework reads it (Python truthiness picks each key)."""
    if not isinstance(row, dict) or not all(isinstance(k, str) for k in row):
        return None
    question = row.get("Question") or row.get("question") or row.get("query") or row.get("prompt")
    answer = row.get("Final answer") or row.get("answer") or row.get("final_answer")
    if not isinstance(question, str):
        return None
    task_id = str(row.get("task_id") or row.get("question_id") or row.get("id") or row.get("uuid") or f"{source.stem}:{loaded}")
    level = _level_of(row.get("Level") or row.get("level"))
    name = row.get("file_name") or row.get("filename")
    file_name = name if isinstance(name, str) else None
    if answer is None or str(answer).strip() in ("?", ""):
        return None
    if levels and level not in levels:
        return None
    file_path = source.parent / file_name if file_name else None
    return Task(
        task_id=task_id,
        question=question,
        answer=str(answer),
        level=level,
        file_name=file_name,
        metadata=row,
        file_path=file_path if file_path is not None and file_path.is_file() else None,
    )


def load_tasks(data_dir: str | os.PathLike, levels: Sequence[int] | None = None, max_n: int | None = None) -> list[Task]:
    """agent-framework's task loading: every ``metadata*.parquet`` below ``data_dir``
    (validation first), else every ``metadata.jsonl``; rows without a public answer are
    dropped; then a shuffle and at most ``max_n`` tasks per level."""
    root = Path(data_dir)
    tasks: list[Task] = []
    parquet = sorted(root.rglob("metadata*.parquet"), key=lambda p: (0 if "validation" in str(p) else 1, str(p)))
    for p in parquet:
        import pyarrow.parquet as pq

        for row in pq.read_table(p).to_pylist():
            t = _task_from(row, p, len(tasks), levels)
            if t is not None:
                tasks.append(t)
    if not tasks:
        for p in root.rglob("metadata.jsonl"):
            with p.open("rb") as f:
                for raw in f:
                    if not raw.strip():
                        continue
                    t = _task_from(json.loads(raw), p, len(tasks), levels)
                    if t is not None:
                        tasks.append(t)
    random.shuffle(tasks)
    if max_n:
        taken: dict[int | None, int] = {}
        kept = []
        for t in tasks:
            if taken.get(t.level, 0) < max_n:
                taken[t.level] = taken.get(t.level, 0) + 1
                kept.append(t)
        tasks = kept
    return tasks


# --------------------------------------------------------------------------- GAIA


class GAIA:
    """Run an agent on GAIA (agent-framework's ``GAIA``)."""

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        data_dir: str | None = None,
        hf_token: str | None = None,
        telemetry_config: GAIATelemetryConfig | None = None,
    ):
        self.evaluator = evaluator or _default_evaluator
        self.data_dir = Path(data_dir or Path(tempfile.gettempdir()) / "data_gaia_hub")
        self.hf_token = hf_token
        self.telemetry_config = telemetry_config or GAIATelemetryConfig()
        self.telemetry_config.configure_otel_providers()
        self.tracer = self.telemetry_config.tracer()

    def _ensure_data(self) -> Path:
        if self.data_dir.exists() and any(self.data_dir.rglob("metadata.jsonl")):
            return self.data_dir
        token = self.hf_token or os.environ.get("HF_TOKEN")
        if not token:
            raise RuntimeError(
                "HF_TOKEN environment variable or hf_token parameter is required "
                "to access the GAIA dataset. Please set your Hugging Face token "
                "with access to gaia-benchmark/GAIA."
            )
        try:
            import huggingface_hub
        except ImportError:
            raise ImportError("downloading GAIA needs huggingface_hub: pip install 'gaia-fast[hf]'") from None
        local = huggingface_hub.snapshot_download(
            repo_id=DATASET_REPO,
            repo_type="dataset",
            revision=DATASET_REVISION,
            token=token,
            local_dir=str(self.data_dir),
        )
        return Path(local)

    async def run(
        self,
        task_runner: TaskRunner,
        level: int | list[int] = 1,
        max_n: int | None = None,
        parallel: int = 1,
        timeout: int | None = None,
        out: str | None = None,
    ) -> list[TaskResult]:
        """Run ``task_runner`` on the tasks of ``level`` (one or a list), at most ``max_n``
        per level, ``parallel`` at once, each within ``timeout`` seconds; write ``out``
        (JSONL) as tasks finish. Returns one :class:`TaskResult` per task."""
        from gaia_fast.harness.runner import run as run_tasks

        spans = _Spans(self.tracer)
        try:
            with spans.span(
                "gaia.benchmark.run",
                {"gaia.benchmark.levels": str(level), "gaia.benchmark.max_n": max_n or 0, "gaia.benchmark.parallel": parallel, "gaia.benchmark.timeout": timeout or 0},
            ) as bench_span:
                with spans.span("gaia.data.ensure"):
                    data_path = self._ensure_data()
                levels = [level] if isinstance(level, int) else list(level)
                with spans.span("gaia.tasks.load", {"gaia.tasks.levels": str(levels), "gaia.tasks.max_n": max_n or 0}) as load_span:
                    tasks = load_tasks(data_path, levels, max_n)
                    if load_span is not None:
                        load_span.set_attribute("gaia.tasks.loaded_count", len(tasks))
                if not tasks:
                    raise RuntimeError(
                        f"No GAIA tasks found for levels {levels}. Make sure you have dataset access and selected valid levels."
                    )
                started = time.time()
                done = await run_tasks(
                    task_runner,
                    tasks,
                    parallel=parallel,
                    timeout=timeout or None,
                    out=out,
                    evaluator=self.evaluator,
                    resume=False,
                    progress=sys.stderr.isatty(),
                    tracing=self.tracer if self.tracer is not None else False,
                )
                results = [TaskResult(r.task.task_id, r.task, r.prediction, r.evaluation, r.runtime_seconds, r.error) for r in done]
                if bench_span is not None:
                    correct = sum(1 for r in results if r.evaluation.is_correct)
                    bench_span.set_attributes(
                        {
                            "gaia.benchmark.total_tasks": len(results),
                            "gaia.benchmark.accuracy": correct / len(results),
                            "gaia.benchmark.correct_count": correct,
                            "gaia.benchmark.total_count": len(results),
                            "gaia.benchmark.avg_runtime_seconds": sum(r.runtime_seconds or 0 for r in results) / len(results),
                            "gaia.benchmark.wall_seconds": time.time() - started,
                        }
                    )
                if out:
                    with spans.span("gaia.results.save", {"gaia.results.output_file": out}):
                        pass  # rows were appended and flushed as each task finished
                return results
        finally:
            self.telemetry_config.flush()


# --------------------------------------------------------------------------- viewer


def viewer_main(argv: Iterable[str] | None = None) -> None:
    """``gaia_viewer RESULTS_FILE [--detailed] [--level N] [--correct-only]
    [--incorrect-only]``: the same text as agent-framework's viewer."""
    import argparse

    from gaia_fast.harness.viewer import format_results, read_results

    parser = argparse.ArgumentParser(description="View GAIA benchmark results")
    parser.add_argument("results_file", help="Path to results JSONL file")
    parser.add_argument("--detailed", action="store_true", help="Show detailed view")
    parser.add_argument("--level", type=int, help="Filter by level")
    parser.add_argument("--correct-only", action="store_true", help="Show only correct answers")
    parser.add_argument("--incorrect-only", action="store_true", help="Show only incorrect answers")
    args = parser.parse_args(None if argv is None else list(argv))
    rows = read_results(args.results_file).rows
    sys.stdout.write(
        format_results(rows, detailed=args.detailed, level=args.level, correct_only=args.correct_only, incorrect_only=args.incorrect_only)
    )
