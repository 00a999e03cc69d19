"""The field names GAIA result files use, by role: one table for every reader.

A file is recognised by its fields, not by its framework: each role (task id, question,
final answer, truth, level, the framework's own verdict) has an ordered list of field
paths; a dotted path (``metadata.task.task_id``) names a field inside nested objects. The
source of every entry (the framework and the file or code it was read from) is in
``docs/gaia_layouts.md``.

Rules (:func:`recognise`):

* task id, question, truth, level, verdict: the first path of the role's list that the
  record has;
* final answer: the scorer-facing fields (``ANSWER_FIELDS``) come first; raw responses
  (``RAW_ANSWER_FIELDS``) only when no scorer-facing field is there. When two fields of
  the same tier remain, the file is ambiguous: :class:`Ambiguous` lists them and the flag
  that picks one (``--prediction-col``);
* a field taken by one role is not offered to another (``answer`` is the final answer in
  one file and never also its truth).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ANSWER_FIELDS",
    "ID_FIELDS",
    "LEVEL_FIELDS",
    "QUESTION_FIELDS",
    "RAW_ANSWER_FIELDS",
    "TRUTH_FIELDS",
    "VERDICT_FIELDS",
    "Ambiguous",
    "Recognised",
    "TaskRecords",
    "field_paths",
    "get_path",
    "recognise",
    "verdict_value",
]

#: Task id. ``instance_id``: OpenHands; ``metadata.task.task_id``: TapeAgents tapes;
#: ``taskId``: gaia-agent; ``question_id``/``id``: generic harnesses.
ID_FIELDS: tuple[str, ...] = (
    "task_id",
    "taskId",
    "instance_id",
    "metadata.task.task_id",
    "instance.task_id",
    "Task ID",
    "question_id",
    "id",
)

#: Question text (joins a file without task ids to the metadata).
QUESTION_FIELDS: tuple[str, ...] = (
    "question",
    "Question",
    "original_question",
    "metadata.task.Question",
    "instance.Question",
)

#: Final answer, scorer-facing (what the harness hands its scorer), most specific first.
#: ``predicted_answer``: rLLM-style GAIA evaluations (``gaia_evaluation_results.json``).
ANSWER_FIELDS: tuple[str, ...] = (
    "model_answer",
    "prediction",
    "predicted_answer",
    "submitted_answer",
    "Submitted Answer",
    "final_answer",
    "actual_answer",
    "answer",
    "test_result.model_answer",
    "metadata.result",
)

#: Final answer, raw agent responses: used only when no scorer-facing field is there.
RAW_ANSWER_FIELDS: tuple[str, ...] = (
    "output",
    "response",
    "result",
    "test_result.model_answer_raw",
)

#: Reference answer.
TRUTH_FIELDS: tuple[str, ...] = (
    "truth",
    "true_answer",
    "ground_truth",
    "expected_answer",
    "expectedAnswer",
    "Final answer",
    "gold_answer",
    "test_result.ground_truth",
    "metadata.task.Final answer",
    "instance.Final answer",
)

#: Level.
LEVEL_FIELDS: tuple[str, ...] = (
    "level",
    "Level",
    "metadata.level",
    "metadata.task.Level",
    "instance.Level",
)

#: The framework's own verdict: a bool, a number (1 / 0), ``"True"``/``"False"``, or null.
VERDICT_FIELDS: tuple[str, ...] = (
    "is_correct",
    "isCorrect",
    "correct",
    "passed",
    "match",
    "test_result.score",
    "score",
)

#: Labels of the layouts seen in the survey (docs/gaia_layouts.md), by the fields that mark
#: them. A label only names the layout in reports: the roles always come from the role
#: lists above, whatever the label.
LABELS: tuple[tuple[str, frozenset[str]], ...] = (
    ("tapeagents-tape", frozenset({"metadata.result", "metadata.task.task_id"})),
    ("openhands-output", frozenset({"instance_id", "test_result.model_answer"})),
    ("agents-course-submission", frozenset({"task_id", "submitted_answer"})),
    ("agents-course-log", frozenset({"Task ID", "Submitted Answer"})),
    ("smolagents-decentralized", frozenset({"question", "original_question", "answer", "true_answer"})),
    ("agentjo-results", frozenset({"question", "output", "true_answer", "is_correct"})),
)

#: Every layout name the vocabulary gives.
LABEL_NAMES = frozenset({"fields", *(name for name, _ in LABELS)})

#: How deep :func:`field_paths` looks into nested objects.
MAX_DEPTH = 3


@dataclass(frozen=True)
class Recognised:
    """The field path of each role (None = the file has none)."""

    task_id: str | None
    question: str | None
    prediction: str
    truth: str | None
    level: str | None
    verdict: str | None
    label: str = "fields"

    @property
    def nested(self) -> bool:
        return any(p is not None and "." in p for p in (self.task_id, self.question, self.prediction, self.truth, self.level, self.verdict))


class Ambiguous(ValueError):
    """Two or more fields could be the final answer."""

    def __init__(self, role: str, candidates: list[str], flag: str):
        self.role = role
        self.candidates = candidates
        self.flag = flag
        shown = ", ".join(repr(c) for c in candidates)
        super().__init__(f"several fields could hold the {role}: {shown}; pick one with {flag} NAME")


#: Fields only GAIA's task records carry (the dataset's ``metadata.jsonl``, its copies and
#: conversions such as WYRipple/ExpSeek ``data/gaia.jsonl``): beside them, ``answer`` is the
#: task's truth, and the file is the dataset, not a model's results.
TASK_RECORD_FIELDS: tuple[str, ...] = ("Annotator Metadata", "Annotator_Metadata")


class TaskRecords(Ambiguous):
    """The records are GAIA tasks: their ``answer`` is the truth, not a final answer."""

    def __init__(self, field: str, marker: str, flag: str):
        ValueError.__init__(
            self,
            f"its records are GAIA tasks (they carry {marker!r}): {field!r} is the task's truth, not a model's "
            f"answer; if a field holds the model's answer, name it with {flag} NAME",
        )
        self.role, self.candidates, self.flag = "final answer", [field], flag


def field_paths(obj: Mapping[str, Any], depth: int = MAX_DEPTH) -> list[str]:
    """Top-level keys and the dotted paths of nested object fields, in order."""
    out: list[str] = []

    def walk(o: Mapping[str, Any], prefix: str, left: int) -> None:
        for k, v in o.items():
            p = prefix + str(k)
            out.append(p)
            if isinstance(v, dict) and left > 1:
                walk(v, p + ".", left - 1)

    walk(obj, "", depth)
    return out


_MISSING = object()


def get_path(obj: Mapping[str, Any], path: str, default: Any = None) -> Any:
    """The value at ``path``: a top-level key first (keys may hold dots), else the dotted
    path through nested objects."""
    if path in obj:
        return obj[path]
    cur: Any = obj
    parts = path.split(".")
    i = 0
    while i < len(parts):
        if not isinstance(cur, Mapping):
            return default
        # A nested key may itself hold a dot: try the longest key first.
        for j in range(len(parts), i, -1):
            key = ".".join(parts[i:j])
            if key in cur:
                cur = cur[key]
                i = j
                break
        else:
            return default
    return cur


def _first(fields: Iterable[str], have: set[str], taken: set[str]) -> str | None:
    return next((f for f in fields if f in have and f not in taken), None)


def recognise(paths: Iterable[str], *, prediction: str | None = None) -> Recognised | None:
    """The role of each field among ``paths`` (see the module docstring), or None when no
    final-answer field is there. ``prediction`` names the answer field (the user's
    choice). Raises :class:`Ambiguous` when two answer fields of one tier remain."""
    have = set(paths)
    taken: set[str] = set()
    if prediction is None:
        for tier in (ANSWER_FIELDS, RAW_ANSWER_FIELDS):
            found = [f for f in tier if f in have]
            # A truth-only name is never the answer (``answer`` beside ``prediction`` is
            # handled by the named layouts before the vocabulary is consulted).
            if len(found) > 1:
                raise Ambiguous("final answer", found, "--prediction-col")
            if found:
                prediction = found[0]
                break
        if prediction is None:
            return None
        # A task record with no other truth field: its ``answer`` is the truth. (A result that
        # copies the task in, ``Final answer`` and all, keeps ``answer`` as the model's.)
        marker = next((m for m in TASK_RECORD_FIELDS if m in have), None)
        if prediction == "answer" and marker is not None and not any(f in have for f in TRUTH_FIELDS):
            raise TaskRecords(prediction, marker, "--prediction-col")
    taken.add(prediction)
    tid = _first(ID_FIELDS, have, taken)
    taken.add(tid or "")
    truth = _first(TRUTH_FIELDS, have, taken)
    taken.add(truth or "")
    question = _first(QUESTION_FIELDS, have, taken)
    level = _first(LEVEL_FIELDS, have, taken)
    verdict = _first(VERDICT_FIELDS, have, taken)
    label = next((name for name, marks in LABELS if marks <= have), "fields")
    return Recognised(tid, question, prediction, truth, level, verdict, label)


_TRUE = {"true", "1", "1.0", "yes", "correct", "pass", "passed", "✅", "✓"}
_FALSE = {"false", "0", "0.0", "no", "incorrect", "wrong", "fail", "failed", "❌", "✗"}


def verdict_value(v: Any) -> bool | None:
    """A framework's verdict as a bool: booleans as they are, numbers 1 / 0, the texts in
    ``_TRUE`` / ``_FALSE`` (any case); anything else (null, a partial score) is None."""
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return True if v == 1 else (False if v == 0 else None)
    if isinstance(v, str):
        s = v.strip().lower()
        return True if s in _TRUE else (False if s in _FALSE else None)
    return None


def verdict_expr(col):
    """:func:`verdict_value` as a Polars expression over a column of any type."""
    import polars as pl

    s = col.cast(pl.String).str.strip_chars().str.to_lowercase()
    return (
        pl.when(s.is_in(sorted(_TRUE)))
        .then(pl.lit(True))
        .when(s.is_in(sorted(_FALSE)))
        .then(pl.lit(False))
        .otherwise(pl.lit(None, pl.Boolean))
    )


def dumps_short(v: Any, limit: int = 60) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= limit else s[: limit - 1] + "…"
