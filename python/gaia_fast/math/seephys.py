"""The SymPy half of SeePhys's ``post_check`` (VLMEvalKit ``vlmeval/dataset/utils/seephys.py``):
``parse_latex`` of the rule-extracted answer and of the reference answer, then
``quick_compare``. Module-level so :class:`gaia_fast.math.pool.SympyPool` workers run it
with a hard time limit (``simplify`` can hang); it returns instead of raising, as
``post_check`` catches every exception here (a miss)."""

from __future__ import annotations

from typing import Any

__all__ = ["post_check_sympy", "quick_compare"]


def quick_compare(response: Any, answer: Any, tol: float = 1e-6) -> bool:
    """``quick_compare``: numbers within ``tol``; two equations by their simplified
    ``lhs - rhs``; else ``simplify(response - answer) == 0``."""
    from sympy import Eq, simplify

    if response is None or answer is None:
        return False
    if response.is_Number and answer.is_Number:
        return abs(float(response - answer)) < tol
    if isinstance(response, Eq) and isinstance(answer, Eq):
        return simplify(response.lhs - response.rhs) == simplify(answer.lhs - answer.rhs)
    return simplify(response - answer) == 0


def post_check_sympy(res: Any, ans: Any) -> tuple[bool, str]:
    """``(hit, why)``: whether ``post_check``'s SymPy step says equal (``res`` the extracted
    text, ``ans`` the answer cell as pandas holds it)."""
    from sympy.parsing.latex import parse_latex

    try:
        parsed_res = parse_latex(res)
        parsed_ans = parse_latex(ans)
        if quick_compare(parsed_res, parsed_ans):
            return True, "parse_latex + quick_compare: equal"
    except Exception as e:  # noqa: BLE001 - post_check returns False on any exception
        return False, f"SymPy raised {type(e).__name__}"
    return False, "parse_latex + quick_compare: not equal"
