"""Yes / no questions (VLMEvalKit ``ImageYORNDataset``): MME, POPE, HallusionBench, AMBER and
VSR-zeroshot, laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_yorn.py`` and
``vlmeval/dataset/utils/yorn.py``. Extraction is ``YOrN_Extraction``: lowercase the answer,
apply ``process_punctuation``, split on whitespace; the word ``yes`` without ``no`` is
``Yes``, ``no`` without ``yes`` is ``No``, anything else ``Unknown``. A row scores when the
extracted word equals ``answer`` exactly (``Yes``/``No``, case-sensitive); ``Unknown`` rows
score 0, as in the reference without a judge (``exact_matching``). AMBER alone compares
``answer`` and the extracted word lowercased (its answers are ``yes``/``no``).

Variants (``process_punctuation``'s period rule; the ratings are the same in both):

* ``classic`` (default; VLMEvalKit 2024-03-19 … 2025-05-12, which wrote most archives,
  among them the VILA-1.5 tree of 2024-07-27): every ``.`` not followed by a digit goes.
* ``2025-05`` (928a95b0, 2025-05-13, still at head): a ``.`` after a digit stays too.

Both remove at most 32 periods (upstream passes ``re.UNICODE`` as ``re.sub``'s count). The
two differ only on answers with a period after a digit and more than 32 removable periods.

Ratings: ``MME_rating`` (perception, reasoning, per-category accuracy + accuracy+),
``POPE_rating`` (F1 as ``Overall``, acc, precision, recall per split; a row whose category
is ``a,b`` counts in both), ``Hallusion_rating`` (aAcc, fAcc, qAcc for Overall, each
category and each l2-category), ``AMBER_rating`` (accuracy per merged category in
first-seen order, then ``Avg ACC``, their mean; d358b42c, 2024-09-20, unchanged since) and
``VSR_rating`` (precision, recall, acc in percent, ``f1_score`` unscaled; 551c662a,
2025-07-20, unchanged since). The reference lists splits in ``set`` order, which changes
from run to run; here they are sorted.

Extraction runs natively over the Arrow column on all cores; the ratings are a few
group-bys.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import polars as pl
import pyarrow as pa

from gaia_fast import _native
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm.mcq import (
    JUDGE_POLICIES,
    _archive_method_line,
    _flag_counts,
    _flag_status,
    _method_stats,
)
from gaia_fast.scorers.vlm.recorded import Records, index_key_expr

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "yorn"

__all__ = ["BENCHMARKS", "MME_SUPER", "RULES", "VARIANTS", "grade", "judge_prompt", "yorn_extract", "yorn_extract_explained"]

#: ``grade(benchmark=...)`` names -> the rating they get.
BENCHMARKS = {"mme": "mme", "pope": "pope", "hallusionbench": "hallusionbench", "amber": "amber", "vsr": "vsr"}
VARIANTS: tuple[str, ...] = tuple(_native.YORN_VARIANTS)
RULES: tuple[str, ...] = tuple(_native.YORN_RULES)
DEFAULT_VARIANT = "classic"

#: MME's two super-categories, each the sum of its categories' scores, in this order.
MME_SUPER = {
    "perception": ("OCR", "artwork", "celebrity", "color", "count", "existence", "landmark", "position", "posters", "scene"),
    "reasoning": ("code_reasoning", "commonsense_reasoning", "numerical_calculation", "text_translation"),
}

Judge = Callable[[str], str]

_REASON = {
    "yes": "yes: the word 'yes' and not 'no'",
    "no": "no: the word 'no' and not 'yes'",
    "both": "both: the words 'yes' and 'no' (Unknown, scored 0 as the reference)",
    "neither": "neither: no word 'yes' or 'no' (Unknown, scored 0 as the reference)",
}

_PROMPT = (
    "You are an AI assistant who will help me to match an answer with two options of a question. "
    "The options are only Yes / No. "
    "You are provided with a question and an answer, "
    "and you need to find which option (Yes / No) is most similar to the answer. "
    "If the meaning of all options are significantly different from the answer, output Unknown. "
    "Your should output a single word among the following 3 choices: Yes, No, Unknown.\n"
    "Example 1: \n"
    "Question: Is the word in this image 'Hello'?\nAnswer: The word in this image is 'Hello'.\nYour output: Yes\n"
    "Example 2: \n"
    "Question: Is the word in this image 'Hello'?\n"
    "Answer: The word in this image is not 'Hello'.\nYour output: No\n"
    "Example 3: \n"
    "Question: {}?\nAnswer: {}\nYour output: "
)


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown yes/no variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")


def yorn_extract_explained(output: object, variant: str = DEFAULT_VARIANT) -> tuple[str, str]:
    """VLMEvalKit ``YOrN_Extraction`` with the rule that decided (:data:`RULES`).
    ``output`` is ``str()``-ed first, as upstream does with every prediction."""
    _check_variant(variant)
    return _native.yorn_extract_explained(output if isinstance(output, str) else str(output), variant)


def yorn_extract(output: object, variant: str = DEFAULT_VARIANT) -> str:
    """VLMEvalKit ``YOrN_Extraction``: ``"Yes"``, ``"No"`` or ``"Unknown"``."""
    return yorn_extract_explained(output, variant)[0]


def judge_prompt(question: object, prediction: object) -> str:
    """The reference's ``YOrN_match_prompt`` for one row."""
    return _PROMPT.format(question, prediction)


