"""Build a VLMEvalKit outputs tree with run folders, the way VLMEvalKit's ``run.py`` writes
one (see README.md here for the upstream code each step follows).

    python tests/data/vlmevalkit_runs/build_tree.py OUT [--links native|dangling|copies]

``native``: each run links its files into the model folder as that VLMEvalKit version did
(absolute links for ``T{date}_G{commit}`` runs, relative ones for ``T{date}-{time}`` runs).
``dangling``: the tree as copied from another machine: every absolute link points to the
machine it was written on (``/mnt/cluster/...``), which does not exist here.
``copies``: every link replaced by a copy of its target (``cp -rL``, a zip, a Hub upload).

The result files come from ``tests/data/vlmevalkit_tree`` (real VILA-1.5 archives); the older
run's MMStar has its predictions changed so the two runs differ.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

import polars as pl

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "vlmevalkit_tree" / "vila_8b"
#: Where the trees' absolute links point in the ``dangling`` variant (the writing machine).
ELSEWHERE = Path("/mnt/cluster/vlmevalkit/outputs")

#: Runs of the sample, oldest first: (model, eval_id, {file name: source}); a source is a
#: path under SAMPLE, a polars frame, or text.
OLD_COMMIT = "52a50e32"  # VLMEvalKit main, committed 2024-11-20 (UTC)
NEW_COMMIT = "c3371551"  # 2025-08-04: can_infer's 2025-08 rules
STATUS_COMMIT = "8044745b"  # 2026-05-11, recorded in status.json (the 2026 layout)
UNKNOWN_COMMIT = "deadbeef"  # on no VLMEvalKit main line


def _mcq_frame(rows: int = 6, question: bool = True) -> pl.DataFrame:
    data = {
        "index": list(range(rows)),
        **({"question": [f"Which colour is item {i}?" for i in range(rows)]} if question else {}),
        "A": ["red"] * rows,
        "B": ["blue"] * rows,
        "C": ["green"] * rows,
        "answer": ["A", "B", "C", "A", "B", "C"][:rows],
        "category": ["colour"] * rows,
        "prediction": ["A", "B", "The answer is C", "B", "I think B", "no idea"][:rows],
    }
    return pl.DataFrame(data)


def _vqa_frame() -> pl.DataFrame:
    return pl.DataFrame({"index": [0, 1], "question": ["How many?", "What?"], "answer": ["3", "cat"], "prediction": ["3", "dog"]})


def _older_mmstar() -> pl.DataFrame:
    frame = pl.read_excel(SAMPLE / "vila_8b_MMStar.xlsx", infer_schema_length=0)
    return frame.with_columns(pl.lit("A").alias("prediction"))


def runs() -> list[tuple[str, str, dict[str, object]]]:
    m = "vila_8b"
    return [
        (m, f"T20241120_G{OLD_COMMIT}", {
            f"{m}_MMStar.xlsx": _older_mmstar(),
            f"{m}_MMStar_acc.csv": "split,Overall\nnone,0.1\n",
            f"{m}_RealWorldQA.xlsx": SAMPLE / "vila_8b_RealWorldQA.xlsx",
        }),
        (m, f"T20250810_G{NEW_COMMIT}", {
            f"{m}_MMStar.xlsx": SAMPLE / "vila_8b_MMStar.xlsx",
            f"{m}_MMStar_acc.csv": SAMPLE / "vila_8b_MMStar_acc.csv",
            f"{m}_MMStar_gpt-4o-mini_result.xlsx": SAMPLE / "vila_8b_MMStar.xlsx",
            f"{m}_MMStar_gpt-4o-mini_result.pkl": b"\x80\x04}\x94.",
            f"{m}_MMMU_DEV_VAL_gpt-4o-mini.xlsx": _vqa_frame(),  # a judge file whose result is gone
            f"{m}_CharXiv_reasoning_val.xlsx": _vqa_frame(),  # VLMEvalKit knows it; no flow here
            f"{m}_CharXiv_reasoning_val_gpt-4o-mini.xlsx": _vqa_frame(),  # its judge records
            f"{m}_CharXiv_reasoning_val_gpt-4o-mini.pkl": b"\x80\x04}\x94.",
            f"{m}_MyShapeBench.xlsx": _mcq_frame(),  # unknown, multiple-choice shape
            f"{m}_MyShapeBench_acc.csv": "split,Overall\nnone,0.5\n",
            f"{m}_MyCircularSet.xlsx": _mcq_frame(),  # unknown, circular by its name
            f"{m}_MMStarr.xlsx": _vqa_frame(),  # unknown, not the shape: nearest names
            f"{m}_MMVet.xlsx": _vqa_frame(),  # listed unsupported (judge-scored)
            f"{m}_MMVet_gpt4.xlsx": _vqa_frame(),
            f"{m}_MMVet_gpt4.pkl": b"\x80\x04}\x94.",
            f"{m}_MMVet_gpt4_score.csv": "Category,tot,acc\nOverall,2,50.0\n",
        }),
        ("llava_7b", f"T20250101_G{UNKNOWN_COMMIT}", {
            "llava_7b_MMStar.xlsx": SAMPLE / "vila_8b_MMStar.xlsx",
            "llava_7b_POPE.xlsx": SAMPLE / "vila_8b_POPE.xlsx",
        }),
        ("qwen_vl", "T20250601_Gunknown", {
            "qwen_vl_RealWorldQA.xlsx": SAMPLE / "vila_8b_RealWorldQA.xlsx",
        }),
        ("qwen_vl", "T20260515-101500", {
            "qwen_vl_MMStar.xlsx": SAMPLE / "vila_8b_MMStar.xlsx",
            "status.json": {"schema_version": "1.0", "eval_id": "T20260515-101500", "commit": STATUS_COMMIT, "model_name": "qwen_vl"},
        }),
    ]


def _write(path: Path, source: object) -> None:
    if isinstance(source, Path):
        shutil.copyfile(source, path)
    elif isinstance(source, pl.DataFrame):
        source.write_excel(path, autofit=False)
    elif isinstance(source, dict):
        path.write_text(json.dumps(source, indent=2), encoding="utf-8")
    elif isinstance(source, bytes):
        path.write_bytes(source)
    else:
        path.write_text(str(source), encoding="utf-8")


def build(root: str | os.PathLike, links: str = "native") -> Path:
    """Write the tree under ``root`` (created) and return it."""
    if links not in ("native", "dangling", "copies"):
        raise ValueError(f"links: native, dangling or copies, not {links!r}")
    root = Path(root)
    for model, eval_id, files in runs():
        meta = root / model
        run = meta / eval_id
        run.mkdir(parents=True, exist_ok=True)
        for name, source in files.items():
            _write(run / name, source)
        legacy = "_G" in eval_id
        # run.py, after each dataset: every file of the run whose name holds
        # {model}_{dataset} (and status.json) is linked into the model folder, replacing
        # an older link. The sample links file by file, which gives the same links.
        for name in sorted(files):
            link = meta / name
            if link.is_symlink() or link.exists():
                link.unlink()
            if links == "copies":
                shutil.copyfile(run / name, link)
            elif legacy:  # 2024-11 .. 2026-04: os.symlink(osp.join(cwd, pred_root, f), ...)
                base = ELSEWHERE if links == "dangling" else root.resolve()
                os.symlink(base / model / eval_id / name, link)
            else:  # 2026-04 on: link_addr.symlink_to(file_addr.relative_to(pred_root_meta))
                os.symlink(Path(eval_id) / name, link)
    # A pre-2024-11 model folder: results written straight into it.
    flat = root / "instructblip_7b"
    flat.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SAMPLE / "vila_8b_MMStar.xlsx", flat / "instructblip_7b_MMStar.xlsx")
    shutil.copyfile(SAMPLE / "vila_8b_MMStar_acc.csv", flat / "instructblip_7b_MMStar_acc.csv")
    return root


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--links", default="native", choices=("native", "dangling", "copies"))
    args = ap.parse_args()
    build(args.out, args.links)


if __name__ == "__main__":
    main()
