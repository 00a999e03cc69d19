"""Writes the synthetic VisFactor result file (run once; seeded): every category_id rule of
VisFactor.evaluate (yes/no, CS lists, last numbers, CF3 pairs, VZ3 letters or yes/no, an unknown
id), JSON answers in double/single/no quotes, several rows per eval_index."""
import random

import pandas as pd

rng = random.Random(11)
rows = []


def add(cid, eid, answer, pred, additional=None):
    rows.append(dict(question="q <IMAGE_0>", answer=answer, category_id=cid, eval_index=eid,
                     additional=additional, prediction=pred))


yn = ['{"answer": "T"}', '{"answer": "yes"}', "{'answer': 'no'}", '{"answer": false}', '{"answer": 1}',
      'I think {"answer": "maybe"}', "no json here", '{"answer": "F"} then {"answer": "T"}', '{ "answer" : "Y" }']
for cid in ["CF1", "MV2", "S1", "VZ2", "SS2"]:
    for e in range(3):
        for k in range(2):
            add(cid, e, rng.choice(["T", "F"]), rng.choice(yn))
cs = ['{"answer": "Dog"}', '{"answer": "cat"}', '{"answer": "bird"}', "dog", '{"answer": ""}']
for e in range(4):
    add("CS2", e, rng.choice(["dog,Dog", "cat", "Bird,fowl"]), rng.choice(cs))
nums = ['{"answer": 12}', '{"answer": "7"}', "The count is 7 then 12", "answer 3", '{"answer": "x"} 5 and 8', "none",
        '{"answer": "(3, 4)"}', "points 1 2 3 4"]
for cid in ["I3", "MA1", "SS3", "CF3"]:
    for e, pred in enumerate(nums):  # one row per eval_index: each row's verdict shows
        ans = "(3, 4)" if cid == "CF3" else ["12", "7", "12", "3", "8", "7", "4", "4"][e]
        add(cid, e, ans, pred)
letters = ['{"answer": "B"}', "the option is C.", "all lowercase", '{"answer": "b"}', "Answer: D"]
for e, pred in enumerate(letters):
    add("VZ3", e, ["B", "C", "D", "B", "D"][e], pred, additional=str(rng.randint(1, 4)))
for e in range(2):
    add("VZ3", 10 + e, "T", rng.choice(yn), additional="A;B")  # not a digit: the yes/no rule
add("ZZ9", 0, "x", "whatever")  # no rule: correct stays NaN, which all() counts as true
df = pd.DataFrame(rows)
df.insert(0, "index", range(len(df)))
df.to_excel("m_VisFactor.xlsx", index=False, engine="xlsxwriter")
# The yes/no and CS rows alone (no VZ3 with a number): what 48ead4b5 could grade.
df[~df["category_id"].isin(["VZ3"])].to_excel("m_VisFactor_CoT.xlsx", index=False, engine="xlsxwriter")
