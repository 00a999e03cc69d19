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


FAMILIES = {"naturalbench": naturalbench}

if __name__ == "__main__":
    repo, out = sys.argv[1], Path(sys.argv[2])
    for name in sys.argv[3:] or FAMILIES:
        FAMILIES[name](repo, out)
