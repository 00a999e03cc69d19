"""Build the synthetic judged archives of this folder by running VLMEvalKit's own code.

Usage (a checkout or bare clone of open-compass/VLMEvalKit; pandas, numpy, openpyxl and
xlsxwriter installed):

    python make_synthetic.py /path/to/VLMEvalKit.git OUTDIR

For each era (c03bc048, 2024-07-27; e8e78f05, head 2026-08-18) the script loads, from that
commit, ``vlmeval/utils/matching_util.py`` (``can_infer``), ``vlmeval/dataset/utils/
multiple_choice.py`` (``mcq_vanilla_eval``, ``mcq_circular_eval``, ``report_acc``),
``vlmeval/dataset/utils/yorn.py`` (``YOrN_Extraction``, ``YOrN_auxeval``, ``POPE_rating``)
and, at head, ``vlmeval/dataset/utils/mmvet.py`` (``MMVet_auxeval``, ``MMVet_acc``), and the
``smp`` helpers they use (``load``/``dump``, ``process_punctuation``, ``build_option_str``,
...). Each top-level statement runs as it is; only the package-relative imports are
replaced by this namespace. ``track_progress_rich`` is replaced by a sequential loop with
the same ``save=`` behaviour (load the pickle, add ``keys[i] -> result``, dump). The
``evaluate`` glue of ``ImageMCQDataset``/``ImageYORNDataset``/``MMVet`` (file names, sort,
lower-casing, the judge-name map, the fallback to exact matching) is copied from the same
commit's ``vlmeval/dataset/image_mcq.py`` / ``image_yorn.py`` / ``image_vqa.py`` below.
The judge is a scripted stand-in (``FakeJudge``) whose replies are fixed per prediction;
``random`` is seeded so the random draw after three unreadable replies is reproducible.
"""

from __future__ import annotations

import ast
import os
import os.path as osp
import pickle
import random
import shutil
import string
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

ERAS = {"c03": "c03bc048e678d619accc1152ffa0cabe51d31309", "head": "e8e78f05"}


def git_show(repo: str, commit: str, path: str) -> str:
    return subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], capture_output=True, text=True, check=True).stdout


def run_source(src: str, ns: dict, only: set[str] | None = None) -> None:
    """Execute the module's top-level statements in ``ns``: package imports are skipped
    (``ns`` provides those names), a statement that fails (an optional import) is skipped."""
    tree = ast.parse(src)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("vlmeval")):
            continue
        if only is not None:
            names = {getattr(node, "name", None)} | {t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)}
            if not isinstance(node, (ast.Import, ast.ImportFrom)) and not (names & only):
                continue
        try:
            exec(compile(ast.Module([node], []), "<vlmeval>", "exec"), ns)  # noqa: S102 - runs VLMEvalKit's source on purpose
        except Exception:  # noqa: BLE001, S110 - optional imports of the upstream module
            pass


class Log:
    def info(self, *a, **k): pass
    def warning(self, *a, **k): pass
    def error(self, *a, **k): pass


def make_ns(repo: str, commit: str) -> dict:
    import types

    # load() checks validators.url(f) for remote files; these are all local paths.
    stub = types.ModuleType("validators")
    stub.url = lambda s: False
    sys.modules.setdefault("validators", stub)
    ns: dict = {"__name__": "vlmeval_stub", "pd": pd, "np": np, "osp": osp, "os": os, "rd": random, "string": string,
                "defaultdict": defaultdict, "pickle": pickle, "get_logger": lambda *a, **k: Log(), "logger": Log()}
    file_src = git_show(repo, commit, "vlmeval/smp/file.py")
    run_source(file_src, ns, only={"dump", "load", "get_pred_file_format", "get_file_extension", "get_intermediate_file_path",
                                   "get_eval_file_format", "NumpyEncoder"})
    run_source(git_show(repo, commit, "vlmeval/smp/misc.py"), ns, only={"process_punctuation", "istype", "listinstr", "cn_string",
                                                                          "timestr", "d2df", "punct", "commaStrip", "periodStrip",
                                                                          "contractions", "manualMap", "articles"})
    run_source(git_show(repo, commit, "vlmeval/smp/vlm.py"), ns, only={"build_option_str"})
    import datetime
    ns["datetime"] = datetime

    def track_progress_rich(func, tasks=(), nproc=1, chunksize=1, save=None, keys=None, **_):
        if save is not None and not osp.exists(save):
            ns["dump"]({}, save)
        out = []
        for i, t in enumerate(tasks):
            res = func(**t) if isinstance(t, dict) else func(*t) if isinstance(t, (tuple, list)) else func(t)
            out.append(res)
            if save is not None:
                ans = ns["load"](save)
                ans[keys[i]] = res
                ns["dump"](ans, save)
        return out

    ns["track_progress_rich"] = track_progress_rich
    run_source(git_show(repo, commit, "vlmeval/utils/matching_util.py"), ns)
    run_source(git_show(repo, commit, "vlmeval/dataset/utils/multiple_choice.py"), ns)
    run_source(git_show(repo, commit, "vlmeval/dataset/utils/yorn.py"), ns)
    if commit != ERAS["c03"]:
        run_source(git_show(repo, commit, "vlmeval/dataset/utils/mmvet.py"), ns)
        llava = dict(ns)  # its own namespace: llavabench.py has a build_prompt of its own
        run_source(git_show(repo, commit, "vlmeval/dataset/utils/llavabench.py"), llava)
        ns["_llava"] = llava
    return ns


