"""The benchmark registry: every benchmark ``gaia-fast grade`` knows, in one table.

Each entry names the module that grades it (extract -> score -> aggregate in one place,
``module.grade(frame, variant=..., seed=..., judge=..., **options)`` for the VLMEvalKit
families), the VLMEvalKit dataset names it grades (for ``--benchmark auto``: a result file
is ``{model}_{dataset}.{xlsx,tsv,csv}``) and the report file name VLMEvalKit gives it.
``--benchmark``, the bulk path and the README's table all read this table: adding a
benchmark is one module and one entry here.
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "BENCHMARKS",
    "NON_RESULT",
    "RUN_FOLDER",
    "UNSUPPORTED",
    "Benchmark",
    "Detected",
    "KnownDataset",
    "detect",
    "get",
    "is_run_folder",
    "mcq_shape",
    "model_folder",
    "names",
    "nearest_datasets",
    "non_result",
    "unsupported",
    "variant_on",
    "vlmevalkit_dataset",
]


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
    #: ``--as-of``: how VLMEvalKit's evaluation code for it changed, as ``(first day, variant)``
    #: pairs in date order (ISO dates: the UTC day the change was committed upstream). A date takes the
    #: variant of the last pair on or before it; a date before the first pair is an error.
    #: None as a variant: the module's only rule.
    variants: tuple[tuple[str, str | None], ...] = ()

    def variant_on(self, day: _dt.date | str) -> str | None:
        """The variant VLMEvalKit's code for this benchmark had on ``day``; ValueError when
        the table says nothing about that date."""
        return variant_on(self, day)


#: ``can_infer`` (specs/vlmevalkit.md §0): classic from c6bdffd3, the letter position rule
#: and length guard from c3371551, the "answer is X" regex from a67ace50.
_CAN_INFER_DATES = (("2024-03-19", "classic"), ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06"))
#: ``process_punctuation`` of ``YOrN_Extraction``: the period rule changed in 928a95b0.
_YORN_DATES = (("2024-03-19", "classic"), ("2025-05-13", "2025-05"))
#: Open VQA (``vqa_eval.py``): the period rule changed in 928a95b0, ChartQA's argument order
#: of relaxed_correctness in 677e30a5; each dataset's table starts where its code is known.
_VQA_LATER = (("2025-05-13", "2025-05"), ("2025-09-01", "2025-09"))

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
            variants=(("2025-03-05", None),),  # 392c8e7f: VMCBench added (2025-03-04 US time), unchanged since
        ),
        Benchmark(
            "livexivvqa",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "livexivvqa"},
            datasets=(r"LiveXivVQA.*",),
            description="LiveXivVQA: can_infer and report_acc",
            variants=(("2025-07-29", "dcvlr"),),  # only in the DCVLR fork (oumi-ai 9dc79b90)
        ),
        Benchmark(
            "mmmu",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mmmu"},
            datasets=(r"MMMU_(DEV_VAL|TEST)",),
            description="MMMU: multiple choice and open answers, per-subject report",
            # 24ebca6b (2023-12-22, a side branch): MMMU_eval. Main graded MMMU through the
            # multiple-choice flow from 39cebe2f (2023-12-26); that is not this entry.
            variants=(("2023-12-22", "2023-12"),),
        ),
        Benchmark(
            "mcq",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq"},
            # Upstream ImageMCQDataset names scored by mcq_vanilla_eval + report_acc.
            datasets=(
                r"MMStar(_MINI)?",
                r"SEEDBench_IMG",
                r"SEEDBench2(_Plus)?",
                r"ScienceQA_(VAL|TEST)",
                r"AI2D_(TEST|TEST_NO_MASK|MINI)",
                r"RealWorldQA",
                r"AesBench_(VAL|TEST)",
                r"Q-Bench1_(VAL|TEST)",
                r"A-Bench_(VAL|TEST)",
                r"R-Bench-(Dis|Ref)",
                r"MLLMGuard_DS",
                r"BLINK",
                r"TaskMeAnything_v1_imageqa_random",
                r"A-OKVQA",
                r"WorldMedQA-V",
                r"VisOnlyQA-VLMEvalKit",
                r"VStarBench",
                r"PathMMU_(VAL|TEST)",
                r"CMMU_MCQ",
                r"MicroVQA",
                r"SpatialEval",
                r"MMMB_(ar|cn|en|pt|ru|tr)",
            ),
            description="Multiple choice (MMStar, SEEDBench, ScienceQA, AI2D, RealWorldQA, ...): can_infer (--variant, default classic) and report_acc",
            variants=_CAN_INFER_DATES,
        ),
        Benchmark(
            "mmt-bench",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq", "report": "mmt"},
            datasets=(r"MMT-Bench_(ALL|VAL)(_MI)?",),
            description="MMT-Bench: the mcq flow with report_acc_MMT (l2-categories as the mean of their categories, an ALL row)",
            variants=_CAN_INFER_DATES,
        ),
        Benchmark(
            "mcq-circular",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq-circular"},
            # Upstream runs circularly every dataset whose lowercased name holds mmbench,
            # ccbench, circular or mmcr.
            datasets=(
                r"MMBench(?![-_]Video)([-_][A-Za-z0-9]+)*",
                r"CCBench",
                r"MMCR",
                r"[A-Za-z0-9-]+_circular",
            ),
            description="Circular multiple choice (MMBench, CCBench, *_circular): a question counts only when every rotation of its options is right",
            variants=_CAN_INFER_DATES,
        ),
        Benchmark(
            "mme",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "mme"},
            datasets=(r"MME",),
            report="_score.csv",
            description="MME: YOrN_Extraction (--variant, default classic) and MME_rating (perception, reasoning, per-category accuracy + accuracy+)",
            variants=_YORN_DATES,
        ),
        Benchmark(
            "pope",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "pope"},
            datasets=(r"POPE",),
            report="_score.csv",
            description="POPE: YOrN_Extraction (--variant, default classic) and POPE_rating (F1, accuracy, precision, recall per split)",
            variants=_YORN_DATES,
        ),
        Benchmark(
            "hallusionbench",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "hallusionbench"},
            datasets=(r"HallusionBench",),
            report="_score.csv",
            description="HallusionBench: YOrN_Extraction (--variant, default classic) and Hallusion_rating (aAcc, fAcc, qAcc per category)",
            variants=_YORN_DATES,
        ),
        Benchmark(
            "textvqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "textvqa"},
            datasets=(r"TextVQA_VAL",),
            description="TextVQA: process_answer (--variant, default classic) and the VQA accuracy over the ten answers, Overall",
            variants=(("2024-03-19", "classic"), *_VQA_LATER),
        ),
        Benchmark(
            "chartqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "chartqa"},
            datasets=(r"ChartQA_TEST",),
            description="ChartQA: relaxed accuracy (5 %; --variant, default classic: the reference's swapped arguments), per split and Overall",
            variants=(("2024-03-27", "classic"), *_VQA_LATER),  # 3d800fce: str() in relaxed_correctness, the Overall column
        ),
        Benchmark(
            "ocrvqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "ocrvqa"},
            datasets=(r"OCRVQA_TEST(CORE)?",),
            description="OCRVQA: exact accuracy after strip and lower, Overall and per category",
            variants=(("2024-03-19", "classic"), *_VQA_LATER),
        ),
        Benchmark(
            "docvqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "docvqa"},
            datasets=(r"DocVQA_(VAL|TEST)",),
            description="DocVQA: ANLS (threshold 0.5), Overall",
            variants=(("2024-03-19", "classic"), *_VQA_LATER),
        ),
        Benchmark(
            "infovqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "infovqa"},
            datasets=(r"InfoVQA_(VAL|TEST)",),
            description="InfoVQA: ANLS (threshold 0.5), Overall",
            variants=(("2024-04-08", "classic"), *_VQA_LATER),  # 803affbc: InfoVQA added
        ),
        Benchmark(
            "gqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "gqa"},
            datasets=(r"GQA_TestDev_Balanced",),
            description="GQA (TestDev balanced): exact accuracy after strip and lower, Overall",
            variants=(("2024-09-03", "classic"), *_VQA_LATER),  # 3dfe2971: GQA added
        ),
        Benchmark(
            "ocrbench",
            "gaia_fast.scorers.vlm.ocrbench",
            datasets=(r"OCRBench(_MINI)?",),
            report="_score.json",
            description="OCRBench: an answer found in the prediction (lowercased; spaces dropped for handwritten math), per-category counts and the final score",
            variants=(("2024-02-24", "classic"),),  # e02f3ff7: OCRBench added; the same rule at head
        ),
        Benchmark(
            "coco-caption",
            "gaia_fast.scorers.vlm.caption",
            datasets=(r"COCO_VAL",),
            report="_score.json",
            description="COCO captioning: BLEU-1..4, ROUGE-L and CIDEr as pycocoevalcap computes them (no tokenizer), times 100",
            # dd7b749e added COCO on 2023-12-20 with a broken Bleu list; 5ca8c8c2 fixed it the
            # next day, and the evaluation is the same from then to head.
            variants=(("2023-12-21", "classic"),),
        ),
        Benchmark(
            "omni3dbench",
            "gaia_fast.scorers.vlm.omni3d",
            datasets=(r"Omni3DBench",),
            description="Omni3DBench: per-type rules, MRA",
            variants=(("2025-06-06", "vlmevalkit"),),  # 50c954aa: Omni3DBench added (2025-06-05 US time)
        ),
        Benchmark(
            "atomic",
            "gaia_fast.scorers.vlm.physics",
            datasets=(r"(atomic_dataset|Physics_yale|PHYSICS).*",),
            description="PHYSICS (atomic_dataset): boxed answers, SymPy equivalence, optional judge",
            variants=(("2025-04-18", "8f07d6cf"), ("2025-12-25", "a039b677"), ("2026-03-19", "head")),
        ),
        Benchmark(
            "olympiadbench",
            "gaia_fast.scorers.vlm.olympiad",
            datasets=(r"OlympiadBench.*",),
            description="OlympiadBench: answer extraction and the authors' judge",
            variants=(("2024-11-16", "vlmevalkit"),),  # 089dc350: OlympiadBench added (the MathJudger port)
        ),
        Benchmark(
            "mmvet",
            "gaia_fast.scorers.vlm.judged",
            {"benchmark": "mmvet"},
            datasets=(r"MMVet(_Hard)?",),
            # VLMEvalKit writes {stem}_{judge}_score.csv (2023-12-06: _score.xlsx); the judge's
            # name is not known from here, so gaia-fast's own report takes this suffix.
            report="_score.csv",
            description="MMVet: the archive's recorded judge scores (every row is judge-scored) and MMVet_acc",
            # ca3c9b52 (2023-12-06): raw replies, capabilities in order of appearance;
            # 20eb37a8 (2023-12-11): parsed scores, fixed capability order (still at head).
            variants=(("2023-12-06", "2023-12"), ("2023-12-11", "classic")),
        ),
        Benchmark(
            "llavabench",
            "gaia_fast.scorers.vlm.judged",
            {"benchmark": "llavabench"},
            datasets=(r"LLaVABench",),
            report="_score.csv",
            description="LLaVABench: the archive's recorded GPT-4 reviews (_openai_result) and LLaVABench_score (relative score per category)",
            variants=(("2024-01-17", "classic"),),  # 8966cd4d: LLaVABench added; the same report at head
        ),
    )
}


#: VLMEvalKit datasets with no gaia-fast flow yet: dataset regex -> what flow they need.
UNSUPPORTED: dict[str, str] = {
    r"AMBER|VSR-zeroshot": "yes/no questions (Y/N flow)",
    r"OCRBench_v2(_MINI)?": "OCRBench v2 (its own evaluation)",
    r"MathVista_MINI|MathVision(_MINI)?|MathVerse_MINI.*|DynaMath|LogicVista|WeMath": "math (judge-extracted answers)",
    r"MMVP|MMSci_DEV_MCQ": "judge-scored or special report",
}

#: File names of VLMEvalKit's evaluation outputs and caches (not results to grade), with
#: what they are. A ``{stem}_{anything}`` file beside a result file ``{stem}`` is one too
#: (discovery checks the folder; see :func:`gaia_fast.grading.discover.expand`).
NON_RESULT: tuple[tuple[str, str], ...] = (
    (r".*_acc\.(csv|xlsx|json)", "an accuracy report (_acc)"),
    (r".*_result\.(xlsx|tsv|csv|json)", "a judged copy of the results (_<judge>_result)"),
    (r".*_auxmatch\.(xlsx|tsv|csv)", "an answer-matching output (_auxmatch)"),
    (r".*_score\.(csv|json|xlsx)", "a score report (_score)"),
    (r".*_prefetch\.(xlsx|tsv|csv)", "a prefetch log (_prefetch)"),
    (r".*_(supp|tmp|fine_grained|metrics|rating)\.(xlsx|tsv|csv|json)", "an evaluation side output"),
    (r".*\.pkl", "a judge cache (.pkl)"),
    (r".*\.scored\.parquet", "a scored table (gaia-fast grade --out)"),
    (r"status\.json(\.lock)?", "a VLMEvalKit run status (status.json)"),
)

#: A VLMEvalKit run folder ``{work_dir}/{model}/{eval_id}/``: ``T{YYYYMMDD}_G{commit}`` from
#: 2024-11 (#583; ``G`` is empty or ``unknown`` where the code was not a git checkout), and
#: ``T{YYYYMMDD}-{HHMMSS}`` from 2026-04 (#1499; the commit is in its ``status.json``).
RUN_FOLDER = re.compile(r"T(?P<day>\d{8})(?:_G(?P<commit>[0-9A-Za-z]*)|-(?P<time>\d{6}))")


def is_run_folder(name: str) -> bool:
    """Whether a folder name is a VLMEvalKit run folder (:data:`RUN_FOLDER`)."""
    return RUN_FOLDER.fullmatch(name) is not None


def model_folder(path: str | Path) -> Path:
    """The folder naming the model of a result file: the nearest folder above ``path`` that
    is not a run folder (``outputs/m/T20250430_G1a2b3c4d/m_MMStar.xlsx`` -> ``outputs/m``)."""
    folder = Path(path).parent
    while is_run_folder(folder.name) and folder.parent != folder:
        folder = folder.parent
    return folder


_NON_RESULT_RX: tuple[tuple[tuple[str, str], ...], list[tuple[re.Pattern[str], str]]] | None = None


def non_result(path: str | Path) -> str | None:
    """What ``path`` is when it is an evaluation output or a judge cache, else None."""
    global _NON_RESULT_RX
    if _NON_RESULT_RX is None or _NON_RESULT_RX[0] is not NON_RESULT:  # compiled once (a search asks per file)
        _NON_RESULT_RX = (NON_RESULT, [(re.compile(rx), what) for rx, what in NON_RESULT])
    name = os.path.basename(path)
    for rx, what in _NON_RESULT_RX[1]:
        if rx.fullmatch(name):
            return what
    return None


def unsupported(path: str | Path, model: str | None = None, *, listed_only: bool = False) -> tuple[str, str, str] | None:
    """``(model, dataset, reason)`` for a VLMEvalKit result file whose dataset has no flow
    here: a known dataset (:data:`UNSUPPORTED`), or (unless ``listed_only``) any
    ``{model}_{dataset}`` name in a model's folder (``model``: that folder's name; default:
    :func:`model_folder`). None when the name says nothing."""
    p = Path(path)
    if p.suffix.lower() not in _RESULT_EXT or non_result(p):
        return None
    parts = p.stem.split("_")
    for i in range(1, len(parts)):
        model_part, dataset = "_".join(parts[:i]), "_".join(parts[i:])
        for rx, kind in UNSUPPORTED.items():
            if re.fullmatch(rx, dataset):
                return model_part, dataset, f"no grading flow yet for {dataset} ({kind})"
    if listed_only:
        return None
    folder = model if model is not None else model_folder(p).name
    if folder and p.stem.startswith(folder + "_") and len(p.stem) > len(folder) + 1:
        dataset = p.stem[len(folder) + 1 :]
        return folder, dataset, f"no registered benchmark for dataset {dataset}"
    return None


@dataclass(frozen=True)
class KnownDataset:
    """A dataset name VLMEvalKit knows (``data/vlmevalkit_datasets.csv``, from the dataset
    table of VLMEvalKit e8e78f05): the class whose ``evaluate`` grades it and how."""

    name: str
    kind: str
    evaluate_owner: str
    grading: str


_KNOWN: dict[str, KnownDataset] | None = None


def _known() -> dict[str, KnownDataset]:
    global _KNOWN
    if _KNOWN is None:
        import csv

        table: dict[str, KnownDataset] = {}
        with open(Path(__file__).parent / "data" / "vlmevalkit_datasets.csv", encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                table[row["name"]] = KnownDataset(row["name"], row["kind"], row["evaluate_owner"], row["grading"])
        _KNOWN = table
    return _KNOWN


def vlmevalkit_dataset(name: str) -> KnownDataset | None:
    """The VLMEvalKit dataset ``name`` (exact spelling), or None when VLMEvalKit does not
    list it."""
    return _known().get(name)


def _registry_names() -> list[str]:
    """The dataset names the registry's patterns spell out in full (a literal, or top-level
    alternatives of literals), for suggestions."""
    out = []
    for rx in [r for b in BENCHMARKS.values() for r in b.datasets] + list(UNSUPPORTED):
        alts = rx.split("|")
        if all(re.fullmatch(r"[A-Za-z0-9_\-]+", a) for a in alts):
            out.extend(alts)
    return out


def nearest_datasets(name: str, n: int = 3) -> list[str]:
    """Up to ``n`` known dataset names (the registry's and VLMEvalKit's) closest to ``name``
    (difflib, case-insensitive), best first."""
    import difflib

    names = sorted(set(_registry_names()) | set(_known()))
    lowered: dict[str, str] = {}
    for x in names:
        lowered.setdefault(x.lower(), x)
    close = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[x] for x in close]


def mcq_shape(columns: list[str] | tuple[str, ...]) -> bool:
    """Whether a result table has VLMEvalKit's multiple-choice shape: ``index``,
    ``question``, ``answer``, ``prediction`` and option columns ``A``, ``B`` (VLMEvalKit
    builds an unknown dataset with ``A`` and ``B`` columns as a custom multiple-choice
    dataset, graded by ``ImageMCQDataset.evaluate``)."""
    cols = set(columns)
    return {"index", "question", "answer", "prediction", "A", "B"} <= cols


def _day(value: _dt.date | str) -> _dt.date:
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD)") from None


def variant_on(benchmark: Benchmark | str, day: _dt.date | str) -> str | None:
    """The variant of ``benchmark`` (an entry or its name) that VLMEvalKit's evaluation code
    had on ``day``: the last ``(first day, variant)`` pair of its table on or before it.
    ValueError when it has no table or ``day`` comes before the first pair."""
    entry = get(benchmark) if isinstance(benchmark, str) else benchmark
    when = _day(day)
    if not entry.variants:
        raise ValueError(f"{entry.name}: no date table, so --as-of cannot pick its variant; pass --variant")
    chosen: tuple[str, str | None] | None = None
    for first, variant in entry.variants:
        if _day(first) <= when:
            chosen = (first, variant)
    if chosen is None:
        first, variant = entry.variants[0]
        raise ValueError(
            f"{entry.name}: --as-of {when.isoformat()} is before {first}, the first day gaia-fast knows VLMEvalKit's "
            f"evaluation of it (variant {variant or 'the only one'}); pass --variant to grade anyway"
        )
    return chosen[1]


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


@functools.lru_cache(maxsize=256)
def _any_of(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled pattern that fully matches what any of ``patterns`` fully matches (a
    folder search asks the registry once per file)."""
    return re.compile("|".join(f"(?:{rx})" for rx in patterns))


def detect(path: str | Path, model: str | None = None) -> Detected | None:
    """The benchmark of a VLMEvalKit result file ``{model}_{dataset}.{xlsx,tsv,csv}``, from
    its dataset name; None when no registered dataset matches. The model is the name of the
    file's model folder when the stem starts with it (VLMEvalKit's ``outputs/<model>/``, the
    nearest folder that is not a run folder, or ``model`` when given), else the part before
    the longest matching dataset suffix."""
    p = Path(path)
    if p.suffix.lower() not in _RESULT_EXT or non_result(p):
        return None
    stem = p.stem
    folder = model if model is not None else model_folder(p).name
    best: Detected | None = None
    parts = stem.split("_")
    # Try every split point "model_dataset"; prefer the folder name as model, then the
    # longest dataset name.
    for i in range(1, len(parts)):
        model_part, dataset = "_".join(parts[:i]), "_".join(parts[i:])
        for b in BENCHMARKS.values():
            if b.datasets and _any_of(b.datasets).fullmatch(dataset):
                cand = Detected(b, model_part, dataset)
                if model_part == folder:
                    return cand
                if best is None or len(dataset) > len(best.dataset):
                    best = cand
    return best
