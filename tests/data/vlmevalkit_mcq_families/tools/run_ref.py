"""Run VLMEvalKit's evaluation (exact matching) on each archive; copy the files it writes."""
import glob, os, os.path as osp, shutil, sys, tempfile, types
import pandas as pd
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness
from harness import load, dump, make_self, methods

SRC, DST = sys.argv[1], sys.argv[2]
os.makedirs(DST, exist_ok=True)

def work(name):
    d = tempfile.mkdtemp(prefix='ref_')
    f = osp.join(d, f'm_{name}.xlsx')
    shutil.copy(osp.join(SRC, f'm_{name}.xlsx'), f)
    return d, f

def keep(d, pattern, rename=None):
    for p in glob.glob(osp.join(d, pattern)):
        shutil.copy(p, osp.join(DST, rename or osp.basename(p)))

# Plain ImageMCQDataset.evaluate_heuristic (report chosen by name)
for name in ['MMVP', 'MMSci_DEV_MCQ', 'LEGO', 'MMMU_DEV_VAL']:
    d, f = work(name)
    harness.base_evaluate(name, f, load(f))
    keep(d, f'm_{name}_acc.csv')
# Classes with their own evaluate
for cls, name, pat in [('HRBenchDataset', 'HRBench4K', '_acc.csv'), ('GMAIMMBenchDataset', 'GMAI-MMBench_VAL', '*_acc.csv'),
                       ('CVBench', 'CV-Bench-2D', '_acc.csv'), ('CVBench', 'CV-Bench-3D', '_acc.csv'),
                       ('_3DSRBench', '3DSRBench', '_results.tsv')]:
    d, f = work(name)
    s = make_self(cls, name, load(f))
    s.evaluate(f, model='exact_matching')
    keep(d, f'm_{name}{pat}')
# MMMU-Pro COT: MMMUProDataset.evaluate's COT branch (cot_postproc, then the base evaluate on
# the _cotpost file, whose _acc.csv is copied to _acc.csv); cot_postproc at head and at 87f2dbe5
for tag, path in [('head', harness.IMCQ), ('87f2dbe5', osp.join(harness.HERE, 'src', 'image_mcq_87f2dbe5.py'))]:
    name = 'MMMU_Pro_10c_COT'
    d, f = work(name)
    cot = methods(path, 'MMMUProDataset')['cot_postproc']
    data = load(f)
    data['prediction'] = [cot(None, x) for x in data['prediction']]
    tgt = harness.get_intermediate_file_path(f, '_cotpost')
    dump(data, tgt)
    harness.base_evaluate(name, tgt, load(f))
    shutil.copy(harness.get_intermediate_file_path(f, '_cotpost_acc', 'csv'), osp.join(DST, f'm_{name}_acc.{tag}.csv'))
# ConcatDataset.evaluate with ImageMCQDataset members
for name in ['MMMB', 'MTL_MMBench_DEV']:
    d, f = work(name)
    ev = methods(osp.join(harness.HERE, 'src', 'dataset_init.py'), 'ConcatDataset')['evaluate']
    data = load(f)
    sets = {'MMMB': ['MMMB_ar', 'MMMB_cn', 'MMMB_en', 'MMMB_pt', 'MMMB_ru', 'MMMB_tr'],
            'MTL_MMBench_DEV': ['MMBench_dev_ar', 'MMBench_dev_cn', 'MMBench_dev_en', 'MMBench_dev_pt', 'MMBench_dev_ru', 'MMBench_dev_tr']}[name]
    members = {}
    for dn in sets:
        meta = data[data['SUB_DATASET'] == dn].copy()
        meta['index'] = meta['original_index']
        members[dn] = make_self('ImageMCQDataset', dn, meta)
        members[dn].evaluate = members[dn].evaluate_heuristic
    s = types.SimpleNamespace(dataset_name=name, datasets=sets, dataset_map=members)
    ev(s, f, model='exact_matching')
    keep(d, f'm_{name}_acc.csv')
print(sorted(os.listdir(DST)))
