"""Throughput and memory benchmark for the GAIA scorers.

One command::

    python benches/bench_gaia.py            # full run: 5M pairs, 200k twin sample, 10M-row memory run
    python benches/bench_gaia.py --quick    # smoke run, well under a minute

Measures, in one run on one synthetic GAIA-like data set:

* the pure-Python twin (``gaia_fast.reference.gaia``) and the native scalar functions, each
  called once per row from a Python loop, on a sample of ``--twin-rows`` pairs;
* ``gf.score_batch`` on all ``--rows`` pairs, on all cores and (in a subprocess with
  ``RAYON_NUM_THREADS=1``) on one, for the three scorers, on the pairs as read back from
  Parquet (the layout of an archive a user re-grades); also on the generated in-memory
  frame, whose shuffle scattered the string views, and on pooled data;
* end to end, Parquet file -> ``gf.expr.score`` -> ``sink_parquet`` / streaming ``collect``;
* peak memory of ``score_batch`` / ``score_frame`` on a ``--memory-rows`` frame, in fresh
  subprocesses (VmRSS / VmHWM from ``/proc/self/status``).

``--mix realistic`` measures data shaped like real agent runs instead (``realistic_mix.py``:
long and null predictions, non-ASCII text) and adds a per-length-bucket table and a table
of ns per byte on adversarial shapes of up to 1 MB.

It checks that native decisions equal the twin's on the sample (and stops if they differ),
and prints machine facts, a throughput table and a memory table in Markdown. Fast paths
report the best of ``--reps`` repetitions, and so do the Python loops, taking turns with
the batch calls (the machine's speed varies from one second to the next; the best of each
side, sampled alike, is the fairest ratio). Each timed row also
shows how much CPU other processes took meanwhile (the numbers are only meaningful on an
idle machine; ``--wait-idle S`` waits for one first). Dependencies: polars, pyarrow, numpy
and gaia_fast itself.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

import gaia_fast as gf
from gaia_fast import _native
from gaia_fast.reference import gaia as twin

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realistic_mix  # noqa: E402  (the sibling module, also when run from elsewhere)

SCORERS: tuple[str, ...] = ("gaia", "gaia-lenient", "gaia-graded")
SEED = 20240917
POOL_SIZE = 50_000

# =========================================================================================
# Synthetic GAIA-like data
# =========================================================================================

_SYLLABLES = (
    "ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru "
    "sa se si so su ta te ti to tu va ve vi vo an el in or us ar en is on st th ch sh gr br tr"
).split()

_REAL_NAMES = (
    "Paris", "London", "Saint Petersburg", "New York", "Rio de Janeiro", "Mercury", "Jupiter",
    "Beatles", "Isaac Newton", "Marie Curie", "Ada Lovelace", "Alan Turing", "Nile", "Amazon",
    "Mount Everest", "Kilimanjaro", "Pacific Ocean", "Tokyo", "Buenos Aires", "Cape Town",
    "Hydrogen", "Oxygen", "Photosynthesis", "Mitochondria", "Shakespeare", "Hamlet", "Macbeth",
    "Van Gogh", "Mona Lisa", "Wikipedia", "Python", "Rust", "Linux", "Einstein", "Darwin",
    "Galileo", "Apollo 11", "Voyager", "Titanic", "Mozart", "Beethoven", "Bach", "Picasso",
    "St. Louis", "Washington D.C.", "U.S.A.", "Dr. Who", "O'Brien", "Coca-Cola", "X-ray",
)

_NON_ASCII_NAMES = (
    "Zürich", "São Paulo", "Malmö", "Kraków", "Besançon", "Reykjavík", "Ærøskøbing", "Düsseldorf",
    "Łódź", "Curaçao", "Ciudad de México", "Ñuñoa", "Gödel", "Paul Erdős", "Antonín Dvořák",
    "Emily Brontë", "Erwin Schrödinger", "Côte d'Ivoire", "Αθήνα", "Θεσσαλονίκη", "Ηράκλειο",
    "Σωκράτης", "東京", "北京市", "大阪", "富士山", "서울", "Москва", "Санкт-Петербург",
    "Niño Jesús", "Straße", "İstanbul",
)

_ASCII_FOLD = {
    "ü": "u", "ã": "a", "ö": "o", "ó": "o", "ç": "c", "í": "i", "é": "e", "ë": "e", "ő": "o",
    "ř": "r", "á": "a", "ñ": "n", "Ñ": "N", "Ł": "L", "ź": "z", "ô": "o", "Æ": "AE",
    "ø": "o", "ß": "ss", "İ": "I",
}
_FULLWIDTH = {str(d): chr(0xFF10 + d) for d in range(10)}
_ARABIC_INDIC = {str(d): chr(0x0660 + d) for d in range(10)}


def _vocabulary(rng: np.random.Generator, size: int = 5_000) -> np.ndarray:
    """Pseudo-words (2-3 syllables, title case) plus a few real names and places."""
    syl = np.array(_SYLLABLES)
    n_syl = rng.choice([2, 3], size=size, p=[0.6, 0.4])
    parts = syl[rng.integers(0, len(syl), size=(size, 3))]
    words = [("".join(p[:k])).title() for p, k in zip(parts, n_syl)]
    return np.array(sorted(set(words)) + list(_REAL_NAMES), dtype=object)


def _pick(var: str, options: Sequence[pl.Expr]) -> pl.Expr:
    """``options[frame[var]]`` row by row."""
    out = options[-1]
    for i in range(len(options) - 2, -1, -1):
        out = pl.when(pl.col(var) == i).then(options[i]).otherwise(out)
    return out


def _assemble(frame: pl.DataFrame, truth: pl.Expr, variants: Sequence[pl.Expr], kind: str) -> pl.DataFrame:
    """Rows of ``frame`` with prediction ``variants[var]``; each variant is computed on its
    own rows only (the caller shuffles the result)."""
    lazy = frame.lazy()
    parts = pl.collect_all(
        [lazy.filter(pl.col("var") == i).select(prediction=e.cast(pl.String), truth=truth) for i, e in enumerate(variants)]
    )
    return pl.concat(parts).with_columns(kind=pl.lit(kind))


def _choose(rng: np.random.Generator, n: int, weights: Sequence[float]) -> np.ndarray:
    w = np.asarray(weights, dtype=float)
    return rng.choice(len(w), size=n, p=w / w.sum())


def _thousands(value: pl.Expr, sep: str = ",") -> pl.Expr:
    """Integer ``1234567`` -> ``"1,234,567"`` (0 <= value < 10**12), by arithmetic."""
    groups = [(value // 1000**i % 1000).cast(pl.String).str.zfill(3) for i in range(4)]
    out = value.cast(pl.String)
    for i in range(1, 4):
        lead = (value // 1000**i).cast(pl.String)
        out = pl.when(value >= 1000**i).then(_cat(lead, *[p for g in groups[i - 1 :: -1] for p in (sep, g)])).otherwise(out)
    return out


def _cat(*parts: pl.Expr | str) -> pl.Expr:
    return pl.concat_str([pl.lit(p) if isinstance(p, str) else p for p in parts])


def _log_ints(rng: np.random.Generator, n: int, max_exp: float) -> np.ndarray:
    return (10 ** rng.uniform(0, max_exp, n)).astype(np.int64)


# Each answer kind below lists (weight, prediction expression) variants; "(true)"/"(false)"
# notes the official gaia decision where it is obvious.


def _integers(rng: np.random.Generator, n: int) -> pl.DataFrame:
    v = pl.col("v")
    s = v.cast(pl.String)
    variants = [
        (40, s),                                                 # exact
        (10, _thousands(v)),                                     # 1,234 (true)
        (8, _cat("$", _thousands(v))),                           # $1,234 (true)
        (4, _cat(s, "%")),                                       # 12% (true)
        (12, (v + pl.col("d")).cast(pl.String)),                 # off by a little (false)
        (6, _cat(s, ".0")),                                      # 12.0 (true)
        (6, _cat(" ", s, " ")),                                  # spaces (true: float strips)
        (6, _cat(s, " km")),                                     # unit (false)
        (8, _thousands(v, " ")),                                 # 1 234 (false)
    ]
    frame = pl.DataFrame(
        {
            "v": _log_ints(rng, n, 7),
            "d": rng.choice(np.array([-2, -1, 1, 2]), n),
            "var": _choose(rng, n, [w for w, _ in variants]),
        }
    )
    return _assemble(frame, s, [e for _, e in variants], "integer")


def _decimals(rng: np.random.Generator, n: int) -> pl.DataFrame:
    ip = pl.col("ip").cast(pl.String)
    frac = pl.col("fp").cast(pl.String).str.zfill(pl.col("nd"))
    truth = _cat(ip, ".", frac)
    variants = [
        (45, truth),                                                      # exact
        (10, _cat(truth, "0")),                                           # 3.50 (true)
        (8, _cat("$", _thousands(pl.col("ip")), ".", frac)),              # $1,234.5 (true)
        (12, _cat(ip, ".", (pl.col("fp") + 1).cast(pl.String).str.zfill(pl.col("nd")))),  # last digit off
        (5, _cat(truth, "%")),                                            # 3.5% (true)
        (10, _cat(ip, ".", frac.str.head(pl.col("nd") - 1))),             # truncated
        (5, ip),                                                          # integer part
        (5, _cat("approx. ", truth)),                                     # prose (false)
    ]
    nd = rng.integers(1, 4, n)
    frame = pl.DataFrame(
        {
            "ip": _log_ints(rng, n, 4),
            "nd": nd,
            "fp": rng.integers(0, 10**nd),
            "var": _choose(rng, n, [w for w, _ in variants]),
        }
    )
    return _assemble(frame, truth, [e for _, e in variants], "decimal")


def _join(items: Sequence[pl.Expr], sep: str) -> pl.Expr:
    """Join the non-null ``items`` with ``sep``."""
    return pl.concat_str(items, separator=sep, ignore_nulls=True)


def _word_columns(rng: np.random.Generator, n: int, vocab: np.ndarray, count: int) -> dict[str, pl.Series]:
    words = pl.Series(vocab, dtype=pl.String)
    return {f"w{i}": words.gather(rng.integers(0, len(vocab), n)) for i in range(count)}


def _lists(rng: np.random.Generator, n: int, vocab: np.ndarray) -> pl.DataFrame:
    words = _word_columns(rng, n, vocab, 6)
    numeric = pl.Series(rng.random(n) < 0.35)
    k = pl.col("k")
    raw = [
        pl.when(pl.col("numeric")).then(pl.col(f"n{i}").cast(pl.String)).otherwise(pl.col(f"w{i}"))
        for i in range(6)
    ]
    # Items 0..k-1 of the answer (null past k), the spare item 5 for a wrong answer.
    item = [pl.when(k > i).then(raw[i]) for i in range(5)]
    spare = raw[5]
    head = [pl.when(k - 1 > i).then(raw[i]) for i in range(5)]  # all but the last item
    last = pl.coalesce([pl.when(k - 1 == i).then(raw[i]) for i in range(5)])
    seps = [", ", ",", "; "]
    truth = _pick("tsep", [_join(item, s) for s in seps])
    odd_seps = [" , ", ",  ", ";", " ;", ",\t"]
    shuffled = [item[j] for j in (3, 0, 4, 1, 2)]
    variants = [
        (35, truth),                                                      # exact
        (15, _pick("psep", [_join(item, s) for s in odd_seps])),          # random spaces / ; vs ,
        (12, _join(item[::-1], ", ")),                                    # reordered
        (8, _join(shuffled, ", ")),                                       # shuffled
        (10, _join([*head, spare], ", ")),                                # last item wrong
        (7, _join(head, ", ")),                                           # last item missing
        (8, truth.str.to_lowercase()),                                    # case
        (5, _cat(_join(head, ", "), ", and ", last)),                     # "a, b, and c"
    ]
    frame = pl.DataFrame(
        {
            **words,
            **{f"n{i}": rng.integers(1, 1000, n) for i in range(6)},
            "numeric": numeric,
            "k": rng.integers(2, 6, n),
            "tsep": _choose(rng, n, [60, 25, 15]),
            "psep": rng.integers(0, len(odd_seps), n),
            "var": _choose(rng, n, [w for w, _ in variants]),
        }
    )
    return _assemble(frame, truth, [e for _, e in variants], "list")


def _strings(rng: np.random.Generator, n: int, vocab: np.ndarray) -> pl.DataFrame:
    nw = pl.col("nw")
    truth = _join([pl.col("w0"), pl.when(nw > 1).then(pl.col("w1")), pl.when(nw > 2).then(pl.col("w2"))], " ")
    other = _join([pl.col("w3"), pl.when(nw > 1).then(pl.col("w4")), pl.when(nw > 2).then(pl.col("w5"))], " ")
    variants = [
        (35, truth),                                                  # exact
        (12, truth.str.to_lowercase()),                               # case (true)
        (5, truth.str.to_uppercase()),                                # case (true)
        (8, _cat(truth, ".")),                                        # punctuation (true)
        (6, _cat("The ", truth)),                                     # article (official false, lenient true)
        (12, other),                                                  # wrong answer
        (6, _cat("  ", truth.str.replace_all(" ", "  ", literal=True))),  # spaces (true)
        (5, truth.str.replace_all(" ", "-", literal=True)),           # hyphens (true)
        (3, _cat(truth, " (approx.)")),                               # qualifier
        (8, pl.col("w0")),                                            # first word only
    ]
    frame = pl.DataFrame(
        {
            **_word_columns(rng, n, vocab, 6),
            "nw": _choose(rng, n, [50, 35, 15]) + 1,
            "var": _choose(rng, n, [w for w, _ in variants]),
        }
    )
    return _assemble(frame, truth, [e for _, e in variants], "string")


def _non_ascii(rng: np.random.Generator, n: int) -> pl.DataFrame:
    names = np.array(_NON_ASCII_NAMES, dtype=object)
    name, other = pl.col("name"), pl.col("other")
    v = pl.col("v")
    s = v.cast(pl.String)
    variants = [
        (22, name),                                                        # exact
        (8, name.str.to_lowercase()),                                      # case
        (6, name.str.to_uppercase()),                                      # case (Greek/Cyrillic too)
        (6, name.str.replace_all(" ", "\u00a0", literal=True)),            # NBSP for space
        (8, name.str.replace_many(_ASCII_FOLD)),                           # accents dropped
        (6, other),                                                        # wrong
        (18, s.str.replace_many(_FULLWIDTH)),                              # '１２' for 12
        (8, s.str.replace_many(_ARABIC_INDIC)),                            # '١٢' for 12
        (10, _thousands(v, "\u00a0")),                                     # 1 234 with NBSP
        (8, _thousands(v).str.replace_many(_FULLWIDTH)),                   # '１,２３４'
    ]
    first_number_variant = 6
    frame = pl.DataFrame(
        {
            "name": pl.Series(names[rng.integers(0, len(names), n)], dtype=pl.String),
            "other": pl.Series(names[rng.integers(0, len(names), n)], dtype=pl.String),
            "v": _log_ints(rng, n, 6),
            "var": _choose(rng, n, [w for w, _ in variants]),
        }
    )
    truth = pl.when(pl.col("var") >= first_number_variant).then(s).otherwise(name)
    return _assemble(frame, truth, [e for _, e in variants], "non-ascii")


#: Share of each answer kind (GAIA answers: mostly short numbers, names and lists).
KIND_WEIGHTS: dict[str, float] = {"integer": 0.25, "decimal": 0.12, "list": 0.20, "string": 0.38, "non-ascii": 0.05}
NULL_PREDICTION_SHARE = 0.01


def generate_pairs(n: int, seed: int = SEED) -> pl.DataFrame:
    """``n`` synthetic (prediction, truth) pairs, vectorised, each row drawn independently.

    Columns: ``prediction`` (String, ~1 % null), ``truth`` (String), ``kind`` (String).
    """
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng)
    counts = rng.multinomial(n, list(KIND_WEIGHTS.values()))
    makers: dict[str, Callable[[np.random.Generator, int], pl.DataFrame]] = {
        "integer": _integers,
        "decimal": _decimals,
        "list": lambda r, k: _lists(r, k, vocab),
        "string": lambda r, k: _strings(r, k, vocab),
        "non-ascii": _non_ascii,
    }
    parts = [makers[kind](rng, int(count)) for kind, count in zip(KIND_WEIGHTS, counts)]
    frame = pl.concat(parts, how="vertical").rechunk()
    frame = frame[rng.permutation(n)]
    null_pred = pl.Series(rng.random(n) < NULL_PREDICTION_SHARE)
    frame = frame.with_columns(prediction=pl.when(null_pred).then(None).otherwise(pl.col("prediction")))
    return frame.rechunk()


def pooled_pairs(n: int, pool_size: int = POOL_SIZE, seed: int = SEED) -> pl.DataFrame:
    """``n`` rows sampled (numpy indices) from ``pool_size`` generated pairs."""
    pool = generate_pairs(pool_size, seed + 1)
    idx = np.random.default_rng(seed + 2).integers(0, pool_size, n)
    return pool[idx].rechunk()


# =========================================================================================
# Measurement helpers
# =========================================================================================


@dataclasses.dataclass(frozen=True)
class Timing:
    """Wall time of one measured call, the CPU time this process (and its finished
    children) spent on it, and the share of the machine's CPU time that other processes
    used meanwhile (0 = they were idle; ``None`` where /proc/stat is missing)."""

    seconds: float
    cpu: float
    others: float | None


def _machine_busy_s() -> float | None:
    """CPU seconds spent busy by all processes since boot (/proc/stat, all CPUs)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:9]]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_cpu_s() -> float:
    """CPU seconds of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn: Callable[[], Any]) -> tuple[Timing, Any]:
    """Run ``fn`` once; its Timing and result."""
    gc.collect()
    busy0, own0, t0 = _machine_busy_s(), _own_cpu_s(), time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - t0
    busy1, own1 = _machine_busy_s(), _own_cpu_s()
    others = None
    if busy0 is not None and busy1 is not None:
        ncpu = len(os.sched_getaffinity(0))
        others = min(1.0, max(0.0, ((busy1 - busy0) - (own1 - own0)) / (seconds * ncpu)))
    return Timing(seconds, own1 - own0, others), out


def others_cpu_share(seconds: float) -> float | None:
    """Share of the machine's CPU used by other processes over the next ``seconds``."""
    return timed(lambda: time.sleep(seconds))[0].others


