"""Synthetic ChartQAPro result files (seeded, run once): answers as the TSV holds them (a list
literal), year flags, question types, list answers, percentages, text (ANLS)."""
import random

import pandas as pd

random.seed(24)
cases = [
    # (answer literal, year literal, question type, prediction)
    ("['12']", "['NO']", "Reasoning", "12.4"),
    ("['12']", "['NO']", "Reasoning", "13"),
    ("['2019']", "['YES']", "Reasoning", "2019."),
    ("['2019']", "['YES']", "Reasoning", "2020"),
    ("['45%']", "['NO']", "Factoid", "45"),
    ("['0']", "['NO']", "Factoid", "0.0"),
    ("['Blue line']", "['NO']", "Factoid", "blue line"),
    ("['Blue line']", "['NO']", "Factoid", "Blue lines"),
    ("['Blue line']", "['NO']", "Factoid", "red"),
    ("['[a, b, c]']", "['NO', 'NO', 'NO']", "Multi Choice", "['a', 'b', 'c']"),
    ("['[1, 2]']", "['NO']", "Multi Choice", "['1', '2', '3']"),
    ("['What?', 'True']", "['NO', 'NO']", "Conversational", "True"),
    ("['Q1', '1990']", "['NO', 'YES']", "Conversational", "1990\n"),
    ("['Yes']", "['NO']", "Fact Checking", "yes."),
    ("['3.5']", "['NO']", "Hypothetical", "3.5%"),
    ("['N/A']", "['NO']", "Hypothetical", "n/a"),
    ("['1,000']", "['NO']", "Factoid", "1000"),
    ("['inf']", "['NO']", "Factoid", "inf"),
]
rows = []
for i in range(36):
    a, y, q, p = cases[i % len(cases)] if i < len(cases) else random.choice(cases)
    rows.append(dict(index=i, question=f"Q{i}", answer=a, question_type=q, year=y, paragraph="", prediction=p))
df = pd.DataFrame(rows)
df.to_excel("m_ChartQAPro.xlsx", index=False, engine="xlsxwriter")
# A numeric prediction column (pandas reads floats): head str()s them, the first version raises.
num = df.copy()
num["prediction"] = [["12", "2019", "45", "0", "3.5"][i % 5] for i in range(36)]
num.to_excel("m_ChartQAPro_CoT.xlsx", index=False, engine="xlsxwriter")
# Every prediction text (no cell pandas reads as NaN or a number): the first version scores it too.
txt = df.copy()
txt["prediction"] = [("none" if p == "n/a" else p) for p in df["prediction"]]
txt.to_excel("m_ChartQAPro_PoT.xlsx", index=False, engine="xlsxwriter")
