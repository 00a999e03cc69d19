"""Build this folder's synthetic archives by running VLMEvalKit's own evaluation code.

Usage (a clone of open-compass/VLMEvalKit; pandas, numpy, openpyxl, tqdm installed):

    python make_synthetic.py /path/to/VLMEvalKit.git OUTDIR [family ...]

The harness is ``../vlmevalkit_tail_rules/make_synthetic.py``'s ``run``: the dataset class
is taken from ``vlmeval/dataset/image_mcq.py`` at the commit with ``ast`` (base classes and
package-relative imports dropped; the ``vlmeval/dataset/utils/X.py`` it imports is run into
the namespace from the same commit), ``self.data`` is the dataset TSV (the result rows
without ``prediction``) and ``evaluate`` runs as written on the result file. Every file it
writes is kept; an exception is recorded in ``{stem}_returned.json`` as ``__error__``.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path

import pandas as pd

_here = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("tail_rules_make", _here.parent / "vlmevalkit_tail_rules" / "make_synthetic.py")
_tail = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tail)
run = _tail.run

HEAD = "e8e78f05"
MCQ = "vlmeval/dataset/image_mcq.py"


# ---- NaturalBench ------------------------------------------------------------------------
YES_NO = ["Yes", "No", "yes.", "NO", "Yes, no doubt", "No, yes it is", "Yesterday it was", "nope", "I cannot tell",
          "The answer is no", "yes-no", None, "Noah says yes"]
CHOICE = ["A", "B", "A.", "(B)", "a", "b) is right", "B or A", "Answer: A", "AB", "neither", None, "Option B"]


def naturalbench_frame() -> pd.DataFrame:
    rng = random.Random(22)
    rows = []
    for g in range(1900):
        kind = "yes_no" if g % 3 else "multiple_choice"
        pool = YES_NO if kind == "yes_no" else CHOICE
        right = ["Yes", "No", "No", "Yes"] if kind == "yes_no" else ["A", "B", "B", "A"]
        for k in range(4):
            # mostly right answers, so the group scores are not all zero
            pred = right[k] if rng.random() < 0.6 else rng.choice(pool)
            rows.append((4 * g + k, f"q{g}_{k}", right[k], kind, pred))
    frame = pd.DataFrame(rows, columns=["index", "question", "answer", "type", "prediction"])
    # Two rows stored out of index order: upstream sorts the predictions by index but takes
    # the types from the dataset TSV's (the file's) order, so rows 8 and 12 (a yes/no and a
    # multiple-choice group) swap places in the sort while their types do not.
    frame.loc[[8, 12]] = frame.loc[[12, 8]].to_numpy()
    return frame


def naturalbench(repo: str, out: Path) -> None:
    utils = ["vlmeval/dataset/utils/naturalbench.py"]
    frame = naturalbench_frame()
    for commit, sub in (("7485d622", "naturalbench_2024-11"), (HEAD, "naturalbench_head")):
        where = out / sub
        where.mkdir(parents=True, exist_ok=True)
        cwd = os.getcwd()
        os.chdir(where)  # 7485d622 writes NaturalBench_acc.csv into the working directory
        try:
            run(repo, commit, MCQ, "NaturalBenchDataset", utils, frame, where, "SynthModel_NaturalBenchDataset",
                whole_class=True, meta=frame.drop(columns=["prediction"]))
        finally:
            os.chdir(cwd)
    small = frame.head(8)
    run(repo, HEAD, MCQ, "NaturalBenchDataset", utils, small, out / "naturalbench_8rows", "SynthModel_NaturalBenchDataset",
        whole_class=True, meta=small.drop(columns=["prediction"]))


# ---- VLMBlind ----------------------------------------------------------------------------
def run_any(repo: str, commit: str, cls: str, frame: pd.DataFrame, out: Path, stem: str, suffix: str) -> None:
    """``run`` for a ``.tsv`` result file too (VLMEvalKit's ``load`` reads it with
    ``pd.read_csv(sep='\\t')``, an ``.xlsx`` with ``pd.read_excel``)."""
    import json

    out.mkdir(parents=True, exist_ok=True)
    ns = _tail.make_ns(repo, commit)
    ev = _tail.class_evaluate(repo, commit, MCQ, cls, ns)
    obj = ns[cls].__new__(ns[cls])
    eval_file = out / f"{stem}.{suffix}"
    if suffix == "xlsx":
        frame.to_excel(eval_file, index=False)
    else:
        frame.to_csv(eval_file, sep="\t", index=False)
    try:
        result = ev(obj, str(eval_file))
        result = result.to_dict(orient="list") if isinstance(result, pd.DataFrame) else result
    except Exception as e:  # noqa: BLE001 - recorded: the test expects the same failure
        result = {"__error__": type(e).__name__, "message": str(e)}
    (out / f"{stem}_returned.json").write_text(json.dumps(result, indent=1, default=str))


def vlmblind_frame() -> pd.DataFrame:
    rows = [
        # (task, answers, prediction): what the row exercises
        ("Subway Connections", "2", "There are {2} paths."),            # text '2' (mixed column): right
        ("Subway Connections", "1", "I count {1 } and {1}"),              # first braces '1 ': wrong
        ("Subway Connections", "3", "three"),                              # no braces: '' != '3'
        ("Nested Squares", "4", "{4}"),
        ("Nested Squares", "2", "{3}"),
        ("Line Plot Intersections", "0", "{0}\n"),
        ("Line Plot Intersections", "1", "{\n1}"),                        # '.' does not match a newline
        ("Touching Circles", "Yes", "yes, they touch"),                   # lower-cased containment
        ("Touching Circles", "No", "They do not touch"),                  # 'no' in 'they do not': right
        ("Touching Circles", "Yes", "I do not know"),
        ("Counting Grid - Word Grids", "3,4", "The grid has rows {3} and columns {4}."),
        ("Counting Grid - Word Grids", "3, 4", "Rows: {4}, Columns: {3}"),          # swapped: wrong
        ("Counting Grid - Word Grids", "5,6", "It is (5, 6)."),                     # the pair form
        ("Counting Grid - Blank Grids", " 7 , 8 ", "(7,8)"),                        # int(' 7 '.strip())
        ("Counting Grid - Blank Grids", "7,8,9", "(7, 8)"),                         # three numbers: False
        ("Counting Grid - Blank Grids", "seven,8", "(7, 8)"),                       # int() fails: False
        ("Counting Grid - Blank Grids", "2", None),                                 # one number: False before the NaN prediction is read
        ("Olympic Counting - Pentagons", "5", "I see 5 pentagons"),
        ("Olympic Counting - Pentagons", "5", "I see 15 pentagons"),                # '5' in '15': right
        ("Olympic Counting - Circles", "6", "six"),
        ("Circled Letter", "a", "{a}"),
        ("Circled Letter", "b", "{B}"),                                             # case kept: wrong
        ("Touchdown Reading", "3,4", "(3, 4)"),                                     # a rule only in 2025-09
        ("Other Task", "x", "x"),                                                    # no rule: counted, never right
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "task": [r[0] for r in rows], "answers": [r[1] for r in rows], "prediction": [r[2] for r in rows]})


def vlmblind_numeric_frame() -> pd.DataFrame:
    # answers all numbers: pandas reads int64, so the brace tasks never match ('2' != 2)
    rows = [("Subway Connections", "2", "{2}"), ("Nested Squares", "3", "{3}"), ("Circled Letter", "1", "{1}"),
            ("Counting Grid - Word Grids", "12", "(1, 2)")]
    return pd.DataFrame({"index": range(len(rows)), "task": [r[0] for r in rows], "answers": [r[1] for r in rows],
                         "prediction": [r[2] for r in rows]})


def vlmblind_crash_frame() -> pd.DataFrame:
    # the same, then an Olympic row: `2 in 'I see 2'` raises TypeError
    frame = vlmblind_numeric_frame()
    return pd.concat([frame, pd.DataFrame({"index": [9], "task": ["Olympic Counting - Circles"], "answers": ["2"],
                                           "prediction": ["I see 2"]})], ignore_index=True)


def vlmblind(repo: str, out: Path) -> None:
    stem = "SynthModel_VLMBlind"
    for commit, sub in (("a3793ee0", "vlmblind_2025-05"), ("caca0bc9", "vlmblind_2025-05b"),
                        ("9cc14cd0", "vlmblind_2025-09"), (HEAD, "vlmblind_head")):
        run_any(repo, commit, "VLMBlind", vlmblind_frame(), out / sub, stem, "xlsx")
    run_any(repo, HEAD, "VLMBlind", vlmblind_frame(), out / "vlmblind_head_tsv", stem, "tsv")
    run_any(repo, HEAD, "VLMBlind", vlmblind_numeric_frame(), out / "vlmblind_numeric", stem, "xlsx")
    run_any(repo, HEAD, "VLMBlind", vlmblind_numeric_frame(), out / "vlmblind_numeric_tsv", stem, "tsv")
    run_any(repo, HEAD, "VLMBlind", vlmblind_crash_frame(), out / "vlmblind_crash", stem, "xlsx")


# ---- XLRS-Bench-lite -----------------------------------------------------------------------
class XLRSJudge:
    """A scripted judge: the reply for the prediction after 'Answer: ' in the prompt."""

    def __init__(self, replies: dict[str, str]):
        self.replies = replies

    def generate(self, prompt, **kwargs):
        pred = prompt.split("\nAnswer: ", 1)[1].split("\n------", 1)[0]
        return self.replies[pred]

    def working(self):
        return True


XLRS_ROWS = [
    # (category, l2-category, answer, prediction, the scripted judge reply)
    ("Perception", "Counting", "A", "(A)", "A"),
    ("Perception", "Counting", "B", "The answer is B.", "B"),
    ("Perception", "Color", "C", "c", "c"),                      # regex upper-cases; judge reply kept as is: set('c') != {'C'}
    ("Perception", "Color", "AB", "A and B", "AB"),              # sets: regex finds A, B (and 'a' of 'and'? no: 'and' -> a)
    ("Perception", "Scene", "D", "It is D, not E", "D"),
    ("Perception", "Scene", "E", "none of these", "Z"),          # regex: no capital A-E -> ''
    ("Reasoning", "Route", "B", "Route B (B)", "The answer is B"), # judge letters 'TheanswerisB': wrong
    ("Reasoning", "Route", "C", None, "Z"),                      # 'nan'
    ("Reasoning", "Planning", "A", "BA", "BA"),                  # set('AB') != {'A'}
    ("Reasoning", "Planning", "A", "Answer: A", "A"),
    ("Reasoning", "Anomaly", "B", "b) maybe", "B"),
    ("Reasoning", "Anomaly", "C", "The best answer is C", "C."),  # judge 'C.' -> 'C'
    ("Perception", "Landuse", "D", "(d)", "D"),
    ("Perception", "Object", "E", "E.", "e"),
    ("Reasoning", "Spatial", "A", "A", "A"),
    ("Reasoning", "Temporal", "B", "C", "C"),
    # thirds, so the macro mean's summation order shows (judge run: NumPy's pairwise sum of
    # the ten task accuracies differs from a left-to-right sum in the last digit)
    ("Perception", "Counting", "C", "D", "D"),
    ("Reasoning", "Spatial", "B", "nothing", "Z"),
    ("Reasoning", "Spatial", "C", "none", "Z"),
    ("Perception", "Object", "A", "(A)", "A"),
    ("Perception", "Object", "B", "B", "A"),                     # the judge disagrees with the regex
    ("Perception", "Color", "D", "blue", "Z"),
]


def xlrs_frame() -> pd.DataFrame:
    rows = XLRS_ROWS
    return pd.DataFrame({
        "index": [1000 + i for i in range(len(rows))],
        "question": [f"Which option? q{i}" for i in range(len(rows))],
        "multi-choice options": ["\n(A) one\n(B) two\n(C) three\n(D) four\n(E) five\nSelect the best answer."] * len(rows),
        "answer": [r[2] for r in rows], "category": [r[0] for r in rows], "l2-category": [r[1] for r in rows],
        "prediction": [r[3] for r in rows],
    })


def xlrs_class(repo: str, commit: str, ns: dict):
    """The class with its base dropped and the in-function ``vlmeval`` imports removed
    (``track_progress_rich`` is the namespace's sequential stand-in)."""
    import ast
    import json
    import re
    import warnings

    ns.update(json=json, re=re, warnings=warnings, DEBUG_MESSAGE="")
    tree = ast.parse(_tail.git_show(repo, commit, MCQ))
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "XLRSBench")
    klass.bases = []
    for fn in klass.body:
        if isinstance(fn, ast.FunctionDef):
            fn.body = [s for s in fn.body if not (isinstance(s, ast.ImportFrom) and (s.level or (s.module or "").startswith("vlmeval")))] or [ast.Pass()]
    exec(compile(ast.unparse(klass), "<XLRSBench>", "exec"), ns)  # noqa: S102 - VLMEvalKit's own code, on purpose
    return ns["XLRSBench"]


