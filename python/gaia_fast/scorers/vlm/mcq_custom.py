"""``ImageMCQDataset`` subclasses with an evaluate of their own (not ``mcq_vanilla_eval``):
MedQ-Bench MCQ, MedQ-DEG-Bench, VisuLogic, PuzzleVQA, VisualPuzzles, MME-RealWorld, A4Bench and
OmniEarth-Bench. Each reads a letter from the prediction with a
regex rule, compares it with the answer and writes its own report; no judge.

* ``medqbench`` (``MedqbenchMCQDataset.evaluate``, ca9a644d 2025-10-13, unchanged to head):
  the letter rule over ``A``-``D``; ``_score.json`` with ``overall_accuracy``, ``correct``,
  ``total`` and ``<modality>_accuracy`` per ``modality`` (in order of appearance).
* ``medqdeg`` (``MedQDEGBenchDataset.evaluate``, 8f66d2ea 2026-05-11): the same rule over
  ``A``-``E``; ``_score.json`` with ``Overall``, ``Total`` and sorted ``Modality_*``,
  ``DegType_*``, ``Severity_*``, ``Source_*`` accuracies.
* ``visulogic`` (``VisuLogic_acc``, 6ea82af1 2025-04-25): the last ``\\boxed{}`` holding one
  letter, else an "answer is" phrase; a row per fixed category with ``tot``, ``hit`` and
  ``acc`` (percent). Upstream divides by zero when a category has no row; here that ``acc``
  is null and ``stats["reference_error"]`` says so.
* ``puzzlevqa`` / ``visualpuzzles`` (``PuzzleVQA_acc`` / ``VisulPuzzles_acc``, 0bac5c06
  2026-02-25): the last ``answer: X`` (any case); PuzzleVQA's answer is the letter of the
  option (``options``, a Python list literal) equal to it; VisualPuzzles compares with the
  answer letter, and reports per category and per difficulty (``type`` column). Fixed rows as
  VisuLogic's, the same zero-division note.
* ``a4bench`` (``AffordanceDataset.evaluate``, bf6319e8 2025-06-11): answer and prediction
  are Python list literals, a hit when their sorted forms are equal; ``Accuracy`` (one row).
  Upstream raises on any row that is not such a literal; here it is ``status="error"`` and
  ``stats["reference_error"]`` names it.
* ``omniearth`` (``OmniEarthMCQBench.evaluate``, 5f65b4af 2025-06-21): its own
  ``extract_characters_regex`` (letters ``A``-``G``, the set of letters read) equal to the set
  of the answer's letters; one row: each ``category/l2/l3/l4`` task's accuracy (sorted),
  ``Sphere macro: X`` per category, ``Overall macro`` (pandas' row mean of all of those, a
  NumPy pairwise sum) and ``Overall micro``.
* ``mme-realworld`` (``MMERealWorld.evaluate`` + ``get_dimension_rating``): see
  :func:`grade_mme_realworld` for its four eras; ``_rating.json``.

Pure Python: the rules are a few regexes per row.
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame

__all__ = ["BENCHMARKS", "VARIANTS", "answer_colon", "extract_characters_regex", "grade", "grade_mme_realworld", "medq_letter", "option_letter", "visulogic_answer"]

BENCHMARKS = ("medqbench", "medqdeg", "visulogic", "puzzlevqa", "visualpuzzles", "mme-realworld", "a4bench", "omniearth")
#: One rule each from its first day to head (None), except MME-RealWorld's eras.
VARIANTS = (None, "2024-09", "2025-09", "2025-10", "2026-06")
VISULOGIC_CATEGORIES = (
    "Overall",
    "Quantitative Reasoning",
    "Spatial Reasoning",
    "Positional Reasoning",
    "Attribute Reasoning",
    "Stylistic Reasoning",
    "Other",
)


def _isna(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _py_str(v: Any) -> str:
    """``str()`` as pandas-loaded cells read (an empty cell is NaN: ``'nan'``)."""
    return "nan" if _isna(v) else str(v)


def medq_letter(prediction: Any, letters: str = "ABCD") -> Any:
    """MedQ-Bench's ``_extract_option_letter`` (``letters="ABCDE"``: MedQ-DEG-Bench's): the
    prediction alone as a letter, a leading ``X.``/``X)``/``X ``, "answer is X" / "option
    X", a leading ``X -``/``X:``, else the first letter standing alone; otherwise the
    stripped prediction itself. An empty cell stays empty (None)."""
    if _isna(prediction):
        return None
    p = str(prediction).strip()
    up = p.upper()
    if len(up) == 1 and up in letters:
        return up
    cls = f"[{letters[0]}-{letters[-1]}]"
    for pattern, how in (
        (rf"^({cls})[.\)\s]", re.match),
        (rf"(?:answer\s+is\s+|option\s+)({cls})(?:\s|$|[^A-Z])", re.search),
        (rf"^({cls})\s*[-:]", re.search),
    ):
        m = how(pattern, up)
        if m:
            return m.group(1)
    found = re.findall(rf"(?:^|[^A-Z])({cls})(?:[^A-Z]|$)", up)
    return found[0] if found else p


_BOXED = re.compile(r"\\boxed\{|[^\\]\}")
_LANG_FLAGS = (
    "answer:",
    "the final answer is:",
    "the answer is option:",
    "the answer is:",
    "the correct answer is option:",
    "the correct answer is:",
    "the answer should be:",
    "the final answer is",
    "the answer is option",
    "the answer is",
    "the correct answer is option",
    "the correct answer is",
    "the answer should be",
)
_VL_OPTIONS = ("A", "B", "C", "D")


def _last_boxed(text: str) -> str:
    """VisuLogic's ``extract_last_boxed_content``: the outermost last ``\\boxed{...}`` with
    ``\\text{``, ``\\rm{``, ``\\mathbf{``, ``$`` and every ``}`` removed; the whole text where
    there is none or it looks like a template, a choice or more than two characters."""
    if len(text) < 3:
        return text
    stack: list[int] = []
    last = None
    for m in _BOXED.finditer(text):
        if m.group().endswith("\\boxed{"):
            stack.append(m.end())
        elif m.group().endswith("}") and stack:
            start = stack.pop()
            if not stack:
                last = text[start : m.start() + 1]
    if last is None:  # upstream: None.lower() raises and the except returns the text
        return text
    for cmd in ("\\text{", "\\rm{", "\\mathbf{", "$"):
        last = last.replace(cmd, "")
    last = last.replace("}", "")
    if "letter" in last.lower() or "or" in last or len(last) > 2:
        return text
    return last


def _lang(ans: str) -> str:
    ans = ans.replace("<|endoftext|>", "")
    for c in _VL_OPTIONS:
        if ans.endswith((f" {c}.", f" ({c}).")) or ans.startswith((f"{c}\n", f"({c})\n", f"({c}) {c}\n")):
            return c
    low = ans.lower()
    for flag in _LANG_FLAGS:
        if flag in low:
            low = low.split(flag)[-1].strip()
            low = low.split("\n")[0].split(".")[0]
            if low.upper() in _VL_OPTIONS:
                return low.upper()
    return ans


def visulogic_answer(prediction: Any) -> tuple[str, str]:
    """VisuLogic's ``extract_answer``: ``(letter, "box" | "lang")`` or ``("Z", "error")``."""
    text = _py_str(prediction)
    boxed = _last_boxed(text).strip()
    if boxed in _VL_OPTIONS:
        return boxed, "box"
    lang = _lang(text)
    if lang in _VL_OPTIONS:
        return lang, "lang"
    return "Z", "error"


PUZZLEVQA_CATEGORIES = (
    "overall", "grid_number", "size_grid", "rectangle_height_color", "shape_size_hexagon",
    "rectangle_height_number", "shape_reflect", "circle_size_number", "polygon_sides_color",
    "color_overlap_squares", "color_size_circle", "venn", "size_cycle", "polygon_sides_number",
    "shape_size_grid", "color_hexagon", "grid_number_color", "color_grid", "shape_morph", "triangle",
    "color_number_hexagon",
)  # fmt: skip
VISUALPUZZLES_CATEGORIES = ("overall", "spatial", "algorithmic", "analogical", "inductive", "deductive")
VISUALPUZZLES_LEVELS = ("easy", "medium", "hard", "overall")
_ANSWER_COLON = re.compile(r"\banswer\s*:\s*([A-Z])\b", re.IGNORECASE)


def answer_colon(prediction: Any) -> str | None:
    """PuzzleVQA's / VisualPuzzles' ``extract_answer``: the letter of the last ``answer: X``,
    else ``"Z"``; None where upstream raises (a prediction that is not text)."""
    if not isinstance(prediction, str):
        return None
    found = _ANSWER_COLON.findall(prediction)
    return found[-1] if found else "Z"


def option_letter(options: Any, answer: Any) -> str | None:
    """PuzzleVQA's ``to_choice_letter(eval(options), answer)``: the letter of the first option
    equal to the answer (both ``str()``-ed and stripped); None where upstream raises."""
    import ast

    try:
        opts = ast.literal_eval(options) if isinstance(options, str) else None
    except (ValueError, SyntaxError):
        return None
    if not isinstance(opts, (list, tuple)):
        return None
    want = _py_str(answer).strip()
    for i, o in enumerate(opts):
        if str(o).strip() == want:
            return chr(ord("A") + i)
    return None


def _tally(keys: tuple[str, ...], groups: list[Any], hits: list[bool], total: str) -> tuple[pl.DataFrame, str | None]:
    """``tot``/``hit``/``acc`` (percent) for each fixed key; ``total`` counts every row."""
    tot = dict.fromkeys(keys, 0)
    hit = dict.fromkeys(keys, 0)
    for g, h in zip(groups, hits):
        for k in (total, g):
            tot[k] = tot.get(k, 0) + 1
            hit[k] = hit.get(k, 0) + int(h)
    empty = [k for k in keys if tot[k] == 0]
    error = f"ZeroDivisionError: {empty[0]!r} has no row" if empty else None
    frame = pl.DataFrame(
        {"tot": [tot[k] for k in keys], "hit": [hit[k] for k in keys], "acc": [hit[k] / tot[k] * 100 if tot[k] else None for k in keys]},
        schema={"tot": pl.Int64, "hit": pl.Int64, "acc": pl.Float64},
    )
    return frame, error


def _col(frame: pl.DataFrame, name: str) -> str | None:
    return name if name in frame.columns else None


def _need(frame: pl.DataFrame, name: str, benchmark: str) -> str:
    if name not in frame.columns:
        raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {frame.columns})")
    return name


def _mean(hits: list[bool]) -> float:
    return sum(hits) / len(hits) if hits else math.nan


def grade(frame: pl.DataFrame, *, benchmark: str, variant: str | None = None, seed: int = 0, judge: Any = None, log: bool = False) -> GradeResult:
    """Grade a MedQ-Bench MCQ (``benchmark="medqbench"``), MedQ-DEG-Bench (``"medqdeg"``) or
    VisuLogic (``"visulogic"``) result table. ``rows`` adds ``extracted``, ``score``,
    ``status`` and ``reason``; ``report`` is the reference's report (one row for the
    ``_score.json`` ones). No judge, no variants; ``seed`` is unused (no random step)."""
    frame = _check_frame(frame)
    if benchmark not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(BENCHMARKS)}")
    if benchmark == "mme-realworld":
        if judge is not None:
            raise ValueError("mme-realworld uses no judge (its reference has none)")
        return grade_mme_realworld(frame, variant)
    if variant is not None:
        raise ValueError(f"{benchmark} has a single rule; variant must be None")
    if benchmark == "a4bench":
        if judge is not None:
            raise ValueError("a4bench uses no judge (its reference has none)")
        return _grade_a4bench(frame)
    if benchmark == "omniearth":
        if judge is not None:
            raise ValueError("omniearth uses no judge (its reference has none)")
        return _grade_omniearth(frame)
    if judge is not None:
        raise ValueError(f"{benchmark} uses no judge (its reference has none)")
    preds = frame[_need(frame, "prediction", benchmark)].to_list()
    answers = frame[_need(frame, "answer", benchmark)].to_list()
    n = frame.height
    stats: dict[str, Any] = {"benchmark": benchmark, "variant": None, "rows": n}
    if benchmark == "visulogic":
        got = [visulogic_answer(p) for p in preds]
        extracted = [g[0] for g in got]
        hits = [e == a for e, a in zip(extracted, answers)]
        reasons = [f"VisuLogic extract_answer: {g[1]}" for g in got]
        cats = frame[_need(frame, "category", benchmark)].to_list()
        tot = {c: 0 for c in VISULOGIC_CATEGORIES}
        hit = {c: 0 for c in VISULOGIC_CATEGORIES}
        for c, h in zip(cats, hits):
            for k in ("Overall", c):
                tot[k] = tot.get(k, 0) + 1
                hit[k] = hit.get(k, 0) + int(h)
        empty = [c for c in VISULOGIC_CATEGORIES if tot[c] == 0]
        if empty:
            stats["reference_error"] = f"ZeroDivisionError: category {empty[0]!r} has no row (VisuLogic_acc)"
        report = pl.DataFrame(
            {
                "category": list(VISULOGIC_CATEGORIES),
                "tot": [tot[c] for c in VISULOGIC_CATEGORIES],
                "hit": [hit[c] for c in VISULOGIC_CATEGORIES],
                "acc": [hit[c] / tot[c] * 100 if tot[c] else None for c in VISULOGIC_CATEGORIES],
            },
            schema={"category": pl.String, "tot": pl.Int64, "hit": pl.Int64, "acc": pl.Float64},
        )
    elif benchmark in ("puzzlevqa", "visualpuzzles"):
        extracted = [answer_colon(p) for p in preds]
        if benchmark == "puzzlevqa":
            opts = frame[_need(frame, "options", benchmark)].to_list()
            gold = [option_letter(o, a) for o, a in zip(opts, answers)]
        else:
            gold = [a if isinstance(a, str) else None for a in answers]
        crash = next((i for i, (e, g) in enumerate(zip(extracted, gold)) if e is None or g is None), None)
        if crash is not None:
            stats["reference_error"] = (
                f"row {crash + 2}: the reference raises (a prediction that is not text, or an answer "
                + ("not among the options)" if benchmark == "puzzlevqa" else "that is not text)")
            )
        hits = [e is not None and g is not None and e.lower() == g.lower() for e, g in zip(extracted, gold)]
        reasons = [f"last 'answer: X' of the prediction: {e}" if e is not None else "the reference raises on this row" for e in extracted]
        cats = frame[_need(frame, "category", benchmark)].to_list()
        if benchmark == "puzzlevqa":
            table, err = _tally(PUZZLEVQA_CATEGORIES, cats, hits, "overall")
            report = table.insert_column(0, pl.Series("category", list(PUZZLEVQA_CATEGORIES), pl.String))
        else:
            by_cat, err = _tally(VISUALPUZZLES_CATEGORIES, cats, hits, "overall")
            levels = frame[_need(frame, "difficulty", benchmark)].to_list()
            by_level, err2 = _tally(VISUALPUZZLES_LEVELS, levels, hits, "overall")
            err = err or err2
            report = pl.concat(
                [
                    by_cat.insert_column(0, pl.Series("group", list(VISUALPUZZLES_CATEGORIES), pl.String)).with_columns(pl.lit("category").alias("type")),
                    by_level.insert_column(0, pl.Series("group", list(VISUALPUZZLES_LEVELS), pl.String)).with_columns(pl.lit("level").alias("type")),
                ]
            )
        if err:
            stats["reference_error"] = stats.get("reference_error") or err
    else:
        letters = "ABCD" if benchmark == "medqbench" else "ABCDE"
        extracted = [medq_letter(p, letters) for p in preds]
        if benchmark == "medqbench":
            hits = [_py_str(a).upper() == _py_str(e).upper() for a, e in zip(answers, extracted)]
        else:  # the answer is str()-ed and stripped first
            hits = [_py_str(a).strip().upper() == _py_str(e).upper() for a, e in zip(answers, extracted)]
        reasons = [
            f"{benchmark} _extract_option_letter: {'no letter, the prediction itself' if e is None or len(str(e)) != 1 else e}"
            for e in extracted
        ]
        report = _medq_report(frame, hits, benchmark)
        if n == 0:
            stats["reference_error"] = "ZeroDivisionError: an empty result table"
    correct = sum(hits)
    stats.update({"tasks": n, "correct": float(correct), "accuracy": correct / n if n else None})
    status = ["ok"] * n
    if benchmark in ("puzzlevqa", "visualpuzzles"):
        status = ["ok" if e is not None and g is not None else "error" for e, g in zip(extracted, gold)]
    rows = frame.with_columns(
        pl.Series("extracted", [None if e is None else str(e) for e in extracted], pl.String),
        pl.Series("score", [float(h) if st == "ok" else None for h, st in zip(hits, status)], pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    return GradeResult(rows=rows, report=report, stats=stats)


def _medq_report(frame: pl.DataFrame, hits: list[bool], benchmark: str) -> pl.DataFrame:
    n = len(hits)
    values: dict[str, Any] = {}
    if benchmark == "medqbench":
        values["overall_accuracy"] = sum(hits) / n if n else None
        values["correct"] = sum(hits)
        values["total"] = n
        if "modality" in frame.columns:
            mods = frame["modality"].to_list()
            for m in dict.fromkeys(mods):  # pandas' unique(): order of appearance
                if _isna(m):
                    continue
                values[f"{m}_accuracy"] = _mean([h for h, x in zip(hits, mods) if x == m])
    else:
        values["Overall"] = _mean(hits)
        values["Total"] = n
        for col, prefix in (("modality", "Modality"), ("degradation_type", "DegType"), ("degradation_severity", "Severity"), ("source", "Source")):
            if col not in frame.columns:
                continue
            vals = frame[col].to_list()
            for v in sorted({v for v in vals if not _isna(v)}):
                values[f"{prefix}_{v}"] = _mean([h for h, x in zip(hits, vals) if x == v])
    schema = {k: (pl.Int64 if k in ("correct", "total", "Total") else pl.Float64) for k in values}
    return pl.DataFrame({k: [v] for k, v in values.items()}, schema=schema)


# --------------------------------------------------------------------------------------
# MME-RealWorld (MMERealWorld.evaluate + get_dimension_rating)
# --------------------------------------------------------------------------------------

#: ``--variant`` of MME-RealWorld, by the upstream commit that made it.
MME_RW_VARIANTS = ("2024-09", "2025-09", "2025-10", "2026-06")
_MME_RW_TASKS = ("Reasoning", "Perception")
_MME_RW_SUBTASKS = ("Monitoring", "Autonomous_Driving", "OCR with Complex Context", "Diagram and Table", "Remote Sensing")
_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)


def extract_characters_regex(s: str, variant: str = "2026-06") -> str:
    """``multiple_choice.extract_characters_regex`` (options ``A``-``E``): answer prefixes
    removed, then the first of ``A``-``E``; a short text inside one of ``(a)``..``(e)`` gives
    that letter (an empty text gives ``A``); ``''`` for none. Before 2026-06-17 (1445ec4f)
    two pairs of prefixes lacked a comma and were never removed as such."""
    s = s.strip()
    prefixes = ["The best answer is", "The correct answer is", "The answer is", "The answer"]
    if variant == "2026-06":
        prefixes += ["The best option is", "The correct option is", "Best answer:", "Best option:"]
    else:
        prefixes += ["The best option isThe correct option is", "Best answer:Best option:"]
    for p in prefixes:
        s = s.replace(p, "")
    if len(s.split()) > 10 and not re.search("[ABCDE]", s):
        return ""
    m = re.search(r"[ABCDE]", s)
    if m is None:
        for choice in ("(A)", "(B)", "(C)", "(D)", "(E)"):
            if s.lower() in choice.lower():
                return choice[1]
        return ""
    return m[0]


def _int_label(v: Any, n: int) -> int | None:
    """The row label ``data.loc[v]`` hits on a 0..n-1 RangeIndex, else None (a new row)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, str):  # result tables read numbers as text; a number cell is what pandas sees
        try:
            v = int(v.strip())
        except ValueError:
            return None
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer()):
        i = int(v)
        return i if 0 <= i < n else None
    return None


def grade_mme_realworld(frame: pl.DataFrame, variant: str | None = None) -> GradeResult:
    """MME-RealWorld: ``extract_characters_regex`` per row and ``get_dimension_rating``.

    Variants: ``2024-09`` (5b288984: the score of the row whose ``index`` is ``i`` lands on
    the row at position ``i``, a label lookup; an ``index`` outside ``0..n-1`` appends a row
    that makes the rating raise), ``2025-09`` (9cc14cd0: upstream raised on every file, so
    this variant is an error naming why), ``2025-10`` (55fba747: ``<answer>..</answer>`` read
    first, uppercased; each row scored by the first row of its ``index``) and ``2026-06`` (1445ec4f: the prefix list fixed; head). ``report``
    is the ``_rating.json`` object as one row of nested structs."""
    variant = "2026-06" if variant is None else variant
    if variant not in MME_RW_VARIANTS:
        raise ValueError(f"unknown MME-RealWorld variant {variant!r}; expected one of {', '.join(MME_RW_VARIANTS)}")
    for c in ("index", "answer", "prediction", "category", "l2-category"):
        _need(frame, c, "MME-RealWorld")
    if variant == "2025-09":
        raise ValueError(
            "MME-RealWorld: VLMEvalKit's evaluate from 9cc14cd0 to 55fba747 (2025-09-12 .. 2025-10-28) raised on every "
            "file: it reads a 'target_instances' column (KeyError without it) and calls evaluate_box_iou, defined "
            "without self or @staticmethod, as a method (TypeError); there is no report to reproduce"
        )
    n = frame.height
    idx, ans, pred = frame["index"].to_list(), frame["answer"].to_list(), frame["prediction"].to_list()
    first: dict[Any, int] = {}
    for j, v in enumerate(idx):
        first.setdefault(v, j)
    scores: list[float | None] = [None] * n
    extracted: list[str | None] = [None] * n
    error = None
    for j, v in enumerate(idx):
        k = first[v]
        p = pred[k]
        if not isinstance(p, str):
            error = f"row {k + 2}: prediction {p!r} is not text (upstream: .strip() / re.search raise)"
            break
        if variant != "2024-09":
            m = _ANSWER_TAG.search(p)
            p = m.group(1).strip().upper() if m else p
        e = extract_characters_regex(p, variant)
        s = 0.0 if e == "" else float(e == ans[k])
        if variant == "2024-09":
            label = _int_label(v, n)
            if label is None:
                error = f"index {v!r} is not a row label 0..{n - 1}: upstream's data.loc[idx] appends a row and the rating raises"
                break
            scores[label], extracted[label] = s, e
        else:
            scores[j], extracted[j] = s, e
    rating, rating_error = (None, None) if error else _dimension_rating(frame["category"].to_list(), frame["l2-category"].to_list(), scores)
    error = error or rating_error
    report = pl.DataFrame([rating]) if rating is not None else pl.DataFrame()
    status = ["error" if error else ("ok" if s is not None else "not_counted") for s in scores]
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", [None if error else s for s in scores], pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", [f"extract_characters_regex ({variant}): {e!r}" if e is not None else None for e in extracted], pl.String),
    )
    ok = [s for s in scores if s is not None] if not error else []
    stats = {
        "benchmark": "mme-realworld",
        "variant": variant,
        "rows": n,
        "tasks": len(ok),
        "correct": float(sum(ok)),
        "accuracy": sum(ok) / len(ok) if ok else None,
        "reference_error": error,
    }
    return GradeResult(rows=rows, report=report, stats=stats)


def _dimension_rating(cats: list[Any], l2: list[Any], scores: list[float | None]) -> tuple[dict[str, Any] | None, str | None]:
    """``get_dimension_rating`` over the scored rows, in row order (first-seen category order)."""
    results: dict[str, Any] = {"Overall": {}}
    for t in _MME_RW_TASKS:
        results[t] = {s: {} for s in _MME_RW_SUBTASKS}
    for j, (c, c2, s) in enumerate(zip(cats, l2, scores)):
        if not isinstance(c, str) or not isinstance(c2, str):
            return None, f"row {j + 2}: category / l2-category is not text (upstream: .split raises)"
        parts = c.split("/")
        if len(parts) < 2:
            return None, f"row {j + 2}: category {c!r} has no '/' (IndexError upstream)"
        task, sub = parts[0], parts[1]
        cat = c2.lower()
        if "attribute" in cat:
            cat = cat.split("/")[0] + "/attribute"
        if task not in _MME_RW_TASKS or sub not in _MME_RW_SUBTASKS:
            return None, f"row {j + 2}: category {c!r} is not one of the rating's tasks / subtasks (KeyError upstream)"
        if s is None:  # NaN >= 0 is False
            continue
        cell = results[task][sub].setdefault(cat, {"true": 0.0, "false": 0.0})
        cell["true"] += s
        cell["false"] += 1 - s
    succ_all = sum_all = 0.0
    for task, values in results.items():
        cnt_task = sum_task = 0.0
        for sub, sub_values in values.items():
            cnt_sub = sum_sub = 0.0
            for cat, d in list(sub_values.items()):
                cnt_sub += d["true"]
                sum_sub += d["false"] + d["true"]
                sub_values[cat] = d["true"] / (d["false"] + d["true"])
            cnt_task += cnt_sub
            sum_task += sum_sub
            sub_values["Avg"] = cnt_sub / sum_sub if sum_sub else 0.0
        succ_all += cnt_task
        sum_all += sum_task
        values["Avg"] = cnt_task / sum_task if sum_task else 0.0
    if not sum_all:
        return None, "ZeroDivisionError: no scored row (get_dimension_rating)"
    results["Overall"] = succ_all / sum_all
    return results, None


# --------------------------------------------------------------------------------------
# A4Bench (AffordanceDataset.is_match)
# --------------------------------------------------------------------------------------


def _sorted_literal(value: Any) -> list[Any]:
    """``sorted(ast.literal_eval(value))``; raises as upstream does."""
    import ast

    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return sorted(ast.literal_eval(value))


def a4bench_match(answer: Any, prediction: Any) -> bool | None:
    """``AffordanceDataset.is_match``: the two literals hold the same items; None where
    upstream raises (not a literal, not sortable)."""
    try:
        return _sorted_literal(answer) == _sorted_literal(prediction)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _grade_a4bench(frame: pl.DataFrame) -> GradeResult:
    answers = frame[_need(frame, "answer", "a4bench")].to_list()
    preds = frame[_need(frame, "prediction", "a4bench")].to_list()
    matches = [a4bench_match(a, p) for a, p in zip(answers, preds)]
    bad = next((i for i, m in enumerate(matches) if m is None), None)
    ok = [m for m in matches if m is not None]
    n = frame.height
    stats: dict[str, Any] = {
        "benchmark": "a4bench",
        "variant": None,
        "rows": n,
        "tasks": len(ok),
        "correct": float(sum(ok)),
        "accuracy": sum(ok) / len(ok) if ok else None,
        "reference_error": None if bad is None else f"row {bad + 2}: answer or prediction is not a sortable Python literal (upstream: is_match raises)",
    }
    report = pl.DataFrame({"Accuracy": [stats["accuracy"]]}, schema={"Accuracy": pl.Float64})
    rows = frame.with_columns(
        pl.Series("extracted", [p if isinstance(p, str) else None for p in preds], pl.String),
        pl.Series("score", [None if m is None else float(m) for m in matches], pl.Float64),
        pl.Series("status", ["error" if m is None else "ok" for m in matches], pl.String),
        pl.Series("reason", ["sorted literals " + ("equal" if m else "differ") if m is not None else "not a sortable literal" for m in matches], pl.String),
    )
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# OmniEarth-Bench (OmniEarthMCQBench.evaluate)
# --------------------------------------------------------------------------------------


def omniearth_letters(s: str) -> str:
    """``OmniEarthMCQBench.extract_characters_regex``: after removing its answer prefixes (two
    pairs run together, as upstream has them), ``''`` when no uppercase ``A``-``G``; else the
    letters in ``(x)``, or failing that every ``a``-``g`` / ``A``-``G`` of the text, uppercased,
    as a set (returned sorted: only the set is compared)."""
    s = s.strip()
    for p in (
        "The best answer is",
        "The correct answer is",
        "The answer is",
        "The answer",
        "The best option isThe correct option is",
        "Best answer:Best option:",
    ):
        s = s.replace(p, "")
    if not re.search("[ABCDEFG]", s):
        return ""
    found = re.findall(r"\(([a-gA-G])\)", s)
    if not found:
        found = re.findall(r"(?:^|\s)?([a-gA-G])(?:$|[\s,.])?", s)
    if not found:
        found = re.findall(r"[a-gA-G]", s)
    return "".join(sorted({m.upper() for m in found}))


def _grade_omniearth(frame: pl.DataFrame) -> GradeResult:
    from gaia_fast.scorers.vlm.mcq_reports import numpy_sum

    for c in ("prediction", "answer", "category", "l2-category", "l3-category", "l4-category"):
        _need(frame, c, "omniearth")
    preds = [_py_str(p) for p in frame["prediction"].to_list()]
    answers = frame["answer"].to_list()
    levels = [frame[c].to_list() for c in ("category", "l2-category", "l3-category", "l4-category")]
    n = frame.height
    stats_t: dict[str, list[int]] = {}
    extracted, hits, status = [], [], []
    error = None
    for i in range(n):
        task = "/".join(_py_str(lv[i]) for lv in levels)
        cell = stats_t.setdefault(task, [0, 0])
        cell[1] += 1
        e = omniearth_letters(preds[i])
        extracted.append(e)
        a = answers[i]
        if not isinstance(a, str):
            error = error or f"row {i + 2}: answer {a!r} is not text (upstream: set() of it raises)"
            hits.append(False)
            status.append("error")
            continue
        h = set(e) == set(a)
        hits.append(h)
        status.append("ok")
        cell[0] += int(h)
    values: dict[str, float] = {t: c / tot for t, (c, tot) in sorted(stats_t.items())}
    spheres: dict[str, list[float]] = {}
    for t, acc in values.items():
        spheres.setdefault(t.split("/")[0], []).append(acc)
    row: dict[str, float] = dict(values)
    for sphere, accs in spheres.items():
        total = 0.0
        for a in accs:  # Python's sum()
            total += a
        row[f"Sphere macro: {sphere}"] = total / len(accs)
    row["Overall macro"] = numpy_sum(list(row.values())) / len(row) if row else math.nan
    correct = sum(hits)
    row["Overall micro"] = correct / n if n else math.nan
    report = pl.DataFrame({k: [v] for k, v in row.items()}, schema={k: pl.Float64 for k in row})
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", [float(h) if st == "ok" else None for h, st in zip(hits, status)], pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", [f"letters read: {e!r}" for e in extracted], pl.String),
    )
    stats = {"benchmark": "omniearth", "variant": None, "rows": n, "tasks": n, "correct": float(correct), "accuracy": correct / n if n else None, "reference_error": error}
    return GradeResult(rows=rows, report=report, stats=stats)
