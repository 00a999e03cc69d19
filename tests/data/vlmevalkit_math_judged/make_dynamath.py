"""Build the synthetic DynaMath archive by running VLMEvalKit's own code.

Usage: python make_dynamath.py /path/to/VLMEvalKit.git OUT   (pandas, numpy, xlsxwriter, openpyxl)

At head e8e78f05: ``preprocess``, ``transfer``, ``parse_answer``, ``DynaMath_auxeval`` and
``Dynamath.evaluate`` (``vlmeval/dataset/dynamath.py``; the module-level functions exec'd,
``evaluate``'s body run as a function with ``build_judge`` returning the scripted judge and
``track_progress_rich`` a plain loop that saves the same ``{index: result}`` pickle). Judge
gpt-4o-mini: ``{stem}_gpt-4o-mini.{pkl,xlsx}``, the report ``{stem}_gpt-4o-mini_score.csv``.
"""

import csv
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pandas as pd

COMMIT = "e8e78f05"
MC, FL, FF = "multiple choice", "float", "free-form"


def js(short):
    return json.dumps({"solution": "steps", "short answer": short})


# index, qid, varid, subject, knowledge_level, answer_type, answer, prediction, judge reply
ROWS = [
    (1, 1, 1, "algebra", "high school", MC, "B", js("B"), None),
    (2, 1, 2, "algebra", "high school", MC, "B", js("C"), None),
    (3, 3, 1, "geometry", "elementary", FL, "3.142", js("3.1416"), None),
    (4, 3, 2, "geometry", "elementary", FL, "6.283", "2\u03c0 roughly", None),
    (5, 5, 1, "graph", "undergraduate", FF, "yes", js("Yes"), None),
    (6, 5, 2, "graph", "undergraduate", FF, "no", "I think not, so maybe", None),
    (7, 7, 1, "algebra", "undergraduate", MC, "D", "The options A and D look close; I pick the last", "D"),
    (8, 7, 2, "algebra", "undergraduate", MC, "D", "Both A and B could fit", "none"),
    (9, 9, 1, "geometry", "high school", FL, "1.5", "about one and a half", "1.500"),
    (10, 9, 2, "geometry", "high school", FL, "1.5", '{"short answer": 1.5}', "1.5"),
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
    system_prompt = None

    def generate(self, prompt):
        for r in ROWS:
            if r[8] is not None and prompt.startswith(f"Free-form answer: {r[7]}\n"):
                return r[8]
        raise AssertionError(prompt)


def track_progress_rich(func, payloads, nproc=1, save=None, keys=None):
    results = [func(**p) for p in payloads]
    dump(dict(zip(keys, results)), save)
    return results


def main(git, out):
    src = source_of(git, "vlmeval/dataset/dynamath.py")
    head = src[src.index("def preprocess"): src.index("class Dynamath")]
    body = src[src.index("    def evaluate(self, eval_file, **judge_kwargs):"):]
    body = body[: body.index("    @classmethod")]
    body = "\n".join(line[4:] if line.startswith("    ") else line for line in body.split("\n")).replace("def evaluate(self, eval_file", "def evaluate(eval_file")
    ns = {
        "json": json, "np": np, "pd": pd, "os": os, "osp": os.path, "load": load, "dump": dump,
        "d2df": lambda D: pd.DataFrame({x: [D[x]] for x in D}),
        "get_intermediate_file_path": lambda f, suffix, ext=None: f.rsplit(".", 1)[0] + suffix + "." + (ext or "xlsx"),
        "build_judge": lambda model, **kw: Judge(), "track_progress_rich": track_progress_rich,
    }  # fmt: skip
    exec(compile(head, "dynamath.py", "exec"), ns)
    exec(compile(body, "dynamath.py", "exec"), ns)
    os.makedirs(out, exist_ok=True)
    data = pd.DataFrame(
        [r[:8] for r in ROWS],
        columns=["index", "qid", "varid", "subject", "knowledge_level", "answer_type", "answer", "prediction"],
    )
    eval_file = os.path.join(out, "m_DynaMath.xlsx")
    dump(data, eval_file)
    ns["evaluate"](eval_file, model="gpt-4o-mini")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
