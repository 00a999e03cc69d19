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
  (``index -> (grade, extracted)``); see :func:`_find_spatial`.
* judge-scored VQA (MMVet): ``{stem}_{J}.{xlsx,pkl}``: the rows plus ``score`` (and, from
  2023-12-11, ``log``); the pkl is ``index -> {"score", "log"}``. 2023-12 archives keep the
  judge's raw reply text in ``score``. LLaVABench: ``{stem}_openai_result.xlsx``, the rows
  plus ``gpt4_score`` and ``score`` (whatever the judge model, no pickle).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
#: The kinds of records :func:`find_records` knows (one per family that replays them).
KINDS = ("mcq", "yorn", "judged", "spatial", "math_judged", "shortqa", "video_mcq", "video_mmmu", "tail_judged", "mathvision", "seephys")
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
    from gaia_fast import benchmarks

    found = benchmarks.detect(path)
    if found is None:
        return None
    module = found.benchmark.module.rsplit(".", 1)[-1]
    return {k: k for k in KINDS}.get(module)


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


def _find_mcq(path: Path, names: set[str]) -> Records | None:
    stem = path.stem
    rx = re.compile(rf"{re.escape(stem)}_(?P<j>.+)_result\.(?P<ext>pkl|{'|'.join(_TABLE_EXT)})")
    by_judge: dict[str, list[Path]] = {}
    for name in sorted(names):
        m = rx.fullmatch(name)
        if not m:
            continue
        j = m.group("j")
        if re.search(r"_vanilla(_circ0|_all)?$", j) or _belongs_to_longer_stem(names, stem, j):
            continue
        by_judge.setdefault(j, []).append(path.parent / name)
    if not by_judge:
        return None
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest(by_judge[j]), j))
    if len(by_judge) > 1:
        others = ", ".join(sorted(j for j in by_judge if j != judge))
        notes.append(f"records of several judges beside the file ({others} too); the newest, {judge}, is used")
    # The table first (report_acc read it), then the pickle (VLMEvalKit's cache) for indexes it lacks.
    files = sorted(by_judge[judge], key=lambda p: (p.suffix == ".pkl", p.suffix))
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=("hit", "log", "prediction"))
        else:
            res = _table_entries(f, ("hit", "log", "prediction"), notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
            if got is not None and not any("hit" in r for r in got.values()):
                notes.append(f"{f.name}: not used: it has no 'hit' column (not a judged copy of the results)")
                got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, ("hit",))
        used.append(f)
    if not used:
        return Records(path, "mcq", judge, (), {}, columns, notes)
    return Records(path, "mcq", judge, tuple(used), entries, columns, notes)


def _find_yorn(path: Path, names: set[str]) -> Records | None:
    stem = path.stem
    aux = [path.parent / f"{stem}_auxmatch.{ext}" for ext in (*_TABLE_EXT, "pkl") if f"{stem}_auxmatch.{ext}" in names]
    tmp = path.parent / f"{stem}_tmp.pkl" if f"{stem}_tmp.pkl" in names else None
    if not aux and tmp is None:
        return None
    notes: list[str] = []
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in aux:
        if f.suffix == ".pkl":  # the table pickled by dump's fallback
            got = _pickle_entries(f, notes, fields=("extracted",))
            if got is None:
                continue
            _merge(entries, got, f.name, notes, ("extracted",))
            used.append(f)
            continue
        res = _table_entries(f, ("extracted",), notes)
        if res is None:
            continue
        _merge(entries, res[0], f.name, notes, ("extracted",))
        columns = columns or res[1]
        used.append(f)
    if tmp is not None:
        got = _pickle_entries(tmp, notes, value_name="tmp")
        if got is not None:
            _merge(entries, got, tmp.name, notes, ())
            used.append(tmp)
    return Records(path, "yorn", None, tuple(used), entries, columns, notes)


