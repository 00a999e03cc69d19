"""VLMEvalKit e8e78f05: MedqbenchMCQDataset.evaluate, MedQDEGBenchDataset.evaluate (methods via
ast, stand-in self) and VisuLogic_acc (utils/visulogic.py, unchanged) on the archives."""
import json, os, os.path as osp, shutil, sys, tempfile
import pandas as pd
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness
from harness import load, make_self
SRC, DST = sys.argv[1], sys.argv[2]
def work(name):
    d = tempfile.mkdtemp(prefix='ref_'); f = osp.join(d, f'm_{name}.xlsx'); shutil.copy(osp.join(SRC, f'm_{name}.xlsx'), f); return d, f
for cls, name, path in [('MedqbenchMCQDataset', 'MedqbenchMCQ_dev', 'medqbench_mcq.py'), ('MedQDEGBenchDataset', 'MedQDEGBench_good_dev', 'medq_deg_bench.py')]:
    d, f = work(name)
    s = make_self(cls, name, None, path=osp.join(harness.HERE, 'src', path))
    res = s.evaluate(f)
    shutil.copy(osp.join(d, f'm_{name}_score.json'), DST)
# VisuLogic.evaluate: VisuLogic_acc(eval_file) -> DataFrame -> {stem}_{judge}_acc.csv
from vlmeval.dataset.utils.visulogic import VisuLogic_acc
d, f = work('VisuLogic')
pd.DataFrame({**VisuLogic_acc(f)}).to_csv(osp.join(DST, 'm_VisuLogic_exact_matching_acc.csv'), index=False)
# PuzzleVQA.evaluate / VisualPuzzles.evaluate: the *_acc functions (unchanged modules) and the
# frames evaluate builds from them
from vlmeval.dataset.utils.puzzlevqa import PuzzleVQA_acc
from vlmeval.dataset.utils.visualpuzzles import VisulPuzzles_acc
d, f = work('PuzzleVQA')
pd.DataFrame(PuzzleVQA_acc(f)).to_csv(osp.join(DST, 'm_PuzzleVQA_exact_matching_acc.csv'), index=False)
d, f = work('VisualPuzzles')
cat_dict, level_dict = VisulPuzzles_acc(f)
df_cat = pd.DataFrame(cat_dict).rename(columns={'category': 'group'}); df_cat['type'] = 'category'
df_level = pd.DataFrame(level_dict).rename(columns={'level': 'group'}); df_level['type'] = 'level'
pd.concat([df_cat, df_level], ignore_index=True).to_csv(osp.join(DST, 'm_VisualPuzzles_exact_matching_acc.csv'), index=False)
