"""Archives for the own-evaluate MCQ datasets (MedQ-Bench, MedQ-DEG-Bench, VisuLogic)."""
import random, sys
import numpy as np, pandas as pd
OUT = sys.argv[1]
rng = random.Random(2201)
def medq_pred(rng, ans, letters):
    w = rng.choice([l for l in letters if l != ans])
    return rng.choice([ans, ans.lower(), f'{ans}. Moderate', f'{w}) Severe', f'The answer is {ans}', f'option {w}, I think',
                       f'{ans}: mild', f'I pick {w} here', 'none of these', f'  {ans}  ', f'AB', np.nan, f'the answer is {ans}.', 'E'])
rows = []
for i in range(40):
    ans = rng.choice('ABCD')
    rows.append(dict(index=i, question=f'q{i}', A='none', B='mild', C='moderate', D='severe', answer=ans,
                     prediction=medq_pred(rng, ans, 'ABCD'), modality=[ 'MRI', 'CT', np.nan, 'X-ray'][i % 4]))
pd.DataFrame(rows).to_excel(f'{OUT}/m_MedqbenchMCQ_dev.xlsx', index=False)
rows = []
for i in range(40):
    ans = rng.choice('ABCDE')
    rows.append(dict(index=i, question=f'q{i}', A='a', B='b', C='c', D='d', E='e', answer=ans if i % 7 else f' {ans.lower()} ',
                     prediction=medq_pred(rng, ans, 'ABCDE'), modality=['MRI', 'CT'][i % 2], degradation_type=['noise', 'blur', np.nan][i % 3],
                     degradation_severity=[1, 2, 3][i % 3], source=['siteA', 'siteB', 'siteC', 'siteA'][i % 4]))
pd.DataFrame(rows).to_excel(f'{OUT}/m_MedQDEGBench_good_dev.xlsx', index=False)
cats = ['Quantitative Reasoning', 'Spatial Reasoning', 'Positional Reasoning', 'Attribute Reasoning', 'Stylistic Reasoning', 'Other']
rows = []
for i in range(42):
    ans = rng.choice('ABCD')
    w = rng.choice([l for l in 'ABCD' if l != ans])
    pred = rng.choice([f'Reasoning... Answer: \\boxed{{{ans}}}', f'\\boxed{{{w}}} then \\boxed{{\\text{{{ans}}}}}', f'The answer is: {ans}.',
                       f'so the correct answer is {w}. Done', f'({ans})\nbecause', f'Answer: \\boxed{{$LETTER}}', f'final: \\boxed{{{ans} or {w}}}',
                       f'I choose {ans}.', 'no idea', f'{ans}', f'\\boxed{{ {ans} }}', f'answer: {ans}\nmore text'])
    rows.append(dict(index=i, question=f'q{i}', answer=ans, prediction=pred, category=cats[i % 6]))
pd.DataFrame(rows).to_excel(f'{OUT}/m_VisuLogic.xlsx', index=False)
# PuzzleVQA: options as a list literal, the answer as option text; every category present
PCATS = ['grid_number', 'size_grid', 'rectangle_height_color', 'shape_size_hexagon', 'rectangle_height_number', 'shape_reflect',
         'circle_size_number', 'polygon_sides_color', 'color_overlap_squares', 'color_size_circle', 'venn', 'size_cycle',
         'polygon_sides_number', 'shape_size_grid', 'color_hexagon', 'grid_number_color', 'color_grid', 'shape_morph', 'triangle',
         'color_number_hexagon']
rows = []
for i in range(60):
    opts = rng.sample(['1', '2', '3', '4', 'red', 'blue', 'green', 'circle'], 4)
    k = rng.randrange(4)
    L = 'ABCD'[k]
    w = 'ABCD'[(k + 1) % 4]
    pred = rng.choice([f'Answer: {L}', f'answer: {L.lower()}', f'I think answer: {w}. Final Answer: {L}', f'Answer:{w}', 'no idea',
                       f'The answer is {L}', f'ANSWER : {L}!', f'answer: {L}x'])
    rows.append(dict(index=i, question=f'q{i}', options=str([int(o) if o.isdigit() and i % 5 == 0 else o for o in opts]),
                     answer=opts[k], prediction=pred, category=PCATS[i % 20]))
pd.DataFrame(rows).to_excel(f'{OUT}/m_PuzzleVQA.xlsx', index=False)
rows = []
for i in range(40):
    ans = rng.choice('ABCD')
    w = rng.choice([l for l in 'ABCD' if l != ans])
    pred = rng.choice([f'Answer: {ans}', f'answer: {ans.lower()}', f'Answer: {w}', 'unsure', f'... so answer:{ans}', f'Answer: {w} or Answer: {ans}'])
    rows.append(dict(index=i, question=f'q{i}', A='a', B='b', C='c', D='d', answer=ans, prediction=pred,
                     category=['spatial', 'algorithmic', 'analogical', 'inductive', 'deductive'][i % 5], difficulty=['easy', 'medium', 'hard'][i % 3]))
pd.DataFrame(rows).to_excel(f'{OUT}/m_VisualPuzzles.xlsx', index=False)
