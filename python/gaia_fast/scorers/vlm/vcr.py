"""VCR, English (``VCRDataset``: ``VCR_EN_EASY_*``, ``VCR_EN_HARD_*``), laid out as
extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/vcr.py`` (``process_match_single_new``,
``find_best_match``, ``rough_filter``, ``VCRDataset.evaluate``) at e8e78f05; the same
computation since ec176904 (2024-08-07).

Per row: the text after the last ``"Assistant: "`` of the prediction; a refusal (``I can't``,
``I cannot``, ``sorry`` in any case, ``无法``, ``抱歉``) scores every blank 0. Else, for each
covered n-gram of the ``answer`` list (``eval`` of its text): the prediction and the n-gram are
tokenised with spaCy's English tokenizer; among the prediction's token n-grams of the same
length that share a token with it, the one with the highest ``difflib.SequenceMatcher`` ratio
(joined by spaces; first on ties) is the match. Per blank: ``exact_match`` (token lists equal),
``jaccard`` (token sets), precision, recall, F1, and ``rouge1`` (HF ``evaluate``'s rouge over
``rouge_score`` with the same tokenizer, one pair: its F-measure). Report
``{stem}_en_{easy|hard}_score.json``: ``Exact_Match`` and ``Jaccard`` (``np.mean`` over every
blank of every row) and ``Predictions`` (each row's blanks, as upstream writes them).

The tokenizer: upstream loads the trained pipeline ``en_core_web_sm``; its tokenizer is spaCy's
rule-based English tokenizer, which ``spacy.blank("en")`` builds from the same rules with no
model download (the other pipeline steps do not change tokens). Only English is graded: the
Chinese names load ``zh_core_web_sm``, whose word segmentation is a trained pkuseg model.

Where the reference raises (a prediction that is not text, an answer that is not a list
literal) the row's status is ``reference_error`` and the report values are null. Needs
``spacy`` and ``numpy`` (``pip install gaia-fast[vcr]``).
"""

from __future__ import annotations

import ast
import difflib
import functools
import math
from collections import Counter
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column

__all__ = ["best_match", "grade", "tokenize"]


#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)


@functools.lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        import spacy
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"VCR grading needs spaCy's English tokenizer: pip install 'gaia-fast[vcr]' ({e})") from e
    return spacy.blank("en")


def tokenize(text: str) -> list[str]:
    """The reference's ``tokenize(text, 'en')``: spaCy English token texts."""
    return [t.text for t in _nlp()(text)]


def _zero(crossed: str) -> dict[str, Any]:
    return {
        "crossed_text": crossed, "max_sim_val": 0, "max_sim_string": "", "precision": 0, "recall": 0,
        "f1": 0, "jaccard": 0, "rouge1": 0, "exact_match": 0,
    }  # fmt: skip


def _rouge1(prediction: str, reference: str) -> float:
    """``rouge_score`` rouge1 F-measure with the spaCy tokenizer (n-gram counts, clipped)."""
    target = Counter(tokenize(reference))
    pred = Counter(tokenize(prediction))
    inter = sum(min(c, pred[t]) for t, c in target.items())
    p = inter / max(sum(pred.values()), 1)
    r = inter / max(sum(target.values()), 1)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def best_match(needle: str, hay: str) -> dict[str, Any]:
    """``find_best_match(needle, hay, 'en', rouge)``."""
    tokens_hay = tokenize(hay)
    tokens_needle = tokenize(needle)
    n = len(tokens_needle)
    needle_set = set(tokens_needle)
    max_val: float = 0
    max_string = ""
    max_ngram: tuple[str, ...] = ()
    if n:
        for i in range(len(tokens_hay) - n + 1):
            ngram = tuple(tokens_hay[i : i + n])
            if set(ngram).isdisjoint(needle_set):
                continue
            joined = " ".join(ngram)
            sim = difflib.SequenceMatcher(None, joined, needle).ratio()
            if sim > max_val:
                max_val, max_string, max_ngram = sim, joined, ngram
    if not max_ngram:
        return {
            "crossed_text": needle, "max_sim_val": 0, "max_sim_string": "", "precision": 0, "recall": 0,
            "f1": 0, "jaccard": 0, "rouge1": 0, "exact_match": 0,
        }  # fmt: skip
    pred_set, ref_set = set(max_ngram), set(tokens_needle)
    k = len(pred_set & ref_set)
    precision = k / len(pred_set)
    recall = k / len(ref_set)
    f1 = 0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    union = pred_set | ref_set
    return {
        "crossed_text": needle,
        "max_sim_string": max_string,
        "max_sim_val": max_val,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "jaccard": k / len(union) if union else 0,
        "rouge1": _rouge1(max_string, needle),
        "exact_match": float(list(max_ngram) == tokens_needle),
    }


