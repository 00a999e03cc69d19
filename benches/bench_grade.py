"""`gaia-fast grade` on a large archive beside Polars doing the same reads and writes.

    python benches/bench_grade.py                      # 10M rows; 50M rows for memory
    python benches/bench_grade.py --rows 1e6 --memory-rows 0 --repeat 1

For each size it generates a Parquet archive (smolagents layout: task_id, prediction,
true_answer, task, question) in --workdir (kept between runs), then runs, each as its own
process, measuring wall time and the process's peak RSS (wait4):

- ``polars io``: scan the archive, write every column to Parquet and the five columns of
  answer_comparison.csv sorted by task id to CSV (the same reads and writes, no scoring);
- ``polars io, unsorted``: the same with the CSV in archive order (the only Polars run
  at the second, memory size: its sort holds the whole archive in memory);
- ``gaia-fast grade``: the command users run (``--out scored.parquet``), with per-batch
  dedupe chosen automatically, forced on, and off.

Then, in the same command, the bulk path on a generated tree of 50 VLMEvalKit result files
(``benches/bench_tree.py``: one ``gaia-fast grade TREE`` beside a shell loop of one process
per file) and Ray Data's local rows/s (``benches/bench_ray.py``, when ``ray`` is
installed); each prints its own table.

Two archives: ``repeated`` (466 task ids, answers from small vocabularies, as real
re-graded archives repeat) and ``distinct`` (every prediction and truth different).
The machine may be shared: compare ratios taken in the same run; CPU seconds (user +
system, from wait4) move less with the load than wall time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POLARS_IO = r"""
import sys, polars as pl
src, out, cmp, sort = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
lf = pl.scan_parquet(src)
c = lf.select(
    pl.col("task_id"),
    pl.col("task").fill_null(0).cast(pl.String).alias("level"),
    pl.col("true_answer").alias("expected_answer"),
    pl.col("prediction").alias("actual_answer"),
    (pl.col("prediction") == pl.col("true_answer")).cast(pl.String).alias("match"),
)
if sort:
    c = c.sort("task_id", nulls_last=True, maintain_order=True)
pl.collect_all(
    [lf.sink_parquet(out, lazy=True), c.sink_csv(cmp, lazy=True, line_terminator="\r\n", quote_style="necessary")],
    engine="streaming",
)
"""


def generate(path: Path, rows: int, kind: str) -> None:
    import polars as pl

    step = 5_000_000
    parts = []
    tmpdir = Path(tempfile.mkdtemp(dir=path.parent, prefix=".gen."))
    for start in range(0, rows, step):
        n = min(step, rows - start)
        i = pl.int_range(start, start + n, dtype=pl.Int64, eager=True)
        h = (i * 2654435761) % 4294967291  # a cheap scramble, reproducible
        if kind == "repeated":
            tid = pl.format("{}-6f1a-4c9e-9b2d-000000000000", (h % 466).cast(pl.String).str.zfill(8))
            pred = pl.format("answer {}", ((h // 466) % 40).cast(pl.String))
            truth = pl.format("answer {}", (h % 466 % 25).cast(pl.String))
        else:
            tid = pl.format("{}-6f1a-4c9e-9b2d-{}", (h % 466).cast(pl.String).str.zfill(8), i.cast(pl.String).str.zfill(12))
            pred = pl.format("{} apples", h.cast(pl.String))
            truth = pl.format("{} apples", ((h + (i % 3)) % 4294967291).cast(pl.String))
        frame = pl.select(
            tid.alias("task_id"),
            pred.alias("prediction"),
            truth.alias("true_answer"),
            (h % 3 + 1).alias("task"),
            pl.format("Question number {}?", (h % 466).cast(pl.String)).alias("question"),
        )
        part = tmpdir / f"{start:012d}.parquet"
        frame.write_parquet(part)
        parts.append(part)
        del frame
    whole = tmpdir / "whole.parquet"
    pl.scan_parquet([str(p) for p in parts]).sink_parquet(whole)
    os.replace(whole, path)  # an interrupted generation leaves no archive behind
    for p in parts:
        p.unlink()
    tmpdir.rmdir()


def measure(cmd: list[str], cwd: Path) -> tuple[float, int, int, float]:
    """(wall seconds, peak RSS bytes, exit code, CPU seconds) of one process. On a shared
    machine the CPU time (user + system) is the steadier of the two times."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(f"  ! {' '.join(cmd[:4])} … exited {code}: {err.strip()[-400:]}", file=sys.stderr)
    return wall, usage.ru_maxrss * 1024, code, usage.ru_utime + usage.ru_stime


