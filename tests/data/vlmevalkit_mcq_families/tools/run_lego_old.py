import os, os.path as osp, shutil, sys, tempfile
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness
from harness import load
SRC, DST = sys.argv[1], sys.argv[2]
d = tempfile.mkdtemp(prefix='ref_')
f = osp.join(d, 'm_LEGO.xlsx')
shutil.copy(osp.join(SRC, 'm_LEGO.xlsx'), f)
harness.base_evaluate('LEGO', f, load(f))
shutil.copy(osp.join(d, 'm_LEGO_acc.csv'), osp.join(DST, 'm_LEGO_acc.aca64dbb.csv'))
