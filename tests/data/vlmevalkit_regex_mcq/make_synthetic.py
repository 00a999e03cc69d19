"""Build this folder's synthetic video archives by running VLMEvalKit's own code.

Usage (a clone of open-compass/VLMEvalKit; pandas, numpy, openpyxl and xlsxwriter installed):

    python make_synthetic.py /path/to/VLMEvalKit.git OUTDIR

At head e8e78f05 it loads ``can_infer`` (``vlmeval/utils/matching_util.py``),
``extract_answer_from_item`` (``vlmeval/dataset/utils/multiple_choice.py``) and the smp
helpers through ``../vlmevalkit_judged/make_synthetic.py``'s ``make_ns``, then each
family's ``vlmeval/dataset/utils/{worldsense,videott}.py`` (``extract_characters_regex``,
``extract_option``, ``get_dimension_rating``) in its own namespace, and runs the
``evaluate`` method of ``WorldSense`` / ``VideoTT`` (``vlmeval/dataset/worldsense.py``,
``videott.py``) as written: its source is taken from the class with ``ast``; only its
``from .utils.X import ...`` line is dropped (the namespace holds those names) and
``build_judge`` returns the scripted stand-in judge. Each archive is graded twice: with
the judge (``OUT/judge/``) and with ``model='exact_matching'`` (``OUT/exact/``); all files
VLMEvalKit writes are kept (``_score.xlsx``, ``_rating.json``). ``OUT/reversed/``: the
WorldSense rows with their ``index`` reversed (11..0), exact matching.
"""

from __future__ import annotations

import ast
import os
import random
import shutil
import sys
import warnings
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vlmevalkit_judged"))
from make_synthetic import FakeJudge, git_show, make_ns, run_source

HEAD = "e8e78f05"


def evaluate_fn(repo: str, path: str, cls: str, ns: dict, commit: str = HEAD):
    tree = ast.parse(git_show(repo, commit, path))
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    fn = next(n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == "evaluate")
    fn.body = [s for s in fn.body if not (isinstance(s, ast.ImportFrom) and s.level)]
    fn.decorator_list = []
    src = ast.unparse(fn)
    exec(compile(src, f"<{cls}.evaluate>", "exec"), ns)  # noqa: S102 - VLMEvalKit's own code, on purpose
    return ns["evaluate"]


def family_ns(repo: str, utils: str, script: dict, commit: str = HEAD) -> dict:
    ns = make_ns(repo, commit)
    run_source(git_show(repo, commit, utils), ns)
    ns.update(warnings=warnings, DEBUG_MESSAGE="", FAIL_MSG="Failed to obtain answer via API.",
              build_judge=lambda **kw: FakeJudge(script))
    return ns


Q = "What happens in the video?\nA. a cat jumps\nB. a dog barks\nC. a car drives by\nD. nothing happens"

# (prediction, answer): what each row exercises
CASES = [
    ("A", "A"),                                        # regex: right
    ("The answer is B.", "C"),                         # regex after a prefix: wrong
    ("I believe that in this particular video the animal that is shown is barking loudly", "B"),  # >10 words, no A-D: judge B (right)
    ("a car drives by", "C"),                          # no A-D: can_infer reads the option text (exact: right)
    (None, "D"),                                       # no prediction ('nan'): judge D (right); exact: Z
    ("Best answer:Best option: D", "D"),               # the glued prefix deleted: regex D
    ("b", "B"),                                        # lower case: no A-D; judge B (right); exact: can_infer reads 'b'?
    ("Answer: (C)", "A"),                              # regex C: wrong
    ("the one with the pet", "A"),                     # judge replies B: wrong
    ("hmm", "C"),                                      # judge unreadable x3: random draw (seeded)
    ("I think it is (D) because", "D"),                # regex: 'I' is not A-D, D: right
    ("none", "A"),                                     # judge A: right
]

WS_CATS = [
    ("<1min", "Tech & Science", "Physics", "Recognition", "Event Recognition", "['Speech']"),
    ("1-2min", "Daily Life", "Cooking", "Understanding", "Hallucination", "['Event', 'Music']"),
    (">8min", "Sports", "Soccer", "Reasoning", "Causal Reasoning", "[]"),
    ("<1min", "Music", "Covers", "Recognition", "Audio Recognition", "['Music']"),
]

