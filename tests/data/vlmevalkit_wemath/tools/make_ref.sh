#!/bin/sh
# Build the scratch reference folder run_ref.py imports (outside the repository):
#   sh make_ref.sh GIT_DIR COMMIT OUT   (GIT_DIR: a VLMEvalKit clone's git directory)
set -e
G=$1; C=$2; O=$3
mkdir -p $O/vlmeval/smp $O/vlmeval/utils $O/vlmeval/dataset/utils
touch $O/vlmeval/__init__.py $O/vlmeval/dataset/__init__.py $O/vlmeval/dataset/utils/__init__.py
for f in vlmeval/dataset/utils/wemath.py vlmeval/dataset/utils/multiple_choice.py vlmeval/utils/matching_util.py vlmeval/dataset/image_mcq.py; do
  git --git-dir=$G show $C:$f > $O/$f
done
printf 'import logging\ndef get_logger(name, *a, **k):\n    return logging.getLogger(name)\n' > $O/vlmeval/smp/log.py
# load / dump bodies of vlmeval/smp/file.py (line numbers of e8e78f05; the URL branch of load dropped)
printf 'import csv, json, os, pickle\nimport pandas as pd\nfrom .log import get_logger\nlogger = get_logger("file")\n' > $O/vlmeval/smp/file.py
git --git-dir=$G show $C:vlmeval/smp/file.py | sed -n '149,198p' >> $O/vlmeval/smp/file.py
git --git-dir=$G show $C:vlmeval/smp/file.py | sed -n '253,276p' >> $O/vlmeval/smp/file.py
cat >> $O/vlmeval/smp/file.py <<'PY'
    handlers = dict(pkl=load_pkl, json=load_json, jsonl=load_jsonl, xlsx=load_xlsx, csv=load_csv, tsv=load_tsv)
    if fmt is not None:
        return handlers[fmt](f)
    suffix = f.split('.')[-1]
    return handlers[suffix](f)
PY
printf 'import pandas as pd\n' > $O/vlmeval/smp/vlm.py
git --git-dir=$G show $C:vlmeval/smp/vlm.py | sed -n 174,180p >> $O/vlmeval/smp/vlm.py  # build_option_str
printf 'import datetime\nimport pandas as pd\nfrom .file import load, dump, get_pred_file_format\nfrom .log import get_logger\nfrom .vlm import build_option_str\n' > $O/vlmeval/smp/__init__.py
git --git-dir=$G show $C:vlmeval/smp/misc.py | sed -n '55,62p;129,138p' >> $O/vlmeval/smp/__init__.py  # istype, d2df, cn_string
printf "def timestr(granularity='second'):\n    return datetime.datetime.now().strftime('%%Y%%m%%d%%H%%M%%S')\n" >> $O/vlmeval/smp/__init__.py
cat > $O/vlmeval/utils/__init__.py <<'PY'
import os

from vlmeval.smp import dump, load

from .matching_util import can_infer, can_infer_lego


def track_progress_rich(func, tasks, nproc=1, chunksize=1, save=None, keys=None, **kwargs):
    # Sequential stand-in for mp_util.track_progress_rich: results in task order; with save,
    # the dict key -> result pickled there.
    res = load(save) if save is not None and os.path.exists(save) else {}
    out = []
    for k, t in zip(keys, tasks):
        r = func(**t)
        out.append(r)
        if save is not None:
            res[k] = r
            dump(res, save)
    return out
PY
