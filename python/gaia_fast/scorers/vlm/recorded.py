"""The judge replies VLMEvalKit recorded beside a result file, found and loaded offline.

When VLMEvalKit grades ``{stem}.xlsx`` (``stem = {model}_{dataset}``) with a judge model, it
keeps what the judge said next to it (``../shared/vlmevalkit/datasets.md``, "Replayable judge
outputs"; the names are the same from c03bc048, 2024-07, to head):

* multiple choice (``mcq_vanilla_eval`` / ``mcq_circular_eval``): ``{stem}_{J}_result.pkl``, a
  dict ``index -> {"hit": 0/1, "log": text}`` (circular: one entry per question, keyed by its
  main index; ``index % 1e6`` floats such as ``123.0`` before head's ``g_index``), and
  ``{stem}_{J}_result.{xlsx,tsv,json}``, the result rows (names lowercased except ``A``-``Z``;
  circular: the main rows only) plus ``hit`` and ``log``. ``J`` is the judge's short name:
  ``openai`` (chatgpt-0125), ``gpt4`` (gpt-4-0125), ``gpt-4o-mini``, ..., ``exact_matching``.
  ``{stem}_{J}_vanilla*_result`` (PRINT_VANILLA side runs) are not the circular records.
* yes / no (``ImageYORNDataset.evaluate``): ``{stem}_tmp.pkl``, a dict ``index -> Yes/No/Unknown``
  for the rows the judge was asked about, and ``{stem}_auxmatch.{xlsx,tsv,json}``, the rows plus
  ``extracted`` (every row's final answer; VLMEvalKit re-reads it instead of extracting again)
  and ``score``. Neither names the judge.
* spatial_bench (EASI spatial sets): ``{stem}_llm_{model}.xlsx`` (the rows plus
  ``judge_grade``, ``pred_extracted``, ``hit``) and ``{stem}_llm_{model}_judge.pkl``
  (``index -> (grade, extracted)``); see ``_RULES["spatial"]``.
* judge-scored VQA (MMVet): ``{stem}_{J}.{xlsx,pkl}``: the rows plus ``score`` (and, from
  2023-12-11, ``log``); the pkl is ``index -> {"score", "log"}``. 2023-12 archives keep the
  judge's raw reply text in ``score``. LLaVABench: ``{stem}_openai_result.xlsx``, the rows
  plus ``gpt4_score`` and ``score`` (whatever the judge model, no pickle).
* WeMath: the multiple-choice records; without a usable one, the storage ``WeMath.evaluate``
  dumps, ``{stem}_{J}.{xlsx,...}`` (the rows plus ``hit`` and ``log``).
* XLRS-Bench-lite: the cache ``{stem}_{J}_result.pkl``, *row position* ->
  ``{"pred", "processed_pred"}`` (``J``: ``str()`` of the judge object, new each run).
* AyaVisionBench / VLMBias / Asclepius: ``{stem}_{J}.{xlsx,pkl}``, the rows plus the verdict
  (``hit``, ``res``, ``log``; Asclepius ``eval_score``, ``eval_log``); VLMBias's pickle holds
  ``(hit, log)`` tuples and is read only without the table.
* MathVision / LENS: ``{stem}_{J}.{xlsx,pkl}``, the rows plus ``res`` and ``log``; SeePhys:
  the rows plus ``score``, ``extract`` and ``log``.
* HiPhO (a ``--judge`` run): ``{stem}_{J}_score.json`` and the per-row ``{stem}_{J}.pkl``
  (HiPhO_ALL: ``{stem}_ALL_{J}_score.json``, one ``{stem}_{subset}_{J}.pkl`` per subset),
  keyed by row position.

Every kind's file names are one table, ``_RULES`` (kind -> dataset rules -> file kinds), read
by one finder (WeMath's, whose storage is tried after unusable records and may share its name
with another dataset's result file, and HiPhO's, whose pickles are named through its score
file and keyed by subset and position, have readers of their own in the table). With the files of
several judges beside a result file, a set that holds judge records is taken over
judge-named files that do not (a custom variant's predictions such as
``{model}_LogicVista_Rationale.xlsx`` beside ``{model}_LogicVista.xlsx``), whatever their
times; among record sets, the newest (a note names the others).

:func:`find_records` finds and loads them; pickles go through
:mod:`gaia_fast.io.safe_pickle`. From 2025 VLMEvalKit's ``dump`` pickles a table it cannot
write as xlsx under the same name with ``.pkl`` (so ``{stem}_{J}_result.pkl`` may hold the
result table, a pandas DataFrame, instead of the cache): such a pickle is read as the table. The family modules decide rows from them
(``grade(..., recorded=records)``).
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import polars as pl

from gaia_fast.io import safe_pickle
from gaia_fast.io.readers import InputError

__all__ = ["EXACT_MATCHING_TEXT", "RANDOM_TEXT", "Records", "find_records", "index_key", "log_text"]

#: What ``extract_answer_from_item`` logs when the rules found nothing and there is no judge
#: (also the whole log of an undecided circular question under ``exact_matching``).
EXACT_MATCHING_TEXT = "Failed in Prefetch, no GPT-based answer matching under `exact_matching` policy."
#: What it logs after three judge replies it could not read: a random letter was drawn.
RANDOM_TEXT = "Failed to predict, thus randomly generate one."

_log = logging.getLogger(__name__)

_TABLE_EXT = ("xlsx", "tsv", "csv", "json")
#: Stem suffixes of VLMEvalKit's other outputs: never a judge name of ``{stem}_{J}.xlsx``.
_NOT_JUDGE = re.compile(
    r".*(_|^)(acc|acc_all|score|score_fine|score2|result|auxmatch|tmp|prefetch|supp|fine_grained|metrics|rating|"
    r"detailed_results|response|processed|config|meta)$"
)


def index_key(value: Any) -> str | None:
    """An ``index`` value as one comparable text, whatever the file kept: ``123``,
    ``numpy.int64(123)``, ``123.0`` (circular keys of 2024), ``"123"`` and ``"123.0"`` all
    give ``"123"``; other text stays as it is (HallusionBench's ``chart_0_1_0_0_0``)."""
    if value is None:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # NumPy scalar
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return str(int(value)) if value.is_integer() else repr(value)
    text = str(value).strip()
    m = re.fullmatch(r"(-?\d+)(?:\.0*)?", text)
    return str(int(m.group(1))) if m else text


def index_key_expr(column: pl.Expr) -> pl.Expr:
    """:func:`index_key` of a text column, as a Polars expression."""
    text = column.str.strip_chars()
    digits = text.str.extract(r"^(-?\d+)(?:\.0*)?$", 1)
    as_int = digits.cast(pl.Int64, strict=False).cast(pl.String)
    return pl.when(digits.is_null()).then(text).otherwise(pl.coalesce(as_int, digits))


def log_text(log: Any) -> str | None:
    """The text inside a vanilla log ``"Match Log: <text>. "`` (None when it is not one)."""
    if not isinstance(log, str) or not log.startswith("Match Log: ") or not log.endswith(". "):
        return None
    return log[len("Match Log: ") : -2]


@dataclass
class Records:
    """The recorded judge outputs of one result file.

    ``kind``: ``"mcq"``, ``"yorn"`` or ``"judged"``. ``judge``: the judge name the file names
    carry (``None`` for yes/no, whose files name none). ``files``: the files read, in the
    order their entries were taken (a later file only adds indexes the earlier ones lack).
    ``entries``: :func:`index_key` of the index -> what was recorded for it (mcq: ``hit``,
    ``log``, ``prediction`` when the table has it; yorn: ``extracted`` from ``_auxmatch``,
    ``tmp`` from ``_tmp.pkl``; judged: ``score``, ``log``). ``columns``: the columns of the
    recorded table (judged: tells the era). ``notes``: files found but not used, and why;
    index conflicts between files.
    """

    result_path: Path
    kind: str
    judge: str | None
    files: tuple[Path, ...]
    entries: dict[str, dict[str, Any]]
    columns: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)

    def table(self) -> pl.DataFrame:
        """The entries as one text table: ``key`` (:func:`index_key`) and each recorded
        field as text (what the families join on instead of looping over rows)."""
        cached = self.__dict__.get("_table")
        if cached is not None:
            return cached
        fields = list(dict.fromkeys(f for rec in self.entries.values() for f in rec))
        data: dict[str, list[str | None]] = {"key": list(self.entries)}
        for f in fields:
            data[f] = [None if (v := rec.get(f)) is None else str(v) for rec in self.entries.values()]
        out = pl.DataFrame(data, schema={c: pl.String for c in data})
        self.__dict__["_table"] = out
        return out

    def get(self, index: Any) -> dict[str, Any] | None:
        """The record of ``index`` (any form :func:`index_key` accepts), or None."""
        key = index_key(index)
        return None if key is None else self.entries.get(key)

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def empty(cls, result_path: str | Path, kind: str = "mcq") -> Records:
        """Records that hold nothing: with ``judge_policy="auto"`` every row the rules leave
        open is ``needs_judge`` (where ``recorded=None`` keeps the family's exact matching)."""
        return cls(Path(result_path), kind, None, (), {})

    def describe(self) -> str:
        """One line: which judge, which files, how many records."""
        who = f"judge {self.judge}" if self.judge else "an unnamed judge"
        return f"{len(self.entries)} recorded {self.kind} entries ({who}) from " + ", ".join(p.name for p in self.files)


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