def _find_llava(path: Path, names: set[str]) -> Records | None:
    """LLaVABench's reviews: ``{stem}_openai_result.{xlsx,...}`` with ``gpt4_score`` and
    ``score`` (the name is fixed whatever judge model ran)."""
    stem = path.stem
    files = [path.parent / f"{stem}_openai_result.{ext}" for ext in (*_TABLE_EXT, "pkl") if f"{stem}_openai_result.{ext}" in names]
    if not files:
        return None
    notes: list[str] = []
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=("score", "gpt4_score"))
        else:
            res = _table_entries(f, ("score", "gpt4_score"), notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
        if got is None or not any("gpt4_score" in r for r in got.values()):
            if got is not None:
                notes.append(f"{f.name}: not used: it has no 'gpt4_score' column (not LLaVABench's review record)")
            continue
        _merge(entries, got, f.name, notes, ("score", "gpt4_score"))
        used.append(f)
    return Records(path, "judged", "openai", tuple(used), entries, columns, notes)


def _find_judged(path: Path, names: set[str], fields: tuple[str, ...] = ("score", "log"), kind: str = "judged") -> Records | None:
    """``{stem}_{J}.{xlsx,pkl}``: judge scores (``score``, ``log``), or for judge-extracted
    math (``kind="math_judged"``, MathVista) the extracted answers (``res``, ``log``)."""
    stem = path.stem
    need = fields[0]
    if kind == "judged" and re.search(r"LLaVABench", stem):
        found = _find_llava(path, names)
        if found is not None:
            return found
    rx = re.compile(rf"{re.escape(stem)}_(?P<j>.+)\.(?P<ext>pkl|{'|'.join(_TABLE_EXT)})")
    by_judge: dict[str, list[Path]] = {}
    for name in sorted(names):
        m = rx.fullmatch(name)
        if not m or _NOT_JUDGE.fullmatch(m.group("j")) or _belongs_to_longer_stem(names, stem, m.group("j")):
            continue
        by_judge.setdefault(m.group("j"), []).append(path.parent / name)
    if not by_judge:
        return None
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest(by_judge[j]), j))
    if len(by_judge) > 1:
        notes.append(f"records of several judges beside the file ({', '.join(sorted(j for j in by_judge if j != judge))} too); the newest, {judge}, is used")
    files = sorted(by_judge[judge], key=lambda p: (p.suffix == ".pkl", p.suffix))
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=fields)
        else:
            res = _table_entries(f, fields, notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
            if got is not None and not any(need in r for r in got.values()):
                notes.append(f"{f.name}: not used: it has no {need!r} column")
                got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, (need,))
        used.append(f)
    return Records(path, kind, judge, tuple(used), entries, columns, notes)


def _find_mathverse(path: Path, names: set[str]) -> Records | None:
    """MathVerse's two stages: ``{stem}_{J}_extract.{xlsx,pkl}`` (``extract``,
    ``log_extract``) and ``{stem}_{J}_score.{xlsx,pkl}`` (``score``, ``log_score``; the
    ``_score.csv`` beside them is the report)."""
    stem = path.stem
    rx = re.compile(rf"{re.escape(stem)}_(?P<j>.+)_(?P<stage>extract|score)\.(?P<ext>pkl|xlsx|tsv|json)")
    by_judge: dict[str, list[tuple[str, Path]]] = {}
    for name in sorted(names):
        m = rx.fullmatch(name)
        if m and not _belongs_to_longer_stem(names, stem, m.group("j")):
            by_judge.setdefault(m.group("j"), []).append((m.group("stage"), path.parent / name))
    if not by_judge:
        return None
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest([p for _, p in by_judge[j]]), j))
    if len(by_judge) > 1:
        notes.append(f"records of several judges beside the file ({', '.join(sorted(j for j in by_judge if j != judge))} too); the newest, {judge}, is used")
    fields = {"extract": ("extract", "log_extract"), "score": ("score", "log_score")}
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for stage, f in sorted(by_judge[judge], key=lambda t: (t[0], t[1].suffix == ".pkl", t[1].suffix)):
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=fields[stage])
        else:
            res = _table_entries(f, fields[stage], notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
        if got is not None and not any(stage in r for r in got.values()):
            notes.append(f"{f.name}: not used: it has no {stage!r} column")
            got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, (stage,))
        used.append(f)
    return Records(path, "math_judged", judge, tuple(used), entries, columns, notes)


