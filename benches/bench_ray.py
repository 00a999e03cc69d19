"""Ray Data throughput of the GAIA scorers beside the local batch path, in one run.

One command::

    python benches/bench_ray.py              # 2M rows, best of 3
    python benches/bench_ray.py --quick      # 200k rows, best of 2

Needs ``pip install 'gaia-fast[ray]'``. On one synthetic GAIA-like archive (numbers,
words, lists; about half the predictions right), written to Parquet, it times:

* ``local score_batch``: ``gf.score_batch`` on the Arrow columns in this process (all
  cores, GIL released) — the reference line, ratio 1.0;
* ``ray map_batches (in store)``: ``ds.map_batches(ScoreBatch(...), batch_format="pyarrow")
  .materialize()`` on a dataset already in Ray's object store;
* ``ray read_parquet + score``: the same from ``ray.data.read_parquet`` of the file;
* ``ray grade_dataset``: scoring plus the per-level summary from Ray aggregates.

Ray runs a local instance with ``--cpus`` workers (default: all cores); starting it is
timed apart and not counted in the rows. Rows/s is the best of ``--reps`` runs; the
machine's load changes the numbers, so read the ratios measured in the same run. Prints a
Markdown table.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import gaia_fast as gf

SEED = 20261125


def make_table(rows: int) -> pa.Table:
    """Numbers, words and comma lists; predictions right, reformatted or wrong."""
    rng = np.random.default_rng(SEED)
    pool_t, pool_p = [], []
    for i in range(50_000):
        kind = i % 4
        if kind == 0:
            t = str(rng.integers(0, 10**6))
            p = [t, f"{t}.0", f"${int(t):,}", str(int(t) + 1)][i % 7 % 4]
        elif kind == 1:
            t = f"word{i} answer"
            p = [t, t.upper(), f"  {t}. ", "other"][i % 5 % 4]
        elif kind == 2:
            t = f"{i % 97}, {i % 89}, apple"
            p = [t, t.replace(", ", ";"), f"{i % 97},{i % 89}", "1, 2, 3"][i % 3]
        else:
            t = f"{rng.random() * 100:.3f}"
            p = [t, f"{float(t):.2f}", "n/a", t][i % 9 % 4]
        pool_t.append(t)
        pool_p.append(p)
    idx = pa.array(rng.integers(0, len(pool_t), rows))
    level = pa.array(rng.integers(1, 4, rows))
    return pa.table(
        {
            "prediction": pa.array(pool_p, pa.large_string()).take(idx),
            "truth": pa.array(pool_t, pa.large_string()).take(idx),
            "level": level,
        }
    )


def best(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scorer", choices=gf.frame.SCORERS, default="gaia")
    ap.add_argument("--batch-size", type=int, default=65_536)
    ap.add_argument("--quick", action="store_true", help="200k rows, best of 2")
    a = ap.parse_args()
    if a.quick:
        a.rows, a.reps = 200_000, 2

    import ray

    from gaia_fast.integrations import ray as gfr

    table = make_table(a.rows)
    n = table.num_rows
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "archive.parquet"
        pq.write_table(table, path, row_group_size=a.batch_size)

        local = best(lambda: gf.score_batch(table.column("prediction"), table.column("truth"), a.scorer), a.reps)

        t0 = time.perf_counter()
        ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        start = time.perf_counter() - t0
        logging.getLogger("ray.data").setLevel(logging.WARNING)
        ray.data.DataContext.get_current().enable_progress_bars = False
        try:
            fn = gfr.ScoreBatch(a.scorer, "prediction", "truth", level="level")
            blocks = [table.slice(i, a.batch_size) for i in range(0, n, a.batch_size)]
            ds = ray.data.from_arrow(blocks).materialize()

            def in_store():
                assert ds.map_batches(fn, batch_format="pyarrow", batch_size=a.batch_size).materialize().count() == n

            def from_parquet():
                src = ray.data.read_parquet(str(path))
                assert src.map_batches(fn, batch_format="pyarrow", batch_size=a.batch_size).materialize().count() == n

            def graded():
                _, s = gfr.grade_dataset(ds, scorer=a.scorer, level="level", batch_size=a.batch_size)
                assert s["rows"] == n

            in_store()  # warm the workers (imports, first task)
            runs = [
                ("ray map_batches (in store)", best(in_store, a.reps)),
                ("ray read_parquet + score", best(from_parquet, a.reps)),
                ("ray grade_dataset (score + summary)", best(graded, a.reps)),
            ]
        finally:
            ray.shutdown()

    print(f"Ray {ray.__version__}, {a.cpus} Ray CPU(s) of {os.cpu_count()} core(s); scorer {a.scorer}; {n:,} rows; best of {a.reps}")
    print(f"Ray local start: {start:.1f} s (not counted below)\n")
    print("| path | seconds | rows/s | vs local score_batch |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| local score_batch | {local:.3f} | {n / local:,.0f} | 1.00 |")
    for name, sec in runs:
        print(f"| {name} | {sec:.3f} | {n / sec:,.0f} | {local / sec:.2f} |")


if __name__ == "__main__":
    main()
