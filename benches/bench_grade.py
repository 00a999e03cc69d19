"""`gaia-fast grade` on a large archive beside the fastest Polars plan writing the same files.

    python benches/bench_grade.py                          # issue 23's table: 10M rows; 50M and 200M for memory
    python benches/bench_grade.py --rows 2e6 --large-rows 0 --tree-rows 0 --ray-rows 0   # a quick look

For each size it generates a Parquet archive (smolagents layout: task_id, prediction,
true_answer, task, question) in --workdir (kept between runs), then runs, each as its own
process, measuring wall time, CPU time (user + system) and the process's peak RSS (wait4):

- ``polars, sorted CSV``: scan the archive, write every column to Parquet and the five
  columns of answer_comparison.csv (task id, level, truth, prediction, a match column)
  sorted by task id to CSV: the same reads and writes as the grade, no scoring. In two
  shapes, ``one plan`` (both sinks in one ``collect_all``, the archive read once) and
  ``two plans`` (the Parquet copy, then the sorted CSV, each reading the archive); the
  faster of the two is **the reference**: every ratio column divides by it;
- ``polars, unsorted CSV``: the same with the CSV in archive order, both shapes (the floor
  no sorted writer reaches);
- ``gaia-fast grade``: the command users run (``--out scored.parquet``, the comparison
  sorted), dedupe ``auto`` (``--modes`` adds others), and ``--comparison none`` (the scored
  table and the summary only).

Then a per-step profile of the grade (``GAIA_FAST_PROFILE``: wall seconds of each step,
summed over its calls) beside Polars' figure for each step it does, each from a process
of its own: reading (every column decoded), the Parquet write (the copy less the read),
the comparison CSV (select and write, unsorted, less the read), ordering (sorted less
unsorted CSV).

The peak of one run moves with the timing of the engine's threads, so the grade alone runs
``--memory-runs`` times (default 3) at each ``--memory-rows`` size (default 10M and 50M):
min, median and max peak, and the worst run at 50M against the best at 10M (the issue's
15 % target read the strict way).

At the ``--large-rows`` sizes (default 50M and 200M) only the grade runs (Polars' own sort
holds the whole archive there: about 7 GB at 50M rows), with the peak RSS set against the
first size's. Then, in the same command, the bulk path on a generated tree of 50
VLMEvalKit result files (``benches/bench_tree.py``) and Ray Data's local rows/s
(``benches/bench_ray.py``, when ``ray`` is installed); each prints its own table.

Two archives: ``repeated`` (466 task ids, answers from small vocabularies, as real
re-graded archives repeat) and ``distinct`` (every prediction and truth different).
The machine may be shared: compare ratios taken in the same run; CPU seconds move less
with the load than wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: One Polars process: ``src out cmp what shape``; ``what`` is ``sorted`` / ``unsorted``
#: (both files) or a profile step (``noop``, ``read``, ``parquet``, ``csv``, ``sortedcsv``);
#: ``shape`` ``one`` or ``two`` plans.
POLARS_IO = r"""
import sys, polars as pl
src, out, cmp, what, shape = sys.argv[1:6]
lf = pl.scan_parquet(src)
c = lf.select(
    pl.col("task_id"),
    pl.col("task").fill_null(0).cast(pl.String).alias("level"),
    pl.col("true_answer").alias("expected_answer"),
    pl.col("prediction").alias("actual_answer"),
    (pl.col("prediction") == pl.col("true_answer")).cast(pl.String).alias("match"),
)
csv = dict(line_terminator="\r\n", quote_style="necessary")
if what == "noop":  # the start of a process (Python, Polars imported)
    pass
elif what == "read":  # every column decoded, nothing written
    lf.select(pl.all().cast(pl.String).str.len_bytes().sum()).collect(engine="streaming")
elif what == "parquet":
    lf.sink_parquet(out, engine="streaming")
elif what == "csv":
    c.sink_csv(cmp, engine="streaming", **csv)
elif what == "sortedcsv":
    c.sort("task_id", nulls_last=True, maintain_order=True).sink_csv(cmp, engine="streaming", **csv)
else:
    if what == "sorted":
        c = c.sort("task_id", nulls_last=True, maintain_order=True)
    if shape == "one":
        pl.collect_all([lf.sink_parquet(out, lazy=True), c.sink_csv(cmp, lazy=True, **csv)], engine="streaming")
    else:
        lf.sink_parquet(out, engine="streaming")
        c.sink_csv(cmp, engine="streaming", **csv)
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


