"""Discovery: expand paths (files, globs, folders) into a :class:`~gaia_fast.grading.plan.Plan`
of jobs.

What a path becomes:

* a folder of ``<task_id>/answer.txt`` files: one GAIA workspace archive;
* a folder whose files are all Parquet parts of one table (:func:`is_parquet_dataset`): one
  partitioned GAIA archive;
* any other folder: searched recursively for result files (below);
* a file named on the command line: VLMEvalKit's evaluation outputs and judge caches
  (``*_acc.csv``, ``*_openai_result.xlsx``, ``*.pkl``, ...) are skipped and listed; with
  ``benchmark="auto"`` a ``{model}_{dataset}.{xlsx,tsv,csv}`` name picks the benchmark
  from its dataset (:func:`gaia_fast.benchmarks.detect`), datasets with no flow yet become
  skipped jobs, and other files are GAIA archives.

A folder search (and a quoted glob) never guesses. In VLMEvalKit's layout
``{work_dir}/{model}/`` holds the results, or links to them, and ``{model}/{run}/`` each
run's files (:mod:`gaia_fast.grading.runs`):

* the model is the nearest folder that is not a run folder;
* each (model folder, file name) is graded once, from the file VLMEvalKit reads next: the
  model folder's copy or link, else the newest run folder's; a link that points nowhere (a
  tree copied from another machine) is reported and the run folder's copy is used;
  ``all_runs=True`` grades every run folder's copy instead;
* each job carries its run folder, the VLMEvalKit commit and that commit's day (``as_of``);
* a file beside a result ``{stem}`` named ``{stem}_{anything}`` is an evaluation side file
  (judge records, reports), listed and not graded;
* a result file is graded by its dataset name (the registry); a file is a GAIA archive only
  when its columns are a GAIA layout with a task-id column, or its ids match the task
  metadata (``metadata_ids``) or look like GAIA's (UUIDs); a ``{model}_{dataset}`` file of
  a dataset with no flow is a skipped job naming the nearest known datasets, unless its table
  has VLMEvalKit's multiple-choice shape, when it is graded by the multiple-choice flow
  (``by_shape=True``); anything else is listed as skipped.
"""

from __future__ import annotations

import filecmp
import glob as _glob
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gaia_fast import benchmarks
from gaia_fast.grading.headers import read_columns, read_values
from gaia_fast.grading.plan import Job, Plan, SkippedFile
from gaia_fast.grading.runs import RunFolder, run_folder

__all__ = ["SEARCHED_SUFFIXES", "expand", "is_metadata_folder", "is_parquet_dataset", "is_workspace", "single"]

#: File types a folder search considers (others are listed as skipped). Plain ``.json`` is
#: left out: in result trees it holds score reports; name such an archive explicitly.
SEARCHED_SUFFIXES = (".xlsx", ".tsv", ".csv", ".jsonl", ".parquet", ".eval")

#: Types a result file ``{stem}`` may have, for recognising its side files ``{stem}_*``.
_RESULT_TYPES = (".xlsx", ".tsv", ".csv", ".json", ".jsonl", ".parquet")

#: Columns that hold a GAIA task id in the known GAIA layouts (``gaia_fast.io.readers``).
_STRONG_IDS = ("task_id", "taskId")
_WEAK_IDS = ("id", "question_id")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: VLMEvalKit grades a custom multiple-choice dataset circularly when its lowercased name
#: holds one of these (``ImageMCQDataset.evaluate``).
_CIRCULAR_WORDS = ("mmbench", "ccbench", "circular", "mmcr")


def _visible(p: Path) -> bool:
    return not p.name.startswith((".", "_"))


def is_workspace(folder: str | os.PathLike) -> bool:
    """A GAIA workspace: a folder holding ``<task_id>/answer.txt`` files."""
    folder = Path(folder)
    return folder.is_dir() and next(iter(_glob.glob(os.path.join(_glob.escape(str(folder)), "*", "answer.txt"))), None) is not None


