"""PHYSICS / atomic_dataset (VLMEvalKit ``Physics_yale``, benchmark name ``atomic``).

extract → score → aggregate, as in spec §4:

1. ``\\boxed{}`` extraction, natively on all cores: gaia-fast's balanced-brace reader by
   default, the reference regex (linear-time, same matches) for the upstream variants.
2. Per (box, ground truth) pair, the ``is_equiv`` pipeline: exact string match (where the
   version has it), the ``\\text`` route to the judge, SymPy equivalence, the LLM judge for
   what SymPy does not prove. Native fast paths decide the SymPy step without SymPy where
   the verdict is certain (plain numbers, simple fractions, cores ``parse_latex`` rejects
   such as ``50\\%``); the rest runs in the SymPy worker pool with upstream's time limits
   (10 s per standardisation, 30 s per comparison); a timed-out item is recorded as
   ``timeout`` and, as upstream, left to the judge.
3. ``PHYSIC_acc``: ``Subject``/``tot``/``hit``/``acc``.

``variant=`` selects the behaviour (see ``VARIANTS``):

* ``None`` (default): gaia-fast's pipeline: balanced extraction, several ground truths
  (a bracketed list answer), binary score (1 when some box matches some ground truth),
  exact match first, working ``\\text`` route, SymPy-proven matches count, no double count
  in the report.
* ``"head"``: VLMEvalKit 1e2b2f99 → HEAD: partial credit over de-duplicated boxes,
  several ground truths, no exact shortcut, ``Overall`` double count.
* ``"8f07d6cf"``: the first version: SymPy-proven matches do not count (it reads the LLM
  field), ``\\text`` check broken (TAB + ``ext``), ``Overall`` double count.
* ``"a039b677"``: as ``8f07d6cf`` with the working ``\\text`` check.
* ``"dcvlr"``: the oumi/DCVLR fork: SymPy never decides (its UnboundLocalError), so every
  non-identical answer goes to the judge; without a judge only exact matches score.
* ``"yale"``: the yale-nlp/Physics harness that scored the public archives: list-form
  extraction, boxes not de-duplicated, partial credit, ground truths = the answer list;
  report = its ``accuracy.csv`` (``Overall Accuracy``, ``Variance``).

The judge is any ``str -> str`` callable (prompt → reply); a reply counts as "equivalent"
iff it contains ``true`` (any case). Its system prompt is ``JUDGE_SYSTEM_PROMPT``.
"""

from __future__ import annotations

import atexit
import math
import re
import threading
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import polars as pl

from gaia_fast import _native
from gaia_fast.math import physics as _sym
from gaia_fast.math.pool import SympyPool
from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm._lists import list_groups
from gaia_fast.scorers.vlm.physics_tables import (
    JUDGE_SYSTEM_PROMPT,
    JUDGE_USER_PROMPT,
    has_text_command,
    head_ground_truths,
    judge_prompt,
    judge_says_true,
)

__all__ = [
    "JUDGE_SYSTEM_PROMPT",
    "JUDGE_USER_PROMPT",
    "VARIANTS",
    "extract_boxed",
    "grade",
    "physics_equal",
    "report",
]

Judge = Callable[[str], str]

#: Upstream's limits (head, a039b677): standardisation 10 s, comparison 30 s.
STANDARDIZE_TIMEOUT = 10.0
COMPARE_TIMEOUT = 30.0


@dataclass(frozen=True)
class _Spec:
    style: str  # "balanced" | "physics" | "yale"
    text_check: bool  # the `\text` route works (False: TAB + "ext")
    sympy: bool  # SymPy can decide at all (False: dcvlr)
    sympy_counts: bool  # a SymPy-proven pair counts (False: 8f07d6cf reads the LLM field)
    partial: bool  # score = matched boxes / boxes
    dedup: bool  # boxes de-duplicated (head)
    gts: str  # "multi" (lenient list), "head" (list literal, may fail), "strip" (one, stripped), "list"
    exact: bool  # exact string shortcut
    double_overall: bool  # PHYSIC_acc counts rows in `Overall` twice when their category is Overall
    judge_optional: bool  # upstream runs without a judge (dcvlr)


