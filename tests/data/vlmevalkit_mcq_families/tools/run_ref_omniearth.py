"""OmniEarthMCQBench.evaluate (e8e78f05, via ast, its staticmethod extract_characters_regex)."""
import os.path as osp, shutil, sys, tempfile
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness, re
SRC, DST = sys.argv[1], sys.argv[2]
d = tempfile.mkdtemp(prefix='ref_'); f = osp.join(d, 'm_OmniEarth-Bench.xlsx'); shutil.copy(osp.join(SRC, 'm_OmniEarth-Bench.xlsx'), f)
s = harness.make_self('OmniEarthMCQBench', 'OmniEarth-Bench', None)
s.extract_characters_regex.__globals__['re'] = re
s.evaluate(f)
shutil.copy(osp.join(d, 'm_OmniEarth-Bench_acc.csv'), DST)
