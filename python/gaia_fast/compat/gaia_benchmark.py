"""``GAIABenchmark``: look tasks up and grade answers one at a time, 0-1 with an explanation.

The object the graded bands come from, with the same methods::

    benchmark = GAIABenchmark("path/to/GAIA")          # or GAIABenchmark() in a checkout
    benchmark.get_task_ids()                           # ['c61d22de-…', …]
    benchmark.get_task(task_id).data["Question"]       # the raw metadata row (+ file_path, subset)
    result = benchmark.evaluate(task_id, "your answer")
    result.score, result.score_explanation             # 0.95, 'matches after normalisation …'
    benchmark.get_tasks_by_level(2)
    benchmark.get_tasks_with_files()

``evaluate`` is gaia-fast's graded scorer (the README's rule table): built on the
leaderboard's decision, so 1.0 is always an official match and an official match never
grades 0; level 1 (or an unknown level) lets case differences pass at 0.95, levels 2 and 3
at 0.9.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_fast.datasets.gaia import load
from gaia_fast.scorers.gaia import graded_score

__all__ = ["BenchmarkTask", "EvaluationResult", "GAIABenchmark"]


@dataclass
class BenchmarkTask:
    """One task: ``data`` is its metadata row, with ``file_path`` (absolute, when the task
    names a file) and ``subset`` (the split) added."""

    task_id: str
    benchmark: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def question(self) -> str:
        return self.data.get("Question", "")

    @property
    def answer(self) -> str | None:
        return self.data.get("Final answer")

    @property
    def level(self) -> int | None:
        return self.data.get("Level")


@dataclass
class EvaluationResult:
    """A graded answer: ``score`` in [0, 1], ``score_explanation`` one line, ``kind`` the band."""

    score: float
    score_explanation: str
    kind: str = ""


class GAIABenchmark:
    """GAIA tasks of one split, with graded evaluation.

    ``data_dir``: a dataset folder (``2023/<split>/metadata.jsonl`` or ``metadata*.parquet``),
    a split folder or a metadata file; default the ``GAIA_DATA_DIR`` environment variable,
    else ``./GAIA``. Raises :class:`gaia_fast.io.readers.InputError` naming the file and
    line for bad metadata."""

    def __init__(self, data_dir: str | os.PathLike | None = None, split: str = "validation"):
        if data_dir is None:
            data_dir = os.environ.get("GAIA_DATA_DIR") or "GAIA"
        self.data_dir = Path(data_dir)
        self.split = split
        self._tasks: dict[str, BenchmarkTask] = {}
        self._levels: dict[str, int | None] = {}
        for t in load(self.data_dir, split):
            self._levels[t.task_id] = t.level
            data = dict(t.metadata or {})
            if t.file_name:
                data["file_path"] = str(t.file_path) if t.file_path is not None else None
            data["subset"] = split
            self._tasks[t.task_id] = BenchmarkTask(t.task_id, self.name, data)

    @property
    def name(self) -> str:
        return "GAIA"

    def get_task_ids(self) -> list[str]:
        """Every task id, in the metadata's order."""
        return list(self._tasks)

    def get_task(self, task_id: str) -> BenchmarkTask:
        """The task; KeyError for an unknown id."""
        return self._tasks[task_id]

    def get_task_info(self, task_id: str) -> dict[str, Any]:
        """The task's main fields in one dict."""
        d = self.get_task(task_id).data
        return {
            "question": d.get("Question", ""),
            "level": d.get("Level"),
            "final_answer": d.get("Final answer", ""),
            "file_name": d.get("file_name", ""),
            "file_path": d.get("file_path", ""),
            "subset": d.get("subset", ""),
            "annotator_metadata": d.get("Annotator Metadata", {}),
        }

    def evaluate(self, task_id: str, output: Any) -> EvaluationResult:
        """Grade ``output`` against the task's answer (``str()`` of a non-str output;
        None is no answer). A task without a public answer (``?``) cannot be graded:
        ValueError."""
        task = self.get_task(task_id)
        expected = task.data.get("Final answer")
        if expected is None or str(expected).strip() == "?":
            raise ValueError(f"task {task_id!r} has no public answer to grade against")
        text = None if output is None else (output if isinstance(output, str) else str(output))
        g = graded_score(text, str(expected), self._levels[task_id])
        return EvaluationResult(g.score, g.explanation, g.kind)

    def get_tasks_by_level(self, level: int) -> list[str]:
        """The ids of the tasks of ``level``."""
        return [tid for tid, lv in self._levels.items() if lv == level]

    def get_tasks_with_files(self) -> list[str]:
        """The ids of the tasks that name an attached file."""
        return [tid for tid, t in self._tasks.items() if t.data.get("file_name")]
