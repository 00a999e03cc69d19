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


# ---- AyaVisionBench, VLMBias, Asclepius: judge scores recorded beside the result -----------
class PromptJudge:
    """A scripted judge: the first key found in the prompt gives the reply."""

    def __init__(self, replies: dict[str, str]):
        self.replies = replies

    def generate(self, prompt, **kwargs):
        for key, reply in self.replies.items():
            if key in prompt:
                return reply
        return "no idea"

    def working(self):
        return True


def judged_run(repo: str, commit: str, path: str, cls: str, utils: list[str], frame: pd.DataFrame, out: Path, stem: str,
               judge: PromptJudge, kw: dict, instance: bool) -> None:
    import ast
    import json
    import re

    out.mkdir(parents=True, exist_ok=True)
    ns = _tail.make_ns(repo, commit)
    ns.update(re=re, DEBUG_MESSAGE="", build_judge=lambda **k: judge)
    for u in utils:
        _tail.run_source(_tail.git_show(repo, commit, u), ns)
    ns["build_judge"] = lambda **k: judge  # over the utils' own import
    tree = ast.parse(_tail.git_show(repo, commit, path))
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    klass.bases = []
    for fn in klass.body:
        if isinstance(fn, ast.FunctionDef):
            fn.body = [x for x in fn.body if not (isinstance(x, ast.ImportFrom) and (x.level or (x.module or "").startswith("vlmeval")))] or [ast.Pass()]
    exec(compile(ast.unparse(klass), f"<{cls}>", "exec"), ns)  # noqa: S102 - VLMEvalKit's own code, on purpose
    eval_file = out / f"{stem}.xlsx"
    frame.to_excel(eval_file, index=False)
    ev = ns[cls].__new__(ns[cls]).evaluate if instance else ns[cls].evaluate
    try:
        result = ev(str(eval_file), **kw)
        result = result.to_dict(orient="list") if isinstance(result, pd.DataFrame) else result
    except Exception as e:  # noqa: BLE001 - recorded
        result = {"__error__": type(e).__name__, "message": str(e)}
    # not {stem}_*.json: the record finders would take it for a judge's file
    (out / "returned.json").write_text(json.dumps(result, indent=1, default=str))


def aya_frame() -> pd.DataFrame:
    rows = [
        # (category, answer, prediction, judge reply)
        ("eng_Latn", "cat", "a cat", "[[CORRECT]]"),
        ("eng_Latn", "two", "2", "[[CORRECT]]"),
        ("eng_Latn", "red", "blue", "[[WRONG]]"),
        ("fra_Latn", "chien", "chien", "Verdict: [[CORRECT]] I think"),
        ("fra_Latn", "rouge", "vert", "I am not sure"),                    # five unreadable replies: hit 0
        ("deu_Latn", "Hund", "Hund", "Failed to obtain answer via API."),  # FAIL_MSG five times: hit 0
        ("deu_Latn", "drei", "drei", "[[WRONG]] [[CORRECT]]"),             # CORRECT is checked first
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[1] for r in rows], "category": [r[0] for r in rows],
                         "prediction": [r[2] for r in rows]}), {f"Predicted Answer: {r[2]}\n": r[3] for r in rows}


def vlmbias_frame() -> pd.DataFrame:
    rows = [
        # (answer, prediction, judge reply): the brace rule first, the judge for the rest
        ("3", "The count is {3}.", "no"),                 # rule: '3' == '3'
        ("3", "{4} or rather {3}", "no"),                 # the last brace (self.match = -1)
        ("Two", "{two}", "no"),                           # lower + number word: '2' == '2'
        ("The cat", "{a cat}", "yes"),                    # articles dropped: 'cat' == 'cat'
        ("5", "five or so", "yes"),                       # rule fails: 'five or so' vs '5'; the judge says yes
        ("5", "{6}", "No, it is wrong"),                  # the judge says no
        ("Yes", "{yes}", "no"),
        ("7", "about {7 }", "Unknown"),                   # '7 ' split/joined -> '7': rule
        ("8", "nothing", "maybe"),                        # three replies YOrN reads as neither: False, Judge Failed
    ]
    return pd.DataFrame({"index": range(len(rows)), "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[0] for r in rows], "category": ["count"] * 4 + ["color"] * 5,
                         "prediction": [r[1] for r in rows]}), {}