def is_metadata_folder(folder: str | os.PathLike) -> bool:
    """A GAIA task-metadata folder (``2023/<split>/``, ``metadata.jsonl``, ``metadata*.parquet``):
    it goes to ``--metadata``, it is not an archive."""
    folder = Path(folder)
    return folder.is_dir() and (
        (folder / "2023").is_dir() or (folder / "metadata.jsonl").is_file() or any(folder.glob("metadata*.parquet"))
    )


def _iter_dataset_files(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if _visible(Path(d)))
        for f in sorted(files):
            if _visible(Path(f)):
                yield Path(root) / f


def _dataset_files(folder: Path) -> list[Path]:
    return list(_iter_dataset_files(folder))


def is_parquet_dataset(folder: str | os.PathLike) -> bool:
    """A partitioned Parquet archive: every visible file under ``folder`` (recursively;
    names starting with ``.`` or ``_`` such as ``_SUCCESS`` are ignored) is ``.parquet``,
    there is at least one, and all have the same schema (so they are parts of one table).
    Such a folder is graded as one GAIA archive."""
    folder = Path(folder)
    if not folder.is_dir():
        return False
    files = []
    for f in _iter_dataset_files(folder):  # stops at the first other file
        if f.suffix.lower() != ".parquet":
            return False
        files.append(f)
    if not files:
        return False
    if len(files) == 1:
        return True
    try:
        import pyarrow.parquet as pq

        first = pq.read_schema(files[0]).remove_metadata()
        return all(pq.read_schema(f).remove_metadata().equals(first) for f in files[1:])
    except Exception:  # noqa: BLE001 - an unreadable footer: not one table; graded file by file
        return False


def _has_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


# --------------------------------------------------------------------------- one file


@dataclass
class _Context:
    benchmark: str
    metadata_ids: set[str] | None
    all_runs: bool
    runs: dict[Path, RunFolder | None] = field(default_factory=dict)
    #: real paths of the files a quoted glob's matches have made jobs of
    taken: set[str] = field(default_factory=set)
    #: real path of each folder met (resolving folder by folder costs one lstat per file)
    real_dirs: dict[str, str] = field(default_factory=dict)

    def real(self, path: str | os.PathLike) -> str:
        """``os.path.realpath(path)``, the folders' part from a cache."""
        p = os.fspath(path)
        for _ in range(40):  # a chain of links, as the kernel allows
            if not os.path.islink(p):
                break
            target = os.readlink(p)
            p = target if os.path.isabs(target) else os.path.join(os.path.dirname(p), target)
        else:
            return os.path.realpath(p)
        folder, name = os.path.split(p)
        real_folder = self.real_dirs.get(folder)
        if real_folder is None:
            real_folder = self.real_dirs[folder] = os.path.realpath(folder)
        return os.path.join(real_folder, name)

    def run(self, folder: Path) -> RunFolder | None:
        if folder not in self.runs:
            self.runs[folder] = run_folder(folder)
        return self.runs[folder]


def _patterns(dataset: str) -> set[str]:
    """The registry's and :data:`~gaia_fast.benchmarks.UNSUPPORTED`'s patterns ``dataset``
    matches."""
    rxs = [rx for b in benchmarks.BENCHMARKS.values() for rx in b.datasets] + list(benchmarks.UNSUPPORTED)
    return {rx for rx in rxs if re.fullmatch(rx, dataset)}


def _side_file_of(path: Path, model: str, stems: set[str]) -> str | None:
    """The result stem ``path`` is a side file of (``{stem}_{anything}`` beside a result
    file ``{stem}`` of this model folder), or None. A longer name that is a dataset of its
    own is not a side file: VLMEvalKit lists it (``MMStar_MINI`` beside ``MMStar``), or a
    registry pattern matches it and not the shorter one (``OCRBench_v2`` beside
    ``OCRBench``); the registry's open patterns (``MMBench.*``) match both names and so do
    not count."""
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    if not stem.startswith(model + "_"):
        return None
    dataset = stem[len(model) + 1 :]
    if benchmarks.vlmevalkit_dataset(dataset) is not None:
        return None
    best = None
    for s in stems:
        if s != stem and stem.startswith(s + "_") and s.startswith(model + "_") and (best is None or len(s) > len(best)):
            best = s
    if best is None:
        return None
    mine = _patterns(dataset)
    if mine and not mine <= _patterns(best[len(model) + 1 :]):
        return None
    return best