class FakeJudge:
    """A judge whose replies are scripted per prediction (the text after 'Answer: ' in the
    MCQ prompt, the prediction in the Y/N and MMVet prompts); each call takes the next reply."""

    def __init__(self, script: dict[str, list[str]]):
        self.script = {k: list(v) for k, v in script.items()}

    def generate(self, prompt, **kwargs):
        for key, replies in self.script.items():
            if key in prompt:
                return replies.pop(0) if len(replies) > 1 else replies[0]
        return "Unknown reply"

    def working(self):
        return True


# ---------------------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------------------

OPTS = {"A": "cat", "B": "dog", "C": "teddy bear", "D": "rabbit"}


def mcq_rows() -> pd.DataFrame:
    preds = [
        ("A", "A"),                                    # rules: right
        ("B. dog", "C"),                               # rules: wrong
        ("it is a teddy bear", "C"),                   # rules: option text
        ("I would say the furry one", "B"),            # judge replies B: right
        ("maybe the pet that barks", "A"),             # judge replies B: wrong
        ("none of them really", "D"),                  # judge: 3 unreadable replies -> random draw
        ("hard to tell honestly", "A"),                # judge: API failure, then A
        (float("nan"), "B"),                           # no prediction -> judge replies Z
        ("D", "E"),                                    # answer not among the options (rules: wrong)
        ("the grey one", "C"),                         # judge replies C: right
        ("A and B both", "A"),                         # two letters: judge replies A
        ("C", "C"),                                    # rules: right
    ]
    rows = []
    for i, (p, a) in enumerate(preds):
        rows.append({"index": i + 1, "question": f"What is the main object {i}?", **OPTS, "answer": a,
                     "category": ["coarse_perception", "logic_reasoning"][i % 2], "l2-category": "perception",
                     "split": "dev", "prediction": p})
    return pd.DataFrame(rows)


MCQ_SCRIPT = {
    "I would say the furry one": ["B"],
    "maybe the pet that barks": ["B"],
    "none of them really": ["hmm", "no idea", "I cannot"],
    "hard to tell honestly": ["Failed to obtain answer via API. ", "A"],
    "Answer: nan\n": ["Z"],
    "the grey one": ["C"],
    "A and B both": ["A"],
}


def circular_rows() -> pd.DataFrame:
    """Questions 0..4, each with 2 rotations (index i and i + 1e6)."""
    rot = {"A": "B", "B": "C", "C": "D", "D": "A"}
    spec = [  # (answer, prediction of rotation 0, prediction of rotation 1)
        ("A", "A", "B"),                        # both read right: prefetch right
        ("B", "B", "A"),                        # rotation 1 read wrong: prefetch wrong
        ("C", "C", "the rotated bear"),         # rotation 1 open: judge right
        ("D", "the fluffy thing", "A"),         # rotation 0 open: judge wrong (rotation 1 read right)
        ("A", "A", "no clue at all"),           # rotation 1 open: judge unreadable -> random
    ]
    rows = []
    for q, (ans, p0, p1) in enumerate(spec):
        rows.append({"index": q, "question": f"Which one {q}?", **OPTS, "answer": ans, "category": "coarse_perception", "prediction": p0})
        rotated = {rot[k]: v for k, v in OPTS.items()}
        rows.append({"index": q + 1_000_000, "question": f"Which one {q}?", **dict(sorted(rotated.items())), "answer": rot[ans],
                     "category": "coarse_perception", "prediction": p1})
    return pd.DataFrame(rows)


CIRCULAR_SCRIPT = {
    "the rotated bear": ["D"],
    "the fluffy thing": ["B"],
    "no clue at all": ["??", "??", "??"],
}


def pope_rows() -> pd.DataFrame:
    preds = ["Yes", "No", "yes, there is", "I can not tell", "There might be one", "No.", "maybe", "Yes it is"]
    answers = ["Yes", "No", "Yes", "No", "Yes", "Yes", "No", "No"]
    cats = ["adversarial", "popular", "random", "adversarial", "popular", "random", "adversarial", "popular"]
    return pd.DataFrame({"index": range(1, 9), "question": [f"Is there a dog {i}?" for i in range(8)], "answer": answers,
                         "category": cats, "prediction": preds})