_SPECS: dict[str | None, _Spec] = {
    None: _Spec("balanced", True, True, True, False, False, "multi", True, False, False),
    "head": _Spec("physics", True, True, True, True, True, "head", False, True, False),
    "8f07d6cf": _Spec("physics", False, True, False, False, False, "strip", True, True, False),
    "a039b677": _Spec("physics", True, True, False, False, False, "strip", True, True, False),
    "dcvlr": _Spec("physics", False, False, True, False, False, "strip", True, False, True),
    "yale": _Spec("yale", True, True, True, True, False, "list", False, False, False),
}

#: Accepted ``variant=`` values.
VARIANTS: tuple[str | None, ...] = tuple(_SPECS)

#: Row statuses, most severe first (a row shows the first that applies).
STATUSES = ("bad_answer", "no_answer", "no_prediction", "extract_error", "timeout", "judge_error", "no_judge", "ok")


def extract_boxed(text: str, style: str = "balanced") -> list[str] | None:
    """The ``\\boxed{}`` answers of ``text``.

    ``style="balanced"`` (default): gaia-fast's reader: braces balanced to any depth,
    ``\\{``/``\\}`` literal, ``\\boxed {x}`` accepted, a box holding only a box unwrapped.
    ``style="physics"``: the PHYSICS reference regex (stripped, empties dropped), matched
    in linear time with Python's leftmost-first result. ``style="physics-final"``: what
    VLMEvalKit's PHYSICS scorer compares (that regex, then its nested-box step), ``None``
    where the reference raises StopIteration (a box holding ``\\boxed{}``).
    """
    if isinstance(text, str) and not text.isascii() and _SURROGATE.search(text):
        return _extract_boxed_with_surrogates(text, style)
    return _native.extract_boxed(text, style)


_SURROGATE = re.compile("[\ud800-\udfff]")
_PLANE15 = re.compile("[\U000f0000-\U000ffffd]")


def _extract_boxed_with_surrogates(text: str, style: str) -> list[str] | None:
    """:func:`extract_boxed` of a text holding lone surrogates, still in linear time.

    The native reader takes UTF-8 only; the Python twin's regex backtracks exponentially
    (575 characters took 15 s). Each distinct surrogate is swapped for a private-use code
    point the text does not hold -- to every rule, both are just "some other character"
    (not a brace, backslash or whitespace) -- and swapped back in the boxes."""
    used = set(_PLANE15.findall(text))
    free = (chr(c) for c in range(0xF0000, 0xFFFFE) if chr(c) not in used)
    forward: dict[int, int] = {}
    for s in set(_SURROGATE.findall(text)):  # at most 2048 distinct
        forward[ord(s)] = ord(next(free))
    back = {v: k for k, v in forward.items()}
    boxes = _native.extract_boxed(text.translate(forward), style)
    return None if boxes is None else [b.translate(back) for b in boxes]


# ---------------------------------------------------------------------------------------
# SymPy step: fast path, then the pool
# ---------------------------------------------------------------------------------------

_POOL: SympyPool | None = None


_POOL_LOCK = threading.Lock()


def _default_pool() -> SympyPool:
    global _POOL
    with _POOL_LOCK:  # two threads' first calls share one pool
        if _POOL is None:
            _POOL = SympyPool(timeout=COMPARE_TIMEOUT, warm=("gaia_fast.math.physics",))
            atexit.register(_POOL.close)
        return _POOL


def _core(s: str) -> str:
    return _native.physics_core(_native.physics_preprocess(s))


@dataclass(frozen=True)
class _Sym:
    value: bool | None  # SymPy's result: True (proven), False, None (could not decide)
    path: str  # "fast" | "sympy" | "timeout"
    detail: str = ""

    @property
    def proven(self) -> bool:
        return self.value is True


