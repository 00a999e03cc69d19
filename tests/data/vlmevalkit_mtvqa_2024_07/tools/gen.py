"""Write the synthetic MTVQA_TEST result file (run once). Usage: python gen.py OUT_DIR

Rows where the 2024-07 rule and head's differ: answers with periods (kept by 2024-07, removed
at head), a number answer cell, a missing prediction ("nan"), a 'dev' split (head asserts
'test'), surrounding spaces and capitals; categories in an unsorted first-seen order."""

import sys

import numpy as np
import pandas as pd

ROWS = [
    # category, answer, prediction
    ("VI", "Hà Nội", "Thành phố Hà Nội."),
    ("AR", "U.S.A.", "It says U.S.A. on the sign"),
    ("AR", "3.5", "The price is 3.5 dollars"),
    ("VI", "  Phở ", "phở bò"),
    ("DE", "Straße", "STRASSE"),
    ("DE", "Berlin.", "berlin"),
    ("FR", 12, "12 euros"),
    ("FR", 7, "seven"),
    ("JA", "東京", np.nan),
    ("JA", "nan", np.nan),
    ("AR", "42", "4.2"),
    ("KR", "서울", "서울특별시"),
    ("VI", "Mr.", "mr"),
    ("FR", "Paris", "  PARIS. "),
]

if __name__ == "__main__":
    df = pd.DataFrame(
        {
            "index": range(len(ROWS)),
            "question": [f"question {i}" for i in range(len(ROWS))],
            "answer": [r[1] for r in ROWS],
            "category": [r[0] for r in ROWS],
            "split": ["test"] * (len(ROWS) - 1) + ["dev"],
            "prediction": [r[2] for r in ROWS],
        }
    )
    df.to_excel(f"{sys.argv[1]}/m_MTVQA_TEST.xlsx", index=False, engine="openpyxl")
