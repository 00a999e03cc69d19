"""VLM2Bench: true/false pairs, counting and grouping sub-tasks, one score per category
(``VLM2Bench.evaluate``).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/vlm2bench.py`` and
``vlmeval/dataset/utils/vlm2bench.py`` (added 9e86c826, 2025-03-01). The rows are pandas'
records (``to_dict(orient="records")``), so cells keep pandas' types:

* ``gc-mat, gc-trk, oc-cpr, pc-cpr`` (``tf_pair_aggregate_accuracy``): rows grouped by
  ``index`` without its last ``_`` part (an index with no ``_`` is skipped); a group right when
  it has two or more rows and each row's single whole-word ``t/f/true/false`` (first letter,
  upper) equals ``answer.strip().upper()``; score = right groups / all groups * 100;
* ``oc-cnt, pc-cnt`` (``cnt_aggregate_metric``): rows whose ``int(answer)`` works; the
  prediction's numbers (digit runs, plus one number read from the number words together) must
  be exactly one; exact: 100, else ``100 * (1 - 4 / L * (|d| / max(gt - 1, L - gt, 1)) ** 0.1)``
  floored at 0, ``L`` the image count; score = mean;
* ``oc-grp, pc-grp`` (``grp_aggregate_accuracy``): wrong when the prediction has more than one
  ``(X)``; else right when the texts before the first ``)`` match; score = right / rows * 100;
* any other category: an empty cell. The report (``{stem}_score.csv``; ``{stem}_{model}_score.csv``
  when run with a judge name): a column per category, sorted.

The image count ``L``: variant ``2025-03`` (9e86c826 to 09874c7a^): ``len(record['image'])``,
which a result file never has (VLMEvalKit drops ``image``), so 2; variant ``2026-08``
(09874c7a, 2026-08-03, to head): a positive ``image_seq_len`` cell, else the length of the
``image_path`` cell as a list (``toliststr``), else 2. The ``2025-03`` code read a ``.tsv`` result
file as latin-1 (``pd.read_csv(..., encoding="latin1")``, until 9cc14cd0 moved it to ``load``);
rows with non-ASCII text are counted in ``stats["flags"]["non_ascii"]`` under that variant (a
UTF-8 ``.tsv`` of that era may read differently there; an ``.xlsx`` is exact).

Where upstream raises (``.strip()`` / ``re`` on a number or NaN, ``'_' in`` a number index, a
category that is not text) VLMEvalKit wrote no report: ``stats["reference_error"]`` says which row.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
from gaia_fast.scorers.vlm._replay import rules_only_stats

__all__ = ["VARIANTS", "cnt_score", "grade", "parse_count", "parse_tf"]

VARIANTS = ("2025-03", "2026-08")
TF = ("gc-mat", "gc-trk", "oc-cpr", "pc-cpr")
CNT = ("oc-cnt", "pc-cnt")
GRP = ("oc-grp", "pc-grp")
NUM_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
}  # fmt: skip
_TF = re.compile(r"\b(t|f|true|false)\b", re.IGNORECASE)
_WORDS = re.compile(
    r"\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)\b",
    re.IGNORECASE,
)


class _Crash(Exception):
    """Upstream raised here (no report)."""


def parse_tf(text: str) -> str | None:
    """``parse_tf_answer``'s letter (None for none or several)."""
    found = [m.upper()[0] for m in _TF.findall(text)]
    return found[0] if len(found) == 1 else None


def _words_to_num(s: str) -> int | None:
    tokens = s.lower().replace("-", " ").replace("and", " ").split()
    total = current = 0
    for token in tokens:
        if token not in NUM_WORDS:
            return None
        scale = NUM_WORDS[token]
        if scale in (100, 1000):
            current = (current or 1) * scale
            total += current
            current = 0
        else:
            current += scale
    total += current
    return total if total != 0 else None


def parse_count(text: str) -> int | None:
    """``parse_model_answer``: the one number in the text, else None."""
    low = text.lower()
    numbers = [int(x) for x in re.findall(r"\d+", low)]
    words = _WORDS.findall(low)
    if words:
        num = _words_to_num(" ".join(words))
        if num is not None:
            numbers.append(num)
    return numbers[0] if len(numbers) == 1 else None


def cnt_score(parsed: int | None, gt: int, seq_len: int) -> float:
    """One row's ``cnt_aggregate_metric`` score."""
    if parsed is None:
        return 0.0
    diff = abs(parsed - gt)
    if diff == 0:
        return 100.0
    max_error = max(gt - 1, seq_len - gt)
    if max_error <= 0:
        max_error = 1
    penalty = (4 / seq_len) * ((diff / max_error) ** (1.0 / 10))
    return 100 * (1 - penalty) if penalty < 1 else 0.0


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _seq_len(rec: dict[str, Any], variant: str) -> int:
    if variant == "2025-03":
        try:
            return len(rec["image"])
        except Exception:  # noqa: BLE001 - upstream: any failure -> 2
            return 2

    def positive(v: Any) -> int | None:
        if _missing(v) or (isinstance(v, str) and not v.strip()):
            return None
        try:
            n = int(v)
        except Exception:  # noqa: BLE001
            return None
        return n if n > 0 else None

    n = positive(rec.get("image_seq_len"))
    if n is not None:
        return n
    for key in ("image_path", "image"):
        if key not in rec:
            continue
        v = rec[key]
        if _missing(v) or (isinstance(v, str) and not v.strip()):
            continue
        if isinstance(v, str) and len(v) > 1 and v[0] == "[" and v[-1] == "]":
            try:  # toliststr's eval of a list literal
                count = len(ast.literal_eval(v))
            except Exception:  # noqa: BLE001, S112 - toliststr's eval failing: upstream skips the field
                continue
        elif isinstance(v, str):
            count = 1
        else:
            continue  # toliststr raises for a number: upstream skips the field
        if count > 0:
            return count
    return 2


