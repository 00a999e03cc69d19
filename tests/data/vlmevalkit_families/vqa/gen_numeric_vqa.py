"""DocVQA_VAL and TextVQA_VAL result files whose prediction column pandas reads as floats
(every prediction a number, one empty): str() gives "12.0" where the file says "12"."""
import pandas as pd

preds = ["12", "7", "3.5", None, "100", "0", "12", "45", "2", "1000"]
answers = ["['12']", "['7', 'seven']", "['3.5']", "['4']", "['100']", "['0']", "['12.0']", "['45%']", "['2']", "['1,000']"]
df = pd.DataFrame(dict(index=range(10), question=[f"Q{i}" for i in range(10)], answer=answers, prediction=preds))
df.to_excel("m_DocVQA_VAL.xlsx", index=False, engine="xlsxwriter")
tv = df.copy()
tv["answer"] = [str([a.strip("[]'")] * 10) for a in answers]
tv.to_excel("m_TextVQA_VAL.xlsx", index=False, engine="xlsxwriter")
