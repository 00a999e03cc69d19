"""Build the synthetic MathVista_MINI archives by running VLMEvalKit's own code.

Usage: python make_synthetic.py /path/to/VLMEvalKit.git OUT   (pandas, numpy, xlsxwriter, openpyxl)

For each era the functions ``post_check``, ``MathVista_auxeval`` and ``MathVista_acc`` are
taken verbatim from the commit's source (the module's other imports are replaced by the
names they provide: ``can_infer`` from the same commit's ``vlmeval/utils/matching_util.py``,
``load``/``dump`` as VLMEvalKit's ``smp/file.py`` does them for xlsx/pkl/csv); the
``evaluate`` glue below follows ``MathVista.evaluate_heuristic`` (head) /
``MathVista_eval`` (2024). The judge is a scripted stand-in: a fixed reply per prediction.
"""

import csv
import json
import os
import pickle
import re
import subprocess
import sys
from collections import defaultdict

import pandas as pd

ERAS = {
    # name: (commit, mathvista source path, judge name)
    "head": ("e8e78f05", "vlmeval/dataset/utils/mathvista.py", "gpt-4o-mini"),
    "v2024_02": ("98e3733f", "vlmeval/evaluate/mathvista_eval.py", "gpt-4-turbo"),
}
FAIL_MSG = "Failed to obtain answer via API."

MC = "multi_choice"
FF = "free_form"
CH4 = "['3/11', '8/11', '6/11', '3/5']"
SK = "['arithmetic reasoning', 'algebraic reasoning']"
# index, question_type, answer_type, choices, answer, answer_option, task, skills, prediction, judge reply
ROWS = [
    (1, MC, "text", CH4, "8/11", "B", "figure question answering", SK, "The correct answer is (B) 8/11.", None),
    (2, MC, "text", CH4, "8/11", "B", "figure question answering", SK, "I choose C", None),
    (3, MC, "text", CH4, "8/11", "B", "textbook question answering", "['statistical reasoning']", "It is eight elevenths of the shape, so the second.", "B"),
    (4, MC, "text", CH4, "8/11", "B", "textbook question answering", "['statistical reasoning']", "Probably three fifths of the area is blue.", "D"),
    (5, MC, "text", CH4, "8/11", "B", "math word problem", "['algebraic reasoning']", "Hmm, unclear what to pick here.", FAIL_MSG),
    (6, MC, "text", "['12', '14', '16']", "14", "B", "math word problem", "['arithmetic reasoning']", "Cannot determine the answer", None),
    (7, MC, "text", "['red', 'blue']", "blue", "B", "visual question answering", "['scientific reasoning']", "the sky looks azure to me", "NA"),
    (8, FF, "integer", None, "14", None, "figure question answering", SK, "14", None),
    (9, FF, "integer", None, "14", None, "figure question answering", SK, "There are 14 apples.", "14"),
    (10, FF, "integer", None, "0", None, "math word problem", "['arithmetic reasoning']", "0", "0"),
    (11, FF, "integer", None, "7", None, "math word problem", "['arithmetic reasoning']", "seven point zero", "7.0"),
    (12, FF, "integer", None, "5", None, "geometry problem solving", "geometry reasoning", "The answer is 6.", "6"),
    (13, FF, "float", None, "1.45", None, "math word problem", "['arithmetic reasoning']", "1.45", None),
    (14, FF, "float", None, "0.6", None, "figure question answering", "['statistical reasoning']", "It is 0.60 of them.", " 0.60 "),
    (15, FF, "float", None, "2.5", None, "geometry problem solving", "['geometry reasoning', 'algebraic reasoning']", "About 2.4", "2.4"),
    (16, FF, "list", None, "[2007, 2008]", None, "figure question answering", "['statistical reasoning']", "Between 2007 and 2008.", "[2007, 2008]"),
    (17, FF, "integer", None, "3", None, "visual question answering", "['numeric commonsense']", "None", "3"),
    (18, FF, "float", None, "0", None, "math word problem", "['arithmetic reasoning']", "0.0", "0.0"),
    (19, MC, "text", "['yes', 'no']", "no", "B", "visual question answering", "['logical reasoning']", "no", None),
    (20, FF, "integer", None, "12", None, "geometry problem solving", "['geometry reasoning']", "x = 12 degrees", "All 5 fail"),
]


