"""Builds a synthetic archive and runs VLMEvalKit's own code on it: post_check prefetch as
the auxeval does it, a scripted judge for the other rows, then the acc function.

    python make_reference.py OUT                       # MathVision_MINI: mathv.py, MATH_V_auxeval, MATH_V_acc
    python make_reference.py OUT --dataset LENS-CN-QA_MINI  # lens.py, LENS_auxeval, LENS_acc

Run with the copied vlmeval/ importable (PYTHONPATH; e8e78f05, or 24f7defb for v2024-07/,
MathVision only) in the scratch venv of README.md. OUT is a GPT4o/ folder; the per-row
verdicts go beside it."""
import argparse, csv, importlib, os, pickle
import pandas as pd

MC = "['3/11', '8/11', '6/11', '3/5']"
# (answer, choices, category, prediction, scripted judge extraction for rows the rule leaves open)
MATHV_ROWS = [
    ("B", MC, "arithmetic", "The correct answer is (B) 8/11.", None),
    ("A", MC, "arithmetic", "I think it is C", None),
    ("D", MC, "arithmetic", "Let me compute the shaded fraction step by step.", "D"),
    ("C", MC, "arithmetic", "no idea", "B"),
    ("A", MC, "arithmetic", "cannot tell", ""),
    ("14", "[]", "algebra", "14", None),
    ("0.5", "[]", "algebra", "The answer is one half.", "1/2"),
    ("\\frac{1}{2}", "[]", "algebra", "Half of it.", "0.5"),
    ("2\\sqrt{3}", "[]", "analytic geometry", "The length is two root three.", "2\\sqrt{3}"),
    ("2\\sqrt{3}", "[]", "analytic geometry", "About 3.46.", "3.4641016"),
    ("[2007, 2008]", "[]", "statistics", "Between 2007 and 2008.", "[2007,2008]"),
    ("(1, 2)", "[]", "analytic geometry", "The point (1, 2).", "(1,2)"),
    ("2^3", "[]", "algebra", "It is one.", "1"),
    ("10", "[]", "algebra", "ten to the first", "1e1"),
    ("3", "[]", "algebra", "so x = 3", "x=3"),
    ("1.5", "[]", "algebra", "three halves", "3/2"),
    ("1/3", "[]", "Counting", "a third", "0.333333"),
    ("1/3", "[]", "Counting", "about a third", "0.3333"),
    ("5", "[]", "Counting", "five", "five"),
    ("-2", "[]", "Counting", "minus two", "- 2"),
    ("2", "[]", "Counting", "The answer is 2", "2"),
    ("e", "[]", "algebra", "Euler's number", "E"),
    ("0", "[]", "algebra", "nothing", "-0.0"),
    ("1,000", "[]", "statistics", "a thousand", "1000"),
    ("\\pi", "[]", "analytic geometry", "pi", "3.14159265"),
    ("none", "[]", "statistics", "nothing fits", "None"),
    ("\\frac{3}{4}", "[]", "statistics", "three quarters", "\\frac{6}{8}"),
    ("1<2", "[]", "statistics", "true", "3>2"),
    # eval in is_equal sees its locals: 'a' is eval(gt)
    ("7", "[]", "algebra", "seven", "a"),
    ("2", "[]", "algebra", "two", "b"),
    ("3", "[]", "Counting", "three", "a+1"),
    ("4", "[]", "algebra", "two squared", "2**2"),
    ("10", "[]", "algebra", "ten", "0b1010"),
    ("0.3", "[]", "algebra", "point three", "0.1+0.2"),
    ("B", "[1, 2, 3]", "arithmetic", "It is 2.", None),
    ("A", "['\\frac{1}{2}', '2']", "arithmetic", "The answer is (A).", None),
    ("C", "['\\frac{1}{2}', '2', '3']", "arithmetic", "hmm", "3"),
]
# (answer, category, prediction, scripted judge extraction for rows the rule leaves open)
LENS_ROWS = [
    ("14", "计数", "14", None),
    ("14", "计数", "答案是14", "14"),
    ("0.5", "计算", "一半", "1/2"),
    ("\\frac{1}{2}", "计算", "二分之一", "0.5"),
    ("2\\sqrt{3}", "几何", "2\\sqrt{3}", None),
    ("2\\sqrt{3}", "几何", "约3.46", "3.4641016"),
    ("红色", "识别", "红色", None),
    ("红色", "识别", "这是蓝色", "蓝色"),
    ("A", "识别", "选A", "a"),
    ("3", "计算", "x=3", "x=3"),
    ("1/3", "计算", "三分之一", "0.3333"),
    ("1,000", "计数", "一千", "1000"),
    ("none", "识别", "无", "None"),
    ("\\frac{3}{4}", "计算", "四分之三", "\\frac{6}{8}"),
    ("2^3", "计算", "一", "1"),
    ("5", "计数", "五", ""),
    ("7", "计数", "七", "a"),
    ("3", "计算", "三", "a+1"),
]

