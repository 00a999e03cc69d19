"""An MME-RealWorld archive: index values 0..n-1 in shuffled order (upstream's 2024-09 label
lookup then scores other rows), <answer> tags, 'Best answer:' prefixes."""
import random, sys
import pandas as pd
OUT = sys.argv[1]
rng = random.Random(7)
cats = ['Perception/Monitoring', 'Perception/Remote Sensing', 'Reasoning/Autonomous_Driving', 'Perception/OCR with Complex Context',
        'Reasoning/Diagram and Table']
l2 = ['vehicle/attribute/color', 'counting', 'person/attribute/orientation', 'position', 'Intention']
rows = []
n = 48
order = list(range(n)); rng.shuffle(order)
for j in range(n):
    ans = rng.choice('ABCDE')
    w = rng.choice([l for l in 'ABCDE' if l != ans])
    pred = rng.choice([ans, f'({ans.lower()})', f'Best answer: {ans}', f'The best option is{w}', f'<think>hmm {w}</think><answer>{ans.lower()}</answer>',
                       f'The answer is {ans}.', 'none of the options are suitable for this very long and detailed question here', ' A ', f'{w} and {ans}'])
    rows.append(dict(index=order[j], question=f'q{j}', A='a', B='b', C='c', D='d', E='e', answer=ans, prediction=pred,
                     category=cats[j % 5], **{'l2-category': l2[(j * 3) % 5]}))
pd.DataFrame(rows).to_excel(f'{OUT}/m_MME-RealWorld.xlsx', index=False)