SCRIPT = {
    "Answer: I believe that in this particular video": ["B"],
    "Answer: nan\n": ["D"],
    "Answer: b\n": ["B"],
    "Answer: the one with the pet": ["B"],
    "Answer: hmm\n": ["no idea", "unclear", "cannot say"],
    "Answer: none\n": ["A"],
    "Answer: nothing\n": ["D"],
}


def worldsense_rows() -> pd.DataFrame:
    rows = []
    for i, (p, a) in enumerate(CASES):
        d, dom, sub, td, tt, au = WS_CATS[i % len(WS_CATS)]
        rows.append({"index": i, "video": f"v{i}", "question": Q, "answer": a, "duration": d, "domain": dom,
                     "sub_category": sub, "task_domain": td, "task_type": tt, "audio_class": au, "prediction": p})
    return pd.DataFrame(rows)


TT_CAPS = [
    "Character Motivation Causality", "Element Counting", "Event Counting", "Event Localization",
    "Element Localization", "Positional Relationship", "Objective Causality (Videography Phenomenon & Illusion)",
    "Plot Attribute", "Plot Attribute (Montage)", "Element Attributes (Optical Illusion)", "Element Attributes",
    "Event Duration & Speed Attribute", "Objective Causality", "Character Reaction Causality",
    "Professional Knowledge", "Displacement Attribute", "Character Emotion Attribute", "Local Event Attribute",
]


def videott_rows() -> pd.DataFrame:
    rows = []
    cases = CASES + CASES[:8]  # 20 rows: every capability (a missing one divides by zero upstream)
    for i, (p, a) in enumerate(cases):
        rows.append({"index": 100 + i, "video": f"v{i}", "question": Q, "answer": a, "capability": TT_CAPS[i % 18],
                     "prediction": p})
    return pd.DataFrame(rows)


Q8 = "Which one?\nA. one\nB. two\nC. three\nD. four\nE. five\nF. six\nG. seven\nH. eight"

# Video-MME-v2: four groups of four rows (prediction, answer); the last row of a group names
# its type, structure, level and heads.
V2_CASES = [
    ("A", "A"), ("Final Answer: E", "E"),                                   # relevance group
    ("well i would say that the answer must be the second one of them all", "B"),  # >10 words, no A-H: judge B
    ("b", "C"),                                                             # judge B: wrong
    ("G", "G"), ("The correct option is (F)", "F"), ("D", "A"), ("six", "F"),  # logic [1,2,3,4]; 'six' -> can_infer F
    ("H", "H"), (None, "B"), ("C", "C"), ("the last", "D"),                 # logic [1,[2,3],4]; nan: judge B (right), 'the last': judge A
    ("B", "A"), ("Best option: B", "B"), ("eight", "H"), ("hm", "E"),       # logic [[1,2],3,4]; 'hm': judge unreadable x3
]
V2_GROUPS = [
    ("relevance", "[1, 2, 3, 4]", 1, "Perception", "Counting"),
    ("logic", "[1, 2, 3, 4]", 2, "Reasoning", "Causal"),
    ("logic", "[1, [2, 3], 4]", 3, "Reasoning", "Temporal"),
    ("logic", "[[1, 2], 3, 4]", 2, "Perception", "Counting"),
]
V2_SCRIPT = {
    "Answer: well i would say": ["B"],
    "Answer: b\n": ["B"],
    "Answer: nan\n": ["B"],
    "Answer: the last\n": ["A"],
    "Answer: hm\n": ["no idea", "unclear", "cannot say"],
}