def _looks_gaia(path: Path, columns: list[str], vlmevalkit_named: bool, metadata_ids: set[str] | None) -> str | None:
    """Why ``path`` is a GAIA archive, or None when it does not look like one."""
    cols = set(columns)
    strong = next((c for c in _STRONG_IDS if c in cols), None)
    id_col = strong or next((c for c in _WEAK_IDS if c in cols), None)
    if id_col is None:
        return None
    try:
        from gaia_fast.io.readers import detect_layout

        layout = detect_layout(columns, path)
    except ValueError:
        return None  # no prediction column: not an archive gaia-fast can grade
    if strong is not None and layout.task_id == strong and not (vlmevalkit_named and "index" in cols):
        return f"GAIA layout {layout.name}"
    ids = read_values(path, id_col)
    if not ids:
        return None
    if metadata_ids is not None and sum(i in metadata_ids for i in ids) * 2 > len(ids):
        return f"its {id_col} values are task ids of the metadata"
    if all(_UUID.fullmatch(i.strip().lower()) for i in ids):
        return f"its {id_col} values are GAIA task ids (UUIDs)"
    return None


def _by_shape(path: Path, model: str | None, dataset: str, note: str) -> Job:
    word = next((w for w in _CIRCULAR_WORDS if w in dataset.lower()), None)
    how = "the multiple-choice flow" if word is None else f"the circular multiple-choice flow (the name holds {word!r})"
    return Job(
        path,
        "mcq" if word is None else "mcq-circular",
        model,
        dataset,
        by_shape=True,
        note=f"{note}; graded by its table's shape with {how}",
    )


def _classify_result(path: Path, model: str | None, ctx: _Context) -> Job | SkippedFile:
    """A result-type file of a folder search that is not a side file: its job."""
    benchmark = ctx.benchmark
    if benchmark != "auto":
        found = benchmarks.detect(path, model) if benchmark != "gaia" else None
        return Job(path, benchmark, found.model if found else None, found.dataset if found else None)
    found = benchmarks.detect(path, model)
    if found is not None:
        return Job(path, found.benchmark.name, found.model, found.dataset)
    missing = benchmarks.unsupported(path, model, listed_only=True)
    if missing is not None:
        return Job(path, None, missing[0], missing[1], missing[2])
    named = model is not None and path.stem.startswith(model + "_") and len(path.stem) > len(model) + 1
    dataset = path.stem[len(model) + 1 :] if named and model is not None else None
    try:
        columns: list[str] | None = read_columns(path)
        unreadable = None
    except ValueError as e:
        columns, unreadable = None, str(e)
    if columns is not None:
        why = _looks_gaia(path, columns, named, ctx.metadata_ids)
        if why is not None:
            return Job(path, "gaia", None, path.stem)
    if dataset is not None:
        known = benchmarks.vlmevalkit_dataset(dataset)
        no_flow = None if known is None else (
            f"no grading flow yet for {dataset} (VLMEvalKit grades it with {known.evaluate_owner}.evaluate: {known.grading})"
        )
        if columns is not None and benchmarks.mcq_shape(columns) and (known is None or known.evaluate_owner == "ImageMCQDataset"):
            # VLMEvalKit builds an unknown dataset with A and B columns as a custom MCQ dataset:
            # ImageMCQDataset.evaluate, the flow "mcq" reproduces. Any other evaluate: no guess.
            label = f"{dataset} is not in gaia-fast's registry" + (
                "; VLMEvalKit grades it with ImageMCQDataset.evaluate" if known else
                "; VLMEvalKit grades an unknown dataset with option columns as a custom multiple-choice dataset (ImageMCQDataset.evaluate)"
            )
            return _by_shape(path, model, dataset, label)
        if no_flow is not None:
            return Job(path, None, model, dataset, no_flow)
        near = benchmarks.nearest_datasets(dataset)
        what = (
            f"cannot read it ({unreadable})" if unreadable
            else "its columns are not the multiple-choice shape (index, question, A, B, ..., answer, prediction)"
        )
        return Job(
            path,
            None,
            model,
            dataset,
            f"unknown dataset {dataset}: neither gaia-fast's registry nor VLMEvalKit's dataset list has it"
            + (f" (nearest known: {', '.join(near)})" if near else " (no known dataset name is close)")
            + f", and {what}; not graded",
        )
    if columns is not None and benchmarks.mcq_shape(columns):
        return _by_shape(
            path, model, path.stem, f"{path.name} names no known dataset; its columns are VLMEvalKit's multiple-choice table (ImageMCQDataset.evaluate)"
        )
    if unreadable:
        return Job(path, None, model, None, f"{unreadable}; not graded")
    shown = ", ".join(columns or []) or "none"
    named_like = benchmarks.detect(path.with_suffix(".xlsx"), model) if path.suffix.lower() not in (".xlsx", ".tsv", ".csv") else None
    name_says = (
        f"named like VLMEvalKit's {named_like.dataset} results, but VLMEvalKit does not write results as {path.suffix}"
        if named_like is not None
        else "no VLMEvalKit {model}_{dataset} name"
    )
    return SkippedFile(
        str(path),
        f"not a result file: no known GAIA layout with a task id (or ids of the metadata), and {name_says}; columns: {shown[:200]}",
    )


