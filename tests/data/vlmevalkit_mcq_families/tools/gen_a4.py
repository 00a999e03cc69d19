import random, sys
import pandas as pd
OUT = sys.argv[1]
rng = random.Random(44)
rows = []
for i in range(30):
    ans = sorted(rng.sample(['A', 'B', 'C', 'D', 'E'], rng.randint(1, 3)))
    k = i % 5
    pred = [list(reversed(ans)), ans[:1], ans + ['E'] if 'E' not in ans else ans[:-1], ans, ['A']][k]
    rows.append(dict(index=i, question=f'q{i}', answer=str(ans), prediction=str(pred) if i % 7 else str(tuple(pred))))
pd.DataFrame(rows).to_excel(f'{OUT}/m_A4Bench.xlsx', index=False)
