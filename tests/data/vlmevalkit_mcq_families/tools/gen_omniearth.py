"""An OmniEarth-Bench archive: 3 spheres, 22 tasks (so the row mean sums more than 8 values),
single and multi-letter answers, predictions in the forms its regex reads."""
import random, sys
import pandas as pd
OUT = sys.argv[1]
rng = random.Random(99)
tasks = []
for sphere, k in [('Atmosphere', 9), ('Hydrosphere', 7), ('Biosphere', 6)]:
    for t in range(k):
        tasks.append((sphere, f'L2_{t % 3}', f'L3_{t}', f'L4_{t % 2}'))
rows = []
for i in range(110):
    s, l2, l3, l4 = tasks[i % len(tasks)]
    ans = ''.join(sorted(rng.sample('ABCDEFG', rng.choice([1, 1, 1, 2]))))
    w = rng.choice([l for l in 'ABCDEFG' if l not in ans])
    pred = rng.choice([ans, f'({ans[0]})', f'The answer is ({ans[0]})', f'Based on the image, {w}', ' '.join(ans), f'{ans.lower()}',
                       f'Best answer: {ans}', f'({w}) and ({ans[0]})', 'none', f'The correct answer is {ans}.'])
    rows.append(dict(index=i, question=f'q{i}', answer=ans, prediction=pred, category=s, **{'l2-category': l2, 'l3-category': l3, 'l4-category': l4}))
pd.DataFrame(rows).to_excel(f'{OUT}/m_OmniEarth-Bench.xlsx', index=False)
