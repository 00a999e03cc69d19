"""Pure-Python twins of the OlympiadBench scorer (spec: ``specs/vlmevalkit.md`` §5, §6).

Written from the spec with the reference's own tools, in-process: Python ``re`` for the
answer phrase, ``float()`` for numbers, ``sympy.parsing.latex.parse_latex`` (ANTLR 4.11
backend, sympy 1.14) and ``simplify`` for expressions and equations. Two judges:

* ``variant="openbmb"`` (default): the benchmark authors' ``MathJudger`` (§5.9);
* ``variant="vlmevalkit"``: VLMEvalKit's port (089dc350 … HEAD, and the DCVLR fork), whose
  expression test stops after the structural comparison because it calls a helper that was
  commented out (§5.6).

Both share the preprocessing (§5.4), splitting and greedy pairing (§5.3), the numeric,
equation and interval tests (§5.5). Where the reference raises out of ``judge`` (a
precision list shorter than the prediction's pieces: ``IndexError``), these functions raise
the same exception; row-level helpers turn it into an error result. Nothing here prints,
and nothing here has a time limit (the native path runs SymPy in worker processes with
hard timeouts; see ``gaia_fast.math.olympiad``).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, cast

from gaia_fast.scorers.vlm.olympiad_tables import SOURCES, VARIANTS

__all__ = [
    "CHINESE_PHRASE",
    "ENGLISH_PHRASE",
    "SOURCES",
    "VARIANTS",
    "boxed_content",
    "equation_equal",
    "expression_equal",
    "extract_answer",
    "interval_equal",
    "is_equal",
    "judge",
    "numerical_equal",
    "pair_lists",
    "preprocess",
    "preprocess_one",
    "report",
    "row_gt",
    "row_precision",
    "score_row",
    "split_by_comma",
    "strip_chinese",
    "trans_plus_minus_sign",
]

ENGLISH_PHRASE = "So the final answer is "
CHINESE_PHRASE = "所以最终答案是"

# --------------------------------------------------------------------------------------
# §5.1 answer extraction
# --------------------------------------------------------------------------------------

_EN_RE = re.compile("So the final answer is (.*)")
_ZH_RE = re.compile("所以最终答案是(.*)")


def extract_answer(model_output: str | None, is_chinese: bool) -> str:
    """VLMEvalKit/OpenBMB ``extract_answer(is_chinese, model_output, is_deepseek=False)``.

    ``None`` stands for a NaN cell, whose ``str()`` is ``nan``. The last match of the
    phrase (``.`` stops only at ``\\n``), stripped; without a match the whole text.
    """
    if model_output is None or str(model_output) == "nan":
        model_output = "nan"
    matches = (_ZH_RE if is_chinese else _EN_RE).findall(model_output)
    if matches:
        return matches[-1].strip()
    return model_output


# --------------------------------------------------------------------------------------
# §5.4 preprocessing
# --------------------------------------------------------------------------------------

_BOXED_RE = re.compile(r"\\boxed{")
_DOLLAR_RE = re.compile(r"\$(.*?)\$")
_MATHRM_RE = re.compile(r"\\(?:mathrm|mathbf)\{~?([^}]*)\}")
_SPECIAL_SIGNALS = (
    ("\\left", ""),
    ("\\right", ""),
    ("∶", ":"),
    ("，", ","),
    ("$", ""),
    ("\\approx", "="),
    ("\\simeq", "="),
    ("\\sim", "="),
    ("^\\prime", "'"),
    ("^{\\prime}", "'"),
    ("^\\circ", ""),
    ("%", ""),
)
_STRIP_CHARS = "\n$,.:;^_=+`!@#$%^&*~，。"


def boxed_content(text: str) -> str:
    """§5.4 steps 1-2: every ``\\boxed{…}`` content followed by a comma (nested boxes
    included); without boxes, the ``$…$`` spans of the last line, or the text itself.

    Raises ``ValueError`` for a box whose braces never close (as the reference does).
    """
    results = ""
    for match in _BOXED_RE.finditer(text):
        start = end = match.end()
        stack = 1
        while stack > 0 and end < len(text):
            if text[end] == "{":
                stack += 1
            elif text[end] == "}":
                stack -= 1
            end += 1
        if stack == 0:
            results += text[start : end - 1] + ","
        else:
            raise ValueError("Mismatched braces in LaTeX string.")
    if results == "":
        last_line = text.strip().split("\n")[-1]
        answers = _DOLLAR_RE.findall(last_line)
        if answers:
            for ans in answers:
                results += ans + ","
        else:
            results = text
    return results


def _symbol_replace(expression: str) -> str:
    """§5.4 steps 3-6."""
    if "\\in " in expression:
        expression = expression.split("\\in ")[1]
    for old, new in _SPECIAL_SIGNALS:
        expression = expression.replace(old, new)
    expression = expression.strip(_STRIP_CHARS)
    return _MATHRM_RE.sub(r"\1", expression)


def preprocess_one(text: str) -> str:
    """The reference's preprocessing of one side; raises ``ValueError`` on unbalanced boxes."""
    return _symbol_replace(boxed_content(text))


