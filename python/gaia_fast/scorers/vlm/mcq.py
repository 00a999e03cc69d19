"""Multiple choice: VMCBench (DEV/TEST), LiveXivVQA and MMMU (2023-12), laid out as extract → score → aggregate.

References (``specs/vlmevalkit.md``):

* ``vmcbench``: VMCBench's MMMU-style ``parse_multi_choice_response`` (§2.2), row scoring
  ``get_mc_score`` (§2.1) and ``report_vmc_acc`` (§2.3), VLMEvalKit 392c8e7f (identical in
  the DCVLR fork).
* ``livexivvqa``: ``ImageMCQDataset`` evaluation as the DCVLR fork ran it (§1.6): VLMEvalKit
  ``can_infer`` (``variant="dcvlr"`` by default; the upstream matchers ``"classic"``,
  ``"2025-08"``, ``"2026-06"`` on request), then the optional LLM judge, then
  ``report_acc``. The same flow re-grades other ``ImageMCQDataset`` archives (MMStar,
  MMBench, …) with the matcher their VLMEvalKit version used.
* ``mmmu``: VLMEvalKit 24ebca6b (2023-12) ``MMMU_eval`` with its own ``can_infer``
  (``variant="2023-12"``; realdata README §3.2): the four ``_acc.xlsx`` sheets.

Deterministic by design: where the references draw an unseeded ``random.choice`` (VMCBench
with no candidate; LiveXivVQA after three failed judge calls), gaia-fast draws with a hash of
``(seed, row key)`` (the ``index`` column, else the row number), so the same seed gives the
same numbers on every run and on any machine. ``stats`` always reports the accuracy with the
fallback, the accuracy counting fallback rows as wrong, the fallback rate and the expected
accuracy (a fallback row credited with its chance of a hit: 1/k when the answer is in the
pool of k letters).

Parsing runs natively over Arrow columns on all cores; only judge calls loop in Python.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import polars as pl
import pyarrow as pa

from gaia_fast import _native
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._replay import method_keys, records_summary
from gaia_fast.scorers.vlm.mcq_tables import (
    GROUPS,
    JUDGE_PROMPT_CN,
    JUDGE_PROMPT_EN,
    MMB_ABBRS,
    MMMU_LETTERS,
    MMMU_SHEETS,
    MMT_ABBRS,
    OPTIONS_HEADER,
    VARIANTS,
    VMC_COLUMNS,
)
from gaia_fast.scorers.vlm.recorded import EXACT_MATCHING_TEXT, RANDOM_TEXT, Records, index_key_expr, log_text

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "mcq"

__all__ = [
    "BENCHMARKS",
    "VARIANTS",
    "can_infer",
    "can_infer_explained",
    "grade",
    "parse_multi_choice",
    "parse_multi_choice_explained",
]

#: Benchmark names accepted by ``grade(benchmark=...)`` (case-insensitive).
BENCHMARKS = {
    "vmcbench": "vmcbench",
    "vmcbench_dev": "vmcbench",
    "vmcbench_test": "vmcbench",
    "livexivvqa": "livexivvqa",
    "mmmu": "mmmu",
    "mmmu_dev_val": "mmmu",
    "mcq": "mcq",
    "mcq-circular": "mcq-circular",
}
#: The ImageMCQDataset flow postdates the 2023-12 matcher, which only ``mmmu`` uses.
_LIVEXIV_VARIANTS = tuple(v for v in VARIANTS if v != "2023-12")

Judge = Callable[[str], str]

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_RULES: tuple[str, ...] = tuple(_native.MCQ_RULES)
_STAGE_C_RULES = ("none_after_text", "option_text", "option_text_last")
_API_FAILURE = "Failed to obtain answer via API"
_EXACT_MATCHING_LOG = "Match Log: Failed in Prefetch, no GPT-based answer matching under `exact_matching` policy.. "
_RANDOM_LOG = "Match Log: Failed to predict, thus randomly generate one. . "

# --------------------------------------------------------------------------------------
# Scalar functions (gf.vlm.*)
# --------------------------------------------------------------------------------------


_KEYS = frozenset(_LETTERS)


def _letters_texts(choices: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """Choice letters as one string and the option values; invalid keys raise."""
    if type(choices) is dict:
        try:
            letters = "".join(choices)
        except TypeError:
            letters = ""
        if len(letters) == len(choices) and _KEYS.issuperset(choices):
            return letters, list(choices.values())
    checked = _check_choices(choices)  # raises the precise error
    return "".join(checked), list(checked.values())


def _check_choices(choices: Mapping[str, Any]) -> dict[str, Any]:
    """``choices`` as a dict; a non-mapping is a TypeError, a key that is not one letter
    ``"A"``..``"Z"`` a ValueError."""
    if not isinstance(choices, Mapping):
        raise TypeError(f"choices must be a mapping letter -> option text, not {type(choices).__name__}")
    bad = next((k for k in choices if not (isinstance(k, str) and len(k) == 1 and k in _KEYS)), _KEYS)
    if bad is not _KEYS:
        raise ValueError(f"choice keys must be single letters 'A'..'Z', got {bad!r}")
    return dict(choices)


def can_infer_explained(answer: object, choices: Mapping[str, Any], variant: str = "classic") -> tuple[str | None, str]:
    """VLMEvalKit ``can_infer`` with the rule that decided (see ``reference.vlm_mcq.RULES``).

    ``answer`` and the option texts are ``str()``-ed as upstream (``None`` reads as
    ``"None"``). Returns ``(letter | "Z", rule)`` or ``(None, "none")``.
    """
    letters, texts = _letters_texts(choices)
    if type(answer) is not str:
        answer = str(answer)
    try:
        return _native.can_infer_explained(answer, letters, texts, variant)
    except TypeError:  # option values that are not str: str() them, as upstream
        return _native.can_infer_explained(answer, letters, [t if isinstance(t, str) else str(t) for t in texts], variant)


def can_infer(answer: object, choices: Mapping[str, Any], variant: str = "classic") -> str | None:
    """VLMEvalKit ``can_infer(answer, choices)``: a choice letter, ``"Z"`` (refusal / none
    of them), or ``None`` (no match; upstream ``False``).

    ``choices`` maps letters ``"A"``..``"Z"`` to option texts. ``variant``: ``"classic"``
    (VLMEvalKit 2024-03 … 2025-08-03), ``"2025-08"``, ``"2026-06"`` (upstream HEAD) or
    ``"dcvlr"`` (the DCVLR fork that scored LiveXivVQA) or ``"2023-12"`` (VLMEvalKit
    24ebca6b: letters ``ABCDE`` whatever the options, the two Bard refusals give ``"E"``,
    no ``Z`` rule).
    """
    return can_infer_explained(answer, choices, variant)[0]


def parse_multi_choice_explained(response: object, choices: Mapping[str, Any]) -> tuple[str | None, str]:
    """VMCBench/MMMU ``parse_multi_choice_response`` with the rule that decided.

    ``(None, "none" | "none_after_text")`` where the reference draws a random letter;
    ``(None, "error")`` where it raises (an option value that is not ``str`` once the
    option-text stage runs).
    """
    letters, texts = _letters_texts(choices)
    if type(response) is not str:
        response = str(response)
    if all(type(t) is str for t in texts):
        return _native.parse_multi_choice_explained(response, letters, texts)
    # An option that is not text: the letter stages never read option texts, and once the
    # option-text stage runs the reference calls .lower() on it and raises.
    letter, rule = _native.parse_multi_choice_explained(response, letters, [t if isinstance(t, str) else str(t) for t in texts])
    return (None, "error") if rule in _STAGE_C_RULES else (letter, rule)


def parse_multi_choice(response: object, choices: Mapping[str, Any]) -> str | None:
    """VMCBench's (MMMU's) ``parse_multi_choice_response(response, letters, options)``.

    Returns the letter, or ``None`` where the reference finds no candidate and draws a
    random letter (or raises). ``choices`` maps letters to option texts, in order (ties go
    to the earlier letter).
    """
    return parse_multi_choice_explained(response, choices)[0]


# --------------------------------------------------------------------------------------
# Column plumbing
# --------------------------------------------------------------------------------------


def _u8(column: Any, name: str) -> pl.Series:
    """A native UInt8 result column as a Series (zero-copy through the Arrow C interface)."""
    return pl.Series(column).alias(name)


def _letter_series(codes: pl.Series) -> pl.Series:
    return codes.replace_strict(
        list(range(65, 91)), list(_LETTERS), default=None, return_dtype=pl.String
    ).alias(codes.name)


def _text(series: pl.Series) -> pl.Series:
    """A column as strings (Categorical/Enum/Null/numbers cast, as ``str()`` would show them)."""
    return series if series.dtype == pl.String else series.cast(pl.String)


def _is_text_dtype(dtype: pl.DataType) -> bool:
    return dtype in (pl.String, pl.Null, pl.Categorical) or isinstance(dtype, pl.Enum)


def _column_map(frame: pl.DataFrame, lower: bool) -> dict[str, str]:
    """Reference column name -> frame column name. With ``lower``, VLMEvalKit's load step:
    names are lowercased except single uppercase letters (a later duplicate wins)."""
    out: dict[str, str] = {}
    for name in frame.columns:
        key = name if (not lower or (len(name) == 1 and name in _LETTERS)) else name.lower()
        out.pop(key, None)
        out[key] = name
    return out


def _native_rows(
    frame: pl.DataFrame, cols: dict[str, str], letters: list[str], mode: str, variant: str, seed: int
) -> pl.DataFrame:
    pred = _text(frame[cols["prediction"]])
    options = [_text(frame[cols[ch]]) for ch in letters]
    keys = _text(frame[cols["index"]]) if "index" in cols else None
    out = _native.mcq_arrow(pred, "".join(letters), options, mode, variant, seed & ((1 << 64) - 1), keys)
    return pl.DataFrame(
        [
            _letter_series(_u8(out["extracted"], "parsed")),
            _u8(out["rule"], "rule").replace_strict(list(range(len(_RULES))), list(_RULES), return_dtype=pl.String),
            _letter_series(_u8(out["fallback"], "fallback")),
            _u8(out["pool"], "pool"),
        ]
    )




def _require(cols: dict[str, str], name: str, benchmark: str) -> None:
    if name not in cols:
        raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {sorted(cols)})")


def _rate(num: float, den: int) -> float:
    return num / den if den else math.nan


# --------------------------------------------------------------------------------------
# VMCBench
# --------------------------------------------------------------------------------------

_VMC_REASON = {
    "paren_or_dot": ("stage A: '(", ")' or '", ". ' in the response"),
    "paren_or_dot_last": ("stage A, several letters: the last '(", ")' wins", ""),
    "spaced_letter": ("stage B: ' ", " ' in the response", ""),
    "spaced_letter_last": ("stage B, several letters: the last ' ", " ' wins", ""),
    "option_text": ("stage C: the text of option ", " is in the response", ""),
    "option_text_last": ("stage C, several option texts: the text of ", " occurs last", ""),
}


def _grade_vmcbench(frame: pl.DataFrame, seed: int, missing_sources: str) -> GradeResult:
    cols = _column_map(frame, lower=False)
    _require(cols, "prediction", "vmcbench")
    _require(cols, "answer", "vmcbench")
    letters = [ch for ch in _LETTERS[:9] if ch in cols]
    n = frame.height
    if "A" in letters:
        parsed = _native_rows(frame, cols, letters, "vmcbench", "classic", seed)
    else:  # row["A"] raises KeyError upstream on every row
        parsed = pl.DataFrame(
            {"parsed": [None] * n, "rule": ["error"] * n, "fallback": [None] * n, "pool": [0] * n},
            schema={"parsed": pl.String, "rule": pl.String, "fallback": pl.String, "pool": pl.UInt8},
        )
    answer = _text(frame[cols["answer"]]).alias("answer")
    work = pl.concat([parsed, answer.to_frame()], how="horizontal")
    # Non-text option cells crash the option-text stage upstream (it calls .lower() on them).
    non_text = [ch for ch in letters if not _is_text_dtype(frame[cols[ch]].dtype)]
    crash = pl.col("rule") == "error"
    if non_text:
        has_non_text = pl.any_horizontal([frame[cols[ch]].is_not_null() for ch in non_text])
        crash = crash | (pl.col("rule").is_in(_STAGE_C_RULES) & has_non_text)
    in_pool = pl.any_horizontal(
        [(pl.col("answer") == ch) & frame[cols[ch]].is_not_null() for ch in letters]
    ) if letters else pl.lit(False)
    work = work.with_columns(
        crash.alias("_crash"),
        pl.coalesce("parsed", "fallback").alias("_pred"),
        (pl.col("fallback").is_not_null()).alias("_fallback"),
        in_pool.alias("_in_pool"),
    ).with_columns(
        pl.when(pl.col("_crash")).then(None).otherwise(pl.col("_pred")).alias("extracted"),
        pl.when(pl.col("_crash"))
        .then(None)
        .otherwise((pl.col("_pred") == pl.col("answer")).fill_null(False).cast(pl.Float64))
        .alias("score"),
        pl.when(pl.col("_crash")).then(pl.lit("error")).otherwise(pl.lit("ok")).alias("status"),
    )
    reason = pl.when(pl.col("_crash")).then(
        pl.when(pl.col("rule") == "error")
        .then(pl.lit("error: the result table has no column A (the reference raises KeyError)"))
        .otherwise(pl.lit("error: an option is not text and the option-text stage ran (the reference raises AttributeError)"))
    )
    reason = reason.when(pl.col("rule") == "option_a_missing").then(pl.lit("option_a_missing: option A is empty; the reference scores 0"))
    for rule, (pre, mid, post) in _VMC_REASON.items():
        parts = [pl.lit(f"{rule}: {pre}"), pl.col("parsed"), pl.lit(mid)]
        if post:
            parts += [pl.col("parsed"), pl.lit(post)]
        reason = reason.when(pl.col("rule") == rule).then(pl.concat_str(parts))
    reason = reason.otherwise(
        pl.concat_str(
            [
                pl.col("rule"),
                pl.lit(": no candidate"),
                pl.when(pl.col("rule") == "none").then(pl.lit(" (option-text stage not tried: at most 5 words)")).otherwise(pl.lit(" after the option-text stage")),
                pl.lit("; seeded fallback drew "),
                pl.col("fallback"),
                pl.lit(" of "),
                pl.col("pool").cast(pl.String),
                pl.lit(" letters (the reference draws at random)"),
            ]
        )
    )
    work = work.with_columns(reason.alias("reason"))
    rows = frame.with_columns(work.select("extracted", "score", "status", "reason").get_columns())

    ok = work.filter(~pl.col("_crash"))
    category = _text(frame[cols["category"]]) if "category" in cols else pl.Series("category", [None] * n, pl.String)
    values, error, missing = _report_vmc_acc(category.filter(~work["_crash"]), ok["score"], missing_sources)
    report = pl.DataFrame({c: [v] for c, v in values.items()}, schema={c: pl.Float64 for c in values})
    stats = _fallback_stats(ok, n, "vmcbench", None, seed)
    stats["reference_error"] = error
    stats["missing_sources"] = missing
    stats["crashed_rows"] = int(work["_crash"].sum())
    if stats["crashed_rows"]:
        stats["reference_error"] = stats["reference_error"] or "the reference raises on some rows (status 'error')"
    return GradeResult(rows=rows, report=report, stats=stats)


def _report_vmc_acc(category: pl.Series, hits: pl.Series, missing_sources: str) -> tuple[dict[str, float | None], str | None, list[str]]:
    """``report_vmc_acc`` from per-source sums: ``(columns, reference error, absent sources)``."""
    g = pl.DataFrame({"category": category, "hit": hits.cast(pl.Int64)}).group_by("category").agg(
        pl.col("hit").sum().alias("s"), pl.len().alias("n")
    )
    means = {c: s / k for c, s, k in g.iter_rows() if c is not None}
    total = len(hits)
    values: dict[str, float | None] = {"Overall": float(hits.sum()) / total if total else math.nan}
    error = None
    missing: list[str] = []
    for name, members in GROUPS.items():
        absent = [m for m in members if m not in means]
        if absent and error is None:
            if len(absent) == len(members):
                error = f"KeyError: \"None of [Index({list(members)!r}, dtype='str')] are in the [columns]\""
            else:
                error = f'KeyError: "{absent!r} not in index"'
        missing += absent
        present = [means[m] for m in members if m in means]
        if not present or (absent and missing_sources == "null"):
            values[name] = None
            continue
        acc = 0.0
        for v in present:  # pandas mean(axis=1): left to right
            acc += v
        values[name] = acc / len(present)
    for members in GROUPS.values():
        for m in members:
            values[m] = means.get(m)
    return {c: None if values[c] is None else _numpy_round2(values[c] * 100) for c in VMC_COLUMNS}, error, missing


def _numpy_round2(v: float) -> float:
    """``numpy.round(v, 2)``: scaled by 100, rounded half to even, scaled back (Python's
    ``round(v, 2)`` rounds the decimal value instead and can differ)."""
    return v if not math.isfinite(v) else round(v * 100) / 100


def _fallback_stats(ok: pl.DataFrame, n: int, benchmark: str, variant: str | None, seed: int) -> dict[str, Any]:
    """Accuracy with the fallback, without it, fallback rate and expected accuracy over the
    rows the reference scores (``ok`` needs ``score``, ``_fallback``, ``_in_pool``, ``pool``)."""
    scored = ok.height
    hits = float(ok["score"].sum()) if scored else 0.0
    fb = ok.filter(pl.col("_fallback"))
    fb_hits = float(fb["score"].sum()) if fb.height else 0.0
    credit = float((fb["_in_pool"].cast(pl.Float64) / fb["pool"].cast(pl.Float64)).sum()) if fb.height else 0.0
    return {
        "benchmark": benchmark,
        "variant": variant,
        "seed": seed,
        "rows": n,
        "scored_rows": scored,
        "status": {"ok": scored, "error": n - scored},
        "decided_by": dict(sorted(ok.group_by("rule").len().iter_rows())) if scored else {},
        "accuracy": _rate(hits, scored),
        "accuracy_no_fallback": _rate(hits - fb_hits, scored),
        "fallback_rows": fb.height,
        "fallback_rate": _rate(fb.height, scored),
        "expected_accuracy": _rate(hits - fb_hits + credit, scored),
    }


# --------------------------------------------------------------------------------------
# Recorded judge replies (the archive's own {stem}_{J}_result files) and row truth flags
# --------------------------------------------------------------------------------------

JUDGE_POLICIES = ("auto", "none")
_NEEDS_JUDGE = (
    "needs_judge: {} can_infer found no option and the recorded judge files have no entry for this index; "
    "not counted (pass a judge to decide it)"
)
#: Row statuses that keep VLMEvalKit's decision but say what is wrong with the row, in
#: the order a row takes them (a row with several takes the first).
FLAG_STATUSES = ("no_prediction", "answer_not_in_options", "duplicate_index")
_RULE_ROUTES = frozenset({"prefetch", "exact_matching", "prefetch_wrong", "prefetch_right"})
_LIVE_ROUTES = frozenset({"judge", "random_fallback", "judge_right", "judge_wrong"})


def _record_hit(rec: dict[str, Any] | None) -> float | None:
    """A record's ``hit`` as VLMEvalKit's ``report_acc`` averages it (0/1), or None."""
    if rec is None or rec.get("hit") is None:
        return None
    try:
        v = float(rec["hit"])
    except (TypeError, ValueError):
        text = str(rec["hit"]).strip().lower()
        v = 1.0 if text == "true" else 0.0 if text == "false" else math.nan
    return None if math.isnan(v) else v


def _replay_vanilla(
    frame: pl.DataFrame,
    cols: dict[str, str],
    letters: list[str],
    work: pl.DataFrame,
    open_rows: list[int],
    keys_all: list[str | None] | None,
    records: Records,
    variant: str,
) -> tuple[pl.DataFrame, list[int], dict[str, Any]]:
    """Rows ``can_infer`` left open take the archive's record of their index: VLMEvalKit's
    ``mcq_vanilla_eval`` reads ``result[index]['hit']``, so the recorded hit decides; the
    log says what produced it (``"Match Log: <judge reply>. "``, the random draw, the
    exact-matching fallback, or the archive's own matcher reading the prediction)."""
    counts = {"recorded_judge": 0, "recorded_random": 0, "recorded_exact_matching": 0, "recorded_prefetch": 0,
              "recorded_other": 0, "record_reply_disagrees": 0}
    if keys_all is None:
        return work, open_rows, counts
    sub = frame[open_rows]
    option_cols = {ch: _text(sub[cols[ch]]).to_list() for ch in letters}
    preds = _text(frame[cols["prediction"]]).fill_null("nan").gather(open_rows).to_list()
    answers = work["answer"].gather(open_rows).to_list()
    done: dict[int, tuple[str | None, str, str, float, str | None, int]] = {}
    left: list[int] = []
    who = f"recorded judge {records.judge}" if records.judge else "recorded judge"
    for j, i in enumerate(open_rows):
        key = keys_all[i]
        rec = records.get(key) if key is not None else None
        hit = _record_hit(rec)
        if hit is None:
            left.append(i)
            continue
        log = rec.get("log") if isinstance(rec.get("log"), str) else None
        text = log_text(log)
        choices = {ch: option_cols[ch][j] for ch in letters if option_cols[ch][j] is not None}
        pool = 0
        verdict = "right" if hit else "wrong"
        marker = text.strip() if text is not None else None  # the random-draw text ends with ". "
        if marker == EXACT_MATCHING_TEXT:
            opt, route = "Z", "recorded_exact_matching"
            reason = f"{who}: the archive found no option and fell back to exact matching (Z); its hit {hit:g} is kept"
        elif marker == RANDOM_TEXT:
            opt, route = None, "recorded_random"
            pool = len(choices) + (0 if "Z" in choices else 1)
            reason = f"{who}: three judge replies were unreadable and the archive drew a random letter; its recorded hit {hit:g} ({verdict}) is the draw it made"
        elif text is None:
            opt, route = None, "recorded_other"
            reason = f"{who}: the record has hit {hit:g} and no readable 'Match Log' ({log!r}); the hit is kept"
        elif text == preds[j]:
            opt, route = None, "recorded_prefetch"
            reason = f"{who}: the archive's own matcher read the prediction ({variant} can_infer does not); its hit {hit:g} is kept"
        else:
            opt = can_infer(text, choices, variant) if choices else None
            route = "recorded_judge"
            reason = f"{who}: the reply {text!r} reads {opt or 'no option'}; the recorded hit {hit:g} ({verdict}) decides, as in VLMEvalKit"
            if opt is not None and answers[j] is not None and (opt == answers[j]) != bool(hit):
                counts["record_reply_disagrees"] += 1
                reason += f" (the reply's letter against this file's answer {answers[j]} says otherwise: the archive's answer came from its dataset TSV)"
        counts[route] += 1
        done[i] = (opt, route, reason, hit, log, pool)
    if done:
        idx = pl.Series(list(done), dtype=pl.UInt32)
        vals = list(done.values())
        work = work.with_columns(
            work["extracted"].scatter(idx, pl.Series([v[0] for v in vals], dtype=pl.String)),
            work["route"].scatter(idx, pl.Series([v[1] for v in vals], dtype=pl.String)),
            work["reason_judge"].scatter(idx, pl.Series([v[2] for v in vals], dtype=pl.String)),
            work["_rec_hit"].scatter(idx, pl.Series([v[3] for v in vals], dtype=pl.Float64)),
            work["log_judge"].scatter(idx, pl.Series([v[4] for v in vals], dtype=pl.String)),
            work["pool"].scatter(idx, pl.Series([v[5] for v in vals], dtype=pl.Int64)),
        )
    return work, left, {k: v for k, v in counts.items() if v}


def _vanilla_archive_method(records: Records, keys_all: list[str | None] | None, preds: list[str]) -> str:
    """What the records say VLMEvalKit used: the judge's replies in the logs, or the
    exact-matching fallback it takes silently under the judge's file name. A log that is
    the row's own prediction was the rules' (``can_infer`` read it)."""
    if records.judge == "exact_matching":
        return "exact_matching"
    table = records.table()
    if "log" not in table.columns:
        return _archive_method_line(records, 0, 0)
    if "prediction" not in table.columns:
        table = table.with_columns(pl.lit(None, pl.String).alias("prediction"))
    if keys_all is not None:
        ours = pl.DataFrame({"k": keys_all, "p": preds}, schema={"k": pl.String, "p": pl.String})
        ours = ours.select(index_key_expr(pl.col("k")).alias("key"), pl.col("p")).unique("key", keep="last")
        table = table.join(ours, on="key", how="left").with_columns(pl.coalesce("prediction", "p").alias("prediction"))
    log = pl.col("log")
    wrapped = log.str.starts_with("Match Log: ") & log.str.ends_with(". ")
    text = pl.when(wrapped).then(log.str.slice(len("Match Log: ")).str.head(-2))
    kinds = table.select(
        (text.str.strip_chars() == EXACT_MATCHING_TEXT).fill_null(False).alias("exact"),
        (text.str.strip_chars() == RANDOM_TEXT).fill_null(False).alias("random"),
        (text.is_not_null() & pl.col("prediction").is_not_null() & (text != pl.col("prediction"))).fill_null(False).alias("other"),
    )
    exact = int(kinds["exact"].sum())
    judge = int(kinds["random"].sum()) + int((kinds["other"] & ~kinds["exact"] & ~kinds["random"]).sum())
    return _archive_method_line(records, judge, exact)


def _archive_method_line(records: Records, judge: int, exact: int) -> str:
    name = records.judge or "unnamed"
    if judge and exact:
        return f"judge {name} (and exact_matching for {exact} entries)"
    if judge:
        return f"judge {name}"
    if exact:
        return "exact_matching" + (f" (files named {name})" if records.judge and records.judge != "exact_matching" else "")
    return "rules only (no entry needed the judge" + (f"; files named {name})" if records.judge else ")")


def _vanilla_disagreements(work: pl.DataFrame, keys_all: list[str | None] | None, records: Records | None) -> list[str]:
    """Indexes the rules decided differently from the archive's record (another matcher, or
    another answer key)."""
    if records is None or keys_all is None or "hit" not in records.table().columns:
        return []
    rec = records.table().select("key", pl.col("hit").cast(pl.Float64, strict=False).alias("rec_hit"))
    ours = pl.DataFrame({"k": keys_all, "route": work["route"], "score": work["score"]}, schema_overrides={"k": pl.String})
    ours = ours.with_columns(index_key_expr(pl.col("k")).alias("key"))
    joined = ours.join(rec, on="key", how="left", maintain_order="left")
    bad = joined.filter((pl.col("route") == "prefetch") & pl.col("score").is_not_null() & (pl.col("rec_hit") != pl.col("score")))
    return bad["k"].to_list()


def _method_stats(
    routes: dict[str, int],
    unit: str,
    judge_policy: str,
    records: Records | None,
    archive_method: str | None,
    disagreements: list[str],
) -> dict[str, Any]:
    """The keys the pipeline reads: ``decided``, ``decided_unit``, ``method``,
    ``archive_method``, ``matches_archive`` (and the disagreement count)."""
    decided = {"rules": 0, "recorded": 0, "live": 0, "undecided": 0}
    for route, k in routes.items():
        if route in _RULE_ROUTES:
            decided["rules"] += k
        elif route.startswith("recorded"):
            decided["recorded"] += k
        elif route in _LIVE_ROUTES:
            decided["live"] += k
        elif route == "needs_judge":
            decided["undecided"] += k
    exact = routes.get("exact_matching", 0)
    rules_only = decided["rules"] - exact
    if judge_policy == "none":
        method = "exact_matching (--judge none)"
    else:
        parts = [f"rules ({rules_only} {unit})"]
        if decided["recorded"]:
            parts.append(f"recorded judge {records.judge if records and records.judge else ''} ({decided['recorded']} {unit})".replace("judge  (", "judge ("))
        if decided["live"]:
            parts.append(f"live judge ({decided['live']} {unit})")
        if exact:
            parts.append(f"exact_matching ({exact} {unit}; no recorded judge files)")
        if decided["undecided"]:
            parts.append(f"{decided['undecided']} {unit} undecided (needs_judge)")
        method = " + ".join(parts)
    open_n = decided["recorded"] + decided["live"] + decided["undecided"] + exact
    if disagreements:
        matches = False
    elif open_n == 0:
        matches = True  # the rules decided everything: every policy gives these numbers
    elif judge_policy == "none":
        matches = archive_method is not None and archive_method.startswith("exact_matching")
    elif records is not None:
        matches = decided["undecided"] == 0 and decided["live"] == 0 and exact == 0
    else:
        matches = False
    out: dict[str, Any] = {
        **method_keys(decided, method, judge_policy, archive_method, matches, unit),
        "record_disagreements": len(disagreements),
        # Rows (in ``rules``) that only exact matching decided: no judge asked, none recorded.
        "decided_exact": exact,
    }
    if disagreements:
        out["record_disagreement_indexes"] = disagreements[:20]
    if records is not None:
        out["records"] = records_summary(records)
    return out


def _no_judge_stats(result: GradeResult, name: str) -> GradeResult:
    """The method keys for a flow whose reference has no judge: the rules decide every row."""
    n = result.rows.height
    result.stats.update(
        {
            "decided": {"rules": n, "recorded": 0, "live": 0, "undecided": 0},
            "decided_unit": "rows",
            "flags": {},
            "method": f"rules ({name} has no judge)",
            "archive_method": None,
            "matches_archive": True,
        }
    )
    return result


def _truth_flags(frame: pl.DataFrame, cols: dict[str, str], letters: list[str]) -> pl.DataFrame:
    """Per row: no prediction (an empty cell: upstream reads ``"nan"``), an answer that is
    none of the row's non-empty option letters, an index another row repeats."""
    n = frame.height
    pred = frame[cols["prediction"]]
    pred_t = _text(pred)
    no_pred = pred_t.is_null() | (pred_t.str.strip_chars() == "")
    answer = _text(frame[cols["answer"]]) if "answer" in cols else pl.Series([None] * n, dtype=pl.String)
    in_options = pl.Series([False] * n)
    for ch in letters:
        in_options = in_options | ((answer == ch) & frame[cols[ch]].is_not_null()).fill_null(False)
    if "index" in cols:
        keys = _text(frame[cols["index"]]).str.strip_chars()
        as_num = keys.cast(pl.Float64, strict=False)
        norm = pl.when(as_num.is_not_null() & (as_num == as_num.round())).then(as_num.cast(pl.Int64, strict=False).cast(pl.String)).otherwise(keys)
        keyed = pl.DataFrame({"k": keys}).select(norm.alias("k"))["k"]
        dup = keyed.is_duplicated() & keyed.is_not_null()
    else:
        dup = pl.Series([False] * n)
    return pl.DataFrame({"no_prediction": no_pred, "answer_not_in_options": ~in_options, "duplicate_index": dup})


def _flag_status(status: pl.Expr, flags: pl.DataFrame) -> pl.Expr:
    """``ok`` rows with a flag take the flag's status; other statuses stay (they say more)."""
    expr = pl.when(status != "ok").then(status)
    for name in FLAG_STATUSES:
        expr = expr.when(pl.lit(flags[name])).then(pl.lit(name))
    return expr.otherwise(status).alias("status")


def _flag_counts(flags: pl.DataFrame) -> dict[str, int]:
    """Rows with each condition (a row may count under several)."""
    return {name: int(flags[name].sum()) for name in FLAG_STATUSES if int(flags[name].sum())}


# --------------------------------------------------------------------------------------
# LiveXivVQA (ImageMCQDataset flow)
# --------------------------------------------------------------------------------------

_INFER_REASON = {
    "refusal": "a refusal text",
    "answer_tag": "<answer>X</answer>",
    "boxed": "\\boxed{X}",
    "answer_phrase": "an 'answer is X' / 'answer: X' phrase",
    "answer_is": "'answer is X'",
    "letter_token": "exactly one choice letter among the tokens",
    "z_token": "the token Z and no choice letter",
    "option_text": "exactly one option text inside the answer",
}


def _judge_prompt(question: str, choices: Mapping[str, Any], prediction: str) -> str:
    """The prompt ``extract_answer_from_item`` sends to the judge: the option lines (empty
    cells left out) in VLMEvalKit's English template, or its Chinese one when the question
    holds a CJK unified ideograph (U+4E00..U+9FFF)."""
    lines = "".join(f"{c}. {t}\n" for c, t in choices.items() if not (t is None or (isinstance(t, float) and math.isnan(t))))
    chinese = any("\u4e00" <= ch <= "\u9fff" for ch in question)
    return (JUDGE_PROMPT_CN if chinese else JUDGE_PROMPT_EN).format(question, OPTIONS_HEADER + lines, prediction)


def _judge_rows(
    undecided: list[int],
    predictions: list[str],
    questions: list[Any] | None,
    choices_of: Callable[[int], dict[str, str]],
    keys: list[str],
    judge: Judge,
    variant: str,
    seed: int,
) -> tuple[dict[int, dict[str, Any]], dict[str, int]]:
    """``extract_answer_from_item`` after a failed prefetch, with a judge: up to three calls."""
    out: dict[int, dict[str, Any]] = {}
    counts = {"judge_calls": 0, "judge_api_failures": 0, "judge_exceptions": 0, "judge_unparsed": 0}
    for i in undecided:
        choices = choices_of(i)
        q = None if questions is None else questions[i]
        if not isinstance(q, str):
            why = "no question column" if questions is None else "the question is empty"
            out[i] = {"opt": None, "route": "error", "reason": f"error: {why}; the judge prompt cannot be built (the reference raises)"}
            continue
        prompt = _judge_prompt(q, choices, predictions[i])
        result = None
        raised: str | None = None  # the first judge call that raised (server down, breaker open)
        for attempt in range(1, 4):
            counts["judge_calls"] += 1
            try:
                reply = judge(prompt)
            except Exception as e:  # noqa: BLE001 - a failing judge counts as a failed attempt
                counts["judge_exceptions"] += 1
                raised = raised or f"{type(e).__name__}: {e}"
                continue
            reply = reply if isinstance(reply, str) else str(reply)
            if _API_FAILURE in reply:
                counts["judge_api_failures"] += 1
                continue
            letter, rule = can_infer_explained(reply, choices, variant)
            if letter:
                result = {"opt": letter, "route": "judge", "log": f"Match Log: {reply}. ",
                          "reason": f"judge: attempt {attempt}, the reply gives {letter} ({_INFER_REASON[rule]})"}
                break
            counts["judge_unparsed"] += 1
        if result is None:
            pool = list(choices) + ["Z"] if "Z" not in choices else []
            if not pool:
                result = {"opt": None, "route": "error",
                          "reason": "error: three judge failures and Z is a choice, so the reference's draw list is empty (IndexError)"}
            else:
                pick = pool[_native.fallback_index(keys[i], seed & ((1 << 64) - 1), len(pool))]
                result = {"opt": pick, "route": "random_fallback", "log": _RANDOM_LOG, "pool": len(pool),
                          "reason": f"random_fallback: three judge failures; seeded fallback drew {pick} of {len(pool)} (choices + Z; the reference draws at random)"}
            if raised is not None:  # not the judge's answer: the judge could not be asked
                result["judge_error"] = True
                result["reason"] = f"judge_error: {raised}; {result['reason']}"
        out[i] = result
    return out, counts


def _grade_livexivvqa(
    frame: pl.DataFrame,
    variant: str,
    seed: int,
    judge: Judge | None,
    log: bool,
    benchmark: str = "livexivvqa",
    report: str = "acc",
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """``mcq_vanilla_eval`` row by row, then ``report_acc`` (``report="mmt"``: ``report_acc_MMT``)."""
    cols = _column_map(frame, lower=True)
    _require(cols, "prediction", benchmark)
    _require(cols, "answer", benchmark)
    letters = [ch for ch in _LETTERS if ch in cols]
    n = frame.height
    parsed = _native_rows(frame, cols, letters, "can_infer", variant, seed)
    answer = _text(frame[cols["answer"]])
    pred_text = _text(frame[cols["prediction"]]).fill_null("nan")
    shared_rows = _index_representatives(frame, cols)
    rep = None
    if shared_rows is not None:
        # Upstream's answer map is keyed by index: every row of an index is checked against
        # the answer of the last row holding it.
        answer = answer.gather(shared_rows["gt_row"])
        rep = shared_rows["rep"]
    work = parsed.select(
        pl.coalesce("parsed", pl.lit("Z")).alias("extracted"),
        "rule",
        pl.when(pl.col("parsed").is_not_null()).then(pl.lit("prefetch")).otherwise(pl.lit("exact_matching")).alias("route"),
        pl.lit(None, pl.String).alias("reason_judge"),
        pl.lit(None, pl.String).alias("log_judge"),
        pl.lit(0, pl.Int64).alias("pool"),
        pl.lit(False).alias("_judge_error"),
    ).with_columns(answer.alias("answer"), pred_text.alias("_pred_text"))
    stats_extra: dict[str, Any] = {}
    work = work.with_columns(pl.lit(None, pl.Float64).alias("_rec_hit"), pl.lit(False).alias("_needs"))
    open_rows = parsed.with_row_index("_i").filter(pl.col("parsed").is_null())["_i"].to_list()
    keys_all = _text(frame[cols["index"]]).to_list() if "index" in cols else None
    use_records = judge_policy == "auto" and recorded is not None
    if use_records and open_rows:
        work, open_rows, replay_counts = _replay_vanilla(frame, cols, letters, work, open_rows, keys_all, recorded, variant)
        stats_extra.update(replay_counts)
    if judge is not None and judge_policy == "auto" and open_rows:
        undecided = open_rows
        # Only the rows can_infer left undecided go to the judge (a Python loop: judge calls).
        sub = frame[undecided]
        option_cols = {ch: _text(sub[cols[ch]]).to_list() for ch in letters}
        questions = _text(sub[cols["question"]]).to_list() if "question" in cols else None
        keys = _text(sub[cols["index"]]).to_list() if "index" in cols else [None] * len(undecided)
        keys = [str(i) if k is None else k for i, k in zip(undecided, keys)]

        def choices_of(j: int) -> dict[str, str]:
            return {ch: option_cols[ch][j] for ch in letters if option_cols[ch][j] is not None}

        judged, counts = _judge_rows(
            list(range(len(undecided))), pred_text.gather(undecided).to_list(), questions, choices_of, keys, judge, variant, seed
        )
        stats_extra.update(counts)
        patch = [judged[j] for j in range(len(undecided))]
        idx = pl.Series(undecided, dtype=pl.UInt32)
        work = work.with_columns(
            work["extracted"].scatter(idx, pl.Series([r["opt"] for r in patch], dtype=pl.String)),
            work["route"].scatter(idx, pl.Series([r["route"] for r in patch], dtype=pl.String)),
            work["reason_judge"].scatter(idx, pl.Series([r["reason"] for r in patch], dtype=pl.String)),
            work["log_judge"].scatter(idx, pl.Series([r.get("log") for r in patch], dtype=pl.String)),
            work["pool"].scatter(idx, pl.Series([r.get("pool", 0) for r in patch], dtype=pl.Int64)),
            work["_judge_error"].scatter(idx, pl.Series([r.get("judge_error", False) for r in patch], dtype=pl.Boolean)),
        )
    elif use_records and open_rows:
        # Records exist but not for these rows, and no live judge: nobody decided them.
        idx = pl.Series(open_rows, dtype=pl.UInt32)
        k = len(open_rows)
        work = work.with_columns(
            work["extracted"].scatter(idx, pl.Series([None] * k, dtype=pl.String)),
            work["route"].scatter(idx, pl.Series(["needs_judge"] * k, dtype=pl.String)),
            work["reason_judge"].scatter(idx, pl.Series([_NEEDS_JUDGE.format(variant)] * k, dtype=pl.String)),
            work["_needs"].scatter(idx, pl.Series([True] * k, dtype=pl.Boolean)),
        )
    crash = pl.col("route") == "error"
    letters_expr = [(pl.col("answer") == ch) & frame[cols[ch]].is_not_null() for ch in letters] + [pl.col("answer") == "Z"]
    work = work.with_columns(
        crash.alias("_crash"),
        pl.col("route").is_in(["exact_matching", "random_fallback", "recorded_random"]).alias("_fallback"),
        pl.when(pl.col("route").is_in(["random_fallback", "recorded_random"])).then(pl.any_horizontal(letters_expr)).otherwise(pl.col("answer") == "Z").fill_null(False).alias("_in_pool"),
        pl.when(crash | pl.col("_needs"))
        .then(None)
        .otherwise(pl.coalesce(pl.col("_rec_hit"), (pl.col("extracted") == pl.col("answer")).fill_null(False).cast(pl.Float64)))
        .alias("score"),
        pl.when(crash).then(pl.lit("error")).when(pl.col("_needs")).then(pl.lit("needs_judge"))
        .when(pl.col("_judge_error")).then(pl.lit("judge_error")).otherwise(pl.lit("ok")).alias("status"),
    ).with_columns(pl.when(pl.col("route") == "exact_matching").then(1).otherwise(pl.col("pool")).alias("pool"))
    prefix = f"prefetch ({variant} can_infer): "
    reason = pl.when(pl.col("reason_judge").is_not_null()).then(pl.col("reason_judge"))
    for rule, text in _INFER_REASON.items():
        reason = reason.when((pl.col("route") == "prefetch") & (pl.col("rule") == rule)).then(
            pl.concat_str([pl.lit(f"{prefix}{rule}: "), pl.col("extracted"), pl.lit(f" from {text}")])
        )
    reason = reason.otherwise(pl.lit(f"exact_matching: {variant} can_infer found no option and there is no judge, so Z (as the reference)"))
    new_cols = [pl.col("extracted"), pl.col("score"), pl.col("status"), reason.alias("reason")]
    if log:
        new_cols.append(
            pl.when(pl.col("route") == "prefetch")
            .then(pl.concat_str([pl.lit("Match Log: "), pl.col("_pred_text"), pl.lit(". ")]))
            .when(pl.col("route") == "exact_matching")
            .then(pl.lit(_EXACT_MATCHING_LOG))
            .otherwise(pl.col("log_judge"))
            .alias("log")
        )
    out_cols = work.select(new_cols)
    shared: dict[str, Any] = {}
    if rep is not None:
        work, out_cols, shared = _share_index_verdicts(frame, cols, work, out_cols, rep, shared_rows["gt_row"])
    flags = _truth_flags(frame, cols, letters)
    out_cols = out_cols.with_columns(_flag_status(pl.col("status"), flags))
    rows = frame.with_columns(out_cols.get_columns())

    ok_mask = ~work["_crash"] & ~work["_needs"]
    ok = work.filter(ok_mask)
    if report == "mmt":
        report, report_error = _report_acc_mmt(frame, cols, work["score"], ok_mask)
    else:
        report, report_error = _report_acc(frame, cols, work["score"], ok_mask)
    stats = _fallback_stats(ok, n, benchmark, variant, seed)
    stats.update(shared)
    judge_errors = int(work["_judge_error"].sum())
    if judge_errors:  # scored by the seeded fallback, as the reference would, but flagged
        stats["status"] = {"ok": ok.height - judge_errors, "judge_error": judge_errors, "error": n - ok.height}
    routes = dict(sorted(work.group_by("route").len().iter_rows()))
    stats["routes"] = routes
    stats["judge"] = judge is not None
    stats.update(stats_extra)
    crashed = int(work["_crash"].sum())
    stats["crashed_rows"] = crashed
    stats["reference_error"] = report_error or ("the reference raises on some rows (status 'error')" if crashed else None)
    stats["status"] = dict(sorted(rows.group_by(rows["status"]).len().iter_rows()))
    pred_all = pred_text.to_list()
    stats.update(
        _method_stats(
            routes, "rows", judge_policy, recorded,
            _vanilla_archive_method(recorded, keys_all, pred_all) if recorded is not None and recorded.files else None,
            _vanilla_disagreements(work, keys_all, recorded) if judge_policy == "auto" else [],
        )
    )
    stats["flags"] = _flag_counts(flags)
    return GradeResult(rows=rows, report=report, stats=stats)


def _quicksort_order(keys: list[Any]) -> list[int]:
    """The permutation NumPy's ``argsort(kind="quicksort")`` gives without its SIMD sorts
    (the introsort of ``npysort/quicksort.cpp``: median of three, insertion sort below 16
    elements, heapsort past 2*log2(n) levels). pandas' ``sort_values`` uses it, and for equal
    keys its order is not the input order, so it decides which row of a repeated index
    upstream evaluates last."""
    n = len(keys)
    t = list(range(n))
    v = keys

    def sift(lo: int, i: int, tmp: int, m: int) -> None:
        j = i << 1
        while j <= m:
            if j < m and v[t[lo + j - 1]] < v[t[lo + j]]:
                j += 1
            if v[tmp] < v[t[lo + j - 1]]:
                t[lo + i - 1] = t[lo + j - 1]
                i = j
                j += j
            else:
                break
        t[lo + i - 1] = tmp

    def heapsort(lo: int, m: int) -> None:
        for i in range(m >> 1, 0, -1):
            sift(lo, i, t[lo + i - 1], m)
        while m > 1:
            tmp = t[lo + m - 1]
            t[lo + m - 1] = t[lo]
            m -= 1
            sift(lo, 1, tmp, m)

    lo, hi = 0, n - 1
    stack: list[tuple[int, int, int]] = []
    depth = 2 * (n.bit_length() - 1) if n > 0 else 0
    while True:
        if depth < 0:
            heapsort(lo, hi - lo + 1)
        else:
            while hi - lo > 15:
                mid = lo + ((hi - lo) >> 1)
                if v[t[mid]] < v[t[lo]]:
                    t[mid], t[lo] = t[lo], t[mid]
                if v[t[hi]] < v[t[mid]]:
                    t[hi], t[mid] = t[mid], t[hi]
                if v[t[mid]] < v[t[lo]]:
                    t[mid], t[lo] = t[lo], t[mid]
                pivot = v[t[mid]]
                i, j = lo, hi - 1
                t[mid], t[j] = t[j], t[mid]
                while True:
                    i += 1
                    while v[t[i]] < pivot:
                        i += 1
                    j -= 1
                    while pivot < v[t[j]]:
                        j -= 1
                    if i >= j:
                        break
                    t[i], t[j] = t[j], t[i]
                t[i], t[hi - 1] = t[hi - 1], t[i]
                depth -= 1
                if i - lo < hi - i:
                    stack.append((i + 1, hi, depth))
                    hi = i - 1
                else:
                    stack.append((lo, i - 1, depth))
                    lo = i + 1
            for i in range(lo + 1, hi + 1):
                x = t[i]
                j = i
                while j > lo and v[x] < v[t[j - 1]]:
                    t[j] = t[j - 1]
                    j -= 1
                t[j] = x
        if not stack:
            return t
        lo, hi, depth = stack.pop()


def _index_representatives(frame: pl.DataFrame, cols: dict[str, str]) -> pl.Series | None:
    """For each row, the position of the row whose verdict upstream keeps for its ``index``
    (rows without an index stand alone); None when no index repeats.

    ``mcq_vanilla_eval`` keys its answer map and its results by index: every row is checked
    against the answer of the index's last row, and the result stored last is the one of
    the row that comes last after ``sort_values(by="index")`` (its workers return results in
    that order). That sort is NumPy's introsort, not stable, so this row is not always the
    last one in the file."""
    if "index" not in cols:
        return None
    raw = frame[cols["index"]]
    keys = _text(raw)
    if not keys.drop_nulls().is_duplicated().any():
        return None
    as_int = keys.str.strip_chars().cast(pl.Int64, strict=False)
    sortable = as_int if as_int.null_count() == keys.null_count() else keys
    present = sortable.is_not_null()
    values = sortable.filter(present).to_list()
    positions = pl.Series(range(frame.height), dtype=pl.UInt32).filter(present).to_list()
    order = _quicksort_order(values)
    rank = [0] * len(values)
    for r, i in enumerate(order):
        rank[i] = r
    pos = pl.DataFrame({"k": keys, "i": pl.Series(range(frame.height), dtype=pl.UInt32)})
    ranked = pl.DataFrame({"i": pl.Series(positions, dtype=pl.UInt32), "rank": pl.Series(rank, dtype=pl.Int64)})
    pos = pos.join(ranked, on="i", how="left", maintain_order="left")
    last_answer = pos.filter(pl.col("k").is_not_null()).group_by("k").agg(pl.col("i").last().alias("gt_row"))
    kept = pos.filter(pl.col("k").is_not_null()).group_by("k").agg(pl.col("i").sort_by("rank").last().alias("rep"))
    joined = pos.join(last_answer, on="k", how="left", maintain_order="left").join(kept, on="k", how="left", maintain_order="left")
    return joined.select(pl.coalesce("gt_row", "i").alias("gt_row"), pl.coalesce("rep", "i").alias("rep"))


def _share_index_verdicts(
    frame: pl.DataFrame, cols: dict[str, str], work: pl.DataFrame, out_cols: pl.DataFrame, rep: pl.Series, gt_row: pl.Series
) -> tuple[pl.DataFrame, pl.DataFrame, dict[str, Any]]:
    """Rows sharing an index take the verdict upstream keeps for it (``rep``, see
    :func:`_index_representatives`): it evaluates every row but stores one result per index,
    the one written last, and gives it to every row of that index. ``stats`` counts the
    indexes whose rows disagree (there the kept row decides) and the correct-row totals any
    other choice of rows would give."""
    keys = _text(frame[cols["index"]])
    n = frame.height
    moved = rep != pl.Series(range(n), dtype=pl.UInt32)
    own = pl.DataFrame({"k": keys, "own": work["score"], "now": work["score"].gather(rep)}).filter(pl.col("k").is_not_null())
    groups = (
        own.group_by("k")
        .agg(pl.len().alias("rows"), pl.col("own").min().alias("lo"), pl.col("own").max().alias("hi"), pl.col("now").first())
        .filter(pl.col("rows") > 1)
    )
    conflicts = groups.filter(pl.col("lo") != pl.col("hi"))
    work = work.gather(rep)
    shared = out_cols.gather(rep)
    correct = float(work["score"].sum())

    def total(col: str) -> float:
        return float((conflicts[col] * conflicts["rows"]).sum()) if conflicts.height else 0.0

    note = pl.concat_str(
        [
            pl.lit("index "),
            pl.lit(keys),
            pl.lit(" is shared with row "),
            (pl.lit(rep).cast(pl.Int64) + 2).cast(pl.String),
            pl.lit(": upstream keeps one verdict per index (that row's, evaluated last) and gives it to this row: "),
            pl.col("reason"),
        ]
    )
    other_answer = pl.concat_str(
        [
            pl.lit("index "),
            pl.lit(keys),
            pl.lit(" is shared: scored against the answer of row "),
            (pl.lit(gt_row).cast(pl.Int64) + 2).cast(pl.String),
            pl.lit(" (upstream's answer map keeps an index's last answer): "),
            pl.col("reason"),
        ]
    )
    answer_moved = gt_row != pl.Series(range(n), dtype=pl.UInt32)
    shared = shared.with_columns(
        pl.when(pl.lit(moved)).then(note).when(pl.lit(answer_moved)).then(other_answer).otherwise(pl.col("reason")).alias("reason")
    )
    stats = {
        "duplicate_index_rows": int(groups["rows"].sum()),
        "shared_index_groups": groups.height,
        "shared_index_conflicts": conflicts.height,
        "shared_index_correct_range": [correct - total("now") + total("lo"), correct - total("now") + total("hi")],
    }
    return work, shared, stats


def _report_acc(frame: pl.DataFrame, cols: dict[str, str], score: pl.Series, keep: pl.Series) -> tuple[pl.DataFrame, str | None]:
    """VLMEvalKit ``report_acc`` (fractions, not rounded), from per-group sums."""
    data = {"hit": score.cast(pl.Int64)}
    for name in ("split", "l2-category", "category"):
        if name in cols:
            data[name] = _text(frame[cols[name]])
    df = pl.DataFrame(data).filter(keep)
    has_split = "split" in cols
    if has_split:
        splits = sorted(set(df["split"].to_list()), key=lambda s: (s is None, s or ""))
    else:
        df = df.with_columns(pl.lit("none").alias("split"))
        splits = ["none"]

    def means(by: list[str]) -> dict[tuple, float]:
        g = df.group_by(by).agg(pl.col("hit").sum().alias("s"), pl.len().alias("n"))
        return {tuple(r[:-2]): r[-2] / r[-1] for r in g.iter_rows()}

    res: dict[str, list[float]] = {}
    overall = means(["split"])
    res["Overall"] = [overall.get((sp,), math.nan) if sp is not None else math.nan for sp in splits]
    error = None
    for group in ("l2-category", "category"):
        if group not in df.columns:
            continue
        values = set(df[group].to_list())
        if None in values:
            error = "TypeError: '<' not supported between instances of 'str' and 'float'" if len(values) > 1 else "NaN category"
            values.discard(None)
        cell = means(["split", group])
        for ab in sorted(values):
            name = MMB_ABBRS.get(ab, ab)
            res[name] = [cell.get((sp, ab), math.nan) if sp is not None else math.nan for sp in splits]
    table = {"split": pl.Series("split", splits, pl.String)}
    table.update({c: pl.Series(c, v, pl.Float64) for c, v in res.items()})
    return pl.DataFrame(list(table.values())), error


def _index_order(frame: pl.DataFrame, cols: dict[str, str]) -> pl.Series:
    """Row positions in upstream's evaluation order (``sort_values(by="index")``, the index
    as int where every cell reads as one)."""
    if "index" not in cols:
        return pl.Series(range(frame.height), dtype=pl.UInt32)
    idx = frame[cols["index"]]
    as_int = _text(idx).str.strip_chars().cast(pl.Int64, strict=False)
    key = as_int if as_int.null_count() == idx.null_count() else _text(idx)
    return pl.DataFrame({"k": key}).with_row_index("i").sort("k", maintain_order=True)["i"]


def _report_acc_mmt(frame: pl.DataFrame, cols: dict[str, str], score: pl.Series, keep: pl.Series) -> tuple[pl.DataFrame, str | None]:
    """VLMEvalKit ``report_acc_MMT``: a row per split and an ``ALL`` row; ``Overall``, the 32
    ``l2-category`` abbreviations (each the mean of its categories' accuracies), then every
    ``category``."""
    order = _index_order(frame, cols)
    data = {"hit": score.cast(pl.Int64)}
    for name in ("split", "l2-category", "category"):
        if name in cols:
            data[name] = _text(frame[cols[name]])
    df = pl.DataFrame(data).filter(keep)
    keep_order = keep.gather(order)
    df_sorted = pl.DataFrame(data).gather(order).filter(keep_order)
    if "split" in cols:
        splits = sorted(set(df["split"].to_list()), key=lambda s: (s is None, s or ""))
    else:
        df = df.with_columns(pl.lit("none").alias("split"))
        splits = ["none"]
    n_rows = len(splits) + 1

    def mean(sub: pl.DataFrame) -> float:
        return float(sub["hit"].sum()) / sub.height if sub.height else math.nan

    def per_split(sub: pl.DataFrame) -> list[float]:
        return [mean(sub.filter(pl.col("split") == sp)) for sp in splits] + [mean(sub)]

    res: dict[str, list[float]] = {"Overall": per_split(df)}
    res.update({abbr: [] for abbr in MMT_ABBRS.values()})
    error = None
    if "category" in df.columns:
        for ab in sorted(v for v in set(df["category"].to_list()) if v is not None):
            res[ab] = per_split(df.filter(pl.col("category") == ab))
    if "l2-category" in df.columns and "category" in df.columns:
        for ab in sorted(v for v in set(df["l2-category"].to_list()) if v is not None):
            subs = df_sorted.filter(pl.col("l2-category") == ab)["category"].unique(maintain_order=True).to_list()
            accs = [per_split(df.filter(pl.col("category") == t)) for t in subs]
            values = []
            for i in range(n_rows):
                total = 0  # Python sum(): left to right from int 0
                for a in accs:
                    total += a[i]
                values.append(total / len(accs))
            res[MMT_ABBRS.get(ab, ab)] = values
    for name, values in res.items():
        if len(values) != n_rows:
            error = error or f"ValueError: All arrays must be of the same length (no rows for {name!r})"
            res[name] = [math.nan] * n_rows
    table = [pl.Series("split", [*splits, "ALL"], pl.String)]
    table += [pl.Series(c, v, pl.Float64) for c, v in res.items()]
    return pl.DataFrame(table), error


# --------------------------------------------------------------------------------------
# Circular evaluation (MMBench, CCBench, ...: mcq_circular_eval)
# --------------------------------------------------------------------------------------

_CIRCULAR = 1_000_000


def _grade_circular(
    frame: pl.DataFrame, variant: str, seed: int, judge: Judge | None, recorded: Records | None = None, judge_policy: str = "auto"
) -> GradeResult:
    """``mcq_circular_eval``: the rows whose index is ``i + k * 1_000_000`` are rotations of
    question ``i`` (whose own row has index ``i``). A question is right when every rotation's
    letter equals its answer: ``can_infer`` on each rotation in index order; the first
    rotation read as a wrong letter (``Z`` included) fails it; all read right passes it;
    otherwise the unread rotations go to the judge (none: the question fails). The report is
    ``report_acc`` over the questions' own rows."""
    cols = _column_map(frame, lower=True)
    for name in ("prediction", "answer", "index"):
        _require(cols, name, "mcq-circular")
    letters = [ch for ch in _LETTERS if ch in cols]
    n = frame.height
    raw_index = frame[cols["index"]]
    index = _text(raw_index).str.strip_chars().cast(pl.Int64, strict=False)
    bad = (index.is_null() & raw_index.is_not_null()) | raw_index.is_null()
    if bad.any():
        row = int(bad.arg_true()[0])
        raise ValueError(f"mcq-circular: row {row + 2}: index {raw_index[row]!r} is not an integer (upstream: int(index))")
    parsed = _native_rows(frame, cols, letters, "can_infer", variant, seed)
    answer = _text(frame[cols["answer"]])
    work = pl.DataFrame(
        {
            "_row": pl.Series(range(n), dtype=pl.Int64),
            "index": index,
            "group": ((index % _CIRCULAR) + _CIRCULAR) % _CIRCULAR,
            "pred": parsed["parsed"],
            "rule": parsed["rule"],
            "answer": answer,
        }
    ).sort("index", maintain_order=True)
    work = work.with_columns(
        (pl.col("index") == pl.col("group")).alias("main"),
        (pl.col("pred").is_not_null() & (pl.col("pred") != pl.col("answer")).fill_null(True)).alias("wrong"),
        (pl.col("pred") == pl.col("answer")).fill_null(False).alias("right"),
    )
    mains = work.filter(pl.col("main")).select("group")
    if mains["group"].is_duplicated().any():
        dup = mains.filter(pl.col("group").is_duplicated())["group"][0]
        raise ValueError(f"mcq-circular: index {dup} occurs more than once")
    members = work.join(mains, on="group", how="semi")
    groups = members.group_by("group", maintain_order=True).agg(
        pl.len().alias("rotations"),
        pl.col("wrong").any().alias("any_wrong"),
        pl.col("right").all().alias("all_right"),
        pl.col("wrong").arg_max().alias("first_wrong"),
    )
    groups = groups.with_columns(
        pl.when(pl.col("any_wrong"))
        .then(pl.lit("prefetch_wrong"))
        .when(pl.col("all_right"))
        .then(pl.lit("prefetch_right"))
        .otherwise(pl.lit("exact_matching"))
        .alias("route"),
        pl.when(pl.col("all_right") & ~pl.col("any_wrong")).then(1).otherwise(0).alias("hit"),
        pl.lit(False).alias("fallback"),
        pl.lit(None, pl.String).alias("judge_reason"),
    )
    stats_extra: dict[str, Any] = {}
    groups = groups.with_columns(pl.lit(None, pl.String).alias("_rec_reason"))
    use_records = judge_policy == "auto" and recorded is not None
    if use_records:
        groups, replay_counts = _replay_circular(groups, recorded)
        stats_extra.update(replay_counts)
    if judge is not None and judge_policy == "auto":
        undecided = groups.filter(pl.col("route") == "exact_matching")["group"].to_list()
        counts = {"judge_calls": 0, "judge_api_failures": 0, "judge_exceptions": 0, "judge_unparsed": 0}
        verdicts: dict[int, tuple[str, int, bool, str]] = {}
        by_group = members.filter(pl.col("group").is_in(undecided)).partition_by("group", as_dict=True, maintain_order=True)
        option_cols = {ch: _text(frame[cols[ch]]) for ch in letters}
        questions = _text(frame[cols["question"]]) if "question" in cols else None
        preds = _text(frame[cols["prediction"]]).fill_null("nan")
        for g in undecided:
            rotations = by_group[(g,)]
            verdict = ("judge_right", 1, False, "judge: every rotation the matcher left open was judged right")
            for r in rotations.iter_rows(named=True):
                if r["pred"] is not None:
                    continue  # read right by the matcher (a wrong read fails before the judge)
                i = r["_row"]
                choices = {ch: option_cols[ch][i] for ch in letters if option_cols[ch][i] is not None}
                judged, c = _judge_rows(
                    [0], [preds[i]], None if questions is None else [questions[i]], lambda _j: choices, [str(r["index"])], judge, variant, seed
                )
                for k, v in c.items():
                    counts[k] += v
                res = judged[0]
                if res["route"] == "error":
                    verdict = ("error", 0, False, res["reason"])
                    break
                fallback = verdict[2] or res["route"] == "random_fallback"
                if res["opt"] != r["answer"]:
                    verdict = ("judge_wrong", 0, fallback, f"rotation index {r['index']}: {res['reason']}; not the answer {r['answer']}")
                    break
                verdict = ("judge_right", 1, fallback, verdict[3])
            verdicts[g] = verdict
        stats_extra.update(counts)
        if verdicts:
            patch = pl.DataFrame(
                {
                    "group": list(verdicts),
                    "_route": [v[0] for v in verdicts.values()],
                    "_hit": [v[1] for v in verdicts.values()],
                    "_fallback": [v[2] for v in verdicts.values()],
                    "_reason": [v[3] for v in verdicts.values()],
                },
                schema={"group": pl.Int64, "_route": pl.String, "_hit": pl.Int32, "_fallback": pl.Boolean, "_reason": pl.String},
            )
            groups = groups.join(patch, on="group", how="left").with_columns(
                pl.coalesce("_route", "route").alias("route"),
                pl.coalesce(pl.col("_hit"), pl.col("hit")).alias("hit"),
                pl.coalesce("_fallback", "fallback").alias("fallback"),
                pl.col("_reason").alias("judge_reason"),
            ).drop("_route", "_hit", "_fallback", "_reason")
    if use_records and judge is None:
        # Records exist but not for these questions, and no live judge: nobody decided them.
        groups = groups.with_columns(
            pl.when(pl.col("route") == "exact_matching").then(pl.lit("needs_judge")).otherwise(pl.col("route")).alias("route")
        )
    groups = groups.with_columns(pl.coalesce("_rec_reason", "judge_reason").alias("judge_reason"))
    # Per input row: its question's verdict.
    wrong_index = members.filter(pl.col("wrong")).group_by("group", maintain_order=True).agg(pl.col("index").first().alias("wrong_index"))
    groups = groups.join(wrong_index, on="group", how="left")
    reason = (
        pl.when(pl.col("route") == "prefetch_wrong")
        .then(pl.concat_str([pl.lit("circular: rotation index "), pl.col("wrong_index").cast(pl.String), pl.lit(" is read as a wrong letter")]))
        .when(pl.col("route") == "prefetch_right")
        .then(pl.concat_str([pl.lit("circular: all "), pl.col("rotations").cast(pl.String), pl.lit(f" rotations read right ({variant} can_infer)")]))
        .when(pl.col("route") == "exact_matching")
        .then(pl.lit(f"circular: some rotation has no letter ({variant} can_infer) and there is no judge, so the question fails (as the reference)"))
        .when(pl.col("route") == "needs_judge")
        .then(pl.lit(f"needs_judge: some rotation has no letter ({variant} can_infer) and the recorded judge files have no entry for this question; not counted"))
        .otherwise(pl.col("judge_reason"))
    )
    groups = groups.with_columns(reason.alias("reason"))
    per_row = work.join(groups.select("group", "hit", "route", "reason"), on="group", how="left").sort("_row")
    counted = per_row["route"].is_not_null()
    out = per_row.select(
        pl.col("pred").alias("extracted"),
        pl.col("group").alias("circular_group"),
        pl.when(pl.col("route").is_not_null() & ~pl.col("route").is_in(["error", "needs_judge"])).then(pl.col("hit").cast(pl.Float64)).alias("score"),
        pl.when(pl.col("route").is_null())
        .then(pl.lit("not_counted"))
        .when(pl.col("route") == "error")
        .then(pl.lit("error"))
        .when(pl.col("route") == "needs_judge")
        .then(pl.lit("needs_judge"))
        .otherwise(pl.lit("ok"))
        .alias("status"),
        pl.when(pl.col("route").is_null())
        .then(
            pl.concat_str(
                [pl.lit("not counted: no row has index "), pl.col("group").cast(pl.String), pl.lit(" (this rotation's question); upstream ignores it")]
            )
        )
        .otherwise(pl.col("reason"))
        .alias("reason"),
    )
    flags = _truth_flags(frame, cols, letters)
    out = out.with_columns(_flag_status(pl.col("status"), flags))
    rows = frame.with_columns(out.get_columns())
    main_rows = per_row["main"] & counted
    ok_main = main_rows & ~per_row["route"].is_in(["error", "needs_judge"])
    hits = per_row["hit"].fill_null(0).cast(pl.Float64)
    report, report_error = _report_acc(frame, cols, hits, ok_main)
    scored = groups.filter(~pl.col("route").is_in(["error", "needs_judge"]))
    questions_n = scored.height
    correct = int(scored["hit"].sum()) if questions_n else 0
    fb_correct = int(scored.filter(pl.col("fallback"))["hit"].sum()) if questions_n else 0
    stats: dict[str, Any] = {
        "benchmark": "mcq-circular",
        "variant": variant,
        "seed": seed,
        "rows": n,
        "questions": questions_n,
        "tasks": questions_n,
        "correct": correct,
        "accuracy": _rate(correct, questions_n),
        "accuracy_no_fallback": _rate(correct - fb_correct, questions_n),
        "fallback_questions": int(scored["fallback"].sum()) if questions_n else 0,
        "routes": dict(sorted(groups.group_by("route").len().iter_rows())),
        "rotations": dict(sorted(groups.group_by("rotations").len().iter_rows())),
        "not_counted_rows": int((~counted).sum()),
        "judge": judge is not None,
        "crashed_rows": int((per_row["route"] == "error").sum()),
    }
    stats.update(stats_extra)
    stats["reference_error"] = report_error or ("the reference raises on some questions (status 'error')" if stats["crashed_rows"] else None)
    stats["status"] = dict(sorted(rows.group_by(rows["status"]).len().iter_rows()))
    stats.update(
        _method_stats(
            stats["routes"], "questions", judge_policy, recorded,
            _circular_archive_method(recorded) if recorded is not None and recorded.files else None,
            _circular_disagreements(groups, recorded) if judge_policy == "auto" else [],
        )
    )
    stats["flags"] = _flag_counts(flags)
    return GradeResult(rows=rows, report=report, stats=stats)


def _circular_log_kind(log: Any) -> str:
    """What produced a circular question's recorded verdict (``eval_circular_group``'s logs)."""
    if not isinstance(log, str):
        return "recorded_other"
    if log.strip() == EXACT_MATCHING_TEXT:
        return "recorded_exact_matching"
    if log.startswith(("Succeed During Pre-fetching", "Failed in Prefetching Rolling")):
        return "recorded_prefetch"
    if RANDOM_TEXT in log:
        return "recorded_random"
    if "Failed in Rolling" in log or re.search(r"^Rolling \d+", log, re.MULTILINE):
        return "recorded_judge"
    return "recorded_other"


_CIRCULAR_REASON = {
    "recorded_exact_matching": "the archive had no judge for this question and failed it (exact matching)",
    "recorded_prefetch": "the archive's own matcher decided every rotation (this variant's does not)",
    "recorded_random": "the archive's judge failed three times on a rotation and it drew a random letter; the recorded hit is that draw",
    "recorded_judge": "the archive's judge read the rotations the matcher left open",
    "recorded_other": "the record has a hit and a log this reader does not know",
}


def _replay_circular(groups: pl.DataFrame, records: Records) -> tuple[pl.DataFrame, dict[str, int]]:
    """Questions the rules left open take the archive's record of their main index
    (``result[g_index]['hit']``, as ``mcq_circular_eval`` reads it)."""
    open_groups = groups.filter(pl.col("route") == "exact_matching")["group"].to_list()
    who = f"recorded judge {records.judge}" if records.judge else "recorded judge"
    patch: dict[int, tuple[str, int, str]] = {}
    counts: dict[str, int] = {}
    for g in open_groups:
        rec = records.get(g)
        hit = _record_hit(rec)
        if hit is None:
            continue
        kind = _circular_log_kind(rec.get("log"))
        counts[kind] = counts.get(kind, 0) + 1
        log = rec.get("log")
        first = log.strip().splitlines()[0] if isinstance(log, str) and log.strip() else ""
        patch[g] = (kind, int(hit != 0), f"{who}: {_CIRCULAR_REASON[kind]}; recorded hit {hit:g}" + (f" (log: {first[:200]!r})" if first else ""))
    if not patch:
        return groups, counts
    frame = pl.DataFrame(
        {"group": list(patch), "_r": [v[0] for v in patch.values()], "_h": [v[1] for v in patch.values()], "_why": [v[2] for v in patch.values()]},
        schema={"group": groups.schema["group"], "_r": pl.String, "_h": pl.Int32, "_why": pl.String},
    )
    groups = groups.join(frame, on="group", how="left", maintain_order="left").with_columns(
        pl.coalesce("_r", "route").alias("route"),
        pl.coalesce(pl.col("_h"), pl.col("hit")).cast(groups.schema["hit"]).alias("hit"),
        (pl.col("fallback") | (pl.col("_r") == "recorded_random").fill_null(False)).alias("fallback"),
        pl.coalesce("_why", "_rec_reason").alias("_rec_reason"),
    ).drop("_r", "_h", "_why")
    return groups, counts


def _circular_archive_method(records: Records) -> str:
    if records.judge == "exact_matching":
        return "exact_matching"
    judge = exact = 0
    for rec in records.entries.values():
        kind = _circular_log_kind(rec.get("log"))
        judge += kind in ("recorded_judge", "recorded_random")
        exact += kind == "recorded_exact_matching"
    return _archive_method_line(records, judge, exact)


def _circular_disagreements(groups: pl.DataFrame, records: Records | None) -> list[str]:
    if records is None:
        return []
    out = []
    for g, route, hit in groups.select("group", "route", "hit").iter_rows():
        if route in ("prefetch_right", "prefetch_wrong"):
            rec = _record_hit(records.get(g))
            if rec is not None and rec != hit:
                out.append(str(g))
    return out


# --------------------------------------------------------------------------------------
# MMMU (VLMEvalKit 24ebca6b MMMU_eval, 2023-12)
# --------------------------------------------------------------------------------------


def _mmmu_sheets(
    categories: list[tuple[Any, ...]], multiple_choice: list[bool], match: list[bool], hit: list[bool]
) -> dict[str, list[dict[str, Any]]]:
    """``MMMU_eval``'s four ``_acc.xlsx`` sheets. Upstream keeps one counter keyed by the
    category *value* for all four columns (a value in two columns counts in both rows),
    and ``Overall`` counts every row in ``tot`` but only multiple-choice rows in ``match``
    and ``hit``. Rows of a sheet: its values in order of first appearance."""
    from collections import Counter

    tot: Counter[Any] = Counter()
    matched: Counter[Any] = Counter()
    hits: Counter[Any] = Counter()
    for (field, subfield, difficulty, image_type), mc, m, h in zip(categories, multiple_choice, match, hit):
        counted = (difficulty, subfield, field, image_type)
        tot["Overall"] += 1
        tot.update(counted)
        if m:
            matched["Overall"] += bool(mc)
            matched.update(counted)
            if h:
                hits["Overall"] += bool(mc)
                hits.update(counted)
    orders = [list(dict.fromkeys(col)) for col in zip(*categories)] or [[] for _ in MMMU_SHEETS]
    orders[0].insert(0, "Overall")
    sheets: dict[str, list[dict[str, Any]]] = {}
    for name, order in zip(MMMU_SHEETS, orders):
        sheets[name] = [
            {
                name: k,
                "tot": tot[k],
                "match": matched[k],
                "hit": hits[k],
                "match_rate": matched[k] / tot[k] * 100 if tot[k] else math.nan,
                "acc": hits[k] / matched[k] * 100 if matched[k] else 0.0,
            }
            for k in order
        ]
    return sheets


def _grade_mmmu(frame: pl.DataFrame, variant: str, seed: int) -> GradeResult:
    cols = _column_map(frame, lower=False)
    if "image_type" not in cols and "img_type" in cols:
        cols["image_type"] = cols["img_type"]
    for name in ("prediction", "answer", "question_type", *MMMU_SHEETS.values()):
        _require(cols, name, "mmmu")
    letters = [ch for ch in MMMU_LETTERS if ch in cols]
    n = frame.height
    pred = _text(frame[cols["prediction"]]).fill_null("nan")
    answer = _text(frame[cols["answer"]])
    mc = (_text(frame[cols["question_type"]]) == "multiple-choice").fill_null(False)
    if letters:
        parsed = _native_rows(frame, cols, letters, "can_infer", variant, seed)
    else:  # no option columns: can_infer gets an empty choice dict (2023-12 may still find A..E)
        decided = [can_infer_explained(p, {}, variant) for p in pred.to_list()]
        parsed = pl.DataFrame(
            {"parsed": [d[0] for d in decided], "rule": [d[1] for d in decided]}, schema={"parsed": pl.String, "rule": pl.String}
        )
    # Open questions: the lowercased answer inside the lowercased prediction (Python str.lower()).
    # Only the open rows (a few percent) need it, so only they are visited.
    open_rows = (~mc).arg_true()
    open_hits = [
        ("nan" if a is None else a).lower() in p.lower()
        for p, a in zip(pred.gather(open_rows).to_list(), answer.gather(open_rows).to_list())
    ]
    open_match = pl.Series("open", [None] * n, dtype=pl.Boolean).scatter(open_rows, pl.Series(open_hits, dtype=pl.Boolean))
    work = pl.DataFrame(
        {"mc": mc, "parsed": parsed["parsed"], "rule": parsed["rule"], "answer": answer, "open": open_match}
    ).with_columns(
        pl.when(pl.col("mc")).then(pl.col("parsed")).otherwise(None).alias("extracted"),
        pl.when(pl.col("mc")).then(pl.col("parsed").is_not_null()).otherwise(pl.col("open")).alias("match"),
        pl.when(pl.col("mc")).then((pl.col("parsed") == pl.col("answer")).fill_null(False)).otherwise(pl.col("open")).alias("hit"),
    )
    prefix = f"{variant} can_infer: "
    reason = pl.when(~pl.col("mc") & pl.col("open")).then(pl.lit("open question: the answer is inside the prediction (lowercased)"))
    reason = reason.when(~pl.col("mc")).then(pl.lit("open question: the answer is not inside the prediction (lowercased)"))
    for rule, text in _INFER_REASON.items():
        reason = reason.when(pl.col("rule") == rule).then(pl.concat_str([pl.lit(f"{prefix}{rule}: "), pl.col("extracted"), pl.lit(f" from {text}")]))
    reason = reason.otherwise(pl.lit(f"{prefix}no match (not counted in match)"))
    out = work.select(
        "extracted",
        "match",
        pl.col("hit").cast(pl.Float64).alias("score"),
        pl.lit("ok").alias("status"),
        reason.alias("reason"),
    )
    rows = frame.with_columns(out.get_columns())
    cats = [_text(frame[cols[c]]).to_list() for c in MMMU_SHEETS.values()]
    sheets = _mmmu_sheets(list(zip(*cats)), mc.to_list(), work["match"].to_list(), work["hit"].to_list())
    name = next(iter(MMMU_SHEETS))
    report = pl.DataFrame(
        sheets[name],
        schema={name: pl.String, "tot": pl.Int64, "match": pl.Int64, "hit": pl.Int64, "match_rate": pl.Float64, "acc": pl.Float64},
        orient="row",
    )
    overall = sheets[name][0]
    n_mc = int(mc.sum())
    stats: dict[str, Any] = {
        "benchmark": "mmmu",
        "variant": variant,
        "rows": n,
        "multiple_choice_rows": n_mc,
        "open_rows": n - n_mc,
        "match": overall["match"],
        "hit": overall["hit"],
        "match_rate": overall["match_rate"],
        "acc": overall["acc"],
        "open_match": int(work.filter(~pl.col("mc"))["match"].sum()),
        "sheets": sheets,
        "crashed_rows": 0,
        "reference_error": None,
    }
    return GradeResult(rows=rows, report=report, stats=stats)


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "livexivvqa",
    variant: str | None = None,
    seed: int = 0,
    judge: Judge | None = None,
    log: bool = False,
    missing_sources: str = "null",
    report: str = "acc",
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade a VLMEvalKit result table (``{model}_{dataset}.xlsx/.tsv/.csv`` read with polars).

    ``benchmark``: ``"vmcbench"`` (also ``VMCBench_DEV``/``VMCBench_TEST``), ``"livexivvqa"``,
    ``"mmmu"`` (also ``MMMU_DEV_VAL``), ``"mcq"`` or ``"mcq-circular"``.

    * ``mcq`` is the ``livexivvqa`` flow (``mcq_vanilla_eval`` + ``report_acc``) for any
      upstream ``ImageMCQDataset`` archive (MMStar, SEEDBench, ScienceQA, AI2D, ...), with the
      ``classic`` matcher by default; ``report="mmt"`` gives MMT-Bench's ``report_acc_MMT``.
    * ``mcq-circular`` is ``mcq_circular_eval`` (MMBench, CCBench, ``*_circular``): rows with
      index ``i + k * 1_000_000`` are rotations of question ``i``; a question counts as right
      only when every rotation is. Needs an integer ``index`` column. ``rows`` adds
      ``circular_group``; every row carries its question's ``score``; rotations whose
      question has no row are ``status="not_counted"``. ``report`` is ``report_acc`` over the
      questions' own rows; ``stats`` has ``questions``, ``correct`` and the route counts.

    * ``vmcbench`` needs ``prediction``, ``answer``, options ``A``..``I`` and ``category``.
      No judge, no variants. ``report`` is ``report_vmc_acc``'s one row (×100, numpy
      rounding). Where a source is absent the reference raises ``KeyError``; here its
      column is null and so is every group holding it (``missing_sources="skip"``: groups
      average the sources present), and ``stats["reference_error"]`` gives the message.
    * ``livexivvqa`` needs ``prediction`` and ``answer``; options are the columns ``A``..``Z``
      (non-null cells), column names are lowercased as VLMEvalKit loads them. ``variant``
      picks the matcher (default ``"dcvlr"``). Undecided rows go to ``judge`` (prompt →
      reply; needs ``question``) up to three times, else become ``Z`` like the reference's
      ``exact_matching``. ``report`` is ``report_acc``: one row per ``split`` (sorted; the
      reference's order is unspecified), ``Overall``, then ``l2-category`` and ``category``
      values. ``log=True`` adds the reference's ``log`` column text.
    * ``mmmu`` is VLMEvalKit 24ebca6b's ``MMMU_eval`` (2023-12): needs ``prediction``,
      ``answer``, ``question_type``, ``field``, ``subfield``, ``topic_difficulty`` and
      ``image_type`` (or ``img_type``); options ``A``..``I`` (non-null cells). Multiple-choice
      rows go through ``can_infer`` (``variant``, default ``"2023-12"``): ``match`` = a letter
      was found, ``hit`` = it equals ``answer``; other rows match and hit when the lowercased
      answer is inside the lowercased prediction. No judge. ``report`` is the ``field`` sheet
      (``Overall`` first; ``tot/match/hit/match_rate/acc``, rates ×100, ``acc = hit/match``);
      ``stats["sheets"]`` holds all four sheets (``field``, ``subfield``, ``difficulty``,
      ``image_type``) as lists of row dicts. ``Overall`` counts open rows in ``tot`` only;
      their match/hit go to the category rows, as upstream. The archive's ``_acc.xlsx``
      stores the rates to 16 significant digits. ``rows`` adds ``extracted``, ``match``,
      ``score`` (the hit), ``status`` and ``reason``.

    ``rows``: every input row in order plus ``extracted`` (the letter scored, fallbacks
    included), ``score`` (1.0/0.0; null where the reference raises), ``status`` (``ok`` or
    ``error``) and ``reason``. ``seed`` drives the deterministic fallback draws.

    Recorded judges (``mcq``, ``livexivvqa``, ``mmt``, ``mcq-circular``): ``recorded`` is the
    archive's own judge files (:func:`gaia_fast.scorers.vlm.recorded.find_records`).
    ``judge_policy="auto"``: rows (circular: questions) the rules decide are decided by the
    rules; the others take the archive's record of their index (the recorded ``hit``
    decides, as in VLMEvalKit; the log says whether a judge reply, a random draw or the
    exact-matching fallback produced it); rows with no record go to ``judge`` if given,
    else get ``status="needs_judge"`` (no score, left out of the report). With no
    ``recorded`` at all, undecided rows go to ``judge`` or to exact matching as before.
    ``judge_policy="none"``: VLMEvalKit's ``exact_matching`` (records and ``judge`` unused).
    Rows also get ``status`` ``no_prediction``, ``answer_not_in_options`` or
    ``duplicate_index`` where that holds (the decision is VLMEvalKit's all the same).
    ``stats``: ``decided`` (``rules``/``recorded``/``live``/``undecided`` counts in
    ``decided_unit``), ``flags``, ``method``, ``archive_method``, ``matches_archive``,
    ``record_disagreements`` (rows the rules decided against the record).
    """
    frame = _check_frame(frame)
    bench = BENCHMARKS.get(benchmark.lower()) if isinstance(benchmark, str) else None
    if bench is None:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if judge_policy not in JUDGE_POLICIES:
        raise ValueError(f"judge_policy must be one of {', '.join(map(repr, JUDGE_POLICIES))}, not {judge_policy!r}")
    if recorded is not None and not isinstance(recorded, Records):
        raise TypeError(f"recorded must be a Records (find_records) or None, not {type(recorded).__name__}")
    if judge_policy == "none":
        judge = None  # exact_matching: VLMEvalKit asks no model
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if bench == "vmcbench":
        if variant is not None:
            raise ValueError("vmcbench has a single parsing rule; variant must be None")
        if judge is not None:
            raise ValueError("vmcbench uses no judge (its reference has none)")
        if missing_sources not in ("null", "skip"):
            raise ValueError(f"missing_sources must be 'null' or 'skip', not {missing_sources!r}")
        return _no_judge_stats(_grade_vmcbench(frame, seed, missing_sources), "VMCBench")
    if bench == "mmmu":
        variant = "2023-12" if variant is None else variant
        if variant not in VARIANTS:
            raise ValueError(f"unknown can_infer variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
        if judge is not None:
            raise ValueError("mmmu (MMMU_eval) uses no judge (its reference has none)")
        return _no_judge_stats(_grade_mmmu(frame, variant, seed), "MMMU_eval (2023-12)")
    if report not in ("acc", "mmt"):
        raise ValueError(f"report must be 'acc' or 'mmt', not {report!r}")
    # Upstream VLMEvalKit's archives were scored by the classic matcher (2024-03 .. 2025-08);
    # LiveXivVQA exists only in the DCVLR fork.
    variant = ("dcvlr" if bench == "livexivvqa" else "classic") if variant is None else variant
    if variant not in _LIVEXIV_VARIANTS:
        raise ValueError(
            f"unknown can_infer variant {variant!r} for {bench}; expected one of {', '.join(map(repr, _LIVEXIV_VARIANTS))}"
        )
    if bench == "mcq-circular":
        if log:
            raise ValueError("mcq-circular keeps no per-row log")
        return _grade_circular(frame, variant, seed, judge, recorded, judge_policy)
    return _grade_livexivvqa(frame, variant, seed, judge, log, benchmark=bench, report=report, recorded=recorded, judge_policy=judge_policy)
