# Minimal stand-ins for vlmeval.smp (definitions copied from vlmeval/smp/misc.py, file.py @ e8e78f05)
import datetime, os, pickle, re
import pandas as pd
from .log import get_logger

def istype(s, type):
    if isinstance(s, type):
        return True
    try:
        return isinstance(eval(s), type)
    except Exception:
        return False

def listinstr(lst, s):
    for item in lst:
        if item in s:
            return True
    return False

def d2df(D):
    return pd.DataFrame({x: [D[x]] for x in D})

def cn_string(s):
    if re.search(u'[\u4e00-\u9fff]', s):
        return True
    return False

def timestr(granularity='second'):
    return datetime.datetime.now().strftime('%Y%m%d%H%M%S%f')

def get_pred_file_format():
    return 'xlsx'

def get_eval_file_format():
    return 'csv'

def get_file_extension(file_path):
    return file_path.split('.')[-1]

def get_intermediate_file_path(eval_file, suffix, target_format=None):
    original_ext = get_file_extension(eval_file)
    def ends_with_list(s, lst):
        return any(s.endswith(i) for i in lst)
    if target_format is None:
        if ends_with_list(suffix, ['_tmp', '_response', '_processed']):
            target_format = 'pkl'
        elif ends_with_list(suffix, ['_rating', '_config', '_meta']):
            target_format = 'json'
        elif ends_with_list(suffix, ['_acc', '_fine', '_metrics']):
            target_format = get_eval_file_format()
        else:
            target_format = get_pred_file_format()
    return eval_file.replace(f'.{original_ext}', f'{suffix}.{target_format}')

# load/dump as vlmeval.smp.file does for these formats
def dump(data, f):
    ext = f.split('.')[-1]
    if ext == 'pkl':
        pickle.dump(data, open(f, 'wb'))
    elif ext == 'xlsx':
        data.to_excel(f, index=False, engine='openpyxl')
    elif ext == 'csv':
        data.to_csv(f, index=False)
    elif ext == 'tsv':
        data.to_csv(f, sep='\t', index=False)
    elif ext == 'json':
        import json, numpy as np
        class NumpyEncoder(json.JSONEncoder):  # as vlmeval.smp.file.NumpyEncoder for these types
            def default(self, obj):
                if isinstance(obj, np.integer):
                    return int(obj)
                if isinstance(obj, np.floating):
                    return float(obj)
                if isinstance(obj, np.bool_):
                    return bool(obj)
                return json.JSONEncoder.default(self, obj)
        if isinstance(data, pd.DataFrame):
            data = data.to_dict('records')
        json.dump(data, open(f, 'w'), indent=4, ensure_ascii=False, cls=NumpyEncoder)
    else:
        raise NotImplementedError(ext)

def load(f):
    ext = f.split('.')[-1]
    if ext == 'pkl':
        return pickle.load(open(f, 'rb'))
    if ext == 'xlsx':
        return pd.read_excel(f)
    if ext == 'csv':
        return pd.read_csv(f)
    if ext == 'tsv':
        return pd.read_csv(f, sep='\t')
    raise NotImplementedError(ext)