def _strip_upper(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise _Crash(f"{what} {v!r} is not text: AttributeError upstream (.strip())")
    return v.strip().upper()


def _tf(recs: list[tuple[int, dict[str, Any]]], scores: list[float | None]) -> float:
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for i, rec in recs:
        idx = rec.get("index", "")
        if not isinstance(idx, str):
            raise _Crash(f"row {i + 1}: index {idx!r} is not text: TypeError upstream ('_' in it)")
        if "_" not in idx:
            continue
        groups.setdefault("_".join(idx.split("_")[:-1]), []).append((i, rec))
    right = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        ok = True
        for i, rec in members:
            gt = _strip_upper(rec.get("answer", ""), f"row {i + 1}: answer")
            pred = _strip_upper(rec.get("prediction", ""), f"row {i + 1}: prediction")
            hit = parse_tf(pred) == gt
            scores[i] = 1.0 if hit else 0.0
            if not hit:
                ok = False
                break
        right += int(ok)
    return (right / len(groups)) * 100 if groups else 0


def _cnt(recs: list[tuple[int, dict[str, Any]]], scores: list[float | None], variant: str) -> float:
    count, total = 0, 0.0
    for i, rec in recs:
        try:
            gt = int(rec.get("answer", None))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001, S112 - upstream: no integer answer, the row is skipped
            continue
        count += 1
        s = cnt_score(parse_count(str(rec.get("prediction", "")).strip()), gt, _seq_len(rec, variant))
        scores[i] = s / 100
        total += s
    return total / count if count > 0 else 0


def _grp(recs: list[tuple[int, dict[str, Any]]], scores: list[float | None]) -> float:
    def clean(a: str) -> str:
        return a.split(")")[0].strip() if ")" in a else a.strip()

    right = 0
    for i, rec in recs:
        pred, gt = rec.get("prediction", ""), rec.get("answer", "")
        if not isinstance(pred, str):
            raise _Crash(f"row {i + 1}: prediction {pred!r} is not text: TypeError upstream (re.findall)")
        if len(re.findall(r"\([A-Z]\)", pred)) > 1:
            scores[i] = 0.0
            continue
        if not isinstance(gt, str):
            raise _Crash(f"row {i + 1}: answer {gt!r} is not text: TypeError upstream (')' in it)")
        hit = clean(pred) == clean(gt)
        scores[i] = 1.0 if hit else 0.0
        right += int(hit)
    return (right / len(recs) * 100) if recs else 0


def _records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    cols = {}
    for name in frame.columns:
        kind, cells = pandas_column(frame[name])
        values = cells.to_list()
        cols[name] = [math.nan if v is None else v for v in values] if kind == "object" else values
    return [{k: cols[k][i] for k in cols} for i in range(frame.height)]


def grade(frame: pl.DataFrame, *, variant: str | None = None, seed: int = 0, judge: Any = None) -> GradeResult:
    """Grade a VLM2Bench result table (``index``, ``answer``, ``category``, ``prediction``).
    Rules only. ``rows``: the input plus ``score`` (tf rows: 1/0 up to the first wrong row of
    its pair; counting: the row's score / 100; grp: 1/0), ``status``, ``reason``. ``report``:
    one row, a column per category."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError("vlm2bench is graded by rules only; it takes no judge")
    variant = variant or "2026-08"
    if variant not in VARIANTS:
        raise ValueError(f"vlm2bench: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    if "category" not in frame.columns:
        raise ValueError(f"vlm2bench: the result table has no 'category' column (columns: {sorted(frame.columns)})")
    n = frame.height
    recs = _records(frame)
    scores: list[float | None] = [None] * n
    error: str | None = None
    values: dict[str, float | None] = {}
    try:
        for i, rec in enumerate(recs):
            cat = rec.get("category", "")
            if not isinstance(cat, str):
                raise _Crash(f"row {i + 1}: category {cat!r} is not text: AttributeError upstream (.lower())")
        for cat in sorted({r["category"] for r in recs}):
            sub = [(i, r) for i, r in enumerate(recs) if r["category"] == cat]
            if cat in TF:
                values[cat] = _tf(sub, scores)
            elif cat in CNT:
                values[cat] = _cnt(sub, scores, variant)
            elif cat in GRP:
                values[cat] = _grp(sub, scores)
            else:
                values[cat] = None
    except _Crash as e:
        error = f"{e} (no report)"
    report = pl.DataFrame() if error or not values else pl.DataFrame([values], schema={k: pl.Float64 for k in values})
    status = ["error" if error else ("ok" if s is not None else "unchecked") for s in scores]
    reasons = [
        error or ("" if s is not None else "not scored: another row of its pair decided it, or no integer answer, or no rule")
        for s in scores
    ]
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    non_ascii = sum(
        1 for r in recs if any(isinstance(r.get(k), str) and not r[k].isascii() for k in ("prediction", "answer", "index"))
    )
    decided = sum(1 for s in scores if s is not None)
    stats = rules_only_stats(
        "vlm2bench",
        variant,
        rows,
        input_rows=n,
        tasks=decided if not error else 0,
        correct=sum(s for s in scores if s is not None) if not error else 0,
        accuracy=None,
        unit=None,
        method="rules (vlm2bench tf pairs, counting score, grouping letters)",
        flags={"non_ascii": non_ascii} if variant == "2025-03" and non_ascii else {},
        reference_error=error,
    )
    return GradeResult(rows=rows, report=report, stats=stats)
