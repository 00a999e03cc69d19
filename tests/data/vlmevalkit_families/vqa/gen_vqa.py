"""Synthetic result files for the VQA-shaped datasets (seeded, run once)."""
import os
import random

import numpy as np
import pandas as pd

random.seed(22)


def save(df, name, folder="."):
    os.makedirs(folder, exist_ok=True)
    df.to_excel(os.path.join(folder, f"m_{name}.xlsx"), index=False, engine="xlsxwriter")


# CountBenchQA: integer answers; predictions mixed ("3", "There are 3.", "12" for 2, empty).
preds = ["3", "There are 3 dogs.", "12", "two", None, "7", "10", "The count is 1", "4.0", "5"]
rows = []
for i in range(30):
    ans = [3, 3, 2, 2, 5, 7, 1, 1, 4, 6][i] if i < 10 else random.randint(1, 10)
    p = preds[i % len(preds)]
    rows.append(dict(index=i, question=f"How many things {i}?", answer=ans, prediction=p))
cb = pd.DataFrame(rows)
save(cb, "CountBenchQA")
save(cb.rename(columns={"answer": "answers"}), "CountBenchQA", "v2025_05")
# an all-number prediction column with one empty cell: pandas reads floats ("3.0")
cbn = cb.copy()
cbn["prediction"] = [str(random.randint(1, 10)) if i != 4 else None for i in range(30)]
save(cbn, "CountBenchQA", "numeric")

# ZEROBench: answers; predictions with braces, several braces, braces over lines, none.
zp = ["The answer is {42}", "{a} then {B}", "no braces 42", "{ 42 }", "{4\n2}", "{}", "{{nested}}",
      "  {Forty-Two}  ", "{42} and {43}", None]
za = ["42", "b", "42", "42", "42", "", "nested", "forty-two", "43", "nan"]
zb = pd.DataFrame([dict(index=i, question=f"Q{i}", answers=za[i % 10] if i < 10 else str(random.randint(40, 44)),
                        prediction=zp[i % 10] if i < 10 else "{" + str(random.randint(40, 44)) + "}") for i in range(25)])
save(zb, "ZEROBench")
save(zb.iloc[:12], "ZEROBench_sub")

# TallyQA: text predictions (numbers, words, 21, negative, none) and a numeric column file.
tp = ["3", "There are two cats", "21", "I see 20 birds", "zero", "-1", "Twelve.", "none", None, "4 or 5",
      "1e3", "twentyone", "eleven apples and 3 pears", "0", "2.5"]
t_ans = [3, 2, 21, 20, 0, 1, 12, 0, 0, 5, 1, 0, 11, 0, 2]
ta = pd.DataFrame([dict(index=i, question=f"How many {i}?", answer=t_ans[i % 15] if i < 20 else random.randint(0, 12),
                        prediction=tp[i % len(tp)]) for i in range(30)])
save(ta, "TallyQA")
tn = ta.copy()
tn["prediction"] = [["3", "20.7", "2.5", "0", "21", "7"][i % 6] for i in range(30)]
tn["answer"] = [[3, 20, 2, 0, 21, 7][i % 6] if i < 18 else random.randint(0, 12) for i in range(30)]
save(tn, "TallyQA", "numeric")

# MTVQA: answers in several scripts, categories (languages), periods, case.
mp_ = ["Paris.", "the answer: BERLIN", "東京", "Ж.", "  rome  ", "u.s.a", None, "12.5", "Madrid!", "nope"]
ma = ["paris", "Berlin", "東京", "ж", "Rome", "USA", "x", "125", "madrid", "yes"]
mc = ["FR", "DE", "JA", "RU", "IT", "EN", "EN", "DE", "ES", "FR"]
mt = pd.DataFrame([dict(index=i, question=f"Q{i}", answer=ma[i % 10], category=mc[(i * 3) % 10], split="test",
                        prediction=mp_[i % 10]) for i in range(30)])
save(mt, "MTVQA_TEST")

# VizWiz: ten answers per row (a list cell), predictions normalised by process_answer.
words = ["yes", "no", "blue", "unanswerable", "two", "2", "a dog", "dog"]
vz = []
for i in range(25):
    ans = [random.choice(words) for _ in range(10)]
    vz.append(dict(index=i, question=f"Q{i}", answers=str(ans), category="other", split="val",
                   prediction=random.choice(["Yes.", "No", "Blue!", "2", "Two", "The dog", "unanswerable", "3.5"])))
save(pd.DataFrame(vz), "VizWiz")

# PlotQA: numbers within / outside 5 %, text, percent, zero.
pq_p = ["10", "10.4", "10.6", "abc", "ABC", "50%", "0", "0.0", " 7 ", None, "1e2", "-3"]
pq_a = ["10", "10", "10", "abc", "abc", "0.5", "0", "0", "7", "5", "100", "-3.1"]
pq = pd.DataFrame([dict(index=i, question=f"Q{i}", answer=pq_a[i % 12], type="t", prediction=pq_p[i % 12]) for i in range(24)])
save(pq, "PlotQA")

# ERQA: option letters, case and spaces, categories (one missing would crash sorting).
ep = ["A", " b ", "C.", "d", None, "A", "B", "(C)", "a", "b"]
ea = ["A", "B", "C", "D", "A", "B", "B", "C", "A", "C"]
ec = ["Spatial", "Trajectory", "Spatial", "Other", "Task", "Trajectory", "Spatial", "Other", "Task", "Spatial"]
er = pd.DataFrame([dict(index=i, question=f"Q{i}", answer=ea[i % 10], category=ec[(i * 7) % 10], prediction=ep[i % 10])
                   for i in range(30)])
save(er, "ERQA")