def measure(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, int, int, float]:
    """(wall seconds, peak RSS bytes, exit code, CPU seconds) of one process. On a shared
    machine the CPU time (user + system) is the steadier of the two times."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""  # before wait: a full pipe would block it
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(f"  ! {' '.join(cmd[:4])} … exited {code}: {err.strip()[-400:]}", file=sys.stderr)
    return wall, usage.ru_maxrss * 1024, code, usage.ru_utime + usage.ru_stime


def best_of(cmd: list[str], cwd: Path, repeat: int, env: dict[str, str] | None = None) -> tuple[float, int, int, float]:
    best = None
    for _ in range(repeat):
        r = measure(cmd, cwd, env)
        if best is None or r[0] < best[0]:
            best = r
    assert best is not None
    return best


def sizes_arg(text: str) -> list[int]:
    return [int(float(x)) for x in text.split(",") if x.strip() and float(x) > 0]


def main() -> None:
    if sys.argv[1:2] == ["--generate"]:
        generate(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=float, default=10e6, help="archive size for the time comparison")
    ap.add_argument("--large-rows", type=sizes_arg, default=[50_000_000, 200_000_000], help="larger sizes, grade only, comma-separated (0: none)")
    ap.add_argument("--large-kinds", default="repeated,distinct", help="archives graded at the larger sizes")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case (the fastest is shown)")
    ap.add_argument("--memory-runs", type=int, default=3, help="grade runs at each --memory-rows size for the peak's spread (0: none)")
    ap.add_argument("--memory-rows", type=sizes_arg, default=[10_000_000, 50_000_000], help="sizes of the memory runs, comma-separated; the first is the one the others are set against")
    ap.add_argument("--kinds", default="repeated,distinct")
    ap.add_argument("--modes", default="auto", help="dedupe modes of the grade at the first size (e.g. auto,on,off)")
    ap.add_argument("--no-profile", action="store_true", help="skip the per-step profile")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "gaia-fast-bench-grade")
    ap.add_argument("--tree-rows", type=int, default=20_000, help="rows per file of the 50-file tree (0: skip)")
    ap.add_argument("--ray-rows", type=int, default=2_000_000, help="rows for the Ray Data run (0: skip)")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    gaia = [sys.executable, "-m", "gaia_fast.cli", "grade"]
    out, cmp = args.workdir / "scored.parquet", args.workdir / "cmp.csv"
    profile_file = args.workdir / "profile.json"
    table: list[tuple] = []
    profiles: list[tuple[str, dict[str, float], dict[str, float]]] = []
    first_rss: dict[str, int] = {}

    def archive(rows: int, kind: str) -> Path:
        src = args.workdir / f"archive-{kind}-{rows}.parquet"
        if not src.exists():
            print(f"generating {src} …", file=sys.stderr)
            # In a child process: a child's peak RSS (wait4) starts from its parent's
            # high-water mark, so this process must never hold an archive.
            subprocess.run([sys.executable, __file__, "--generate", str(src), str(rows), kind], check=True)
        return src

    def grade_cmd(src: Path, *extra: str) -> list[str]:
        # Every row graded, as the Polars run writes every row.
        return [*gaia, str(src), "--truth-col", "true_answer", "--out", str(out), "--json", "--duplicates", "all", *extra]

    def note(rows: int, kind: str, name: str, r: tuple) -> None:
        print(f"{rows:>11,} {kind:9s} {name:40s} {r[0]:8.1f} s {r[3]:8.1f} cpu s {r[1] / 2**20:8.0f} MiB", file=sys.stderr)

    rows = int(args.rows)
    for kind in args.kinds.split(","):
        src = archive(rows, kind)
        size = src.stat().st_size

        def pol(what: str, shape: str = "one", src: Path = src) -> list[str]:
            return [sys.executable, "-c", POLARS_IO, str(src), str(out), str(cmp), what, shape]

        cases = [
            ("polars, sorted CSV, one plan", pol("sorted", "one")),
            ("polars, sorted CSV, two plans", pol("sorted", "two")),
            ("polars, unsorted CSV, one plan", pol("unsorted", "one")),
            ("polars, unsorted CSV, two plans", pol("unsorted", "two")),
        ]
        for m in args.modes.split(","):
            cases.append(("gaia-fast grade" + ("" if m == "auto" else f", dedupe {m}"), grade_cmd(src, "--comparison", str(cmp), "--dedupe", m)))
        cases.append(("gaia-fast grade --comparison none", grade_cmd(src, "--comparison", "none")))
        results = {}
        for name, cmd in cases:
            results[name] = best_of(cmd, args.workdir, args.repeat)
            note(rows, kind, name, results[name])
        sorted_plans = {k: v for k, v in results.items() if k.startswith("polars, sorted") and v[2] == 0}
        ref_name = min(sorted_plans, key=lambda k: sorted_plans[k][0]) if sorted_plans else None
        ref = results[ref_name] if ref_name else None
        for name, r in results.items():
            label = name + (" **(reference)**" if name == ref_name else "")
            table.append((rows, kind, size, label, r, ref))
        if "gaia-fast grade" in results:
            first_rss[kind] = results["gaia-fast grade"][1]
        if not args.no_profile:
            env = {**os.environ, "GAIA_FAST_PROFILE": str(profile_file)}
            profile_file.unlink(missing_ok=True)
            measure(grade_cmd(src, "--comparison", str(cmp)), args.workdir, env)
            steps = json.loads(profile_file.read_text()) if profile_file.exists() else {}
            polars_steps = {}
            for what in ("noop", "read", "parquet", "csv", "sortedcsv"):
                polars_steps[what] = best_of(pol(what), args.workdir, args.repeat)[0]
            noop = measure(grade_cmd(src, "--help"), args.workdir)[0]  # the command's own start
            profiles.append((f"{rows:,} {kind}", {"start (imports; wall of `gaia-fast grade --help`)": noop, **steps}, polars_steps))

    # The peak of one run moves with the timing of the engine's threads: the memory target
    # (50M within 15 % of 10M) is read from several runs each, the worst against the best.
    peaks: dict[tuple[int, str], list[int]] = {}
    for rows_m in args.memory_rows if args.memory_runs else []:
        for kind in args.large_kinds.split(","):
            src = archive(rows_m, kind)
            for _ in range(args.memory_runs):
                r = measure(grade_cmd(src, "--comparison", str(cmp)), args.workdir)
                note(rows_m, kind, "gaia-fast grade (memory run)", r)
                peaks.setdefault((rows_m, kind), []).append(r[1] if r[2] == 0 else 0)

    for rows in args.large_rows:
        for kind in args.large_kinds.split(","):
            src = archive(rows, kind)
            r = best_of(grade_cmd(src, "--comparison", str(cmp)), args.workdir, 1)
            note(rows, kind, "gaia-fast grade", r)
            table.append((rows, kind, src.stat().st_size, "gaia-fast grade", r, None))

    print()
    print("| rows | archive | case | wall s | CPU s | peak RSS MiB | wall × best Polars | CPU × best Polars | RSS × first size |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for rows, kind, size, name, (wall, rss, code, cpu), ref in table:
        flag = "" if code == 0 else f" (exit {code})"
        wr = f"{wall / ref[0]:.2f}" if ref else "–"
        cr = f"{cpu / ref[3]:.2f}" if ref else "–"
        grow = f"{rss / first_rss[kind]:.2f}" if rows != int(args.rows) and kind in first_rss and name == "gaia-fast grade" else "–"
        print(f"| {rows:,} | {kind} ({size / 2**20:.0f} MiB) | {name}{flag} | {wall:.1f} | {cpu:.1f} | {rss / 2**20:.0f} | {wr} | {cr} | {grow} |")
    print()
    print("Best Polars plan: the faster of one `collect_all` plan and two plans, sorted CSV (marked **reference**).")
    if peaks:
        base_rows = args.memory_rows[0]
        print()
        print(f"Peak RSS of `gaia-fast grade` over {args.memory_runs} runs at each size (MiB; a failed run counts 0):")
        print()
        print(f"| rows | archive | min | median | max | median × {base_rows:,} median | max × {base_rows:,} min (target 1.15) |")
        print("|---:|---|---:|---:|---:|---:|---:|")
        for (rows_m, kind), ps_ in peaks.items():
            base = peaks.get((base_rows, kind))
            mid, worst = "–", "–"
            if base and rows_m != base_rows and min(base):
                mid = f"{statistics.median(ps_) / statistics.median(base):.2f}"
                worst = f"**{max(ps_) / min(base):.2f}**"
            print(f"| {rows_m:,} | {kind} | {min(ps_) / 2**20:.0f} | {statistics.median(ps_) / 2**20:.0f} | {max(ps_) / 2**20:.0f} | {mid} | {worst} |")
    for label, steps, ps in profiles:
        print()
        print(f"Where the time goes, {label} (wall s; the grade's steps from GAIA_FAST_PROFILE, Polars' from processes of their own):")
        print()
        print("| step | gaia-fast grade | Polars |")
        print("|---|---:|---:|")
        start, read_p = ps["noop"], ps["read"] - ps["noop"]
        polars_of = {
            "start (imports; wall of `gaia-fast grade --help`)": f"{start:.2f} (Python + Polars imported)",
            "pass: read, score, --out, comparison rows": f"{read_p + ps['parquet'] - ps['read']:.2f} (read {read_p:.2f} + Parquet write {ps['parquet'] - ps['read']:.2f})",
            "score (summed over batches)": "– (no scoring)",
            "comparison: build lines": f"{ps['csv'] - ps['read']:.2f} (comparison columns + CSV write, unsorted)",
            "comparison: ordering (native sort)": f"{ps['sortedcsv'] - ps['csv']:.2f} (sorted CSV less unsorted)",
        }
        for name, secs in steps.items():
            print(f"| {name} | {secs:.2f} | {polars_of.get(name, '–')} |")
        print()
        print("The pass runs its steps at once (read, score, the --out and comparison-row sinks, the summary's")
        print("aggregates), so only its whole time is measured; score is the scoring batches' own time, summed")
        print("over the engine's threads. The steps after the pass run one after another.")
    print()
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (the machine may be shared); "
          f"this table took {time.perf_counter() - started:.0f} s")
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
