"""Discovery: expand paths (files, globs, folders) into a :class:`~gaia_fast.grading.plan.Plan`
of jobs.

What a path becomes:

* a folder of ``<task_id>/answer.txt`` files: one GAIA workspace archive;
* a folder whose files are all Parquet parts of one table (:func:`is_parquet_dataset`): one
  partitioned GAIA archive;
* any other folder: searched recursively for result files;
* a file: VLMEvalKit's evaluation outputs and judge caches (``*_acc.csv``,
  ``*_openai_result.xlsx``, ``*.pkl``, ...) are skipped and listed; with ``benchmark="auto"``
  a ``{model}_{dataset}.{xlsx,tsv,csv}`` name picks the benchmark from its dataset
  (:func:`gaia_fast.benchmarks.detect`), datasets with no flow yet become skipped jobs,
  and other files are GAIA archives.
"""

from __future__ import annotations

import glob as _glob
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from gaia_fast import benchmarks
from gaia_fast.grading.plan import Job, Plan, SkippedFile

__all__ = ["SEARCHED_SUFFIXES", "expand", "is_metadata_folder", "is_parquet_dataset", "is_workspace", "single"]

#: File types a folder search considers (others are listed as skipped). Plain ``.json`` is
#: left out: in result trees it holds score reports; name such an archive explicitly.
SEARCHED_SUFFIXES = (".xlsx", ".tsv", ".csv", ".jsonl", ".parquet")


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


def _classify(path: Path, benchmark: str, plan: Plan, searched: bool) -> None:
    """Add ``path`` (a file) to ``plan``: a job, a skipped record, or a skipped file."""
    why = benchmarks.non_result(path)
    if why is not None:
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file: {why}"))
        return
    if searched and path.suffix.lower() not in SEARCHED_SUFFIXES:
        plan.skipped_files.append(SkippedFile(str(path), f"not a result file type ({path.suffix or 'no extension'})"))
        return
    if benchmark != "auto":
        found = benchmarks.detect(path) if benchmark != "gaia" else None
        plan.jobs.append(Job(path, benchmark, found.model if found else None, found.dataset if found else None))
        return
    found = benchmarks.detect(path)
    if found is not None:
        plan.jobs.append(Job(path, found.benchmark.name, found.model, found.dataset))
        return
    missing = benchmarks.unsupported(path)
    if missing is not None:
        model, dataset, reason = missing
        plan.jobs.append(Job(path, None, model, dataset, reason))
        return
    plan.jobs.append(Job(path, "gaia", None, path.stem))


def _search(folder: Path, benchmark: str, plan: Plan, exclude: set[Path]) -> None:
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
                plan.jobs.append(Job(sub, "gaia" if benchmark == "auto" else benchmark, None, sub.name))
                plan.seen.update(f.resolve() for f in _dataset_files(sub))
                continue
            keep.append(d)
        dirs[:] = keep
        for name in sorted(files):
            if name.startswith("."):
                continue
            p = here / name
            plan.seen.add(p.resolve())
            _classify(p, benchmark, plan, searched=True)


def expand(
    paths: Sequence[str | os.PathLike],
    benchmark: str = "auto",
    *,
    exclude: str | os.PathLike | Iterable[str | os.PathLike] | None = None,
) -> Plan:
    """Turn files, globs (expanded here, so quoted globs work) and folders into a
    :class:`Plan`. ``benchmark``: ``"auto"`` (from each file name), ``"gaia"`` or a registry
    name applied to every result file. ``exclude``: a folder (or several) the search
    skips (the report folder, the ``--out`` folder). A path that does not exist and matches nothing raises ``FileNotFoundError``."""
    if benchmark != "auto":
        benchmarks.get(benchmark)  # KeyError naming the known ones
    plan = Plan()
    if exclude is None:
        exclude = ()
    elif isinstance(exclude, (str, os.PathLike)):
        exclude = (exclude,)
    excluded = {Path(e).resolve() for e in exclude}
    for raw in paths:
        text = os.fspath(raw)
        p = Path(text)
        if not p.exists() and _has_glob(text):
            matches = sorted(_glob.glob(text, recursive=True))
            if not matches:
                raise FileNotFoundError(f"{text}: no path matches this pattern")
            candidates = [Path(m) for m in matches]
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
                    _search(c, benchmark, plan, excluded)
            else:
                plan.seen.add(c.resolve())
                _classify(c, benchmark, plan, searched=False)
    return plan




def single(path: str | os.PathLike, benchmark: str = "auto") -> Plan:
    """The plan of one archive named on its own (a file, a workspace or a Parquet folder):
    with ``benchmark="auto"`` a VLMEvalKit result file name gives its benchmark, anything
    else is a GAIA archive."""
    p = Path(path)
    if benchmark == "auto":
        found = benchmarks.detect(p) if p.is_file() else None
        job = Job(p, found.benchmark.name, found.model, found.dataset) if found else Job(p, "gaia", None, p.stem)
    else:
        found = benchmarks.detect(p) if benchmark != "gaia" and p.is_file() else None
        job = Job(p, benchmark, found.model if found else None, found.dataset if found else None)
    plan = Plan(jobs=[job])
    plan.seen.add(p.resolve())
    return plan
