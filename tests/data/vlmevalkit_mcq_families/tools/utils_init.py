from .matching_util import can_infer, can_infer_lego, can_infer_option, can_infer_text
from vlmeval.smp import dump, load
import os.path as osp

def track_progress_rich(func, tasks, nproc=1, chunksize=1, save=None, keys=None):
    # sequential stand-in: same results, saved to `save` keyed by `keys` as upstream
    res = {}
    if save is not None and osp.exists(save):
        res = load(save)
    out = []
    for k, t in zip(keys, tasks):
        r = func(**t)
        out.append(r)
        res[k] = r
    if save is not None:
        dump(res, save)
    return out
