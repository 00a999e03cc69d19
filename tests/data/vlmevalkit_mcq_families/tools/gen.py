"""Write the small archives of tests/data/vlmevalkit_mcq_families (seeded, synthetic)."""
import random, sys
import numpy as np, pandas as pd
OUT = sys.argv[1]
OPTS = ['cat', 'dog', 'bird', 'fish', 'horse', 'lion', 'bear', 'wolf', 'deer', 'frog']

def pred_for(rng, answer, opts):
    letters = list(opts)
    wrong = [l for l in letters if l != answer] or letters
    k = rng.randrange(9)
    if k == 0: return answer
    if k == 1: return rng.choice(wrong)
    if k == 2: return f'The answer is {answer}.'
    if k == 3: return f'{opts[answer]}'
    if k == 4: return 'I cannot tell from the image.'
    if k == 5: return f'({rng.choice(letters)}) {opts[rng.choice(letters)]}'
    if k == 6: return f'The correct answer is **{rng.choice(letters)}**. Because it looks like a {opts[rng.choice(letters)]}.'
    if k == 7: return f'Answer: {opts[answer]}'
    return rng.choice(wrong) + ' or ' + answer

def base(rng, n, nopt=4, start=1):
    rows = []
    for i in range(n):
        letters = 'ABCDEFGHIJ'[:nopt]
        texts = rng.sample(OPTS, nopt)
        opts = dict(zip(letters, texts))
        ans = rng.choice(letters)
        r = dict(index=start + i, question=f'What animal is shown in picture {i}?', **opts, answer=ans)
        r['prediction'] = pred_for(rng, ans, opts)
        rows.append(r)
    return rows

def save(rows, name, shuffle_rng=None):
    df = pd.DataFrame(rows)
    if shuffle_rng is not None:
        df = df.sample(frac=1, random_state=shuffle_rng).reset_index(drop=True)
    df.to_excel(f'{OUT}/m_{name}.xlsx', index=False)

rng = random.Random(22)
# MMVP: pairs of rows share a question; two options
rows = base(rng, 20, nopt=2)
for i, r in enumerate(rows):
    r['question'] = f'Is the animal facing left? (pair {i // 2})'