# name -> (module of vlmeval.dataset.utils, its acc function, the result rows, per-row verdicts file)
DATASETS = {
    "MathVision_MINI": (
        "mathv",
        "MATH_V_acc",
        [dict(index=1000 + i, question=f"Question {i}?", answer=a, choices=ch, category=c, level=1 + i % 5, prediction=p) for i, (a, ch, c, p, _) in enumerate(MATHV_ROWS)],
        [r[-1] for r in MATHV_ROWS],
        "expected_rows.csv",
    ),
    "LENS-CN-QA_MINI": (
        "lens",
        "LENS_acc",
        [dict(index=i + 1, question=f"问题 {i}?", answer=a, category=c, prediction=p) for i, (a, c, p, _) in enumerate(LENS_ROWS)],
        [r[-1] for r in LENS_ROWS],
        "expected_rows_lens.csv",
    ),
}
ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("out")
ap.add_argument("--dataset", choices=list(DATASETS), default="MathVision_MINI")
args = ap.parse_args()
OUT = args.out
module, acc, recs, scripted, expected = DATASETS[args.dataset]
M = importlib.import_module(f"vlmeval.dataset.utils.{module}")
data = pd.DataFrame(recs)
stem, judge = f"GPT4o_{args.dataset}", "gpt-4o-mini"
def dump_xlsx(df, f):
    with pd.ExcelWriter(f, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
        df.to_excel(w, index=False)
eval_file = os.path.join(OUT, stem + ".xlsx")
dump_xlsx(data, eval_file)
data = pd.read_excel(eval_file)  # evaluate_heuristic: data = load(eval_file)
ans = {}
for i in range(len(data)):
    line = data.iloc[i]
    # the auxeval with a scripted judge (the model's generate returns scripted[i])
    if M.post_check(line, prefetch=True):
        ans[line["index"]] = dict(log="Prefetch succeed", res=M.post_check(line, prefetch=True))
    else:
        ans[line["index"]] = dict(log="Succeed", res=scripted[i])
data["res"] = [ans[idx]["res"] for idx in data["index"]]
data["log"] = [ans[idx]["log"] for idx in data["index"]]
storage = os.path.join(OUT, f"{stem}_{judge}.xlsx")
dump_xlsx(data, storage)
pickle.dump(ans, open(os.path.join(OUT, f"{stem}_{judge}.pkl"), "wb"))
score = getattr(M, acc)(storage)
score.to_csv(os.path.join(OUT, f"{stem}_{judge}_score.csv"), index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
# Per-row verdicts of the same functions, for the row-level test (not an upstream file).
st = pd.read_excel(storage)
rows = [dict(index=int(st.iloc[i]["index"]), prefetched=st.iloc[i]["log"] == "Prefetch succeed", hit=bool(M.post_check(st.iloc[i], prefetch=False))) for i in range(len(st))]
pd.DataFrame(rows).to_csv(os.path.join(OUT, "..", expected), index=False)
print(score.to_string())