def wait_for_idle(limit_s: float, threshold: float = 0.10, probe_s: float = 5.0) -> str:
    """Wait (up to ``limit_s``) until other processes use under ``threshold`` of the CPU."""
    start = time.perf_counter()
    while True:
        share = others_cpu_share(probe_s)
        waited = time.perf_counter() - start
        if share is None or share < threshold:
            return f"idle after {waited:.0f} s (others' CPU {share if share is None else f'{share:.0%}'} over {probe_s:.0f} s)"
        if waited >= limit_s:
            return f"NOT idle after waiting {waited:.0f} s (others' CPU {share:.0%} over the last {probe_s:.0f} s)"
        log(f"waiting for an idle machine: others use {share:.0%} of the CPU")


def interleaved_best(reps: int, fns: Sequence[Callable[[], Any]]) -> list[tuple[Timing, Any]]:
    """Call ``fns`` in turn, ``reps`` rounds; per function its fastest call and the result
    of its last one."""
    best: list[tuple[Timing, Any] | None] = [None] * len(fns)
    for _ in range(reps):
        for k, fn in enumerate(fns):
            t, out = timed(fn)
            prev = best[k]
            best[k] = (t if prev is None or t.seconds < prev[0].seconds else prev[0], out)
    return [b for b in best if b is not None]


