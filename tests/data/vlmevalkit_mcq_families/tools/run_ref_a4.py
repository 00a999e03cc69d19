"""AffordanceDataset.evaluate (e8e78f05, via ast, stand-in self), exact matching."""
import os.path as osp, shutil, sys, tempfile
import pandas as pd
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness
SRC, DST = sys.argv[1], sys.argv[2]
d = tempfile.mkdtemp(prefix='ref_'); f = osp.join(d, 'm_A4Bench.xlsx'); shutil.copy(osp.join(SRC, 'm_A4Bench.xlsx'), f)
s = harness.make_self('AffordanceDataset', 'A4Bench', None)
s.evaluate(f, model='exact_matching')
shutil.copy(osp.join(d, 'm_A4Bench_acc.csv'), DST)