def _find_math(path: Path, names: set[str]) -> Records | None:
    if re.search(r"MathVerse", path.stem):
        return _find_mathverse(path, names)
    if re.search(r"DynaMath", path.stem):
        return _find_judged(path, names, ("correct", "parse", "extracted"), "math_judged")
    if re.search(r"LogicVista", path.stem):
        return _find_judged(path, names, ("res", "log", "hit"), "math_judged")
    return _find_judged(path, names, ("res", "log"), "math_judged")


def _find_shortqa(path: Path, names: set[str]) -> Records | None:
    """``ImageShortQADataset``'s verdicts: ``{stem}_judge.{xlsx,...}`` (rows plus ``hit``,
    ``log``) and ``{stem}_tmp.pkl`` (``index -> {"hit", "log"}``); the judge is not named."""
    stem = path.stem
    files = [path.parent / f"{stem}_judge.{ext}" for ext in _TABLE_EXT if f"{stem}_judge.{ext}" in names]
    files += [path.parent / f"{stem}_{n}.pkl" for n in ("judge", "tmp") if f"{stem}_{n}.pkl" in names]
    if not files:
        return None
    notes: list[str] = []
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=("hit", "log"))
        else:
            res = _table_entries(f, ("hit", "log"), notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
        if got is not None and not any("hit" in r for r in got.values()):
            notes.append(f"{f.name}: not used: it has no 'hit' (not ShortQA_auxeval's record)")
            got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, ("hit",))
        used.append(f)
    return Records(path, "shortqa", None, tuple(used), entries, columns, notes)


def _find_spatial(path: Path, names: set[str]) -> Records | None:
    """spatial_bench's LLM grades (``eval_mcq_score`` with ``compute_score_llm``):
    ``{stem}_llm_{model}.{xlsx,...}`` (the rows plus ``judge_grade``, ``pred_extracted``,
    ``hit``) and the cache ``{stem}_llm_{model}_judge.pkl`` (``index -> (grade,
    extracted)``; VsiBench/SPBench: ``_llm_{model}_mcq_judge.pkl`` and ``_na_judge.pkl``, one
    per kind of row). The judge is named ``llm_{model}``, as the report
    ``{stem}_llm_{model}_acc.csv`` is. With none of these, the rule path's table
    ``{stem}_extract_matching.xlsx`` (judge ``extract_matching``: graded without a judge)."""
    stem = path.stem
    rx = re.compile(rf"{re.escape(stem)}_(?P<j>llm_.+?)(?P<pkl>_(?:mcq_|na_)?judge\.pkl|\.(?:{'|'.join(_TABLE_EXT)}|pkl))")
    by_judge: dict[str, list[Path]] = {}
    for name in sorted(names):
        m = rx.fullmatch(name)
        if not m or _NOT_JUDGE.fullmatch(m.group("j")):
            continue  # reports (_acc)
        by_judge.setdefault(m.group("j"), []).append(path.parent / name)
    if not by_judge:
        # Graded without a judge (the rule path): {stem}_extract_matching.xlsx, named so the
        # family replays the rules and the report {stem}_extract_matching_acc.csv is found.
        rules = [path.parent / f"{stem}_extract_matching.{ext}" for ext in _TABLE_EXT if f"{stem}_extract_matching.{ext}" in names]
        if not rules:
            return None
        rnotes: list[str] = []
        res = _table_entries(rules[0], ("pred_extracted", "hit"), rnotes)
        if res is None:
            return Records(path, "spatial", "extract_matching", (), {}, (), rnotes)
        return Records(path, "spatial", "extract_matching", (rules[0],), res[0], res[1], rnotes)
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest(by_judge[j]), j))
    if len(by_judge) > 1:
        notes.append(f"records of several judges beside the file ({', '.join(sorted(j for j in by_judge if j != judge))} too); the newest, {judge}, is used")
    fields = ("judge_grade", "pred_extracted", "hit")
    # The table first (what the report was computed from), then the cache for indexes it lacks.
    files = sorted(by_judge[judge], key=lambda p: (p.name.endswith("_judge.pkl"), p.suffix == ".pkl", p.suffix))
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        if f.name.endswith("_judge.pkl"):
            data = safe_pickle.load(f)
            if not isinstance(data, dict):
                notes.append(f"{f.name}: not used: it holds a {type(data).__name__}, not the index -> (grade, extracted) cache")
                continue
            got: dict[str, dict[str, Any]] | None = {}
            for k, v in data.items():
                key = index_key(k)
                if key is None:
                    continue
                # parallel_llm_extract: a value that is not a pair gives (None, None).
                g, ex = (v[0], v[1]) if isinstance(v, (list, tuple)) and len(v) >= 2 else (None, None)
                got[key] = {"judge_grade": g, "pred_extracted": ex, "hit": 1 if g == "A" else 0}
        elif f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=fields)
        else:
            res = _table_entries(f, fields, notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
            if got is not None and not any("hit" in r or "judge_grade" in r for r in got.values()):
                notes.append(f"{f.name}: not used: it has no 'judge_grade' or 'hit' column")
                got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, ("judge_grade",))
        used.append(f)
    return Records(path, "spatial", judge, tuple(used), entries, columns, notes)


