"""Writes the synthetic VCR (English) result files (run once; seeded): predictions that restore
the covered n-grams exactly, partly, with extra words or punctuation, refusals ("I cannot",
"sorry"), "Assistant: " prefixes, and an empty one; answers as list literals of 1-3 n-grams."""
import random

import pandas as pd

rng = random.Random(3)
words = ("the city of New York is large , and it's home to U.S. companies ; e-mail me at 3.5 km "
         "(approximately) north-west of the river's mouth . Dr. Smith didn't agree").split()
rows = []
for i in range(24):
    k = rng.randint(1, 3)
    grams = [" ".join(rng.sample(words, rng.randint(1, 4))) for _ in range(k)]
    mode = i % 8
    if mode == 0:
        pred = " ".join(grams)
    elif mode == 1:
        pred = "Assistant: " + " ".join(g.upper() if j == 0 else g for j, g in enumerate(grams))
    elif mode == 2:
        pred = "The covered text is: " + ", ".join(grams) + "."
    elif mode == 3:
        pred = "I cannot read the covered text."
    elif mode == 4:
        pred = " ".join(w for g in grams for w in g.split()[:-1]) + " " + rng.choice(words)
    elif mode == 5:
        pred = "Sorry, " + " ".join(grams)
    elif mode == 6:
        pred = " ".join(rng.sample(words, 6))
    else:
        pred = "  " + " | ".join(reversed(grams)) + "\n"
    rows.append(dict(index=i, question="What is covered?", answer=str(grams), prediction=pred))
df = pd.DataFrame(rows)
df.to_excel("m_VCR_EN_EASY_100.xlsx", index=False, engine="xlsxwriter")
df.sample(frac=1, random_state=1).head(12).to_excel("m_VCR_EN_HARD_100.xlsx", index=False, engine="xlsxwriter")
