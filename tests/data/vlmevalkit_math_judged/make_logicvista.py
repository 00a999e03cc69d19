"""Build the synthetic LogicVista archive by running VLMEvalKit's own code.

Usage: python make_logicvista.py /path/to/VLMEvalKit.git OUT   (pandas, numpy, xlsxwriter, openpyxl)

At head e8e78f05: ``LogicVista_auxeval`` and ``evaluate_logicvista``
(``vlmeval/dataset/utils/logicvista.py``, exec'd with its ``load`` import supplied); the glue
is ``LogicVista.evaluate`` (``{stem}_gpt4o-mini.pkl/.xlsx`` for judge gpt-4o-mini, the report
``{stem}_gpt4o-mini_score.csv``). The judge is a scripted stand-in (replies per question).
"""

import csv
import os
import pickle
import subprocess
import sys

import pandas as pd

COMMIT = "e8e78f05"
J = "gpt4o-mini"
FAIL = "Failed to obtain answer via API."
# index, answer, skill, prediction, judge replies
ROWS = [
    (1, "A", "inductive", "The answer is A", ["A"]),
    (2, "B", "deductive", "I pick C", ["C"]),
    (3, "A, C", "numerical, spatial", "A and C", ["CA"]),
    (4, "B, D", "spatial", "B only", ["B"]),
    (5, "D", "mechanical", "d", ["d", "D"]),
    (6, "C", "inductive, deductive", "unclear", [FAIL, "C."] + ["??"] * 3),
    (7, "E", "numerical", "none", ["Z"]),
    (8, "B", "deductive", "B", ["NA"]),
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
        self.replies = {r[0]: list(r[4]) for r in ROWS}

    def generate(self, prompt, temperature=0):
        hits = [r[0] for r in ROWS if f"Question {r[0]}: pick" in prompt]
        assert len(hits) == 1, prompt[-300:]
        queue = self.replies[hits[0]]
        assert queue, hits
        return queue.pop(0)


def main(git, out):
    src = source_of(git, "vlmeval/dataset/utils/logicvista.py").replace("from vlmeval.smp.file import load", "")
    ns = {"load": load}
    exec(compile(src, "logicvista.py", "exec"), ns)
    os.makedirs(out, exist_ok=True)
    data = pd.DataFrame(
        [(r[0], f"Question {r[0]}: pick the right options.", r[1], r[2], r[3]) for r in ROWS],
        columns=["index", "question", "answer", "skill", "prediction"],
    )
    eval_file = os.path.join(out, "m_LogicVista.xlsx")
    dump(data, eval_file)
    judge = Judge()
    storage = eval_file.replace(".xlsx", f"_{J}.xlsx")
    data = load(eval_file)
    ans = {line["index"]: ns["LogicVista_auxeval"](judge, line) for line in (data.iloc[i] for i in range(len(data)))}
    dump(ans, storage.replace(".xlsx", ".pkl"))
    data["res"] = [ans[idx]["res"] for idx in data["index"]]
    data["log"] = [ans[idx]["log"] for idx in data["index"]]
    data["hit"] = [ans[idx]["hit"] for idx in data["index"]]
    dump(data, storage)
    dump(ns["evaluate_logicvista"](storage), storage.replace(".xlsx", "_score.csv"))
    left = {k: v for k, v in judge.replies.items() if v and k != 6}
    assert not left, left


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