def _non_result(path: str | Path, benchmark: str) -> str | None:
    """:func:`benchmarks.non_result`, except for a JSON file under ``--benchmark gaia``: agent
    frameworks name GAIA results like VLMEvalKit's evaluation outputs (``gaia_results.json``,
    ``gaia_evaluation_results.json``), and the user said what the files hold."""
    if benchmark == "gaia" and str(path).lower().endswith(".json"):
        return None
    return benchmarks.non_result(path)


def _classify(path: Path, benchmark: str, plan: Plan) -> None:
    """Add ``path`` (a file named on the command line) to ``plan``: a job, a skipped
    record, or a skipped file, by its name alone (see :func:`_non_result`)."""
    why = _non_result(path, benchmark)
    if why is not None:
        hint = "; if it holds GAIA results, --benchmark gaia grades it" if path.suffix.lower() == ".json" else ""
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file: {why}{hint}"))
        return
    folder = benchmarks.model_folder(path)
    model = folder.name
    job: Job
    if benchmark != "auto":
        found = benchmarks.detect(path, model) if benchmark != "gaia" else None
        job = Job(path, benchmark, found.model if found else None, found.dataset if found else None)
    else:
        found = benchmarks.detect(path, model)
        missing = benchmarks.unsupported(path, model) if found is None else None
        if found is not None:
            job = Job(path, found.benchmark.name, found.model, found.dataset)
        elif missing is not None:
            job = Job(path, None, missing[0], missing[1], missing[2])
        else:
            job = Job(path, "gaia", None, path.stem)
    ctx = _Context(benchmark, None, False)
    plan.jobs.append(_set_run(job, _home(path, ctx), ctx))


def _home(path: Path, ctx: _Context) -> Path:
    """The run folder a single file comes from (its folder, a link's target's folder, or the
    newest run folder holding the same bytes), else its own folder."""
    if benchmarks.is_run_folder(path.parent.name):
        return path.parent
    real = Path(os.path.realpath(path))
    if path.is_symlink() and benchmarks.is_run_folder(real.parent.name):
        return real.parent
    copies = [r / path.name for r in path.parent.iterdir() if benchmarks.is_run_folder(r.name) and (r / path.name).is_file()]
    return next((c.parent for c in _newest(copies, ctx) if _same(path, c, ctx)), path.parent)