def asclepius_frame() -> pd.DataFrame:
    rows = [
        # (answer, prediction, judge reply)
        ("pneumonia", "pneumonia", "1"),
        ("fracture", "no fracture", "0"),
        ("normal", "normal study", "Score: 1"),
        (None, "anything", "1"),                 # no answer: not judged, not counted
        ("effusion", "effusion", "10"),           # no whole 0/1: 0
        ("mass", "mass", " 1 "),
        ("edema", None, "0 or 1"),               # the first whole digit: 0
        ("opacity", "opacity", "1"),             # 4 of 7: 57.142857... rounded to 57.14
    ]
    return pd.DataFrame({"index": [101 + i for i in range(len(rows))], "question": [f"q{i}" for i in range(len(rows))],
                         "answer": [r[0] for r in rows], "prediction": [r[1] for r in rows]}), \
        {f"Response: {'' if r[1] is None else r[1]}\nYour mark": r[2] for r in rows}


def judged_sets(repo: str, out: Path) -> None:
    frame, replies = aya_frame()
    for commit, sub in (("cc937c5c", "aya_2025-09"), (HEAD, "aya_head")):
        judged_run(repo, commit, "vlmeval/dataset/image_vqa.py", "AyaVisionBench", ["vlmeval/dataset/utils/ayavision.py"],
                   frame, out / sub, "SynthModel_AyaVisionBench", PromptJudge(replies), {"model": "gpt-4o-mini", "nproc": 1}, True)
    frame, _ = vlmbias_frame()
    # the judge sees the processed prediction ('five' -> '5')
    vb_replies = {f"[Begin Response]{p}[End Response]": r for p, r in
                  (("5 or so", "yes"), ("6", "No, it is wrong"), ("nothing", "maybe"))}
    for commit, sub in (("db0c9ae2", "vlmbias_2025-09"), (HEAD, "vlmbias_head")):
        judged_run(repo, commit, "vlmeval/dataset/vlmbias.py", "VLMBias",
                   ["vlmeval/dataset/utils/omni_verifier.py", "vlmeval/dataset/vlmbias.py"],
                   frame, out / sub, "SynthModel_VLMBias", PromptJudge(vb_replies), {"model": "gpt-4o", "nproc": 1}, True)
    frame, replies = asclepius_frame()
    for commit, sub in ((HEAD, "asclepius_head"),):  # 09518248 (its first day) crashed in _evaluate_single
        judged_run(repo, commit, "vlmeval/dataset/asclepius.py", "Asclepius", [], frame, out / sub, "SynthModel_Asclepius",
                   PromptJudge(replies), {"model": "gpt-4o-mini", "nproc": 1}, False)


# ---- SIUO_MCQ, M3oralBench: one option letter by regex ---------------------------------------
LETTER_ROWS = [
    # (answer, prediction)
    ("A", "A"),
    ("b", "The answer is B."),                 # answer upper-cased
    (" C ", "\\boxed{ C } but maybe (D)"),        # boxed first; answer stripped
    ("D", "(A) no, (D)"),                      # the last (X)
    ("E", "e"),                                # upper-cased: a whole-word E
    ("F", "I pick F or G"),                    # the last whole-word A-G: G
    ("A", None),                               # NaN: 'nan' -> 'NAN': no letter
    ("B", "ABC"),                              # no whole word
    ("C", "(H)"),                              # (X) takes any capital: H
    ("G", "Option g."),
    ("A", "\\boxed{a}"),                       # boxed needs a capital; then whole-word 'A' of the upper text
]


def letter_frame(bench: str) -> pd.DataFrame:
    n = len(LETTER_ROWS)
    frame = pd.DataFrame({"index": range(n), "question": [f"q{i}" for i in range(n)],
                          "answer": [r[0] for r in LETTER_ROWS], "prediction": [r[1] for r in LETTER_ROWS]})
    if bench == "siuo":
        frame["category"] = ["privacy", "self-harm", "privacy"] * 3 + ["illegal", "self-harm"]
    else:
        frame["task_type"] = ["judge", "classify", "respond"] * 3 + ["judge", "judge"]
        frame["category"] = ([1, 2, 3, 4, 5, 6] * 2)[:n]  # numbers: foundation_1 ...
    return frame