def _read_table(path: Path) -> pl.DataFrame:
    """A recorded table with every cell as text (the convention of
    :func:`gaia_fast.io.vlm.read_result_table`, which also insists on a ``prediction``
    column that ``_auxmatch`` copies may lack)."""
    ext = path.suffix.lower()[1:]
    try:
        if ext == "xlsx":
            return pl.read_excel(path, infer_schema_length=0)
        if ext in ("tsv", "csv"):
            return pl.read_csv(path, separator="\t" if ext == "tsv" else ",", infer_schema_length=0)
        data = json.loads(path.read_text(encoding="utf-8"))
    except Exception as e:  # noqa: BLE001 - named below
        raise InputError(path, f"cannot read as {ext}: {e}") from None
    # JSON (PRED_FORMAT=json): a list of row objects or pandas' column -> {row: value}.
    if isinstance(data, dict):
        data = [dict(zip(data, vals)) for vals in zip(*(v.values() if isinstance(v, dict) else v for v in data.values()))]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise InputError(path, "a JSON table must be a list of row objects or a column -> values object")
    cols = list(dict.fromkeys(k for r in data for k in r))
    return pl.DataFrame({c: [None if r.get(c) is None else str(r.get(c)) for r in data] for c in cols}, schema={c: pl.String for c in cols})


def _column(frame: pl.DataFrame, name: str) -> str | None:
    """The frame's column for ``name`` (VLMEvalKit lowercases names when it loads)."""
    for c in frame.columns:
        if c == name or c.lower() == name:
            return c
    return None


