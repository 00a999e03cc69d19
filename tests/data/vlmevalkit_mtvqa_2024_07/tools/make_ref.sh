#!/bin/sh
# sh make_ref.sh GIT_DIR OUT : the scratch reference folder for run_ref.py (commit 04cfded1)
set -e
G=$1; O=$2; C=04cfded1
mkdir -p $O/vlmeval/smp $O/vlmeval/evaluate
touch $O/vlmeval/__init__.py $O/vlmeval/evaluate/__init__.py
git --git-dir=$G show $C:vlmeval/evaluate/MTVQA_eval.py > $O/vlmeval/evaluate/MTVQA_eval.py
{
  printf 'import csv, json, logging, pickle\nimport multiprocessing as mp\nimport numpy as np\nimport pandas as pd\n'
  printf 'def get_logger(name, *a, **k):\n    return logging.getLogger(name)\n'
  git --git-dir=$G show $C:vlmeval/smp/file.py | sed -n '/^def dump(/,/^def load(/p' | sed '$d'
  git --git-dir=$G show $C:vlmeval/smp/file.py | sed -n '/^def load(/,/^def /p' | sed '$d'
  git --git-dir=$G show $C:vlmeval/smp/misc.py | sed -n '/^def d2df(/,/^$/p'
} > $O/vlmeval/smp/__init__.py
