"""OlympiadBench's computer-algebra tests for one pair of pieces (``specs/vlmevalkit.md``
§5.5, §5.6, §5.9): ``MathJudger.is_equal`` once the native fast paths have left a pair
open. Runs in the worker processes of :class:`~gaia_fast.math.pool.SympyPool` (SymPy is
imported on first use there, never in the caller)."""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator
from typing import Any

_sp: Any = None
_parse: Any = None
_PI: Any = None


def _load() -> None:
    global _sp, _parse, _PI
    if _sp is None:
        import sympy
        from sympy.parsing.latex import parse_latex

        _sp, _parse, _PI = sympy, parse_latex, parse_latex("\\pi")


@contextlib.contextmanager
def _big_ints() -> Iterator[None]:
    # Upstream lifts CPython's int-to-str digit limit at import; here only while a pair runs.
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(1_000_000)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def _close(x: float, y: float, precision: float) -> bool:
    return abs(x - y) <= precision * 1.01


def _numeric(pred: str, gt: str, precision: float) -> bool:
    """Python ``float()`` of both (ValueError otherwise); the prediction may be a percent
    of the truth either way."""
    x, y = float(pred), float(gt)
    return any(_close(v, y, precision) for v in (x / 100, x, x * 100))


def _side(expr: str) -> str:
    # The text between the first and second "=", if any.
    return (expr.split("=")[1] if "=" in expr else expr).strip()


def _power_ok(node: Any) -> bool:
    """Only the top-level node is checked: a power needs numeric base and exponent and
    an exponent of at most 1000 in absolute value."""
    if not isinstance(node, _sp.Pow):
        return True
    base, exp = node.as_base_exp()
    return bool(base.is_number and exp.is_number) and not abs(exp.evalf()) > 1000


def _expression(pred: str, gt: str, precision: float, variant: str) -> Any:
    """The expression test. Raises where upstream raises (parse errors; the port's
    missing helper): inside the interval test that ends the comparison. With symbols on
    both sides it returns SymPy's comparison unevaluated, as upstream: the caller's truth
    test raises on a symbolic remainder, with the same effect as there."""
    a = _sp.sympify(_parse(_side(pred)))
    b = _sp.sympify(_parse(_side(gt)))
    if a == b:
        return True
    if variant == "vlmevalkit":
        raise AttributeError("sympy_sub_pi")  # the port calls a helper that does not exist
    a, b = a.subs(_PI, math.pi), b.subs(_PI, math.pi)
    symbolic = a.has(_sp.Symbol)
    if symbolic != b.has(_sp.Symbol):
        return False
    try:
        if not symbolic:
            return _power_ok(a) and _power_ok(b) and bool(abs(a.evalf() - b.evalf()) <= precision * 1.01)
        return abs(_sp.simplify(a - b).evalf()) < 1e-3
    except Exception:  # noqa: BLE001 - upstream's bare except: not equal
        return False


def _equation(pred: str, gt: str) -> bool:
    """Exactly one "=" each; equal when (lhs - rhs) of one side divided by the other's
    simplifies to a non-zero SymPy Integer, either way round."""

    def difference(eq: str) -> Any:
        lhs, rhs = eq.split("=")
        rel = _sp.Eq(_parse(lhs), _parse(rhs))  # may evaluate to a plain boolean: raises below
        return _sp.simplify(rel.lhs - rel.rhs)

    d1, d2 = difference(pred), difference(gt)
    return any(q.is_Integer and q != 0 for q in (_sp.simplify(d1 / d2), _sp.simplify(d2 / d1)))


def _interval(pred: str, gt: str, precision: float, variant: str) -> bool:
    if pred == gt:
        return True
    parts1, parts2 = pred.split("\\cup"), gt.split("\\cup")
    if len(parts1) != len(parts2):
        return False
    for p, g in zip(parts1, parts2):
        if p[0] != g[0] or p[-1] != g[-1]:
            return False
        for x, y in zip(p.strip("[]()").split(","), g.strip("[]()").split(",")):
            if not _expression(x, y, precision, variant):
                return False
    return True


def _bracketed(s: str) -> bool:
    return s[:1] in ("(", "[") and s[-1:] in (")", "]")


def is_equal(pred: str, gt: str, precision: float = 1e-8, variant: str = "openbmb") -> bool:
    """``MathJudger.is_equal(pred, gt)`` of the chosen judge for one pair of pieces.
    Never raises: a failing test means "not equal" at that test."""
    if variant not in ("openbmb", "vlmevalkit"):
        raise ValueError(f"unknown variant {variant!r}; expected one of ('openbmb', 'vlmevalkit')")
    if pred == gt and pred != "":
        return True
    _load()
    with _big_ints():
        if _bracketed(pred) and _bracketed(gt):
            try:
                if _interval(pred, gt, precision, variant):
                    return True
            except Exception:  # noqa: BLE001 - an interval error ends the comparison
                return False
        with contextlib.suppress(Exception):
            if _numeric(pred, gt, precision):
                return True
        with contextlib.suppress(Exception):
            if _expression(pred, gt, precision, variant) and not ("=" in pred and "=" in gt):
                return True
        with contextlib.suppress(Exception):
            if _equation(pred, gt):
                return True
    return False