def _pandas_to_text(data: Any) -> pl.DataFrame:
    """A pickled pandas DataFrame as a text table (``str()`` of each cell, NaN/None/NA -> null)."""
    cols: dict[str, list[str | None]] = {}
    for c in data.columns:
        vals: list[str | None] = []
        for v in data[c].tolist():
            missing = v is None or type(v).__name__ in ("NAType", "NaTType") or (isinstance(v, float) and math.isnan(v))
            vals.append(None if missing else str(v))
        cols[str(c)] = vals
    return pl.DataFrame(cols, schema={c: pl.String for c in cols})


def _is_pandas_frame(data: Any) -> bool:
    return type(data).__name__ == "DataFrame" and type(data).__module__.startswith("pandas")


def _table_entries(
    path: Path, fields: tuple[str, ...], notes: list[str], frame: pl.DataFrame | None = None
) -> tuple[dict[str, dict[str, Any]], tuple[str, ...]] | None:
    frame = _read_table(path) if frame is None else frame
    idx = _column(frame, "index")
    present = {f: _column(frame, f) for f in fields}
    if idx is None or not any(present.values()):
        notes.append(f"{path.name}: not used: it has no 'index' or none of {', '.join(fields)} (not a judge record)")
        return None
    out: dict[str, dict[str, Any]] = {}
    keys = frame[idx].to_list()
    values = {f: frame[c].to_list() for f, c in present.items() if c is not None}
    repeated: list[str] = []
    for i, k in enumerate(keys):
        key = index_key(k)
        if key is None:
            continue
        if key in out:
            repeated.append(key)
        out[key] = {f: v[i] for f, v in values.items()}
    if repeated:
        notes.append(
            f"{path.name}: {len(repeated)} row(s) repeat an index (first: {repeated[0]}); each index's last row is kept "
            "(VLMEvalKit wrote them all from one dict entry)"
        )
    return out, tuple(frame.columns)


def _pickle_entries(
    path: Path, notes: list[str], value_name: str | None = None, fields: tuple[str, ...] = ()
) -> dict[str, dict[str, Any]] | None:
    data = safe_pickle.load(path, allow_pandas=True)  # UnsafePickleError propagates: never skip a hostile file quietly
    if _is_pandas_frame(data) and fields:
        # VLMEvalKit's dump pickles the result table under this name when its xlsx fails.
        res = _table_entries(path, fields, notes, frame=_pandas_to_text(data))
        return None if res is None else res[0]
    if not isinstance(data, dict):
        notes.append(f"{path.name}: not used: it holds a {type(data).__name__}, not VLMEvalKit's index -> record dict")
        return None
    out: dict[str, dict[str, Any]] = {}
    for k, v in data.items():
        key = index_key(k)
        if key is None:
            continue
        if value_name is not None:
            out[key] = {value_name: v}
        elif isinstance(v, dict):
            out[key] = {f: (x.item() if hasattr(x, "item") and not isinstance(x, (str, bytes)) else x) for f, x in v.items()}
        else:
            notes.append(f"{path.name}: index {key}: the record is a {type(v).__name__}, not a dict; not used")
    return out


def _merge(into: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]], name: str, notes: list[str], compare: tuple[str, ...]) -> None:
    conflicts = 0
    for key, rec in new.items():
        have = into.get(key)
        if have is None:
            into[key] = rec
            continue
        for f in compare:
            if f in have and f in rec and not _same_cell(have[f], rec[f]):
                conflicts += 1
                break
        for f, v in rec.items():
            have.setdefault(f, v)
    if conflicts:
        notes.append(f"{name}: {conflicts} index(es) disagree with the table read first; the table's value is used")


def _same_cell(a: Any, b: Any) -> bool:
    """A table cell and a pickled value that say the same: equal text, equal numbers, a
    bool and its xlsx text (``True``/``true``), an empty cell and ``''``."""
    ta, tb = ("" if a is None else str(a)), ("" if b is None else str(b))
    return ta == tb or _same_number(a, b) or ((isinstance(a, bool) or isinstance(b, bool)) and ta.lower() == tb.lower())


def _same_number(a: Any, b: Any) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return False


# --------------------------------------------------------------------------------------
# Finding
# --------------------------------------------------------------------------------------


def _kind_of(path: Path) -> str | None:
    """The record kind of the family the registry grades ``path`` with (its ``RECORD_KIND``)."""
    import importlib

    from gaia_fast import benchmarks

    found = benchmarks.detect(path)
    if found is None:
        return None
    return getattr(importlib.import_module(found.benchmark.module), "RECORD_KIND", None)


def _belongs_to_longer_stem(folder_names: set[str], stem: str, judge: str) -> bool:
    """``x_MMBench_V11_openai_result.xlsx`` is not a record of ``x_MMBench.xlsx``: a prefix of
    the judge part that makes another result file's stem means the file is that one's."""
    parts = judge.split("_")
    for k in range(1, len(parts)):
        other = f"{stem}_{'_'.join(parts[:k])}"
        if any(f"{other}.{ext}" in folder_names for ext in ("xlsx", "tsv", "csv")):
            return True
    return False


def _newest(paths: list[Path]) -> float:
    return max(p.stat().st_mtime for p in paths)


#: Judge-named files are read tables first, by extension, then the pickle (VLMEvalKit's cache).
_SORTED = ("csv", "json", "tsv", "xlsx", "pkl")
#: ``{stem}_{J}_vanilla*_result``: PRINT_VANILLA side runs, not the circular records.
_VANILLA = re.compile(r".*_vanilla(?:_circ0|_all)?")


