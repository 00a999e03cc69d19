"""Run a VLMEvalKit dataset class's own evaluate() on a result file, from an exported tree.

usage: run_eval.py <tree> <module> <class> <dataset_name> <eval_file> [--tsv data.tsv] [key=value ...]

Without --tsv the object is built with object.__new__ and only dataset_name is set (for
evaluate methods that read nothing else). With --tsv the class's own __init__ runs, with
load_data returning that TSV (VLMEvalKit's load) instead of downloading it.
A judge, where evaluate builds one, is the stub in vlmeval/dataset/utils/__init__.py.
"""
import importlib, sys
tree, module, cls, name, path, *rest = sys.argv[1:]
sys.path.insert(0, tree)
tsv = None
if rest[:1] == ['--tsv']:
    tsv, rest = rest[1], rest[2:]
mod = importlib.import_module(module)
C = getattr(mod, cls)
if tsv is None:
    obj = object.__new__(C)
    obj.dataset_name = name
else:
    from vlmeval.smp import load
    C.load_data = lambda self, dataset: load(tsv)
    C.post_build = lambda self, dataset: None
    obj = C(dataset=name)
kwargs = dict(x.split('=', 1) for x in rest)
res = obj.evaluate(path, **kwargs)
print(res)
if isinstance(res, dict):
    # What evaluate returned (some datasets write no report file): json, as run.py logs it.
    import json
    with open(path.rsplit('.', 1)[0] + '_returned.json', 'w') as f:
        json.dump({k: float(v) for k, v in res.items()}, f, indent=4)
