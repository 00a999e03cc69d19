"""GAIA scoring: the leaderboard's ``question_scorer``, the TypeScript agents'
bidirectional-substring rule and a graded 0–1 scorer.

Scalar functions are the native ones (GIL-free Rust); strings holding lone surrogates are
decided natively too (carried as Private Use characters no input uses, mapped back).
"""

from __future__ import annotations

from typing import NamedTuple

from gaia_fast import _native

__all__ = ["Graded", "graded_score", "lenient_match", "normalize_answer", "official_explained", "question_scorer"]

#: ``question_scorer(model_answer, ground_truth, number_tolerance=None, *, coerce=False) -> bool``.
#: Bit-exact GAIA leaderboard decision. ``None`` prediction reads as ``"None"``; a non-str
#: argument raises ``TypeError`` (the original raised ``AttributeError``/``TypeError``)
#: unless ``coerce=True`` applies ``str()``. ``number_tolerance=t`` compares numbers with
#: ``abs(a - b) < t`` as the tolerant copies do; never prints or warns.
question_scorer = _native.question_scorer

#: ``lenient_match(prediction, truth) -> bool``: gaia-agent's ``evaluator.ts`` rule
#: (normalised prediction contains the normalised truth or vice versa).
lenient_match = _native.lenient_match

def normalize_answer(text: str | None) -> str:
    """The TypeScript agents' ``normalizeAnswer`` (gaia-agent ``evaluator.ts``): JS
    lowercase, trim, whitespace runs to one space, then every character that is neither a
    word character nor whitespace deleted. ``"The Answer is: 1,927!"`` →
    ``"the answer is 1927"``. None reads as ``""``, as the evaluator's ``text || ""``."""
    if text is None:
        return ""
    if not isinstance(text, str):
        raise TypeError(f"normalize_answer() expects str or None, got {type(text).__name__}")
    return _native.js_normalize(text)


#: ``official_explained(prediction, truth, number_tolerance=None, lower=True) -> (bool, str)``.
official_explained = _native.official_explained


class Graded(NamedTuple):
    """A graded verdict: ``score`` in [0, 1], the band's ``kind`` and a one-line ``explanation``."""

    score: float
    kind: str
    explanation: str


def graded_score(prediction: str | None, truth: str, level: int | None = None) -> Graded:
    """Graded 0–1 score built on the official decision (rule table in the README)."""
    return Graded(*_native.graded_score(prediction, truth, level))


# --- workspace answer extraction (Zypher bench grade.py, spec §4 step 3) ---------------

#: The prefix Zypher's ``grade.py`` removes (case-sensitive, exactly one space).
FINAL_ANSWER_PREFIX = "FINAL ANSWER: "


def extract_final_answer(text: str) -> str:
    """The answer in a workspace ``answer.txt``, as Zypher ``grade.py`` takes it:
    ``str.strip()`` (Python whitespace, U+001C–U+001F and U+0085 included; U+FEFF not),
    then remove a leading ``"FINAL ANSWER: "`` once. Nothing is stripped after the prefix
    (``"FINAL ANSWER:  x"`` → ``" x"``), and ``"FINAL ANSWER:17"`` or
    ``"final answer: x"`` keep their text."""
    text = text.strip()
    if text.startswith(FINAL_ANSWER_PREFIX):
        text = text[len(FINAL_ANSWER_PREFIX) :]
    return text


__all__ += ["FINAL_ANSWER_PREFIX", "extract_final_answer"]


_FINAL_ANSWER_MARK = None


def last_final_answer(text: str) -> str:
    """What follows the last ``FINAL ANSWER:`` marker (any case, any spacing: GAIA's prompt
    template as models write it), stripped; the whole text, stripped, when there is none.
    For free-form model outputs (RL rewards, eval harnesses); workspace files use
    :func:`extract_final_answer`, Zypher's exact rule."""
    global _FINAL_ANSWER_MARK
    if _FINAL_ANSWER_MARK is None:
        import re

        _FINAL_ANSWER_MARK = re.compile(r"final\s+answer\s*:", re.IGNORECASE)
    last = None
    for last in _FINAL_ANSWER_MARK.finditer(text):
        pass
    return (text[last.end() :] if last is not None else text).strip()


__all__ += ["last_final_answer"]
