"""Runs VLMEvalKit's own HiPhODataset.evaluate (e8e78f05) on the synthetic result files.

PKG: a folder holding ``vlmeval/`` with, verbatim from e8e78f05, dataset/hipho.py,
dataset/utils/hipho_verifier.py, dataset/utils/hipho_prompt_inference.py and
utils/mp_util.py (track_progress_rich: a ThreadPoolExecutor), and small stand-ins for
smp's load/dump/get_intermediate_file_path, ImageBaseDataset and build_judge (run.py gives
HiPhO no judge, so evaluate never builds one). Each result file is evaluated as run.py
does (``dataset.evaluate(result_file, nproc=4, ...)`` with no ``model``); an exception
evaluate raises is recorded in ``{stem}_reference_error.txt``. The files of the ``J`` model folder
are evaluated as a ``--judge fakejudge`` run, the judge being ``FakeJudge`` below.

Run: python run_reference.py PKG ARCHIVE_DIR   (sympy 1.14.0, math-verify 0.9.0,
pylatexenc 2.10, pandas, openpyxl, xlsxwriter, tqdm)
"""

import hashlib
import sys
import traceback
from pathlib import Path

sys.path.insert(0, sys.argv[1])
from vlmeval.dataset.hipho import HiPhODataset


class FakeJudge:
    """A deterministic stand-in for the judge of a ``--judge`` run: a marking criterion gets
    0, 0.5 or 1 point and an xverify question [Correct] or [Incorrect], by the prompt's MD5."""

    def working(self):
        return True

    def generate(self, prompt):
        h = int(hashlib.md5(prompt.encode("utf-8")).hexdigest(), 16)
        if "[Correct] or [Incorrect]" in prompt:
            return "[Correct]" if h % 3 == 0 else "[Incorrect]"
        return "The student earns \\boxed{" + ("0", "0.5", "1")[h % 3] + "} points."


def evaluate(path: Path, dataset: str, judge: str | None = None) -> None:
    ds = object.__new__(HiPhODataset)  # __init__ would download the data
    ds.dataset_name = dataset
    ds.language = HiPhODataset.DATASET_LANGUAGES.get(dataset, "en")
    ds.is_all_mode = dataset == "HiPhO_ALL"
    try:
        kwargs = {"nproc": 4, "verbose": False, "retry": 3, "timeout": 600}
        if judge:
            kwargs["model"] = judge
        ds.evaluate(str(path), **kwargs)
    except Exception:  # noqa: BLE001 - whatever evaluate raises is recorded
        path.with_name(path.stem + "_reference_error.txt").write_text(traceback.format_exc().splitlines()[-1] + "\n")


if __name__ == "__main__":
    root = Path(sys.argv[2])
    hipho_module = sys.modules["vlmeval.dataset.hipho"]
    hipho_module.build_judge = lambda **kw: FakeJudge()  # only the J/ files name a judge
    for p in sorted(root.glob("*/*.xlsx")):
        if p.stem.endswith(("_detailed",)):
            continue
        model = p.parent.name
        evaluate(p, p.stem[len(model) + 1:], "fakejudge" if model == "J" else None)
