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
    "LOOKALIKES",
    "NON_RESULT",
    "RUN_FOLDER",
    "UNSUPPORTED",
    "Benchmark",
    "Detected",
    "KnownDataset",
    "detect",
    "for_dataset",
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
    #: VLMEvalKit's grading category of the flow (``datasets.jsonl``'s ``grading``):
    #: ``rules``, ``rules+judge-fallback`` or ``judge``; the registry test checks every
    #: dataset name it claims has that category upstream. Empty: not a VLMEvalKit flow.
    grading: str = ""
    #: ``(report suffix, variant)``: a report name only that era of VLMEvalKit wrote. A result
    #: file with no date (no run folder commit, no ``--as-of``) that has such a report beside
    #: it, and not this entry's own ``report``, is graded with that era's variant.
    era_reports: tuple[tuple[str, str], ...] = ()
    #: The report's headline cell where :func:`gaia_fast.grading.reporters.headline`'s
    #: heuristic picks another: names tried in order, each a column (read in the row labelled
    #: ``Overall`` when there is one, else the first row) or a nested rating's key. Empty, or
    #: none of them in the report (another era's shape): the heuristic.
    headline: tuple[str, ...] = ()

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
            grading="rules",
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
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mmmu"},
            datasets=(r"MMMU_(DEV_VAL|TEST)",),
            description="MMMU: MMMU_preproc then the mcq flow and report_acc (--variant 2023-12: the side branch's MMMU_eval, per-subject report; with no date, chosen by the file's columns)",
            # 24ebca6b (2023-12-22, a side branch): MMMU_eval. Main graded MMMU through the
            # multiple-choice flow with MMMU_preproc from 39cebe2f (2023-12-26); its matcher
            # is known from c6bdffd3 (2024-03-19), so the days between keep 2023-12.
            variants=(("2023-12-22", "2023-12"), *_CAN_INFER_DATES),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mcq",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq"},
            # ImageMCQDataset names (and subclasses that keep its evaluate) scored by
            # mcq_vanilla_eval + report_acc; a name whose lowercased form holds mmbench,
            # ccbench, circular or mmcr runs circularly instead (mcq-circular).
            datasets=(
                r"MMStar(_MINI|_KO|_TR)?",
                r"SEEDBench_IMG(_KO)?",
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
                r"K-DTCBench",
                r"StaticEmbodiedBench",
                r"MUIRBench",
                r"MedXpertQA_MM_test",
                r"MicroBench",
                r"OmniMedVQA",
                r"MSEarthMCQ",
                r"SCAM",
                r"CVQA_(LOC|EN)",
                r"WikiVQABench",
            ),
            description="Multiple choice (MMStar, SEEDBench, ScienceQA, AI2D, RealWorldQA, ...): `mcq_vanilla_eval` + `report_acc`; `--variant` picks the `can_infer` version (default `classic`, which scored archives from 2024-03 to 2025-08)",
            variants=_CAN_INFER_DATES,
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "tdbench",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq"},
            datasets=(r"tdbench_(rot(0|90|180|270)|cs_(zoom|height|integrity|depth))",),
            description="TDBench: the mcq flow and report_acc (the _acc.csv; the cross-file rotational _REresult.csv is not produced)",
            variants=(("2025-04-29", "classic"), *_CAN_INFER_DATES[1:]),  # 3ba9220a: TDBench added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mmt-bench",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq", "report": "mmt"},
            datasets=(r"MMT-Bench_(ALL|VAL)(_MI)?",),
            description="MMT-Bench: the mcq flow with `report_acc_MMT` (l2-categories as the mean of their categories, an ALL row)",
            variants=_CAN_INFER_DATES,
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mmvp",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "mmvp"},
            datasets=(r"MMVP",),
            description="MMVP: the mcq flow with report_acc_MMVP (Average over rows, Overall over pairs both right); plain report_acc before 2025-12-20",
            # f8d3d8cf added MMVP with report_acc; b77b16fb (2025-12-20) gave it report_acc_MMVP.
            variants=(("2025-04-11", "classic+report_acc"), ("2025-08-04", "2025-08+report_acc"), ("2025-12-20", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mmsci",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "mmsci"},
            datasets=(r"MMSci_DEV_MCQ",),
            description="MMSci (MCQ): the mcq flow with report_acc_MMSci (per subject / category / Overall, per setting and Avg)",
            variants=(("2025-04-13", "classic"), *_CAN_INFER_DATES[1:]),  # 7c47fcae: MMSci added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "hrbench",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "hrbench"},
            datasets=(r"HRBench(4|8)K",),
            description="HR-Bench: the mcq flow with report_acc_hrbench (per cycle and category, then their Average)",
            variants=(("2024-09-09", "classic"), *_CAN_INFER_DATES[1:]),  # a8ec473f: HR-Bench added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "gmai-mmbench",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "groups"},
            datasets=(r"GMAI-MMBench_(VAL|TEST)",),
            description="GMAI-MMBench: the mcq flow with report_acc (the _acc.csv) and report_acc_by_groups' three side tables",
            variants=(("2024-08-19", "classic"), *_CAN_INFER_DATES[1:]),  # 69268c70: GMAI-MMBench added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "cv-bench",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "cvbench"},
            datasets=(r"CV-Bench-(2D|3D)",),
            description="CV-Bench: the mcq flow; 2D: the mean of per-source accuracies, 3D: report_acc",
            variants=(("2025-04-28", "classic"), *_CAN_INFER_DATES[1:]),  # 41489af9: CV-Bench added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "lego",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "matcher": "lego"},
            datasets=(r"LEGO",),
            description="LEGO-Puzzles: the mcq flow with can_infer_lego (sort questions read a four-letter sequence), report_acc; exact matching only",
            variants=(("2025-04-08", "classic"), *_CAN_INFER_DATES[1:]),  # aca64dbb: LEGO added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "lego-circular",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq-circular", "matcher": "lego"},
            datasets=(r"LEGO_circular",),
            description="LEGO-Puzzles circular: mcq_circular_eval (its prefetch uses plain can_infer; can_infer_lego only beside the judge), exact matching only",
            variants=(("2025-04-08", "classic"), *_CAN_INFER_DATES[1:]),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mmmu-pro",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "preproc": "mmmu"},
            datasets=(r"MMMU_Pro_(10c|V)",),
            description="MMMU-Pro: MMMU_preproc, then the mcq flow and report_acc",
            variants=(("2025-02-04", "classic"), *_CAN_INFER_DATES[1:]),  # 87f2dbe5: MMMU-Pro added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mmmu-pro-cot",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "preproc": "mmmu-cot"},
            datasets=(r"MMMU_Pro_(10c|V)_COT",),
            description="MMMU-Pro COT: cot_postproc (the Answer: line; the 2026-07 rule from 944ee120), MMMU_preproc, the mcq flow, report_acc",
            variants=(("2025-02-04", "classic"), *_CAN_INFER_DATES[1:], ("2026-07-03", "2026-06+cot-2026-07")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "3dsrbench",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "3dsr"},
            datasets=(r"3DSRBench",),
            report="_results.tsv",
            description="3DSRBench: the mcq flow, report_acc of the rows and of the flip / circular / flip+circular question groups",
            # 235046e9 (2026-02-19) gave it this evaluation; earlier eras parsed boxes (not ported).
            variants=(("2026-02-19", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mmmb",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "concat": "MMMB"},
            datasets=(r"MMMB",),
            description="MMMB (ConcatDataset): each SUB_DATASET through the mcq flow, report_acc stacked with a DATASET column",
            variants=(("2024-08-20", "classic"), *_CAN_INFER_DATES[1:]),  # d723d518: ConcatDataset added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mtl-mmbench",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq-circular", "concat": "MTL_MMBench_DEV"},
            datasets=(r"MTL_MMBench_DEV",),
            description="MTL_MMBench_DEV (ConcatDataset): each SUB_DATASET through the circular flow, report_acc stacked with a DATASET column",
            variants=(("2024-08-20", "classic"), *_CAN_INFER_DATES[1:]),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "medqbench-mcq",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "medqbench"},
            datasets=(r"MedqbenchMCQ(_dev|_test)?",),
            report="_score.json",
            description="MedQ-Bench MCQ: its option-letter regexes (A-D), overall and per-modality accuracy",
            variants=(("2025-10-13", None),),  # ca9a644d: MedQ-Bench added, unchanged since
            grading="rules",
        ),
        Benchmark(
            "medqdeg-bench",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "medqdeg"},
            datasets=(r"MedQDEGBench_(simulate|good)_(dev|test)",),
            report="_score.json",
            description="MedQ-DEG-Bench: its option-letter regexes (A-E), Overall and per modality / degradation / severity / source",
            variants=(("2026-05-11", None),),  # 8f66d2ea: MedQ-DEG-Bench added
            grading="rules",
        ),
        Benchmark(
            "visulogic",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "visulogic"},
            datasets=(r"VisuLogic",),
            description="VisuLogic: the last \\boxed{} letter or an 'answer is' phrase, tot / hit / acc per category",
            variants=(("2025-04-25", None),),  # 6ea82af1: VisuLogic added, unchanged since
            grading="rules",
        ),
        Benchmark(
            "puzzlevqa",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "puzzlevqa"},
            datasets=(r"PuzzleVQA",),
            description="PuzzleVQA: the last 'answer: X' against the letter of the answer among the options, tot / hit / acc per category",
            variants=(("2026-02-25", None),),  # 0bac5c06: PuzzleVQA added, unchanged since
            grading="rules",
        ),
        Benchmark(
            "visualpuzzles",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "visualpuzzles"},
            datasets=(r"VisualPuzzles",),
            description="VisualPuzzles: the last 'answer: X' against the answer letter, tot / hit / acc per category and per difficulty",
            variants=(("2026-02-25", None),),  # 0bac5c06: VisualPuzzles added, unchanged since
            grading="rules",
        ),
        Benchmark(
            "mme-realworld",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "mme-realworld"},
            datasets=(r"MME-RealWorld(-CN|-Lite)?",),
            report="_rating.json",
            description="MME-RealWorld: extract_characters_regex (A-E) and get_dimension_rating (per task, subtask and category, Avg, Overall)",
            # 5b288984 (2024-09-11): the rating; 9cc14cd0: an IoU step that raised on every file;
            # 55fba747: it dropped, <answer> tags read; 1445ec4f: the answer prefixes fixed.
            variants=(("2024-09-11", "2024-09"), ("2025-09-12", "2025-09"), ("2025-10-29", "2025-10"), ("2026-06-17", "2026-06")),
            grading="rules",
        ),
        Benchmark(
            "a4bench",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "a4bench"},
            datasets=(r"A4Bench",),
            description="A4Bench: answer and prediction as Python list literals, equal when sorted; Accuracy",
            variants=(("2025-06-11", None),),  # bf6319e8: A4Bench added; the rule unchanged since
            grading="rules",
        ),
        Benchmark(
            "topviewrs",
            "gaia_fast.scorers.vlm.mcq_reports",
            {"benchmark": "mcq", "report": "topviewrs"},
            datasets=(r"TopViewRS",),
            description="TopViewRS: the mcq flow, a partial match of the option its log names, report_acc with _PM columns",
            variants=(("2025-09-02", "2025-08"), ("2026-06-17", "2026-06")),  # d3aa188e: TopViewRS added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "omniearth-bench",
            "gaia_fast.scorers.vlm.mcq_custom",
            {"benchmark": "omniearth"},
            datasets=(r"OmniEarth-Bench",),
            description="OmniEarth-Bench: the set of letters A-G read equals the answer's; per-task accuracy, sphere macros, Overall macro and micro",
            variants=(("2025-06-21", None),),  # 5f65b4af: OmniEarth-Bench added, its rule unchanged since
            grading="rules",
        ),
        Benchmark(
            "mcq-circular",
            "gaia_fast.scorers.vlm.mcq",
            {"benchmark": "mcq-circular"},
            # Upstream runs circularly every dataset whose lowercased name holds mmbench,
            # ccbench (from the start), circular (6e94c1ea, 2025-02-05) or mmcr (729edee4,
            # 2025-04-01, with MMCR itself); LEGO_circular has its own entry.
            datasets=(
                r"MMBench(?![-_]Video)([-_][A-Za-z0-9]+)*",
                r"CCBench",
                r"MMCR",
                r"(?!LEGO_)[A-Za-z0-9-]+_circular",
            ),
            description="Circular multiple choice (MMBench, CCBench, *_circular): `mcq_circular_eval`: a question counts only when every rotation of its options is right (rotations share `index % 1_000_000`)",
            variants=_CAN_INFER_DATES,
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mme",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "mme"},
            datasets=(r"MME",),
            report="_score.csv",
            description="MME: `YOrN_Extraction` and `MME_rating`: perception, reasoning and per-category accuracy and accuracy+ (`_score.csv`); `--variant classic` (default, 2024-03 to 2025-05-12) or `2025-05` (the newer period rule)",
            variants=_YORN_DATES,
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "pope",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "pope"},
            datasets=(r"POPE",),
            report="_score.csv",
            description="POPE: `YOrN_Extraction` and `POPE_rating`: F1 (`Overall`), accuracy, precision, recall per split (`_score.csv`)",
            variants=_YORN_DATES,
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "hallusionbench",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "hallusionbench"},
            datasets=(r"HallusionBench",),
            report="_score.csv",
            description="HallusionBench: `YOrN_Extraction` and `Hallusion_rating`: aAcc, fAcc, qAcc overall, per category and per l2-category (`_score.csv`)",
            variants=_YORN_DATES,
            grading="rules+judge-fallback",
        ),
        # --- families branch (issue 22 step 2): yes/no, open VQA, PHYSICS, OlympiadBench ---
        Benchmark(
            "amber",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "amber"},
            datasets=(r"AMBER",),
            report="_score.csv",
            description="AMBER: YOrN_Extraction (--variant, default classic), answers compared ignoring case, AMBER_rating (Attribute, Existence, Relation, Avg ACC)",
            variants=(("2024-09-20", "classic"), ("2025-05-13", "2025-05")),  # d358b42c: AMBER added; rating unchanged since
            grading="rules+judge-fallback",
            headline=("Avg ACC",),
        ),
        Benchmark(
            "vsr",
            "gaia_fast.scorers.vlm.yorn",
            {"benchmark": "vsr"},
            datasets=(r"VSR-zeroshot",),
            report="_score.csv",
            description="VSR (zero-shot): YOrN_Extraction and VSR_rating (precision, recall, acc in percent; f1_score as a fraction)",
            variants=(("2025-07-20", "2025-05"),),  # 551c662a: VSR-zeroshot added, after 928a95b0's period rule
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "vizwiz",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "vizwiz"},
            datasets=(r"VizWiz",),
            description="VizWiz: TextVQA's process_answer and VQA accuracy over the answers column (--variant, default classic), Overall",
            variants=(("2024-11-25", "classic"), *_VQA_LATER),  # de267d1c: VizWiz added
            grading="rules",
        ),
        Benchmark(
            "plotqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "plotqa"},
            datasets=(r"PlotQA",),
            description="PlotQA: ChartQA's relaxed accuracy (5 %, head's argument order), Overall",
            # db3787da (2026-02-23) added PlotQA but its evaluate raised NameError (no
            # functools.partial import) until 401916c0 (2026-03-25).
            variants=(("2026-03-25", "2025-09"),),
            grading="rules",
        ),
        Benchmark(
            "countbenchqa",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "countbenchqa"},
            datasets=(r"CountBenchQA",),
            description="CountBenchQA: the answer as a substring of the prediction, accuracy in percent",
            # 26cb557c: the answers column, a fraction returned (no file); 9cc14cd0: answer, percent, _acc.csv
            variants=(("2025-05-27", "2025-05"), ("2025-09-12", "2025-09")),
            grading="rules",
        ),
        Benchmark(
            "zerobench",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "zerobench"},
            datasets=(r"ZEROBench(_sub)?",),
            description="ZEROBench: the answer inside the last {...} of the prediction (lowercased); upstream returns the accuracy and writes no file",
            variants=(("2025-06-05", None),),  # 5361499f: ZEROBench added, unchanged since
            grading="rules",
        ),
        Benchmark(
            "tallyqa",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "tallyqa"},
            datasets=(r"TallyQA",),
            description="TallyQA: extract_count_from_prediction (0-20, digits or words) equal to the answer, accuracy as a fraction",
            variants=(("2025-06-07", None),),  # f7a9433a: TallyQA added, unchanged since
            grading="rules",
        ),
        Benchmark(
            "mtvqa",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "mtvqa"},
            # The per-language sets existed only on the 2024-07 MTVQA branch (04cfded1).
            datasets=(r"MTVQA_TEST", r"MTVQA_TEST_(?:JA|JA_10|AR|DE_FR)"),
            report="_acc.json",
            era_reports=(("_acc.csv", "2024-07"),),
            description="MTVQA: the answer as a substring of the prediction (stripped, lowercased, periods removed), per language and Average (2024-07: MTVQA_eval, the answer keeps its periods, fractions in _acc.csv)",
            # 04cfded1 (2024-07-03, the MTVQA branch): MTVQA_eval, fractions in _acc.csv;
            # abaa7e06 (2024-07-22): MTVQADataset, unchanged since.
            variants=(("2024-07-03", "2024-07"), ("2024-07-22", None)),
            grading="rules",
            headline=("Average",),
        ),
        Benchmark(
            "erqa",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "erqa"},
            datasets=(r"ERQA",),
            description="ERQA: exact match after strip and lower, Overall and per category",
            variants=(("2026-03-04", None),),  # 8a904f51: ERQA added
            grading="rules",
        ),
        Benchmark(
            "da2k",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "da2k"},
            datasets=(r"DA-2K",),
            report="_rating.json",
            description="DA-2K: point1/point2 in the prediction (else the answer as a substring), overall and per scene_category",
            variants=(("2026-03-04", None),),  # 8a904f51: DA-2K added
            grading="rules",
        ),
        Benchmark(
            "tdbench-grounding",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "tdbench_grounding"},
            datasets=(r"tdbench_grounding_rot(0|90|180|270)",),
            description="TDBench grounding: one [x0, y0, x1, y1] box each; the predicted centre inside the answer box (--variant iou: the IoU)",
            variants=(("2025-04-29", "centroid"),),  # 3ba9220a: TDBench added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "chartqapro",
            "gaia_fast.scorers.vlm.vqa_rules",
            {"benchmark": "chartqapro"},
            datasets=(r"ChartQAPro(_CoT|_PoT)?",),
            description="ChartQAPro: relaxed_correctness_chartqapro (list answers, year flags exact, 5 % numbers, else ANLS), per question type and Overall",
            # 2e35a574: added (a prediction that is not text raises); 35ab4709: str() first
            variants=(("2025-10-17", "2025-10"), ("2026-03-04", "2026-03")),
            grading="rules",
        ),
        # --- end families branch ---
        Benchmark(
            "textvqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "textvqa"},
            datasets=(r"TextVQA_VAL",),
            description="TextVQA: `process_answer` (punctuation, number words, articles, contractions) and VQA accuracy `min(1, matches among the other answers / 3)`, averaged; `_acc.csv` Overall",
            variants=(("2024-03-19", "classic"), *_VQA_LATER),
            grading="rules",
        ),
        Benchmark(
            "chartqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "chartqa"},
            datasets=(r"ChartQA_TEST",),
            description="ChartQA: relaxed accuracy (numbers within 5 %, `x%` read as x/100, other text equal ignoring case), best answer; each split and Overall",
            variants=(("2024-03-27", "classic"), *_VQA_LATER),  # 3d800fce: str() in relaxed_correctness, the Overall column
            grading="rules",
        ),
        Benchmark(
            "ocrvqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "ocrvqa"},
            datasets=(r"OCRVQA_TEST(CORE)?",),
            description="OCRVQA: exact match after `strip().lower()`, best answer; Overall and each category",
            variants=(("2024-03-19", "classic"), *_VQA_LATER),
            grading="rules",
        ),
        Benchmark(
            "docvqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "docvqa"},
            datasets=(r"DocVQA_(VAL|TEST)",),
            description="DocVQA: ANLS (1 − edit distance / max length, 0 under 0.5), best answer; Overall",
            variants=(("2024-03-19", "classic"), *_VQA_LATER),
            grading="rules",
        ),
        Benchmark(
            "infovqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "infovqa"},
            datasets=(r"InfoVQA_(VAL|TEST)",),
            description="InfoVQA: ANLS (1 − edit distance / max length, 0 under 0.5), best answer; Overall",
            variants=(("2024-04-08", "classic"), *_VQA_LATER),  # 803affbc: InfoVQA added
            grading="rules",
        ),
        Benchmark(
            "gqa",
            "gaia_fast.scorers.vlm.vqa",
            {"benchmark": "gqa"},
            datasets=(r"GQA_TestDev_Balanced",),
            description="GQA (TestDev balanced): exact match after `strip().lower()`, averaged over the answers; Overall",
            variants=(("2024-09-03", "classic"), *_VQA_LATER),  # 3dfe2971: GQA added
            grading="rules",
        ),
        Benchmark(
            "ocrbench",
            "gaia_fast.scorers.vlm.ocrbench",
            datasets=(r"OCRBench(_MINI)?",),
            report="_score.json",
            description="OCRBench: an answer found in the prediction (lowercase, strip, newlines to spaces; handwritten math keeps case and drops spaces), per-category counts, Final Score and Final Score Norm (`_score.json`)",
            variants=(("2024-02-24", "classic"),),  # e02f3ff7: OCRBench added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "coco-caption",
            "gaia_fast.scorers.vlm.caption",
            datasets=(r"COCO_VAL",),
            report="_score.json",
            description="COCO captioning: BLEU-1..4, ROUGE-L and CIDEr exactly as pycocoevalcap 1.2 computes them on untokenised text, ×100 (`_score.json`); native, no Java or pycocoevalcap needed",
            # dd7b749e added COCO on 2023-12-20 with a broken Bleu list; 5ca8c8c2 fixed it the
            # next day, and the evaluation is the same from then to head.
            variants=(("2023-12-21", "classic"),),
            grading="rules",
            headline=("CIDEr",),
        ),
        Benchmark(
            "omni3dbench",
            "gaia_fast.scorers.vlm.omni3d",
            datasets=(r"Omni3DBench",),
            description="Omni3DBench: per-type rules, MRA",
            variants=(("2025-06-06", "vlmevalkit"),),  # 50c954aa: Omni3DBench added (2025-06-05 US time)
            grading="rules",
        ),
        Benchmark(
            "atomic",
            "gaia_fast.scorers.vlm.physics",
            # The eight Physics_yale names share one evaluate (no branch on the name): the six
            # subject sets from 8f07d6cf, Physics from 5b395d4e, Physics_blankim from d35dd654.
            datasets=(
                r"(atomic_dataset|Physics_yale|PHYSICS).*",
                r"(electro|mechanics|optics|quantum|statistics)_dataset",
                r"Physics(_blankim)?",
            ),
            description="PHYSICS (atomic, electro, mechanics, optics, quantum, statistics _dataset; Physics, Physics_blankim): boxed answers, SymPy equivalence, optional judge",
            variants=(("2025-04-18", "8f07d6cf"), ("2025-12-25", "a039b677"), ("2026-03-19", "head")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "olympiadbench",
            "gaia_fast.scorers.vlm.olympiad",
            datasets=(r"OlympiadBench.*",),
            report="_score_result.csv",  # OlympiadBench.evaluate's score file (its per-row file is _judge_result)
            description="OlympiadBench: answer extraction and the authors' judge",
            variants=(("2024-11-16", "vlmevalkit"),),  # 089dc350: OlympiadBench added (the MathJudger port)
            grading="rules",
            headline=("AVG",),
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
            grading="judge",
        ),
        Benchmark(
            "llavabench",
            "gaia_fast.scorers.vlm.judged",
            {"benchmark": "llavabench"},
            datasets=(r"LLaVABench",),
            report="_score.csv",
            description="LLaVABench: the archive's recorded GPT-4 reviews (_openai_result) and LLaVABench_score (relative score per category)",
            variants=(("2024-01-17", "classic"),),  # 8966cd4d: LLaVABench added; the same report at head
            grading="judge",
        ),
        # --- spatial branch: EASI spatial sets graded by vlmeval/dataset/utils/spatial_bench ---
        Benchmark(
            "vsisupercount",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "vsisupercount"},
            datasets=(r"VsiSuperCount_(?:10|30|60|120)mins(?:_(?:128|64|32|16)frame|_[12]fps)?",),
            report="_extract_matching_acc.csv",  # compute_na_score's report (tab-separated)
            description="VSI-SUPER-Count: can_match_na and mean relative accuracy per question_type (spatial_bench NA score)",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="rules",
        ),
        Benchmark(
            "mindcubebench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "mindcubebench"},
            datasets=(r"MindCubeBench(?:_tiny)?_raw_qa",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="MindCube: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "embspatialbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "embspatialbench"},
            datasets=(r"EmbSpatialBench",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="EmbSpatial-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "viewspatialbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "viewspatialbench"},
            datasets=(r"ViewSpatialBench",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="ViewSpatial-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "mmsibench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "mmsibench"},
            datasets=(r"MMSIBench_wo_circular",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="MMSI-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "spatialvizbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "spatialvizbench"},
            datasets=(r"SpatialVizBench(?:_CoT)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="SpatialViz-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "spatialdise",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "spatialdise"},
            datasets=(r"Spatial-DISE(?:_(?:BENCH|TEST|VAL|TRAIN))?(?:_(?:MERGE|SEPARATE))?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="Spatial-DISE: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-07-14", None),),  # a8b12bf1: Spatial-DISE added
            grading="judge",
        ),
        Benchmark(
            "omnispatialbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "omnispatialbench"},
            datasets=(r"OmniSpatialBench(?:_default|_zeroshot_cot|_manual_cot)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="OmniSpatial: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "eriq",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "eriq"},
            datasets=(r"ERIQ",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="ERIQ: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "vsisuperrecall",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "vsisuperrecall"},
            datasets=(r"VsiSuperRecall_(?:10|30|60|120|240)mins(?:_(?:128|64|32|16)frame|_[12]fps)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="VSI-SUPER-Recall: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "mmsivideobench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "mmsivideobench"},
            datasets=(r"MMSIVideoBench(?:_(?:300|64|50|32)frame|_1fps)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="MMSI-Video-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "stibench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "stibench"},
            datasets=(r"STI-Bench(?:_(?:64|32|30)frame|_1fps)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="STI-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "dsrbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "dsrbench"},
            datasets=(r"DSRBench(?:_(?:64|32|30)frame|_1fps)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="DSR-Bench: the recorded LLM grades (compute_score_llm, hit = grade A) and eval_mcq_score's accuracy table",
            variants=(("2026-03-04", None),),  # ef83c66c: EASI sets added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "vsibench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "vsibench"},
            datasets=(r"VSI-Bench(?:-Debiased)?(?:_(?:128|64|32|16)frame|_[12]fps)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="VSI-Bench: VsiBench.evaluate from the recorded LLM grades (MCQ rows: grade A; NA rows: the judge's number, MRA)",
            # ef83c66c (2026-03-04) added these names; the older class VSIBench (731ca67b,
            # 2025-12-04) graded other names (VSIBench, vsibench_16frame, ...) by its own rules.
            variants=(("2026-03-04", None),),
            grading="judge",
        ),
        Benchmark(
            "spbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "spbench"},
            datasets=(r"SPBench-(?:MV|SI)(?:_CoT)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="SPBench: VsiBench.evaluate with SPBench's task types, from the recorded LLM grades",
            variants=(("2026-03-04", None),),  # ef83c66c: added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "sitebench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "sitebench"},
            datasets=(r"SiteBenchImage", r"SiteBenchVideo(?:_(?:64|32)frame|_1fps)?"),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="SITE-Bench: the recorded LLM grades, accuracy and class-adjusted accuracy (compute_caa_score) per category",
            variants=(("2026-03-04", None),),  # ef83c66c: added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "starebench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "starebench"},
            datasets=(r"StareBench(?:_CoT)?",),
            report="_acc.csv",  # upstream: {stem}_llm_{judge}_acc.csv, found through the records' judge name
            description="STARE: the recorded LLM grades, accuracy per category, F1 of the yes/no categories and the 6-term macro",
            variants=(("2026-03-04", None),),  # ef83c66c: added; 401916c0 restyled only
            grading="judge",
        ),
        Benchmark(
            "sparbench",
            "gaia_fast.scorers.vlm.spatial",
            {"benchmark": "sparbench"},
            datasets=(r"SparBench(?:_tiny)?",),
            report="_extract_matching_acc.csv",  # the rule path's report (tab-separated, two rows)
            description="SPAR-Bench: can_match_option letters, can_match_na + MRA and the VCI metric per task; Low/Middle/High means",
            variants=(("2026-03-04", None),),  # ef83c66c: added; 401916c0 restyled only
            grading="rules",
        ),
        # --- end spatial branch ---
        # --- branch mathjudge: judge-extracted math (issue 22 step 3) ---
        Benchmark(
            "mathvista",
            "gaia_fast.scorers.vlm.math_judged",
            {"benchmark": "mathvista"},
            datasets=(r"MathVista_MINI",),
            # VLMEvalKit writes {stem}_{judge}_score.csv; found under the recorded judge's name.
            report="_score.csv",
            description="MathVista_MINI: post_check's prefetch rule, the archive's recorded judge extractions for the rest, MathVista_acc",
            # 98e3733f (2024-02-04): post_check returns the compared value (a right 0 is no hit);
            # c26761b8 (2024-04-21): it returns True; then can_infer's changes (c3371551, a67ace50).
            variants=(("2024-02-04", "2024-01"), ("2024-04-21", "classic"), ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "mathverse",
            "gaia_fast.scorers.vlm.math_judged",
            {"benchmark": "mathverse"},
            datasets=(r"MathVerse_MINI(_Vision_Only(_cot)?|_Vision_Dominant|_Vision_Intensive|_Text_Lite|_Text_Dominant)?",),
            # {stem}_{J}_score.csv: MathVerse_acc of the _score stage (found under the judge's name).
            report="_score.csv",
            description="MathVerse: the recorded judge extractions (_extract), post_check_score, the recorded judge scores (_score) for the rest, MathVerse_acc",
            # a18f5d69 (2024-12-06): MathVerse_acc's per-version table (before it, e254f006
            # wrote another report, _score_score.csv, not reproduced); unchanged to head.
            variants=(("2024-12-06", "classic"),),
            grading="judge",
        ),
        Benchmark(
            "logicvista",
            "gaia_fast.scorers.vlm.math_judged",
            {"benchmark": "logicvista"},
            datasets=(r"LogicVista",),
            # {stem}_{J}_score.csv, J the judge's short name (gpt4o-mini for gpt-4o-mini).
            report="_score.csv",
            description="LogicVista: the recorded judge letter extractions, LogicVista_auxeval's sorted-letter rule, evaluate_logicvista",
            variants=(("2025-01-20", "classic"),),  # 031bc6d1: LogicVista added; the same rule at head
            grading="judge",
        ),
        Benchmark(
            "dynamath",
            "gaia_fast.scorers.vlm.math_judged",
            {"benchmark": "dynamath"},
            datasets=(r"DynaMath(_noprompt)?",),
            report="_score.csv",  # {stem}_{J}_score.csv
            description="DynaMath: DynaMath_auxeval's JSON / short-answer rules, the recorded judge verdicts where they read nothing, average and worst-case report",
            # b643eed3 (2025-04-23): str() of the prediction before parsing (earlier, f22451a5
            # 2025-03-22 fixed an answer_type typo that sent every row to the fallback); to head.
            variants=(("2025-04-23", "classic"),),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "shortqa",
            "gaia_fast.scorers.vlm.shortqa",
            datasets=(
                r"hle(_verified)?",
                r"LiveMMBench_(Infographic|Perception|Reasoning|Spatial|Reasoning_circular)",
                r"EMMA(_COT)?",
                r"PathVQA_(VAL|TEST)",
                r"MMESCI_(VisionOnly|ZH|EN|FR|ES|JA)",
            ),
            description="ImageShortQADataset (LiveMMBench incl. its circular set, HLE, EMMA, PathVQA, MMESCI): can_infer for option rows and circular groups, the recorded judge verdicts (_judge / _tmp) for the rest, report_acc",
            # 43af13e0 (2025-02-20): ImageShortQADataset, the same evaluate at head; the
            # variants are can_infer's (c3371551, a67ace50).
            variants=(("2025-02-20", "classic"), ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06")),
            grading="judge",
        ),
        # --- end branch mathjudge ---
        # --- branch regexmcq: video multiple choice (extract_characters_regex + recorded score file) ---
        Benchmark(
            "worldsense",
            "gaia_fast.scorers.vlm.video_mcq",
            {"benchmark": "worldsense"},
            datasets=(r"WorldSense(_(8frame|32frame|1fps|0\.5fps)(_subs|_audio)?)?",),
            report="_rating.json",
            description="WorldSense: extract_characters_regex, else the archive's _score file (judge) or exact matching; get_dimension_rating",
            # bf73bae8 (2025-02-19): WorldSense added, the same rule at head; only can_infer's era changes.
            variants=(("2025-02-19", "classic"), ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "videott",
            "gaia_fast.scorers.vlm.video_mcq",
            {"benchmark": "videott"},
            datasets=(r"Video-TT|Video_TT_(16|32|64)frame",),
            report="_rating.json",
            description="Video-TT: extract_characters_regex, else the archive's _score file (judge) or exact matching; per-capability rating",
            variants=(("2025-11-19", "2025-08"), ("2026-06-17", "2026-06")),  # b924eb7f: Video-TT added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "videommev2",
            "gaia_fast.scorers.vlm.video_mcq",
            {"benchmark": "videommev2"},
            # The 15 names of VLMEvalKit's video config (video_dataset_config.py at e8e78f05).
            datasets=(
                (
                    r"Video-MME-v2(_64frame|_1fps|_64frame_subs|_1fps_subs|_64frame_subs_interleave|_1fps_subs_interleave"
                    r"|_64frame_reasoning|_64frame_reasoning_subs|_64frame_reasoning_subs_interleave|_64frame_resize"
                    r"|_1fps_resize|_64frame_resize_subs|_64frame_resize_subs_interleave|_64frame_resize_reasoning)?"
                ),
            ),
            report="_rating.json",
            description="Video-MME-v2: extract_characters_regex_v2 (A-H), else the archive's _score file (judge) or exact matching; get_final_rating over groups of four",
            variants=(("2026-04-08", "2025-08"), ("2026-06-17", "2026-06")),  # ca905c5b: Video-MME-v2 added
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "longvideobench",
            "gaia_fast.scorers.vlm.video_mcq",
            {"benchmark": "longvideobench"},
            datasets=(r"LongVideoBench(_8frame|_8frame_subs|_64frame|_1fps|_0\.5fps|_0\.5fps_subs)?",),
            report="_rating.json",
            description="LongVideoBench: extract_characters_regex (A-E) against chr(65 + correct_choice), else the archive's _score file (judge) or exact matching; per duration group",
            # ef766b81 (2024-11-09): LongVideoBench added; the same rule at head.
            variants=(("2024-11-09", "classic"), ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "egoexobench",
            "gaia_fast.scorers.vlm.video_mcq",
            {"benchmark": "egoexobench"},
            datasets=(r"EgoExoBench_MCQ|EgoExoBench_64frame(_skip_EgoExo4D)?",),
            report="_rating.json",
            description="EgoExoBench: extract_characters_regex, else the archive's _score file (judge) or exact matching; [correct, total, acc%] per subtask",
            # 6708e8fb (2025-07-23): EgoExoBench added; the same rule at head.
            variants=(("2025-07-23", "classic"), ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "videomme",
            "gaia_fast.scorers.vlm.video_mcq",
            {"benchmark": "videomme"},
            datasets=(r"Video-MME(_8frame|_64frame|_8frame_subs|_1fps|_0\.5fps|_0\.5fps_subs)?",),
            report="_rating.json",
            description="Video-MME: extract_characters_regex, else the archive's _score file (judge) or exact matching; per-duration rating",
            # 9e004797: added (regex only, -1 when empty); 9447c3a6: extract_option fallback;
            # 7b634b56: '.3f'; 379f3f5f: scores placed by the index column; then can_infer's eras.
            variants=(("2024-07-10", "2024-07"), ("2024-09-11", "2024-09"), ("2024-09-20", "2024-09-20"), ("2025-07-21", "2025-07"),
                      ("2025-08-04", "2025-08"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "videommmu",
            "gaia_fast.scorers.vlm.video_mmmu",
            datasets=(r"VideoMMMU(_8frame|_64frame|_1fps|_0\.5fps)?",),
            report="_score_score.csv",  # get_intermediate_file_path(storage '_score.xlsx', '_score', 'csv')
            description="VideoMMMU: MMMU-style parse_multi_choice_response / parse_open_response (the lists as the xlsx store gives them back), eval_multi_choice / eval_open, per category",
            variants=(("2025-11-26", "classic"),),  # 8035155d: VideoMMMU added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "revsi",
            "gaia_fast.scorers.vlm.revsi",
            datasets=(r"ReVSI|revsi_(16|32|64|all)_frame",),
            # ReVSI.evaluate writes no file (run.py keeps its dict in status.json): our own name.
            report="_revsi_metrics.json",
            description="ReVSI: the prediction's first word, exact letter match or mean relative accuracy (ten thresholds), per question type",
            variants=(("2026-06-29", "classic"),),  # 0bfa830f: ReVSI added; the same rule at head
            grading="rules",
        ),
        # --- end branch regexmcq ---
        # --- branch ccocr: CC-OCR ---
        Benchmark(
            "ccocr",
            "gaia_fast.scorers.vlm.ccocr",
            datasets=(
                r"CCOCR",
                r"CCOCR_DocParsing_(DocPhotoChn|DocPhotoEng|DocScanChn|DocScanEng|TablePhotoChn|TablePhotoEng"
                r"|TableScanChn|TableScanEng|MolecularHandwriting|FormulaHandwriting)",
                r"CCOCR_Kie_(Sroie2019Word|Cord|EphoieScut|Poie|ColdSibr|ColdCell)",
                r"CCOCR_MultiLanOcr_(Arabic|French|German|Italian|Japanese|Korean|Portuguese|Russian|Spanish|Vietnamese)",
                r"CCOCR_MultiSceneOcr_(Cord|Funsd|Iam|ZhDoc|ZhHandwriting|Hieragent|Ic15|Inversetext|Totaltext"
                r"|ZhScene|UgcLaion|ZhDense|ZhVertical)",
            ),
            description="CC-OCR: ccocr_evaluator per category/l2-category/split (OCR token F1, KIE nTED accuracy, document parsing edit distance / TEDS); lan_ocr, scene_ocr, kie, doc_parsing and total",
            # 14385c59: a file is one dataset, the summary returned (and _eval.json);
            # 0c158ff1 (2025-06-17): per-sub-dataset evaluate; d35dd654: str() of predictions;
            # 9cc14cd0 (2025-09-12) only added the _acc.csv file; 9e3cc84e: KIE answers that
            # are not strict JSON read by json_repair.
            variants=(("2024-12-30", "2024-12"), ("2025-06-17", "2025-06"), ("2025-07-08", "2025-07"), ("2026-04-06", "2026-04")),
            grading="rules",
            headline=("total",),
        ),
        Benchmark(
            "visfactor",
            "gaia_fast.scorers.vlm.visfactor",
            datasets=(r"VisFactor(_G[ENH])?(_CoT)?",),
            description="VisFactor: the last {\"answer\": ...} (yes/no, answer lists, last number / number pair / uppercase letter per subtest), a question right when all its rows are; per subtest and ALL",
            # 2eea9afc: added (JSON value compared as is); 48ead4b5: number/letter extraction
            # (the letter rule raised); 17973eb8: fixed; 9cc14cd0: the report through d2df.
            variants=(("2025-06-27", "2025-06"), ("2025-07-07", "2025-07-07"), ("2025-07-09", "2025-07"), ("2025-09-12", "2025-09")),
            grading="rules",
            headline=("ALL",),
        ),
        Benchmark(
            "av-speakerbench",
            "gaia_fast.scorers.vlm.av_speakerbench",
            datasets=(r"AV-SpeakerBench((_(audiovisual|visual|audio_only))?_(8frame|16frame|1fps))?",),
            report="_rating.json",
            description="AV-SpeakerBench: _parse_multi_choice_response (prefixes and tags removed, the first A-D token, else A) against the answer; overall and by task_id, x100",
            variants=(("2026-03-17", "classic"),),  # f6c9b257: added; only imports changed since
            grading="rules",
        ),
        Benchmark(
            "vcr-en-easy",
            "gaia_fast.scorers.vlm.vcr",
            datasets=(r"VCR_EN_EASY_(100|500|ALL)",),
            report="_en_easy_score.json",
            description="VCR (English, easy): best-matching n-gram per covered text (spaCy English tokens, difflib ratio), exact match and Jaccard averaged over blanks, per-blank details with rouge1",
            # ec176904: added; 9cc14cd0 (2025-09-12) renamed the report from {stem}en_easy_score.json
            # to {stem}_en_easy_score.json (the values are the same).
            variants=(("2024-08-07", "classic"),),
            grading="rules",
            headline=("Exact_Match",),
        ),
        Benchmark(
            "vcr-en-hard",
            "gaia_fast.scorers.vlm.vcr",
            datasets=(r"VCR_EN_HARD_(100|500|ALL)",),
            report="_en_hard_score.json",
            description="VCR (English, hard): best-matching n-gram per covered text (spaCy English tokens, difflib ratio), exact match and Jaccard averaged over blanks, per-blank details with rouge1",
            # ec176904: added; 9cc14cd0 (2025-09-12) renamed the report from {stem}en_hard_score.json
            # to {stem}_en_hard_score.json (the values are the same).
            variants=(("2024-08-07", "classic"),),
            grading="rules",
            headline=("Exact_Match",),
        ),
        Benchmark(
            "v2pbench",
            "gaia_fast.scorers.vlm.v2pbench",
            datasets=(r"V2P-Bench", r"V2PBench_(2|8|16|64|128)frame_nopack", r"V2PBench_1fps_nopack"),
            report="_score.txt",
            description="V2P-Bench: extract_characters_regex after <think> blocks are removed, per dimension and duration band (calu_acc_main's _score.txt)",
            variants=(("2026-02-25", "classic"),),  # 1c58028e: added; only lint since
            grading="rules",
        ),
        # --- end branch ccocr ---
        # --- branch tailrules: small rules-graded families ---
        Benchmark(
            "crpe",
            "gaia_fast.scorers.vlm.crpe",
            datasets=(r"CRPE_(EXIST|RELATION)",),
            report="_score.json",
            description="CRPE: crpe.is_correct (first letter, else answer[4:] as a substring); per row, from 2025-09 per group of four; per category",
            variants=(("2024-09-13", "classic"), ("2025-09-08", "2025-09")),  # 5803732d: added; 228ef45c: groups of four
            grading="rules",
            headline=("total",),
        ),
        Benchmark(
            "mmniah",
            "gaia_fast.scorers.vlm.mmniah",
            datasets=(r"MM_NIAH_(VAL|TEST)",),
            report="_score.json",
            description="MM-NIAH: mmniah.is_correct (option index from digits or one letter, else VQAEval whole-word match); per category",
            variants=(("2024-12-05", "classic"),),  # 5d3cebcf: added; the same rule at head
            grading="rules",
            headline=("total",),
        ),
        Benchmark(
            "qspatial",
            "gaia_fast.scorers.vlm.qspatial",
            datasets=(r"QSpatial_(plus|scannet)",),
            report="_score.json",
            description="Q-Spatial: the last scalar / distance_unit boxes in cm (run.py passes no judge: the regex path); max ratio < 2 and < 1.5, per question type",
            variants=(("2024-11-21", "classic"),),  # cfacfdd8: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "mrarebench_dx",
            "gaia_fast.scorers.vlm.mrarebench_dx",
            datasets=(r"MRareBench_Diagnosis(_FD|_TO)?",),
            report="_detailed_metrics.json",
            description="MRareBench diagnosis: ranked top-10 list, hit by normalised equality / containment / token F1 >= 0.6 against answer + aliases; Recall@k, MRR, MR (no --judge)",
            variants=(("2026-07-31", "classic"),),  # aec2f4e9: added; the same rule at head
            grading="rules",
            headline=("hit_rate",),
        ),
        Benchmark(
            "vlrmbench",
            "gaia_fast.scorers.vlm.vlrmbench",
            datasets=(r"VLRMBench(_MultiSolution|_Foresight)?",),
            report="_score.csv",
            description="VLRMBench: step-label F1 (positive / negative / weighted) per category, multi-solution pair accuracy, foresight yes/no accuracy",
            variants=(("2025-10-30", "classic"),),  # 304c2e9d: added; the same rule at head
            grading="rules",
            headline=("Overall_F1_weighted", "multi_solution_accuracy", "foresight_accuracy"),
        ),
        Benchmark(
            "gsm8k_v",
            "gaia_fast.scorers.vlm.gsm8k_v",
            datasets=(r"GSM8K-V",),
            report="_score.csv",
            description="GSM8K-V: extract_numerical_answer's regex cascade, |pred - gt| <= 1e-3; overall, per category and subcategory (GSM8K_V_MODE one mode)",
            variants=(("2025-11-03", "classic"),),  # d7d55658: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "tablevqa",
            "gaia_fast.scorers.vlm.tablevqa",
            datasets=(r"TableVQABench",),
            report="_acc.csv",
            description="TableVQABench: TabFact true/false words, WTQ denotation match, FinTabNet normalised numbers; per split",
            variants=(("2024-09-02", "classic"),),  # 10adf5ff: added; the same rule at head
            grading="rules",
        ),
        # --- end branch tailrules ---
        # --- branch tailjudge: judge-scored sets replayed from recorded verdicts ---
        Benchmark(
            "charxiv_descriptive",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "charxiv_descriptive"},
            datasets=(r"CharXiv_descriptive_val",),
            # {stem}_{J}_acc.csv from 2e937e6a (2025-06-30); _score.csv before, same numbers.
            report="_acc.csv",
            description="CharXiv descriptive: the recorded judge scores ({stem}_{J}.xlsx), mean per qid2category category and Overall",
            variants=(("2025-05-08", "classic"),),  # 34dceec3: CharXiv added; the same numbers at head
            grading="judge",
        ),
        Benchmark(
            "charxiv_reasoning",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "charxiv_reasoning"},
            datasets=(r"CharXiv_reasoning_val",),
            report="_acc.csv",
            description="CharXiv reasoning: the recorded judge scores ({stem}_{J}.xlsx), mean per inst_category and Overall",
            variants=(("2025-05-08", "classic"),),
            grading="judge",
        ),
        Benchmark(
            "chartmuseum",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "chartmuseum"},
            datasets=(r"ChartMuseum_(dev|test)",),
            report="_acc.csv",
            description="ChartMuseum: the recorded gpt_compare replies ({stem}_{J}.pkl, 'yes' = right), percent per category and Overall",
            variants=(("2025-10-17", "classic"),),  # 9518cb4b: ChartMuseum added; the same at head
            grading="judge",
        ),
        Benchmark(
            "llavabench_ko",
            "gaia_fast.scorers.vlm.judged",
            {"benchmark": "llavabench"},
            datasets=(r"LLaVABench_KO",),
            report="_score.csv",
            description="LLaVABench_KO: LLaVABench's flow (the recorded reviews in _openai_result, LLaVABench_score); only the judge prompt is Korean",
            variants=(("2025-07-25", "classic"),),  # 243bf74b: LLaVABench_KO added; the same report at head
            grading="judge",
        ),
        Benchmark(
            "m4bench",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "m4bench"},
            datasets=(r"State_Invariance|State_Comparison|Spatial_Perception|Instance_Comparison|Detailed_Difference",),
            # M4Bench.evaluate writes no report (it returns {"acc", "details"}): our own name.
            report="_m4bench_acc.json",
            description="M4Bench: the recorded judge letters (parsed_pred of {stem}_details.xlsx) against response, accuracy x 100",
            variants=(("2025-08-13", "classic"),),  # 191dfa09: M4Bench added; the same numbers at head
            grading="judge",
        ),
        Benchmark(
            "memlens",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "memlens"},
            datasets=(r"MemLens_(32K|64K|128K|256K)",),
            report="_score.csv",
            description="MemLens: the recorded judge scores ({stem}_{J}_memlens_judge.jsonl, by row position), accuracy overall and per question_type",
            variants=(("2026-07-03", "classic"),),  # 3fb3b5bd: MemLens added; unchanged at head
            grading="judge",
        ),
        Benchmark(
            "dude",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "dude"},
            datasets=(r"DUDE(_MINI)?",),
            # {stem}_{J}_score.csv, J = judge_kwargs['model'] (found under the records' judge).
            report="_score.csv",
            description="DUDE: the recorded judge extractions (pred of {stem}_{J}.xlsx), MMLongBench's anls_compute, DUDE_acc",
            variants=(("2024-08-07", "classic"),),  # ec176904: DUDE added; the same numbers at head
            grading="judge",
        ),
        Benchmark(
            "slidevqa",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "slidevqa"},
            datasets=(r"SLIDEVQA(_MINI)?",),
            report="_score.csv",
            description="SlideVQA: the recorded judge extractions (pred of {stem}_{J}.xlsx), anls / EM / bag-of-words F1, SlideVQA_acc",
            variants=(("2024-08-07", "classic"),),  # ec176904: SlideVQA added; the same numbers at head
            grading="judge",
        ),
        Benchmark(
            "sfe",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "sfe"},
            datasets=(r"SFE(-zh)?",),
            report="_score.csv",
            description="SFE: the recorded judge scores 0-9 ({stem}_judge.xlsx / _tmp.pkl), report_score per split and category",
            # 00b7545f (2025-06-18): SFE added, report_score's raw mean; e72ba807 (2025-06-25): / 9 * 100.
            variants=(("2025-06-18", "2025-06"), ("2025-06-25", "classic")),
            grading="judge",
        ),
        Benchmark(
            "mmlongbench_doc",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "mmlongbench_doc"},
            datasets=(r"MMLongBench_DOC",),
            report="_score.csv",
            description="MMLongBench_DOC: the recorded judge extractions (pred of {stem}_{J}.xlsx), eval_score per answer_format, MMLongBench_acc",
            variants=(("2024-08-07", "classic"),),  # ec176904: added (in mmlongbench.py); the same rules at head
            grading="judge",
        ),
        Benchmark(
            "phyx_oe",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "phyx_oe"},
            datasets=(r"PhyX(_mini)?_OE",),
            # valid_type=LLM: {stem}_{J}_score.csv (found under the recorded judge's name).
            report="_score.csv",
            description="PhyX open-ended (valid_type=LLM): PhyX_auxeval's string rules, the recorded judge res for the rest, PhyX_acc",
            variants=(("2025-06-16", "classic"),),  # 0655ce80: the rules at head (0c82addc's older ones not ported)
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "phyx_mc",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "phyx_mc"},
            datasets=(r"PhyX(_mini)?_MC",),
            report="_score.csv",
            description="PhyX multiple choice (valid_type=LLM): PhyX_auxeval_MC's letter rules, the recorded judge res for the rest, PhyX_acc",
            variants=(("2025-06-16", "classic"),),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "longdocurl",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "longdocurl"},
            datasets=(r"LongDocURL",),
            report="_score.csv",
            description="LongDocURL: the recorded judge extractions ({stem}_{J}_extract.pkl / .xlsx), LongDocURL's eval_score, per task_tag",
            variants=(("2026-07-05", "classic"),),  # 6a02ab92: LongDocURL added (= head)
            grading="judge",
        ),
        Benchmark(
            "medqbench_caption",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "medqbench"},
            datasets=(r"MedqbenchCaption(_dev|_test)?",),
            # evaluate writes the judge's scores into the result file and {stem}_score.json.
            report="_score.json",
            description="MedQ-Bench caption: the judge's four metric scores written into the result file, mean per metric",
            variants=(("2025-10-13", "classic"),),  # ca9a644d: added; the same numbers at head
            grading="judge",
        ),
        Benchmark(
            "medqbench_paired",
            "gaia_fast.scorers.vlm.tail_judged",
            {"benchmark": "medqbench"},
            datasets=(r"MedqbenchPairedDescription(_dev|_test)",),
            report="_score.json",
            description="MedQ-Bench paired description: the judge's four metric scores written into the result file, mean per metric",
            variants=(("2025-10-13", "classic"),),
            grading="judge",
        ),
        # --- end branch tailjudge ---
        # --- branch wemath ---
        Benchmark(
            "wemath",
            "gaia_fast.scorers.vlm.wemath",
            {"benchmark": "mcq"},
            datasets=(r"WeMath(_COT)?",),
            # {stem}_{J}_score.csv (J: gpt4o-mini, run.py's default; exact_matching without a judge).
            report="_score.csv",
            description="WeMath: mcq_vanilla_eval (or the exact-matching 'Answer' rule) then wemath_evaluate_models + wemath_accuracy, the four-dimensional one-row report",
            # 21453dca (2025-01-18): WeMath added; 3f0b1ecb (2025-01-27): WeMath_COT; the report
            # unchanged since, the matcher is mcq_vanilla_eval's can_infer.
            variants=(("2025-01-18", "classic"), *_CAN_INFER_DATES[1:]),
            grading="rules+judge-fallback",
        ),
        # --- end branch wemath ---
        # --- branch ocrv2: OCRBench v2 ---
        Benchmark(
            "ocrbench_v2",
            "gaia_fast.scorers.vlm.ocrbench_v2",
            datasets=(r"OCRBench_v2(_MINI)?",),
            report="_score.json",
            description="OCRBench v2: process_predictions per task type (VQA containment/ANLS, IoU of boxes in the answer and prediction, ICDAR spotting h-mean, TEDS, STEDS, KIE F1, BLEU/METEOR/F/edit distance with jieba); 13 group means and the English/Chinese overall",
            # 75d01151: OCRBench_v2.evaluate added (its _score.json); later commits lint only and add _MINI.
            variants=(("2025-07-07", "classic"),),
            grading="rules",
            headline=("English Overall Score",),
        ),
        # --- end branch ocrv2 ---
        # --- branch step1: NaturalBench, VLMBlind, XLRS-Bench-lite and small own-rule sets ---
        Benchmark(
            "naturalbench",
            "gaia_fast.scorers.vlm.naturalbench",
            datasets=(r"NaturalBenchDataset",),
            report="_acc.csv",
            description="NaturalBench: extract_answer (first whole-word yes/no or A/B), get_scores over groups of four (Q_Acc, I_Acc, Acc, G_Acc); exactly 7600 rows",
            # 7485d622: added (metric names question_score...); 5316c5f1: Q_Acc...; 9cc14cd0 moved
            # the report beside the result file (same content).
            variants=(("2024-11-09", "2024-11"), ("2024-12-17", "2024-12")),
            grading="rules",
        ),
        Benchmark(
            "vlmblind",
            "gaia_fast.scorers.vlm.vlmblind",
            datasets=(r"VLMBlind",),
            report="_acc.csv",
            description="VLMs are Blind: per-task braces / containment / rows-columns regex on the cells as pandas reads them (a number answer never equals text; `in` on one is an upstream crash, no report); accuracy per task",
            # a3793ee0: added (no report file); caca0bc9: + overall; 9cc14cd0: four tasks only, sorted,
            # _acc.csv; 9a640240: every task again.
            variants=(("2025-05-27", "2025-05"), ("2025-05-28", "2025-05b"), ("2025-09-12", "2025-09"), ("2025-11-27", "2025-11")),
            grading="rules",
        ),
        Benchmark(
            "xlrs",
            "gaia_fast.scorers.vlm.xlrs",
            datasets=(r"XLRS-Bench-lite",),
            report="_acc.csv",
            description="XLRS-Bench-lite: the judge's option letters replayed from the {stem}_{judge}_result.pkl cache (row position -> processed_pred), extract_characters_regex without a judge; set compare with answer; per category/l2-category, macro and micro",
            # 8d23166a: regex on the raw cell; 08fd70d9: on str(); f8e2bc1a: a judge on every row
            # when one is set, the cache (named after str(judge) from a9343a1e).
            variants=(("2025-06-21", "2025-06"), ("2025-06-26", "2025-06b"), ("2026-03-18", "2026-03")),
            grading="judge",
        ),
        Benchmark(
            "ayavision",
            "gaia_fast.scorers.vlm.judged_hits",
            {"benchmark": "ayavision"},
            datasets=(r"AyaVisionBench",),
            report="_acc.csv",
            description="AyaVisionBench: the judge's [[CORRECT]]/[[WRONG]] hit per row replayed from {stem}_{judge}.xlsx / .pkl; report_acc",
            variants=(("2025-09-02", "classic"),),  # cc937c5c: added; 9cc14cd0 renamed the cache _tmp.pkl (same rule)
            grading="judge",
        ),
        Benchmark(
            "vlmbias",
            "gaia_fast.scorers.vlm.judged_hits",
            {"benchmark": "vlmbias"},
            datasets=(r"VLMBias",),
            report="_acc.csv",
            description="VLMBias: OmniVerifier's brace rule (last {...}, number words, articles), the judge's yes/no for the rest, replayed from {stem}_{judge}.xlsx; report_acc",
            variants=(("2025-09-05", "classic"),),  # db0c9ae2: added; the same rule at head
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "asclepius",
            "gaia_fast.scorers.vlm.judged_hits",
            {"benchmark": "asclepius"},
            datasets=(r"Asclepius",),
            report="_score.csv",
            description="Asclepius: the judge's 0/1 score per answered row replayed from {stem}_{judge}.xlsx / .pkl; Overall = mean * 100, rounded to 2 ({stem}_{judge}_score.csv)",
            variants=(("2026-02-20", "classic"),),  # 09518248 added it (crashing in _evaluate_single), 18273bac fixed it the same day
            grading="judge",
        ),
        Benchmark(
            "siuo_mcq",
            "gaia_fast.scorers.vlm.option_letter",
            {"benchmark": "siuo_mcq"},
            datasets=(r"SIUO_MCQ",),
            report="_score.csv",
            description="SIUO_MCQ: _extract_option (last boxed letter, (X), whole-word A-G) == answer; Overall and per category, percent rounded to 2",
            variants=(("2026-03-23", "classic"),),  # 6e7e372d: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "m3oralbench",
            "gaia_fast.scorers.vlm.option_letter",
            {"benchmark": "m3oralbench"},
            datasets=(r"M3oralBench",),
            report="_score.csv",
            description="M3oralBench: _extract_option == answer; Overall, task_{task_type} and foundation_{category}, percent rounded to 2",
            variants=(("2026-03-23", "classic"),),  # 6e7e372d: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "omnimat_cal",
            "gaia_fast.scorers.vlm.omnimat_cal",
            datasets=(r"OmniMat_CAL",),
            report="_acc.csv",
            description="OmniMat_CAL: answer slots as 50-digit decimals, exact after quantizing to the answer's places and within rel_tol 0.1, else clean_text equal; per category_id and Overall",
            variants=(("2026-06-15", "classic"),),  # ff91eba7: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "reasonmap_plus",
            "gaia_fast.scorers.vlm.reasonmap_plus",
            datasets=(r"ReasonMap-Plus",),
            report="_metrics.tsv",
            description="ReasonMap-Plus: normalize_prediction per type (boxed, answer phrases, yes/no, A-D, first integer), accuracy and difficulty-weighted accuracy, overall and per type",
            variants=(("2025-10-27", "classic"),),  # 181cd9b0: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "vlmsarebiased",
            "gaia_fast.scorers.vlm.vlmsarebiased",
            datasets=(r"vlms_are_biased_main",),
            report="_metrics.json",
            description="VLMs Are Biased: braces-stripped exact match, else digits only, against ground_truth and expected_bias; accuracy and bias ratio, overall, macro and per topic",
            variants=(("2026-02-03", "classic"),),  # 6410ee64: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "mmoral_opg_closed",
            "gaia_fast.scorers.vlm.mmoral_opg_closed",
            datasets=(r"MMOral_OPG_CLOSED",),
            report="_acc.csv",
            description="MMOral_OPG_CLOSED: get_single_choice_prediction ((X), bare letter, option text; first position); accuracy per main category (a row whose unseeded random fallback fires makes the report unreproducible)",
            variants=(("2026-03-27", "classic"),),  # a3656d48: added; the same rule at head
            grading="rules",
        ),
        Benchmark(
            "vlm2bench",
            "gaia_fast.scorers.vlm.vlm2bench",
            datasets=(r"VLM2Bench",),
            report="_score.csv",
            description="VLM2Bench: true/false pairs by index, counting score with the image count, grouping letters; one score per category",
            # 9e86c826: added (image count len(record['image']): 2 for a result file);
            # 09874c7a: image_seq_len / image_path.
            variants=(("2025-03-01", "2025-03"), ("2026-08-03", "2026-08")),
            grading="rules",
        ),
        # --- end branch step1 ---
        # --- branch hipho: HiPhO physics olympiads (issue 22 step 2) ---
        Benchmark(
            "hipho",
            "gaia_fast.scorers.vlm.hipho",
            {"all_subsets": False},
            datasets=(
                r"(IPhO|EuPhO|PanPhO|NBPhO|F_MA|PanMechanics)_(2024|2025)",
                r"APhO_2025",
            ),
            # evaluate's score file ({stem}_{judge}_score.json, the judge being exact_matching), written
            # for xlsx and tsv result files alike; _save_results' _score.json (xlsx only) holds the same.
            report="_exact_matching_score.json",
            description="HiPhO olympiads (IPhO, EuPhO, APhO, PanPhO, NBPhO, F_MA, PanMechanics): the hipho verifier's coarse marking of \\boxed answers (SymPy, pylatexenc), no judge: marked rows left out as upstream (`_exact_matching_score.json`)",
            # 3dcd3f05 (2025-12-15): rows in worker threads (math-verify and time limits inert),
            # the same at head e8e78f05; 72be960f (2025-11-24) ran them in the main thread: not reproduced.
            variants=(("2025-12-15", "head"),),
            grading="rules",
        ),
        Benchmark(
            "hipho-all",
            "gaia_fast.scorers.vlm.hipho",
            {"all_subsets": True},
            datasets=(r"HiPhO_ALL",),
            report="_ALL_exact_matching_score.json",
            description="HiPhO_ALL: the HiPhO verifier per SUB_DATASET, the nested per-subset report (`_ALL_exact_matching_score.json`)",
            variants=(("2025-12-15", "head"),),  # 3dcd3f05 added HiPhO_ALL
            grading="rules",
        ),
        # --- end branch hipho ---
        # --- branch mathv: MathVision (issue 22 step 3) ---
        Benchmark(
            "mathvision",
            "gaia_fast.scorers.vlm.mathvision",
            datasets=(r"MathVision(_MINI)?",),
            report="_score.csv",  # {stem}_{J}_score.csv (MATH_V_acc)
            description="MathVision: post_check's prefetch rule, the recorded judge extractions for the rest, MATH_V_acc's is_equal (a safe eval, latex2sympy in a worker)",
            # 24f7defb: free-form rows compare str(None); 1ec8c10b: str(response); then
            # can_infer's changes (c3371551, a67ace50) and latex2sympy2_extended first (a9343a1e).
            variants=(("2024-07-19", "2024-07"), ("2024-07-31", "classic"), ("2025-08-04", "2025-08"), ("2026-04-09", "2026-04"), ("2026-06-17", "2026-06")),
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "lens",
            "gaia_fast.scorers.vlm.mathvision",
            {"benchmark": "lens"},
            datasets=(r"LENS-CN-QA(_MINI)?",),
            report="_score.csv",  # {stem}_{J}_score.csv (LENS_acc)
            description="LENS-CN-QA: post_check's prefetch rule, the recorded judge extractions for the rest, LENS_acc's is_equal (MathVision's)",
            variants=(("2026-02-13", "classic"),),  # 65f8b768: added; 401916c0 restyled only
            grading="rules+judge-fallback",
        ),
        Benchmark(
            "seephys",
            "gaia_fast.scorers.vlm.seephys",
            datasets=(r"SeePhys(_vo)?",),
            report="_score.json",  # {stem}_{J}_score.json (eval_acc); J is deepseek by default
            description="SeePhys: post_check's rules (extract_by_rule, parse_latex + quick_compare) on every row, the recorded judge score for the rest, eval_acc",
            variants=(("2025-07-11", "classic"),),  # d3c0d500: added; later commits restyled only
            grading="rules+judge-fallback",
        ),
        # --- end branch mathv ---
    )
}


_UNSUPPORTED_OWN: dict[str, str] = {
    # BMMR: bmmr_grade.math_equal (SymPy parse_latex / simplify under signal timeouts) in
    # open_end_verify / multichoice_verify: a port and verification of its own.
    r"BMMR(_mini)?": "BMMR's own verifier (SymPy math_equal under signal timeouts), not ported yet",
    # TreeBench.evaluate_box_iou is defined without self and called as a method (21b00fa5 to
    # head): every run raised TypeError, so no archive holds a report to reproduce.
    r"TreeBench": "VLMEvalKit's own TreeBench evaluate raises TypeError on every file, so there is no reference report to reproduce",
}


def _unmapped() -> dict[str, str]:
    """name -> reason of ``data/vlmevalkit_unmapped.json`` (the table of
    docs/vlmevalkit_coverage.md, written by scripts/vlmevalkit_unmapped.py)."""
    import json

    with open(Path(__file__).parent / "data" / "vlmevalkit_unmapped.json", encoding="utf-8") as f:
        return {name: entry["reason"] for name, entry in json.load(f).items()}


#: VLMEvalKit datasets with no gaia-fast flow yet: dataset regex -> what flow they need. BMMR
#: and TreeBench first, with the messages above; then every other name of the coverage page
#: (``data/vlmevalkit_unmapped.json``), spelled out, with the page's reason.
UNSUPPORTED: dict[str, str] = _UNSUPPORTED_OWN | {
    re.escape(name): reason for name, reason in _unmapped().items() if not any(re.fullmatch(rx, name) for rx in _UNSUPPORTED_OWN)
}

#: VLMEvalKit datasets with no flow here whose name ends like a registered one
#: (``Creation_MMBench`` is not ``{model}_MMBench``): :func:`detect` never reads them as the
#: shorter name. The registry test finds any new one.
LOOKALIKES: frozenset[str] = frozenset({"Creation_MMBench"})

#: File names of VLMEvalKit's evaluation outputs and caches (not results to grade), with
#: what they are. A ``{stem}_{anything}`` file beside a result file ``{stem}`` is one too
#: (discovery checks the folder; see :func:`gaia_fast.grading.discover.expand`).
NON_RESULT: tuple[tuple[str, str], ...] = (
    (r".*_acc\.(csv|xlsx|json)", "an accuracy report (_acc)"),
    (r".*_results?\.(xlsx|tsv|csv|json)", "a judged copy of the results (_<judge>_result, _results)"),
    (r".*_auxmatch\.(xlsx|tsv|csv)", "an answer-matching output (_auxmatch)"),
    (r".*_score\.(csv|json|xlsx)", "a score report (_score)"),
    (r".*_prefetch\.(xlsx|tsv|csv)", "a prefetch log (_prefetch)"),
    (r".*_(supp|tmp|fine_grained|metrics|rating|detail|REresult)\.(xlsx|tsv|csv|json)", "an evaluation side output"),
    (r".*_results\.tsv", "a settings report (3DSRBench's _results.tsv)"),
    (r".*_REresult\.csv", "a rotational report (TDBench's _REresult.csv)"),
    (r".*_cotpost\.(xlsx|tsv|csv)", "COT-post-processed predictions (MMMU-Pro's _cotpost)"),
    (r".*_acc_all\.csv", "an accuracy report (_acc_all)"),
    (r".*_extract_matching\.(xlsx|tsv|csv|json)", "a rule-matching output (spatial_bench's _extract_matching)"),
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


_UNSUPPORTED_RX: tuple[dict[str, str], re.Pattern[str], list[tuple[re.Pattern[str], str]]] | None = None


def _unsupported_rx() -> tuple[re.Pattern[str], list[tuple[re.Pattern[str], str]]]:
    """:data:`UNSUPPORTED` compiled once: all its patterns as one, and each with its reason
    (a search asks per file, for each way its name splits into model and dataset)."""
    global _UNSUPPORTED_RX
    if _UNSUPPORTED_RX is None or _UNSUPPORTED_RX[0] is not UNSUPPORTED:
        joined = re.compile("|".join(f"(?:{rx})" for rx in UNSUPPORTED))
        _UNSUPPORTED_RX = (UNSUPPORTED, joined, [(re.compile(rx), kind) for rx, kind in UNSUPPORTED.items()])
    return _UNSUPPORTED_RX[1], _UNSUPPORTED_RX[2]


def unsupported(path: str | Path, model: str | None = None, *, listed_only: bool = False) -> tuple[str, str, str] | None:
    """``(model, dataset, reason)`` for a VLMEvalKit result file whose dataset has no flow
    here: a known dataset (:data:`UNSUPPORTED`), or (unless ``listed_only``) any
    ``{model}_{dataset}`` name in a model's folder (``model``: that folder's name; default:
    :func:`model_folder`). None when the name says nothing."""
    p = Path(path)
    if p.suffix.lower() not in _RESULT_EXT or non_result(p):
        return None
    parts = p.stem.split("_")
    any_rx, each = _unsupported_rx()
    for i in range(1, len(parts)):
        model_part, dataset = "_".join(parts[:i]), "_".join(parts[i:])
        if any_rx.fullmatch(dataset):  # one pattern for the ~100 names, then which one
            kind = next(kind for rx, kind in each if rx.fullmatch(dataset))
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


def for_dataset(dataset: str) -> Benchmark | None:
    """The entry that grades VLMEvalKit dataset ``dataset`` (a full match of one of its
    regexes); None when none does. ValueError when two entries claim it (the registry
    must be unambiguous)."""
    hits = [b for b in BENCHMARKS.values() if any(re.fullmatch(rx, dataset) for rx in b.datasets)]
    if len(hits) > 1:
        raise ValueError(f"dataset {dataset!r} is claimed by several benchmarks: {', '.join(b.name for b in hits)}")
    return hits[0] if hits else None


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
        if dataset in LOOKALIKES and best is None:
            return None  # that dataset, graded otherwise upstream: not the shorter look-alike
        for b in BENCHMARKS.values():
            if b.datasets and _any_of(b.datasets).fullmatch(dataset):
                cand = Detected(b, model_part, dataset)
                if model_part == folder:
                    return cand
                if best is None or len(dataset) > len(best.dataset):
                    best = cand
    return best