def letters(repo: str, out: Path) -> None:
    run(repo, HEAD, "vlmeval/dataset/siuo_mcq.py", "SIUOMCQDataset", ["vlmeval/dataset/siuo_mcq.py"], letter_frame("siuo"), out / "siuo_mcq",
        "SynthModel_SIUO_MCQ", whole_class=True, meta=letter_frame("siuo"))
    run(repo, HEAD, "vlmeval/dataset/m3oralbench.py", "M3oralBenchDataset", ["vlmeval/dataset/m3oralbench.py"], letter_frame("m3"), out / "m3oralbench",
        "SynthModel_M3oralBench", whole_class=True, meta=letter_frame("m3"))


# ---- OmniMat_CAL ---------------------------------------------------------------------------
CAL_ROWS = [
    # (category_id, category, final_answer_list, prediction)
    (1, "Thermo", '["1.50"]', "\\boxed{1.5}"),                      # JSON 1.50 -> '1.5'; exact
    (1, "Thermo", '["2.0"]', "2.04"),                               # quantized to 1 place: 2.0 exact
    (1, "Thermo", '["3.14"]', "<answer>3.2</answer>"),              # not exact; within 10 %
    (2, "Optics", '["100", "0"]', '["95", "1e-13"]'),               # JSON list; zero tolerance 1e-12
    (2, "Optics", '["5 \\times 10^{3}"]', "5x10^3"),                # x10^ form after clean_text
    (2, "Optics", '["\\\\frac{1}{3}"]', "0.3333"),                   # \frac; threshold only
    (3, "Mech", "['a', 'b']", "a, b"),                              # literal_eval list; one prediction for two slots
    (3, "Mech", '["12"]', "<think>11</think>12"),                  # after </think>
    (3, "Mech", '["-7"]', None),                                    # 'nan'
    (3, "Mech", '[]', "1"),                                         # no answers: never right
    (10, "Elec", '["1/4"]', "0.25"),
    (10, "Elec", '["9.9e2"]', "1000"),
]


def omnimat_cal(repo: str, out: Path) -> None:
    import ast as _ast
    import json as _json

    n = len(CAL_ROWS)
    frame = pd.DataFrame({"index": range(n), "question": [f"q{i}" for i in range(n)],
                          "category_id": [r[0] for r in CAL_ROWS], "category": [r[1] for r in CAL_ROWS],
                          "final_answer_list": [r[2] for r in CAL_ROWS], "prediction": [r[3] for r in CAL_ROWS]})
    where = out / "omnimat_cal"
    where.mkdir(parents=True, exist_ok=True)
    ns = _tail.make_ns(repo, HEAD)
    src = _tail.git_show(repo, HEAD, "vlmeval/dataset/omnimat.py")
    _tail.run_source(src, ns)  # the helpers (and getcontext().prec = 50); the class fails on its base
    tree = _ast.parse(src)
    klass = next(x for x in tree.body if isinstance(x, _ast.ClassDef) and x.name == "OmniMat")
    klass.bases = []
    exec(compile(_ast.unparse(klass), "<OmniMat>", "exec"), ns)  # noqa: S102 - VLMEvalKit's own code, on purpose
    obj = ns["OmniMat"].__new__(ns["OmniMat"])
    obj.dataset_name = "OmniMat_CAL"
    eval_file = where / "SynthModel_OmniMat_CAL.xlsx"
    frame.to_excel(eval_file, index=False)
    result = obj.evaluate(str(eval_file))
    (where / "returned.json").write_text(_json.dumps(result.to_dict(orient="list"), indent=1, default=str))