@dataclass(frozen=True)
class _Files:
    """One kind of record file: ``{stem}_{name}.{ext}``. ``name`` is a regex; its group ``j``,
    where it has one, is the judge's name."""

    name: str
    #: The extensions, in the order the files are read (a later file only adds indexes).
    exts: tuple[str, ...]
    #: What a table (or a pickled table, or a pickled ``index -> dict``) is read for.
    fields: tuple[str, ...] = ()
    #: A pickled ``index -> value`` dict: the field its value is kept as.
    value_name: str | None = None
    #: A file none of whose records holds one of these is not used (``missing`` says why).
    need: tuple[str, ...] = ()
    missing: str = ""
    #: The need is checked on pickles too (else on tables only).
    need_pickle: bool = True
    #: The need is a non-empty value, not only the column.
    need_value: bool = False
    #: Fields that must agree with the file read first (a disagreement is noted).
    compare: tuple[str, ...] = ()
    #: Added to every record read from these files.
    mark: tuple[tuple[str, str], ...] = ()
    #: A reader of its own: ``(file, notes) -> entries`` (None: not used, a note says why).
    load: Callable[[Path, list[str]], dict[str, dict[str, Any]] | None] | None = None
    #: Read after the files of a lower rank, whatever the order they are claimed in.
    rank: int = 0

    def regex(self, stem: str) -> re.Pattern[str]:
        return re.compile(rf"{re.escape(stem)}_{self.name}\.(?P<ext>{'|'.join(map(re.escape, self.exts))})")


@dataclass(frozen=True)
class _Rule:
    """Where one kind (or one dataset of a kind) keeps its records. A file name is claimed by
    the first of ``files`` it matches; the files of one judge make one record set."""

    kind: str
    files: tuple[_Files, ...]
    #: The judge of files whose names carry none.
    judge: str | None = None
    #: Judge parts that name another output of VLMEvalKit, not a judge.
    not_judge: re.Pattern[str] | None = None
    #: Drop names that are the records of a longer stem (:func:`_belongs_to_longer_stem`).
    longer_stem: bool = False
    #: Only the first usable file is read.
    first_only: bool = False
    #: The rule tried when no file of this one is beside the result file.
    then: _Rule | None = None
    #: A note added to what is found (when a name beside matches ``note_if``, if given; with
    #: ``note_if_used``, only when a file is used).
    note: str = ""
    note_if: str = ""
    note_if_used: bool = False
    #: What the note on the sets of several judges calls them.
    several: str = "records of several judges"
    #: A finder of its own, ``(result path, names beside) -> Records``, for a kind whose
    #: reading the file kinds cannot say (``files`` is then empty).
    reader: Callable[[Path, set[str]], Records | None] | None = None


def _spatial_cache(f: Path, notes: list[str]) -> dict[str, dict[str, Any]] | None:
    """spatial_bench's ``_judge.pkl``: ``index -> (grade, extracted)``."""
    data = safe_pickle.load(f)
    if not isinstance(data, dict):
        notes.append(f"{f.name}: not used: it holds a {type(data).__name__}, not the index -> (grade, extracted) cache")
        return None
    got: dict[str, dict[str, Any]] = {}
    for k, v in data.items():
        key = index_key(k)
        if key is None:
            continue
        # parallel_llm_extract: a value that is not a pair gives (None, None).
        g, ex = (v[0], v[1]) if isinstance(v, (list, tuple)) and len(v) >= 2 else (None, None)
        got[key] = {"judge_grade": g, "pred_extracted": ex, "hit": 1 if g == "A" else 0}
    return got


def _chartmuseum_cache(f: Path, notes: list[str]) -> dict[str, dict[str, Any]] | None:
    """ChartMuseum's ``{stem}_{J}.pkl``: ``index -> (judge reply, category)``, in the order
    upstream iterates it for the report (kept as ``response``, ``category``)."""
    data = safe_pickle.load(f)
    if not isinstance(data, dict):
        notes.append(f"{f.name}: not used: it holds a {type(data).__name__}, not the index -> (reply, category) cache")
        return None
    entries: dict[str, dict[str, Any]] = {}
    for k, v in data.items():
        key = index_key(k)
        if key is None:
            continue
        if not isinstance(v, (tuple, list)) or len(v) < 2:
            notes.append(f"{f.name}: index {key}: the record is not a (reply, category) pair; not used")
            continue
        entries[key] = {"response": v[0], "category": v[1]}
    return entries


def _memlens_lines(f: Path, notes: list[str]) -> dict[str, dict[str, Any]]:
    """MemLens' ``_memlens_judge.jsonl``: one JSON object a line (``idx``: the row position,
    ``question_id``, ``question_type``, ``judge_score``, ...); a later line of the same
    ``idx`` replaces an earlier one, as upstream reads it."""
    entries: dict[str, dict[str, Any]] = {}
    try:
        lines = f.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f, f"cannot read: {e}") from None
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except ValueError as e:
            raise InputError(f, f"line {n}: not JSON ({e})") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("idx"), int) or "judge_score" not in rec:
            raise InputError(f, f"line {n}: not a MemLens judge record (an object with an integer 'idx' and 'judge_score')")
        entries[str(rec["idx"])] = rec
    return entries


def _judged(kind: str, fields: tuple[str, ...], exts: tuple[str, ...] = _SORTED, **rule: Any) -> _Rule:
    """``{stem}_{J}.{xlsx,pkl}``: the rows plus what the judge said (``fields``; the first
    one must be there)."""
    need = fields[0]
    files = _Files(r"(?P<j>.+)", exts, fields, need=(need,), need_pickle=False, missing=f"it has no {need!r} column", compare=(need,))
    return _Rule(kind, (files,), not_judge=_NOT_JUDGE, longer_stem=True, **rule)


