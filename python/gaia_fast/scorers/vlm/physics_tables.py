"""PHYSICS (atomic_dataset) constants and reference rules shared by the scorer
(:mod:`gaia_fast.scorers.vlm.physics`) and its pure-Python twin
(:mod:`gaia_fast.reference.vlm_physics`): the judge prompts, the yale list-box pattern and
the small ``is_equiv`` rules that have no native counterpart (``specs/vlmevalkit.md`` §4).

Only tables and one-line rules live here; logic the twin is the oracle for (box
extraction, preprocessing, the SymPy fast path) stays native in the product and in Python
in the twin.
"""

from __future__ import annotations

import ast
import re
import warnings

__all__ = [
    "JUDGE_SYSTEM_PROMPT",
    "JUDGE_USER_PROMPT",
    "LIST_PATTERN",
    "has_text_command",
    "head_ground_truths",
    "judge_prompt",
    "judge_says_true",
]

#: yale-nlp/Physics `extract_final_answer_list` (the archive harness, `answer_type='list'`).
LIST_PATTERN = re.compile(r"\\boxed{\\\[(.*?)\\\]}|\\\\\[boxed{\\\[(.*?)\\\]}\\\\\]")

#: The judge prompts of `is_equiv` (VLMEvalKit physics_eval_utils, every version).
JUDGE_SYSTEM_PROMPT = "You are an assistant that compares LaTeX expressions for equivalence."
JUDGE_USER_PROMPT = (
    "Compare the following LaTeX expressions and check if the numerical parts are equivalent in meaning.\n\n"
    "Expression 1:\n{expr1}\n\nExpression 2:\n{expr2}\n\n"
    "Return True if they are equivalent, otherwise return False. Focus on mathematical content."
)


def has_text_command(s: str, working: bool) -> bool:
    """The `\\text` check of `is_equiv`: ``working`` (head, a039b677, yale's archive run)
    looks for backslash-``text``; the original (8f07d6cf, dcvlr) wrote ``"\\text"`` without
    a raw string and so looks for TAB + ``ext``."""
    return ("\\text" if working else "\text") in s


def judge_prompt(pred: str, gt: str) -> str:
    """The user prompt `is_equiv` sends the judge (system prompt: ``JUDGE_SYSTEM_PROMPT``)."""
    return JUDGE_USER_PROMPT.format(expr1=pred, expr2=gt)


def judge_says_true(reply: str | None) -> bool:
    """`generate_result and "true" in generate_result.lower()`."""
    return bool(reply) and "true" in reply.lower()


def head_ground_truths(answer: str) -> list[str]:
    """`head`'s ground truths (§4.3): a bracketed answer is a Python literal whose elements
    are ``str()``-ed; anything else is one ground truth. Raises where head's dataset
    loading fails (a bracketed non-literal)."""
    if len(answer) > 1 and answer.startswith("[") and answer.endswith("]"):
        with warnings.catch_warnings():  # e.g. "invalid escape sequence" in LaTeX text
            warnings.simplefilter("ignore")
            return [str(x) for x in ast.literal_eval(answer)]
    return [answer]