def videommev2_rows() -> pd.DataFrame:
    rows = []
    for i, (p, a) in enumerate(V2_CASES):
        gt, gs, lv, h2, h3 = V2_GROUPS[i // 4]
        rows.append({"index": i, "video": f"v{i // 4}", "question": Q8, "answer": a, "level": lv, "group_type": gt,
                     "group_structure": gs, "second_head": h2, "third_head": h3, "prediction": p})
    return pd.DataFrame(rows)


def run_videommev2(repo: str, out: Path) -> None:
    for mode in ("judge", "exact"):
        random.seed(0)
        folder = out / mode
        folder.mkdir(parents=True, exist_ok=True)
        ns = family_ns(repo, "vlmeval/dataset/utils/videomme.py", V2_SCRIPT)
        import ast as _ast
        ns["ast"] = _ast
        ns["gpt_key_set"] = lambda: True
        run_source(git_show(repo, HEAD, "vlmeval/dataset/videommev2.py"), ns, only={"cal_relevance", "cal_logic", "get_final_rating"})
        ev = evaluate_fn(repo, "vlmeval/dataset/videommev2.py", "VideoMMEv2", ns)
        eval_file = str(folder / "m_Video-MME-v2_64frame.xlsx")
        ns["dump"](videommev2_rows(), eval_file)
        ev(None, eval_file, model="chatgpt-0125" if mode == "judge" else "exact_matching")


Q5 = Q + "\nE. it rains"
LVB_CATS = [(15, "S2E"), (60, "T3O"), (600, "SSS"), (3600, "TAA"), (15, "S2E")]


def longvideobench_rows() -> pd.DataFrame:
    rows = []
    for i, (p, a) in enumerate(CASES + [("E", "E"), ("The best answer is E", "A")]):
        d, c = LVB_CATS[i % len(LVB_CATS)]
        rows.append({"index": i, "video": f"v{i}", "question": Q5, "correct_choice": ord(a) - ord("A"), "duration_group": d,
                     "question_category": c, "prediction": p})
    return pd.DataFrame(rows)


def egoexo_rows() -> pd.DataFrame:
    rows = []
    # EgoExoBench reads the prediction without str(): a missing one raises, so none here.
    for i, (p, a) in enumerate(CASES):
        rows.append({"index": i, "video": f"v{i}", "question": Q, "answer": a,
                     "subtask_type": ["Ego-Exo Matching", "Action Prediction", "Skill Evaluation"][i % 3],
                     "prediction": "nothing" if p is None else p})
    return pd.DataFrame(rows)


VM_CATS = [
    ("short", "Knowledge", "Astronomy", "Counting Problem"),
    ("medium", "Film & Television", "Animation", "OCR Problems"),
    ("long", "Multilingual", "Multilingual", "Information Synopsis"),
    ("short", "Life Record", "Travel", "Action Reasoning"),
    ("medium", "Knowledge", "Law", "Counting Problem"),  # five: reversing the index mixes the categories
]
#: Video-MME's eras: the commit whose code ran, and the folder it wrote.
VM_ERAS = {
    "2024-07": "9e004797",      # regex only, -1 when empty, '.2f', by row label
    "2024-09": "9447c3a6",      # extract_option fallback
    "2024-09-20": "7b634b56",   # '.3f'
    "2025-07": "379f3f5f",      # scores placed by the index column
    "2026-06": HEAD,
}


def videomme_rows(era: str) -> pd.DataFrame:
    rows = []
    n = len(CASES)
    for i, (p, a) in enumerate(CASES):
        d, dom, sub, tt = VM_CATS[i % len(VM_CATS)]
        if p is None and era == "2024-07":
            p = "nothing"  # read without str() then: a missing prediction raises
        # The index reversed (11..0): the eras that place scores by row label put them elsewhere.
        rows.append({"index": n - 1 - i, "video": f"v{i}", "duration": d, "domain": dom, "sub_category": sub,
                     "task_type": tt, "question": Q, "answer": a, "prediction": p})
    return pd.DataFrame(rows)


def run_videomme(repo: str, out: Path) -> None:
    for era, commit in VM_ERAS.items():
        for mode in ("judge", "exact"):
            random.seed(0)
            folder = out / f"videomme_{era}" / mode
            folder.mkdir(parents=True, exist_ok=True)
            ns = family_ns(repo, "vlmeval/dataset/utils/videomme.py", SCRIPT, commit)
            ns["gpt_key_set"] = lambda: True
            ev = evaluate_fn(repo, "vlmeval/dataset/videomme.py", "VideoMME", ns, commit)
            eval_file = str(folder / "m_Video-MME.xlsx")
            ns["dump"](videomme_rows(era), eval_file)
            ev(None, eval_file, model="chatgpt-0125" if mode == "judge" else "exact_matching")


MMMU_OPTS = ["cat", "dog", "car", "tree"]
#: VideoMMMU rows: (question_type, answer, category, prediction)
MMMU_CASES = [
    ("multiple-choice", "A", "Perception", "Answer: A"),
    ("multiple-choice", "B", "Perception", "I think the dog is right here in the picture"),   # option text (> 5 tokens)
    ("multiple-choice", "C", "Comprehension", "the answer is (C)"),
    ("multiple-choice", "B", "Comprehension", "A. cat or maybe B. dog"),                        # two candidates: the last
    ("multiple-choice", "D", "Adaptation", "Answer: "),                                         # empty: 'API Error', left out
    ("multiple-choice", "D", "Adaptation", "nothing fits"),                                     # 'No Answere Found'
    ("multiple-choice", "D", "Adaptation", "D: tree"),                                          # colon
    ("open", "42", "Adaptation", "The total is 42."),                                           # list stored as text: wrong
    ("open", "blue", "Comprehension", "Answer: it is blue"),
    ("perception", "C", "Perception", "C"),                                                     # parsed as open: never equal
    ("multiple-choice", "A", "Perception", "Let me think. Answer: A. cat"),
    ("open", "3000", "Adaptation", "so the result is 3,000"),
]


def run_videommmu(repo: str, out: Path) -> None:
    import json as _json
    import re as _re

    import numpy as _np

    ns = make_ns(repo, HEAD)
    ns.update(json=_json, re=_re, np=_np)
    run_source(git_show(repo, HEAD, "vlmeval/dataset/videommmu.py"), ns, only={
        "parse_options", "check_is_number", "normalize_str", "extract_numbers", "parse_open_response",
        "parse_multi_choice_response", "get_multi_choice_info", "process_results", "eval_open", "eval_multi_choice",
        "evaluate_mmmu", "aggregate_results"})
    ev = evaluate_fn(repo, "vlmeval/dataset/videommmu.py", "VideoMMMU", ns)
    folder = out / "videommmu"
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"index": i, "id": f"q{i}", "video": f"v{i}", "question": "Q?", "options": _json.dumps(MMMU_OPTS),
             "question_type": t, "answer": a, "category": c, "prediction": p} for i, (t, a, c, p) in enumerate(MMMU_CASES)]
    eval_file = str(folder / "m_VideoMMMU.xlsx")
    ns["dump"](pd.DataFrame(rows), eval_file)
    ev(None, eval_file)


