"""The benchmark registry: every benchmark ``gaia-fast grade`` knows, in one table.

Each entry names the module that grades it (extract -> score -> aggregate in one place,
``module.grade(frame, variant=..., seed=..., judge=..., **options)`` for the VLMEvalKit
families), the VLMEvalKit dataset names it grades (for ``--benchmark auto``: a result file
is ``{model}_{dataset}.{xlsx,tsv,csv}``) and the report file name VLMEvalKit gives it.
``--benchmark``, the bulk path and the README's table all read this table: adding a
benchmark is one module and one entry here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["BENCHMARKS", "Benchmark", "Detected", "detect", "get", "names"]


@dataclass(frozen=True)
class Benchmark:
    """One gradable benchmark."""

    name: str
    #: Module that grades it, e.g. ``gaia_fast.scorers.vlm.mcq``.
    module: str
    #: Extra keyword arguments for the module's ``grade``.
    options: dict[str, Any] = field(default_factory=dict)
    #: Regular expressions (full match) of the VLMEvalKit dataset names it grades.
    datasets: tuple[str, ...] = ()
    #: Suffix of the report VLMEvalKit writes beside the result file
    #: (``{model}_{dataset}{report}``); None for GAIA.
    report: str | None = "_acc.csv"
    #: What it reproduces, one line (the README's table).
    description: str = ""


BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark(
            "gaia",
            "gaia_fast.scorers.gaia",
            report=None,
            description="GAIA result archives: the leaderboard's question_scorer (and the lenient / graded rules)",
        ),
        Benchmark(
            "vmcbench",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "vmcbench"},
            datasets=(r"VMCBench_(DEV|TEST)",),
            description="VMCBench: parse_multi_choice and report_vmc_acc",
        ),
        Benchmark(
            "livexivvqa",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "livexivvqa"},
            datasets=(r"LiveXivVQA.*",),
            description="LiveXivVQA: can_infer and report_acc",
        ),
        Benchmark(
            "mmmu",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mmmu"},
            datasets=(r"MMMU_(DEV_VAL|TEST)",),
            description="MMMU: multiple choice and open answers, per-subject report",
        ),
        Benchmark(
            "omni3dbench",
            "gaia_fast.scorers.vlm.omni3d",
            datasets=(r"Omni3DBench",),
            description="Omni3DBench: per-type rules, MRA",
        ),
        Benchmark(
            "atomic",
            "gaia_fast.scorers.vlm.physics",
            datasets=(r"(atomic_dataset|Physics_yale|PHYSICS).*",),
            description="PHYSICS (atomic_dataset): boxed answers, SymPy equivalence, optional judge",
        ),
        Benchmark(
            "olympiadbench",
            "gaia_fast.scorers.vlm.olympiad",
            datasets=(r"OlympiadBench.*",),
            description="OlympiadBench: answer extraction and the authors' judge",
        ),
    )
}


def names() -> tuple[str, ...]:
    """Every benchmark name, in registry order."""
    return tuple(BENCHMARKS)


def get(name: str) -> Benchmark:
    """The entry for ``name``; KeyError naming the known ones otherwise."""
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise KeyError(f"unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}") from None


@dataclass(frozen=True)
class Detected:
    """What a VLMEvalKit result file name says."""

    benchmark: Benchmark
    model: str
    dataset: str


_RESULT_EXT = (".xlsx", ".tsv", ".csv")


def detect(path: str | Path) -> Detected | None:
    """The benchmark of a VLMEvalKit result file ``{model}_{dataset}.{xlsx,tsv,csv}``, from
    its dataset name; None when no registered dataset matches. The model is the file's
    folder name when the stem starts with it (VLMEvalKit's ``outputs/<model>/``), else the
    part before the longest matching dataset suffix."""
    p = Path(path)
    if p.suffix.lower() not in _RESULT_EXT:
        return None
    stem = p.stem
    best: Detected | None = None
    parts = stem.split("_")
    # Try every split point "model_dataset"; prefer the folder name as model, then the
    # longest dataset name.
    for i in range(1, len(parts)):
        model, dataset = "_".join(parts[:i]), "_".join(parts[i:])
        for b in BENCHMARKS.values():
            if any(re.fullmatch(rx, dataset) for rx in b.datasets):
                cand = Detected(b, model, dataset)
                if model == p.parent.name:
                    return cand
                if best is None or len(dataset) > len(best.dataset):
                    best = cand
    return best