def preprocess(expression1: str, expression2: str) -> tuple[str, str]:
    """``MathJudger.preprocess``: both sides' boxes first (either may raise), then the
    symbol clean-up."""
    exp1, exp2 = boxed_content(expression1), boxed_content(expression2)
    return _symbol_replace(exp1), _symbol_replace(exp2)


# --------------------------------------------------------------------------------------
# §5.3 splitting
# --------------------------------------------------------------------------------------

_CHINESE_RE = re.compile(r"[\u4e00-\u9fff]+")


def strip_chinese(text: str) -> str:
    """Delete every run of U+4E00..U+9FFF."""
    return _CHINESE_RE.sub("", text)


def split_by_comma(expr: str) -> list[str]:
    """Top-level comma split; ``(``/``[`` raise the depth, ``)``/``]`` lower it (it may
    go negative); pieces stripped; an empty tail is dropped."""
    depth = 0
    pieces: list[str] = []
    start = 0
    for i, char in enumerate(expr):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            pieces.append(expr[start:i].strip())
            start = i + 1
    if start < len(expr):
        pieces.append(expr[start:].strip())
    return pieces


def trans_plus_minus_sign(items: Sequence[str]) -> list[str]:
    """Each piece containing ``\\pm`` becomes two: ``\\pm``→``+``, then ``\\pm``→``-``."""
    out: list[str] = []
    for item in items:
        if "\\pm" in item:
            out.append(item.replace("\\pm", "+"))
            out.append(item.replace("\\pm", "-"))
        else:
            out.append(item)
    return out


# --------------------------------------------------------------------------------------
# §5.5 tests for one pair of pieces
# --------------------------------------------------------------------------------------

_SYMPY: dict[str, Any] = {}


def _sympy() -> dict[str, Any]:
    """Import SymPy and the LaTeX parser on first use (they are slow to import)."""
    if not _SYMPY:
        import sympy
        from sympy.parsing.latex import parse_latex

        _SYMPY.update(sympy=sympy, parse_latex=parse_latex, pi=parse_latex("\\pi"))
    return _SYMPY


class _IntDigits:
    """The references call ``sys.set_int_max_str_digits(1000000)`` at import; applied here
    only for the duration of a SymPy call, so the caller's process keeps its own limit."""

    def __enter__(self) -> None:
        self.old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(1000000)

    def __exit__(self, *exc: object) -> None:
        sys.set_int_max_str_digits(self.old)


def numerical_equal(expression1: str, expression2: str, precision: float = 1e-8) -> bool:
    """``numerical_equal``: ``float()`` of both (raises ``ValueError`` if either is not a
    Python float); percent variants of the first argument (the prediction)."""
    reference = float(expression1)
    prediction = float(expression2)
    for item in (reference / 100, reference, reference * 100):
        if abs(item - prediction) <= precision * 1.01:
            return True
    return False


def _extract_expression(expression: str) -> str:
    if "=" in expression:
        expression = expression.split("=")[1]
    return expression.strip()


def _can_compute_power(expr: Any) -> bool:
    sp = _sympy()["sympy"]
    if isinstance(expr, sp.Pow):
        base, exp = expr.as_base_exp()
        if base.is_number and exp.is_number:
            return not abs(exp.evalf()) > 1000
        return False
    return True