#: ReVSI rows: (question_type, ground_truth, prediction)
REVSI_CASES = [
    ("object_rel_direction_forward_easy", "A", "A. left"),
    ("object_rel_direction_backward_easy", "B", "b"),
    ("object_rel_direction_forward_hard", "C", "The answer is C"),        # first word 'The': wrong
    ("object_rel_distance_closest", "D", "D."),
    ("object_rel_distance_farthest", "A", "B"),
    ("route_planning", "C", "C"),
    ("object_counting_single", "3", "3"),
    ("object_counting_multiple", "10", "12 objects"),                     # |12 - 10| / 10 = 0.2
    ("object_abs_distance", "2.5", "2.0 meters"),
    ("object_size_estimation", "40", "about 40"),                           # 'about': float() fails, 0.0
    ("room_size_estimation_single", "20.0", "26"),
    ("room_size_estimation_multiple", "0", "1"),                            # gt 0: ZeroDivisionError, 0.0
    ("appearance_order", "A", "A"),                                         # unknown type: keeps the previous row's 0.0
    ("object_counting_single", "7", None),                                  # 'nan'
    ("object_abs_distance", "1.8", "1.6"),
    ("object_rel_direction_backward_hard", "B", "B"),
]


def run_revsi(repo: str, out: Path) -> None:
    import numpy as _np

    ns = make_ns(repo, HEAD)
    ns["np"] = _np
    run_source(git_show(repo, HEAD, "vlmeval/dataset/revsi.py"), ns, only={
        "NQ_QUESTION_TYPES", "MCQ_QUESTION_TYPES", "_mean_relative_accuracy", "_pop_mean"})
    ev = evaluate_fn(repo, "vlmeval/dataset/revsi.py", "ReVSI", ns)
    folder = out / "revsi"
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"index": i, "video": f"v{i}", "question": "Q?", "question_type": t, "ground_truth": g, "prediction": p}
            for i, (t, g, p) in enumerate(REVSI_CASES)]
    eval_file = str(folder / "m_ReVSI.xlsx")
    ns["dump"](pd.DataFrame(rows), eval_file)
    result = ev(None, eval_file)
    # evaluate writes no file (run.py keeps the dict in status.json): kept here as JSON.
    import json as _json
    (folder / "expected_metrics.json").write_text(_json.dumps({k: float(v) for k, v in result.items()}, indent=4))


