"""Run MTVQA_eval of VLMEvalKit 04cfded1 (the MTVQA branch, 2024-07-03) on m_MTVQA_TEST.xlsx.

Usage: python run_ref.py REF_DIR WORK_DIR
  REF_DIR: vlmeval/evaluate/MTVQA_eval.py from 04cfded1, and a stand-in vlmeval/smp (its
           ``from vlmeval.smp import *`` names: load/dump/d2df copied from that commit's
           smp/file.py and smp/misc.py, get_logger, mp, np, pd); built by make_ref.sh.
Writes WORK_DIR/m_MTVQA_TEST_acc.csv as VLMEvalKit did."""

import os.path as osp
import sys

sys.path.insert(0, sys.argv[1])
from vlmeval.evaluate.MTVQA_eval import MTVQA_eval  # noqa: E402

if __name__ == "__main__":
    print(MTVQA_eval(osp.join(sys.argv[2], "m_MTVQA_TEST.xlsx")))
