"""Builds the synthetic SeePhys archive and runs VLMEvalKit's own seephys.py (e8e78f05) on it:
extract() with a scripted judge (post_check first, as extract does), then eval_acc.
Run from the folder holding the copied vlmeval/ with a scratch venv (sympy 1.14.0, ANTLR 4.11.1)."""
import json, os, pickle, sys
import pandas as pd
from vlmeval.dataset.utils import seephys as M

OUT = sys.argv[1]
NAN = float("nan")
# (answer, prediction, level, subject, language, sig_figs, scripted judge extraction, scripted judge score)
ROWS = [
    ("4", "<answer>4</answer>", 1, "mechanics", "English", NAN, None, None),
    ("12.0", "so the final answer is: 12.0.", 2, "mechanics", "English", 3, None, None),
    ("\\frac{1}{2}", "The answer is: 0.5 m.", 2, "optics", "English", NAN, "0.5 m", 1),
    ("2\\sqrt{3}", "\\sqrt{12}", 3, "optics", "Chinese", NAN, None, None),
    ("x = 3", "the final answer is: 3 = x.", 1, "electromagnetism", "English", NAN, "3 = x", 1),
    ("5", "5.0", 1, "mechanics", "Chinese", 1, None, None),
    ("10 m/s", "about ten", 2, "mechanics", "English", 2, "ten", 0),
    ("10", "", 3, "thermodynamics", "English", NAN, "", -1),
    ("3", "<answer> 3 </answer>", 1, "thermodynamics", "Chinese", NAN, None, None),
    ("1.5", "the final answer is: 3/2.", 2, "optics", "English", NAN, None, None),
    ("a^2+b^2", "the final answer is: b^2+a^2.", 3, "electromagnetism", "English", NAN, None, None),
    ("\\pi", "3.14159", 3, "optics", "Chinese", 3, "3.14159", 1),
    ("7", "seven", 1, "mechanics", "English", NAN, "seven", 0),
]
data = pd.DataFrame([
    dict(index=i + 1, question=f"Question {i}?", answer=a, prediction=p, level=lv, subject=su, language=la,
         source="synthetic", vision_relevance="essential" if i % 2 else "optional", img_category="diagram", sig_figs=sf)
    for i, (a, p, lv, su, la, sf, _, _) in enumerate(ROWS)
])
stem, judge = "GPT4o_SeePhys", "deepseek"
def dump_xlsx(df, f):
    with pd.ExcelWriter(f, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
        df.to_excel(w, index=False)
eval_file = os.path.join(OUT, stem + ".xlsx")
dump_xlsx(data, eval_file)
data = pd.read_excel(eval_file)
ans = {}
for i in range(len(data)):
    line = data.iloc[i]
    # extract() with a scripted judge: post_check first, exactly as extract does
    if M.post_check(line, prefetch=False):
        ans[line["index"]] = dict(log="Prefetch succeed", extract=M.post_check(line, prefetch=True), score=1)
    else:
        ans[line["index"]] = dict(log="Succeed", extract=ROWS[i][6], score=ROWS[i][7])
data["extract"] = [ans[idx]["extract"] for idx in data["index"]]
data["log"] = [ans[idx]["log"] for idx in data["index"]]
data["score"] = [ans[idx]["score"] for idx in data["index"]]
storage = os.path.join(OUT, f"{stem}_{judge}.xlsx")
dump_xlsx(data, storage)
pickle.dump(ans, open(os.path.join(OUT, f"{stem}_{judge}.pkl"), "wb"))
score = M.eval_acc(storage)
json.dump(score, open(os.path.join(OUT, f"{stem}_{judge}_score.json"), "w"), indent=4, ensure_ascii=False)
st = pd.read_excel(storage)
rows = [dict(index=int(st.iloc[i]["index"]), post_check=bool(M.post_check(st.iloc[i], prefetch=False)), score=int(st.iloc[i]["score"])) for i in range(len(st))]
pd.DataFrame(rows).to_csv(os.path.join(OUT, "..", "expected_rows_seephys.csv"), index=False)
print(json.dumps(score, indent=1, ensure_ascii=False))