class _SympyStep:
    """SymPy verdicts for (pred, gt) pairs, cached per grading run."""

    def __init__(
        self,
        pool: SympyPool | None,
        stats: dict[str, int],
        standardize_timeout: float = STANDARDIZE_TIMEOUT,
        compare_timeout: float = COMPARE_TIMEOUT,
    ) -> None:
        self._pool = pool
        self._timeouts = (standardize_timeout, compare_timeout)
        self._cache: dict[tuple[str, str], _Sym] = {}
        self.stats = stats

    def resolve(self, pairs: Sequence[tuple[str, str]]) -> None:
        todo = list(dict.fromkeys(p for p in pairs if p not in self._cache))
        if not todo:
            return
        codes = _native.physics_fast_pairs([p for p, _ in todo], [g for _, g in todo])
        slow: list[tuple[str, str]] = []
        for pair, code in zip(todo, codes):
            if code == 2:
                slow.append(pair)
            else:
                self._cache[pair] = _Sym({1: True, 0: False, 3: None}[code], "fast")
                self.stats["fast_path"] += 1
        if not slow:
            return
        pool = self._pool or _default_pool()
        std_limit, cmp_limit = self._timeouts
        cores = [(_core(p), _core(g), std_limit, cmp_limit) for p, g in slow]
        # hard limit: both standardisations and the comparison at their upstream limits
        outs = pool.map(_sym.equiv_pair, cores, timeout=2 * std_limit + cmp_limit + 5.0)
        for pair, out in zip(slow, outs):
            if out.status == "timeout" or (out.status == "ok" and out.value[0] == "timeout"):
                self._cache[pair] = _Sym(None, "timeout", out.value[1] if out.status == "ok" else "hard limit")
            elif out.status != "ok" or out.value[0] != "ok":
                self._cache[pair] = _Sym(None, "sympy", f"none ({out.value[1] if out.status == 'ok' else out.error})")
            else:
                self._cache[pair] = _Sym(out.value[1], "sympy", repr(out.value[1]))
        self.stats["sympy"] += len(slow)

    def get(self, pair: tuple[str, str]) -> _Sym:
        return self._cache[pair]


# ---------------------------------------------------------------------------------------
# Judge step
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Verdict:
    equivalent: bool
    status: str  # "ok" | "no_judge" | "judge_error"
    error: str | None = None  # judge_error: what failed


class _JudgeStep:
    def __init__(self, judge: Judge | None, concurrency: int, cache: bool, stats: dict[str, int]) -> None:
        self.judge = judge
        self.concurrency = concurrency
        self.cache = cache
        self._cache: dict[str, _Verdict] = {}
        self.stats = stats

    def _one(self, prompt: str) -> _Verdict:
        assert self.judge is not None
        try:
            reply = self.judge(prompt)
        except Exception as e:  # noqa: BLE001 - is_equiv catches it: the pair is not equivalent
            return _Verdict(False, "judge_error", f"{type(e).__name__}: {e}")
        if not isinstance(reply, str):
            return _Verdict(False, "judge_error", f"the judge returned {type(reply).__name__}, not str")
        return _Verdict(judge_says_true(reply), "ok")

    def resolve(self, prompts: list[str]) -> list[_Verdict]:
        if self.judge is None:
            return [_Verdict(False, "no_judge")] * len(prompts)
        if self.cache:
            todo = list(dict.fromkeys(p for p in prompts if p not in self._cache))
        else:
            todo = prompts
        self.stats["judge_calls"] += len(todo)
        if len(todo) > 1 and self.concurrency > 1:
            with ThreadPoolExecutor(min(self.concurrency, len(todo))) as ex:
                answers = list(ex.map(self._one, todo))
        else:
            answers = [self._one(p) for p in todo]
        self.stats["judge_failures"] += sum(a.status == "judge_error" for a in answers)
        if not self.cache:
            return answers
        # a failure is not remembered: a later row asking the same prompt asks again
        self._cache.update((p, a) for p, a in zip(todo, answers) if a.status == "ok")
        fresh = dict(zip(todo, answers))
        return [self._cache.get(p) or fresh[p] for p in prompts]


# ---------------------------------------------------------------------------------------
# Item logic (one generator per row: it asks for SymPy verdicts and judge answers)
# ---------------------------------------------------------------------------------------


@dataclass
class _Row:
    score: float
    status: str
    reason: str
    events: dict[str, int]