def _score_file(kind: str, field: str) -> _Rule:
    """``{stem}_score.{xlsx,...}`` (``get_intermediate_file_path(eval_file, '_score')``):
    the rows plus ``field``; no judge name in any file name."""
    files = _Files("score", _TABLE_EXT, (field,), need=(field,), need_value=True, missing=f"its {field!r} column is empty", compare=(field,))
    return _Rule(kind, (files,))


def _stage(stage: str) -> _Files:
    return _Files(
        rf"(?P<j>.+)_{stage}", ("json", "tsv", "xlsx", "pkl"), (stage, f"log_{stage}"), need=(stage,), missing=f"it has no {stage!r} column", compare=(stage,)
    )


_LLAVA = _Rule(
    "judged",
    (
        _Files(
            "openai_result",
            (*_TABLE_EXT, "pkl"),
            ("score", "gpt4_score"),
            need=("gpt4_score",),
            missing="it has no 'gpt4_score' column (not LLaVABench's review record)",
            compare=("score", "gpt4_score"),
        ),
    ),
    judge="openai",
    then=_judged("judged", ("score", "log")),
)
_SHORTQA_FILES = {"fields": ("hit", "log"), "need": ("hit",), "missing": "it has no 'hit' (not ShortQA_auxeval's record)", "compare": ("hit",)}
_SFE_FILES = {"fields": ("score", "log"), "need": ("score",), "missing": "it has no 'score'", "compare": ("score",)}

#: mcq_vanilla_eval / mcq_circular_eval: {stem}_{J}_result.{xlsx,...} (rows + hit, log) and
#: the cache {stem}_{J}_result.pkl (index -> {hit, log}).
_MCQ = _Rule(
    "mcq",
    (
        _Files(
            r"(?P<j>.+)_result",
            _SORTED,
            ("hit", "log", "prediction"),
            need=("hit",),
            need_pickle=False,
            missing="it has no 'hit' column (not a judged copy of the results)",
            compare=("hit",),
        ),
    ),
    not_judge=_VANILLA,
    longer_stem=True,
)
#: WeMath.evaluate's storage ``{stem}_{J}.{xlsx,...}``: the rows plus ``hit`` and ``log``.
_WEMATH_STORAGE = _Files(r"(?P<j>.+)", _TABLE_EXT, ("hit", "log", "prediction"))


def _find_wemath(path: Path, names: set[str]) -> Records | None:
    """WeMath: mcq_vanilla_eval's records (:data:`_MCQ`, kind ``mcq``); when none of them is
    usable, the storage ``WeMath.evaluate`` dumps, ``{stem}_{J}.{xlsx,tsv,csv,json}``: the
    first by name that has ``hit`` (``{stem}_COT.xlsx``, a result file the registry knows:
    WeMath_COT's, is not a record, nor is its storage ``{stem}_COT_{J}.xlsx`` beside it). Special because the storage is tried also after
    unusable mcq records and a file name can be another dataset's result file."""
    from gaia_fast import benchmarks

    found = _find(path, names, _MCQ)
    if found is not None and found.files:
        return found
    rx = _WEMATH_STORAGE.regex(path.stem)
    notes: list[str] = list(found.notes) if found is not None else []
    for name in sorted(names):
        m = rx.fullmatch(name)
        if not m or _NOT_JUDGE.fullmatch(m.group("j")) or benchmarks.detect(path.parent / name) is not None:
            continue
        if _belongs_to_longer_stem(names, path.stem, m.group("j")):
            continue  # {stem}_COT_{J}.xlsx beside {stem}_COT.xlsx: WeMath_COT's storage, sorted first
        res = _table_entries(path.parent / name, _WEMATH_STORAGE.fields, notes)
        if res is None or not any("hit" in r for r in res[0].values()):
            continue
        return Records(path, "mcq", m.group("j"), (path.parent / name,), res[0], res[1], notes)
    return found


def _find_hipho(path: Path, names: set[str]) -> Records | None:
    """HiPhO run with ``--judge J``: ``{stem}_{J}_score.json`` beside ``{stem}_{J}.pkl``, the
    per-row results by position (HiPhO_ALL: ``{stem}_ALL_{J}_score.json`` and one
    ``{stem}_{subset}_{J}.pkl`` per subset, by position in the subset). Entries: ``str(pos)``
    (HiPhO_ALL: ``{subset}|{pos}``) -> ``ok`` (False where the row's worker failed),
    ``fine``, ``coarse``, ``points``. ``exact_matching`` is the no-judge run: not a record."""
    from gaia_fast.scorers.vlm.hipho_tables import ALL_SUBSETS

    stem = path.stem
    found = []
    for name in sorted(names):
        m = re.fullmatch(re.escape(stem) + r"_(ALL_)?(.+)_score\.json", name)
        if m and m.group(2) != "exact_matching" and not _belongs_to_longer_stem(names, stem, m.group(2)):
            found.append((bool(m.group(1)), m.group(2), path.with_name(name)))
    if not found:
        return None
    all_mode, judge, score_file = found[0]
    notes = [f"{f.name}: another judge's run, not used" for _, _, f in found[1:]]
    files = [score_file]
    entries: dict[str, dict[str, Any]] = {}
    for prefix, pkl in ([(f"{s}|", f"{stem}_{s}_{judge}.pkl") for s in ALL_SUBSETS] if all_mode else [("", f"{stem}_{judge}.pkl")]):
        if pkl not in names:
            continue
        data = safe_pickle.load(path.with_name(pkl))  # UnsafePickleError propagates
        if not isinstance(data, dict):
            notes.append(f"{pkl}: not used: it holds a {type(data).__name__}, not a position -> result dict")
            continue
        files.append(path.with_name(pkl))
        for pos, v in data.items():
            if isinstance(v, dict) and v.get("success"):
                rec = {"ok": True}
                for k, f in (("fine", "fine_grained_score"), ("coarse", "coarse_grained_score"), ("points", "item_total_points")):
                    x = v.get(f)
                    rec[k] = x.item() if hasattr(x, "item") else x
                entries[f"{prefix}{pos}"] = rec
            else:
                entries[f"{prefix}{pos}"] = {"ok": False}
    return Records(path, "hipho", judge, tuple(files), entries, notes=notes)