def best_of(reps: int, fn: Callable[[], Any]) -> Timing:
    """The fastest of ``reps`` calls."""
    return min((timed(fn)[0] for _ in range(reps)), key=lambda t: t.seconds)


def proc_status_kib(field: str) -> int:
    """``VmRSS``/``VmHWM``/... of this process, in KiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def reset_peak_rss() -> bool:
    """Reset VmHWM to the current RSS (Linux ``clear_refs`` 5); False where not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def mib(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:,.1f} MiB"


def rate(rows: int, seconds: float) -> str:
    per_s = rows / seconds
    return f"{per_s / 1e6:,.2f} M" if per_s >= 1e6 else f"{per_s / 1e3:,.1f} k"


def run_worker(args: list[str], env_extra: dict[str, str] | None = None) -> dict[str, Any]:
    """Run this file as a worker subprocess and return the JSON it prints last."""
    env = {**os.environ, **(env_extra or {})}
    proc = subprocess.run(
        [sys.executable, os.path.abspath(__file__), *args], env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"worker {args} failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# =========================================================================================
# Workers (fresh subprocesses)
# =========================================================================================


def worker_batch(data: str, reps: int) -> dict[str, tuple[float, float, float | None]]:
    """Best ``score_batch`` time per scorer on the Parquet file ``data``."""
    frame = pl.read_parquet(data).rechunk()
    pred, truth = frame["prediction"], frame["truth"]
    return {s: dataclasses.astuple(best_of(reps, lambda s=s: gf.score_batch(pred, truth, s))) for s in SCORERS}


def make_pairs(mix: str, n: int) -> pl.DataFrame:
    """``n`` pairs of the ``tidy`` (independent rows) or ``realistic`` mix."""
    return realistic_mix.realistic_pairs(n) if mix == "realistic" else generate_pairs(n)


def make_pooled(mix: str, n: int) -> pl.DataFrame:
    """The pooled variant of a mix: 50,000 tidy pairs, or 5,000 realistic ones (another seed)."""
    if mix == "realistic":
        return realistic_mix.realistic_pairs(n, seed=realistic_mix.SEED + 7, pool_size=5_000)
    return pooled_pairs(n)


def worker_write(rows: int, path: str, mix: str = "tidy") -> dict[str, float]:
    """Generate ``rows`` pairs and write them to the Parquet file ``path``."""
    timing, frame = timed(lambda: make_pairs(mix, rows).select("prediction", "truth"))
    frame.write_parquet(path)
    return {"seconds": timing.seconds}


def arrow_nbytes(frame: pl.DataFrame) -> int:
    """Bytes of the Arrow buffers behind ``frame`` (exported column by column, without copying)."""
    return sum(pa.chunked_array(col).nbytes for col in frame.get_columns())


def worker_memory(data: str, scorer: str, op: str) -> dict[str, Any]:
    """Read the frame in ``data``, run one ``op`` (``batch``, ``frame`` or ``frame-select``)
    and report RSS before it and the peak during it."""
    rss_start = proc_status_kib("VmRSS") * 1024
    frame = pl.read_parquet(data)
    gc.collect()
    rss_built = proc_status_kib("VmRSS") * 1024
    reset_ok = reset_peak_rss()
    t0 = time.perf_counter()
    if op == "batch":
        out = gf.score_batch(frame["prediction"], frame["truth"], scorer).to_frame()
    elif op == "frame":
        out = gf.score_frame(frame, scorer)
    else:  # "frame-select": score_frame followed by a select of the new columns
        out = gf.score_frame(frame, scorer).select(pl.exclude("prediction", "truth"))
    seconds = time.perf_counter() - t0
    peak = proc_status_kib("VmHWM") * 1024
    # Output size from the new columns themselves: a frame-level select/drop here could
    # rechunk (copy) the input columns.
    new_cols = [c for c in out.get_columns() if c.name not in ("prediction", "truth")]
    return {
        "rows": frame.height,
        "chunks": frame.n_chunks(),
        "seconds": seconds,
        "input_estimated": frame.estimated_size(),
        "input_arrow": arrow_nbytes(frame),
        "rss_start": rss_start,
        "rss_built": rss_built,
        "hwm_reset": reset_ok,
        "peak": peak,
        "output_estimated": sum(c.estimated_size() for c in new_cols),
        "output_arrow": sum(pa.chunked_array(c).nbytes for c in new_cols),
    }


# =========================================================================================
# Main benchmark
# =========================================================================================


@dataclasses.dataclass
class Row:
    scorer: str
    path: str
    rows: int
    timing: Timing
    twin_seconds_per_row: float | None = None

    def cells(self) -> list[str]:
        seconds = self.timing.seconds
        ratio = "" if self.twin_seconds_per_row is None else f"{self.rows / seconds * self.twin_seconds_per_row:,.1f}×"
        # /proc/stat counts in clock ticks (10 ms): too coarse for very short runs.
        others = "—" if self.timing.others is None or seconds < 0.1 else f"{self.timing.others:.0%}"
        per_cpu = rate(self.rows, self.timing.cpu) if self.timing.cpu >= 0.1 else "—"
        return [self.scorer, self.path, f"{self.rows:,}", f"{seconds:.3f}", rate(self.rows, seconds), ratio, per_cpu, others]


def machine_facts() -> list[str]:
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        f"- gaia_fast build: {build_facts()}",
        f"- nproc: {nproc} (os.cpu_count {os.cpu_count()}); CPU: {model}",
        f"- load average at start (1/5/15 min): {load}",
        f"- Python {platform.python_version()} ({platform.python_implementation()}), {platform.platform()}",
        f"- polars {pl.__version__}, pyarrow {pa.__version__}, numpy {np.__version__}, gaia_fast from {Path(gf.__file__).parent}",
        f"- RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', '(unset)')}, "
        f"POLARS_MAX_THREADS={os.environ.get('POLARS_MAX_THREADS', '(unset)')} (polars pool: {pl.thread_pool_size()})",
    ]


