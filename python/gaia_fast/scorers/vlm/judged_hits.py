"""Judge-scored VQA sets whose verdict per row is recorded beside the result file and whose
report is a plain mean of it: AyaVisionBench, VLMBias, Asclepius.

References (open-compass/VLMEvalKit):

* **AyaVisionBench** (``AyaVisionBench.evaluate``, ``vlmeval/dataset/image_vqa.py``; added
  cc937c5c, 2025-09-02): the judge answers ``[[CORRECT]]`` / ``[[WRONG]]`` for every row
  (``AyaVision_auxeval``, five tries, else hit 0). Kept: ``{stem}_{J}.xlsx`` (the rows plus
  ``hit``, ``res``, ``log``, ``acc``) and the cache ``{stem}_{J}.pkl`` (``_tmp.pkl`` from
  9cc14cd0), ``index -> {log, res, hit}``. Report ``report_acc`` (``Overall`` and a column
  per ``category`` / ``l2-category``, per ``split``) as ``{stem}_acc.csv``.
* **VLMBias** (``VLMBias.evaluate``, ``vlmeval/dataset/vlmbias.py``; added db0c9ae2,
  2025-09-05): ``OmniVerifier(tmpl='brace', lower_case=True).verify``: the last ``{...}`` of
  the prediction (when there is one), both lower-cased, number words to digits, articles
  dropped, contractions restored; equal -> right (``Rule Match``), else the judge's yes/no.
  Kept: ``{stem}_{J}.xlsx`` (the rows plus ``hit``, ``log``) and the cache
  ``{stem}_{J}.pkl`` / ``_tmp.pkl`` (``index -> (hit, log)``). Once that table exists
  upstream re-reads it and asks nobody. Report ``report_acc`` as ``{stem}_acc.csv``.
* **Asclepius** (``Asclepius.evaluate``, ``vlmeval/dataset/asclepius.py``; added 09518248,
  2026-02-20, whose ``_evaluate_single`` took one argument and crashed; the rule of 18273bac
  the same day to head): rows whose answer is not empty/missing are judged (``score``: the
  first whole ``0``/``1`` of the reply, else 0). Kept: ``{stem}_{J}.xlsx`` (the rows plus
  ``eval_score``, ``eval_log``; 0 for the rows not judged) and ``{stem}_{J}.pkl``
  (``index -> {score, log}``). Report ``{stem}_{J}_score.csv``: ``Overall`` =
  ``np.mean(eval_score) * 100`` over the judged rows, rounded to 2 places (NumPy's round).

Re-grading replays the recorded verdicts (``recorded=``: ``find_records(kind="judged_hits")``);
VLMBias's rule decides the rows it matches when a row has no record; every other row without
one is ``needs_judge``, and the report waits for them. Live judging is not ported.
"""

from __future__ import annotations

import math
import re
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm._replay import check_replay_args, disagreement_keys, method_keys, records_summary, status_counts
from gaia_fast.scorers.vlm.mcq import _column_map, _report_acc
from gaia_fast.scorers.vlm.recorded import Records
from gaia_fast.scorers.vlm.vqa_tables import CONTRACTIONS

#: The judge records this family replays: the executor passes
#: ``find_records(path, RECORD_KIND)`` as ``recorded=``.
RECORD_KIND = "judged_hits"

__all__ = ["BENCHMARKS", "VARIANTS", "grade", "omni_rule"]

#: One rule since it was added (``--as-of`` picks ``classic``).
VARIANTS = ("classic",)

BENCHMARKS = ("ayavision", "vlmbias", "asclepius")

_NUMBERS = {
    "none": "0", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13",
    "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19",
    "twenty": "20",
}  # fmt: skip
_ARTICLES = ("a", "an", "the")


def _digit_article(text: str) -> str:
    """``omni_verifier._process_digit_article``: lower, split on whitespace, number words to
    digits, articles dropped, contractions restored, joined by one space."""
    out = [_NUMBERS.get(w, w) for w in text.lower().split()]
    out = [w for w in out if w not in _ARTICLES]
    return " ".join(CONTRACTIONS.get(w, w) for w in out)


def omni_rule(prediction: str, answer: str) -> tuple[bool, str, str]:
    """The rule half of ``OmniVerifier(tmpl='brace', lower_case=True).verify``: (equal,
    processed prediction, processed answer)."""
    matches = re.findall(r"\{([^}]*)\}", prediction)
    if matches:
        prediction = matches[-1]  # self.match = -1
    p, g = _digit_article(prediction.lower()), _digit_article(answer.lower())
    return p == g, p, g