#: AyaVisionBench / VLMBias's verdict fields in ``{stem}_{J}.xlsx``.
_HITS = ("hit", "res", "log")

#: Each kind's rules: ``(dataset regex, rule)``; the first whose regex finds the result
#: file's stem (None: any) decides. The names are those of ``datasets.md``, "Replayable
#: judge outputs" (the same from c03bc048, 2024-07, to head).
_RULES: dict[str, tuple[tuple[str | None, _Rule], ...]] = {
    "mcq": ((None, _MCQ),),
    # ImageYORNDataset: {stem}_auxmatch.{xlsx,...} (rows + extracted, score; from 2025 maybe
    # the table pickled), then {stem}_tmp.pkl (index -> Yes/No/Unknown); no judge name.
    "yorn": (
        (
            None,
            _Rule(
                "yorn",
                (_Files("auxmatch", (*_TABLE_EXT, "pkl"), ("extracted",), compare=("extracted",)), _Files("tmp", ("pkl",), value_name="tmp")),
            ),
        ),
    ),
    # MMVet: {stem}_{J}.{xlsx,pkl} (score, log); LLaVABench: {stem}_openai_result.xlsx
    # (gpt4_score, score) whatever the judge model.
    "judged": ((r"LLaVABench", _LLAVA), (None, _judged("judged", ("score", "log")))),
    # spatial_bench (compute_score_llm): {stem}_llm_{model}.{xlsx,...} (rows + judge_grade,
    # pred_extracted, hit) and the cache {stem}_llm_{model}_judge.pkl (index -> (grade,
    # extracted); VsiBench/SPBench: _mcq_judge.pkl and _na_judge.pkl), read last; the judge
    # is llm_{model}, as the report {stem}_llm_{model}_acc.csv names it. With none of these,
    # the rule path's {stem}_extract_matching.xlsx (graded without a judge).
    "spatial": (
        (
            None,
            _Rule(
                "spatial",
                (
                    _Files(r"(?P<j>llm_.+?)_(?:mcq_|na_)?judge", ("pkl",), load=_spatial_cache, compare=("judge_grade",), rank=1),
                    _Files(
                        r"(?P<j>llm_.+?)",
                        _SORTED,
                        ("judge_grade", "pred_extracted", "hit"),
                        need=("judge_grade", "hit"),
                        need_pickle=False,
                        missing="it has no 'judge_grade' or 'hit' column",
                        compare=("judge_grade",),
                    ),
                ),
                not_judge=_NOT_JUDGE,
                then=_Rule("spatial", (_Files("extract_matching", _TABLE_EXT, ("pred_extracted", "hit")),), judge="extract_matching", first_only=True),
            ),
        ),
    ),
    # MathVerse's two stages {stem}_{J}_extract / _score (the _score.csv beside them is the
    # report); the others {stem}_{J}.xlsx with the judge's extraction.
    "math_judged": (
        (r"MathVerse", _Rule("math_judged", (_stage("extract"), _stage("score")), longer_stem=True)),
        (r"DynaMath", _judged("math_judged", ("correct", "parse", "extracted"))),
        (r"LogicVista", _judged("math_judged", ("res", "log", "hit"))),
        (None, _judged("math_judged", ("res", "log"))),
    ),
    # ImageShortQADataset: {stem}_judge.{xlsx,...} (rows + hit, log), {stem}_judge.pkl and
    # {stem}_tmp.pkl (index -> {hit, log}); the judge is not named.
    "shortqa": ((None, _Rule("shortqa", (_Files("judge", (*_TABLE_EXT, "pkl"), **_SHORTQA_FILES), _Files("tmp", ("pkl",), **_SHORTQA_FILES)))),),
    # WorldSense / Video-TT keep no judge reply: the verdicts are the _score file's score;
    # VideoMMMU's holds each row's parsed_pred.
    "video_mcq": ((None, _score_file("video_mcq", "score")),),
    "video_mmmu": ((None, _score_file("video_mmmu", "parsed_pred")),),
    # The judge-scored sets of tail_judged.
    "tail_judged": (
        # CharXiv: {stem}_{J}.xlsx (rows + score, extracted_answer); its {stem}_{J}.pkl is keyed
        # by row position, not by index, so it is not read (upstream's report re-reads the table).
        (
            r"CharXiv",
            _judged(
                "tail_judged",
                ("score", "extracted_answer"),
                exts=("csv", "json", "tsv", "xlsx"),
                note="the _{J}.pkl cache is keyed by row position, not index: not read",
                note_if=r"\.pkl$",
            ),
        ),
        # M4Bench: {stem}_details.{xlsx,...}, the rows plus parsed_pred (the judge's letter, or
        # get_ans's where the judge failed) and score; no judge name in any file name.
        (
            r"State_Invariance|State_Comparison|Spatial_Perception|Instance_Comparison|Detailed_Difference",
            _Rule(
                "tail_judged",
                (_Files("details", _TABLE_EXT, ("parsed_pred", "score"), need=("parsed_pred",), missing="it has no 'parsed_pred' column"),),
                first_only=True,
            ),
        ),
        # PhyX (valid_type=LLM): {stem}_{J}.xlsx (rows + res, log, extracted) and {stem}_{J}.pkl.
        (r"PhyX", _judged("tail_judged", ("res", "log", "extracted"))),
        # The document sets: {stem}_{J}.xlsx, the rows plus the judge's extraction.
        (r"DUDE|SLIDEVQA|MMLongBench_DOC", _judged("tail_judged", ("pred", "res", "log"))),
        # MemLens: {stem}_{J}_memlens_judge.jsonl, keyed by row position.
        (
            r"MemLens",
            _Rule("tail_judged", (_Files(r"(?P<j>.+)_memlens_judge", ("jsonl",), load=_memlens_lines),), note="keyed by row position (idx), not by index"),
        ),
        # LongDocURL: {stem}_{J}_extract.pkl (index -> {pred, ...}: the extracted values as the
        # first run scored them, numbers and lists stay so; marked _from="pkl") first, then
        # {stem}_{J}_extract.{xlsx,...} (rows + pred) for indexes the cache lacks.
        (
            r"LongDocURL",
            _Rule(
                "tail_judged",
                (
                    _Files(r"(?P<j>.+)_extract", ("pkl",), ("pred",), need=("pred",), missing="it has no 'pred'", mark=(("_from", "pkl"),)),
                    _Files(r"(?P<j>.+)_extract", ("csv", "json", "tsv", "xlsx"), ("pred", "extracted_answer_format"), need=("pred",), missing="it has no 'pred'"),
                ),
            ),
        ),
        # SFE: {stem}_judge.{xlsx,...} (the main rows plus score), then {stem}_tmp.pkl
        # (index -> {score, log}); the judge is not named.
        (r"SFE", _Rule("tail_judged", (_Files("judge", _TABLE_EXT, **_SFE_FILES), _Files("tmp", ("pkl",), **_SFE_FILES)))),
        # ChartMuseum: {stem}_{J}.pkl, index -> (judge reply, category).
        (r"ChartMuseum", _Rule("tail_judged", (_Files(r"(?P<j>.+)", ("pkl",), load=_chartmuseum_cache),), not_judge=_NOT_JUDGE)),
    ),
    # WeMath: the mcq records, else WeMath.evaluate's storage (records of kind mcq).
    "wemath": ((None, _Rule("mcq", (), reader=_find_wemath)),),
    # XLRS-Bench-lite: the cache {stem}_{J}_result.pkl, row position -> {pred, processed_pred}.
    # J is str() of the judge object (from a9343a1e <...OpenAIWrapper object at 0x..>, None
    # without a judge; literally {model} from f8e2bc1a): each run is a new name.
    "xlrs": (
        (
            None,
            _Rule(
                "xlrs",
                (_Files(r"(?P<j>.+)_result", ("pkl",), need=("processed_pred",), missing="no entry has 'processed_pred'"),),
                note="keyed by row position, not by index",
                note_if_used=True,
                several="caches of several runs",
            ),
        ),
    ),
    # AyaVisionBench / VLMBias / Asclepius: {stem}_{J}.xlsx (rows + the verdict columns), then
    # the cache {stem}_{J}.pkl for indexes the table lacks (_tmp.pkl is no judge name).
    "judged_hits": (
        (r"Asclepius", _judged("judged_hits", ("eval_score", "eval_log"))),
        # VLMBias' pickle holds (hit, log) tuples: its table, which upstream's report
        # re-reads, is the record; the pickle is only tried without one.
        (
            r"VLMBias",
            _judged(
                "judged_hits",
                _HITS,
                exts=("csv", "json", "tsv", "xlsx"),
                note="the (hit, log) cache pickle is not read: the table holds every row upstream reported",
                note_if=r"\.pkl$",
                then=_judged("judged_hits", _HITS),
            ),
        ),
        (None, _judged("judged_hits", _HITS)),
    ),
    # HiPhO run with --judge J: {stem}_{J}_score.json (HiPhO_ALL: {stem}_ALL_{J}_score.json)
    # names the run, whose per-row results are {stem}_{J}.pkl (HiPhO_ALL: one
    # {stem}_{subset}_{J}.pkl per subset), keyed by position; a reader of its own: the run is
    # the first score file by name, the pickles are found through it and keyed {subset}|{pos}.
    "hipho": ((None, _Rule("hipho", (), reader=_find_hipho)),),
    # MathVision / LENS: {stem}_{J}.xlsx (rows + res, log) and {stem}_{J}.pkl (index -> {log, res}).
    "mathvision": ((None, _judged("mathvision", ("res", "log"))),),
    # SeePhys: {stem}_{J}.xlsx (rows + score, extract, log) and {stem}_{J}.pkl (index -> {log, extract, score}).
    "seephys": ((None, _judged("seephys", ("score", "extract", "log"))),),
}