def _find_video_mcq(path: Path, names: set[str], field: str = "score", kind: str = "video_mcq") -> Records | None:
    """WorldSense / Video-TT keep no judge reply: the verdicts are the ``score`` column of
    ``{stem}_score.{xlsx,tsv,csv,json}`` (``get_intermediate_file_path(eval_file, '_score')``,
    the prediction file format); the judge's name is in no file name. VideoMMMU's
    ``_score`` file holds each row's ``parsed_pred`` (``field``)."""
    files = [path.parent / f"{path.stem}_score.{ext}" for ext in _TABLE_EXT if f"{path.stem}_score.{ext}" in names]
    if not files:
        return None
    notes: list[str] = []
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        res = _table_entries(f, (field,), notes)
        if res is None:
            continue
        if not any(r.get(field) is not None for r in res[0].values()):
            notes.append(f"{f.name}: not used: its {field!r} column is empty")
            continue
        columns = columns or res[1]
        _merge(entries, res[0], f.name, notes, (field,))
        used.append(f)
    return Records(path, kind, None, tuple(used), entries, columns, notes)



def _find_tail(path: Path, names: set[str]) -> Records | None:
    """Judge-scored sets of :mod:`gaia_fast.scorers.vlm.tail_judged`.

    * CharXiv: ``{stem}_{J}.{xlsx,...}``, the rows plus ``score`` and ``extracted_answer``
      (``J`` = ``judge_model.model``). Its ``{stem}_{J}.pkl`` is keyed by row position, not
      by ``index``, so it is not read (upstream's report re-reads the table only).
    * ChartMuseum: ``{stem}_{J}.pkl``, ``index -> (judge reply, category)`` in the order
      upstream iterates it for the report (kept as ``response``, ``category``)."""
    if re.search(r"CharXiv", path.stem):
        found = _find_judged(path, {n for n in names if not n.endswith(".pkl")}, ("score", "extracted_answer"), "tail_judged")
        if found is not None and any(n.endswith(".pkl") for n in names):
            found.notes.append("the _{J}.pkl cache is keyed by row position, not index: not read")
        return found
    if re.search(r"State_Invariance|State_Comparison|Spatial_Perception|Instance_Comparison|Detailed_Difference", path.stem):
        # M4Bench: {stem}_details.{xlsx,...}, the rows plus parsed_pred (the judge's letter,
        # or get_ans's where the judge failed) and score; no judge name in any file name.
        files = [path.parent / f"{path.stem}_details.{ext}" for ext in _TABLE_EXT if f"{path.stem}_details.{ext}" in names]
        notes: list[str] = []
        for f in files:
            res = _table_entries(f, ("parsed_pred", "score"), notes)
            if res is not None and any("parsed_pred" in r for r in res[0].values()):
                return Records(path, "tail_judged", None, (f,), res[0], res[1], notes)
            notes.append(f"{f.name}: not used: it has no 'parsed_pred' column")
        return Records(path, "tail_judged", None, (), {}, (), notes) if files else None
    if re.search(r"PhyX", path.stem):
        # valid_type=LLM: {stem}_{J}.xlsx (rows + res, log, extracted) and {stem}_{J}.pkl.
        return _find_judged(path, names, ("res", "log", "extracted"), "tail_judged")
    if re.search(r"DUDE|SLIDEVQA|MMLongBench_DOC", path.stem):
        # {stem}_{J}.xlsx: the rows plus the judge's extraction (pred, res, log).
        return _find_judged(path, names, ("pred", "res", "log"), "tail_judged")
    if re.search(r"MemLens", path.stem):
        return _find_memlens(path, names)
    if re.search(r"LongDocURL", path.stem):
        return _find_longdocurl(path, names)
    if re.search(r"SFE", path.stem):
        return _find_sfe(path, names)
    if not re.search(r"ChartMuseum", path.stem):
        return None
    rx = re.compile(rf"{re.escape(path.stem)}_(?P<j>.+)\.pkl")
    by_judge = {m.group("j"): path.parent / n for n in sorted(names) if (m := rx.fullmatch(n)) and not _NOT_JUDGE.fullmatch(m.group("j"))}
    if not by_judge:
        return None
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest([by_judge[j]]), j))
    if len(by_judge) > 1:
        notes.append(f"records of several judges beside the file ({', '.join(sorted(j for j in by_judge if j != judge))} too); the newest, {judge}, is used")
    f = by_judge[judge]
    data = safe_pickle.load(f)
    if not isinstance(data, dict):
        notes.append(f"{f.name}: not used: it holds a {type(data).__name__}, not the index -> (reply, category) cache")
        return Records(path, "tail_judged", judge, (), {}, (), notes)
    entries: dict[str, dict[str, Any]] = {}
    for k, v in data.items():
        key = index_key(k)
        if key is None:
            continue
        if not isinstance(v, (tuple, list)) or len(v) < 2:
            notes.append(f"{f.name}: index {key}: the record is not a (reply, category) pair; not used")
            continue
        entries[key] = {"response": v[0], "category": v[1]}
    return Records(path, "tail_judged", judge, (f,), entries, (), notes)


