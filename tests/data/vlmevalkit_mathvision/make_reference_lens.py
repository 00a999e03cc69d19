"""Builds the synthetic LENS-CN-QA_MINI archive and runs VLMEvalKit's own lens.py (e8e78f05)
on it: post_check prefetch as LENS_auxeval, a scripted judge for the other rows, then
LENS_acc. Run from the folder holding the copied vlmeval/ with the scratch venv."""
import csv, os, pickle, sys
import pandas as pd
from vlmeval.dataset.utils import lens as M

OUT = sys.argv[1]
# (answer, category, prediction, scripted judge extraction for rows the rule leaves open)
ROWS = [
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
data = pd.DataFrame([dict(index=i + 1, question=f"问题 {i}?", answer=a, category=c, prediction=p) for i, (a, c, p, _) in enumerate(ROWS)])
stem, judge = "GPT4o_LENS-CN-QA_MINI", "gpt-4o-mini"
def dump_xlsx(df, f):
    with pd.ExcelWriter(f, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
        df.to_excel(w, index=False)
eval_file = os.path.join(OUT, stem + ".xlsx")
dump_xlsx(data, eval_file)
data = pd.read_excel(eval_file)
ans = {}
for i in range(len(data)):
    line = data.iloc[i]
    if M.post_check(line, prefetch=True):
        ans[line["index"]] = dict(log="Prefetch succeed", res=M.post_check(line, prefetch=True))
    else:
        ans[line["index"]] = dict(log="Succeed", res=ROWS[i][3])
data["res"] = [ans[idx]["res"] for idx in data["index"]]
data["log"] = [ans[idx]["log"] for idx in data["index"]]
storage = os.path.join(OUT, f"{stem}_{judge}.xlsx")
dump_xlsx(data, storage)
pickle.dump(ans, open(os.path.join(OUT, f"{stem}_{judge}.pkl"), "wb"))
score = M.LENS_acc(storage)
score.to_csv(os.path.join(OUT, f"{stem}_{judge}_score.csv"), index=False, encoding="utf-8", quoting=csv.QUOTE_ALL)
st = pd.read_excel(storage)
rows = [dict(index=int(st.iloc[i]["index"]), prefetched=st.iloc[i]["log"] == "Prefetch succeed", hit=bool(M.post_check(st.iloc[i], prefetch=False))) for i in range(len(st))]
pd.DataFrame(rows).to_csv(os.path.join(OUT, "..", "expected_rows_lens.csv"), index=False)
print(score.to_string())
