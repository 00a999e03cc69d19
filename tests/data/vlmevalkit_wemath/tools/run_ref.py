"""Run VLMEvalKit's own WeMath.evaluate on the synthetic result files (scratch folder only).

Usage: python run_ref.py REF_DIR WORK_DIR COMMIT_TAG
  REF_DIR: a folder holding, from the VLMEvalKit commit, vlmeval/dataset/image_mcq.py,
           vlmeval/dataset/utils/{wemath,multiple_choice}.py, vlmeval/utils/matching_util.py
           and the load/dump bodies of vlmeval/smp/file.py (stand-ins for the rest of vlmeval:
           see README.md)
  WORK_DIR: gen.py's output (m_WeMath.xlsx, m_WeMath_COT.xlsx, e_WeMath.xlsx, judge_replies.json)

WeMath.evaluate is taken from image_mcq.py with ast and called with a stand-in ``self`` whose
``data`` (the dataset VLMEvalKit downloads) is the result file itself, and ``build_judge``
returns a stand-in judge that gives the scripted replies of judge_replies.json (matched by the
prediction inside the prompt). m_* files run with judge gpt-4o-mini (run.py's default for
WeMath), e_WeMath with exact_matching.
"""

import ast
import json
import os
import os.path as osp
import string
import sys
import textwrap
import warnings

ref, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, ref)
import pandas as pd  # noqa: E402

from vlmeval.smp import dump, load  # noqa: E402

src = open(osp.join(ref, "vlmeval/dataset/image_mcq.py")).read()
tree = ast.parse(src)
cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "WeMath")
fn = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "evaluate")
code = textwrap.dedent("\n".join(src.splitlines()[fn.lineno - 1:fn.end_lineno]))
code = code.replace("from .utils.", "from vlmeval.dataset.utils.")

replies = json.load(open(osp.join(work, "judge_replies.json")))


class Judge:
    def __init__(self, script):
        self.script = {k: list(v) for k, v in script.items()}
        self.calls = []

    def working(self):
        return True

    def generate(self, prompt):
        for pred, queue in self.script.items():
            if f"Answer: <start>\n{pred}\n<end>" in prompt or f"Answer: {pred}\n" in prompt:
                self.calls.append(pred)
                return queue.pop(0) if len(queue) > 1 else queue[0]
        raise AssertionError(f"unscripted judge prompt: {prompt[-200:]!r}")


def get_intermediate_file_path(eval_file, suffix, target_format=None):
    # vlmeval/smp/file.py (e8e78f05) with PRED_FORMAT / EVAL_FORMAT unset (xlsx)
    original_ext = eval_file.split(".")[-1]
    if target_format is None:
        if any(suffix.endswith(s) for s in ["_tmp", "_response", "_processed"]):
            target_format = "pkl"
        elif any(suffix.endswith(s) for s in ["_rating", "_config", "_meta"]):
            target_format = "json"
        else:
            target_format = "xlsx"
    return eval_file.replace(f".{original_ext}", f"{suffix}.{target_format}")


for stem, model in (("m_WeMath", "gpt-4o-mini"), ("m_WeMath_COT", "gpt-4o-mini"), ("e_WeMath", "exact_matching"), ("g_WeMath", "exact_matching")):
    judge = Judge(replies.get(stem, {}))
    ns = dict(
        osp=osp, os=os, pd=pd, string=string, warnings=warnings, load=load, dump=dump,
        build_judge=lambda **kw: judge, DEBUG_MESSAGE="", get_intermediate_file_path=get_intermediate_file_path,
    )
    exec(code, ns)
    eval_file = osp.join(work, f"{stem}.xlsx")

    class Self:
        dataset_name = stem.split("_", 1)[1]
        data = load(eval_file)

    out = ns["evaluate"](Self(), eval_file, model=model)
    print(stem, "judge calls:", len(judge.calls))
    print(out.T)