def _set_run(job: Job, folder: Path, ctx: _Context, note: str | None = None) -> Job:
    run = ctx.run(folder)
    notes = [n for n in (note, job.note) if n]
    if run is not None:
        job.run, job.commit, job.as_of = run.name, run.commit, run.as_of
        if run.note and job.benchmark not in (None, "gaia"):
            notes.append(run.note)
    job.note = "; ".join(notes) or None
    return job


# --------------------------------------------------------------------------- folder search


@dataclass
class _Entry:
    """One file name of a model folder: the model folder's own entry and each run's copy."""

    top: Path | None = None
    runs: list[Path] = field(default_factory=list)


def _state(p: Path) -> str:
    if p.is_symlink():
        return "link" if p.exists() else "dangling"
    return "file"


def _same(a: Path, b: Path, ctx: _Context) -> bool:
    try:
        if ctx.real(a) == ctx.real(b):
            return True
        return filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False


def _newest(runs: list[Path], ctx: _Context) -> list[Path]:
    """Run copies, newest first (the run's day, its time, its name)."""

    def key(p: Path) -> tuple:
        run = ctx.run(p.parent)
        assert run is not None  # grouped as a run copy because its folder is a run folder
        return run.sort_key()

    return sorted(runs, key=key, reverse=True)


def _pick(entry: _Entry, ctx: _Context) -> tuple[list[tuple[Path, Path, str | None]], list[SkippedFile]]:
    """The copies of one (model folder, name) to grade: ``(path, run folder or model folder,
    note)``, and what to report."""
    runs = _newest(entry.runs, ctx)
    top = entry.top
    skipped: list[SkippedFile] = []
    chosen: list[tuple[Path, Path, str | None]] = []
    top_note = None
    top_run: Path | None = None  # the run folder the model folder's entry comes from
    if top is not None:
        state = _state(top)
        if state == "dangling":
            target = os.readlink(top)
            own = next((r for r in runs if r.parent.name == Path(target).parent.name), None)
            use = own or (runs[0] if runs else None)
            if use is None:
                skipped.append(SkippedFile(str(top), f"a link to {target}, which does not exist, and no run folder here holds a copy"))
                return [], skipped
            top_note = f"{top} is a link to {target}, which does not exist (a tree copied from another machine?); graded the copy in run folder {use.parent.name}"
            if ctx.all_runs:
                skipped.append(SkippedFile(str(top), f"a link to {target}, which does not exist; the run folders' copies are graded"))
                return [(r, r.parent, top_note if r == use else None) for r in runs], skipped
            return [(use, use.parent, top_note)], skipped
        # Which run the model folder's link or copy comes from: the run copy it is (a link),
        # else the newest run copy with the same bytes (a copied tree, or --reuse copies).
        top_run = next((r.parent for r in runs if _same(top, r, ctx)), None)
        if top_run is None and state == "link":
            real = Path(os.path.realpath(top))
            top_note = f"{top} links outside its model folder, to {real}"
            if benchmarks.is_run_folder(real.parent.name):
                top_run = real.parent
        elif top_run is None and runs:
            top_note = (
                f"{top.name} in the model folder is the copy of none of its run folders "
                f"({', '.join(r.parent.name for r in runs)}), so its VLMEvalKit commit is unknown"
            )
    if ctx.all_runs:
        chosen = [(r, r.parent, None) for r in runs]
        if top is not None and (top_run is None or top_run not in {r.parent for r in runs}):
            chosen.insert(0, (top, top_run or top.parent, top_note))
        return chosen, skipped
    if top is not None:
        return [(top, top_run or top.parent, top_note)], skipped
    return [(runs[0], runs[0].parent, None)], skipped


