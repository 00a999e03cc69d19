"""Build the synthetic MathVerse archive by running VLMEvalKit's own code.

Usage: python make_mathverse.py /path/to/VLMEvalKit.git OUT   (pandas, numpy, xlsxwriter, openpyxl)

At head e8e78f05 (the same functions from a18f5d69, 2024-12-06): ``MathVerse_auxeval_extract``,
``post_check_score``, ``MathVerse_auxeval_score`` and ``MathVerse_acc``
(``vlmeval/dataset/utils/mathverse.py``, exec'd with its one package import replaced by
``load``); the glue is ``MathVerse.evaluate`` (stage 1 extract, stage 2 score, the report
``{stem}_{J}_score.csv``). The judge is a scripted stand-in: per question, its extraction
reply, then (when the rule does not decide) its score replies.
"""

import csv
import os
import pickle
import subprocess
import sys

import pandas as pd

COMMIT = "e8e78f05"
J = "gpt-4o-mini"
FAIL = "Failed to obtain answer via API."


def meta(subject, subfield, version=None):
    d = {"split": "testmini", "source": "GeoQA", "subject": subject, "subfield": subfield}
    return str(d)


# index, answer, problem_version, metadata, prediction, extract replies, score replies
ROWS = [
    (1, "A", "Text Dominant", meta("plane geometry", "length"), "The answer is A", ["A"], []),
    (2, "B", "Text Dominant", meta("plane geometry", "angle"), "It is C", ["C"], ["0"]),
    (3, "5", "Text Dominant", meta("solid geometry", "area"), "x = 5.0", ["5.0"], ["1"]),
    (4, "3", "Vision Only", meta("plane geometry", "length"), "three", [" 3 "], []),
    (5, "\\frac{1}{2}", "Vision Only", meta("functions", "coordinate"), "one half", ["1/2"], ["maybe", "1"]),
    (6, "C", "Vision Only", meta("plane geometry", "angle"), "unclear", [FAIL] * 5, ["0"]),
    (7, "D", "Text Lite", meta("solid geometry", "volume"), "D", ["D"], []),
    (8, "12", "Text Lite", meta("functions", "coordinate"), "about 13", ["13"], ["x"] * 5),
]


def source_of(git, path):
    return subprocess.run(["git", f"--git-dir={git}", "show", f"{COMMIT}:{path}"], capture_output=True, text=True, check=True).stdout


def load(f):
    if f.endswith(".pkl"):
        return pickle.load(open(f, "rb"))
    return pd.read_excel(f)


def dump(data, f):
    if f.endswith(".pkl"):
        pickle.dump(data, open(f, "wb"))
    elif f.endswith(".csv"):
        data.to_csv(f, index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
    else:
        with pd.ExcelWriter(f, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
            data.to_excel(w, index=False)


class Judge:
    def __init__(self):
        self.extract = {r[0]: list(r[5]) for r in ROWS}
        self.score = {r[0]: list(r[6]) for r in ROWS}

    def generate(self, prompt, temperature=0):
        scoring = "[Model_answer]" in prompt
        if scoring:  # the score prompt holds the question, the extraction prompt only the response
            hits = [r[0] for r in ROWS if f"[Question]: Question {r[0]}:" in prompt]
        else:
            hits = [r[0] for r in ROWS if f"Model response: '{r[4]}'" in prompt]
        assert len(hits) == 1, prompt[-400:]
        queue = (self.score if scoring else self.extract)[hits[0]]
        assert queue, f"unexpected judge call for question {hits[0]}"
        return queue.pop(0)


def main(git, out):
    src = source_of(git, "vlmeval/dataset/utils/mathverse.py").replace("from vlmeval.smp.file import load", "")
    ns = {"load": load}
    exec(compile(src, "mathverse.py", "exec"), ns)
    os.makedirs(out, exist_ok=True)
    data = pd.DataFrame(
        [(r[0], f"Question {r[0]}: find it.", f"Question {r[0]}: find it.", r[1], r[2], r[3], r[4]) for r in ROWS],
        columns=["index", "question", "question_for_eval", "answer", "problem_version", "metadata", "prediction"],
    )
    eval_file = os.path.join(out, "m_MathVerse_MINI.xlsx")
    dump(data, eval_file)
    judge = Judge()
    storage_extract = eval_file.replace(".xlsx", f"_{J}_extract.xlsx")
    storage_score = eval_file.replace(".xlsx", f"_{J}_score.xlsx")
    # stage 1 (MathVerse.evaluate)
    data = load(eval_file)
    ans = {line["index"]: ns["MathVerse_auxeval_extract"](judge, line) for line in (data.iloc[i] for i in range(len(data)))}
    dump(ans, storage_extract.replace(".xlsx", ".pkl"))
    data["extract"] = [ans[idx]["extract"] for idx in data["index"]]
    data["log_extract"] = [ans[idx]["log_extract"] for idx in data["index"]]
    dump(data, storage_extract)
    # stage 2
    data = load(storage_extract)
    ans = {line["index"]: ns["MathVerse_auxeval_score"](judge, line) for line in (data.iloc[i] for i in range(len(data)))}
    dump(ans, storage_score.replace(".xlsx", ".pkl"))
    data["score"] = [ans[idx]["score"] for idx in data["index"]]
    data["log_score"] = [ans[idx]["log_score"] for idx in data["index"]]
    dump(data, storage_score)
    score = ns["MathVerse_acc"](storage_score)
    dump(score, storage_score.replace(".xlsx", ".csv"))
    left = {k: v for k, v in {**judge.extract, **judge.score}.items() if v}
    assert not left, left


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
