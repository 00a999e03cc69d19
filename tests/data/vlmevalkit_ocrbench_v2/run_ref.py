"""Run VLMEvalKit's OCRBench_v2.evaluate (e8e78f05) on a result file, with WordNet absent.

nltk's METEOR ends with a WordNet synonym stage. This machine has no WordNet corpus, so that
one function is wrapped: where its answer cannot depend on WordNet (no unmatched word on one
side, or only CJK-written prediction words, which no English WordNet lemma contains) it runs
with an empty synset lookup; anywhere else it raises, so no expected value guesses WordNet.
"""
import re
import sys

import nltk.translate.meteor_score as ms

sys.path.insert(0, sys.argv[1])
_orig = ms._enum_wordnetsyn_match
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+")


class _Empty:
    @staticmethod
    def synsets(word, *a, **k):
        return []


def _wrapped(hyp, ref, wordnet=None):
    if not hyp or not ref or all(_CJK.fullmatch(w) for _, w in hyp):
        return _orig(hyp, ref, wordnet=_Empty())
    raise RuntimeError(f"WordNet would decide: hyp {hyp} ref {ref}")


ms._enum_wordnetsyn_match = _wrapped

import json  # noqa: E402

import vlmeval.dataset.utils.ocrbrnch_v2_eval as ev  # noqa: E402
from vlmeval.dataset.image_vqa import OCRBench_v2  # noqa: E402

_process = ev.process_predictions


def _recording(items):
    # process_predictions' own per-row output, saved beside the report (scores as floats)
    out = _process(items)
    rows = [{"type": d["type"], "score": float(d["score"]) if "score" in d else None, "ignore": "ignore" in d} for d in out]
    with open(sys.argv[2].rsplit(".", 1)[0] + "_rows.json", "w") as f:
        json.dump(rows, f, indent=1, ensure_ascii=False)
    return out


ev.process_predictions = _recording

res = OCRBench_v2.evaluate(sys.argv[2])
print(res)