def _pair_decision(spec: _Spec, pred: str, gt: str, events: dict[str, int], flags: dict[str, str]) -> Generator:
    """``is_equiv(pred, gt)`` as far as the item logic needs it: yields requests, returns
    (counts, path)."""
    sympy_false = False
    if _text_route(spec, pred, gt):
        route = "text route"
    elif spec.sympy:
        sym: _Sym = yield ("sympy", pred, gt)
        if sym.path == "timeout":
            flags.setdefault("timeout", sym.detail)
            events["sympy_timeouts"] += 1
        if sym.value is not None:
            events["sympy_decided"] += 1
        if sym.proven:
            events["sympy_fast" if sym.path == "fast" else "sympy"] += 1
            if spec.sympy_counts:
                return True, f"sympy{' (fast path)' if sym.path == 'fast' else ''}"
            return False, "sympy proven, not counted (8f07d6cf reads the LLM field)"
        route = "judge"
        sympy_false = sym.value is False
    else:
        route = "judge"
    verdict: _Verdict = yield ("judge", pred, gt)
    if verdict.status != "ok":
        flags.setdefault(verdict.status, verdict.error or "")
    else:
        events["judge"] += 1
        events["sympy_false_judge_true"] += sympy_false and verdict.equivalent
    if route == "text route":
        events["text_route"] += 1
    return verdict.equivalent, f"judge ({route})" if verdict.status == "ok" else verdict.status


def _new_events() -> dict[str, int]:
    """Per-row counters: ``exact`` (shortcut), pairs proven by ``sympy_fast``/``sympy``,
    answered by the ``judge`` (of them via the ``text_route``), ``sympy_decided`` (SymPy
    answered True or False), ``sympy_false_judge_true``, ``sympy_timeouts``."""
    return dict.fromkeys(("exact", "sympy_fast", "sympy", "judge", "text_route", "sympy_decided", "sympy_false_judge_true", "sympy_timeouts"), 0)


def _text_route(spec: _Spec, pred: str, gt: str) -> bool:
    return has_text_command(pred, spec.text_check) or has_text_command(gt, spec.text_check)


def _sympy_pairs(spec: _Spec, preds: list[str], gts: list[str]) -> list[tuple[str, str]]:
    if not spec.sympy:
        return []
    return [(p, g) for p in preds for g in gts if not _text_route(spec, p, g)]


def _item(spec: _Spec, preds: list[str], gts: list[str]) -> Generator[tuple, Any, _Row]:
    events = _new_events()
    flags: dict[str, str] = {}  # status -> detail (the first judge error's message)
    n = len(preds)
    if spec.exact and any(g in preds for g in gts):
        events["exact"] += 1
        return _Row(1.0, "ok", f"exact: ground truth among {n} box(es)", events)
    if spec.partial:
        matched = 0
        how: list[str] = []
        for pred in preds:
            for gt in gts:
                ok, path = yield from _pair_decision(spec, pred, gt, events, flags)
                if ok:
                    matched += 1
                    how.append(path)
                    break
        score = matched / n if n else 0.0
        reason = f"{matched}/{n} box(es) match" + (f" ({', '.join(sorted(set(how)))})" if how else "")
        return _row(score, flags, spec, reason, events)
    for pred in preds:
        for gt in gts:
            ok, path = yield from _pair_decision(spec, pred, gt, events, flags)
            if ok:
                return _row(1.0, flags, spec, f"box {preds.index(pred) + 1}/{n} ≡ ground truth: {path}", events)
    return _row(0.0, flags, spec, f"no box of {n} matches" if n else "no box", events)


def _row(score: float, flags: dict[str, str], spec: _Spec, reason: str, events: dict[str, int]) -> _Row:
    status = _status(flags, spec)
    if status == "judge_error":  # the message first: it is what the user has to act on
        reason = f"judge_error: {flags['judge_error']}; {reason} (a failed judge call counts as not equivalent)"
    return _Row(score, status, reason, events)


def _status(flags: dict[str, str], spec: _Spec) -> str:
    if spec.judge_optional:
        flags.pop("no_judge", None)
    for s in STATUSES:
        if s in flags:
            return s
    return "ok"