YORN_SCRIPT = {"I can not tell": ["Unknown", "Unknown", "Unknown", "Unknown", "Unknown"], "There might be one": ["Yes"], "maybe": ["No"]}


def mmvet_rows() -> pd.DataFrame:
    return pd.DataFrame({
        "index": [1, 2, 3, 4, 5, 6],
        "question": [f"q{i}" for i in range(6)],
        "answer": ["-1<AND>-5", "cat", "2", "red<OR>crimson", "yes", "a long answer"],
        "category": ["ocr,math", "rec", "ocr", "rec,know", "rec", "gen,spat"],
        "prediction": ["x = -1", "a cat", "3", "red", "yes", "short"],
    })


# Keyed by the question (the prompt's examples hold predictions such as "x = -1" too).
MMVET_SCRIPT = {"\nq0 | ": ["0.5"], "\nq1 | ": ["1.0"], "\nq2 | ": ["0.0"], "\nq3 | ": ["1.0"], "\nq4 | ": ["abc", "2", "0.9"],
                "\nq5 | ": ["x"] * 5}


def llava_rows() -> pd.DataFrame:
    cats = ["conv", "detail", "complex", "conv", "detail", "complex", "conv", "detail", "complex", "conv", "complex"]
    return pd.DataFrame({
        "index": range(len(cats)), "question": [f"lq{i}" for i in range(len(cats))], "caption": ["a photo"] * len(cats),
        "gpt4_ans": ["a reference answer"] * len(cats), "category": cats,
        "prediction": [f"model answer number {i}" for i in range(len(cats))],
    })


# Reviews: "reference model" scores on the first line; one that cannot be parsed (-1, -1).
LLAVA_SCRIPT = {f"model answer number {i}\n": [r] for i, r in enumerate(
    ["8 7\nok", "9, 6\nfine", "7 9\nbetter", "10 3\npoor", "6 6\nsame", "not a score", "8 8\nx", "9 5\ny", "7 2\nz",
     "8 10\nw", "9 7.5\nv"])}


# ---------------------------------------------------------------------------------------
# The evaluate() glue, as in each commit's dataset classes
# ---------------------------------------------------------------------------------------


def eval_mcq(ns, eval_file: str, judge_model, name_str: str, dataset: str, circular: bool) -> None:
    load, dump = ns["load"], ns["dump"]
    if circular:
        data = load(eval_file)
        data["index"] = [int(x) for x in data["index"]]
        dump(data, eval_file)
    suffix = eval_file.split(".")[-1]
    result_file = eval_file.replace(f".{suffix}", f"_{name_str}_result.pkl")
    data = load(eval_file)
    data = data.sort_values(by="index")
    data["prediction"] = [str(x) for x in data["prediction"]]
    for k in list(data.keys()):
        data[k.lower() if k not in list(string.ascii_uppercase) else k] = data.pop(k)
    meta = load(eval_file)
    fn = ns["mcq_circular_eval"] if circular else ns["mcq_vanilla_eval"]
    data = fn(judge_model, data, meta, 1, result_file, dataset)
    dump(data, eval_file.replace(f".{suffix}", f"_{name_str}_result.{suffix}"))
    data = load(eval_file.replace(f".{suffix}", f"_{name_str}_result.{suffix}"))
    acc = ns["report_acc"](data)
    dump(acc, eval_file.replace(f".{suffix}", "_acc.csv"))


def eval_yorn(ns, eval_file: str, judge_model) -> None:
    load, dump = ns["load"], ns["dump"]
    data = load(eval_file)
    data["prediction"] = [str(x) for x in data["prediction"]]
    storage = eval_file.replace(".xlsx", "_auxmatch.xlsx")
    tmp_file = eval_file.replace(".xlsx", "_tmp.pkl")
    ans_map = {k: ns["YOrN_Extraction"](v) for k, v in zip(data["index"], data["prediction"])}
    data["extracted"] = [ans_map[x] for x in data["index"]]
    unknown = data[data["extracted"] == "Unknown"]
    if judge_model is not None:
        lines = [unknown.iloc[i] for i in range(len(unknown))]
        tups = [(judge_model, line) for line in lines]
        indices = list(unknown["index"])
        if len(tups):
            res = ns["track_progress_rich"](ns["YOrN_auxeval"], tups, nproc=1, chunksize=1, keys=indices, save=tmp_file)
            for k, v in zip(indices, res):
                ans_map[k] = v
    data["extracted"] = [ans_map[x] for x in data["index"]]
    dump(data, storage)
    data = load(storage)
    data["score"] = data["answer"] == data["extracted"]
    dump(data, storage)
    score = ns["POPE_rating"](storage)
    dump(score, eval_file.replace(".xlsx", "_score.csv"))