#: The kinds of records :func:`find_records` knows (a family names its own as ``RECORD_KIND``).
KINDS = tuple(_RULES)


def _rule_for(kind: str, stem: str) -> _Rule | None:
    for dataset, rule in _RULES[kind]:
        if dataset is None or re.search(dataset, stem):
            return rule
    return None


def _has(records: dict[str, dict[str, Any]], files: _Files) -> bool:
    if files.need_value:
        return any(r.get(f) is not None for r in records.values() for f in files.need)
    return any(f in r for r in records.values() for f in files.need)


def _read_set(path: Path, rule: _Rule, judge: str | None, found: list[tuple[_Files, Path]]) -> Records:
    """The records of one judge's files, read in order (a later file only adds indexes)."""
    notes: list[str] = []
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    order = {id(files): i for i, files in enumerate(rule.files)}
    for files, f in sorted(found, key=lambda t: (t[0].rank, order[id(t[0])], t[0].exts.index(t[1].suffix[1:]), t[1].name)):
        if files.load is not None:
            got = files.load(f, notes)
        elif f.suffix == ".pkl":
            got = _pickle_entries(f, notes, value_name=files.value_name, fields=files.fields)
        else:
            res = _table_entries(f, files.fields, notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
        if got is not None and files.mark:
            got = {k: {**v, **dict(files.mark)} for k, v in got.items()}
        if got is not None and files.need and (files.need_pickle or f.suffix != ".pkl") and not _has(got, files):
            notes.append(f"{f.name}: not used: {files.missing}")
            got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, files.compare)
        used.append(f)
        if rule.first_only:
            break
    return Records(path, rule.kind, judge, tuple(used), entries, columns, notes)


