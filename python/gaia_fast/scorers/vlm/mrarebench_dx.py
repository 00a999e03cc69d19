"""MRareBench T1 diagnosis (MRareBench_Diagnosis, _FD, _TO): the model's ranked top-10
differential matched against the gold diagnosis and its aliases; Recall@k, MRR and MR
(``MRareBenchDiagnosis.evaluate``, its deterministic part).

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/mrarebench.py`` (aec2f4e9, 2026-07-31,
unchanged to head e8e78f05): ``parse_json_list``, ``normalize_answer``, ``token_set_f1``,
``is_hit``, ``parse_ranked_list`` and ``MRareBenchDiagnosis.evaluate``:

* the prediction ``str(x)`` (``'nan'`` for an empty cell); ``<think>...</think>`` removed;
  items from lines ``N. x`` / ``N) x`` (after a think block with fewer than two such lines,
  also an inline ``1. a 2. b`` split), else the text split on newlines / semicolons
  (stripped of `` -*\\t``); empties dropped, duplicates (ignoring case) dropped, the first 10;
* the gold set: ``str(answer).strip()`` and every non-empty ``str(alias).strip()`` of
  ``parse_json_list(answer_aliases)`` (a JSON list, a JSON scalar as one text, else the
  text split on ``;``); empties dropped;
* a candidate hits when, SQuAD-normalised (lower, ASCII punctuation removed, articles
  removed, spaces collapsed), it equals a gold text, one contains the other, or their
  token-set F1 is >= 0.6; the first hit's rank (1-based) is the row's;
* ``{n_total, n_hit, hit_rate, parse_fail_rate, MRR, MR, recall@1, recall@3, recall@5,
  recall@10}`` (``np.mean`` of the row values; MR the mean first-hit rank over rows with a
  hit, 0.0 if none), written as ``{stem}_detailed_metrics.json``.

``evaluate`` reads the gold texts from the dataset's TSV (``self.data``) by ``index`` and
falls back to the result row; VLMEvalKit's result files carry the TSV's columns, so here
they come from the result row. ``run.py`` passes no judge model for this ``VQA`` set, so the
report has no ``judge_*`` keys; an archive run with ``--judge`` (or a rare-candidate judge)
has extra keys this flow does not reproduce (the executor's comparison names them).
"""

from __future__ import annotations

import json
import math
import re
import string
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str
from gaia_fast.scorers.vlm.judged import _pairwise_sum

__all__ = [
    "gold_set",
    "grade",
    "is_hit",
    "normalize_answer",
    "parse_json_list",
    "parse_ranked_list",
]

TOPK = 10
RECALL_KS = (1, 3, 5, 10)
MATCH_TOKEN_F1_THRESHOLD = 0.6
_PUNCT = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_NUMBERED = re.compile(r"^\s*(\d+)[\.\)]\s*(.+?)\s*$")
_THINK = re.compile(r"(?is)<think>.*?</think>")
_INLINE = re.compile(r"(?:^|\s)\d{1,2}[\.\)]\s+")
_SPLIT = re.compile(r"[\n;]+")



#: The variants a registry entry may name (one rule from its first version to head).
VARIANTS = ("classic",)

def parse_json_list(val: Any) -> list:
    """``parse_json_list``: a cell (None for NaN) as a list."""
    if isinstance(val, list):
        return val
    if val is None or (isinstance(val, float) and math.isnan(val)) or val == "":
        return []
    try:
        parsed = json.loads(val)
        return parsed if isinstance(parsed, list) else [str(parsed)]
    except (json.JSONDecodeError, TypeError):
        return [s.strip() for s in str(val).split(";") if s.strip()]