def _drive(items: list[Generator], sym: _SympyStep, judge: _JudgeStep) -> list[_Row]:
    """Run the row generators in rounds: each round gathers every pending request, answers
    the SymPy ones through the fast path + pool and the judge ones concurrently."""
    results: list[_Row | None] = [None] * len(items)
    pending: dict[int, tuple] = {}

    def advance(i: int, value: Any) -> None:
        try:
            pending[i] = items[i].send(value)
        except StopIteration as stop:
            results[i] = stop.value
            pending.pop(i, None)

    for i in range(len(items)):
        advance(i, None)
    while pending:
        reqs = list(pending.items())
        sym.resolve([(p, g) for _, (kind, p, g) in reqs if kind == "sympy"])
        jreqs = [(i, judge_prompt(p, g)) for i, (kind, p, g) in reqs if kind == "judge"]
        answers = dict(zip([i for i, _ in jreqs], judge.resolve([pr for _, pr in jreqs])))
        for i, (kind, p, g) in reqs:
            advance(i, sym.get((p, g)) if kind == "sympy" else answers[i])
    return results  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# grade / report
# ---------------------------------------------------------------------------------------


def _ground_truths(spec: _Spec, answer: Any) -> list[str] | str:
    """The row's ground truths, or a status when there are none usable."""
    if answer is None:
        return "no_answer"
    if isinstance(answer, (list, pl.Series)):
        return [str(a) for a in answer if a is not None]
    if spec.gts == "strip":
        return [answer.strip()]
    if spec.gts in ("head", "list"):
        try:
            return head_ground_truths(answer)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return "bad_answer"
    # default: several ground truths when the answer is a list literal, else one, stripped
    try:
        gts = head_ground_truths(answer)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        gts = [answer]
    return [g.strip() for g in gts]


def _extract(spec: _Spec, predictions: pl.Series) -> tuple[list[list[str]], bytes]:
    style = {"balanced": "balanced", "physics": "physics-final", "yale": "physics"}[spec.style]
    boxes, codes = _native.extract_boxed_arrow(predictions, style)
    if spec.style == "yale":
        codes = bytearray(codes)
        for i, row in enumerate(boxes):
            if codes[i] == 0:
                out = _yale_list(row)
                if out is None:
                    codes[i], boxes[i] = 2, []
                else:
                    boxes[i] = out
        codes = bytes(codes)
    return boxes, codes


