"""Short-answer datasets with a one-line rule of their own (VLMEvalKit classes with their own
``evaluate``): CountBenchQA, ZEROBench, TallyQA, MTVQA, ERQA, DA-2K and TDBench grounding,
laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_vqa.py`` (``CountBenchQA``,
``ZEROBench``, ``TallyQA``, ``MTVQADataset``), ``vlmeval/dataset/utils/tallyqa.py`` and
``vlmeval/dataset/erqa.py``. Each reads the result table as pandas does (see
:mod:`gaia_fast.scorers.vlm._pandas`: ``str()`` of a number column is ``"3"`` or ``"3.0"``
as pandas typed it) and, by dataset:

* CountBenchQA: a row is right when ``str(answer)`` is a substring of ``str(prediction)``.
  Report ``{"accuracy": percent}`` (``_acc.csv``). Variant ``2025-05`` (26cb557c,
  2025-05-27 … 2025-09-11): the ``answers`` column, a fraction, and no report file (the
  returned dict).
* ZEROBench (and ZEROBench_sub): the last ``{…}`` (one line, shortest) of the stripped,
  lowercased prediction must contain the stripped, lowercased ``answers`` cell; no braces
  read as ``""``. Upstream writes no report (it returns ``{"accuracy": fraction}``); that
  dict is the report here.
* TallyQA: ``extract_count_from_prediction``: a number cell from 0 to 20 is itself
  (``int()``), a text's first digit-number 0–20 or number word ``zero``…``twenty`` (as
  whole words, lowercased); equal to ``int(answer)``. Report ``{"TallyQA": fraction}``.
* MTVQA: stripped, lowercased, every ``.`` removed, the answer a substring of the
  prediction. Report ``_acc.json``: per category (first-seen order, ``Average`` after the
  first), percent. Variant ``2024-07`` (``MTVQA_eval`` of the MTVQA branch, 04cfded1,
  2024-07-03, before ``MTVQADataset``): the answer keeps its periods, no ``split`` check,
  report ``_acc.csv``: per category (first-seen order), a fraction, no ``Average``.
* ERQA: the stripped, lowercased prediction equals the stripped, lowercased answer. Report
  ``Category``/``Accuracy (%)``/``Samples``: ``Overall``, then each category sorted.
* DA-2K: ``point1``/``point2`` (``point\\s*([12])``) in the lowercased prediction equals the
  answer, or without one the answer is a substring; rows sharing an index take the first
  row's verdict. Report ``_rating.json``: ``overall`` (fraction) and ``by_category`` (per
  ``scene_category``, sorted) when that column exists.
* TDBench grounding (``tdbench_grounding_rot*``): one ``[x0, y0, x1, y1]`` group in each
  of prediction and answer (``extract_bbox_from_string``; anything else scores 0); variant
  ``centroid`` (default): the predicted box's centre inside the answer box, ``iou``: the
  IoU. Report ``_acc.csv``: ``Metric``/``Score`` (the mean, summed in index order, and the
  row count). The cross-rotation ``_REresult.csv`` (it reads the sibling rotations' files)
  is not produced.
* ChartQAPro (and _CoT, _PoT, graded the same way): the last element of the ``answer``
  literal against the prediction (both stripped of ``.`` and newlines) with
  ``relaxed_correctness_chartqapro``: list answers element by element, the ``year`` flags
  ``YES`` exact, else numbers within 5 % or the ``anls`` package's ANLS (0.5). Report
  ``_acc.csv``: columns ``0``/``1``, the mean per ``question_type`` (first-seen order) and
  ``Overall``. Variant ``2026-03`` (35ab4709, 2026-03-04, head) ``str()``s the prediction;
  ``2025-10`` (2e35a574, 2025-10-17) raises on a prediction that is not text.

Everything is column-at-a-time Polars (the text steps follow Python's ``strip`` and
``lower``); no judge is involved anywhere.
"""

from __future__ import annotations

import ast
import math
import re
import warnings
from typing import Any

import polars as pl

from gaia_fast import _native
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str, py_lower, py_strip

__all__ = ["BENCHMARKS", "TALLY_WORDS", "VARIANTS", "chartqapro_score", "grade", "tally_count"]

#: ``grade(benchmark=...)`` names -> their variants (the first is the default).
BENCHMARKS: dict[str, tuple[str | None, ...]] = {
    "countbenchqa": ("2025-09", "2025-05"),
    "zerobench": (None,),
    "tallyqa": (None,),
    "mtvqa": (None, "2024-07"),
    "erqa": (None,),
    "da2k": (None,),
    "tdbench_grounding": ("centroid", "iou"),
    "chartqapro": ("2026-03", "2025-10"),
}

