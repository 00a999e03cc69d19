"""Synthetic PHYSICS rows (the Physics_yale result-file layout): the dataset TSV
(index, question, answer, category, image_path) and the result file (the same columns
plus prediction)."""
import pandas as pd

rows = [
    ("\\frac{1}{2}", "The answer is \\[\\boxed{0.5}\\]"),
    ("10.2", "So \\boxed{10.2\\ \\text{eV}}"),
    ("x^2+2x+1", "\\boxed{(x+1)^2}"),
    ("3", "\\boxed{3} and again \\boxed{3}"),
    ("3", "\\boxed{3} or \\boxed{4}"),
    ("['2', '4']", "\\boxed{4}"),
    ("7", "no box here, 7"),
    ("0.3", "\\boxed{0.1+0.2}"),
    ("\\sqrt{2}", "\\boxed{1.41421356}"),
    ("2\\pi", "\\boxed{2 \\pi}"),
    ("5", None),
    ("The singlet state", "\\boxed{\\text{The singlet state}}"),
    ("12", "\\boxed{12}"),
    ("e^{-x}", "\\boxed{\\exp(-x)}"),
]
cats = ["electro", "electro", "mechanics", "optics", "optics", "quantum", "electro", "statistics",
        "atomic", "atomic", "quantum", "atomic", "mechanics", "optics"]
tsv = pd.DataFrame([dict(index=i, question=f"Question {i}?", answer=a, category=c, image_path=f"{i}.png")
                    for i, ((a, _), c) in enumerate(zip(rows, cats))])
tsv.to_csv("physics.tsv", sep="\t", index=False)
res = tsv.copy()
res["prediction"] = [p for _, p in rows]
for name in ("electro_dataset", "Physics"):
    res.to_excel(f"m_{name}.xlsx", index=False, engine="xlsxwriter")
