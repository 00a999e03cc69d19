"""GAIA task metadata (the Hugging Face dataset's ``2023/<split>/`` layout), the join of
an archive with it, leaderboard submission checks (spec §6), and the tasks an agent runs
(:func:`load`, :func:`download`).
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast.harness.types import Task
from gaia_fast.io.readers import InputError

__all__ = [
    "GAIA_REPO",
    "LEADERBOARD_COUNTS",
    "SubmissionCheck",
    "download",
    "join_metadata",
    "load",
    "load_metadata",
    "locate_metadata",
    "validate_submission",
    "with_attachments",
]

log = logging.getLogger("gaia_fast.datasets")

#: Tasks per level that the leaderboard requires of a full submission (spec §6).
LEADERBOARD_COUNTS: dict[str, dict[int, int]] = {
    "validation": {1: 53, 2: 86, 3: 26},
    "test": {1: 93, 2: 159, 3: 49},
}

_SCHEMA = {"task_id": pl.String, "truth": pl.String, "level": pl.Int64, "question": pl.String, "file_name": pl.String}
_TRUTH_KEYS = ("Final answer", "final_answer", "answer")
_QUESTION_KEYS = ("Question", "question")
_LEVEL_KEYS = ("Level", "level")


def locate_metadata(path: str | os.PathLike, split: str = "validation") -> list[Path]:
    """The metadata file(s) for ``split``: ``path`` itself if it is a file; else the first
    of ``path/2023/<split>``, ``path/<split>``, ``path`` holding ``metadata.jsonl`` (or,
    failing that, ``metadata.parquet``, or failing that every ``metadata*.parquet``).

    ``metadata.parquet`` alone wins over its siblings because the Hugging Face repository
    ships ``metadata.level1.parquet`` … beside it, which hold the same tasks again."""
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise InputError(p, "no such file or directory")
    looked = []
    for d in (p / "2023" / split, p / split, p):
        looked.append(str(d))
        if (d / "metadata.jsonl").is_file():
            return [d / "metadata.jsonl"]
        if (d / "metadata.parquet").is_file():
            return [d / "metadata.parquet"]
        parquets = sorted(d.glob("metadata*.parquet"))
        if parquets:
            return parquets
    raise InputError(p, f"no metadata.jsonl or metadata*.parquet for split {split!r} (looked in: {', '.join(looked)})")


def _first_key(row: dict, keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if k in row), None)


def _jsonl_metadata(path: Path) -> pl.DataFrame:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(path, f"cannot read: {e.strerror or e}") from None
    cols: dict[str, list] = {k: [] for k in _SCHEMA}
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        raw = raw.rstrip(b"\r")
        if not raw.strip():
            continue
        try:
            row = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise InputError(path, f"invalid UTF-8 ({e.reason} at byte {e.start})", line=lineno) from None
        except json.JSONDecodeError as e:
            raise InputError(path, f"invalid JSON: {e.msg} at column {e.colno}", line=lineno) from None
        if not isinstance(row, dict):
            raise InputError(path, "expected a JSON object", line=lineno)
        tid = row.get("task_id")
        if not isinstance(tid, str) or not tid:
            raise InputError(path, f"task_id must be a non-empty string, got {json.dumps(tid)}", line=lineno, field="task_id")
        tk = _first_key(row, _TRUTH_KEYS)
        truth = row.get(tk) if tk else None
        if truth is not None and not isinstance(truth, str):
            raise InputError(path, f"the answer must be a string or null, got {json.dumps(truth)}", line=lineno, field=tk)
        lk = _first_key(row, _LEVEL_KEYS)
        level = row.get(lk) if lk else None
        if isinstance(level, str) and re.fullmatch(r"[0-9]+", level):
            level = int(level)
        if level is not None and (isinstance(level, bool) or not isinstance(level, int)):
            raise InputError(path, f"the level must be an integer, got {json.dumps(level)}", line=lineno, field=lk)
        qk = _first_key(row, _QUESTION_KEYS)
        question = row.get(qk) if qk else None
        fname = row.get("file_name")
        cols["task_id"].append(tid)
        cols["truth"].append(truth)
        cols["level"].append(level)
        cols["question"].append(question if isinstance(question, str) else None)
        cols["file_name"].append(fname if isinstance(fname, str) and fname else None)
        cols.setdefault("_line", []).append(lineno)
    frame = pl.DataFrame({k: pl.Series(k, v, dtype=_SCHEMA.get(k, pl.Int64)) for k, v in cols.items()})
    return frame if "_line" in frame.columns else frame.with_columns(pl.lit(None, pl.Int64).alias("_line"))


def _parquet_metadata(path: Path) -> pl.DataFrame:
    try:
        raw = pl.read_parquet(path)
    except Exception as e:  # noqa: BLE001
        raise InputError(path, f"cannot read Parquet: {e}") from None
    cols = raw.columns
    if "task_id" not in cols:
        raise InputError(path, f"no task_id column (columns: {', '.join(cols)})", field="task_id")
    tk = _first_key(dict.fromkeys(cols), _TRUTH_KEYS)
    lk = _first_key(dict.fromkeys(cols), _LEVEL_KEYS)
    qk = _first_key(dict.fromkeys(cols), _QUESTION_KEYS)
    for name, key in (("answer", tk), ("question", qk)):
        if key is not None and raw.schema[key] not in (pl.String, pl.Null):
            raise InputError(path, f"the {name} column is {raw.schema[key]}, expected text", field=key)
    level = pl.lit(None, pl.Int64)
    if lk is not None:
        dt = raw.schema[lk]
        if dt.is_integer():
            level = pl.col(lk).cast(pl.Int64)
        elif dt == pl.String:
            bad = raw.filter(pl.col(lk).is_not_null() & ~pl.col(lk).str.contains(r"^[0-9]+$"))
            if bad.height:
                raise InputError(path, f"the level must be an integer, got {bad.get_column(lk)[0]!r}", field=lk)
            level = pl.col(lk).cast(pl.Int64)
        else:
            raise InputError(path, f"the level column is {dt}, expected integers", field=lk)
    frame = raw.select(
        pl.col("task_id").cast(pl.String),
        (pl.col(tk) if tk else pl.lit(None, pl.String)).cast(pl.String).alias("truth"),
        level.alias("level"),
        (pl.col(qk) if qk else pl.lit(None, pl.String)).cast(pl.String).alias("question"),
        (pl.col("file_name").cast(pl.String).replace("", None) if "file_name" in cols else pl.lit(None, pl.String)).alias("file_name"),
        pl.lit(None, pl.Int64).alias("_line"),
    )
    if frame.get_column("task_id").is_null().any():
        raise InputError(path, "null task_id", field="task_id")
    return frame


def load_metadata(path: str | os.PathLike, split: str = "validation") -> pl.DataFrame:
    """GAIA task metadata as ``task_id, truth, level, question, file_name``.

    ``path`` is a ``metadata.jsonl`` / ``metadata*.parquet`` file, a dataset folder in
    the Hugging Face layout (``2023/<split>/metadata.jsonl``) or a split folder. ``truth``
    comes from ``Final answer`` (kept as is, ``"?"`` included; null if absent), ``level``
    from ``Level`` (integer or digit string). A bad line or a duplicated task id raises
    :class:`InputError` naming the file and line."""
    frames = []
    for f in locate_metadata(path, split):
        frame = _parquet_metadata(f) if f.suffix.lower() in (".parquet", ".pq") else _jsonl_metadata(f)
        frames.append(frame.with_columns(pl.lit(str(f)).alias("_file")))
    meta = pl.concat(frames, how="vertical") if frames else pl.DataFrame(schema={**_SCHEMA, "_line": pl.Int64, "_file": pl.String})
    dup = meta.filter(pl.col("task_id").is_duplicated() & ~pl.col("task_id").is_first_distinct())
    if dup.height:
        row = dup.row(0, named=True)
        raise InputError(row["_file"], f"duplicate task_id {row['task_id']!r}", line=row["_line"], field="task_id")
    return meta.drop("_line", "_file")


def join_metadata(archive: pl.DataFrame, metadata: pl.DataFrame) -> pl.DataFrame:
    """Truth and level from the metadata, joined on ``task_id``; the archive's own
    ``truth``/``level`` are kept as ``archive_truth``/``archive_level``.

    Rows keep their order. A row whose task id is not in the metadata gets
    ``input_status = "unknown_task"``; every metadata task without a row in the archive
    is appended (in metadata order) with a null prediction and ``input_status =
    "missing"``, so that accuracies use the right denominators."""
    a = archive
    if "truth" in a.columns:
        a = a.rename({"truth": "archive_truth"})
    if "level" in a.columns:
        a = a.rename({"level": "archive_level"})
    if "input_status" not in a.columns:
        a = a.with_columns(pl.lit(None, pl.String).alias("input_status"), pl.lit(None, pl.String).alias("input_reason"))
    m = metadata.select(
        pl.col("task_id"), pl.col("truth"), pl.col("level").alias("_meta_level"), pl.lit(True).alias("_known")
    )
    joined = a.join(m, on="task_id", how="left", maintain_order="left")
    level = pl.col("_meta_level")
    if "archive_level" in joined.columns:
        level = pl.coalesce(pl.col("_meta_level"), pl.col("archive_level"))
    unknown = pl.col("_known").is_null()
    joined = joined.with_columns(
        level.alias("level"),
        pl.when(unknown).then(pl.lit("unknown_task")).otherwise(pl.col("input_status")).alias("input_status"),
        pl.when(unknown)
        .then(pl.lit("task id not in the metadata"))
        .otherwise(pl.col("input_reason"))
        .alias("input_reason"),
    ).drop("_meta_level", "_known")
    missing = m.join(a.select("task_id").drop_nulls().unique(), on="task_id", how="anti", maintain_order="left").select(
        pl.col("task_id"),
        pl.lit(None, pl.String).alias("prediction"),
        pl.col("truth"),
        pl.col("_meta_level").alias("level"),
        pl.lit("missing").alias("input_status"),
        pl.lit("no row for this task in the archive").alias("input_reason"),
    )
    front = ["task_id", "prediction", "truth", "level", "input_status", "input_reason"]
    joined = joined.select(front + [c for c in joined.columns if c not in front])
    if missing.height == 0:
        return joined
    return pl.concat([joined, missing], how="diagonal_relaxed")


@dataclass
class SubmissionCheck:
    """Leaderboard checks of a submission file (spec §6). ``errors`` holds every problem
    found (the leaderboard stops at the first); ``valid`` is True when there are none."""

    split: str
    errors: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    expected: dict[int, int] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    duplicates: dict[str, int] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "split": self.split,
            "valid": self.valid,
            "errors": self.errors,
            "counts": {str(k): v for k, v in sorted(self.counts.items())},
            "expected": {str(k): v for k, v in sorted(self.expected.items())},
            "missing": self.missing,
            "duplicates": self.duplicates,
            "unknown": self.unknown,
            "notes": self.notes,
        }


def validate_submission(path: str | os.PathLike, metadata: pl.DataFrame, split: str = "validation") -> SubmissionCheck:
    """Check a leaderboard submission (JSON Lines with ``task_id`` and ``model_answer``)
    against the split's metadata, line by line as the leaderboard does.

    Errors (each ``{"line": n, "message": …}``, ``n`` 1-based; the quoted leaderboard
    messages keep its 0-based ``Line {ix}``): unparsable or blank lines, a missing
    ``model_answer`` or ``task_id`` key, a ``model_answer`` that is not a string or null
    (the leaderboard's scorer would crash), ids not in the split, duplicated ids, tasks of
    the split that are not submitted, and the per-level count check. The expected counts
    are the metadata's (53/86/26 and 93/159/49 for the real validation/test splits; a
    note says when the metadata differs from those)."""
    p = Path(path)
    check = SubmissionCheck(split=split)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError(p, f"cannot read: {e.strerror or e}") from None
    levels = dict(zip(metadata.get_column("task_id").to_list(), metadata.get_column("level").to_list()))
    seen: dict[str, int] = {}
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline that ends the last line
    for ix, raw in enumerate(lines):
        lineno = ix + 1

        def err(msg: str, **extra: Any) -> None:
            check.errors.append({"line": lineno, "message": msg, **extra})

        try:
            row = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            err(f"Line {ix} is incorrectly formatted. Please fix it and resubmit your file.")
            continue
        if not isinstance(row, dict):
            err(f"Line {ix} is incorrectly formatted. Please fix it and resubmit your file.")
            continue
        if "model_answer" not in row:
            err(f"Line {ix} contains no model_answer key. Please fix it and resubmit your file.")
            continue
        if "task_id" not in row:
            err(f"Line {ix} contains no task_id key (the leaderboard crashes on it).")
            continue
        tid = row["task_id"]
        answer = row["model_answer"]
        if answer is not None and not isinstance(answer, str):
            err(f"Line {ix}: model_answer is a JSON {type(answer).__name__} ({json.dumps(answer)}), not a string; the leaderboard's scorer raises on it.")
        key = tid if isinstance(tid, str) else json.dumps(tid)
        if key not in levels:
            check.unknown.append(key)
            err(f"{key} not found in split {split}. Are you sure you submitted the correct file?", task_id=key)
            continue
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 2:
            err(f"{key} is submitted more than once (the leaderboard scores every copy).", task_id=key)
        lvl = levels[key]
        check.counts[lvl] = check.counts.get(lvl, 0) + 1
    check.duplicates = {k: n for k, n in seen.items() if n > 1}
    check.missing = [t for t in levels if t not in seen]
    if check.missing:
        shown = ", ".join(check.missing[:10]) + (f", … ({len(check.missing)} in all)" if len(check.missing) > 10 else "")
        check.errors.append({"line": None, "message": f"{len(check.missing)} task(s) of split {split} not submitted: {shown}"})
    expected: dict[int, int] = {}
    for lvl in levels.values():
        if lvl is not None:
            expected[lvl] = expected.get(lvl, 0) + 1
    official = LEADERBOARD_COUNTS.get(split)
    if official is not None and expected != official:
        check.notes.append(
            f"the metadata has {sum(expected.values())} tasks ({_fmt_counts(expected)}), not the leaderboard's "
            f"{sum(official.values())} ({_fmt_counts(official)}); its own counts are used"
        )
    check.expected = expected
    got = {k: check.counts.get(k, 0) for k in sorted(expected)}
    if got != expected:
        a, b, c = (got.get(k, 0) for k in (1, 2, 3))
        A, B, C = (expected.get(k, 0) for k in (1, 2, 3))
        check.errors.append(
            {
                "line": None,
                "message": f"Your submission has {a} questions for level 1, {b} for level 2, and {c} for level 3, "
                f"but it should have {A}, {B}, and {C} respectively. Please check your submission.",
            }
        )
    return check


def _fmt_counts(counts: dict[int, int]) -> str:
    return "/".join(str(counts[k]) for k in sorted(counts)) + " for levels " + "/".join(str(k) for k in sorted(counts))


# --------------------------------------------------------------------------- tasks to run

#: The gated Hugging Face dataset repository.
GAIA_REPO = "gaia-benchmark/GAIA"


def _raw_rows(path: Path) -> list[tuple[int | None, dict[str, Any]]]:
    """The metadata rows as the file has them, with their line numbers (None for
    Parquet), in the order :func:`load_metadata` reads them (blank lines skipped)."""
    if path.suffix.lower() in (".parquet", ".pq"):
        return [(None, row) for row in pl.read_parquet(path).to_dicts()]
    rows: list[tuple[int | None, dict[str, Any]]] = []
    for lineno, raw in enumerate(path.read_bytes().split(b"\n"), 1):
        raw = raw.rstrip(b"\r")
        if raw.strip():
            rows.append((lineno, json.loads(raw.decode("utf-8"))))
    return rows


def _levels(level: int | Iterable[int] | None) -> set[int] | None:
    if level is None:
        return None
    if isinstance(level, (str, bytes)) or not isinstance(level, (int, Iterable)):
        raise ValueError(f"level must be an int or a list of ints, got {level!r}")
    items = [level] if isinstance(level, int) else list(level)
    for x in items:
        if isinstance(x, bool) or not isinstance(x, int):
            raise ValueError(f"level must be an int or a list of ints, got {x!r}")
    return set(items)


def load(
    path: str | os.PathLike,
    split: str = "validation",
    level: int | Iterable[int] | None = None,
    max_n: int | None = None,
    seed: int | None = None,
) -> list[Task]:
    """The tasks of a local copy of GAIA, ready for :func:`gaia_fast.harness.runner.run`.

    ``path`` is what :func:`load_metadata` takes: the dataset folder
    (``2023/<split>/metadata.jsonl`` or ``metadata*.parquet``), a split folder or a
    metadata file. Works offline; :func:`download` makes such a folder.

    - ``answer`` is the ``Final answer`` as the file has it. Tasks with no answer or the
      ``"?"`` placeholder (the test split) are kept, with ``task.has_truth == False``;
      the runner does not grade them (unlike agent-framework, which drops them).
    - ``file_path`` is the attachment's absolute path (``file_name`` beside the metadata
      file) when it exists; a missing attachment is logged as a warning and leaves
      ``file_path`` None.
    - ``metadata`` is the raw row (written as ``task_metadata`` in the results file).
    - ``level``: one level or several; None keeps all (a task without a level matches no
      filter).
    - Order: the file's, unless ``seed`` is given, which shuffles reproducibly.
    - ``max_n``: a cap on the **total** number of tasks, applied after the level filter
      and the shuffle (so ``seed`` + ``max_n`` is a random sample).

    Bad metadata raises :class:`~gaia_fast.io.readers.InputError` naming the file and
    line, as :func:`load_metadata` does; so do a task without a question and a task id
    that appears twice.
    """
    levels = _levels(level)
    if max_n is not None and (isinstance(max_n, bool) or not isinstance(max_n, int) or max_n < 0):
        raise ValueError(f"max_n must be a non-negative int or None, got {max_n!r}")
    tasks: list[Task] = []
    seen: dict[str, Path] = {}
    missing: list[str] = []
    for f in locate_metadata(path, split):
        meta = load_metadata(f, split)
        raws = _raw_rows(f)
        if len(raws) != meta.height:  # pragma: no cover - both readers skip the same lines
            raise InputError(f, f"read {meta.height} tasks but {len(raws)} rows")
        base = f.resolve().parent
        for row, (lineno, raw) in zip(meta.iter_rows(named=True), raws):
            tid = row["task_id"]
            if tid in seen:
                raise InputError(f, f"duplicate task_id {tid!r} (also in {seen[tid]})", line=lineno, field="task_id")
            seen[tid] = f
            if row["question"] is None:
                raise InputError(f, f"task {tid!r} has no question (a string under 'Question')", line=lineno, field="Question")
            file_path = None
            if row["file_name"]:
                candidate = base / row["file_name"]
                if candidate.is_file():
                    file_path = candidate
                else:
                    missing.append(f"{tid}: {candidate}")
            tasks.append(
                Task(
                    task_id=tid,
                    question=row["question"],
                    answer=row["truth"],
                    level=row["level"],
                    file_name=row["file_name"],
                    metadata=raw,
                    file_path=file_path,
                )
            )
    if missing:
        shown = "; ".join(missing[:5]) + (f"; … ({len(missing)} in all)" if len(missing) > 5 else "")
        log.warning("%d attachment(s) not found, their tasks get file_path=None: %s", len(missing), shown)
    if levels is not None:
        tasks = [t for t in tasks if t.level in levels]
    if seed is not None:
        random.Random(seed).shuffle(tasks)
    if max_n is not None:
        tasks = tasks[:max_n]
    return tasks


def with_attachments(tasks: Iterable[Task]) -> list[Task]:
    """The tasks that name an attachment (``file_name``), in order; check ``file_path``
    for whether it was found."""
    return [t for t in tasks if t.has_attachment]


def download(
    dest: str | os.PathLike | None = None,
    *,
    token: str | None = None,
    split: str | None = None,
    revision: str | None = None,
) -> Path:
    """Fetch the gated GAIA dataset with ``huggingface_hub`` (extra ``gaia-fast[hf]``) and
    return the folder to pass to :func:`load`.

    ``dest`` None keeps the files in the Hugging Face cache. ``token`` defaults to
    ``HF_TOKEN`` or the token saved by ``hf auth login``; the account must have accepted
    the dataset's terms. ``split`` limits the download to ``2023/<split>/``;
    ``revision`` pins a commit of the dataset repository (None = its main branch).
    Everything else in gaia-fast works offline on the folder this returns."""
    try:
        import huggingface_hub
    except ImportError:
        raise ImportError("gaia_fast.datasets.gaia.download needs huggingface_hub: pip install 'gaia-fast[hf]'") from None
    token = token or os.environ.get("HF_TOKEN") or huggingface_hub.get_token()
    if not token:
        raise RuntimeError(
            f"{GAIA_REPO} is a gated dataset: accept its terms on the Hugging Face Hub, then pass token=, "
            "set HF_TOKEN or run `hf auth login`"
        )
    patterns = None if split is None else [f"2023/{split}/*", "README.md"]
    log.info("downloading %s%s", GAIA_REPO, f" ({split})" if split else "")
    folder = huggingface_hub.snapshot_download(
        repo_id=GAIA_REPO,
        repo_type="dataset",
        revision=revision,
        local_dir=None if dest is None else str(dest),
        token=token,
        allow_patterns=patterns,
    )
    return Path(folder)
