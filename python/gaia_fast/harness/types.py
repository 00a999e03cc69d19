"""The GAIA run harness's types, field-compatible with the agent-framework lab ``gaia``
module (spec §5.1), so agent code written for it runs here unchanged.

Differences, each for a reason:

- ``Task.file_path`` (absolute path of the attachment, or None) is an extra field placed
  *last*, so positional construction in the agent-framework order still works.
- ``Task.has_truth`` marks tasks with nothing to grade against (no answer, or GAIA's
  ``"?"`` placeholder of the test split); the loader keeps them instead of dropping them.
- ``TaskResult`` has no ``task_id`` field: it is a property read from ``task`` (one source
  of truth); ``resumed`` says that the result was read back from the results file.
- ``TaskRunner`` and ``Evaluator`` may be sync or async callables.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = ["Evaluation", "Evaluator", "Prediction", "Task", "TaskResult", "TaskRunner"]


@dataclass
class Task:
    """One GAIA question. ``metadata`` is the raw dataset row (written to the results
    file as ``task_metadata``); ``file_path`` the attachment's absolute path when the
    task has one and it exists on disk."""

    task_id: str
    question: str
    answer: str | None = None
    level: int | None = None
    file_name: str | None = None
    metadata: dict[str, Any] | None = None
    file_path: Path | None = None

    @property
    def has_truth(self) -> bool:
        """False when there is no answer to grade against: ``None`` or the ``"?"``
        placeholder (after ``str.strip()``, as the scorers' ``no_truth`` status)."""
        return self.answer is not None and self.answer.strip() != "?"

    @property
    def has_attachment(self) -> bool:
        """True when the task names an attachment (``file_name``), found or not."""
        return bool(self.file_name)


@dataclass
class Prediction:
    """An agent's answer. ``prediction`` should be a ``str``: anything else is recorded
    as given but not scored (see :mod:`gaia_fast.harness.runner`). ``messages`` (the agent's
    trace) is ``[]`` when None."""

    prediction: str | None
    messages: list[Any] | None = None
    metadata: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.messages is None:
            self.messages = []


@dataclass
class Evaluation:
    """A verdict: ``is_correct``, a 0–1 ``score`` and free-form ``details``."""

    is_correct: bool
    score: float
    details: dict[str, Any] | None = None


@dataclass
class TaskResult:
    """One finished task. ``error`` is set when the runner or the evaluator raised, timed
    out or returned something unusable; the run goes on regardless. ``runtime_seconds`` is
    the wall-clock time of runner plus evaluator."""

    task: Task
    prediction: Prediction
    evaluation: Evaluation
    runtime_seconds: float | None = None
    error: str | None = None
    resumed: bool = field(default=False, compare=False)

    @property
    def task_id(self) -> str:
        return self.task.task_id


@runtime_checkable
class TaskRunner(Protocol):
    """The agent: ``Task -> Prediction | str``, async (``async def``) or sync. A sync
    runner is called in a worker thread so that tasks still run in parallel."""

    def __call__(self, task: Task, /) -> Awaitable[Prediction | str] | Prediction | str: ...


@runtime_checkable
class Evaluator(Protocol):
    """``(Task, Prediction) -> Evaluation``, async or sync. The default is
    :func:`gaia_fast.harness.runner.gaia_evaluator` (the leaderboard's ``question_scorer``)."""

    def __call__(self, task: Task, prediction: Prediction, /) -> Awaitable[Evaluation] | Evaluation: ...