def normalize_answer(text: str) -> str:
    """SQuAD normalisation as upstream orders it: lower, drop punctuation, articles, spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def _token_f1(a: str, b: str) -> float:
    ta, tb = set(normalize_answer(a).split()), set(normalize_answer(b).split())
    inter = len(ta & tb)
    if not ta or not tb or not inter:
        return 0.0
    p, r = inter / len(ta), inter / len(tb)
    return 2 * p * r / (p + r)


def is_hit(candidate: str, gold: list[str]) -> bool:
    """``is_hit``: equal, contained either way, or token-set F1 >= 0.6 after normalising."""
    nc = normalize_answer(candidate)
    if not nc:
        return False
    for g in gold:
        ng = normalize_answer(g)
        if not ng:
            continue
        if (
            nc == ng
            or ng in nc
            or nc in ng
            or _token_f1(candidate, g) >= MATCH_TOKEN_F1_THRESHOLD
        ):
            return True
    return False


def parse_ranked_list(text: str, topk: int = TOPK) -> list[str]:
    """``parse_ranked_list`` of the prediction text."""
    had_think = "<think>" in text.lower()
    text = _THINK.sub("", text).strip()
    items = [
        m.group(2).strip() for ln in text.splitlines() if (m := _NUMBERED.match(ln))
    ]
    if had_think and len(items) < 2:
        inline = [s.strip(" -*\t\n") for s in _INLINE.split(text) if s.strip()]
        if len(inline) > len(items):
            items = inline
    if not items:
        items = [s.strip(" -*\t") for s in _SPLIT.split(text) if s.strip()]
    seen: set[str] = set()
    cleaned: list[str] = []
    for it in items:
        if it and it.lower() not in seen:
            seen.add(it.lower())
            cleaned.append(it)
    return cleaned[:topk]


def gold_set(answer: str, aliases: Any) -> list[str]:
    """The gold texts of a row: ``str(answer).strip()`` then its aliases, empties dropped."""
    gold = [answer.strip()]
    gold += [str(a).strip() for a in parse_json_list(aliases) if str(a).strip()]
    return [g for g in gold if g]


def _mean(values: list[float]) -> float:
    return (
        _pairwise_sum(list(values), 0, len(values)) / len(values)
        if values
        else math.nan
    )


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade an MRareBench diagnosis result table (``answer``, ``prediction``, optional
    ``answer_aliases``). Rules only. ``rows``: the input plus ``extracted`` (the ranked list
    as JSON, as upstream's ``ranked_list``), ``first_hit_rank`` (-1 for none), ``score``
    (hit 1.0/0.0), ``status`` (``ok``; ``unparsed`` for an empty list) and ``reason``."""
    frame = _check_frame(frame)
    if judge is not None:
        raise ValueError(
            "mrarebench_dx reproduces the deterministic metrics only; it takes no judge"
        )
    if variant not in (None, *VARIANTS):
        raise ValueError(
            f"mrarebench_dx has one rule (variant 'classic'), not {variant!r}"
        )
    for name in ("answer", "prediction"):
        if name not in frame.columns:
            raise ValueError(
                f"mrarebench_dx: the result table has no {name!r} column (columns: {sorted(frame.columns)})"
            )
    n = frame.height
    preds = pandas_str(frame["prediction"]).to_list()
    answers = pandas_str(frame["answer"]).to_list()
    if "answer_aliases" in frame.columns:
        kind, cells = pandas_column(frame["answer_aliases"])
        aliases = (
            cells.to_list()
            if kind == "object"
            else [
                None if isinstance(v, float) and math.isnan(v) else v
                for v in cells.to_list()
            ]
        )
    else:
        aliases = [None] * n  # meta_row.get('answer_aliases', '') -> ''
    ranked_json: list[str] = []
    ranks: list[int | None] = []
    fails: list[int] = []
    reasons: list[str] = []
    for i in range(n):
        ranked = parse_ranked_list(preds[i])
        gold = gold_set(answers[i], aliases[i])
        rank = next(
            (r for r, cand in enumerate(ranked, start=1) if is_hit(cand, gold)), None
        )
        ranked_json.append(json.dumps(ranked, ensure_ascii=False))
        ranks.append(rank)
        fails.append(0 if ranked else 1)
        reasons.append(
            f"{len(ranked)} candidates; "
            + (f"first hit at rank {rank}" if rank else "no hit")
            + f" against {len(gold)} gold text(s)"
        )
    hits = [r is not None for r in ranks]
    hit_ranks = [float(r) for r in ranks if r is not None]
    results: dict[str, float | int] = {
        "n_total": n,
        "n_hit": sum(hits),
        "hit_rate": _mean([float(h) for h in hits]) if n else 0.0,
        "parse_fail_rate": _mean([float(f) for f in fails]) if n else 0.0,
        "MRR": _mean([1.0 / r if r is not None else 0.0 for r in ranks]),
        "MR": _mean(hit_ranks) if hit_ranks else 0.0,
    }
    for k in RECALL_KS:
        results[f"recall@{k}"] = _mean(
            [1.0 if (r is not None and r <= k) else 0.0 for r in ranks]
        )
    report = pl.DataFrame(
        [results],
        schema={k: (pl.Int64 if k.startswith("n_") else pl.Float64) for k in results},
    )
    rows = frame.with_columns(
        pl.Series("extracted", ranked_json, pl.String),
        pl.Series(
            "first_hit_rank", [r if r is not None else -1 for r in ranks], pl.Int64
        ),
        pl.Series("score", [float(h) for h in hits], pl.Float64),
        pl.Series("status", ["unparsed" if f else "ok" for f in fails], pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    stats: dict[str, Any] = {
        "benchmark": "mrarebench_dx",
        "variant": "classic",
        "rows": n,
        "tasks": n,
        "correct": float(sum(hits)),
        "accuracy": results["hit_rate"],
        "decided": {"rules": n, "recorded": 0, "live": 0, "undecided": 0},
        "decided_unit": "rows",
        "method": "rules (ranked list; exact / substring / token F1 >= 0.6 against the gold set)",
        "archive_method": None,
        "matches_archive": True,
        "flags": {"unparsed": sum(fails)} if any(fails) else {},
        "status": dict(sorted(rows.group_by("status").len().iter_rows())),
        "judge": False,
        "reference_error": None,
    }
    return GradeResult(rows=rows, report=report, stats=stats)