def build_facts() -> str:
    """Checkout commit and the native extension's file (others may rebuild it between runs)."""
    so = Path(_native.__file__)
    digest = hashlib.sha256(so.read_bytes()).hexdigest()[:12]
    built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(so.stat().st_mtime))
    try:
        head = subprocess.run(
            ["git", "-C", str(so.parent), "log", "-1", "--format=%h %s"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head = "?"
    return f"checkout HEAD {head}; {so.name} built {built}, sha256 {digest}"


def describe(frame: pl.DataFrame, label: str) -> str:
    stats = frame.select(
        n=pl.len(),
        null_pred=pl.col("prediction").null_count(),
        distinct=pl.struct("prediction", "truth").n_unique(),
        non_ascii=(pl.col("prediction").str.contains(r"[^\x00-\x7F]") | pl.col("truth").str.contains(r"[^\x00-\x7F]")).sum(),
        truth_len=pl.col("truth").str.len_chars().mean(),
        pred_len=pl.col("prediction").str.len_chars().mean(),
    ).row(0, named=True)
    kinds = frame["kind"].value_counts(sort=True)
    kind_txt = ", ".join(f"{k} {c / stats['n']:.0%}" for k, c in kinds.iter_rows())
    return (
        f"- {label}: {stats['n']:,} rows, {stats['distinct']:,} distinct pairs, "
        f"{stats['null_pred'] / stats['n']:.1%} null predictions, {stats['non_ascii'] / stats['n']:.1%} rows with non-ASCII, "
        f"mean length truth {stats['truth_len']:.1f} / prediction {stats['pred_len']:.1f} chars; kinds: {kind_txt}"
    )


def scalar_fns(scorer: str) -> tuple[Callable[[str | None, str], Any], Callable[[str | None, str], Any]]:
    """(twin, native) scalar functions for ``scorer``."""
    if scorer == "gaia":
        return twin.question_scorer, gf.question_scorer
    if scorer == "gaia-lenient":
        return twin.lenient_match, gf.lenient_match
    return twin.graded_score, gf.graded_score


def decision(scorer: str, value: Any) -> Any:
    """The compared decision: bool, or (score, kind) for graded."""
    return (value[0], value[1]) if scorer == "gaia-graded" else value


def verify(scorer: str, preds: list[str | None], truths: list[str], twin_out: list[Any], native_out: list[Any]) -> int:
    """Assert native scalar, batch and twin decisions agree on the sample; returns rows compared."""
    ref = [decision(scorer, v) for v in twin_out]
    scalar = [decision(scorer, v) for v in native_out]
    sample = pl.DataFrame({"prediction": preds, "truth": truths}, schema={"prediction": pl.String, "truth": pl.String})
    frame = gf.score_frame(sample, scorer)
    if scorer == "gaia-graded":
        batch = list(zip(frame["score"].to_list(), frame["kind"].cast(pl.String).to_list()))
    else:
        batch = frame["score"].to_list()
    for name, got in (("native scalar", scalar), ("native batch", batch)):
        bad = [i for i, (a, b) in enumerate(zip(ref, got)) if a != b]
        if bad:
            ex = "\n".join(f"  {preds[i]!r} vs {truths[i]!r}: twin {ref[i]!r}, {name} {got[i]!r}" for i in bad[:10])
            raise AssertionError(f"{scorer}: {name} differs from the twin on {len(bad)} of {len(ref)} rows:\n{ex}")
    return len(ref)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def print_table(header: Sequence[str], align: str, rows: Sequence[Sequence[str]]) -> None:
    """A Markdown table; ``align`` has one ``l``/``r`` per column."""
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def bench_scorers(
    data: pl.DataFrame, generated: pl.DataFrame, pooled: pl.DataFrame, src: Path, twin_rows: int, reps: int
) -> tuple[list[Row], list[str]]:
    """Twin, native scalar and batch rows for every scorer, plus the correctness lines.
    ``data`` is the main set as read back from ``src``; ``generated`` the same rows as the
    generator left them in memory."""
    pred, truth = data["prediction"], data["truth"]
    n = data.height
    sample = data.head(twin_rows)
    s_pred: list[str | None] = sample["prediction"].to_list()
    s_truth: list[str] = sample["truth"].to_list()
    m = len(s_pred)

    log("native batch, 1 thread (subprocess)")
    # RAYON_NUM_THREADS is read when rayon's global pool starts, hence a fresh process.
    one_thread = run_worker(["--worker", "batch", "--data", str(src), "--reps", str(reps)], {"RAYON_NUM_THREADS": "1"})

    table: list[Row] = []
    notes: list[str] = []
    for scorer in SCORERS:
        log(f"{scorer}: Python loops on {m:,} rows")
        twin_fn, native_fn = scalar_fns(scorer)
        # The twin and the batch calls take turns, so that both meet the same swings in
        # the machine's speed; each keeps its best time.
        (twin_s, twin_out), (batch_s, _), (native_s, native_out), (core_s, _), (generated_s, _), (pooled_s, _) = (
            interleaved_best(
                reps,
                [
                    lambda: [twin_fn(p, t) for p, t in zip(s_pred, s_truth)],
                    lambda: gf.score_batch(pred, truth, scorer),
                    lambda: [native_fn(p, t) for p, t in zip(s_pred, s_truth)],
                    lambda: _native.score_arrow(pred, truth, scorer, None, True, False, None, True),
                    lambda: gf.score_batch(generated["prediction"], generated["truth"], scorer),
                    lambda: gf.score_batch(pooled["prediction"], pooled["truth"], scorer),
                ],
            )
        )
        compared = verify(scorer, s_pred, s_truth, twin_out, native_out)
        mean = gf.score_batch(pred, truth, scorer).cast(pl.Float64).mean()
        notes.append(
            f"{scorer}: {compared:,} rows compared, native scalar == native batch == twin; "
            f"mean score on all rows {mean:.3f}"
        )
        per_row = twin_s.seconds / m
        table += [
            Row(scorer, "Python twin, loop", m, twin_s, per_row),
            Row(scorer, "native scalar, Python loop", m, native_s, per_row),
            Row(scorer, "native batch, 1 thread", n, Timing(*one_thread[scorer]), per_row),
            Row(scorer, "native batch, all cores", n, batch_s, per_row),
            Row(scorer, "↳ _native.score_arrow alone (no Series wrapping)", n, core_s, per_row),
            Row(scorer, "native batch, all cores, generated frame (views scattered)", n, generated_s, per_row),
            Row(scorer, "native batch, all cores, pooled data", n, pooled_s, per_row),
        ]
    return table, notes


def bench_end_to_end(src: Path, tmp: Path, rows: int, reps: int, twin_per_row: float) -> list[Row]:
    """Parquet -> gf.expr.score -> sink_parquet / streaming collect, and the same without scoring."""
    log("end to end (Parquet)")
    out, plain = tmp / "scored.parquet", tmp / "copy.parquet"
    scored = pl.scan_parquet(src).with_columns(gf.expr.score("prediction", "truth"))
    sink_s = best_of(reps, lambda: scored.sink_parquet(out))
    stream_s = best_of(reps, lambda: scored.collect(engine="streaming"))
    io_s = best_of(reps, lambda: pl.scan_parquet(src).sink_parquet(plain))
    read_s = best_of(reps, lambda: pl.scan_parquet(src).collect(engine="streaming"))
    check = pl.read_parquet(out)
    assert check.height == rows and check["score"].dtype == pl.Boolean
    return [
        Row("gaia", "e2e: scan_parquet → expr.score → sink_parquet", rows, sink_s, twin_per_row),
        Row("gaia", "e2e: scan_parquet → expr.score → collect(engine=streaming)", rows, stream_s, twin_per_row),
        Row("—", "reference: scan_parquet → sink_parquet, no scoring", rows, io_s),
        Row("—", "reference: scan_parquet → collect(engine=streaming), no scoring", rows, read_s),
    ]


#: jemalloc (polars' allocator) options that hand freed pages back at once, so that RSS
#: follows live memory instead of the allocator's cache.
NO_DECAY = {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0"}


CALLS = {
    "batch": "gf.score_batch(pred, truth)",
    "frame": "gf.score_frame(df)",
    "frame-select": "gf.score_frame(df).select(new columns)",
}


def bench_memory(rows: int, tmp: Path, mix: str = "tidy") -> None:
    log(f"peak memory: writing {rows:,} rows")
    data = tmp / "memory.parquet"
    run_worker(["--worker", "write", "--rows", str(rows), "--data", str(data), "--mix", mix])
    runs = [(op, scorer, "no decay") for op in ("batch", "frame") for scorer in ("gaia", "gaia-graded")]
    runs += [("frame-select", "gaia", "no decay"), ("batch", "gaia", "default"), ("frame", "gaia", "default")]
    lines: list[list[str]] = []
    reset_failed = False
    for op, scorer, env in runs:
        log(f"peak memory: {op} {scorer} ({env})")
        worker = ["--worker", "memory", "--data", str(data), "--scorer", scorer, "--op", op]
        r = run_worker(worker, NO_DECAY if env == "no decay" else None)
        reset_failed |= not r["hwm_reset"]
        lines.append(
            [
                CALLS[op],
                scorer,
                env,
                f"{mib(r['input_estimated'])} / {mib(r['input_arrow'])}",
                mib(r["rss_built"] - r["rss_start"]),
                mib(r["peak"] - r["rss_built"]),
                f"{mib(r['output_estimated'])} / {mib(r['output_arrow'])}",
                f"{r['seconds']:.2f}",
            ]
        )
    print(
        f"Peak memory: {rows:,}-row frame (two String columns read from Parquet, {r['chunks']} chunks), "
        "one fresh subprocess per line:\n"
    )
    print_table(
        [
            "call",
            "scorer",
            "allocator cache",
            "input: estimated_size / Arrow buffers",
            "RSS growth reading input",
            "peak − RSS before call",
            "output: estimated_size / Arrow buffers",
            "call s",
        ],
        "lllrrrrr",
        lines,
    )
    print(
        "VmRSS/VmHWM from /proc/self/status. 'peak − RSS before call' = VmHWM after the call minus VmRSS "
        "just before it (VmHWM reset with clear_refs). 'no decay' runs set "
        f"{next(iter(NO_DECAY))}={next(iter(NO_DECAY.values()))} so freed pages leave RSS at once; "
        "'default' keeps jemalloc's cache, which can hide short-lived buffers (reused from the read). "
        "polars' estimated_size() counts string bytes only; 'Arrow buffers' adds the 16-byte views and offsets. "
        "The '.select(new columns)' line adds the first frame-level operation after score_frame: where the new "
        "columns' chunks do not line up with the input's, polars rechunks (copies) the input columns there."
    )
    if reset_failed:
        print("WARNING: VmHWM could not be reset; peaks include reading the input.")
    print()


def bench_buckets(data: pl.DataFrame, twin_rows: int, reps: int) -> tuple[list[list[str]], dict[str, float]]:
    """Per length bucket and scorer: the twin (Python loop on a sample of the bucket) and
    native batch on all cores (every row of the bucket), taking turns. Returns the table
    rows and, per scorer, the native seconds per byte of the short-ASCII bucket."""
    frame = data.with_columns(bucket=realistic_mix.length_bucket())
    total_rows = frame.height
    rows: list[list[str]] = []
    short_ascii: dict[str, float] = {}
    for scorer in SCORERS:
        twin_fn, _ = scalar_fns(scorer)
        whole: float | None = None
        parts: list[tuple[str, int, float, float, int]] = []
        for bucket in realistic_mix.buckets_present(frame):
            sub = frame.filter(pl.col("bucket") == bucket).select("prediction", "truth").rechunk()
            n = sub.height
            nbytes = int(sub.select(pl.col("prediction").str.len_bytes().fill_null(0).sum() + pl.col("truth").str.len_bytes().sum()).item())
            sample = sub.head(max(2_000, twin_rows // 8))
            sp, st = sample["prediction"].to_list(), sample["truth"].to_list()
            log(f"{scorer}: bucket {bucket!r} ({n:,} rows)")
            (twin_t, _), (batch_t, _) = interleaved_best(
                reps,
                [
                    lambda: [twin_fn(p, t) for p, t in zip(sp, st)],
                    lambda: gf.score_batch(sub["prediction"], sub["truth"], scorer),
                ],
            )
            parts.append((bucket, n, twin_t.seconds / len(sp), batch_t.seconds, nbytes))
            if bucket == realistic_mix.BUCKETS[1]:
                short_ascii[scorer] = batch_t.seconds / max(nbytes, 1)
        # The mix as a whole from its buckets: time = sum of the parts (same rows).
        native_total = sum(b for _, _, _, b, _ in parts)
        twin_total = sum(per_row * n for _, n, per_row, _, _ in parts)
        for bucket, n, per_row, batch_s, nbytes in parts:
            rows.append(
                [
                    scorer,
                    bucket,
                    f"{n / total_rows:.1%}",
                    rate(1, per_row),
                    rate(n, batch_s),
                    f"{per_row * n / batch_s:,.0f}×",
                    f"{batch_s / native_total:.0%}",
                    f"{batch_s / max(nbytes, 1) * 1e9:.2f}",
                ]
            )
        whole = twin_total / native_total
        rows.append([scorer, "**whole mix (sum of buckets)**", "100%", rate(total_rows, twin_total), rate(total_rows, native_total), f"**{whole:,.0f}×**", "100%", ""])
    return rows, short_ascii


def adversarial_shapes(size: int) -> list[tuple[str, str | None, str]]:
    """(name, prediction, truth) of about ``size`` bytes per long side, shaped to defeat
    early exits: long numbers, all-whitespace and all-punctuation texts, Unicode of every
    width, long lists on both sides, the truth at the very end, near-identical long texts."""
    words = "the answer is not known to me after searching many sources ".split()
    sentence = " ".join(words[i % len(words)] for i in range(size // 4))[:size]
    greek = ("ΑΣ ΣΑΣ Σ'Α ςσ ὈΔΥΣΣΕΎΣ " * (size // 40 + 1))[: size // 2]
    cjk = ("答案是巴黎。" * (size // 18 + 1))[: size // 3]
    mixed = ("Zürich — naïve café “x” 東京 \u00a0 İ \u212a 1٢3 " * (size // 60 + 1))[: size // 2]
    digits = "1" * size
    commas = ",".join(["x"] * (size // 2))
    numbers = ",".join(str(i % 997) for i in range(size // 4))[:size].rstrip(",")
    return [
        ("ASCII sentence vs name", sentence, "Paris"),
        ("ASCII sentence vs number", sentence, "42"),
        ("ASCII sentence, truth at the end", sentence + " Paris", "Paris"),
        ("digits vs number (a number of `size` digits)", digits, "1" * 20),
        ("digits with $ and , vs number", "$" + ",".join(["111"] * (size // 4)), "111"),
        ("whitespace only vs name", " \t" * (size // 2), "Paris"),
        ("punctuation only vs name", "-!." * (size // 3), "Paris"),
        ("Greek with Σ (final sigma) vs Greek", greek, "ΑΣ"),
        ("Greek texts differing in the last character", greek + "α", greek + "β"),
        ("CJK vs name", cjk, "巴黎"),
        ("mixed Unicode vs name", mixed, "Zürich"),
        ("mixed Unicode vs the same upper-cased", mixed, mixed.upper()),
        ("list of 1-byte pieces vs 3-piece list", commas, "x, y, z"),
        ("list of 1-byte pieces vs a mixed list", commas, "x, 1, z"),
        ("long list vs the same list reversed", numbers, ",".join(reversed(numbers.split(",")))),
        ("same long text both sides", sentence, sentence),
        ("long texts differing in the last byte", sentence + "a", sentence + "b"),
        ("null prediction vs long truth", None, sentence),
    ]


def bench_shapes(sizes: Sequence[int], reps: int, short_ascii: dict[str, float]) -> list[list[str]]:
    """Native batch (all cores) seconds per input byte on adversarial shapes, as a multiple
    of the short-ASCII bucket's (the per-byte target is at most 5×)."""
    rows: list[list[str]] = []
    for size in sizes:
        for name, pred, truth in adversarial_shapes(size):
            nbytes_row = len((pred or "").encode()) + len(truth.encode())
            copies = max(1, (4 << 20) // nbytes_row)
            preds = pa.array([pred] * copies, pa.string())
            truths = pa.array([truth] * copies, pa.string())
            cells = [f"{size:,} B", name]
            for scorer in SCORERS:
                t = best_of(reps, lambda scorer=scorer: gf.score_batch(preds, truths, scorer))
                per_byte = t.seconds / (copies * nbytes_row)
                base = short_ascii.get(scorer)
                cells.append(f"{per_byte * 1e9:.2f} ns ({per_byte / base:.1f}×)" if base else f"{per_byte * 1e9:.2f} ns")
            rows.append(cells)
            log(f"shapes: {size:,} B {name}")
    return rows


FULL_DEFAULTS = {"rows": 5_000_000, "twin_rows": 200_000, "memory_rows": 10_000_000, "reps": 3}
QUICK_DEFAULTS = {"rows": 200_000, "twin_rows": 10_000, "memory_rows": 1_000_000, "reps": 2}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, help="pairs for the batch / end-to-end runs (default 5,000,000)")
    ap.add_argument("--twin-rows", type=int, help="sample for the Python-loop runs (default 200,000)")
    ap.add_argument("--memory-rows", type=int, help="frame size for the peak-memory runs (default 10,000,000)")
    ap.add_argument("--reps", type=int, help="repetitions for the fast paths, best reported (default 3)")
    ap.add_argument("--quick", action="store_true", help="smoke run (<60 s): defaults 200,000 / 10,000 / 1,000,000 / 2")
    ap.add_argument("--no-memory", action="store_true", help="skip the peak-memory subprocesses")
    ap.add_argument(
        "--mix", choices=("tidy", "realistic"), default="tidy",
        help="tidy: short independent GAIA-like answers (default); realistic: the shape of real agent runs "
        "(long and null predictions), with per-length-bucket and adversarial per-byte tables",
    )
    ap.add_argument("--no-shapes", action="store_true", help="realistic mix: skip the adversarial per-byte table")
    ap.add_argument(
        "--shape-sizes", default="1024,65536,1048576",
        help="realistic mix: comma-separated long-side sizes in bytes for the per-byte table (default 1 KB, 64 KB, 1 MB)",
    )
    ap.add_argument(
        "--wait-idle", type=float, default=0.0, metavar="S",
        help="first wait up to S seconds for other processes to use <10%% of the CPU",
    )
    ap.add_argument("--worker", choices=("batch", "write", "memory"), help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    ap.add_argument("--scorer", default="gaia", help=argparse.SUPPRESS)
    ap.add_argument("--op", default="batch", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:
        args.reps = args.reps or FULL_DEFAULTS["reps"]
        result = {
            "batch": lambda: worker_batch(args.data, args.reps),
            "write": lambda: worker_write(args.rows, args.data, args.mix),
            "memory": lambda: worker_memory(args.data, args.scorer, args.op),
        }[args.worker]()
        print(json.dumps(result))
        return
    defaults = QUICK_DEFAULTS if args.quick else FULL_DEFAULTS
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)

    idle = wait_for_idle(args.wait_idle) if args.wait_idle > 0 else None
    t_start = time.perf_counter()
    print("# gaia-fast GAIA scorer benchmark\n")
    print("Machine:")
    print("\n".join(machine_facts()))
    if idle:
        print(f"- --wait-idle {args.wait_idle:.0f}: {idle}")
    print(f"- command: python {' '.join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])}\n")

    log(f"generating {args.rows:,} pairs")
    gen_s, data = timed(lambda: make_pairs(args.mix, args.rows))
    pool_s, pooled = timed(lambda: make_pooled(args.mix, args.rows))
    if args.mix == "realistic":
        print(f"Data: realistic mix (seed {realistic_mix.SEED}), `benches/realistic_mix.py`:")
        print(describe(data, f"main data set: {realistic_mix.POOL_SIZE:,} generated pairs resampled with numpy indices, in {gen_s.seconds:.1f} s"))
        print(describe(pooled, f"pooled: 5,000 generated pairs (another seed) resampled, in {pool_s.seconds:.1f} s"))
        st = realistic_mix.shape_stats(data)
        print(
            f"- shape: {st['null']:.1%} null predictions, {st['non_ascii']:.1%} with non-ASCII, {st['long']:.1%} longer than 64 bytes; "
            f"prediction chars median {st['pred_median']:.0f}, p90 {st['pred_p90']:.0f}, p99 {st['pred_p99']:.0f}, max {st['pred_max']:.0f}; "
            f"truth chars median {st['truth_median']:.0f}, p90 {st['truth_p90']:.0f}, max {st['truth_max']:.0f}"
        )
    else:
        print(f"Data (seed {SEED}):")
        print(describe(data, f"distinct (main data set): each row generated independently, vectorised, in {gen_s.seconds:.1f} s"))
        print(describe(pooled, f"pooled: {POOL_SIZE:,} generated pairs resampled with numpy indices, in {pool_s.seconds:.1f} s"))
    print()

    with tempfile.TemporaryDirectory(prefix="gaia-bench-") as tmp_name:
        tmp = Path(tmp_name)
        src = tmp / "pairs.parquet"
        data.select("prediction", "truth").write_parquet(src)
        # Scored as a user's archive arrives: read from a file, each column's strings laid
        # out in row order. The generated frame itself is measured too (its shuffle left
        # the string views pointing all over the buffers).
        generated, data = data, pl.read_parquet(src)
        pooled_src = tmp / "pooled.parquet"
        pooled.select("prediction", "truth").write_parquet(pooled_src)
        pooled = pl.read_parquet(pooled_src)
        table, notes = bench_scorers(data, generated, pooled, src, args.twin_rows, args.reps)
        del generated
        twin_gaia = table[0].timing.seconds / table[0].rows
        table += bench_end_to_end(src, tmp, data.height, args.reps, twin_gaia)

        print("Correctness (decisions: bool, or (score, kind) for gaia-graded):")
        print("\n".join(f"- {line}" for line in notes))
        print()
        m = table[0].rows
        print(
            f"Throughput: Python loops on the first {m:,} rows, native batch and end to end on "
            f"{data.height:,} rows; every row is the best of {args.reps} runs. × twin = pairs/s ÷ the twin's pairs/s for the same scorer. "
            "others' CPU = share of the machine's CPU time used by other processes during the reported run "
            "(from /proc/stat minus this process and its workers): above ~5 % the row is contended. "
            "pairs/CPU-s = rows ÷ CPU time of this process in that run (less sensitive to contention; "
            "for a 1-thread row it approximates the uncontended single-core rate).\n"
        )
        print_table(
            ["scorer", "path", "rows", "best s", "pairs/s", "× twin", "pairs/CPU-s", "others' CPU"],
            "llrrrrrr",
            [row.cells() for row in table],
        )
        if args.mix == "realistic":
            bucket_rows, short_ascii = bench_buckets(data, args.twin_rows, args.reps)
            print(
                "Per length bucket (realistic mix): the bucket's share of rows; the twin in a Python loop on a sample "
                "of the bucket and native batch on all cores on all its rows, taking turns, best of "
                f"{args.reps}; × twin = the ratio of the two; share of native time; native ns per input byte "
                "(prediction + truth). The whole-mix line adds the buckets up.\n"
            )
            print_table(
                ["scorer", "bucket", "rows", "twin pairs/s", "native pairs/s", "× twin", "native time", "native ns/byte"],
                "llrrrrrr",
                bucket_rows,
            )
            if not args.no_shapes:
                sizes = [int(x) for x in args.shape_sizes.split(",") if x.strip()]
                shape_rows = bench_shapes(sizes, args.reps, short_ascii)
                print(
                    "Adversarial shapes: native batch on all cores, about 4 MiB of input per call, best of "
                    f"{args.reps}; ns per input byte and, in brackets, that as a multiple of the short-ASCII bucket's "
                    "ns per byte for the same scorer (target: at most 5×).\n"
                )
                print_table(["long side", "shape", *SCORERS], "ll" + "r" * len(SCORERS), shape_rows)
        del data, pooled
        if not args.no_memory:
            bench_memory(args.memory_rows, tmp, args.mix)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Load average at end (1/5/15 min): {load}; total {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    main()