def _find_sfe(path: Path, names: set[str]) -> Records | None:
    """SFE: ``{stem}_judge.{xlsx,...}`` (the main rows plus ``score``), then ``{stem}_tmp.pkl``
    (``index -> {"score", "log"}``) for indexes the table lacks; the judge is not named."""
    stem = path.stem
    files = [path.parent / f"{stem}_judge.{ext}" for ext in _TABLE_EXT if f"{stem}_judge.{ext}" in names]
    files += [path.parent / f"{stem}_tmp.pkl"] if f"{stem}_tmp.pkl" in names else []
    if not files:
        return None
    notes: list[str] = []
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in files:
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=("score", "log"))
        else:
            res = _table_entries(f, ("score", "log"), notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
        if got is not None and not any("score" in r for r in got.values()):
            notes.append(f"{f.name}: not used: it has no 'score'")
            got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, ("score",))
        used.append(f)
    return Records(path, "tail_judged", None, tuple(used), entries, columns, notes)


def _find_longdocurl(path: Path, names: set[str]) -> Records | None:
    """LongDocURL: ``{stem}_{J}_extract.pkl`` (``index -> {pred, ...}``, the extracted values
    as the first run scored them: numbers and lists stay so; marked ``_from="pkl"``) first,
    then ``{stem}_{J}_extract.{xlsx,...}`` (rows + ``pred``) for indexes the cache lacks."""
    rx = re.compile(rf"{re.escape(path.stem)}_(?P<j>.+)_extract\.(?P<ext>pkl|{'|'.join(_TABLE_EXT)})")
    by_judge: dict[str, list[Path]] = {}
    for n in sorted(names):
        if m := rx.fullmatch(n):
            by_judge.setdefault(m.group("j"), []).append(path.parent / n)
    if not by_judge:
        return None
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest(by_judge[j]), j))
    if len(by_judge) > 1:
        notes.append(f"records of several judges beside the file ({', '.join(sorted(j for j in by_judge if j != judge))} too); the newest, {judge}, is used")
    entries: dict[str, dict[str, Any]] = {}
    used: list[Path] = []
    columns: tuple[str, ...] = ()
    for f in sorted(by_judge[judge], key=lambda p: (p.suffix != ".pkl", p.suffix)):
        if f.suffix == ".pkl":
            got = _pickle_entries(f, notes, fields=("pred",))
            if got is not None:
                got = {k: {**v, "_from": "pkl"} for k, v in got.items()}
        else:
            res = _table_entries(f, ("pred", "extracted_answer_format"), notes)
            got, columns = (None, columns) if res is None else (res[0], columns or res[1])
        if got is not None and not any("pred" in r for r in got.values()):
            notes.append(f"{f.name}: not used: it has no 'pred'")
            got = None
        if got is None:
            continue
        _merge(entries, got, f.name, notes, ())
        used.append(f)
    return Records(path, "tail_judged", judge, tuple(used), entries, columns, notes)