def _refused(text: str) -> bool:
    return "I can't" in text or "I cannot" in text or "sorry" in text.lower() or "无法" in text or "抱歉" in text


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    language: str = "en",
) -> GradeResult:
    """Grade a VLMEvalKit VCR (English) result table.

    ``rows``: every input row plus ``extracted`` (each blank's matched string, ``" | "``-joined),
    ``rule`` (``matched``, ``refused``), ``score`` (the row's mean Jaccard over its blanks),
    ``exact_match`` (the row's mean) and ``status``. ``report``: the ``_score.json``
    (``Exact_Match``, ``Jaccard``, ``Predictions``). No judge.
    """
    import numpy as np

    frame = _check_frame(frame)
    if language != "en":
        raise ValueError("vcr: only English is graded (the Chinese names tokenise with the trained zh_core_web_sm pipeline)")
    if variant not in (None, *VARIANTS):
        raise ValueError(f"vcr: unknown variant {variant!r}; the only one is 'classic'")
    if judge is not None:
        raise ValueError("vcr: the reference evaluation has no judge step")
    for c in ("prediction", "answer"):
        if c not in frame.columns:
            raise ValueError(f"vcr: the result table has no {c!r} column (columns: {sorted(frame.columns)})")
    n = frame.height
    _, preds = pandas_column(frame["prediction"])
    _, answers = pandas_column(frame["answer"])
    em_all: list[float] = []
    jac_all: list[float] = []
    predictions: dict[str, dict[str, Any]] = {}
    extracted: list[str | None] = []
    rules: list[str] = []
    row_jac: list[float | None] = []
    row_em: list[float | None] = []
    status: list[str] = []
    error: str | None = None
    for i, (p, a) in enumerate(zip(preds.to_list(), answers.to_list())):
        try:
            if isinstance(a, str):
                try:
                    a = ast.literal_eval(a)
                except (ValueError, SyntaxError) as e:
                    raise TypeError(f"answer {a!r} is not a list literal (eval upstream): {e}") from e
            if not isinstance(a, list):
                raise TypeError(f"answer {a!r} is not a list (AssertionError upstream)")
            if not isinstance(p, str):
                raise TypeError(f"prediction {p!r} is not text: .split raises upstream")
        except TypeError as e:
            error = error or f"row {i}: {e}"
            predictions[str(i)] = {}
            extracted.append(None)
            rules.append("reference_error")
            row_jac.append(None)
            row_em.append(None)
            status.append("reference_error")
            continue
        result = p.split("Assistant: ")[-1]
        refused = _refused(result)
        blanks = {str(j): (_zero(t) if refused else best_match(t, result)) for j, t in enumerate(a)}
        predictions[str(i)] = blanks
        for b in blanks.values():
            em_all.append(b["exact_match"])
            jac_all.append(b["jaccard"])
        extracted.append(" | ".join(b["max_sim_string"] for b in blanks.values()))
        rules.append("refused" if refused else "matched")
        row_jac.append(sum(b["jaccard"] for b in blanks.values()) / len(blanks) if blanks else None)
        row_em.append(sum(b["exact_match"] for b in blanks.values()) / len(blanks) if blanks else None)
        status.append("ok" if blanks else "no_blanks")

    # np.mean, as upstream (its pairwise sum is what the report holds); 0 before any row
    em = float(np.mean(em_all)) if n and em_all else (0 if not n else math.nan)
    jac = float(np.mean(jac_all)) if n and jac_all else (0 if not n else math.nan)
    if error:
        em = jac = None  # type: ignore[assignment]
    report = pl.DataFrame([{"Exact_Match": em, "Jaccard": jac, "Predictions": predictions}]) if predictions else pl.DataFrame({"Exact_Match": [em], "Jaccard": [jac]})
    rows = frame.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("rule", rules, pl.String),
        pl.Series("score", row_jac, pl.Float64),
        pl.Series("exact_match", row_em, pl.Float64),
        pl.Series("status", status, pl.String),
    )
    stats: dict[str, Any] = {
        "benchmark": "vcr",
        "variant": "classic",
        "rows": n,
        "tasks": len(em_all),
        "blanks": len(em_all),
        "correct": sum(em_all),
        "accuracy": em if em is not None else math.nan,
        "rules": dict(sorted(Counter(rules).items())),
        "reference_error": error,
        "crashed_rows": status.count("reference_error"),
        "predictions": predictions,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