# ---- ReasonMap-Plus ---------------------------------------------------------------------------
RMP_ROWS = [
    # (type, difficulty_city, answer, prediction)
    ("TorF1", "easy", 1, "Yes"),
    ("TorF1", "hard", 0, "The answer is: no. Because..."),     # after the phrase, up to '. '
    ("TorF2", "middle", 1, "\\boxed{\\text{True}}"),            # boxed \text: 'True' -> yes
    ("TorF2", "easy", 1, "maybe"),
    ("Counting1", "hard", 2, "I choose (c)"),                     # whole-word c -> C -> 2
    ("Counting1", "middle", 0, "\\boxed{B}"),
    ("Counting2", "easy", 5, "There are 5 stops"),
    ("Counting2", "hard", 3, "three"),                           # no integer: int('three') fails -> wrong
    ("Counting3", "middle", 12, "Final answer: 12."),
    ("Counting3", "easy", 4, None),                              # 'nan'
    ("Other", "hard", "Line 2", "  line 2 "),                    # stripped, lower-cased text
    ("Other", "easy", "Line 3", "Line 4"),
]


def reasonmap_plus(repo: str, out: Path) -> None:
    n = len(RMP_ROWS)
    frame = pd.DataFrame({"index": range(n), "question": [f"q{i}" for i in range(n)],
                          "type": [r[0] for r in RMP_ROWS], "difficulty_city": [r[1] for r in RMP_ROWS],
                          "answer": [r[2] for r in RMP_ROWS], "prediction": [r[3] for r in RMP_ROWS]})
    run(repo, HEAD, "vlmeval/dataset/reasonmap_plus.py", "ReasonMap_Plus", ["vlmeval/dataset/reasonmap_plus.py"], frame,
        out / "reasonmap_plus", "SynthModel_ReasonMap-Plus", whole_class=True, meta=frame)


# ---- vlms_are_biased_main ----------------------------------------------------------------------
VAB_ROWS = [
    # (topic, ground_truth, expected_bias, prediction)
    ("Animals", "{3}", "{4}", "{3}"),                    # braces stripped: right
    ("Animals", "{3}", "{4}", "4"),                      # biased
    ("Animals", "3", "4", "There are 3 legs"),           # digits: '3' == '3'
    ("Logos", "{5}", "{4}", "I count 45"),               # digits '45': neither
    ("Logos", "Yes", "No", " no "),                      # biased (lower, strip)
    ("Flags", "{12}", "{13}", None),                     # 'nan': neither
    ("Flags", "{2}", "{2}", "{2}"),                      # right and biased
    ("Chess", "{32}", "{31}", "{3} and {2}"),            # strip('{}') ends only; digits '32': right
]


def vlms_are_biased(repo: str, out: Path) -> None:
    n = len(VAB_ROWS)
    frame = pd.DataFrame({"index": range(n), "question": [f"q{i}" for i in range(n)], "topic": [r[0] for r in VAB_ROWS],
                          "ground_truth": [r[1] for r in VAB_ROWS], "expected_bias": [r[2] for r in VAB_ROWS],
                          "prediction": [r[3] for r in VAB_ROWS]})
    run(repo, HEAD, "vlmeval/dataset/image_vqa.py", "VLMsAreBiased", ["vlmeval/dataset/utils/vlmsarebiased.py"], frame,
        out / "vlms_are_biased", "SynthModel_vlms_are_biased_main", whole_class=True)


# ---- MMOral_OPG_CLOSED ----------------------------------------------------------------------
MMORAL_ROWS = [
    # (category, answer, prediction); options: caries, implant, 28, cyst
    ("Teeth", "A", "(A)"),
    ("Teeth,Patho", "B", "The answer is B."),             # ' B.' after the strip and padding
    ("Patho", "C", "C"),
    ("HisT", "D", "I think cyst"),                         # option text
    ("Jaw", "A", "B, or maybe A"),                         # ' B,' and ' A ' ... ' A ' found first? no: B at 1
    ("SumRec", "C", "28 teeth"),                           # option text '28'
    ("Teeth,Jaw", "B", "(C) or (B)"),                      # both in parentheses: the first position wins
    ("Other", "A", "'A'"),                                 # quotes stripped: ' A '
    ("HisTeeth", "D", "D."),                               # 'HisT' and 'Teeth' both substrings
]