def _find(path: Path, names: set[str], rule: _Rule) -> Records | None:
    """The records ``rule`` finds beside ``path``. With the files of several judges, a set that
    holds judge records is taken over one that does not (a custom variant's predictions
    ``{model}_LogicVista_Rationale.xlsx`` look like the judge ``Rationale`` of
    ``{model}_LogicVista.xlsx``), whatever their times; among record sets, the newest."""
    if rule.reader is not None:
        return rule.reader(path, names)
    stem = path.stem
    by_judge: dict[str | None, list[tuple[_Files, Path]]] = {}
    for name in sorted(names):
        for files in rule.files:
            if m := files.regex(stem).fullmatch(name):
                break
        else:
            continue
        judge = m.groupdict().get("j", rule.judge)
        if "j" in m.groupdict() and (
            (rule.not_judge is not None and rule.not_judge.fullmatch(judge)) or (rule.longer_stem and _belongs_to_longer_stem(names, stem, judge))
        ):
            continue
        by_judge.setdefault(judge, []).append((files, path.parent / name))
    if not by_judge:
        return None if rule.then is None else _find(path, names, rule.then)
    # Every judge's files are read, newest first. The newest set failing to read raises, as
    # it did when only the newest was read; an older one that fails is only noted.
    order = sorted(by_judge, key=lambda j: (_newest([p for _, p in by_judge[j]]), j or ""), reverse=True)
    sets: dict[str | None, Records | Exception] = {}
    for j in order:
        try:
            sets[j] = _read_set(path, rule, j, by_judge[j])
        except Exception as e:  # an unreadable or refused (unsafe) file: raised or noted below
            if j == order[0]:
                raise
            sets[j] = e
    real = [j for j in order if isinstance(sets[j], Records) and sets[j].files]
    judge = real[0] if real else order[0]
    out = cast(Records, sets[judge])  # the newest set read or a record set: never an error
    notes: list[str] = []
    if len(real) > 1 or (not real and len(order) > 1):
        others = ", ".join(sorted(j for j in (real or order) if j != judge))
        notes.append(f"{rule.several} beside the file ({others} too); the newest, {judge}, is used")
    for j in order:
        s_j = sets[j]
        if isinstance(s_j, Exception):
            notes.append(f"{', '.join(p.name for _, p in by_judge[j])}: not read: {s_j}")
        elif real and j not in real:  # why a judge-named file is not a record
            notes += s_j.notes
    out.notes[:0] = notes
    if rule.note and (not rule.note_if or any(re.search(rule.note_if, n) for n in names)) and (out.files or not rule.note_if_used):
        out.notes.append(rule.note)
    return out


def find_records(result_path: str | Path, kind: str | None = None) -> Records | None:
    """The recorded judge outputs beside ``result_path`` (a VLMEvalKit ``{stem}.xlsx``),
    loaded; None when there are none (or none usable: a warning is logged with why).

    ``kind`` (``"mcq"``, ``"yorn"``, ``"judged"``) says which files to look for; by default
    the registry's benchmark of the file name decides, and for an unknown dataset the
    multiple-choice and yes/no names are tried (their suffixes cannot be mistaken). A
    pickle naming a forbidden global raises
    :class:`gaia_fast.io.safe_pickle.UnsafePickleError` (naming the file)."""
    path = Path(result_path)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(map(repr, KINDS))}, not {kind!r}")
    try:
        names = {p.name for p in path.parent.iterdir() if p.name.startswith(path.stem + "_")}
    except OSError as e:
        raise InputError(path.parent, f"cannot list the folder: {e}") from None
    if not names:
        return None
    kind = kind or _kind_of(path)
    for k in (kind,) if kind else ("mcq", "yorn"):
        rule = _rule_for(k, path.stem)
        found = None if rule is None else _find(path, names, rule)
        if found is None:
            continue
        if not found.files:
            # Judge-named files that hold no judge record (a copy of the results, an empty
            # cache): there is nothing to replay; say why, once, through logging.
            _log.warning("%s: judge record files found but none usable: %s", path, "; ".join(found.notes))
            return None
        return found
    return None