save(rows, 'MMVP', shuffle_rng=1)
# MMSci: settings (one outside the three), subjects, categories
rows = base(rng, 40)
for i, r in enumerate(rows):
    r['setting'] = ['Fig2Cap', 'SubFig2Cap', 'SubCap2Fig', 'Other'][i % 4]
    r['subject'] = ['physics', 'chemistry', 'biology'][(i * 7) % 3] if not (r['setting'] == 'SubCap2Fig' and i % 3 == 0) else 'materials'
    r['category'] = ['Physical Sciences', 'Life Sciences'][(i // 5) % 2]
save(rows, 'MMSci_DEV_MCQ')
# HR-Bench: cycles and categories
rows = base(rng, 36)
for i, r in enumerate(rows):
    r['cycle_category'] = f'cycle{i % 3 + 1}'
    r['category'] = ['single', 'cross'][(i // 3) % 2]
save(rows, 'HRBench4K', shuffle_rng=2)
# GMAI-MMBench: the three group columns, some empty; category, l2-category
rows = base(rng, 30)
for i, r in enumerate(rows):
    r['category'] = ['Anatomy', 'Disease'][i % 2]
    r['l2-category'] = 'Medical'
    r['clinical vqa task'] = [None, 'Organ Recognition', 'Disease Diagnosis'][i % 3]
    r['department'] = ['Cardiology', 'Urology', 'Oncology', 'Neurology'][i % 4]
    r['perceptual granularity'] = ['Image Level', 'Box Level', None][(i // 2) % 3]
save(rows, 'GMAI-MMBench_VAL')
# CV-Bench 2D (sources) and 3D (report_acc)
rows = base(rng, 30)
for i, r in enumerate(rows):
    r['split'] = '2D'
    r['source'] = ['ADE20K', 'COCO', 'Omni3D'][i % 3]
    r['category'] = ['Count', 'Relation'][i % 2]
save(rows, 'CV-Bench-2D')
rows = base(rng, 24)
for i, r in enumerate(rows):
    r['split'] = '3D'
    r['source'] = ['Omni3D'][0]
    r['category'] = ['Depth', 'Distance'][i % 2]
save(rows, 'CV-Bench-3D')
# LEGO: sort questions (answers are sequences) and single choice
rows = base(rng, 30)
seqs = ['BDAC', 'ACDB', 'DCBA', 'CABD']
for i, r in enumerate(rows):
    r['category'] = ['ordering', 'rotation'][i % 2]
    if i % 2 == 0:
        r['question_type'] = 'sort'
        ans = seqs[i % 4]
        r['answer'] = ans
        k = i % 10
        r['prediction'] = [f'The correct order is {ans}.', f'First {ans[0]}, second {ans[1]}, third {ans[2]}, fourth {ans[3]}.',
                           f'Step 1: {ans[0]} Step 2: {ans[1]} Step 3: {ans[2]} Step 4: {ans[3]}', 'ABCD', r['A'] + ' comes first'][k // 2]
    else:
        r['question_type'] = 'single'
        if i % 4 == 1:  # classic reads the letter; from 2025-08 the position rule and length guard refuse
            other = [v for k, v in r.items() if k in 'ABCD' and k != r['answer']][0]
            r['prediction'] = f"{r['answer']} is correct. Explanation: it is clearly the {r[r['answer']]} and not the {other}, as anyone can see"
save(rows, 'LEGO')
# MMMU (MMMU_preproc): open questions have no options and a free-form answer
rows = base(rng, 30)
for i, r in enumerate(rows):
    r['split'] = 'validation'
    r['category'] = ['Art', 'Math', 'Physics'][i % 3]
    if i % 3 == 1:
        for ch in 'ABCD':
            r[ch] = None
        r['answer'] = ['12.5', '3', 'x^2'][i % 3 // 1 % 3]
        r['prediction'] = [r['answer'], 'The answer is 7', f'I think {r["answer"]} is right', 'A', 'Other Answers'][i % 5]
save(rows, 'MMMU_DEV_VAL')
# MMMU-Pro COT: ten options, an Answer: line
rows = base(rng, 30, nopt=10)
for i, r in enumerate(rows):
    a, w = r['answer'], 'ABCDEFGHIJ'[(i * 3) % 10]
    r['prediction'] = [f'Reasoning...\nAnswer: {a}', f'Reasoning...\nAnswer: ${a}', f'Answer: A\nAnswer: {a}', f'No answer line, but {a}',
                       f'Think.\nAnswer: {w}', f'Answer: The answer is {a}', f'Answer: A', f'  Answer: ({a})  '][i % 8]
save(rows, 'MMMU_Pro_10c_COT')
# 3DSRBench: qid families (base 8 chars, -flip 13, circular variants)
rows = base(rng, 36)
i = 0
for q in range(4):
    b = f'q{q:07d}'
    for suffix in ['', '-c1', '-c2', '-flip', '-flip-c1', '-flip-c2', '', '', '']:
        if i >= 36: break
        rows[i]['qid'] = b + suffix if suffix or q < 4 else b
        rows[i]['category'] = ['height', 'location', 'orientation'][q % 3]
        i += 1
# keep qids unique: the last three of each block repeat the base; give them their own bases
for j, r in enumerate(rows):
    if list(rows).index(r) % 9 >= 6:
        r['qid'] = f'r{j:07d}'
save(rows, '3DSRBench')
# MMMB (ConcatDataset, vanilla): six members
rows = []
for m, dname in enumerate(['MMMB_ar', 'MMMB_cn', 'MMMB_en', 'MMMB_pt', 'MMMB_ru', 'MMMB_tr']):
    sub = base(rng, 5, start=1)
    for r in sub:
        r['original_index'] = r['index']
        r['SUB_DATASET'] = dname
        r['category'] = ['Math', 'Science'][r['index'] % 2]
    rows += sub
for k, r in enumerate(rows):
    r['index'] = k
save(rows, 'MMMB')
# MTL_MMBench_DEV (ConcatDataset, circular): two questions with 2-4 rotations per member
rows = []
for dname in ['MMBench_dev_ar', 'MMBench_dev_cn', 'MMBench_dev_en', 'MMBench_dev_pt', 'MMBench_dev_ru', 'MMBench_dev_tr']:
    for q in (1, 2):
        texts = rng.sample(OPTS, 4)
        ans_text = texts[rng.randrange(4)]
        nrot = [4, 2][q - 1]
        for k in range(nrot):
            rot = texts[k:] + texts[:k]
            opts = dict(zip('ABCD', rot))
            ans = 'ABCD'[rot.index(ans_text)]
            r = dict(original_index=q + k * 1000000, SUB_DATASET=dname, question=f'Which one? {q}', **opts, answer=ans,
                     category=['coarse_perception', 'logic_reasoning'][q - 1], split='dev')
            r['prediction'] = ans if rng.random() < 0.7 else pred_for(rng, ans, opts)
            rows.append(r)
for k, r in enumerate(rows):
    r['index'] = k
save(rows, 'MTL_MMBench_DEV')
