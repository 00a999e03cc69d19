"""OlympiadBench answer equivalence (``specs/vlmevalkit.md`` §5.3-§5.6, §5.9).

``olympiad_equal(prediction, gt, precision, variant)`` is ``MathJudger.judge`` of the
benchmark authors (``variant="openbmb"``, the default) or of VLMEvalKit's port
(``variant="vlmevalkit"``, whose expression test is structural only).

The native core decides everything that needs no computer algebra: preprocessing
(unbalanced ``\\boxed{`` → False), identical answers, different piece counts, and the greedy
pairing whenever each visited pair is decided by a fast rule (identical pieces, Python
``float()`` numbers with percent variants, plain numbers and simple fractions against each
other or against letter expressions). Only the pairs it cannot decide go to SymPy, each in a
worker process of :class:`~gaia_fast.math.pool.SympyPool` with a hard timeout (30 s by
default, VLMEvalKit's own limit). A pair that times out counts as "not equal", as in
VLMEvalKit; the row is then marked ``timeout``.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import gaia_fast._native as _nat
from gaia_fast.math.pool import SympyPool
from gaia_fast.math.olympiad_sympy import is_equal as _sympy_is_equal

__all__ = ["Decision", "judge_many", "olympiad_equal", "olympiad_pool"]

DEFAULT_TIMEOUT = 30.0
_WARM = ("sympy", "sympy.parsing.latex", "gaia_fast.math.olympiad_sympy")

Precision = float | Sequence[float] | None


@dataclass(frozen=True)
class Decision:
    """One judged pair of answers.

    ``equal``: the verdict (``None`` where the reference raises, status ``index_error``).
    ``status``: ``ok``, ``index_error``, ``timeout`` (some pair hit the time limit and
    counted as not equal) or ``worker_error`` (a worker died on a pair; not equal).
    ``path``: ``preprocess_error``, ``identical``, ``length_mismatch``, ``pairing`` (all
    decided natively) or ``sympy`` (some pair went to SymPy).
    """

    equal: bool | None
    status: str
    path: str | None


_pools: dict[float, SympyPool] = {}
_pools_lock = threading.Lock()


def olympiad_pool(timeout: float = DEFAULT_TIMEOUT) -> SympyPool:
    """The process-wide pool for OlympiadBench pairs (started on first use, closed at exit)."""
    with _pools_lock:  # threads calling at once share one pool
        pool = _pools.get(timeout)
        if pool is None:
            pool = _pools[timeout] = SympyPool(timeout=timeout, warm=_WARM)
            atexit.register(pool.close)
    return pool


#: The judges: the benchmark authors' and VLMEvalKit's port.
VARIANTS = ("openbmb", "vlmevalkit")


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")


def _precision_list(precision: Precision, n: int) -> list[float]:
    if precision is None:
        precision = 1e-8
    prec = cast("list[float]", list(precision) if isinstance(precision, (list, tuple)) else [precision])
    return prec * n if len(prec) <= 1 else prec


class _IndexErr(Exception):
    pass


def _pairing(
    list1: list[str], list2: list[str], prec: list[float], verdict: Any
) -> Generator[tuple[str, str, float], None, bool]:
    """The greedy pairing (§5.3 step 9) as a generator: it yields a pair whenever the verdict
    is not known yet and resumes once it is. Raises ``_IndexErr`` where the reference
    raises IndexError."""
    idx = -1
    while list1:
        idx = (idx + 1) % len(list1)
        item1 = list1[idx]
        if idx >= len(prec):
            raise _IndexErr
        p = prec[idx]
        for item2 in list2:
            v = verdict(item1, item2, p)
            while v is None:
                yield (item1, item2, p)
                v = verdict(item1, item2, p)
            if v:
                list1.remove(item1)
                list2.remove(item2)
                prec.remove(p)
                break
        else:
            return False
    return True


@dataclass
class _Job:
    index: int
    lists: tuple[list[str], list[str], list[float]]
    gen: Generator[tuple[str, str, float], None, bool] | None = None
    want: tuple[str, str, float] | None = None
    flag: str = "ok"


def judge_many(
    predictions: Sequence[str],
    gts: Sequence[str],
    precisions: Sequence[Precision] | None = None,
    variant: str = "openbmb",
    *,
    pool: SympyPool | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    stats: dict[str, int] | None = None,
) -> list[Decision]:
    """``judge(predictions[i], gts[i], precisions[i])`` for every i (precision ``None`` =
    the default 1e-8). Native fast paths first; the pairs they leave open go to the pool in
    rounds (one round per step of the pairing that needs SymPy). ``stats``, if given, is
    updated with the number of pairs sent to SymPy and timeouts."""
    _check_variant(variant)
    n = len(predictions)
    if len(gts) != n or (precisions is not None and len(precisions) != n):
        raise ValueError("predictions, gts and precisions differ in length")
    out: list[Decision | None] = [None] * n
    jobs: list[_Job] = []
    for i in range(n):
        prec = None if precisions is None else precisions[i]
        status, equal, path = _nat.olympiad_judge_fast(predictions[i], gts[i], prec, variant)
        if status == "decided":
            out[i] = Decision(equal, "ok", path)
        elif status == "index_error":
            out[i] = Decision(None, "index_error", None)
        else:
            plan = _nat.olympiad_plan(predictions[i], gts[i])
            assert plan is not None  # pending means the pairing was reached
            list1, list2 = plan
            jobs.append(_Job(i, (list1, list2, _precision_list(prec, len(list1)))))
    if not jobs:
        return out  # type: ignore[return-value]
    pool = pool or olympiad_pool(timeout)
    known: dict[tuple[str, str, float], bool] = {}
    flags: dict[tuple[str, str, float], str] = {}

    def verdict(a: str, b: str, p: float) -> bool | None:
        v = _nat.olympiad_pair(a, b, p, variant)
        if v is not None:
            return v
        return known.get((a, b, p))

    for job in jobs:
        job.gen = _pairing(*job.lists, verdict)

    active = jobs
    sent = 0
    while active:
        requests: dict[tuple[str, str, float], None] = {}
        still: list[_Job] = []
        for job in active:
            assert job.gen is not None
            try:
                want = next(job.gen) if job.want is None else job.gen.send(None)
            except StopIteration as stop:
                out[job.index] = Decision(bool(stop.value), job.flag, "sympy")
                continue
            except _IndexErr:
                out[job.index] = Decision(None, "index_error", None)
                continue
            job.want = want
            requests[want] = None
            still.append(job)
        if not requests:
            break
        # Longest first: long texts take SymPy longest, and starting them early keeps every
        # worker busy until the end of the round.
        keys = sorted(requests, key=lambda k: len(k[0]) + len(k[1]), reverse=True)
        outcomes = pool.map(_sympy_is_equal, [(a, b, p, variant) for a, b, p in keys])
        sent += len(keys)
        for key, o in zip(keys, outcomes):
            if o.status == "ok":
                known[key] = bool(o.value)
            else:
                known[key] = False
                flags[key] = "timeout" if o.status == "timeout" else "worker_error"
        for job in still:
            if job.want in flags and job.flag == "ok":
                job.flag = flags[job.want]
        active = still
    if stats is not None:
        stats["sympy_pairs"] = stats.get("sympy_pairs", 0) + sent
        stats["sympy_timeouts"] = stats.get("sympy_timeouts", 0) + sum(1 for f in flags.values() if f == "timeout")
    return out  # type: ignore[return-value]


def olympiad_equal(
    prediction: str,
    gt: str,
    precision: Precision = 1e-8,
    variant: str = "openbmb",
    *,
    timeout: float = DEFAULT_TIMEOUT,
    pool: SympyPool | None = None,
) -> bool | None:
    """``MathJudger.judge(prediction, gt, precision)`` of the chosen judge (spec §5.3).

    ``precision``: a float or a list of floats (indexed by the prediction's pieces, as the
    reference does; the caller's list is not consumed). Returns ``None`` where the
    reference raises (a precision list shorter than the pieces: IndexError). A SymPy pair
    that runs out of ``timeout`` seconds counts as not equal.
    """
    if not isinstance(prediction, str) or not isinstance(gt, str):
        raise TypeError("prediction and gt must be str")
    return judge_many([prediction], [gt], [precision], variant, pool=pool, timeout=timeout)[0].equal
