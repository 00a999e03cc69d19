"""Run a VLMEvalKit dataset class's own evaluate() on a result file, from an exported tree.
usage: run_eval.py <tree> <module> <class> <dataset_name> <eval_file> [key=value ...]"""
import importlib, sys, json
tree, module, cls, name, path, *kv = sys.argv[1:]
sys.path.insert(0, tree)
mod = importlib.import_module(module)
C = getattr(mod, cls)
obj = object.__new__(C)
obj.dataset_name = name
kwargs = dict(x.split('=', 1) for x in kv)
res = obj.evaluate(path, **kwargs)
print(res)