def _find_memlens(path: Path, names: set[str]) -> Records | None:
    """MemLens: ``{stem}_{J}_memlens_judge.jsonl``, one JSON object a line (``idx``: the row
    position, ``question_id``, ``question_type``, ``judge_score``, ...); a later line of the
    same ``idx`` replaces an earlier one, as upstream reads it. Keyed by row position."""
    rx = re.compile(rf"{re.escape(path.stem)}_(?P<j>.+)_memlens_judge\.jsonl")
    by_judge = {m.group("j"): path.parent / n for n in sorted(names) if (m := rx.fullmatch(n))}
    if not by_judge:
        return None
    notes: list[str] = []
    judge = max(by_judge, key=lambda j: (_newest([by_judge[j]]), j))
    if len(by_judge) > 1:
        notes.append(f"records of several judges beside the file ({', '.join(sorted(j for j in by_judge if j != judge))} too); the newest, {judge}, is used")
    f = by_judge[judge]
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
    notes.append("keyed by row position (idx), not by index")
    return Records(path, "tail_judged", judge, (f,), entries, (), notes)


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
    finders = {
        "mcq": _find_mcq,
        "yorn": _find_yorn,
        "judged": _find_judged,
        "spatial": _find_spatial,
        "math_judged": _find_math,
        "shortqa": _find_shortqa,
        "video_mcq": _find_video_mcq,
        "video_mmmu": lambda p, n: _find_video_mcq(p, n, "parsed_pred", "video_mmmu"),
        "tail_judged": _find_tail,
        # MathVision: {stem}_{J}.xlsx (rows + res, log) and {stem}_{J}.pkl (index -> {log, res}).
        "mathvision": lambda p, n: _find_judged(p, n, ("res", "log"), "mathvision"),
        # SeePhys: {stem}_{J}.xlsx (rows + extract, log, score) and .pkl (index -> {log, extract, score}).
        "seephys": lambda p, n: _find_judged(p, n, ("score", "extract", "log"), "seephys"),
    }
    for k in (kind,) if kind else ("mcq", "yorn"):
        found = finders[k](path, names)
        if found is None:
            continue
        if not found.files:
            # Judge-named files that hold no judge record (a copy of the results, an empty
            # cache): there is nothing to replay; say why, once, through logging.
            _log.warning("%s: judge record files found but none usable: %s", path, "; ".join(found.notes))
            return None
        return found
    return None