def source_of(git, commit, path):
    return subprocess.run(["git", f"--git-dir={git}", "show", f"{commit}:{path}"], capture_output=True, text=True, check=True).stdout


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


def namespace(git, commit, path):
    ns = {"pd": pd, "defaultdict": defaultdict, "FAIL_MSG": FAIL_MSG, "load": load, "os": os, "copy": __import__("copy")}
    mu = source_of(git, commit, "vlmeval/utils/matching_util.py")
    mu = re.sub(r"^from (\.\.|vlmeval).*$", "", mu, flags=re.M)
    mns = {"get_logger": __import__("logging").getLogger, "string": __import__("string")}
    exec(compile(mu, "matching_util.py", "exec"), mns)
    ns["can_infer"] = mns["can_infer"]
    src = source_of(git, commit, path)
    start = src.index("def get_gpt4_ICE")
    end = src.index("def MathVista_eval") if "def MathVista_eval" in src else len(src)
    exec(compile(src[start:end], path, "exec"), ns)
    return ns


class Judge:
    def __init__(self, replies):
        self.replies = replies

    def generate(self, prompt, temperature=0):
        for idx, reply in self.replies.items():
            if f"Question {idx}: " in prompt:
                if reply == "All 5 fail":
                    return FAIL_MSG if "api" in self.__dict__.get("mode", "api") else None
                return reply
        raise AssertionError("no scripted reply")


def run(git, out, era):
    commit, path, judge_name = ERAS[era]
    ns = namespace(git, commit, path)
    os.makedirs(out, exist_ok=True)
    cols = ["index", "question", "answer", "question_type", "answer_type", "choices", "answer_option", "task", "skills", "prediction"]
    data = pd.DataFrame(
        [(r[0], f"Question {r[0]}: Hint: answer it.", r[4], r[1], r[2], r[3], r[5], r[6], r[7], r[8]) for r in ROWS], columns=cols
    )
    eval_file = os.path.join(out, "m_MathVista_MINI.xlsx")
    dump(data, eval_file)
    data = load(eval_file)
    replies = {r[0]: r[9] for r in ROWS if r[9] is not None}
    judge = Judge(replies)
    if era != "head":
        judge.mode = "none"  # the 2024 loop reads a None reply as a failure
    storage = eval_file.replace(".xlsx", f"_{judge_name}.xlsx")
    tmp_file = eval_file.replace(".xlsx", f"_{judge_name}.pkl")
    ans = {}
    for i in range(len(data)):
        line = data.iloc[i]
        ans[line["index"]] = ns["MathVista_auxeval"](judge, line)
    dump(ans, tmp_file)
    data["res"] = [ans[idx]["res"] for idx in data["index"]]
    data["log"] = [ans[idx]["log"] for idx in data["index"]]
    dump(data, storage)
    score = ns["MathVista_acc"](storage)
    dump(score, storage.replace(".xlsx", "_score.csv"))
    # Each row's verdict: post_check(prefetch=False) on the re-read storage, as MathVista_acc calls it.
    stored = load(storage)
    return {str(stored.iloc[i]["index"]): int(bool(ns["post_check"](stored.iloc[i], prefetch=False))) for i in range(len(stored))}


if __name__ == "__main__":
    git, out = sys.argv[1], sys.argv[2]
    hits = {era: run(git, os.path.join(out, era), era) for era in ERAS}
    with open(os.path.join(out, "expected_hits.json"), "w") as f:
        json.dump(hits, f, indent=1, sort_keys=True)
        f.write("\n")
