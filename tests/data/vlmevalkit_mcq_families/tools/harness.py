"""Run VLMEvalKit's own evaluation code (open-compass/VLMEvalKit e8e78f05 unless stated) on
small archives. Functions of multiple_choice.py / hrbench.py / matching_util.py are imported
unchanged; methods of dataset classes (image_mcq.py, dataset/__init__.py) are taken from the
source with ast, their relative imports made absolute, and called with a stand-in `self`."""
import ast, copy as cp, os, os.path as osp, shutil, string, sys, textwrap, types, warnings
from collections import defaultdict
import numpy as np, pandas as pd
sys.path.insert(0, osp.dirname(__file__))
from vlmeval.smp import load, dump, get_intermediate_file_path, listinstr, d2df

HERE = osp.dirname(__file__)

def methods(path, cls):
    src = open(path).read()
    tree = ast.parse(src)
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for f in node.body:
                if isinstance(f, ast.FunctionDef):
                    code = textwrap.dedent(ast.get_source_segment(src, f))
                    # drop decorators-free staticmethods fine; make relative imports absolute
                    code = code.replace('from .utils.', 'from vlmeval.dataset.utils.').replace('from ..smp', 'from vlmeval.smp').replace('from ..utils import', 'from vlmeval.utils import')
                    ns = dict(load=load, dump=dump, get_intermediate_file_path=get_intermediate_file_path, listinstr=listinstr,
                              string=string, pd=pd, np=np, cp=cp, osp=osp, os=os, warnings=warnings, shutil=shutil,
                              defaultdict=defaultdict, DEBUG_MESSAGE='', build_judge=_no_judge, print=lambda *a, **k: None)
                    exec(code, ns)
                    fn = ns[f.name]
                    if any(isinstance(d, ast.Name) and d.id == 'staticmethod' for d in f.decorator_list):
                        fn = staticmethod(fn)
                    out[f.name] = fn
    return out

def _no_judge(**kw):
    raise RuntimeError('exact matching only')

IMCQ = osp.join(HERE, 'src', 'image_mcq.py')

class Self(types.SimpleNamespace):
    pass

def make_self(cls, dataset_name, meta, path=IMCQ):
    m = methods(path, cls)
    s = Self(dataset_name=dataset_name, data=meta)
    for k, f in m.items():
        setattr(s, k, f.__func__ if isinstance(f, staticmethod) else types.MethodType(f, s))
    return s

def base_evaluate(dataset_name, eval_file, meta):
    """ImageMCQDataset.evaluate_heuristic (exact matching)."""
    s = make_self('ImageMCQDataset', dataset_name, meta)
    return s.evaluate_heuristic(eval_file, model='exact_matching')