def _as_hit(value: Any) -> int | None:
    """A recorded hit (0/1, True/False, their texts) as 0/1; None when it is neither."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return int(value)
    text = str(value).strip().lower()
    return {"1": 1, "0": 0, "1.0": 1, "0.0": 0, "true": 1, "false": 0}.get(text)


def _np_round(value: float, places: int) -> float:
    """``np.round(value, places)`` (scale, round half to even, unscale)."""
    scale = 10.0**places
    return float(round(value * scale)) / scale


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "ayavision",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
) -> GradeResult:
    """Grade an AyaVisionBench / VLMBias / Asclepius result table (``index``, ``answer``,
    ``prediction``) from the recorded verdicts. ``rows``: the input plus ``score``,
    ``status`` (``ok``, ``needs_judge``, ``error``, ``missing_truth``), ``reason`` and
    ``decided_by``. ``report``: upstream's table, empty while a row needs a judge."""
    frame = _check_frame(frame)
    if benchmark not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    check_replay_args(judge_policy, recorded)
    if judge is not None:
        raise ValueError(f"{benchmark}: live judging is not supported; rows without a recorded verdict are needs_judge")
    if variant not in (None, "classic"):
        raise ValueError(f"{benchmark} has one rule (variant 'classic'), not {variant!r}")
    for name in ("index", "answer", "prediction"):
        if name not in frame.columns:
            raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    use = recorded if judge_policy == "auto" and recorded is not None and recorded.files else None
    who = f"recorded judge {recorded.judge}" if recorded is not None and recorded.judge else "recorded judge"
    indexes = pandas_str(frame["index"]).to_list()
    preds, answers = pandas_str(frame["prediction"]).to_list(), pandas_str(frame["answer"]).to_list()
    _, answer_cells = pandas_column(frame["answer"])
    missing_answer = [v is None or (isinstance(v, float) and math.isnan(v)) for v in answer_cells.to_list()]
    scores: list[float | None] = [None] * n
    status = ["needs_judge"] * n
    reasons = [""] * n
    by: list[str | None] = [None] * n
    rule_disagreements = 0
    field = "eval_score" if benchmark == "asclepius" else "hit"
    for i in range(n):
        if benchmark == "asclepius" and missing_answer[i]:
            status[i], reasons[i] = "missing_truth", "no answer: upstream does not judge or count it"
            continue
        rec = use.get(indexes[i]) if use is not None else None
        value = None if rec is None else rec.get(field, rec.get("score") if benchmark == "asclepius" else None)
        if value is not None:
            hit = _as_hit(value)
            if hit is None:
                status[i], reasons[i] = "error", f"error: the recorded {field} {value!r} is not 0 or 1; not counted"
                continue
            if benchmark == "vlmbias" and str(rec.get("log")) == "Rule Match" and not omni_rule(preds[i], answers[i])[0]:
                rule_disagreements += 1  # a table of another run's predictions: upstream used it all the same
            scores[i], status[i], by[i] = float(hit), "ok", "recorded"
            reasons[i] = f"{who}: {'right' if hit else 'wrong'}" + (f" ({rec['log']})" if benchmark == "vlmbias" and rec.get("log") else "")
            continue
        if benchmark == "vlmbias":
            equal, p, g = omni_rule(preds[i], answers[i])
            if equal:
                scores[i], status[i], by[i] = 1.0, "ok", "rules"
                reasons[i] = f"right: rule match ({p!r})"
                continue
            reasons[i] = f"needs_judge: the rule does not match ({p!r} vs {g!r}) and no verdict is recorded"
            continue
        reasons[i] = "needs_judge: " + ("--judge none" if judge_policy == "none" else "no recorded verdict for this index")
    undecided = status.count("needs_judge")
    errors = status.count("error")
    report = pl.DataFrame()
    error: str | None = None
    counted = [i for i in range(n) if status[i] == "ok"]
    if undecided == 0 and errors == 0:
        if benchmark == "asclepius":
            values = [scores[i] for i in counted]
            mean = (sum(values) / len(values)) if values else math.nan  # 0/1 values: every summation order agrees
            report = pl.DataFrame({"Overall": [_np_round(mean * 100, 2)]}, schema={"Overall": pl.Float64})
        elif n:
            score = pl.Series("score", [0.0 if s is None else s for s in scores], pl.Float64)
            report, error = _report_acc(frame, _column_map(frame, lower=False), score, pl.Series([True] * n))
            if error:
                report = pl.DataFrame()
    rows = frame.with_columns(
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
        pl.Series("decided_by", by, pl.String),
    )
    n_rec, n_rules = by.count("recorded"), by.count("rules")
    correct = sum(scores[i] for i in counted)  # type: ignore[misc]
    archive_method = None if recorded is None or not recorded.files else (f"judge {recorded.judge}" if recorded.judge else "judge")
    parts = [p for p, k in ((f"{who} ({n_rec} rows)", n_rec), (f"rules (OmniVerifier brace rule, {n_rules} rows)", n_rules)) if k]
    if undecided:
        parts.append(f"{undecided} rows undecided (needs_judge)")
    stats: dict[str, Any] = {
        "benchmark": benchmark,
        "variant": "classic",
        "rows": n,
        "tasks": len(counted),
        "correct": float(correct),
        "accuracy": correct / len(counted) if counted else math.nan,
        **method_keys(
            {"rules": n_rules, "recorded": n_rec, "live": 0, "undecided": undecided},
            " + ".join(parts) or "no rows",
            judge_policy,
            archive_method,
            archive_method is not None and judge_policy == "auto" and undecided == 0 and errors == 0,
        ),
        **disagreement_keys("rule_disagreements", rule_disagreements),
        "status": status_counts(rows),
        "judge": False,
        "reference_error": error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)