def _yale_list(boxes: list[str]) -> list[str] | None:
    out: list[str] = []
    for box in boxes:
        found = list_groups(box)  # LIST_PATTERN.findall in linear time
        if found:
            out.extend(p.strip() for item in found if item for p in item.split(","))
            continue
        final = _native.physics_final(box)
        if final is None:
            return None
        out.append(final)
    return out


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Judge | None = None,
    prediction: str = "prediction",
    answer: str = "answer",
    category: str = "category",
    pool: SympyPool | None = None,
    judge_concurrency: int = 8,
    judge_cache: bool = True,
    standardize_timeout: float = STANDARDIZE_TIMEOUT,
    compare_timeout: float = COMPARE_TIMEOUT,
    **family_options: Any,
) -> GradeResult:
    """Grade a PHYSICS (``atomic``) result table (``prediction``, ``answer``, optional
    ``category``; a List(String) ``answer`` column gives several ground truths).

    Every row comes back, in order, with ``extracted`` (the boxes compared), ``score``
    (Float64: 0/1, or the fraction of matching boxes for ``head``/``yale``), ``status``
    and ``reason``. ``report`` is ``PHYSIC_acc`` of the variant (``yale``: its
    ``accuracy.csv``). ``stats`` counts rows by status and pairs by the path that decided
    them (``fast_path`` = SymPy step decided natively, ``sympy`` = by the pool).

    ``judge=None``: pairs that would go to the judge count as not equivalent and their
    rows get status ``no_judge`` (except ``dcvlr``, which upstream runs without one).
    A judge call that raises (or returns a non-str) counts as not equivalent, as upstream's
    ``is_equiv`` has it, and its row gets status ``judge_error`` with the first failure's
    message at the start of ``reason``; a failed prompt is not remembered (a later row
    asks again); ``stats["judge_failures"]`` counts the failed calls.
    ``seed`` is unused (nothing here is random). ``judge_cache=False`` asks the judge
    again for a repeated prompt, as upstream does. ``pool``: the SymPy worker pool (a
    shared one by default); ``standardize_timeout``/``compare_timeout``: upstream's 10 s /
    30 s per-item limits (a pair that runs out is recorded as ``timeout`` and, as
    upstream, left to the judge).
    """
    if variant not in _SPECS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    if family_options:
        raise TypeError(f"unexpected options: {', '.join(sorted(family_options))}")
    spec = _SPECS[variant]
    n = frame.height
    for col in (prediction, answer):
        if col not in frame.columns:
            raise ValueError(f"the PHYSICS table has no {col!r} column (columns: {', '.join(frame.columns)})")
    preds_col = frame.get_column(prediction)
    pred_is_str = preds_col.dtype in (pl.String, pl.Null, pl.Categorical) or isinstance(preds_col.dtype, pl.Enum)
    if pred_is_str:
        preds_col = preds_col.cast(pl.String)
    else:  # upstream: a non-str prediction scores 0
        preds_col = pl.Series(prediction, [None] * n, dtype=pl.String)
    ans_col = frame.get_column(answer)
    if isinstance(ans_col.dtype, pl.List):
        answers = ans_col.to_list()
    else:
        answers = ans_col.cast(pl.String).to_list()
    boxes, codes = _extract(spec, preds_col)
    raw_preds = preds_col.to_list()

    stats: dict[str, Any] = {"variant": variant or "gaia-fast", "rows": n, "fast_path": 0, "sympy": 0,
                             "sympy_timeouts": 0, "judge_calls": 0, "judge_failures": 0}
    items: list[Generator] = []
    prefetch: list[tuple[list[str], list[str]]] = []
    fixed: list[_Row | None] = [None] * n  # rows decided before any equivalence check
    for i in range(n):
        gts = _ground_truths(spec, answers[i])
        empty_events = _new_events()
        if isinstance(gts, str):
            why = "answer is missing" if gts == "no_answer" else "answer is a bracketed non-literal (head cannot load it)"
            fixed[i] = _Row(0.0, gts, why, empty_events)
        elif not raw_preds[i]:
            why = "prediction is not a string" if not pred_is_str and frame.get_column(prediction)[i] is not None else "no prediction"
            fixed[i] = _Row(0.0, "no_prediction", why, empty_events)
        elif codes[i] == 2:
            fixed[i] = _Row(0.0, "extract_error", "a box holds \\boxed{}: upstream raises StopIteration", empty_events)
        else:
            preds = boxes[i]
            if spec.dedup:
                preds = list(dict.fromkeys(preds))
            items.append(_item(spec, preds, gts))
            if not (spec.exact and any(g in preds for g in gts)):
                prefetch.append((preds, gts))
    sym = _SympyStep(pool, stats, standardize_timeout, compare_timeout)
    jdg = _JudgeStep(judge, judge_concurrency, judge_cache, stats)
    # Every SymPy-route pair a row may reach, in one pool batch up front (the verdicts are
    # pure, so asking early only costs the pairs a row skips after an early success).
    sym.resolve([pair for preds, gts in prefetch for pair in _sympy_pairs(spec, preds, gts)])
    driven = iter(_drive(items, sym, jdg))
    rows: list[_Row] = [r if r is not None else next(driven) for r in fixed]

    out = frame.with_columns(
        pl.Series("extracted", boxes, dtype=pl.List(pl.String)),
        pl.Series("score", [r.score for r in rows], dtype=pl.Float64),
        pl.Series("status", [r.status for r in rows], dtype=pl.String),
        pl.Series("reason", [r.reason for r in rows], dtype=pl.String),
    )
    statuses: dict[str, int] = {}
    for r in rows:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    decided = _new_events()
    for r in rows:
        for k, v in r.events.items():
            decided[k] += v
    sym_total = stats["fast_path"] + stats["sympy"]
    stats.update(
        sympy_timeouts=decided["sympy_timeouts"],
        status=statuses,
        pair_events=decided,
        fast_path_share=(stats["fast_path"] / sym_total) if sym_total else None,
    )
    cats = frame.get_column(category).cast(pl.String).to_list() if category in frame.columns else None
    if variant == "yale":
        rep = _yale_report([r.score for r in rows], decided["sympy_decided"], decided["sympy_false_judge_true"])
    else:
        rep = report([r.score for r in rows], cats, double_overall=spec.double_overall)
    if variant in ("head", "8f07d6cf", "a039b677") and "no_answer" in statuses:
        stats["report_note"] = "upstream PHYSIC_acc raises AttributeError on a missing answer; rows scored 0 here"
    return GradeResult(rows=out, report=rep, stats=stats)


