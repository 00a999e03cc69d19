"""TopViewRS.evaluate (e8e78f05, via ast; its inner mcq_topviewrs_eval, eval_vanilla and
report_topviewrs_acc unchanged), exact matching."""
import os.path as osp, shutil, sys, tempfile
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness
SRC, DST = sys.argv[1], sys.argv[2]
d = tempfile.mkdtemp(prefix='ref_'); f = osp.join(d, 'm_TopViewRS.xlsx'); shutil.copy(osp.join(SRC, 'm_TopViewRS.xlsx'), f)
s = harness.make_self('TopViewRS', 'TopViewRS', harness.load(f))
s.evaluate(f, model='exact_matching')
shutil.copy(osp.join(d, 'm_TopViewRS_acc.csv'), DST)