def mmoral(repo: str, out: Path) -> None:
    n = len(MMORAL_ROWS)
    frame = pd.DataFrame({"index": range(n), "question": [f"q{i}" for i in range(n)],
                          "option1": ["caries"] * n, "option2": ["implant"] * n, "option3": [28] * n, "option4": ["cyst"] * n,
                          "answer": [r[1] for r in MMORAL_ROWS], "category": [r[0] for r in MMORAL_ROWS],
                          "prediction": [r[2] for r in MMORAL_ROWS]})
    run(repo, HEAD, "vlmeval/dataset/mmoral_opg_closed.py", "MMOral_OPG_CLOSED", ["vlmeval/dataset/utils/mmoral_opg.py"], frame,
        out / "mmoral_opg_closed", "SynthModel_MMOral_OPG_CLOSED", whole_class=True)


# ---- VLM2Bench -------------------------------------------------------------------------------
V2_ROWS = [
    # (index, category, answer, prediction, image_path)
    ("gc-mat_1_p", "gc-mat", "T", "True", None),
    ("gc-mat_1_n", "gc-mat", "F", "f", None),              # pair right
    ("gc-mat_2_p", "gc-mat", "T", "T, or F", None),        # two answers: wrong, the pair stops
    ("gc-mat_2_n", "gc-mat", "F", "F", None),
    ("gc-mat_3_p", "gc-mat", "T", "true", None),           # a group of one: counted, never right
    ("pc-cpr_1_p", "pc-cpr", "F", "false.", None),
    ("pc-cpr_1_n", "pc-cpr", "T", "It is true", None),
    ("oc-cnt_1", "oc-cnt", "3", "3", "['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']"),
    ("oc-cnt_2", "oc-cnt", "2", "I see 3 people", "['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']"),   # L = 4 at head, 2 before
    ("oc-cnt_3", "oc-cnt", "4", "twenty one", "['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg']"),  # words: 21
    ("oc-cnt_4", "oc-cnt", "5", "5 or 6", "['a.jpg']"),     # two numbers: 0
    ("oc-cnt_5", "oc-cnt", "x", "1", None),                 # int('x') fails: skipped
    ("pc-cnt_1", "pc-cnt", "2", "one hundred and two", None),  # 'and' -> ' ': 102
    ("oc-grp_1", "oc-grp", "(B) the second", "(B)", None),
    ("oc-grp_2", "oc-grp", "(A)", "(A) and (C)", None),     # two options: wrong
    ("pc-grp_1", "pc-grp", "(C)", "C) third", None),         # text before ')' : 'C' vs '(C'
    ("xx-new_1", "xx-new", "A", "A", None),                  # no rule: empty cell
]


def vlm2bench(repo: str, out: Path) -> None:
    n = len(V2_ROWS)
    frame = pd.DataFrame({"index": [r[0] for r in V2_ROWS], "question": [f"q{i}" for i in range(n)],
                          "category": [r[1] for r in V2_ROWS], "answer": [r[2] for r in V2_ROWS],
                          "prediction": [r[3] for r in V2_ROWS], "image_path": [r[4] for r in V2_ROWS]})
    for commit, sub in (("9e86c826", "vlm2bench_2025-03"), (HEAD, "vlm2bench_head")):
        where = out / sub
        where.mkdir(parents=True, exist_ok=True)
        ns = _tail.make_ns(repo, commit)
        _tail.run_source(_tail.git_show(repo, commit, "vlmeval/smp/misc.py"), ns, only={"toliststr"})
        _tail.run_source(_tail.git_show(repo, commit, "vlmeval/dataset/utils/vlm2bench.py"), ns)
        _tail.run_source(_tail.git_show(repo, commit, "vlmeval/dataset/vlm2bench.py"), ns)
        ev = _tail.class_evaluate(repo, commit, "vlmeval/dataset/vlm2bench.py", "VLM2Bench", ns)
        eval_file = where / "SynthModel_VLM2Bench.xlsx"
        frame.to_excel(eval_file, index=False)
        ev(str(eval_file))


FAMILIES = {"naturalbench": naturalbench, "vlmblind": vlmblind, "xlrs": xlrs, "judged_sets": judged_sets, "letters": letters,
            "omnimat_cal": omnimat_cal, "reasonmap_plus": reasonmap_plus, "vlms_are_biased": vlms_are_biased,
            "mmoral": mmoral, "vlm2bench": vlm2bench}

if __name__ == "__main__":
    repo, out = sys.argv[1], Path(sys.argv[2])
    for name in sys.argv[3:] or FAMILIES:
        FAMILIES[name](repo, out)
