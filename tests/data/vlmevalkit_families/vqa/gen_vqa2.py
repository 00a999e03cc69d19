"""Synthetic DA-2K and TDBench grounding result files (seeded, run once)."""
import random

import pandas as pd

random.seed(23)
# DA-2K: point labels, substring fallback, a repeated index (its rows take the first verdict).
dp = ["Point1 is closer", "point 2", "POINT2.", "the first one (point1)", "point3", None, "Point1", "point2 and point1",
      "closer: point1", "I think point2"]
da = ["point1", "point2", "point1", "point1", "point2", "point1", "point2", "point2", "point1", "point2"]
rows = []
for i in range(24):
    idx = i if i != 7 else 6  # index 6 twice
    rows.append(dict(index=idx, question=f"Which point is closer {i}?", answer=da[i % 10],
                     scene_category=["indoor", "outdoor", "aerial"][i % 3] if i != 11 else None, prediction=dp[i % 10]))
pd.DataFrame(rows).to_excel("m_DA-2K.xlsx", index=False, engine="xlsxwriter")

# TDBench grounding: boxes in several spellings; two groups; none; a zero-area pair for IoU.
tp = ["[0.1, 0.2, 0.5, 0.6]", "0.3,0.3,0.7,0.9", "[.2, .2, .4, .4]", "[0, 0, 1, 1]", "[0.1, 0.1, 0.2, 0.2] or [0.5, 0.5, 0.6, 0.6]",
      "no box", "[10, 20, 30, 40]", "[0.5,\n0.5, 0.5, 0.5]", None, "[0.25, 0.25, 0.75, 0.75]"]
ta = ["[0.0, 0.1, 0.6, 0.7]", "[0.2, 0.2, 0.8, 0.8]", "[0.5, 0.5, 0.9, 0.9]", "[0.4, 0.4, 0.6, 0.6]", "[0.1, 0.1, 0.3, 0.3]",
      "[0.1, 0.1, 0.3, 0.3]", "[0.1, 0.1, 0.3, 0.3]", "[0.5, 0.5, 0.5, 0.5]", "[0.1, 0.1, 0.3, 0.3]", "[0.3, 0.2, 0.9, 0.8]"]
rows = []
for i in range(20):
    j = i % 10
    rows.append(dict(index=(i * 7) % 20, question="the cup", answer=ta[j], category="visual_grounding", prediction=tp[j]))
pd.DataFrame(rows).to_excel("m_tdbench_grounding_rot90.xlsx", index=False, engine="xlsxwriter")
