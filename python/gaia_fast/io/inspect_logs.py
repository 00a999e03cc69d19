"""Inspect evaluation logs of GAIA runs (``inspect_evals``' ``gaia`` task) as an archive.

A log holds one sample per task and epoch. Each becomes a row:

==================  ========================================================================
column              from the sample
==================  ========================================================================
``task_id``         ``id`` (the GAIA task id; an integer id becomes its decimal text)
``prediction``      the chosen score's ``answer`` (what the scorer graded; inspect_evals'
                    ``gaia_scorer`` puts the whole completion there), else
                    ``output.completion``; null when the sample ended in an error with no
                    completion
``truth``           ``target`` (a list of targets is joined as Inspect's ``Target.text`` does)
``level``           ``metadata.level`` (or ``metadata.Level``)
``epoch``           ``epoch``: a task run for several epochs gives several rows
``framework_verdict``  Inspect's own verdict: the chosen score's ``value`` read as Inspect's
                    ``accuracy()`` reads it (``C``/``yes``/``true``/1 -> True,
                    ``I``/``N``/``no``/``false``/0 -> False); null when the sample has no
                    score or the value is neither (``P`` = 0.5, other numbers, lists)
``framework_score``  the chosen score's value as text (JSON for non-strings)
``framework_scorer``  the chosen scorer's name: ``gaia_scorer`` when present, else the only
                    scorer, else the first one
``framework_error``  the sample's error message, if any
``model``           the log's model
==================  ========================================================================

then ``input_status`` / ``input_reason`` as the other readers give them (``bad_type`` for a
target that is not text). Rows are in Inspect's order (by epoch, then id), the order
``read_eval_log`` returns.

Two readers give the same frame: ``inspect_ai.log.read_eval_log`` when inspect_ai is
installed (the ``inspect`` extra), else the standard library. The ``.eval`` format is a zip
of JSON entries (``header.json``, or ``_journal/start.json`` while a run is unfinished, and
one ``samples/<id>_epoch_<n>.json`` per sample; a re-logged sample repeats its entry name and
the last one counts, as in inspect_ai); inspect_ai compresses entries with zstd (since
0.3.1xx; older logs use deflate), which the fallback reads through ``zipfile_zstd`` or
``zstandard`` when one is installed (Python 3.14's ``zipfile`` reads it natively). A JSON log
is one JSON document: the header's fields and ``samples``.
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import re
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast.io.readers import (
    InputError,
    Layout,
    SkippedLine,
    _assemble,
    _level_from_json,
    _safe_text,
    _short,
    _valid_text,
)

__all__ = ["INSPECT_LAYOUT", "is_inspect_log", "read_inspect_log"]

log = logging.getLogger("gaia_fast.io")

#: The layout every Inspect log has (the fields are the sample's, see the module docstring).
INSPECT_LAYOUT = Layout("inspect-log", "id", "scores.<scorer>.answer|output.completion", "target", "metadata.level")

#: Columns after the normalised ones, in this order.
EXTRA_COLUMNS = ("epoch", "framework_verdict", "framework_score", "framework_scorer", "framework_error", "model")

_ZIP_ZSTANDARD = 93  # the zip compression method number of zstd
_JSON_LOG_START = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"')
_SAMPLES_DIR = "samples/"


def is_inspect_log(path: str | os.PathLike) -> bool:
    """Whether ``path`` is an Inspect log: a zip with ``header.json`` or
    ``_journal/start.json`` (``.eval``), or a JSON document that opens as inspect_ai writes
    one (``{"version": N, "status": "...``). Reads only the zip directory or the first bytes."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            head = f.read(256)
    except OSError:
        return False
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(p) as z:
                names = set(z.namelist())
        except (zipfile.BadZipFile, OSError):
            return False
        return "header.json" in names or "_journal/start.json" in names
    return bool(_JSON_LOG_START.match(head))


def read_inspect_log(
    path: str | os.PathLike,
    overrides: dict | None = None,
    skip_bad_lines: bool = False,
    skipped: list[SkippedLine] | None = None,
    keep_originals: bool = True,
    *,
    use_inspect_ai: bool | None = None,
) -> tuple[pl.DataFrame, Layout]:
    """Read an Inspect log (``.eval`` or JSON) into ``(frame, layout)``, as the readers of
    :mod:`gaia_fast.io.readers` return them (see the module docstring for the columns).

    ``overrides`` are the column options of :func:`~gaia_fast.io.readers.read_archive`;
    they do not apply to an Inspect log (its fields are fixed) and raise when given. With
    ``skip_bad_lines``, a sample entry that cannot be read is skipped and recorded in
    ``skipped`` (its "line" is the entry name, or ``samples[i]``); otherwise it raises
    :class:`InputError`. ``keep_originals`` is accepted for the readers' signature: the
    extra columns are always kept. ``use_inspect_ai``: None uses inspect_ai when it can be
    imported, False never, True requires it."""
    p = Path(path)
    if overrides and any(v is not None for v in overrides.values()):
        raise InputError(p, "column options do not apply to an Inspect log (its fields are fixed)")
    if skipped is None:
        skipped = []
    if not p.is_file():
        raise InputError(p, "no such file")
    reader = None
    if use_inspect_ai is not False:
        reader = _inspect_ai_reader()
        if reader is None and use_inspect_ai:
            raise InputError(p, "inspect_ai is not installed (pip install 'gaia-fast[inspect]')")
    if reader is not None:
        header, samples = reader(p)
    elif _is_zip(p):
        header, samples = _read_eval_zip(p)
    else:
        header, samples = _read_json_log(p)
    return _frame(p, header, samples, skip_bad_lines, skipped), INSPECT_LAYOUT


# --------------------------------------------------------------------------- readers
#
# Each reader gives (header, samples): header a dict with "status", "model" and the
# expected (id, epoch) pairs; samples an iterable of (where, sample dict | InputError),
# where a sample dict has the fields _row reads (id, epoch, target, scores, output
# completion, metadata, error message).


def _inspect_ai_reader():
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        return None

    def read(p: Path):
        try:
            try:
                # Skip the transcript (events, messages): large, and not read here.
                ev = read_eval_log(str(p), exclude_fields={"events", "messages", "store", "attachments"})
            except TypeError:  # inspect_ai before exclude_fields
                ev = read_eval_log(str(p))
        except Exception as e:  # noqa: BLE001 - inspect_ai raises many kinds on a bad file
            raise InputError(p, f"inspect_ai cannot read this log: {type(e).__name__}: {_first_line(e)}") from None
        header = {
            "status": ev.status,
            "model": ev.eval.model,
            "expected": _expected(getattr(ev.eval.dataset, "sample_ids", None), getattr(ev.eval.config, "epochs", None)),
        }
        samples = []
        for s in ev.samples or []:
            scores = None
            if s.scores is not None:
                scores = {name: {"value": sc.value, "answer": sc.answer} for name, sc in s.scores.items()}
            samples.append(
                (
                    f"samples/{s.id}_epoch_{s.epoch}.json",
                    {
                        "id": s.id,
                        "epoch": s.epoch,
                        "target": s.target,
                        "scores": scores,
                        "output": {"completion": s.output.completion if s.output is not None else None},
                        "metadata": s.metadata,
                        "error": {"message": s.error.message} if s.error is not None else None,
                    },
                )
            )
        return header, samples

    return read


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _expected(sample_ids, epochs) -> list[tuple[str, int]] | None:
    if sample_ids is None:
        return None
    return [(str(i), e) for e in range(1, (epochs or 1) + 1) for i in sample_ids]


def _is_zip(p: Path) -> bool:
    with open(p, "rb") as f:
        return f.read(4) == b"PK\x03\x04"


def _read_eval_zip(p: Path):
    try:
        z = zipfile.ZipFile(p)
    except (zipfile.BadZipFile, OSError) as e:
        raise InputError(p, f"not a readable .eval log (a zip): {e}") from None
    with z:
        names = list(dict.fromkeys(z.namelist()))  # a repeated name: the last entry counts
        head_name = "header.json" if "header.json" in names else "_journal/start.json" if "_journal/start.json" in names else None
        if head_name is None:
            raise InputError(p, "not an Inspect .eval log: no header.json or _journal/start.json entry")
        head = _entry_json(p, z, head_name)
        if not isinstance(head, dict) or not isinstance(head.get("eval"), dict):
            raise InputError(p, "no 'eval' object", line=head_name)
        ev = head["eval"]
        header = {
            "status": head.get("status", "started"),
            "model": ev.get("model"),
            "expected": _expected((ev.get("dataset") or {}).get("sample_ids"), (ev.get("config") or {}).get("epochs")),
        }
        samples = []
        for name in names:
            if name.startswith(_SAMPLES_DIR) and name.endswith(".json"):
                try:
                    samples.append((name, _entry_json(p, z, name)))
                except InputError as e:
                    samples.append((name, e))
    return header, samples


def _entry_json(p: Path, z: zipfile.ZipFile, name: str) -> Any:
    data = _entry_bytes(p, z, z.getinfo(name))
    try:
        return json.loads(data)
    except UnicodeDecodeError as e:
        raise InputError(p, f"invalid UTF-8 ({e.reason} at byte {e.start})", line=name) from None
    except json.JSONDecodeError as e:
        raise InputError(p, f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}", line=name) from None


def _zipfile_reads_zstd() -> bool:
    """Whether the standard ``zipfile`` reads zstd entries: natively (Python 3.14) or once
    ``zipfile_zstd`` (a dependency of inspect_ai) has taught it."""
    if hasattr(zipfile, "ZIP_ZSTANDARD"):
        return True
    try:
        import zipfile_zstd  # noqa: F401
    except ImportError:
        return False
    return True


def _entry_bytes(p: Path, z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.compress_type == _ZIP_ZSTANDARD and not _zipfile_reads_zstd():
        return _zstd_entry(p, info)
    try:
        return z.read(info)
    except (zipfile.BadZipFile, zlib.error, OSError, NotImplementedError) as e:
        raise InputError(p, f"cannot read the entry: {e}", line=info.filename) from None


def _zstd_entry(p: Path, info: zipfile.ZipInfo, zstandard: Any = None) -> bytes:
    """A zstd-compressed entry through the ``zstandard`` package, read from its local
    header (the standard ``zipfile`` before Python 3.14 refuses the method)."""
    if zstandard is None:
        try:
            import zstandard
        except ImportError:
            raise InputError(
                p,
                "this .eval log is zstd-compressed (inspect_ai's format); install inspect-ai "
                "(pip install 'gaia-fast[inspect]') or zstandard to read it",
                line=info.filename,
            ) from None
    with open(p, "rb") as f:
        f.seek(info.header_offset)
        local = f.read(30)
        if len(local) != 30 or local[:4] != b"PK\x03\x04":
            raise InputError(p, "bad local zip header", line=info.filename)
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        f.seek(info.header_offset + 30 + name_len + extra_len)
        raw = f.read(info.compress_size)
    out = io.BytesIO()
    try:
        # inspect_ai may write several frames (one per 200 MiB of input).
        while raw:
            d = zstandard.ZstdDecompressor().decompressobj()
            out.write(d.decompress(raw))
            raw = d.unused_data
    except zstandard.ZstdError as e:
        raise InputError(p, f"cannot decompress the entry (zstd): {e}", line=info.filename) from None
    data = out.getvalue()
    if len(data) != info.file_size:
        raise InputError(p, f"the entry decompresses to {len(data)} bytes, the zip says {info.file_size}", line=info.filename)
    return data


def _read_json_log(p: Path):
    try:
        doc = json.loads(p.read_bytes().decode("utf-8-sig"))
    except OSError as e:
        raise InputError(p, f"cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise InputError(p, f"invalid UTF-8 ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise InputError(p, f"invalid JSON: {e.msg} at column {e.colno}", line=e.lineno) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("eval"), dict):
        raise InputError(p, "not an Inspect JSON log: no 'eval' object at the top level")
    ev = doc["eval"]
    header = {
        "status": doc.get("status"),
        "model": ev.get("model"),
        "expected": _expected((ev.get("dataset") or {}).get("sample_ids"), (ev.get("config") or {}).get("epochs")),
    }
    raw = doc.get("samples")
    if raw is not None and not isinstance(raw, list):
        raise InputError(p, f"'samples' is a JSON {type(raw).__name__}, not a list", field="samples")
    return header, [(f"samples[{i}]", s) for i, s in enumerate(raw or [])]


# --------------------------------------------------------------------------- rows


def _sort_key(row: dict) -> tuple[int, str]:
    # inspect_ai's sort_samples: by epoch, then id (an integer id zero-filled to 20 digits).
    i = row["_id"]
    return (row["epoch"], i if isinstance(i, str) else str(i).zfill(20))


def _frame(p: Path, header: dict, samples, skip_bad_lines: bool, skipped: list[SkippedLine]) -> pl.DataFrame:
    rows = []
    for where, s in samples:
        try:
            if isinstance(s, InputError):
                raise s
            rows.append(_row(p, where, s, header.get("model")))
        except InputError as e:
            if not skip_bad_lines:
                raise
            skipped.append(SkippedLine(e.path, e.line if e.line is not None else where, e.message, e.field))
    rows.sort(key=_sort_key)
    if header.get("status") not in ("success", None):
        log.warning("%s: the log's status is %r: it may not hold every sample", p, header.get("status"))
    expected = header.get("expected")
    if expected is not None:
        have = {(r["task_id"], r["epoch"]) for r in rows} | {(_skipped_key(x)) for x in skipped if x.path == str(p)}
        absent = [k for k in expected if k not in have]
        if absent:
            log.warning(
                "%s: %d of the %d (sample, epoch) pairs the log's header lists have no sample in the log (first: %s, epoch %d)",
                p, len(absent), len(expected), absent[0][0], absent[0][1],
            )  # fmt: skip
    cols: dict[str, list] = {c: [r[c] for r in rows] for c in ("task_id", "prediction", "truth", "level", "input_status", "input_reason", *EXTRA_COLUMNS)}
    originals = pl.DataFrame(
        {
            "epoch": pl.Series(cols["epoch"], dtype=pl.Int64),
            "framework_verdict": pl.Series(cols["framework_verdict"], dtype=pl.Boolean),
            "framework_score": pl.Series(cols["framework_score"], dtype=pl.String),
            "framework_scorer": pl.Series(cols["framework_scorer"], dtype=pl.String),
            "framework_error": pl.Series(cols["framework_error"], dtype=pl.String),
            "model": pl.Series(cols["model"], dtype=pl.String),
        }
    )
    return _assemble(
        originals,
        INSPECT_LAYOUT,
        task_id=pl.Series("task_id", cols["task_id"], dtype=pl.String),
        prediction=pl.Series("prediction", cols["prediction"], dtype=pl.String),
        truth=pl.Series("truth", cols["truth"], dtype=pl.String),
        level=pl.Series("level", cols["level"], dtype=pl.Int64) if any(r["_has_level"] for r in rows) else None,
        status=pl.Series("input_status", cols["input_status"], dtype=pl.String),
        reason=pl.Series("input_reason", cols["input_reason"], dtype=pl.String),
    )


def _skipped_key(x: SkippedLine) -> tuple[str, int] | None:
    m = re.fullmatch(r"samples/(.*)_epoch_([0-9]+)\.json", str(x.line))
    return (m.group(1), int(m.group(2))) if m else None


def _row(p: Path, where: str, s: Any, model: Any) -> dict:
    if not isinstance(s, dict):
        raise InputError(p, f"a sample is a JSON {type(s).__name__}, not an object", line=where)
    sid = s.get("id")
    if isinstance(sid, bool) or not isinstance(sid, (str, int)):
        raise InputError(p, f"sample id is {_short(sid)}, not a string or an integer", line=where, field="id")
    tid = sid if isinstance(sid, str) else str(sid)
    if not _valid_text(tid):
        raise InputError(p, "sample id holds a lone surrogate", line=where, field="id")
    epoch = s.get("epoch", 1)
    if isinstance(epoch, bool) or not isinstance(epoch, int):
        raise InputError(p, f"epoch is {_short(epoch)}, not an integer", line=where, field="epoch")
    status = reason = None

    target = s.get("target")
    truth = None
    if isinstance(target, list) and all(isinstance(t, str) for t in target):
        target = "".join(target)  # Inspect's Target.text
    if isinstance(target, str):
        truth = target if _valid_text(target) else None
        if truth is None:
            status, reason = "read_error", f"truth field 'target' holds a lone surrogate: {_short(_safe_text(target))}"
    elif target is not None:
        status, reason = "bad_type", f"truth field 'target' is {_short(target)}, not a string or a list of strings"

    scores = s.get("scores")
    name, score = _chosen_score(scores if isinstance(scores, dict) else None)
    error = s.get("error")
    error_msg = error.get("message") if isinstance(error, dict) else (error if isinstance(error, str) else None)
    output = s.get("output")
    completion = output.get("completion") if isinstance(output, dict) else None
    answer = score.get("answer") if isinstance(score, dict) else None
    prediction = answer if answer is not None else completion
    if prediction is not None and not isinstance(prediction, str):
        status = "bad_type"
        reason = "; ".join(r for r in (reason, f"prediction is {_short(prediction)}, not a string") if r)
        prediction = None
    if prediction == "" and error_msg is not None and answer is None:
        prediction = None  # the sample failed before answering: no prediction, not an empty one
    if prediction is not None and not _valid_text(prediction):
        status = "read_error"
        reason = "; ".join(r for r in (reason, f"prediction holds a lone surrogate: {_short(_safe_text(prediction))}") if r)
        prediction = None

    meta = s.get("metadata") if isinstance(s.get("metadata"), dict) else {}
    raw_level = meta.get("level", meta.get("Level"))
    level = _level_from_json(raw_level)
    if raw_level is not None and level is None:
        log.warning("%s: %s: level %s is not an integer; level is null", p, where, _short(raw_level))
    value = score.get("value") if isinstance(score, dict) else None
    return {
        "_id": sid,
        "_has_level": "level" in meta or "Level" in meta,
        "task_id": tid,
        "prediction": prediction,
        "truth": truth,
        "level": level,
        "input_status": status,
        "input_reason": reason,
        "epoch": epoch,
        "framework_verdict": verdict(value) if score is not None else None,
        "framework_score": None if value is None else _safe_text(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)),
        "framework_scorer": name,
        "framework_error": None if error_msg is None else _safe_text(str(error_msg)),
        "model": None if model is None else str(model),
    }


def _chosen_score(scores: dict | None) -> tuple[str | None, dict | None]:
    """(scorer name, score): ``gaia_scorer`` when present, else the only score, else the first."""
    if not scores:
        return None, None
    name = "gaia_scorer" if "gaia_scorer" in scores else next(iter(scores))
    score = scores[name]
    return name, score if isinstance(score, dict) else {"value": score}


def verdict(value: Any) -> bool | None:
    """Inspect's score value as a verdict: True where ``accuracy()`` counts 1, False where
    it counts 0 (``value_to_float`` with the default ``C``/``I``/``P``/``N``), None for
    anything else (partial credit, other numbers, lists, dicts, unknown strings)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return True if value == 1 else False if value == 0 else None
    if isinstance(value, str):
        if value in ("C",):
            return True
        if value in ("I", "N"):
            return False
        low = value.lower()
        if low in ("yes", "true"):
            return True
        if low in ("no", "false"):
            return False
        try:
            x = float(value)
        except ValueError:
            return None
        if math.isfinite(x):
            return True if x == 1 else False if x == 0 else None
    return None
