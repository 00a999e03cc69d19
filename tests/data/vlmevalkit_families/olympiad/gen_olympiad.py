"""Synthetic OlympiadBench_EN rows in the result-file layout (English sources only, as the
OlympiadBench_EN TSV has)."""
import pandas as pd

rows = [
    ("OE_MM_maths_en_COMP", "['3']", "Numerical", "1e-8,", "So the final answer is $3$"),
    ("OE_MM_maths_en_COMP", "['\\\\frac{1}{2}']", "Numerical", None, "So the final answer is $0.5$"),
    ("OE_TO_maths_en_COMP", "['x^2+1']", "Expression", None, "So the final answer is $1+x^2$"),
    ("OE_TO_maths_en_COMP", "['(1,2)']", "Tuple", None, "So the final answer is $(1,2)$"),
    ("OE_TO_physics_en_COMP", "['9.8']", "Numerical", "1e-1", "So the final answer is $9.81$"),
    ("OE_MM_physics_en_COMP", "['2']", "Numerical", None, "The answer is 3"),
    ("OE_TO_maths_en_COMP", "['[1,3]']", "Interval", None, "So the final answer is $[1,3]$"),
    ("OE_MM_maths_en_COMP", "['5']", "Numerical", None, None),
    ("OE_TO_physics_en_COMP", "['3 \\\\times 10^{8}']", "Numerical", "1e7", "So the final answer is $3.0 \\times 10^{8}$"),
    ("OE_TO_maths_en_COMP", "['7']", "Numerical", None, "So the final answer is 7. So the final answer is 8"),
]
df = pd.DataFrame([dict(index=i, question=f"Q{i}", source=s, final_answer=fa, answer_type=t, error=e,
                        is_multiple_answer=False, unit=None, subfield="Algebra", prediction=p)
                   for i, (s, fa, t, e, p) in enumerate(rows)])
df.to_excel("m_OlympiadBench_EN.xlsx", index=False, engine="xlsxwriter")

# The whole set (OlympiadBench): every source, so the reference's report has no empty group.
zh = [
    ("OE_MM_maths_zh_CEE", "['4']", "Numerical", None, "所以最终答案是$4$"),
    ("OE_MM_maths_zh_COMP", "['x+1']", "Expression", None, "所以最终答案是$x+2$"),
    ("OE_MM_physics_zh_CEE", "['6']", "Numerical", None, "所以最终答案是 6"),
    ("OE_TO_maths_zh_CEE", "['1']", "Numerical", None, "So the final answer is 1"),
    ("OE_TO_maths_zh_COMP", "['(2,3)']", "Tuple", None, "所以最终答案是$(2,3)$"),
    ("OE_TO_physics_zh_CEE", "['0.25']", "Numerical", "1e-2", "所以最终答案是$\\frac{1}{4}$"),
]
df = pd.DataFrame([dict(index=i, question=f"Q{i}", source=s, final_answer=fa, answer_type=t, error=e,
                        is_multiple_answer=False, unit=None, subfield="Algebra", prediction=p)
                   for i, (s, fa, t, e, p) in enumerate(rows + zh)])
df.to_excel("m_OlympiadBench.xlsx", index=False, engine="xlsxwriter")