def _search(folder: Path, plan: Plan, exclude: set[Path], ctx: _Context) -> None:
    order: list[tuple[Path, Path]] = []  # (model folder, name) in walk order
    groups: dict[tuple[Path, str], _Entry] = {}
    listing: dict[Path, list[str]] = {}  # folder -> its visible file names
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        keep = []
        for d in sorted(dirs):
            sub = here / d
            if d.startswith(".") or sub.resolve() in exclude:
                continue
            if is_metadata_folder(sub):
                plan.skipped_files.append(SkippedFile(str(sub), "GAIA task metadata (pass it as --metadata)"))
                continue
            if is_workspace(sub) or is_parquet_dataset(sub):
                plan.jobs.append(Job(sub, "gaia" if ctx.benchmark == "auto" else ctx.benchmark, None, sub.name))
                plan.seen.update(f.resolve() for f in _dataset_files(sub))
                continue
            keep.append(d)
        dirs[:] = keep
        names = sorted(n for n in files if not n.startswith("."))
        listing[here] = names
        model_dir = here.parent if benchmarks.is_run_folder(here.name) else here
        for name in names:
            key = (model_dir, name)
            if key not in groups:
                groups[key] = _Entry()
                order.append(key)
            p = here / name
            if here == model_dir:
                groups[key].top = p
            else:
                groups[key].runs.append(p)
            plan.seen.add(Path(ctx.real(os.path.join(root, name))))
    stems: dict[Path, set[str]] = {}
    for d, names in listing.items():
        stems[d] = set()
        for n in names:
            stem, ext = os.path.splitext(n)
            if ext.lower() in _RESULT_TYPES and benchmarks.non_result(n) is None:
                stems[d].add(stem)
    for model_dir, name in order:
        entry = groups[(model_dir, name)]
        first = entry.top or entry.runs[0]
        model = model_dir.name
        why = benchmarks.non_result(first)
        reason = f"not a result file: {why}" if why is not None else None
        if reason is None:
            of = _side_file_of(first, model, stems.get(first.parent, set()))
            if of is not None:
                reason = f"not a result file: an evaluation side file of {of} (judge records, reports)"
        if reason is None and Path(name).suffix.lower() not in SEARCHED_SUFFIXES:
            reason = f"not a result file type ({Path(name).suffix or 'no extension'})"
        if reason is not None:
            for p in (entry.top, *entry.runs):
                if p is not None:
                    extra = f" (a link to {os.readlink(p)}, which does not exist)" if _state(p) == "dangling" else ""
                    plan.skipped_files.append(SkippedFile(str(p), reason + extra))
            continue
        chosen, skipped = _pick(entry, ctx)
        plan.skipped_files.extend(skipped)
        # Every other copy is listed: nothing found is passed over in silence.
        listed = {Path(s.path) for s in skipped} | {c[0] for c in chosen}
        for p in (entry.top, *entry.runs):
            if p is not None and p not in listed:
                graded = ", ".join(str(c[0]) for c in chosen) or "none"
                how = "its run folder's copy" if p == entry.top else "the copy VLMEvalKit reads next; --all-runs grades every run's copy"
                plan.skipped_files.append(SkippedFile(str(p), f"another copy of {model}/{name}: graded from {graded} ({how})"))
        for path, home, note in chosen:
            result = _classify_result(path, model, ctx)
            if isinstance(result, SkippedFile):
                plan.skipped_files.append(result)
                continue
            plan.jobs.append(_set_run(result, home, ctx, note))


