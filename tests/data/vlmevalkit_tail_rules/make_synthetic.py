"""Build this folder's synthetic archives by running VLMEvalKit's own evaluation code.

Usage (a clone of open-compass/VLMEvalKit; pandas, numpy, openpyxl, tqdm installed):

    python make_synthetic.py /path/to/VLMEvalKit.git OUTDIR

For each family and commit the ``evaluate`` method of the dataset class is taken from the
class source with ``ast`` (only its relative ``from .utils.X import ...`` lines are dropped:
the namespace holds those names, loaded from ``vlmeval/dataset/utils/X.py`` at the same
commit) and run as written on the result file; the smp helpers (``load``/``dump``,
``get_intermediate_file_path``) come from ``../vlmevalkit_judged/make_synthetic.py``'s
``make_ns``. Every file ``evaluate`` writes is kept beside the result file.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vlmevalkit_judged"))
from make_synthetic import git_show, make_ns, run_source

HEAD = "e8e78f05"


def evaluate_fn(repo: str, commit: str, path: str, cls: str, ns: dict):
    tree = ast.parse(git_show(repo, commit, path))
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    fn = next(n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == "evaluate")
    fn.body = [s for s in fn.body if not (isinstance(s, ast.ImportFrom) and s.level)]
    fn.decorator_list = []
    exec(compile(ast.unparse(fn), f"<{cls}.evaluate>", "exec"), ns)  # noqa: S102 - VLMEvalKit's own code, on purpose
    return ns["evaluate"]


def class_evaluate(repo: str, commit: str, path: str, cls: str, ns: dict):
    """The class itself (its base classes dropped), for an ``evaluate`` that calls the class's
    own classmethods; its ``evaluate`` bound."""
    tree = ast.parse(git_show(repo, commit, path))
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    klass.bases = []
    for fn in klass.body:
        if isinstance(fn, ast.FunctionDef):
            fn.body = [s for s in fn.body if not (isinstance(s, ast.ImportFrom) and s.level)] or [ast.Pass()]
    exec(compile(ast.unparse(klass), f"<{cls}>", "exec"), ns)  # noqa: S102 - VLMEvalKit's own code, on purpose
    return ns[cls].evaluate


def run(repo: str, commit: str, cls_path: str, cls: str, utils: list[str], frame: pd.DataFrame, out: Path, stem: str,
        whole_class: bool = False, meta: pd.DataFrame | None = None, **kw):
    out.mkdir(parents=True, exist_ok=True)
    ns = make_ns(repo, commit)
    ns["tqdm"] = lambda x, *a, **k: x
    for u in utils:
        run_source(git_show(repo, commit, u), ns)
    ev = class_evaluate(repo, commit, cls_path, cls, ns) if whole_class else evaluate_fn(repo, commit, cls_path, cls, ns)
    if meta is not None:  # an instance method reading self.data (the dataset TSV)
        obj = ns[cls].__new__(ns[cls])
        obj.data = meta
        ev = obj.evaluate
    eval_file = out / f"{stem}.xlsx"
    frame.to_excel(eval_file, index=False)
    try:
        result = ev(str(eval_file), **kw) if whole_class else ev(None, str(eval_file), **kw)
    except Exception as e:  # noqa: BLE001 - recorded: the test expects the same failure
        result = {"__error__": type(e).__name__}
    (out / f"{stem}_returned.json").write_text(json.dumps(result if isinstance(result, dict) else str(result), indent=1, default=str))
    return result


# ---- CRPE -------------------------------------------------------------------------------
def crpe_frame() -> pd.DataFrame:
    rows = [
        # (answer, category, prediction): what the row exercises
        ("A. yes", "exist", "A"),                      # one character, right
        ("B. no", "exist", "B. no"),                   # starts with B, right
        ("A. a red car", "exist", "the red car"),      # no letter: 'a red car' not a substring: wrong
        ("C. dog", "exist", "A dog"),                  # starts with A: wrong
        ("A. cat", "subject", "it is a CAT here"),     # no letter: 'cat' in lower: right
        ("B. man", "subject", "B"),
        ("C. woman", "subject", "C"),
        ("D. child", "subject", "D"),                  # a full right group
        ("A. on", "predicate", None),                  # 'nan': no letter, 'on' not in 'nan': wrong
        ("B. under", "predicate", "B"),
        ("C. beside", "predicate", "c"),               # one character, 'c' != 'C': wrong
        ("D. above", "predicate", "D"),
        ("A. table", "object", "A"),
        ("B. chair", "object", "B"),
        ("C. sofa", "object", "C"),
        ("D. bed", "subject", "E"),                    # stops at the 4th: counted under 'subject'
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[0] for r in rows], "category": [r[1] for r in rows], "prediction": [r[2] for r in rows]})


def crpe(repo: str, out: Path) -> None:
    for commit, sub in (("5803732d", "crpe_2024-09"), (HEAD, "crpe_head")):
        run(repo, commit, "vlmeval/dataset/image_vqa.py", "CRPE", ["vlmeval/dataset/utils/crpe.py"], crpe_frame(),
            out / sub, "SynthModel_CRPE_RELATION")


# ---- MM-NIAH ----------------------------------------------------------------------------
def mmniah_frame() -> pd.DataFrame:
    rows = [
        # (answer, category, prediction)
        ("2", "find-image", "2"),                                 # digits: right
        ("1", "find-image", "**B**. because"),                    # '*' removed, cut at '.': 'b' -> 1: right
        ("0", "visual-reasoning", "The answer is A."),            # strip('.'), 'the answer is' removed: 'a': right
        ("3", "visual-reasoning", "none"),                        # none: wrong
        ("1", "visual-reasoning", "the camera is moving right"),  # read as 'b': right
        ("2", "find-image", "C, D"),                              # no '.': 'c, d' is not one letter: wrong
        ("[1, 2, 3]", "count-text", "[1, 2, 3]"),                 # whole-word after punctuation: right
        ("[1, 2, 3]", "count-text", "[1, 2, 4]"),
        ("apple", "find-text", "The needle is an Apple."),        # lower, period stripped: right
        ("red apple", "find-text", "a red  apple"),               # articles and spacing: right
        ("pineapple", "find-text", "apple"),
        ("2", "infer-choose", "two"),                             # number word -> '2': right
        ("B", "infer-choose", "b"),                               # text answer lowered too: right
        ("3", "count-image", "3."),
        ("It's", "find-text", "its"),                             # contraction map only on the prediction side
        ("3.5", "count-image", "about 3.5 of them"),              # the digit period kept
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[0] for r in rows], "category": [r[1] for r in rows], "prediction": [r[2] for r in rows]})


def mmniah(repo: str, out: Path) -> None:
    run(repo, HEAD, "vlmeval/dataset/image_vqa.py", "MMNIAH", ["vlmeval/dataset/utils/mmniah.py"], mmniah_frame(),
        out / "mmniah", "SynthModel_MM_NIAH_VAL")


# ---- Q-Spatial ---------------------------------------------------------------------------
def qspatial_frame() -> pd.DataFrame:
    rows = [
        # (answer, question_type, prediction)
        ("(2.0, 'meters')", "distance", r"It is \scalar{180} \distance_unit{centimeters}."),     # 0.9: both
        ("(2.0, 'meters')", "distance", r"\scalar{1.2} \distance_unit{m}"),                     # 1.67: delta_2 only
        ("(30, 'cm')", "size", r"\scalar{10 - 14} \distance_unit{inches}"),                      # mean of 10, 14 -> 30.48 cm
        ("(30, 'cm')", "size", r"first \scalar{1} \distance_unit{ft} then \scalar{2} \distance_unit{feet}"),  # the last boxes: 60.96: fails
        ("(5, 'ft')", "distance", "about five feet"),                                               # no box: 1e-8
        ("(1, 'meter')", "distance", r"\scalar{1} \distance_unit{yards}"),                       # unknown unit: 0
        ("(40, 'mm')", "size", r"\scalar{four} \distance_unit{cm}"),                             # no number: NaN: fails
        ("(40, 'mm')", "size", r"\scalar{3.} \distance_unit{CM}"),                               # '3.' -> 3; CM lowered: 1.33: both
        ("(1.5, 'metres')", "height", r"\scalar{1.5} no unit"),                                   # no unit box: 1e-8
        ("(1.5, 'metres')", "height", r"\scalar{0.8} \distance_unit{m}"),                        # 1.875
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[0] for r in rows], "question_type": [r[1] for r in rows], "prediction": [r[2] for r in rows]})


def qspatial(repo: str, out: Path) -> None:
    run(repo, HEAD, "vlmeval/dataset/image_vqa.py", "QSpatial", [], qspatial_frame(), out / "qspatial",
        "SynthModel_QSpatial_plus", whole_class=True)


# ---- MRareBench diagnosis ----------------------------------------------------------------
def mrare_dx_frame() -> pd.DataFrame:
    rows = [
        # (answer, answer_aliases, prediction)
        ("Fabry disease", '["Anderson-Fabry disease"]', "1. Fabry disease\n2. Gaucher disease"),           # rank 1
        ("Gaucher disease", None, "1) Pompe disease\n2) Niemann-Pick disease\n3) Gaucher's disease type 1"),  # rank 3 (substring)
        ("Wilson disease", "hepatolenticular degeneration; WD", "hemochromatosis; hepatolenticular degeneration"),  # fallback split, alias: rank 2
        ("Marfan syndrome", "[]", "<think>1. maybe marfan 2. or not</think>1. Ehlers-Danlos 2. Loeys-Dietz syndrome 3. Marfan syndrome"),  # think: inline split
        ("Alport syndrome", '"Hereditary nephritis"', "1. IgA nephropathy\n2. IgA Nephropathy\n3. thin basement membrane"),  # dup dropped; no hit
        ("Tuberous sclerosis complex", None, None),                                                     # 'nan': one item, no hit
        ("Behcet disease", None, "- Behçet's syndrome\n- Behcet disease"),                               # F1 / exact at rank 2
        ("Castleman disease", None, "\n".join(f"{i}. disease {i}" for i in range(1, 12)) + "\n12. Castleman disease"),  # beyond top 10
        ("Kawasaki disease", None, "1. the Kawasaki disease."),                                          # normalised equal
        ("Addison disease", None, "1. adrenal insufficiency\n2. disease of Addison type"),             # token F1 0.8 at rank 2
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[0] for r in rows], "answer_aliases": [r[1] for r in rows],
                         "prediction": [r[2] for r in rows]})


def mrare_dx(repo: str, out: Path) -> None:
    frame = mrare_dx_frame()
    # the module's top level (its helpers; the classes themselves fail on the missing base and are skipped)
    run(repo, HEAD, "vlmeval/dataset/mrarebench.py", "MRareBenchDiagnosis", ["vlmeval/dataset/mrarebench.py"], frame,
        out / "mrare_dx", "SynthModel_MRareBench_Diagnosis", whole_class=True, meta=frame.drop(columns=["prediction"]))


# ---- VLRMBench ----------------------------------------------------------------------------
def vlrm_frame(kind: str) -> pd.DataFrame:
    nan = float("nan")
    step = [
        # (category, answer, prediction)
        ("step_correctness", "[1, 0, 1, 1]", "1, 0, 0, 1"),
        ("step_correctness", "[0, 0, 1]", "Step scores: 0 0 7 1 1"),   # 7 read as 1; cut to 3
        ("step_correctness", "[1, 1]", None),                            # 'nan': padded [0, 0]
        ("redundancy_det", "[0, 1, 0]", "[0, 1]"),                       # padded with 0
        ("redundancy_det", "[1, 1, 1]", "2 2 0"),
        ("redundancy_det", "not a list", "1"),                           # literal_eval fails: skipped
        ("most_confidence", "[0]", "0"),
    ]
    ms = [
        # (index, order, prediction)
        (100, "front", "[7, 8]"), (101, "back", "Score 1: 9, Score 2: 3"),   # 7+3 > 8+9? no
        (102, "front", "9, 2"), (103, "back", "4 and 6"),                    # 9+6 > 2+4: right
        (104, "front", None), (105, "back", "5"),                             # [0,0] / [5,0]: 0 > 5? no
        (106, "back", "1 2"), (107, "front", "3 4"),                          # order mismatch: skipped
        (108, "front", "8 1"),                                                # odd last: skipped
    ]
    fs = [
        # (task_gt, prediction)
        (True, "Yes, it will."), (True, "It is true"), (True, "yesterday"), (False, "No."),
        (False, "FALSE"), (False, "not really"), (True, None),               # None: TypeError: skipped
    ]
    rows = []
    if kind in ("all", "step"):
        rows += [{"index": i, "category": c, "answer": a, "prediction": p, "task_gt": nan, "order": nan} for i, (c, a, p) in enumerate(step)]
    if kind in ("all", "ms"):
        rows += [{"index": i, "category": "multi_solution", "answer": nan, "prediction": p, "task_gt": nan, "order": o} for i, o, p in ms]
    if kind in ("all", "fs"):
        rows += [{"index": 200 + i, "category": "foresight", "answer": nan, "prediction": p, "task_gt": t, "order": nan} for i, (t, p) in enumerate(fs)]
    frame = pd.DataFrame(rows)
    frame["question"] = [f"q{i}" for i in range(len(frame))]
    return frame.dropna(axis=1, how="all")


def vlrm(repo: str, out: Path) -> None:
    for kind, stem in (("all", "SynthModel_VLRMBench"), ("fs", "SynthModel_VLRMBench_Foresight"),
                       ("ms", "SynthModel_VLRMBench_MultiSolution")):
        run(repo, HEAD, "vlmeval/dataset/vlrmbench.py", "VLRMBench", ["vlmeval/dataset/vlrmbench.py"], vlrm_frame(kind),
            out / "vlrmbench", stem, whole_class=True)


# ---- GSM8K-V ------------------------------------------------------------------------------
def gsm8k_v(repo: str, out: Path) -> None:
    rows = [
        # (answer, category, subcategory, prediction)
        (18, "shopping", "money", "She pays 3 + 15 = 18.\nFinal Answer: 18"),
        (5, "shopping", "money", "The answer is $1,250 dollars"),               # comma number: wrong
        (1250, "shopping", "count", "#### 1,250"),
        (0.75, "cooking", "ratio", "\\boxed{3/4}"),                            # fraction
        (42, "cooking", "ratio", "We get 40 first.\n\nSo in the end 42"),     # last-line number
        (7, "cooking", None, "Therefore, she has 7 apples."),
        (3, None, "count", "answer: 2"),
        (10, "travel", "time", None),                                           # no prediction
        (12, "travel", "time", "x = 12.0004"),                                  # within 1e-3
        (100, "travel", "time", "It costs $99.5\n\nno final line here"),       # costs in last paragraph? no: first paragraph
        (4, "travel", "count", "答案：4"),                                       # full-width colon is not in [:-=]
        (6, "shopping", "count", "Thus the total number is 6."),
    ]
    frame = pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                          "answer": [r[0] for r in rows], "category": [r[1] for r in rows],
                          "subcategory": [r[2] for r in rows], "prediction": [r[3] for r in rows]})
    d = out / "gsm8k_v"
    d.mkdir(parents=True, exist_ok=True)
    ns = make_ns(repo, HEAD)
    run_source(git_show(repo, HEAD, "vlmeval/dataset/utils/gsm8k_v.py"), ns)
    eval_file = d / "SynthModel_GSM8K-V.xlsx"
    frame.to_excel(eval_file, index=False)
    ns["evaluate_gsm8k_v"](str(eval_file), dataset_mode="visual_implicit")  # GSM8KVDataset.evaluate, mode unset


# ---- TableVQABench -------------------------------------------------------------------------
def tablevqa_frame() -> pd.DataFrame:
    rows = [
        # (split, answer, prediction)
        ("fintabnetqa", "$3,852 million", "Answer: 3852 million"),     # both 3.852e9: exact and relieved
        ("fintabnetqa", "34.2%", "34.2"),                               # unit-free 34.2 matches: relieved only
        ("fintabnetqa", "October 31", "october 31."),                   # strings, final period removed
        ("fintabnetqa", "(1,200)", "1200 dollars"),
        ("vtabfact", "1", "True"),
        ("vtabfact", "0", "Answer: false"),
        ("vtabfact", "1", "true or false"),                             # both words: not right
        ("vtabfact", "0", "TRUE"),
        ("vwtq", "2004", "2004.0"),                                     # numbers equal
        ("vwtq", "Apple|Banana", "banana||apple"),                      # sets equal
        ("vwtq", "Apple|Banana", "apple"),                              # sizes differ
        ("vwtq", "1990-05-xx", "1990-05-xx"),                           # a date
        ("vwtq_syn", "Freeman", "\u201cFreeman\u201d"),               # curly quotes stripped
        ("vwtq_syn", "3", "three"),
        ("vwtq_syn", "2|2", "2"),                                       # duplicates collapse
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "split": [r[0] for r in rows], "answer": [r[1] for r in rows], "prediction": [r[2] for r in rows]})


def tablevqa(repo: str, out: Path) -> None:
    run(repo, HEAD, "vlmeval/dataset/image_vqa.py", "TableVQABench", ["vlmeval/dataset/utils/tablevqabench.py"],
        tablevqa_frame(), out / "tablevqa", "SynthModel_TableVQABench")


FAMILIES = {"tablevqa": tablevqa, "gsm8k_v": gsm8k_v, "crpe": crpe, "mmniah": mmniah, "qspatial": qspatial, "mrare_dx": mrare_dx, "vlrm": vlrm}

if __name__ == "__main__":
    repo, out = sys.argv[1], Path(sys.argv[2])
    for name in sys.argv[3:] or FAMILIES:
        FAMILIES[name](repo, out)