def main() -> None:
    if sys.argv[1:2] == ["--generate"]:
        generate(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=float, default=10e6, help="archive size for the time comparison")
    ap.add_argument("--memory-rows", type=float, default=50e6, help="second, larger size (0: skip)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case (the best is shown)")
    ap.add_argument("--kinds", default="repeated,distinct")
    ap.add_argument("--modes", default="auto,on,off", help="dedupe modes run at the first size (the second runs auto)")
    ap.add_argument("--no-unsorted", action="store_true", help="skip the Polars run with an unsorted CSV")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "gaia-fast-bench-grade")
    ap.add_argument("--tree-rows", type=int, default=20_000, help="rows per file of the 50-file tree (0: skip)")
    ap.add_argument("--ray-rows", type=int, default=2_000_000, help="rows for the Ray Data run (0: skip)")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    gaia = [sys.executable, "-m", "gaia_fast.cli", "grade"]
    sizes = [int(args.rows)] + ([int(args.memory_rows)] if args.memory_rows else [])
    table = []
    for rows in sizes:
        for kind in args.kinds.split(","):
            src = args.workdir / f"archive-{kind}-{rows}.parquet"
            if not src.exists():
                print(f"generating {src} …", file=sys.stderr)
                # In a child process: a child's peak RSS (wait4) starts from its parent's
                # high-water mark, so this process must never hold an archive.
                subprocess.run([sys.executable, __file__, "--generate", str(src), str(rows), kind], check=True)
            size = src.stat().st_size
            out, cmp = args.workdir / "scored.parquet", args.workdir / "cmp.csv"
            # At the memory size Polars' own sort would hold the whole archive (about 7 GB
            # for 50M rows): only its unsorted run is the reference there.
            first = rows == sizes[0]
            cases = [("polars io (sorted csv)", [sys.executable, "-c", POLARS_IO, str(src), str(out), str(cmp), "1"])] if first else []
            if not args.no_unsorted or not first:
                cases.append(("polars io (unsorted csv)", [sys.executable, "-c", POLARS_IO, str(src), str(out), str(cmp), "0"]))
            base = [*gaia, str(src), "--truth-col", "true_answer", "--out", str(out), "--comparison", str(cmp), "--json", "--duplicates", "all"]  # every row, as the Polars run
            modes = tuple(args.modes.split(",")) if rows == sizes[0] else ("auto",)
            cases += [(f"gaia-fast grade, dedupe {m}", [*base, "--dedupe", m]) for m in modes]
            results = {}
            for name, cmd in cases:
                best = None
                for _ in range(args.repeat):
                    r = measure(cmd, args.workdir)
                    if best is None or r[0] < best[0]:
                        best = r
                results[name] = best
                print(f"{rows:>11,} {kind:9s} {name:28s} {best[0]:8.1f} s {best[3]:8.1f} cpu s {best[1] / 2**20:8.0f} MiB", file=sys.stderr)
            ref = results.get("polars io (sorted csv)")
            ref_u = results.get("polars io (unsorted csv)")
            for name, (wall, rss, code, cpu) in results.items():
                table.append(
                    (rows, kind, size, name, wall, cpu, rss, wall / ref[0] if ref else None, cpu / ref[3] if ref else None,
                     wall / ref_u[0] if ref_u else None, cpu / ref_u[3] if ref_u else None, code)
                )
    print()
    print("| rows | archive | case | wall s | CPU s | peak RSS MiB | wall × polars sorted | CPU × polars sorted | wall × polars unsorted | CPU × polars unsorted |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for rows, kind, size, name, wall, cpu, rss, ratio, cratio, wuratio, uratio, code in table:
        flag = "" if code == 0 else f" (exit {code})"
        r, c, wu, u = (f"{x:.2f}" if x is not None else "–" for x in (ratio, cratio, wuratio, uratio))
        print(f"| {rows:,} | {kind} ({size / 2**20:.0f} MiB) | {name}{flag} | {wall:.1f} | {cpu:.1f} | {rss / 2**20:.0f} | {r} | {c} | {wu} | {u} |")
    print()
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (the machine may be shared)")
    here = Path(__file__).resolve().parent
    if args.tree_rows:
        sys.stdout.flush()
        subprocess.run([sys.executable, str(here / "bench_tree.py"), "--rows", str(args.tree_rows)], check=True)
    if args.ray_rows:
        import importlib.util

        sys.stdout.flush()
        if importlib.util.find_spec("ray") is None:
            print("\nRay Data: skipped (`pip install 'gaia-fast[ray]'`)")
        else:
            print()
            subprocess.run([sys.executable, str(here / "bench_ray.py"), "--rows", str(args.ray_rows), "--reps", "2"], check=True)


if __name__ == "__main__":
    main()