def expand(
    paths: Sequence[str | os.PathLike],
    benchmark: str = "auto",
    *,
    exclude: str | os.PathLike | Iterable[str | os.PathLike] | None = None,
    all_runs: bool = False,
    metadata_ids: set[str] | None = None,
) -> Plan:
    """Turn files, globs (expanded here, so quoted globs work) and folders into a
    :class:`Plan`. ``benchmark``: ``"auto"`` (from each file name), ``"gaia"`` or a registry
    name applied to every result file. ``exclude``: a folder (or several) the search
    skips (the report folder, the ``--out`` folder). ``all_runs``: grade every VLMEvalKit
    run folder's copy of a result, not only the one VLMEvalKit reads next. ``metadata_ids``:
    the GAIA task ids of ``--metadata``; a searched file whose ids match them is a GAIA
    archive. A path that does not exist and matches nothing raises ``FileNotFoundError``."""
    if benchmark != "auto":
        benchmarks.get(benchmark)  # KeyError naming the known ones
    plan = Plan()
    if exclude is None:
        exclude = ()
    elif isinstance(exclude, (str, os.PathLike)):
        exclude = (exclude,)
    excluded = {Path(e).resolve() for e in exclude}
    ctx = _Context(benchmark, metadata_ids, all_runs)
    for raw in paths:
        text = os.fspath(raw)
        p = Path(text)
        globbed = False
        if not p.exists() and not p.is_symlink() and _has_glob(text):
            matches = sorted(_glob.glob(text, recursive=True))
            if not matches:
                raise FileNotFoundError(f"{text}: no path matches this pattern")
            candidates = [Path(m) for m in matches]
            globbed = True
        elif p.is_symlink() and not p.exists():
            raise FileNotFoundError(f"{text}: a link to {os.readlink(p)}, which does not exist")
        elif not p.exists():
            raise FileNotFoundError(f"{text}: path does not exist")
        else:
            candidates = [p]
        for c in candidates:
            if c.is_dir():
                if is_metadata_folder(c):
                    raise FileNotFoundError(f"{c}: a GAIA task-metadata folder, not an archive; pass it as --metadata")
                if is_workspace(c) or is_parquet_dataset(c):
                    plan.jobs.append(Job(c, "gaia" if benchmark == "auto" else benchmark, None, c.resolve().name))
                    plan.seen.update(f.resolve() for f in _dataset_files(c))
                else:
                    _search(c, plan, excluded, ctx)
            elif globbed:
                _glob_file(c, plan, ctx)
            else:
                plan.seen.add(c.resolve())
                _classify(c, benchmark, plan)
    return plan


def _glob_file(path: Path, plan: Plan, ctx: _Context) -> None:
    """A file a quoted glob matched: the folder search's rules for one file."""
    plan.seen.add(path.resolve())
    if _state(path) == "dangling":
        plan.skipped_files.append(SkippedFile(str(path), f"a link to {os.readlink(path)}, which does not exist"))
        return
    why = _non_result(path, ctx.benchmark)
    if why is not None:
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file: {why}"))
        return
    folder = benchmarks.model_folder(path)
    siblings = {
        q.name[: -len(q.suffix)]
        for q in path.parent.iterdir()
        if q.suffix.lower() in _RESULT_TYPES and benchmarks.non_result(q) is None
    }
    of = _side_file_of(path, folder.name, siblings)
    if of is not None:
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file: an evaluation side file of {of} (judge records, reports)"))
        return
    real = os.path.realpath(path)
    if real in ctx.taken:
        return  # another match of the pattern is this very file (a link and its target)
    ctx.taken.add(real)
    result = _classify_result(path, folder.name, ctx)
    if isinstance(result, SkippedFile):
        plan.skipped_files.append(result)
        return
    plan.jobs.append(_set_run(result, _home(path, ctx), ctx))


def single(path: str | os.PathLike, benchmark: str = "auto") -> Plan:
    """The plan of one archive named on its own: a folder (a workspace or Parquet parts) is
    one GAIA archive; a file follows the rules of a file named on the command line (a
    VLMEvalKit result file gets its benchmark, model and run from its name and folders; a
    known dataset with no flow is a skipped job; an evaluation output is a skipped file;
    anything else is a GAIA archive)."""
    p = Path(path)
    plan = Plan()
    if p.is_dir():
        plan.jobs.append(Job(p, "gaia" if benchmark == "auto" else benchmark, None, p.resolve().name))
    else:
        _classify(p, benchmark, plan)
    plan.seen.add(p.resolve())
    return plan
