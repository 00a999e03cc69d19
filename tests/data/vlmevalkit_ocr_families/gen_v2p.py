"""Writes the synthetic V2P-Bench result file (run once; seeded): index 0..n-1 as the dataset
TSV has it, dimensions from the mapping plus 8 (counted in the totals, not printed), durations
in all three bands, predictions with letters, prefixes, <think> blocks, a capital B inside a
word ("Based"), long text with no A-D, a missing cell, one index value repeated (its first row
decides and the verdict goes to the row whose position equals that value)."""
import random

import pandas as pd

rng = random.Random(9)
preds = ["A", "The answer is C", "<think>B or D</think>D", "Based on the video, c", "(B) the ball",
         "it is not clear from the frames which of the four it is at all really", None, "Option: A.",
         "<think>long\nthought</think>\nThe best answer is B", "d", "xx Cat"]
rows = []
for i in range(40):
    rows.append(dict(index=i, video=f"v{i}", question="q", answer=rng.choice("ABCD"),
                     dimension=rng.choice([1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 14, 8]),
                     duration=rng.choice([30, 120, 239.5, 240, 900, 1799, 1800, 5000]),
                     prediction=preds[i % len(preds)]))
rows[7]["index"] = 5  # index 5 twice: the first row with 5 decides, written to position 5
df = pd.DataFrame(rows)
df.to_excel("m_V2PBench_8frame_nopack.xlsx", index=False, engine="xlsxwriter")