def run(repo: str, out: Path, name: str, frame: pd.DataFrame, utils: str, src: str, cls: str,
        modes: tuple[str, ...] = ("judge", "exact"), folder_name: str | None = None, commit: str = HEAD) -> None:
    for mode in modes:
        random.seed(0)
        folder = out / (folder_name or mode)
        folder.mkdir(parents=True, exist_ok=True)
        ns = family_ns(repo, utils, SCRIPT, commit)
        ns["gpt_key_set"] = lambda: True
        ev = evaluate_fn(repo, src, cls, ns, commit)
        eval_file = str(folder / f"m_{name}.xlsx")
        ns["dump"](frame, eval_file)
        kw = {"model": "gpt-4o-mini" if commit == HEAD else "chatgpt-0125"} if mode == "judge" else {"model": "exact_matching"}
        ev(None, eval_file, **kw)


def main() -> None:
    repo, out = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    run(repo, out, "WorldSense", worldsense_rows(), "vlmeval/dataset/utils/worldsense.py", "vlmeval/dataset/worldsense.py", "WorldSense")
    # WorldSense's data.loc[idx, 'score'] with the index reversed: verdicts land on other rows.
    rev = worldsense_rows()
    rev["index"] = list(reversed(range(len(rev))))
    run(repo, out, "WorldSense", rev, "vlmeval/dataset/utils/worldsense.py", "vlmeval/dataset/worldsense.py", "WorldSense",
        modes=("exact",), folder_name="reversed")
    # The first commits of WorldSense (bf73bae8) and LongVideoBench (ef766b81), with their
    # own can_infer (the classic era): exact matching.
    run(repo, out, "WorldSense", worldsense_rows(), "vlmeval/dataset/utils/worldsense.py", "vlmeval/dataset/worldsense.py",
        "WorldSense", modes=("exact",), folder_name="first_commits", commit="bf73bae8")
    run(repo, out, "LongVideoBench", longvideobench_rows(), "vlmeval/dataset/utils/longvideobench.py",
        "vlmeval/dataset/longvideobench.py", "LongVideoBench", modes=("exact",), folder_name="first_commits", commit="ef766b81")
    run_videommev2(repo, out)
    run_videomme(repo, out)
    run_videommmu(repo, out)
    run_revsi(repo, out)
    run(repo, out, "LongVideoBench", longvideobench_rows(), "vlmeval/dataset/utils/longvideobench.py",
        "vlmeval/dataset/longvideobench.py", "LongVideoBench")
    run(repo, out, "EgoExoBench_MCQ", egoexo_rows(), "vlmeval/dataset/EgoExoBench/utils.py",
        "vlmeval/dataset/EgoExoBench/egoexobench.py", "EgoExoBench_MCQ")
    run(repo, out, "Video-TT", videott_rows(), "vlmeval/dataset/utils/videott.py", "vlmeval/dataset/videott.py", "VideoTT")


if __name__ == "__main__":
    os.environ.setdefault("PRED_FORMAT", "xlsx")
    main()