#: Every variant some benchmark here accepts (None: a dataset's only rule).
VARIANTS: tuple[str | None, ...] = tuple(dict.fromkeys(v for vs in BENCHMARKS.values() for v in vs))

#: TallyQA's number words.
TALLY_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
_TALLY = r"(\b([0-9]|1[0-9]|20)\b|\b(" + "|".join(TALLY_WORDS) + r")\b)"


def _require(frame: pl.DataFrame, name: str, bench: str) -> None:
    if name not in frame.columns:
        raise ValueError(f"{bench}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")


def _norm(series: pl.Series) -> pl.Series:
    """``x.strip().lower()`` as Python does it."""
    return py_lower(series.to_frame().select(py_strip(pl.first()))[:, 0])


def _one_row(values: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame({c: [v] for c, v in values.items()}, schema={c: pl.Float64 for c in values})


# --------------------------------------------------------------------------------------
# Per-dataset rules: each returns (hit 0/1 per row, extracted text per row, rule per row)
# --------------------------------------------------------------------------------------


def _countbench(frame: pl.DataFrame, answers: str) -> tuple[pl.Series, pl.Series, pl.Series]:
    pred = pandas_str(frame["prediction"])
    ans = pandas_str(frame[answers])
    hit = pl.DataFrame({"p": pred, "a": ans}).select(pl.col("p").str.contains(pl.col("a"), literal=True))[:, 0]
    return hit, pred, pl.Series(["in" if h else "not_in" for h in hit.to_list()], dtype=pl.String)


def _zerobench(frame: pl.DataFrame) -> tuple[pl.Series, pl.Series, pl.Series]:
    pred = _norm(pandas_str(frame["prediction"]))
    ans = _norm(pandas_str(frame["answers"]))
    # re.findall(r"\{(.*?)\}", text)[-1]: the whole match minus its two braces.
    parsed = pl.DataFrame({"p": pred}).select(
        pl.col("p").str.extract_all(r"\{(.*?)\}").list.last().str.slice(1).str.strip_suffix("}")
    )[:, 0]
    braces = parsed.is_not_null()
    parsed = py_lower(parsed.fill_null(""))
    hit = pl.DataFrame({"p": parsed, "a": ans}).select(pl.col("p").str.contains(pl.col("a"), literal=True))[:, 0]
    rule = [("braces" if b else "no_braces") + ("_in" if h else "_not_in") for b, h in zip(braces.to_list(), hit.to_list())]
    return hit, parsed, pl.Series(rule, dtype=pl.String)


def tally_count(value: Any) -> int | None:
    """TallyQA's ``extract_count_from_prediction`` for one cell as pandas holds it."""
    if isinstance(value, (int, float)):  # bool too, as upstream (True is 1)
        if isinstance(value, float) and value != value:
            return None
        return int(value) if 0 <= value <= 20 else None
    found = pl.Series([_native.py_lower(str(value))]).str.extract(_TALLY, 1)[0]
    if found is None:
        return None
    return int(found) if found.isdigit() else TALLY_WORDS.get(found)


def _tally(frame: pl.DataFrame) -> tuple[pl.Series, pl.Series, pl.Series, str | None]:
    kind, cells = pandas_column(frame["prediction"])
    if kind == "object":
        low = py_lower(cells.fill_null(""))
        found = pl.DataFrame({"t": low}).select(pl.col("t").str.extract(_TALLY, 1))[:, 0]
        counts = [
            None if c is None or f is None else (int(f) if f.isdigit() else TALLY_WORDS[f])
            for c, f in zip(cells.to_list(), found.to_list())
        ]
    else:
        counts = [tally_count(v) for v in cells.to_list()]
    akind, acells = pandas_column(frame["answer"])
    error = None
    truths: list[int | None] = []
    for i, v in enumerate(acells.to_list()):
        try:
            truths.append(int(v))  # Series.astype(int)
        except (TypeError, ValueError, OverflowError) as e:
            error = error or f"row {i}: answer {v!r}: astype(int) raises {type(e).__name__} upstream"
            truths.append(None)
    hit = pl.Series([c is not None and c == t for c, t in zip(counts, truths)], dtype=pl.Boolean)
    extracted = pl.Series([None if c is None else str(c) for c in counts], dtype=pl.String)
    rule = pl.Series(["no_count" if c is None else ("equal" if h else "differ") for c, h in zip(counts, hit.to_list())], dtype=pl.String)
    return hit, extracted, rule, error


def _mtvqa_norm(series: pl.Series) -> pl.Series:
    return _norm(series).str.replace_all(".", "", literal=True)


def _erqa_report(hit: pl.Series, category: pl.Series) -> tuple[pl.DataFrame, str | None]:
    n = hit.len()
    k = int(hit.sum())
    rows: list[tuple[str, float, int]] = [("Overall", (k / n) * 100 if n else 0.0, n)]
    error = None
    present = category.drop_nulls().unique().sort().to_list()
    if category.null_count() and present:
        error = "a missing category beside others: sorting the categories raises TypeError upstream"
    for c in present:
        sub = hit.filter((category == c).fill_null(False))
        rows.append((c, (int(sub.sum()) / sub.len()) * 100, sub.len()))
    if category.null_count():
        rows.append(("nan", 0.0, 0))  # NaN == NaN is False upstream: no row, so 0.0 and 0
    schema = {"Category": pl.String, "Accuracy (%)": pl.Float64, "Samples": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row"), error


def _da2k(frame: pl.DataFrame) -> tuple[pl.Series, pl.Series, pl.Series]:
    """DA-2K: ``point1``/``point2`` in the lowercased prediction against the answer, else the
    answer as a substring; every row of an index takes the verdict of its first row (the
    reference writes ``data.loc[data['index'] == idx, 'score']``)."""
    pred = _norm(pandas_str(frame["prediction"]))
    ans = _norm(pandas_str(frame["answer"]))
    work = pl.DataFrame({"p": pred, "a": ans, "i": pandas_str(frame["index"])}).with_columns(
        pl.col("p").str.extract(r"point\s*([12])", 1).alias("label")
    )
    work = work.with_columns(
        pl.when(pl.col("label").is_not_null())
        .then(("point" + pl.col("label")) == pl.col("a"))
        .otherwise(pl.col("p").str.contains(pl.col("a"), literal=True))
        .alias("own"),
        pl.when(pl.col("label").is_not_null()).then(pl.lit("point")).otherwise(pl.lit("substring")).alias("how"),
    ).with_columns(pl.col("own").first().over("i").alias("hit"), pl.col("how").first().over("i").alias("how"))
    rule = (work["how"] + pl.Series(["_equal" if h else "_differ" for h in work["hit"].to_list()])).alias("rule")
    return work["hit"], ("point" + work["label"]).alias("extracted"), rule


#: ``extract_bbox_from_string``: four numbers of the form 0, 0.x or .x (one digit before
#: the point), comma separated; exactly one such group in the answer.
_BBOX = r"(\d?(?:\.\d+)?),\s?(\d?(?:\.\d+)?),\s?(\d?(?:\.\d+)?),\s?(\d?(?:\.\d+)?)"


def _bboxes(text: pl.Series) -> list[tuple[float, float, float, float] | None]:
    """Each cell's box, or None where the reference raises (not exactly one group, or an
    empty number: ``float('')``)."""
    flat = text.str.replace_all("\n", "", literal=True)
    frame = pl.DataFrame({"t": flat}).select(
        pl.col("t").str.count_matches(_BBOX).alias("n"), pl.col("t").str.extract_groups(_BBOX).alias("g")
    ).unnest("g")
    out: list[tuple[float, float, float, float] | None] = []
    for n, *groups in frame.iter_rows():
        if n != 1 or any(g is None or g == "" for g in groups):
            out.append(None)
        else:
            out.append(tuple(float(g) for g in groups))  # type: ignore[arg-type]
    return out


def _box_score(pred: tuple[float, ...] | None, gt: tuple[float, ...] | None, method: str) -> tuple[float, str]:
    if pred is None or gt is None:
        return 0.0, "no_box" if pred is None else "no_gt_box"
    if method == "centroid":
        cx, cy = (pred[0] + pred[2]) / 2, (pred[1] + pred[3]) / 2
        inside = gt[0] <= cx <= gt[2] and gt[1] <= cy <= gt[3]
        return (1.0, "centre_inside") if inside else (0.0, "centre_outside")
    x0, y0, x1, y1 = max(pred[0], gt[0]), max(pred[1], gt[1]), min(pred[2], gt[2]), min(pred[3], gt[3])
    if x1 < x0 or y1 < y0:
        return 0.0, "disjoint"
    inter = (x1 - x0) * (y1 - y0)
    union = (pred[2] - pred[0]) * (pred[3] - pred[1]) + (gt[2] - gt[0]) * (gt[3] - gt[1]) - inter
    if union == 0:
        return 0.0, "zero_union"  # ZeroDivisionError upstream, caught: 0.0
    return inter / union, "iou"


def _tdbench(frame: pl.DataFrame, method: str) -> tuple[list[float], pl.Series, pl.Series, list[int]]:
    """Per-row scores, extracted boxes, rules, and the row order after ``sort_values('index')``."""
    preds = _bboxes(pandas_str(frame["prediction"]))
    gts = _bboxes(pandas_str(frame["answer"]))
    scored = [_box_score(p, g, method) for p, g in zip(preds, gts)]
    kind, idx = pandas_column(frame["index"])
    keys = idx.to_list()
    order = sorted(range(len(keys)), key=lambda i: (keys[i] is None, keys[i] if keys[i] is not None else ""))
    extracted = pl.Series([None if p is None else str(list(p)) for p in preds], dtype=pl.String)
    return [v for v, _ in scored], extracted, pl.Series([r for _, r in scored], dtype=pl.String), order


# ChartQAPro (vlmeval/dataset/utils/chartqapro.py). Its list repair needs Python's regular
# expressions (a look-behind) and ``ast.literal_eval``, so it runs row by row in Python; the
# text fallback is the ``anls`` package's ``anls_score``, as upstream.


def _literal(text: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes in data warn at parse time
        return ast.literal_eval(text)


def _fix_list_format(item: Any) -> Any:
    if not isinstance(item, str):
        return item
    match = re.match(r"^\[(.*)\]$", item.strip())
    if not match:
        return item
    corrected = re.sub(r"(?<!['\w])(\w[^,]*?)(?!['\w])", r"'\1'", match.group(1))
    try:
        return _literal(f"[{corrected}]")
    except (SyntaxError, ValueError):
        return item


def _parse_to_list(text: Any) -> list[str] | None:
    if not isinstance(text, str):
        return None
    try:
        parsed = _literal(text)
    except Exception:  # noqa: BLE001 - upstream treats every failure as "not a list"
        return None
    if isinstance(parsed, list):
        return [str(x).strip(" '") for x in parsed]
    return None


def _to_float(text: str) -> float | None:
    try:
        return float(text.strip().strip("%"))
    except ValueError:
        return None


def _single_answer(target: str, prediction: str) -> float:
    from anls import anls_score  # the library upstream calls

    t = target.strip().strip("%").strip()
    p = prediction.strip().strip("%").strip()
    t_f, p_f = _to_float(t), _to_float(p)
    if t_f is not None and p_f is not None:
        if t_f == 0.0:
            return 1.0 if p_f == 0.0 else 0.0
        return 1.0 if abs(p_f - t_f) / abs(t_f) <= 0.05 else 0.0
    return anls_score(prediction=p.lower(), gold_labels=[t.lower()], threshold=0.5)


def chartqapro_score(target: str, prediction: str, year_flags: list[Any] | None) -> float:
    """``relaxed_correctness_chartqapro``: element-wise over list answers (missing or extra
    elements score 0), exact (case-insensitive) where the year flag is ``YES``, else numbers
    within 5 % or ANLS; the mean. Raises where upstream raises."""
    fixed_t = _fix_list_format(target)
    t_list = _parse_to_list(str(fixed_t)) or [str(target)]
    p_list = _parse_to_list(str(prediction)) or [str(prediction)]
    n = len(t_list)
    if year_flags is not None and len(year_flags) < n:
        year_flags = year_flags * n
    scores: list[float] = []
    for idx in range(max(len(t_list), len(p_list))):
        if idx >= len(t_list) or idx >= len(p_list):
            scores.append(0.0)
            continue
        t_item, p_item, flag = t_list[idx], p_list[idx], year_flags[idx]  # type: ignore[index]
        if flag.upper() == "YES":
            scores.append(1.0 if t_item.strip().lower() == p_item.strip().lower() else 0.0)
        else:
            scores.append(_single_answer(t_item, p_item))
    return sum(scores) / len(scores) if scores else 0.0


def _chartqapro(frame: pl.DataFrame, variant: str) -> tuple[list[float | None], list[str | None], list[str], str | None, list[Any]]:
    """Per row: score, the prediction as compared, status, and the first error."""
    _, answers = pandas_column(frame["answer"])
    _, years = pandas_column(frame["year"])
    _, preds = pandas_column(frame["prediction"])
    _, types = pandas_column(frame["question_type"])
    scores: list[float | None] = []
    extracted: list[str | None] = []
    status: list[str] = []
    error: str | None = None
    splits: list[Any] = []
    for i, (a, y, p, q) in enumerate(zip(answers.to_list(), years.to_list(), preds.to_list(), types.to_list())):
        q = math.nan if q is None else q
        splits.append(q)
        try:
            gt = _literal(a)[-1].strip(".").strip("\n")
            flags = _literal(y)
            if variant == "2025-10" and not isinstance(p, str):
                raise AttributeError(f"{type(math.nan if p is None else p).__name__!r} object has no attribute 'strip'")
            pred = str(math.nan if p is None else p).strip(".").strip("\n")
            if q == "Conversational":
                flags = flags[-1:]
            scores.append(chartqapro_score(gt, pred, flags))
            extracted.append(pred)
            status.append("ok")
        except Exception as e:  # noqa: BLE001 - the reference raises here: recorded, not raised
            scores.append(None)
            extracted.append(None)
            status.append("reference_error")
            error = error or f"row {i}: {type(e).__name__}: {e} (the reference raises)"
    return scores, extracted, status, error, splits


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "countbenchqa",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLMEvalKit result table of CountBenchQA, ZEROBench, TallyQA, MTVQA or ERQA.

    ``rows``: every input row in order, plus ``extracted`` (what the rule compared),
    ``rule``, ``score`` (1.0/0.0) and ``status`` (``ok``). ``report``: what VLMEvalKit
    writes (or returns, for ZEROBench and CountBenchQA ``2025-05``). ``stats``: counts,
    the variant and ``reference_error`` where the reference would raise (the report's
    values are then null). No judge; ``seed`` is unused.
    """
    frame = _check_frame(frame)
    bench = benchmark.lower() if isinstance(benchmark, str) else None
    if bench not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if judge is not None:
        raise ValueError(f"{bench}: the reference evaluation has no judge step")
    variants = BENCHMARKS[bench]
    variant = variants[0] if variant is None else variant
    if variant not in variants:
        raise ValueError(f"{bench}: unknown variant {variant!r}; expected one of {', '.join(map(repr, variants))}")
    _require(frame, "prediction", bench)

    error: str | None = None
    n = frame.height
    if bench == "countbenchqa":
        answers = "answer" if variant == "2025-09" else "answers"
        _require(frame, answers, bench)
        hit, extracted, rule = _countbench(frame, answers)
        k = int(hit.sum())
        frac = k / n if n else 0
        report = _one_row({"accuracy": frac * 100 if variant == "2025-09" else frac})
    elif bench == "zerobench":
        _require(frame, "answers", bench)
        hit, extracted, rule = _zerobench(frame)
        report = _one_row({"accuracy": int(hit.sum()) / n if n else math.nan})
    elif bench == "tallyqa":
        _require(frame, "answer", bench)
        hit, extracted, rule, error = _tally(frame)
        report = _one_row({"TallyQA": None if error else (int(hit.sum()) / n if n else math.nan)})
    elif bench == "mtvqa":
        for c in ("answer", "category"):
            _require(frame, c, bench)
        old = variant == "2024-07"
        if "split" in frame.columns and not old:  # the 2024-07 MTVQA_eval checks no split
            bad = pandas_str(frame["split"]).str.to_lowercase() != "test"
            if bad.any():
                error = f"row {bad.arg_true()[0]}: split is not 'test' (AssertionError upstream)"
        pred = _mtvqa_norm(pandas_str(frame["prediction"]))
        # 2024-07: only the prediction loses its periods.
        ans = (_norm if old else _mtvqa_norm)(pandas_str(frame["answer"]))
        hit = pl.DataFrame({"p": pred, "a": ans}).select(pl.col("p").str.contains(pl.col("a"), literal=True))[:, 0]
        extracted, rule = pred, pl.Series(["in" if h else "not_in" for h in hit.to_list()], dtype=pl.String)
        kind, cats = pandas_column(frame["category"])
        cat_text = cats.fill_null("NaN") if kind == "object" else pl.Series([("NaN" if isinstance(v, float) and v != v else str(v)) for v in cats.to_list()])
        groups: dict[str, list[int]] = {}
        for i, c in enumerate(cat_text.to_list()):
            groups.setdefault(c, [])
            if i == 0 and not old:
                groups.setdefault("Average", [])
        values: dict[str, float | None] = {}
        per = pl.DataFrame({"c": cat_text, "h": hit}).group_by("c", maintain_order=True).agg(pl.len(), pl.col("h").sum())
        counts = {c: (ln, int(h)) for c, ln, h in per.iter_rows()}
        total = (n, int(hit.sum()))
        for c in groups:
            ln, h = total if (c == "Average" and not old) else counts[c]
            if c == "Average" and c in counts and not old:  # a category named Average adds to the same list
                ln, h = n + counts[c][0], total[1] + counts[c][1]
            values[c] = None if error else ((h / ln) if old else (h / ln) * 100)
        report = _one_row(values)
    elif bench == "da2k":
        for c in ("answer", "index"):
            _require(frame, c, bench)
        hit, extracted, rule = _da2k(frame)
        values: dict[str, Any] = {"overall": float(hit.cast(pl.Float64).mean()) if n else math.nan}
        if "scene_category" in frame.columns:
            cats = pandas_str(frame["scene_category"])
            per = (
                pl.DataFrame({"c": cats, "h": hit.cast(pl.Float64)})
                .filter(pl.col("c") != "nan")
                .group_by("c")
                .agg(pl.col("h").sum().alias("k"), pl.len().alias("n"))
                .sort("c")
            )
            values["by_category"] = {c: k / m for c, k, m in per.iter_rows()}
        report = pl.DataFrame([values])
    elif bench == "tdbench_grounding":
        for c in ("answer", "index"):
            _require(frame, c, bench)
        scores, extracted, rule, order = _tdbench(frame, variant)
        hit = pl.Series(scores, dtype=pl.Float64)
        # sum(scores) / len(scores) in the sorted order, summed left to right as Python does.
        avg: float | int = sum(scores[i] for i in order) / n if n else 0
        metric = "Average Centroid Containment" if variant == "centroid" else "Average IoU"
        report = pl.DataFrame({"Metric": [metric, "Total Samples"], "Score": [float(avg), float(n)]})
    elif bench == "chartqapro":
        for c in ("answer", "year", "question_type"):
            _require(frame, c, bench)
        scores, extracted_l, status_l, error, splits = _chartqapro(frame, variant)
        hit = pl.Series(scores, dtype=pl.Float64)
        extracted = pl.Series(extracted_l, dtype=pl.String)
        rule = pl.Series(status_l, dtype=pl.String)
        groups: dict[Any, list[float]] = {}
        for q, v in zip(splits, scores):
            groups.setdefault(q, []).append(v if v is not None else math.nan)
        names = [("nan" if isinstance(q, float) and q != q else str(q)) for q in groups] + ["Overall"]
        vals: list[float | None] = [sum(v) / len(v) for v in groups.values()] + [sum(x if x is not None else 0 for x in scores) / n if n else None]
        if "Overall" in names[:-1]:  # a question type named Overall: the total overwrites it in place
            vals[names.index("Overall")] = vals.pop()
            names.pop()
        if error:
            vals = [None] * len(vals)
        report = pl.DataFrame({"0": names, "1": vals}, schema={"0": pl.String, "1": pl.Float64})
    else:  # erqa
        _require(frame, "answer", bench)
        _require(frame, "category", bench)
        pred = _norm(pandas_str(frame["prediction"]))
        ans = _norm(pandas_str(frame["answer"]))
        hit = pred == ans
        extracted, rule = pred, pl.Series(["equal" if h else "differ" for h in hit.to_list()], dtype=pl.String)
        kind, cats = pandas_column(frame["category"])
        cat_text = cats if kind == "object" else pl.Series([None if isinstance(v, float) and v != v else str(v) for v in cats.to_list()], dtype=pl.String)
        report, error = _erqa_report(hit, cat_text)
        if error:
            report = report.with_columns(pl.lit(None, pl.Float64).alias("Accuracy (%)"))

    status = pl.Series(["ok"] * n, dtype=pl.String) if bench != "chartqapro" else rule
    rows = frame.with_columns(
        extracted.alias("extracted"),
        rule.alias("rule"),
        hit.cast(pl.Float64).alias("score"),
        status.alias("status"),
    )
    correct = float(hit.cast(pl.Float64).sum()) if bench in ("tdbench_grounding", "chartqapro") else int(hit.sum())
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": variant,
        "rows": n,
        "tasks": n,
        "correct": correct,
        "accuracy": correct / n if n else math.nan,
        "rules": dict(sorted(pl.DataFrame({"rule": rule}).group_by("rule").len().iter_rows())),
        "reference_error": error,
        "crashed_rows": 0,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
