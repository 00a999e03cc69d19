"""Writes the synthetic AV-SpeakerBench result file (run once; seeded): letters alone, in
prefixes ("The answer is"), lowercase, inside <answer>/<think> tags, punctuation, no letter
(the parser falls back to "A"), a missing prediction, answers with spaces/lowercase, two
rows sharing an index (the later row's verdict is written to both), task_id per row."""
import random

import pandas as pd

rng = random.Random(5)
preds = ["B", "The answer is C.", "(d)", "<think>maybe A</think><answer>B</answer>", "I pick option: c",
         "none of these", None, "A, then B", "Best answer: D", "xyz b", "<answer> D </answer>", "The correct answer is (A)",
         "Answer: b.", "", "\u261eC"]
rows = []
for i in range(30):
    rows.append(dict(index=i, video=f"v{i}", question="q", candidates="['A. x', 'B. y']",
                     answer=rng.choice(["A", "B", "C", "D", " b ", "c"]), task_id=rng.choice([1, 2, 3, 10]),
                     prediction=preds[i % len(preds)]))
rows.append(dict(rows[3], prediction="A"))  # index 3 again: its verdict overwrites both rows
df = pd.DataFrame(rows)
df.to_excel("m_AV-SpeakerBench_8frame.xlsx", index=False, engine="xlsxwriter")