def eval_mmvet(ns, eval_file: str, judge_model, name: str) -> None:
    load, dump = ns["load"], ns["dump"]
    storage = eval_file.replace(".xlsx", f"_{name}.xlsx")
    tmp_file = eval_file.replace(".xlsx", f"_{name}.pkl")
    data = load(eval_file)
    lines = [data.iloc[i] for i in range(len(data))]
    tups = [(judge_model, line) for line in lines]
    indices = [line["index"] for line in lines]
    ns["track_progress_rich"](ns["MMVet_auxeval"], tups, nproc=1, chunksize=1, keys=indices, save=tmp_file)
    ans = load(tmp_file)
    data["score"] = [ans[idx]["score"] for idx in data["index"]]
    data["log"] = [ans[idx]["log"] for idx in data["index"]]
    dump(data, storage)
    score, score_fine = ns["MMVet_acc"](storage)
    dump(score, storage.replace(".xlsx", "_score.csv"))
    dump(score_fine, storage.replace(".xlsx", "_score_fine.csv"))


class _Evil:
    """A pickle that runs a command when loaded (the test fixture of the safe unpickler): it
    creates ``gaia_fast_pickle_ran`` in the current folder."""

    def __reduce__(self):
        return (os.system, ("touch gaia_fast_pickle_ran",))


def write_evil(root: Path) -> None:
    d = root / "evil"
    d.mkdir(parents=True, exist_ok=True)
    (d / "m_MMStar_openai_result.pkl").write_bytes(pickle.dumps({1: {"hit": 1, "log": _Evil()}}, protocol=2))


def eval_llava(ns, eval_file: str, judge_model) -> None:
    """LLaVABench.evaluate (head): reviews -> {stem}_openai_result.xlsx -> _score.csv."""
    ns = ns["_llava"]
    load, dump = ns["load"], ns["dump"]
    record_file = eval_file.replace(".xlsx", "_openai_result.xlsx")
    data = load(eval_file)
    lines = [data.iloc[i] for i in range(len(data))]
    prompts = [ns["build_prompt"](line) for line in lines]
    scores = ns["track_progress_rich"](ns["LLaVABench_atomeval"], [(judge_model, p) for p in prompts], nproc=1, chunksize=1)
    data["gpt4_score"] = [x[0] for x in scores]
    data["score"] = [x[1] for x in scores]
    dump(data, record_file)
    data = load(record_file)
    ret = ns["LLaVABench_score"](data).round(1)
    dump(ret, eval_file.replace(".xlsx", "_score.csv"))


def main(repo: str, out: str) -> None:
    root = Path(out)
    write_evil(root)
    for era, commit in ERAS.items():
        ns = make_ns(repo, commit)
        judge_name = "openai" if era == "c03" else "gpt-4o-mini"
        d = root / f"synth_{era}"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        # Vanilla multiple choice, judged.
        random.seed(0)
        f = str(d / "m_MMStar.xlsx")
        ns["dump"](mcq_rows(), f)
        eval_mcq(ns, f, FakeJudge(MCQ_SCRIPT), judge_name, "MMStar", circular=False)
        # Circular, judged.
        random.seed(1)
        f = str(d / "m_CCBench.xlsx")
        ns["dump"](circular_rows(), f)
        eval_mcq(ns, f, FakeJudge(CIRCULAR_SCRIPT), judge_name, "CCBench", circular=True)
        # Yes / no, judged.
        f = str(d / "m_POPE.xlsx")
        ns["dump"](pope_rows(), f)
        eval_yorn(ns, f, FakeJudge(YORN_SCRIPT))
        # A judge-named file holding exact-matching results (no working judge: model None).
        e = root / f"synth_{era}_exact"
        shutil.rmtree(e, ignore_errors=True)
        e.mkdir(parents=True)
        for name, rows, circ in (("m_MMStar", mcq_rows(), False), ("m_CCBench", circular_rows(), True)):
            f = str(e / f"{name}.xlsx")
            ns["dump"](rows, f)
            eval_mcq(ns, f, None, judge_name, name.split("_", 1)[1], circular=circ)
        if era == "head":
            f = str(d / "m_MMVet.xlsx")
            ns["dump"](mmvet_rows(), f)
            eval_mmvet(ns, f, FakeJudge(MMVET_SCRIPT), "gpt-4-turbo")
            f = str(d / "m_LLaVABench.xlsx")
            ns["dump"](llava_rows(), f)
            eval_llava(ns, f, FakeJudge(LLAVA_SCRIPT))
        for p in sorted(root.glob(f"synth_{era}*/*")):
            print(p.relative_to(root))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