def expression_equal(exp1: str, exp2: str, precision: float = 1e-8, variant: str = "openbmb") -> Any:
    """``expression_equal``. May raise (parse errors; in ``vlmevalkit`` the missing
    ``sympy_sub_pi`` helper raises ``AttributeError`` after a failed structural match).
    Returns what the reference returns, which in the symbolic branch can be a SymPy
    boolean or relational (truth-tested by the caller)."""
    s = _sympy()
    sp, parse_latex = s["sympy"], s["parse_latex"]
    exp1 = _extract_expression(exp1)
    exp2 = _extract_expression(exp2)
    expr1_sym = sp.sympify(parse_latex(exp1))
    expr2_sym = sp.sympify(parse_latex(exp2))
    if expr1_sym == expr2_sym:
        return True
    if variant == "vlmevalkit":
        raise AttributeError("'MathJudger' object has no attribute 'sympy_sub_pi'")
    expr1_sym = expr1_sym.subs(s["pi"], math.pi)
    expr2_sym = expr2_sym.subs(s["pi"], math.pi)
    has1, has2 = expr1_sym.has(sp.Symbol), expr2_sym.has(sp.Symbol)
    if has1 != has2:
        return False
    if not has1:
        try:
            if not (_can_compute_power(expr1_sym) and _can_compute_power(expr2_sym)):
                return False
            if abs(expr1_sym.evalf() - expr2_sym.evalf()) <= precision * 1.01:  # noqa: SIM103 - truth test as upstream
                return True
            return False
        except Exception:  # noqa: BLE001 - the reference's bare except
            return False
    try:
        simplified = sp.simplify(expr1_sym - expr2_sym)
        num_value = simplified.evalf()
        return abs(num_value) < 1e-3
    except Exception:  # noqa: BLE001
        return False


def equation_equal(expression1: str, expression2: str) -> bool:
    """``equation_equal``: both sides must hold exactly one ``=`` (else ``ValueError``);
    equal iff the simplified ratio of (lhs − rhs) either way is a non-zero Integer."""
    s = _sympy()
    sp, parse_latex = s["sympy"], s["parse_latex"]

    def simplify_equation(latex_eq: str) -> Any:
        lhs, rhs = latex_eq.split("=")
        equation = sp.Eq(parse_latex(lhs), parse_latex(rhs))
        return sp.simplify(equation.lhs - equation.rhs)

    expr1_sym = simplify_equation(expression1)
    expr2_sym = simplify_equation(expression2)
    division_result_1 = sp.simplify(expr1_sym / expr2_sym)
    division_result_2 = sp.simplify(expr2_sym / expr1_sym)
    return bool(
        (division_result_1.is_Integer and division_result_1 != 0)
        or (division_result_2.is_Integer and division_result_2 != 0)
    )


def interval_equal(expression1: str, expression2: str, precision: float = 1e-8, variant: str = "openbmb") -> bool:
    """``interval_equal``: same number of ``\\cup`` pieces, same outer brackets, and the
    expression test on the zipped comma items. Exceptions propagate (the caller then
    answers False at once)."""

    def compare_two_interval(inter1: str, inter2: str) -> bool:
        if inter1[0] != inter2[0] or inter1[-1] != inter2[-1]:
            return False
        items_1 = inter1.strip("[]()").split(",")
        items_2 = inter2.strip("[]()").split(",")
        for item_1, item_2 in zip(items_1, items_2):
            if not expression_equal(item_1, item_2, precision, variant):
                return False
        return True

    if expression1 == expression2:
        return True
    list1 = expression1.split("\\cup")
    list2 = expression2.split("\\cup")
    if len(list1) != len(list2):
        return False
    for inter1, inter2 in zip(list1, list2):
        if not compare_two_interval(inter1, inter2):
            return False
    return True


def _is_interval(expr: str) -> bool:
    return expr.startswith(("(", "[")) and expr.endswith((")", "]"))


def is_equal(expression1: str, expression2: str, precision: float = 1e-8, variant: str = "openbmb") -> bool:
    """``MathJudger.is_equal`` for one pair of pieces (the first from the prediction).
    Never raises: every stage's exception means "not equal" at that stage."""
    _check_variant(variant)
    if expression1 == expression2 and expression1 != "" and expression2 != "":
        return True
    with _IntDigits():
        if _is_interval(expression1) and _is_interval(expression2):
            try:
                if interval_equal(expression1, expression2, precision, variant):
                    return True
            except Exception:  # noqa: BLE001
                return False
        try:
            if numerical_equal(expression1, expression2, precision):
                return True
        except Exception:  # noqa: BLE001, S110 - each stage's failure means "not equal"
            pass
        try:
            if expression_equal(expression1, expression2, precision, variant) and not (
                "=" in expression1 and "=" in expression2
            ):
                return True
        except Exception:  # noqa: BLE001, S110 - each stage's failure means "not equal"
            pass
        try:
            if equation_equal(expression1, expression2):
                return True
        except Exception:  # noqa: BLE001, S110 - each stage's failure means "not equal"
            pass
    return False


# --------------------------------------------------------------------------------------
# §5.3 judge
# --------------------------------------------------------------------------------------


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")


