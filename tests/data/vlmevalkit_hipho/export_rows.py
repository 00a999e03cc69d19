"""Writes expected_rows.json from the reference's per-row records (the ``{stem}_exact_matching.pkl``
and, for HiPhO_ALL, ``{stem}_{subset}_exact_matching.pkl`` files ``evaluate`` saves; ``_fakejudge``
for the judge run of the J folder): per result
file, per row index, the coarse- and fine-grained scores VLMEvalKit gave, or "FAIL" where its row raised.

Run: python export_rows.py ARCHIVE_DIR
"""

import json
import pickle
import sys
from pathlib import Path

import pandas as pd

SUBSETS = ["IPhO_2024", "IPhO_2025", "EuPhO_2024", "EuPhO_2025", "APhO_2025", "PanPhO_2024", "PanPhO_2025",
           "NBPhO_2024", "NBPhO_2025", "F_MA_2024", "F_MA_2025", "PanMechanics_2024", "PanMechanics_2025"]


def cell(v):
    if not isinstance(v, dict):
        return "FAIL"
    c = v["coarse_grained_score"]
    return {"coarse": c, "type": type(c).__name__, "points": v["item_total_points"], "fine": v["fine_grained_score"]}


def main(root):
    out = {}
    for xlsx in sorted(p for p in Path(root).glob("*/*.xlsx") if not p.stem.endswith("_detailed")):
        stem = xlsx.with_suffix("")
        judge = "fakejudge" if xlsx.parent.name == "J" else "exact_matching"  # run_reference.py's choice
        rows = {}
        if stem.name.endswith("HiPhO_ALL"):
            data = pd.read_excel(xlsx)
            for sub in SUBSETS:
                idx = [i for i, s in enumerate(data["SUB_DATASET"]) if s == sub]
                if not idx:
                    continue
                with open(f"{stem}_{sub}_{judge}.pkl", "rb") as fh:
                    rec = pickle.load(fh)
                for j, i in enumerate(idx):
                    rows[str(i)] = cell(rec.get(j))
        else:
            with open(f"{stem}_{judge}.pkl", "rb") as fh:
                rec = pickle.load(fh)
            rows = {str(i): cell(rec.get(i)) for i in range(len(rec))}
        out[f"{xlsx.parent.name}/{xlsx.name}"] = rows
    Path(root, "expected_rows.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
