"""Rebuild ``python/gaia_fast/data/vlmevalkit_datasets.csv`` from the VLMEvalKit dataset table
(``datasets.jsonl``: one object per dataset name, with the class whose ``evaluate`` grades it
and how it grades). Discovery reads it to tell a VLMEvalKit dataset gaia-fast has no flow for
from a name VLMEvalKit does not know, to name the nearest known datasets, and to grade an
unknown dataset by its table's shape only when VLMEvalKit would grade it with
``ImageMCQDataset.evaluate``.

    python scripts/vlmevalkit_datasets.py PATH/TO/datasets.jsonl
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "python" / "gaia_fast" / "data" / "vlmevalkit_datasets.csv"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table", type=Path)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = []
    with open(args.table, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            try:
                rows.append((obj["name"], obj["kind"], obj["evaluate_owner"], obj["grading"]))
            except KeyError as e:
                raise SystemExit(f"{args.table}:{lineno}: no field {e}") from None
    tmp = args.out.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(("name", "kind", "evaluate_owner", "grading"))
        w.writerows(sorted(rows))
    tmp.replace(args.out)


if __name__ == "__main__":
    main()