def pair_lists(
    list1: list[str],
    list2: list[str],
    precision: list[float],
    equal: Callable[[str, str, float], bool],
) -> bool:
    """The greedy pairing of §5.3 step 9, exactly: the visiting index rotates and is not
    adjusted after removals; the precision list is indexed by the first list's items
    (``IndexError`` when it is too short). All three lists are consumed in place."""
    idx = -1
    while len(list1) != 0:
        idx = (idx + 1) % len(list1)
        item1 = list1[idx]
        p = precision[idx]
        for item2 in list2:
            if equal(item1, item2, p):
                list1.remove(item1)
                list2.remove(item2)
                precision.remove(p)
                break
        else:
            return False
    return True


def judge(
    expression1: str,
    expression2: str,
    precision: float | Sequence[float] = 1e-8,
    variant: str = "openbmb",
) -> bool:
    """``MathJudger.judge(prediction, gt, precision)``. A list precision is copied (the
    reference consumes it in place). Raises ``IndexError`` where the reference does."""
    _check_variant(variant)
    prec = cast("list[float]", list(precision) if isinstance(precision, (list, tuple)) else [precision])
    try:
        expression1, expression2 = preprocess(expression1, expression2)
    except Exception:  # noqa: BLE001 - the reference's bare except
        return False
    if expression1 == expression2:
        return True
    list1 = trans_plus_minus_sign(split_by_comma(strip_chinese(expression1)))
    list2 = trans_plus_minus_sign(split_by_comma(strip_chinese(expression2)))
    if len(prec) <= 1:
        prec = prec * len(list1)
    if len(list1) != len(list2):
        return False
    return pair_lists(list1, list2, prec, lambda a, b, p: is_equal(a, b, p, variant))


# --------------------------------------------------------------------------------------
# §5.2 row glue and §5.7 report
# --------------------------------------------------------------------------------------


def _is_nan_cell(value: object) -> bool:
    return value is None or str(value) == "nan"


def row_gt(final_answer: str) -> str:
    """VLMEvalKit: the ``final_answer`` cell without its first two and last two characters."""
    return final_answer[2:-2]


def row_precision(error: str | None) -> float | list[float] | None:
    """VLMEvalKit's precision from the ``error`` cell: ``None`` (NaN cell: default), a float,
    or a list (comma pieces, ``1e-8`` for empty ones). Raises ``ValueError`` like ``float()``."""
    if _is_nan_cell(error):
        return None
    assert error is not None
    if "," in error:
        return [float(p) if p else 1e-8 for p in error.split(",")]
    return float(error)


def score_row(
    prediction: str | None,
    source: str | None,
    final_answer: str | None,
    answer_type: str | None,
    error: str | None,
) -> tuple[bool | None, str | None]:
    """One row of VLMEvalKit's ``OlympiadBench.evaluate`` (§5.2), ``None`` = a NaN cell.
    Returns ``(score, None)``, or ``(None, exception name)`` where the reference raised."""
    try:
        is_chinese = "zh" in source  # type: ignore[operator]
        answer = extract_answer(prediction, is_chinese)
        gt = row_gt(final_answer)  # type: ignore[arg-type]
        if not _is_nan_cell(answer_type) and "Tuple" in answer_type:  # type: ignore[operator]
            return judge(answer, gt, variant="vlmevalkit"), None
        precision = row_precision(error)
        if precision is None:
            return judge(answer, gt, variant="vlmevalkit"), None
        return judge(answer, gt, precision, variant="vlmevalkit"), None
    except Exception as e:  # noqa: BLE001 - the reference's evaluation stops here
        return None, type(e).__name__




def report(rows: Sequence[tuple[str | None, object]]) -> dict[str, float]:
    """VLMEvalKit's OlympiadBench score table from ``(source, score)`` rows: per source,
    then zh/en × maths/physics, maths, physics, then ``AVG`` over all rows of the file.
    Raises ``ZeroDivisionError`` where the reference does (a group without rows)."""
    samples: list[list[object]] = [[] for _ in SOURCES]
    for source, score in rows:
        for j, name in enumerate(SOURCES):
            if source == name:
                samples[j].append(score)
    out: dict[str, float] = {}
    correct = []
    for name, sample in zip(SOURCES, samples):
        n = sum(1 for s in sample if s)
        correct.append(n)
        out[name] = 100 * n / len(sample)
    for lang in ("zh", "en"):
        for subject in ("maths", "physics"):
            c = t = 0
            for name, sample, n in zip(SOURCES, samples, correct):
                if lang in name and subject in name:
                    c += n
                    t += len(sample)
            out[f"{lang}_{subject}"] = 100 * c / t
    for subject in ("maths", "physics"):
        c = t = 0
        for name, sample, n in zip(SOURCES, samples, correct):
            if subject in name:
                c += n
                t += len(sample)
        out[subject] = 100 * c / t
    out["AVG"] = 100 * sum(correct) / len(rows)
    return out
