"""Pure-Python twin of VLMEvalKit's OCRBench evaluation (``OCRBench.evaluate`` in
``vlmeval/dataset/image_vqa.py`` at c03bc048, 2024-07-27; ``OCRBench_eval`` in
``vlmeval/dataset/utils/ocrbench.py`` at head e8e78f05: the same rule and report).

For each row, ``answers = eval(answer)``; the row counts for its category when one answer,
normalised, is a substring of the prediction, normalised the same way:

* category ``Handwritten Mathematical Expression Recognition``: ``strip()``, ``\\n`` to a
  space, then every space removed (case kept);
* every other category: ``lower()``, ``strip()``, ``\\n`` to a space.

The prediction is re-normalised before each answer, as upstream does. The report sums the
six text-recognition categories into ``Text Recognition``, keeps the other four, adds them
all up as ``Final Score`` and gives ``Final Score Norm`` = ``float(Final Score) / 10``.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["CATEGORIES", "HME", "ocrbench_hit", "ocrbench_report"]

HME = "Handwritten Mathematical Expression Recognition"
TEXT_RECOGNITION = (
    "Regular Text Recognition",
    "Irregular Text Recognition",
    "Artistic Text Recognition",
    "Handwriting Recognition",
    "Digit String Recognition",
    "Non-Semantic Text Recognition",
)
CATEGORIES = (*TEXT_RECOGNITION, "Scene Text-centric VQA", "Doc-oriented VQA", "Key Information Extraction", HME)


def ocrbench_hit(prediction: str, answers: Sequence[str], category: str) -> int | None:
    """Index of the answer that made the row count, or None."""
    predict = prediction
    for j in range(len(answers)):
        if category == HME:
            answer = answers[j].strip().replace("\n", " ").replace(" ", "")
            predict = predict.strip().replace("\n", " ").replace(" ", "")
        else:
            answer = answers[j].lower().strip().replace("\n", " ")
            predict = predict.lower().strip().replace("\n", " ")
        if answer in predict:
            return j
    return None


def ocrbench_report(predictions: Sequence[str], answers: Sequence[Sequence[str]], categories: Sequence[str]) -> dict:
    """The ``_score.json`` dict (raises KeyError on a hit in an unknown category, as
    upstream)."""
    score = dict.fromkeys(CATEGORIES, 0)
    for p, a, c in zip(predictions, answers, categories):
        if ocrbench_hit(p, a, c) is not None:
            score[c] += 1
    out = {"Text Recognition": sum(score[c] for c in TEXT_RECOGNITION)}
    for c in ("Scene Text-centric VQA", "Doc-oriented VQA", "Key Information Extraction", HME):
        out[c] = score[c]
    out["Final Score"] = sum(out.values())
    out["Final Score Norm"] = float(out["Final Score"]) / 10
    return out