def xlrs_run(repo: str, commit: str, out: Path, judge: XLRSJudge | None) -> None:
    import json

    out.mkdir(parents=True, exist_ok=True)
    ns = _tail.make_ns(repo, commit)
    ns["build_judge"] = lambda **kw: judge
    cls = xlrs_class(repo, commit, ns)
    obj = cls.__new__(cls)
    eval_file = out / "SynthModel_XLRS-Bench-lite.xlsx"
    xlrs_frame().to_excel(eval_file, index=False)
    kw = {"model": "gpt-4o-mini", "nproc": 1} if judge is not None else {}
    try:
        result = obj.evaluate(str(eval_file), **kw).to_dict(orient="list")
    except Exception as e:  # noqa: BLE001 - recorded
        result = {"__error__": type(e).__name__, "message": str(e)}
    (out / "SynthModel_XLRS-Bench-lite_returned.json").write_text(json.dumps(result, indent=1, default=str))


def xlrs(repo: str, out: Path) -> None:
    replies = {("nan" if r[3] is None else r[3]): r[4] for r in XLRS_ROWS}
    xlrs_run(repo, "8d23166a", out / "xlrs_2025-06", None)        # raw prediction: NaN.strip() raises
    xlrs_run(repo, "08fd70d9", out / "xlrs_2025-06b", None)       # str() of the predictions
    xlrs_run(repo, HEAD, out / "xlrs_head_exact", None)           # no judge: _None_result.pkl
    xlrs_run(repo, HEAD, out / "xlrs_head_judge", XLRSJudge(replies))  # _<... object at 0x..>_result.pkl


FAMILIES = {"naturalbench": naturalbench, "vlmblind": vlmblind, "xlrs": xlrs}

if __name__ == "__main__":
    repo, out = sys.argv[1], Path(sys.argv[2])
    for name in sys.argv[3:] or FAMILIES:
        FAMILIES[name](repo, out)
