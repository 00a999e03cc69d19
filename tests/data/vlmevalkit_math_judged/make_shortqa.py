"""Build the synthetic ImageShortQADataset archives by running VLMEvalKit's own code.

Usage: python make_shortqa.py /path/to/VLMEvalKit.git OUT   (pandas, numpy, xlsxwriter, openpyxl)

At head e8e78f05: ``ShortQA_auxeval`` and ``Comprehensive_auxeval`` (``vlmeval/dataset/
image_shortqa.py``), ``eval_vanilla`` / ``extract_answer_from_item`` / ``report_acc``
(``vlmeval/dataset/utils/multiple_choice.py``), ``ShortQA_prompt``
(``vlmeval/dataset/utils/shortqa.py``) and ``can_infer`` (``vlmeval/utils/matching_util.py``),
each module's source exec'd with its package imports replaced by the names they provide. The
glue below is ``ImageShortQADataset.evaluate`` (the branch without ``g_index``), with the
judge a scripted stand-in (a fixed reply per question; ``random`` seeded).
"""

import copy
import csv
import os
import pickle
import random
import re
import string
import subprocess
import sys
from collections import defaultdict

import numpy as np
import pandas as pd

COMMIT = "e8e78f05"
YES = "[Begin Correctness] Yes [End Correctness] [Begin Reason] matches [End Reason]"
NO = "[Begin Correctness] No [End Correctness] [Begin Reason] differs [End Reason]"
BOTH = "[Begin Correctness] yes or no [End Correctness]"
JUNK = "I cannot tell."
FAIL = "Failed to obtain answer via API."

# index, question, answer, A, B, C, category, split, prediction, judge replies (in order)
INFO = [
    (1, "Q1 What is written?", "STOP", None, None, None, "ocr", None, "It says STOP.", [YES]),
    (2, "Q2 How many cars?", "3", None, None, None, "count", None, "Four cars", [NO]),
    (3, "Q3 Which color?", "red", None, None, None, "color", None, "reddish", [JUNK, BOTH, YES]),
    (4, "Q4 Which animal?", "cat", None, None, None, "ocr", None, "a feline", [JUNK, JUNK, JUNK]),
    (5, "Q5 Pick one", "B", "dog", "cat", "cow", "count", None, "The answer is B", []),
    (6, "Q6 Pick one", "B", "dog", "cat", "cow", "color", None, "A", []),
    (7, "Q7 Pick one", "C", "dog", "cat", "cow", "ocr", None, "I think it is the bovine", ["C"]),
    (8, "Q8 Pick one", "A", "dog", "cat", "cow", "count", None, "no idea at all", [FAIL, "nothing", "none"]),
    (9, "Q9 Short with options", "dog", "dog", "cat", None, "color", None, "dog", [YES]),
    (10, "Q10 What time?", "5", None, None, None, "count", None, None, [NO]),
    (11, "Q11 Pick", "A", "", "x", None, "ocr", None, "A", [NO]),
]
SPLIT = [
    (1, "Q1 Element?", "Fe", None, None, None, "chem", "dev", "Iron (Fe)", [YES]),
    (2, "Q2 Pick", "A", "up", "down", None, "phys", "dev", "A", []),
    (3, "Q3 Pick", "B", "up", "down", None, "phys", "test", "C", ["B"]),
    (4, "Q4 Value?", "9.8", None, None, None, "phys", "test", "10", [NO]),
    (5, "Q5 Value?", "2", None, None, None, "chem", "test", "two", [YES]),
]


# index, g_index, question, answer, A, B, C, category, prediction, judge replies
CIRC = [
    (1, 1, "Q1 Pick", "A", "red", "blue", "green", "logic", "A", []),
    (1000001, 1, "Q1000001 Pick", "C", "blue", "green", "red", "logic", "C", []),
    (2, 2, "Q2 Pick", "B", "x", "y", "z", "math", "B", []),
    (1000002, 2, "Q1000002 Pick", "A", "y", "z", "x", "math", "C", []),
    (3, 3, "Q3 Pick", "C", "one", "two", "three", "logic", "it is the third", ["C"]),
    (1000003, 3, "Q1000003 Pick", "B", "two", "three", "one", "logic", "B", []),
    (4, 4, "Q4 How many?", "4", None, None, None, "math", "four", [YES]),
    (5, 5, "Q5 Pick", "A", "cat", "dog", "cow", "math", "hmm", ["none", "none", "none"]),
    (1000005, 5, "Q1000005 Pick", "C", "dog", "cow", "cat", "math", "C", []),
    (1000006, 6, "Q1000006 Pick", "A", "p", "q", "r", "logic", "A", []),
]


def source_of(git, path):
    return subprocess.run(["git", f"--git-dir={git}", "show", f"{COMMIT}:{path}"], capture_output=True, text=True, check=True).stdout