def report(scores: Sequence[float], categories: Sequence[str | None] | None, *, double_overall: bool) -> pl.DataFrame:
    """``PHYSIC_acc``: one row per category plus ``Overall``, sorted by ``Subject`` (code
    point order; a null category sorts last, as pandas puts NaN). ``acc = hit / tot ×
    100``, not rounded; ``hit`` adds the scores in row order. ``double_overall``
    (8f07d6cf, head): a row without a category column, or whose category is ``Overall``,
    is counted in ``Overall`` twice."""
    tot: dict[str | None, int] = {}
    hit: dict[str | None, float] = {}
    for i, s in enumerate(scores):
        cate = categories[i] if categories is not None else "Overall"
        keys = ["Overall"]
        if double_overall or cate != "Overall":
            keys.append(cate)
        for k in keys:
            tot[k] = tot.get(k, 0) + 1
            hit.setdefault(k, 0)
            if s:
                hit[k] += s
    subjects = sorted(tot, key=lambda k: (k is None, k or ""))
    return pl.DataFrame(
        {
            "Subject": [k for k in subjects],
            "tot": [tot[k] for k in subjects],
            "hit": [float(hit[k]) for k in subjects],
            "acc": [hit[k] / tot[k] * 100 if tot[k] else 0.0 for k in subjects],
        },
        schema={"Subject": pl.String, "tot": pl.Int64, "hit": pl.Float64, "acc": pl.Float64},
    )


def _yale_report(scores: Sequence[float], sympy_decided: int, sympy_false_judge_true: int) -> pl.DataFrame:
    """The yale harness's ``accuracy.csv``: the mean item accuracy (correctly rounded, as
    ``math.fsum``), the sample variance (``numpy.var(ddof=1)``) and the "Sympy Error
    Correct Ratio": pairs SymPy answered False but the judge accepted, over pairs SymPy
    answered True or False."""
    n = len(scores)
    mean = math.fsum(scores) / n if n else math.nan
    try:
        import numpy as np
    except ImportError:  # numpy is optional: same value up to the last bits
        var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else math.nan
    else:
        var = float(np.var(np.asarray(scores, dtype=np.float64), ddof=1)) if n > 1 else math.nan
    ratio = sympy_false_judge_true / sympy_decided if sympy_decided else math.nan
    return pl.DataFrame({"Overall Accuracy": [mean], "Variance": [var], "Sympy Error Correct Ratio": [ratio]})


def physics_equal(prediction: str, gt: str, judge: Judge | None = None, *, pool: SympyPool | None = None) -> bool:
    """``is_equiv(prediction, gt)`` of gaia-fast's pipeline for one answer pair (no box
    extraction): identical after stripping → True; a ``\\text`` command on either side →
    the judge; else SymPy (native fast path, then the pool with upstream's limits); what
    SymPy does not prove → the judge. ``judge=None``: SymPy's verdict only (a ``\\text``
    pair is then False)."""
    if not isinstance(prediction, str) or not isinstance(gt, str):
        raise TypeError("physics_equal takes two str")
    spec = _SPECS[None]
    stats = {"fast_path": 0, "sympy": 0, "sympy_timeouts": 0, "judge_calls": 0, "judge_failures": 0}
    gen = _item(spec, [prediction.strip()], [gt.strip()])
    (row,) = _drive([gen], _SympyStep(pool, stats), _JudgeStep(judge, 1, True, stats))
    return row.score == 1.0

