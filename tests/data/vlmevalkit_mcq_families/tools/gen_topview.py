"""A TopViewRS archive: predictions whose last word names an option letter, option text,
a field name, or nothing; brackets in some."""
import random, sys
import pandas as pd
OUT = sys.argv[1]
rng = random.Random(31)
TEXTS = ['the red chair', 'a small table near the door', 'the blue sofa', 'lamp on the left', 'red table', 'chair']
rows = []
for i in range(40):
    opts = rng.sample(TEXTS, 4)
    ans = rng.choice('ABCD')
    w = rng.choice([l for l in 'ABCD' if l != ans])
    pred = rng.choice([ans, f'The answer is {w}', f'{opts["ABCD".index(ans)]}', f'I think [{w}] fits', 'maybe the question',
                       f'Answer: {ans}.', 'no idea at all', f'({ans}) {opts["ABCD".index(ans)]}', f'{w}. {opts["ABCD".index(w)]}'])
    rows.append(dict(index=i, question=f'q{i}', **dict(zip('ABCD', opts)), answer=ans, prediction=pred,
                     category=['Object Recognition', 'Scene Recognition', 'Object Localization'][i % 3], **{'l2-category': ['Realistic', 'Semantic'][i % 2]},
                     split=['realistic', 'semantic'][(i // 3) % 2]))
pd.DataFrame(rows).to_excel(f'{OUT}/m_TopViewRS.xlsx', index=False)