def strip_imports(src):
    return re.sub(r"^from (\.|vlmeval)[^\n(]*(\([^)]*\)|[^\n]*)", "", src, flags=re.M)


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


def cn_string(s):
    return re.search("[\u4e00-\u9fff]", s) is not None


def namespace(git):
    import logging

    base = {"pd": pd, "np": np, "re": re, "string": string, "os": os, "copy": copy, "cp": copy, "rd": random,
            "defaultdict": defaultdict, "get_logger": logging.getLogger, "logger": logging.getLogger("x"),
            "cn_string": cn_string, "load": load, "dump": dump}
    mu = dict(base)
    exec(compile(strip_imports(source_of(git, "vlmeval/utils/matching_util.py")), "matching_util.py", "exec"), mu)
    vlm = source_of(git, "vlmeval/smp/vlm.py")
    bos = vlm[vlm.index("def build_option_str"):]
    bos = bos[: bos.index("\ndef ", 5)]
    mc = dict(base, can_infer=mu["can_infer"], can_infer_lego=mu["can_infer_lego"])
    exec(bos, mc)
    exec(compile(strip_imports(source_of(git, "vlmeval/dataset/utils/multiple_choice.py")), "multiple_choice.py", "exec"), mc)
    sq = dict(base)
    exec(compile(strip_imports(source_of(git, "vlmeval/dataset/utils/shortqa.py")), "shortqa.py", "exec"), sq)
    ns = dict(base, eval_vanilla=mc["eval_vanilla"], eval_circular_group=mc["eval_circular_group"], ShortQA_prompt=sq["ShortQA_prompt"])
    src = source_of(git, "vlmeval/dataset/image_shortqa.py")
    seg = src[src.index("def ShortQA_auxeval"): src.index("class ImageShortQADataset")]
    exec(compile(seg, "image_shortqa.py", "exec"), ns)
    return ns, mc


class Judge:
    def __init__(self, script):
        self.script = {f"Q{k} ": list(v) for k, v in script.items()}

    def generate(self, prompt, temperature=0):
        hits = [k for k in self.script if k in prompt]
        assert len(hits) == 1, (hits, prompt[-300:])
        replies = self.script[hits[0]]
        assert replies, f"unexpected judge call for {hits[0]}"
        return replies.pop(0)


def run(git, out, name, rows):
    ns, mc = namespace(git)
    random.seed(7)
    os.makedirs(out, exist_ok=True)
    if name.endswith("_circular"):
        cols = ["index", "g_index", "question", "answer", "A", "B", "C", "category", "prediction"]
    else:
        cols = ["index", "question", "answer", "A", "B", "C", "category", "split", "prediction"]
    data = pd.DataFrame([r[:9] for r in rows], columns=cols)
    if "split" in data and data["split"].isna().all():
        data = data.drop(columns=["split"])
    eval_file = os.path.join(out, f"m_{name}.xlsx")
    dump(data, eval_file)
    judge = Judge({r[0]: r[9] for r in rows})
    # ImageShortQADataset.evaluate (no g_index), as at head.
    data = load(eval_file)
    assert "answer" in data and "prediction" in data
    data["prediction"] = [str(x) for x in data["prediction"]]
    data["answer"] = [str(x) for x in data["answer"]]
    storage = eval_file.replace(".xlsx", "_judge.xlsx")
    tmp_file = eval_file.replace(".xlsx", "_tmp.pkl")
    ans_map = {}
    if "g_index" not in data:
        lines = [data.iloc[i] for i in range(len(data))]
        indices = [x["index"] for x in lines]
    else:  # ImageShortQADataset.evaluate's g_index branch
        main_data = data[[x == y for x, y in zip(data["index"], data["g_index"])]]
        lines = [data[data["g_index"] == x] for x in main_data["index"]]
        indices = [x.iloc[0]["g_index"] for x in lines]
        data = main_data
    for k, line in zip(indices, lines):
        ans_map[k] = ns["Comprehensive_auxeval"](judge, line)
    dump(ans_map, tmp_file)  # track_progress_rich(save=tmp_file) keeps the same dict
    judge_results = [ans_map[x] for x in data["index"]]
    data["hit"] = [x["hit"] for x in judge_results]
    data["log"] = [x["log"] for x in judge_results]
    dump(data, storage)
    data = load(storage)
    acc = mc["report_acc"](data)
    dump(acc, eval_file.replace(".xlsx", "_acc.csv"))
    left = {k: v for k, v in judge.script.items() if v}
    assert not left, f"judge replies not asked for: {left}"


if __name__ == "__main__":
    git, out = sys.argv[1], sys.argv[2]
    run(git, os.path.join(out, "shortqa"), "LiveMMBench_Infographic", INFO)
    run(git, os.path.join(out, "shortqa"), "MMESCI_EN", SPLIT)
    run(git, os.path.join(out, "shortqa"), "LiveMMBench_Reasoning_circular", CIRC)