# --------------------------------------------------------------------------------------
# Plumbing
# --------------------------------------------------------------------------------------




def _text(series: pl.Series) -> pl.Series:
    return series if series.dtype == pl.String else series.cast(pl.String)


def _require(frame: pl.DataFrame, name: str, benchmark: str) -> None:
    if name not in frame.columns:
        raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")


def _pct(k: int, n: int) -> float:
    """``np.mean`` of ``n`` 0/1 values summing to ``k``, times 100 (NaN when empty)."""
    return (k / n) * 100 if n else math.nan


# --------------------------------------------------------------------------------------
# Ratings
# --------------------------------------------------------------------------------------


def _mme(work: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    per_image = work.group_by("category", "image_path", maintain_order=True).agg(
        pl.len().alias("n"),
        pl.col("hit").sum().alias("k"),
        (pl.col("hit").first().cast(pl.Int64) * pl.col("hit").get(1, null_on_oob=True).cast(pl.Int64)).alias("plus"),
    )
    per_cat = per_image.group_by("category", maintain_order=True).agg(
        pl.col("n").sum(),
        pl.col("k").sum(),
        pl.len().alias("images"),
        pl.col("plus").sum().alias("plus_k"),
        (pl.col("n") < 2).any().alias("short"),
        pl.col("image_path").filter(pl.col("n") < 2).first().alias("short_image"),
    )
    error = None
    scores: dict[str, float | None] = {}
    for cat, n, k, images, plus_k, short, short_image in per_cat.iter_rows():
        name = "nan" if cat is None else cat
        if short:
            error = error or f"MME_rating: image {short_image!r} of category {name!r} has one question (IndexError upstream)"
            scores[name] = None
            continue
        scores[name] = _pct(k, n) + _pct(plus_k, images)
    values: dict[str, float | None] = {}
    for sc, cates in MME_SUPER.items():
        base: float | None = 0
        for c in cates:
            if c not in scores:
                error = error or f"MME_rating: no rows of category {c!r} (KeyError upstream)"
                base = None
                break
            v = scores[c]
            base = None if v is None or base is None else base + v
        values[sc] = None if base is None else float(base)
    values.update(scores)
    report = pl.DataFrame({c: [v] for c, v in values.items()}, schema={c: pl.Float64 for c in values})
    return report, error


def _pope(work: pl.DataFrame) -> tuple[pl.DataFrame, tuple[int, int]]:
    """The report and (rows, right) counted by its Overall row (a row per category part)."""
    # One row per (row, category part): the reference's str.split(',') + explode.
    rows = work.select(
        pl.col("category").str.split(",").alias("split"),
        (pl.col("answer") == "Yes").fill_null(False).alias("t"),
        (pl.col("extracted") == "Yes").alias("p"),
        "hit",
    ).explode("split")
    agg = [
        pl.len().alias("n"),
        pl.col("hit").sum().alias("k"),
        (pl.col("t") & pl.col("p")).sum().alias("tp"),
        (~pl.col("t") & pl.col("p")).sum().alias("fp"),
        (pl.col("t") & ~pl.col("p")).sum().alias("fn"),
    ]
    overall = rows.select(pl.lit("Overall").alias("split"), *agg)
    splits = rows.filter(pl.col("split").is_not_null()).group_by("split").agg(*agg).sort("split")
    out = []
    counted = overall.row(0)[1:3]
    for name, n, k, tp, fp, fn in pl.concat([overall, splits]).iter_rows():
        precision = tp / (tp + fp) if (tp + fp) != 0 else 0
        recall = tp / (tp + fn) if (tp + fn) != 0 else 0
        f1 = 2 * (precision * recall) / (precision + recall) if (precision + recall) != 0 else 0
        out.append((name, f1 * 100, _pct(k, n), precision * 100, recall * 100))
    report = pl.DataFrame(
        out,
        schema={"split": pl.String, "Overall": pl.Float64, "acc": pl.Float64, "precision": pl.Float64, "recall": pl.Float64},
        orient="row",
    )
    return report, counted


#: ``AMBER_rating``'s merged categories; any other category is its own column.
AMBER_CATEGORIES = {
    "discriminative-attribute-state": "Attribute",
    "discriminative-attribute-number": "Attribute",
    "discriminative-attribute-action": "Attribute",
    "discriminative-hallucination": "Existence",
    "discriminative-relation": "Relation",
    "relation": "Relation",
}


def _amber(work: pl.DataFrame) -> pl.DataFrame:
    """``AMBER_rating``: accuracy per merged category in first-seen order, then ``Avg ACC``,
    the mean of those. A missing category is one more group, which pandas writes as an
    empty column name."""
    merged = work.select(
        pl.col("category").replace(AMBER_CATEGORIES).fill_null("").alias("group"), "hit"
    )
    per = merged.group_by("group", maintain_order=True).agg(pl.len().alias("n"), pl.col("hit").sum().alias("k"))
    values = {g: _pct(k, n) for g, n, k in per.iter_rows()}
    values["Avg ACC"] = _native.np_mean(list(values.values()))
    return pl.DataFrame({c: [v] for c, v in values.items()}, schema={c: pl.Float64 for c in values})


def _vsr(work: pl.DataFrame) -> pl.DataFrame:
    """``VSR_rating``: precision, recall and accuracy in percent, and F1 as a fraction (the
    reference does not scale it)."""
    t = (work["answer"] == "Yes").fill_null(False)
    p = work["extracted"] == "Yes"
    tp, fp, fn = int((t & p).sum()), int((~t & p).sum()), int((t & ~p).sum())
    precision = tp / (tp + fp) if (tp + fp) != 0 else 0
    recall = tp / (tp + fn) if (tp + fn) != 0 else 0
    f1 = 2 * (precision * recall) / (precision + recall) if (precision + recall) != 0 else 0
    values = {
        "precision": precision * 100,
        "recall": recall * 100,
        "acc": _pct(int(work["hit"].sum()), work.height),
        "f1_score": float(f1),
    }
    return pl.DataFrame({c: [v] for c, v in values.items()}, schema={c: pl.Float64 for c in values})


_HALLUSION_SCHEMA = {"split": pl.String, "aAcc": pl.Float64, "fAcc": pl.Float64, "qAcc": pl.Float64}


def _hallusion(work: pl.DataFrame, has_category: bool) -> tuple[pl.DataFrame, str | None]:
    parts = work["index"].str.split("_")
    short = work.filter(parts.list.len().fill_null(0) < 6)
    if short.height:
        bad = short["index"][0]
        why = "is missing" if bad is None else "has fewer than 6 '_' parts"
        return pl.DataFrame(schema=_HALLUSION_SCHEMA), f"Hallusion_rating: index {bad!r} {why} (the reference raises)"
    keyed = work.with_columns(
        parts.list.get(3).alias("set_id"), parts.list.get(4).alias("figure_id"), parts.list.get(5).alias("question_id")
    )

    def one(name: str | None, sub: pl.DataFrame) -> tuple[str | None, float, float, float]:
        n = sub.height
        if n == 0:
            return name, math.nan, math.nan, math.nan
        figures = sub.group_by("l2", "set_id", "figure_id").agg(pl.col("hit").all())
        questions = sub.group_by("l2", "set_id", "question_id").agg(pl.col("hit").all())
        return (
            name,
            _pct(int(sub["hit"].sum()), n),
            _pct(int(figures["hit"].sum()), figures.height),
            _pct(int(questions["hit"].sum()), questions.height),
        )

    out = [one("Overall", keyed)]
    groups = (["category"] if has_category else []) + ["l2"]
    for col in groups:
        values = keyed[col].unique().sort(nulls_last=True).to_list()
        for v in values:
            # A missing value equals no row in the reference (NaN == NaN is False): NaN metrics.
            sub = keyed.clear() if v is None else keyed.filter(pl.col(col) == v)
            out.append(one(v, sub))
    return pl.DataFrame(out, schema=_HALLUSION_SCHEMA, orient="row"), None


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def _judge_rows(frame: pl.DataFrame, work: pl.DataFrame, judge: Judge, variant: str) -> pl.DataFrame:
    """Ask ``judge`` about each Unknown row (the reference's ``YOrN_auxeval``): its reply goes
    through the same extraction. One call per row (the reference retries at rising
    temperatures, which a cached judge cannot vary)."""
    if "question" not in frame.columns:
        raise ValueError("a judge needs the 'question' column")
    # Rows the extraction left Unknown and no record decided (a recorded Unknown is the
    # archive's own judge's answer: not asked again).
    unknown = (work["extracted"] == "Unknown") & work["rule"].is_in(["both", "neither"])
    idx = unknown.arg_true().to_list()
    questions = _text(frame["question"]).to_list()
    preds = work["prediction"].to_list()
    extracted = work["extracted"].to_list()
    rules = work["rule"].to_list()
    status = work["status"].to_list()
    reasons = work["reason"].to_list()
    for i in idx:
        try:
            reply = judge(judge_prompt(questions[i], preds[i]))
        except Exception as e:  # noqa: BLE001 - one failed call marks its row, the rest go on
            status[i] = "judge_error"
            reasons[i] = f"judge_error: {type(e).__name__}: {e}; the row stays Unknown"
            continue
        ans, _ = yorn_extract_explained(reply, variant)
        extracted[i] = ans
        rules[i] = "judge"
        status[i] = "ok" if ans != "Unknown" else "unknown"
        reasons[i] = f"judge: the judge's reply reads {ans}" + ("" if ans != "Unknown" else " (scored 0 as the reference)")
    return work.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("rule", rules, pl.String),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "mme",
    variant: str | None = None,
    seed: int = 0,
    judge: Judge | None = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade a VLMEvalKit yes/no result table (``{model}_{MME,POPE,HallusionBench,AMBER,
    VSR-zeroshot}.xlsx``).

    Needs ``prediction`` and ``answer``; MME and AMBER also ``category`` and ``image_path``; POPE
    ``category`` (optional: without it only ``Overall``); HallusionBench ``index``
    (``…_set_figure_question``) and ``l2-category`` (``category`` optional).

    ``rows``: every input row in order, plus ``extracted`` (``Yes``/``No``/``Unknown``),
    ``rule`` (``yes``, ``no``, ``both``, ``neither``, or ``judge``), ``score`` (1.0/0.0),
    ``status`` (``ok``; ``unknown`` where no answer was read, scored 0 as the reference;
    ``judge_error``) and ``reason``. ``report``: the dataset's ``_score.csv``. ``stats``:
    counts, rule counts, the variant, and ``reference_error`` where the reference would
    raise on the table (the affected report values are null).

    ``variant``: ``"classic"`` (default) or ``"2025-05"``. ``judge`` (prompt -> reply),
    when given, is asked about the Unknown rows. ``seed`` is unused (no random draw).

    ``recorded`` (:func:`gaia_fast.scorers.vlm.recorded.find_records`: ``{stem}_auxmatch``
    and ``{stem}_tmp.pkl``) with ``judge_policy="auto"``: rows the extraction leaves
    ``Unknown`` take the archive's answer for their index, as ``ImageYORNDataset.evaluate``
    does: the ``extracted`` of ``_auxmatch`` (which it re-reads instead of extracting again),
    else the ``_tmp.pkl`` judge answer when it is not ``Unknown``. Unknown rows with no
    record go to ``judge`` if given, else get ``status="needs_judge"`` (no score, left out
    of the rating). Without ``recorded`` they stay Unknown (scored 0) as before.
    ``judge_policy="none"``: ``exact_matching`` (no records, no judge). Rows with no
    prediction, an answer other than Yes/No, or a repeated index get their own status
    (``no_prediction``, ``answer_not_in_options``, ``duplicate_index``). ``stats`` gains
    ``decided``, ``flags``, ``method``, ``archive_method``, ``matches_archive``.
    """
    frame = _check_frame(frame)
    bench = BENCHMARKS.get(benchmark.lower()) if isinstance(benchmark, str) else None
    if bench is None:
        raise ValueError(f"unknown yes/no benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    # VSR-zeroshot was added after 928a95b0: it never ran the classic period rule.
    variant = ("2025-05" if bench == "vsr" else DEFAULT_VARIANT) if variant is None else variant
    _check_variant(variant)
    if judge_policy not in JUDGE_POLICIES:
        raise ValueError(f"judge_policy must be one of {', '.join(map(repr, JUDGE_POLICIES))}, not {judge_policy!r}")
    if recorded is not None and not isinstance(recorded, Records):
        raise TypeError(f"recorded must be a Records (find_records) or None, not {type(recorded).__name__}")
    if judge_policy == "none":
        judge = None  # exact_matching: VLMEvalKit asks no model
    for name in ("prediction", "answer"):
        _require(frame, name, bench)
    if bench in ("mme", "amber"):
        _require(frame, "category", bench)
        _require(frame, "image_path", bench)
    if bench == "hallusionbench":
        _require(frame, "index", bench)
        _require(frame, "l2-category", bench)

    # str(x) of every prediction: a missing cell is NaN, read as "nan".
    pred = _text(frame["prediction"]).fill_null("nan")
    codes = pl.Series(_native.yorn_arrow(pred, variant))
    rule = codes.replace_strict(list(range(len(RULES))), list(RULES), return_dtype=pl.String)
    work = pl.DataFrame({"prediction": pred, "rule": rule}).with_columns(
        pl.col("rule").replace_strict({"yes": "Yes", "no": "No"}, default="Unknown", return_dtype=pl.String).alias("extracted"),
        pl.when(pl.col("rule").is_in(["yes", "no"])).then(pl.lit("ok")).otherwise(pl.lit("unknown")).alias("status"),
        pl.col("rule").replace_strict(_REASON, return_dtype=pl.String).alias("reason"),
    )
    keys = _text(frame["index"]).to_list() if "index" in frame.columns else None
    rules_extracted = work["extracted"].to_list()
    use_records = judge_policy == "auto" and recorded is not None
    replay: dict[str, int] = {}
    if use_records:
        work, replay = _replay(work, keys, recorded)
    if judge is not None:
        work = _judge_rows(frame, work, judge, variant)
    elif use_records:
        work = work.with_columns(
            pl.when(pl.col("rule").is_in(["both", "neither"])).then(pl.lit("needs_judge")).otherwise(pl.col("status")).alias("status"),
            pl.when(pl.col("rule").is_in(["both", "neither"]))
            .then(pl.lit("needs_judge: no 'yes'/'no' word and the recorded files have no answer for this index; not counted"))
            .otherwise(pl.col("reason"))
            .alias("reason"),
        )
    answer = _text(frame["answer"])
    needs = work["status"] == "needs_judge"
    # AMBER alone compares ignoring case (its answers are "yes"/"no").
    hit = (pl.col("answer").str.to_lowercase() == pl.col("extracted").str.to_lowercase()) if bench == "amber" else (pl.col("answer") == pl.col("extracted"))
    work = work.with_columns(answer.alias("answer")).with_columns(hit.fill_null(False).alias("hit"))
    full_work, full_frame = work, frame
    if needs.any():  # undecided rows are left out of the rating
        work, frame = work.filter(~needs), frame.filter(~needs)

    error = None
    n = frame.height
    tasks, correct = n, int(work["hit"].sum())
    if bench == "mme":
        rated = work.with_columns(_text(frame["category"]).alias("category"), _text(frame["image_path"]).alias("image_path"))
        report, error = _mme(rated)
    elif bench == "amber":
        report = _amber(work.with_columns(_text(frame["category"]).alias("category")))
    elif bench == "vsr":
        report = _vsr(work)
    elif bench == "pope":
        category = _text(frame["category"]) if "category" in frame.columns else pl.Series("category", [None] * frame.height, pl.String)
        report, (tasks, correct) = _pope(work.with_columns(category.alias("category")))
    else:
        has_category = "category" in frame.columns
        rated = work.with_columns(
            _text(frame["index"]).alias("index"),
            _text(frame["l2-category"]).alias("l2"),
            (_text(frame["category"]) if has_category else pl.lit(None, pl.String)).alias("category"),
        )
        report, error = _hallusion(rated, has_category)

    work, frame = full_work, full_frame
    flags = _flags(frame)
    status = pl.DataFrame({"status": work["status"]}).select(_flag_status(pl.col("status"), flags))["status"]
    rows = frame.with_columns(
        work["extracted"],
        work["rule"],
        pl.when(needs).then(None).otherwise(work["hit"].cast(pl.Float64)).alias("score"),
        status,
        work["reason"],
    )
    n = frame.height  # every input row (tasks/correct count the decided ones)
    routes = _routes(work["rule"].to_list(), work["status"].to_list(), replay, judge is not None)
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": variant,
        "rows": n,
        # POPE counts a row once per split it belongs to, as its report's acc does.
        "tasks": tasks,
        "correct": correct,
        "accuracy": correct / tasks if tasks else math.nan,
        "unknown_rows": int((work["extracted"] == "Unknown").sum()),
        "rules": dict(sorted(work.group_by("rule").len().iter_rows())),
        "judge": judge is not None,
        "judge_error_rows": int((work["status"] == "judge_error").sum()),
        "reference_error": error,
        "crashed_rows": 0,
    }
    stats["status"] = dict(sorted(rows.group_by(rows["status"]).len().iter_rows()))
    stats.update(replay)
    stats.update(
        _method_stats(
            routes, "rows", judge_policy, recorded,
            _archive_method(recorded, keys, rules_extracted) if recorded is not None and recorded.files else None,
            _disagreements(keys, rules_extracted, recorded) if judge_policy == "auto" else [],
        )
    )
    stats["flags"] = _flag_counts(flags)
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# Recorded answers (_auxmatch, _tmp.pkl) and row truth flags
# --------------------------------------------------------------------------------------


def _recorded_answer(rec: dict[str, Any] | None) -> tuple[str | None, str]:
    """The archive's final answer for a row the rules left Unknown, and where it came from:
    ``_auxmatch``'s ``extracted`` (VLMEvalKit re-reads that file), else the judge's
    ``_tmp.pkl`` answer (used when it is not Unknown; an Unknown there is the judge's last
    word after its retries)."""
    if rec is None:
        return None, ""
    ext = rec.get("extracted")
    if isinstance(ext, str) and ext in ("Yes", "No", "Unknown"):
        return ext, "_auxmatch"
    tmp = rec.get("tmp")
    if isinstance(tmp, str):
        return (tmp if tmp in ("Yes", "No") else "Unknown"), "_tmp.pkl"
    return None, ""


def _replay(work: pl.DataFrame, keys: list[str | None] | None, records: Records) -> tuple[pl.DataFrame, dict[str, int]]:
    counts = {"recorded_judge": 0, "recorded_unknown": 0}
    if keys is None:
        return work, {}
    rules = work["rule"].to_list()
    extracted = work["extracted"].to_list()
    status = work["status"].to_list()
    reasons = work["reason"].to_list()
    for i, rule in enumerate(rules):
        if rule not in ("both", "neither") or keys[i] is None:
            continue
        ans, src = _recorded_answer(records.get(keys[i]))
        if ans is None:
            continue
        extracted[i] = ans
        if ans == "Unknown":
            rules[i] = "recorded_unknown"
            status[i] = "unknown"
            reasons[i] = f"recorded ({src}): the archive also ended with Unknown (scored 0 as the reference)"
        else:
            rules[i] = "recorded_judge"
            status[i] = "ok"
            reasons[i] = f"recorded ({src}): the archive's judge answered {ans}"
        counts[rules[i]] += 1
    work = work.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("rule", rules, pl.String),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    return work, {k: v for k, v in counts.items() if v}


def _routes(rules: list[str], status: list[str], replay: dict[str, int], live: bool) -> dict[str, int]:
    """Rows per decision path, in the route names :func:`_method_stats` counts."""
    out: dict[str, int] = {}
    for rule, st in zip(rules, status):
        if rule in ("yes", "no"):
            route = "prefetch"
        elif rule.startswith("recorded"):
            route = rule
        elif rule == "judge" or st == "judge_error":
            route = "judge"
        elif st == "needs_judge":
            route = "needs_judge"
        else:
            route = "exact_matching"  # left Unknown, scored 0 (no judge)
        out[route] = out.get(route, 0) + 1
    return out


def _archive_method(records: Records, keys: list[str | None] | None, rules_extracted: list[str]) -> str:
    """A ``_tmp.pkl`` exists only where a judge was asked; else the ``_auxmatch`` answers
    of the rows the extraction leaves Unknown show whether a judge read them."""
    judge = exact = 0
    for key, ext in zip(keys or [], rules_extracted):
        if ext != "Unknown" or key is None:
            continue
        rec = records.get(key)
        ans, _ = _recorded_answer(rec)
        if rec is not None and "tmp" in rec:
            judge += 1  # the judge was asked about it (an Unknown there is its answer)
        elif ans is not None:
            judge += ans in ("Yes", "No")
            exact += ans == "Unknown"
    return _archive_method_line(records, judge, exact)


def _disagreements(keys: list[str | None] | None, rules_extracted: list[str], records: Records | None) -> list[str]:
    """Indexes the extraction reads as Yes/No where the archive's ``_auxmatch`` says otherwise."""
    if records is None or keys is None or "extracted" not in records.table().columns:
        return []
    rec = records.table().select("key", pl.col("extracted").alias("rec"))
    ours = pl.DataFrame({"k": keys, "ext": rules_extracted}, schema={"k": pl.String, "ext": pl.String})
    joined = ours.with_columns(index_key_expr(pl.col("k")).alias("key")).join(rec, on="key", how="left", maintain_order="left")
    return joined.filter((pl.col("ext") != "Unknown") & pl.col("rec").is_not_null() & (pl.col("rec") != pl.col("ext")))["k"].to_list()


def _flags(frame: pl.DataFrame) -> pl.DataFrame:
    pred = _text(frame["prediction"])
    answer = _text(frame["answer"])
    if "index" in frame.columns:
        keys = _text(frame["index"]).str.strip_chars()
        dup = keys.is_duplicated() & keys.is_not_null()
    else:
        dup = pl.Series([False] * frame.height)
    return pl.DataFrame(
        {
            "no_prediction": pred.is_null() | (pred.str.strip_chars() == ""),
            "answer_not_in_options": ~answer.is_in(["Yes", "No"]).fill_null(False),
            "duplicate_index": dup,
        }
    )
