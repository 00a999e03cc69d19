"""Per-row verdicts from VLMEvalKit's own code, for datasets whose evaluate keeps none:
usage: perrow.py <tree> <dataset> <eval_file>. Writes <stem>_rows.json (a list, file order).

* ZEROBench, MTVQA_TEST, CountBenchQA: evaluate() on a one-row file per row (written by
  VLMEvalKit's dump from the loaded table), the verdict read from what it returns.
* TallyQA: extract_count_from_prediction applied to the loaded prediction column and
  compared with answer.astype(int), as evaluate does (typing of the whole column kept).
* VizWiz: process_line on each loaded row (answer = str(answers)) and hit_calculate.
"""
import json, os, sys, tempfile
tree, name, path = sys.argv[1:]
sys.path.insert(0, tree)
import numpy as np
from vlmeval.smp import load, dump
data = load(path)
out = []
if name == 'TallyQA':
    from vlmeval.dataset.utils.tallyqa import extract_count_from_prediction
    p = data['prediction'].apply(extract_count_from_prediction)
    a = data['answer'].astype(int)
    out = [bool(x) for x in (p == a)]
elif name == 'VizWiz':
    from vlmeval.dataset.utils.vqa_eval import hit_calculate, process_line
    data['prediction'] = [str(x) for x in data['prediction']]
    data['answer'] = [str(x) for x in data['answers']]
    res = [process_line(data.iloc[i]) for i in range(len(data))]
    out = [float(x) for x in hit_calculate(res, 'VizWiz')]
else:
    from vlmeval.dataset import image_vqa
    cls = {'ZEROBench': image_vqa.ZEROBench, 'ZEROBench_sub': image_vqa.ZEROBench,
           'MTVQA_TEST': image_vqa.MTVQADataset, 'CountBenchQA': image_vqa.CountBenchQA}[name]
    obj = object.__new__(cls)
    obj.dataset_name = name
    with tempfile.TemporaryDirectory() as d:
        for i in range(len(data)):
            f = os.path.join(d, f'r{i}.xlsx')
            dump(data.iloc[[i]], f)
            r = obj.evaluate(f)
            out.append(float(r['Average'] if name == 'MTVQA_TEST' else r['accuracy']))
json.dump(out, open(path.rsplit('.', 1)[0] + '_rows.json', 'w'))
print(name, out)
