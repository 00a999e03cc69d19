"""Throughput benchmark for the multiple-choice scorers (VMCBench, LiveXivVQA).

One command::

    python benches/bench_vlm_mcq.py            # 1M rows per benchmark, 50k-row twin sample
    python benches/bench_vlm_mcq.py --quick    # smoke run, well under a minute

On one synthetic VLMEvalKit-like result table per benchmark (seeded; 2-9 options of 1-4
words, predictions from bare letters to long explanations with other letters and option
texts, answer tags, refusals, non-ASCII noise and nulls) it measures, in one run:

* the pure-Python twin (``gaia_fast.reference.vlm_mcq``) and the native scalar function,
  each called once per row from a Python loop, on the first ``--twin-rows`` rows;
* the native column driver ``_native.mcq_arrow`` on all rows, on all cores and (in a
  subprocess with ``RAYON_NUM_THREADS=1``) on one;
* ``grade()`` end to end (parse, fallback draws, scores, reasons, report).

It checks that native decisions (letter and rule) equal the twin's on the sample and
aborts otherwise, then prints machine facts and one Markdown table. Fast paths report the
best of ``--reps`` runs; the Python loops run once. Needs polars, pyarrow and numpy.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
from gaia_fast import _native
from gaia_fast.reference import vlm_mcq as twin
from gaia_fast.scorers.vlm import mcq

SEED = 20250805
LETTERS = "ABCDEFGHI"
WORDS = (  # noqa: SIM905
    "red blue green cat dog bird fish tree car house river mountain chart table figure left right "
    "above below larger smaller increase decrease none all two three four five seven ten hundred "
    "circle square triangle north south morning evening water fire glass metal paper plastic "
    "Zürich São Paulo Αθήνα 東京 Москва İstanbul"
).split()
SOURCES = ["SEEDBench", "MMStar", "A-OKVQA", "VizWiz", "MMVet", "VQAv2", "OKVQA", "MMMU", "MathVista", "ScienceQA",
           "RealWorldQA", "GQA", "MathVision", "TextVQA", "OCRVQA", "AI2D", "ChartQA", "DocVQA", "InfoVQA", "TableVQABench"]


def _phrase(rng: random.Random, lo: int, hi: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def _prediction(rng: random.Random, options: dict[str, str], answer: str) -> str | None:
    letter = answer if rng.random() < 0.6 else rng.choice(list(options))
    other = rng.choice(list(options))
    kind = rng.random()
    if kind < 0.22:
        return letter
    if kind < 0.32:
        return rng.choice([f"{letter}.", f"({letter})", f"{letter}. {options[letter]}", f"{letter}: {options[letter]}"])
    if kind < 0.42:
        return rng.choice([f"The answer is {letter}.", f"Answer: {letter}", f"The correct answer is ({letter})."])
    if kind < 0.62:
        body = " ".join(
            rng.choice([_phrase(rng, 3, 12), f"Option {other} says {options[other]}", f"so not {other}", "."])
            for _ in range(rng.randint(4, 14))
        )
        return f"{body} Therefore the answer is {letter}. {options[letter]}"
    if kind < 0.72:
        return options[letter] if rng.random() < 0.5 else f"I think it is {options[letter]} here in the image"
    if kind < 0.78:
        return rng.choice([f"<answer>{letter.lower()}</answer>", f"\\boxed{{{letter}}}", f"**{letter}**"])
    if kind < 0.84:
        return rng.choice(["Cannot determine the answer", "Sorry, I can't help with images of people yet.", "Z"])
    if kind < 0.92:
        return _phrase(rng, 1, 30)
    if kind < 0.96:
        return rng.choice(["", " ", "\u200b", "ı", "ſ"]) + letter
    return None


def make_pool(benchmark: str, size: int, seed: int) -> pl.DataFrame:
    rng = random.Random(seed)
    rows = []
    for i in range(size):
        k = rng.randint(2, 9) if benchmark == "vmcbench" else rng.randint(2, 6)
        options = {LETTERS[j]: _phrase(rng, 1, 4) for j in range(k)}
        answer = rng.choice(list(options))
        row = {ch: options.get(ch) for ch in LETTERS}
        row.update(index=str(i), question="Which option fits the image", answer=answer,
                   prediction=_prediction(rng, options, answer), category=rng.choice(SOURCES))
        rows.append(row)
    return pl.DataFrame(rows, schema={k: pl.String for k in rows[0]})


def make_frame(benchmark: str, n: int, pool_size: int, seed: int) -> pl.DataFrame:
    """``n`` rows resampled (numpy indices) from a pool of generated rows; fresh index keys."""
    pool = make_pool(benchmark, min(pool_size, n), seed)
    idx = np.random.default_rng(seed).integers(0, pool.height, n)
    frame = pool[idx]
    return frame.with_columns(pl.Series("index", np.arange(n).astype(str)))


def best_of(reps: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def native_call(frame: pl.DataFrame, mode: str, variant: str) -> dict:
    letters = [ch for ch in LETTERS if ch in frame.columns]
    return _native.mcq_arrow(frame["prediction"], "".join(letters), [frame[ch] for ch in letters], mode, variant, 0, frame["index"])


def _scalar_loop(api, frame: pl.DataFrame, mode: str, variant: str) -> tuple[float, list]:
    """One call a row through ``api`` (the twin or the native scalar functions)."""
    rows = frame.to_dicts()
    t = time.perf_counter()
    out = []
    for r in rows:
        choices = {ch: r[ch] for ch in LETTERS if r[ch] is not None}
        pred = "nan" if r["prediction"] is None else r["prediction"]
        if mode == "vmcbench":
            out.append(api.parse_multi_choice_explained(pred, choices))
        else:
            out.append(api.can_infer_explained(pred, choices, variant))
    return time.perf_counter() - t, out


def twin_loop(frame: pl.DataFrame, mode: str, variant: str) -> tuple[float, list]:
    return _scalar_loop(twin, frame, mode, variant)


def native_scalar_loop(frame: pl.DataFrame, mode: str, variant: str) -> tuple[float, list]:
    return _scalar_loop(mcq, frame, mode, variant)


def single_thread_seconds(path: Path, mode: str, variant: str, reps: int) -> float:
    code = (
        "import json, sys, polars as pl\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from bench_vlm_mcq import native_call, best_of\n"
        f"f = pl.read_parquet({str(path)!r})\n"
        f"print(json.dumps(best_of({reps}, lambda: native_call(f, {mode!r}, {variant!r}))))\n"
    )
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def machine_facts() -> list[str]:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    so = Path(_native.__file__)
    return [
        f"- CPU cores: {os.cpu_count()}; load average at start (1/5/15 min): {load}",
        f"- Python {platform.python_version()}, {platform.platform()}; polars {pl.__version__}",
        f"- extension {so.name}, built {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(so.stat().st_mtime))}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--twin-rows", type=int, default=50_000)
    ap.add_argument("--pool", type=int, default=100_000, help="distinct generated rows, resampled to --rows")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="100k rows, 10k twin rows, 1 rep")
    args = ap.parse_args()
    if args.quick:
        args.rows, args.twin_rows, args.pool, args.reps = 100_000, 10_000, 20_000, 1

    print("\n".join(machine_facts()))
    table = ["| benchmark (matcher) | path | rows | seconds | rows/s | vs twin |", "|---|---|---:|---:|---:|---:|"]
    cases = [("vmcbench", "vmcbench", "classic"), ("livexivvqa", "can_infer", "dcvlr"), ("livexivvqa", "can_infer", "classic")]
    frames: dict[str, pl.DataFrame] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for bench, mode, variant in cases:
            if bench not in frames:
                print(f"generating {args.rows:,} {bench} rows ...", file=sys.stderr)
                frames[bench] = make_frame(bench, args.rows, args.pool, SEED)
                frames[bench].write_parquet(Path(tmp) / f"{bench}.parquet")
            frame = frames[bench]
            label = bench if mode == "vmcbench" else f"{bench} ({variant})"
            sample = frame.head(args.twin_rows)
            print(f"{label}: twin and scalar loops on {sample.height:,} rows ...", file=sys.stderr)
            t_twin, want = twin_loop(sample, mode, variant)
            t_scalar, got = native_scalar_loop(sample, mode, variant)
            out = native_call(sample, mode, variant)
            batch = [(chr(c) if c else None, _native.MCQ_RULES[r]) for c, r in zip(pl.Series(out["extracted"]).to_list(), pl.Series(out["rule"]).to_list())]
            bad = [i for i, (w, g, b) in enumerate(zip(want, got, batch)) if not (w == g == b)]
            if bad:
                i = bad[0]
                sys.exit(f"MISMATCH in {label} at row {i}: twin {want[i]} scalar {got[i]} batch {batch[i]} ({len(bad)} rows)")
            twin_rate = sample.height / t_twin
            rows_ = [("twin, Python loop", sample.height, t_twin), ("native scalar, Python loop", sample.height, t_scalar)]
            print(f"{label}: native column driver on {frame.height:,} rows ...", file=sys.stderr)
            run_native = functools.partial(native_call, frame, mode, variant)
            rows_.append(("native mcq_arrow, all cores", frame.height, best_of(args.reps, run_native)))
            rows_.append(("native mcq_arrow, 1 thread", frame.height, single_thread_seconds(Path(tmp) / f"{bench}.parquet", mode, variant, args.reps)))
            kwargs = {"benchmark": bench} if bench == "vmcbench" else {"benchmark": bench, "variant": variant}
            run_grade = functools.partial(mcq.grade, frame, **kwargs)
            rows_.append(("grade() end to end, all cores", frame.height, best_of(args.reps, run_grade)))
            for path, n, sec in rows_:
                table.append(f"| {label} | {path} | {n:,} | {sec:.3f} | {n / sec:,.0f} | {n / sec / twin_rate:,.1f}× |")
            decided = sum(1 for w in want if w[0] is not None) / len(want)
            print(f"{label}: sample decisions agree (twin = native scalar = batch); parsed {decided:.1%} of sample rows", file=sys.stderr)
    print()
    print("\n".join(table))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nLoad average at end (1/5/15 min): {load}")


if __name__ == "__main__":
    main()
