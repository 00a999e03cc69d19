"""The bulk path on a generated VLMEvalKit outputs tree: ``gaia-fast grade TREE`` versus a
shell loop of one ``gaia-fast grade FILE --benchmark NAME`` process per file.

    python benches/bench_tree.py              # 50 files (5 models x 10 datasets), 20,000 rows each
    python benches/bench_tree.py --quick      # 50 files of 2,000 rows
    python benches/bench_tree.py --run-folders [--models 50 --datasets 30 --rows 500]

``--run-folders``: the same results (``--models`` x ``--datasets``) written two ways, the old
flat tree (``{model}/{model}_{dataset}.xlsx``) and VLMEvalKit's layout since 2024-11: two run
folders per model (``T{date}_G{commit}/``, each with every result, its ``_acc.csv`` and a
judge record) and the newest run's files linked into the model folder (``--links native``:
absolute links, as VLMEvalKit wrote them; ``copies``: links replaced by copies, which
discovery compares byte for byte with the runs' files). Prints discovery alone
(``expand``) and the whole ``gaia-fast grade TREE`` for each; both grade one file per model
and dataset.

Prints a Markdown table to stdout (progress to stderr). Every line is measured in the same
run, on the same files; each is the best of ``--reps`` (the shell loop: ``--loop-reps``). The tree holds, like a real one,
VLMEvalKit's own ``_acc.csv`` beside every result (skipped by the bulk path).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

VANILLA = ("MMStar", "SEEDBench_IMG", "AI2D_TEST", "ScienceQA_TEST", "RealWorldQA", "A-OKVQA", "BLINK")
CIRCULAR = ("MMBench_DEV_EN", "MMBench_DEV_CN_V11", "CCBench")
#: More registered multiple-choice datasets, for trees of up to 30 datasets.
MORE_VANILLA = (
    "MMStar_MINI", "SEEDBench2", "SEEDBench2_Plus", "ScienceQA_VAL", "AI2D_TEST_NO_MASK", "AI2D_MINI", "AesBench_VAL",
    "AesBench_TEST", "Q-Bench1_VAL", "Q-Bench1_TEST", "A-Bench_VAL", "A-Bench_TEST", "R-Bench-Dis", "R-Bench-Ref",
    "MLLMGuard_DS", "WorldMedQA-V", "VStarBench", "PathMMU_VAL", "PathMMU_TEST", "CMMU_MCQ",
)  # fmt: skip
#: Two VLMEvalKit main-line commits (2024-11-20 and 2025-08-04): the run folders' names.
RUNS = ("T20241120_G52a50e32", "T20250810_Gc3371551")
CATEGORIES = ("coarse_perception", "logic_reasoning", "relation_reasoning", "instance reasoning", "math", "science")
ANSWERS = ("A", "B. {t}", "The answer is C", "{t}", "I think D is right", "Cannot determine the answer", "(B) {t}", "none of them")


def _frame(rng: random.Random, rows: int, circular: bool) -> pl.DataFrame:
    words = ["cat", "dog", "bird", "red car", "blue sky", "tree", "river", "mountain", "city", "cloud"]
    index, answer, pred, cat = [], [], [], []
    opts = {ch: [] for ch in "ABCD"}
    questions = rows // 4 if circular else rows
    for q in range(questions):
        texts = rng.sample(words, 4)
        gt = rng.randrange(4)
        for r in range(4 if circular else 1):
            rot = texts[r:] + texts[:r]
            for i, ch in enumerate("ABCD"):
                opts[ch].append(rot[i])
            a = (gt - r) % 4
            answer.append("ABCD"[a])
            tmpl = rng.choice(ANSWERS) if rng.random() < 0.5 else "ABCD"[a]
            pred.append(tmpl.format(t=rot[rng.randrange(4)]))
            index.append(q + r * 1_000_000)
            cat.append(CATEGORIES[q % len(CATEGORIES)])
    return pl.DataFrame({"index": index, "question": [f"Question {i % 1_000_000}?" for i in index], **opts, "answer": answer, "category": cat, "prediction": pred})


def build_tree(root: Path, models: int, rows: int, seed: int) -> list[tuple[Path, str]]:
    rng = random.Random(seed)
    files = []
    for m in range(models):
        model = f"model{m}_7b"
        d = root / model
        d.mkdir(parents=True)
        for ds in VANILLA + CIRCULAR:
            frame = _frame(rng, rows, ds in CIRCULAR)
            path = d / f"{model}_{ds}.xlsx"
            frame.write_excel(path, autofit=False)
            pl.DataFrame({"split": ["none"], "Overall": [0.5]}).write_csv(d / f"{model}_{ds}_acc.csv")
            files.append((path, "mcq-circular" if ds in CIRCULAR else "mcq"))
    return files


def _time(cmd: list[str], cwd: Path) -> float:
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # 3: graded, some files incomplete (the generated judge records hold no replies).
    if done.returncode not in (0, 3):
        raise subprocess.CalledProcessError(done.returncode, cmd)
    return time.perf_counter() - t


def _datasets(n: int) -> list[str]:
    names = list(VANILLA + CIRCULAR + MORE_VANILLA)
    if not 1 <= n <= len(names):
        sys.exit(f"--datasets: 1 to {len(names)}")
    return names[:n]


def build_run_trees(work: Path, models: int, datasets: int, rows: int, seed: int, links: str) -> tuple[Path, Path]:
    """The flat tree and the run-folder tree of the same results (see the module's doc)."""
    rng = random.Random(seed)
    src = work / "sources"
    src.mkdir()
    names = _datasets(datasets)
    for ds in names:  # one table per dataset, copied to every model: writing xlsx dominates otherwise
        _frame(rng, rows, ds in CIRCULAR).write_excel(src / f"{ds}.xlsx", autofit=False)
    acc = "split,Overall\nnone,0.5\n"
    flat, runs = work / "flat", work / "runs"
    for m in range(models):
        model = f"model{m}_7b"
        (flat / model).mkdir(parents=True)
        for ds in names:
            stem = f"{model}_{ds}"
            shutil.copyfile(src / f"{ds}.xlsx", flat / model / f"{stem}.xlsx")
            (flat / model / f"{stem}_acc.csv").write_text(acc)
        meta = runs / model
        for run in RUNS:
            (meta / run).mkdir(parents=True)
            for ds in names:
                stem = f"{model}_{ds}"
                shutil.copyfile(src / f"{ds}.xlsx", meta / run / f"{stem}.xlsx")
                (meta / run / f"{stem}_acc.csv").write_text(acc)
                (meta / run / f"{stem}_gpt-4o-mini_result.pkl").write_bytes(b"\x80\x04}\x94.")
        for f in sorted((meta / RUNS[-1]).iterdir()):  # run.py links the newest run's files
            if links == "copies":
                shutil.copyfile(f, meta / f.name)
            else:
                os.symlink(f.resolve(), meta / f.name)
    return flat, runs


def run_folders(args: argparse.Namespace, exe: str) -> None:
    from gaia_fast.grading.discover import expand

    work = Path(tempfile.mkdtemp(prefix="gaia-fast-bench-runs-"))
    try:
        print(f"generating {args.models} models x {args.datasets} datasets of {args.rows:,} rows, flat and with run folders ...", file=sys.stderr)
        t = time.perf_counter()
        trees = build_run_trees(work, args.models, args.datasets, args.rows, args.seed, args.links)
        print(f"  {time.perf_counter() - t:.1f} s", file=sys.stderr)
        lines = []
        for label, tree in zip(("flat tree (before 2024-11)", f"run-folder tree (2 runs, links: {args.links})"), trees):
            files = sum(1 for _ in tree.rglob("*"))
            disc = []
            for _ in range(args.reps):
                t = time.perf_counter()
                plan = expand([tree])
                disc.append(time.perf_counter() - t)
            jobs = len(plan.jobs)
            assert jobs == args.models * args.datasets and all(j.benchmark in ("mcq", "mcq-circular") for j in plan.jobs), label
            grade = []
            for rep in range(args.reps):
                out = work / f"out-{len(lines)}-{rep}"
                out.mkdir()
                grade.append(_time([exe, "grade", str(tree), "--report-dir", str(out / "r"), "--summary", str(out / "s.csv")], out))
            lines.append((label, files, jobs, min(disc), min(grade)))
            print(f"  {label}: discovery {min(disc):.2f} s, grade {min(grade):.2f} s", file=sys.stderr)
        print(f"\nFlat versus run-folder VLMEvalKit trees: {args.models} models x {args.datasets} datasets, {args.rows:,} rows "
              f"per result, {os.cpu_count()} cores; best of {args.reps}.\n")
        print("| tree | files and folders | jobs | discovery (expand) | gaia-fast grade TREE |")
        print("|---|---:|---:|---:|---:|")
        for label, files, jobs, d, g in lines:
            print(f"| {label} | {files:,} | {jobs:,} | {d:.2f} s | {g:.2f} s |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=int, default=5)
    ap.add_argument("--rows", type=int, default=20_000, help="rows per result file")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--loop-reps", type=int, default=1, help="repetitions of the (slow) shell loop")
    ap.add_argument("--quick", action="store_true", help="2,000 rows per file, one repetition")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--run-folders", action="store_true", help="flat tree versus VLMEvalKit's run-folder layout")
    ap.add_argument("--datasets", type=int, default=30, help="--run-folders: datasets per model (up to 30)")
    ap.add_argument("--links", choices=("native", "copies"), default="native", help="--run-folders: the model folders' links")
    args = ap.parse_args()
    if args.quick:
        args.rows, args.reps = 2_000, 1
    exe = shutil.which("gaia-fast") or sys.exit("gaia-fast is not on PATH (pip install -e .)")
    if args.run_folders:
        run_folders(args, exe)
        return
    work = Path(tempfile.mkdtemp(prefix="gaia-fast-bench-tree-"))
    try:
        tree = work / "outputs"
        print(f"generating {args.models * 10} files of {args.rows:,} rows in {tree} ...", file=sys.stderr)
        t = time.perf_counter()
        files = build_tree(tree, args.models, args.rows, args.seed)
        print(f"  {time.perf_counter() - t:.1f} s", file=sys.stderr)
        total_rows = sum(pl.read_excel(f, columns=["index"]).height for f, _ in files[:10]) * (len(files) // 10)
        cores = os.cpu_count() or 1
        lines = []

        def best(label: str, cmd_for_rep, reps: int | None = None) -> None:
            times = []
            for rep in range(reps or args.reps):
                out = work / f"run-{label.replace(' ', '-')}-{rep}"
                out.mkdir()
                times.append(cmd_for_rep(out))
            lines.append((label, min(times)))
            print(f"  {label}: {min(times):.2f} s", file=sys.stderr)

        best(
            f"gaia-fast grade TREE (--jobs {cores})",
            lambda out: _time([exe, "grade", str(tree), "--report-dir", str(out / "r"), "--summary", str(out / "s.csv")], out),
        )
        best(
            "gaia-fast grade TREE (--jobs 1)",
            lambda out: _time([exe, "grade", str(tree), "--jobs", "1", "--report-dir", str(out / "r")], out),
        )

        def loop(out: Path) -> float:
            t0 = time.perf_counter()
            for f, bench in files:
                subprocess.run(
                    [exe, "grade", str(f), "--benchmark", bench, "--acc", str(out / (f.stem + "_acc.csv"))],
                    cwd=out,
                    check=True,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            return time.perf_counter() - t0

        best("shell loop: one gaia-fast grade FILE process per file", loop, args.loop_reps)
        base = lines[-1][1]
        print(f"\nBulk path on a generated VLMEvalKit tree: {len(files)} result files (+{len(files)} `_acc.csv` skipped), "
              f"{total_rows:,} rows, {cores} cores; best of {args.reps} (shell loop: {args.loop_reps}).\n")
        print("| command | wall time | rows/s | vs shell loop |")
        print("|---|---:|---:|---:|")
        for label, secs in lines:
            print(f"| {label} | {secs:.2f} s | {total_rows / secs:,.0f} | {base / secs:.2f}x |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
