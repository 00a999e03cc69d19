"""Writes matching_vectors.jsonl: inputs for can_match_option / can_match_na and what
VLMEvalKit's own functions (vlmeval/dataset/utils/spatial_bench/matching_func.py at
e8e78f05, num2words installed) return for them.

    PYTHONPATH=<folder holding vlmeval/> python make_matching_vectors.py OUT.jsonl

Deterministic: fixed fragments combined in a fixed order.
"""
import itertools
import json
import sys

from vlmeval.dataset.utils.spatial_bench.matching_func import can_match_na, can_match_option

heads = ["", "The answer is ", "Answer: ", "final answer: ", "<think>A or B?</think>", "<think>maybe C",
         "I think ", "选 ", "答案：", "option A: left\noption B: right\n", "**", "(", "1. first\n2. second\n"]
bodies = ["A", "b", "C.", "(D)", "E)", "F", "G", "a dog", "twelve", "3.5", "<answer>B</answer>", "<answer> 7 m</answer>",
          "A and B", "none", "[2, 3]", "['C']", "Z", "B\u200b", "I. II.", "x = 4", "[A]", "</answer>", "D</think>"]
tails = ["", ".", " because it is left.", "\nSo the answer is C", "\n\nA", "**", ")", "\n- B\n"]
texts = []
for h, b, t in itertools.product(heads, bodies, tails):
    texts.append(h + b + t)
texts = texts[::7]  # a spread-out sample
texts += ["", "   ", "nan", "A" * 900 + " B", "x" * 850 + "\nC", "E.\nF.", "A. left\nB. right\nSo: B", "It is clearly a Dog.",
          "<ANSWER>d</ANSWER>", "< answer >e. foo< / answer >", "Answer is (b).", "so 所以 D", "[", "[1,", "[]", "1e400"]
with open(sys.argv[1], "w", encoding="utf-8") as f:
    for t in texts:
        opt = can_match_option(t)
        na = can_match_na(t)
        f.write(json.dumps({"text": t, "option": opt if opt else None, "na": na}, ensure_ascii=False) + "\n")
