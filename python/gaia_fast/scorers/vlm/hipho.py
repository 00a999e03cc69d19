"""HiPhO, the physics olympiad sets (VLMEvalKit ``HiPhODataset.evaluate``), laid out as
extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/hipho.py`` and
``vlmeval/dataset/utils/hipho_verifier.py`` at e8e78f05 (head), unchanged in behaviour
since 3dcd3f05 (2025-12-15), the commit that moved the per-row work into
``track_progress_rich`` threads. Names: IPhO, EuPhO, PanPhO, NBPhO, F_MA and PanMechanics
2024/2025, APhO_2025 and HiPhO_ALL.

How VLMEvalKit grades a row when run.py gives no judge (it gives HiPhO none, so the judge
name is ``exact_matching``):

* **Fine-grained** (the marking scheme): every criterion goes to the LLM judge. Without one
  the call raises, the row's worker returns the failure message, and the row is left out
  of every total (score, maximum, rates). A row whose ``marking`` has no criterion scores
  0. So the fine-grained total is 0 and marked rows are excluded (status ``excluded``).
* **Coarse-grained** (``answer_tag_reward_fn_for_r1``): the last *n* ``\\boxed{}`` of the
  prediction against the *n* answers (each answer's own last box, if any), each pair by
  the verifier's chain: MATH-style normalisation and string equality, then SymPy-style
  normalisation and comparison (tuples, fractions, A-Z choices, true/false, ``pi`` as
  π/3.14/180, relative tolerance 2e-3, scientific notation, ``sympy.simplify``). Its next
  steps never decide here: math-verify's ``parse`` sets a SIGALRM timer, which raises in
  the worker thread, so that step is always False (the interval check after it reads a
  string); the xverify step needs the judge. A row's points are
  ``sum(correct_i * points_i)`` when there are as many points as answers, else the last
  pair's verdict (0 or 1).
* The row earns ``max(fine, coarse)``; totals are summed in row order rounded to 2
  places at each step; the report (``{stem}_exact_matching_score.json``, for HiPhO_ALL
  ``{stem}_ALL_exact_matching_score.json``; an xlsx run writes it again as
  ``{stem}_score.json``) holds the fine, coarse and final totals, their
  rates (``round(total / max * 100, 2)``) and the maximum. HiPhO_ALL (with a
  ``SUB_DATASET`` column) reports each of its 13 subsets present, in their order, with
  ``subset_name`` and ``problem_count`` (rows of the subset, excluded ones included); rows
  of any other subset are not graded.

After writing the reports VLMEvalKit's ``evaluate`` raises (the per-row ``_detailed.xlsx``
gets fewer values than rows) whenever a row was excluded; ``stats['reference_error']``
says so, and the reports are still the ones it wrote. HiPhO_ALL's report here is
``key``/``value`` rows with text values (written nested, its leaves as text).

A run graded with ``--judge J`` (LLM marking of the scheme, and xverify accepting answers
the rules reject) is replayed from its records (``{stem}_{J}.pkl``, per row by position:
``recorded=``): each row takes the recorded fine and coarse scores, checked against the
rules (the rules' coarse score may not exceed the recorded one, the points must agree;
else ``disagrees``); a row with no record ``needs_judge``. Without the pickle such a run
is reported as another method.

Not reproduced: the first version
(72be960f, 2025-11-24 to 12-14), which ran rows in the main thread, where math-verify and
SIGALRM time limits (1 s, 5 s, 30 s) act, so its verdicts depend on timing. Where the
verifier ``eval``s an answer text (``handle_pi``) that would call or read one of its
module's names, and where SymPy overruns ``SYMPY_TIMEOUT`` in the worker pool (upstream
has no limit in threads), the row is ``unreproduced`` and the report's values are null.

SymPy 1.14.0 does the algebra and pylatexenc 2.10 the LaTeX-to-text step (``pip install
gaia-fast[hipho]``), each pair's SymPy step in a worker process of the SymPy pool.
"""

from __future__ import annotations

import ast
import atexit
import builtins
import json
import logging
import math
import operator
import re
import threading
from collections.abc import Sequence
from decimal import Decimal, localcontext
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult, as_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
from gaia_fast.scorers.vlm.hipho_tables import (
    ALL_SUBSETS,
    REFERENCE_GLOBALS,
    UNIT_TEXTS,
)

__all__ = ["REPORT_KEYS", "SYMPY_TIMEOUT", "VARIANTS", "grade", "sympy_stage"]

#: The judge records this family reads (a ``--judge`` run's per-row results): the executor
#: passes ``find_records(path, RECORD_KIND)`` as ``recorded=``.
RECORD_KIND = "hipho"

VARIANTS: tuple[str, ...] = ("head",)
DEFAULT_VARIANT = "head"
#: Seconds one pair's SymPy step may take in a worker before the row is ``unreproduced``.
SYMPY_TIMEOUT = 60.0
#: The report's keys, in the reference's order (``_build_final_results``).
REPORT_KEYS = (
    "fine_grained_total_score",
    "fine_grained_score_rate",
    "coarse_grained_total_score",
    "coarse_grained_score_rate",
    "max_possible_score",
    "total_score",
    "score_rate",
)


class _RowFails(Exception):
    """VLMEvalKit's per-row evaluation raises here: the row is left out of the totals."""


class _Unsupported(Exception):
    """The reference's ``eval`` would reach one of its own names: not reproduced."""


class _EvalFails(Exception):
    """The reference's ``eval`` raises: it keeps the text."""


# --------------------------------------------------------------------------------------
# Cells, as HiPhODataset reads them (pandas values: str, int, float, bool, NaN)
# --------------------------------------------------------------------------------------


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _list_cell(v: Any) -> list:
    """``_safe_parse_json_field``: a JSON list when the text is bracketed, else the text."""
    if _missing(v) or (isinstance(v, str) and v == ""):
        return []
    text = str(v).strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return [text]
        except RecursionError:
            raise _RowFails("the cell nests too deeply for json.loads") from None
    return [] if text == "nan" else [text]


def _points_cell(v: Any) -> list[float]:
    """``_safe_parse_points_field``."""
    if _missing(v):
        return [0.0]
    if isinstance(v, (int, float)):
        return [float(v)]
    text = str(v).strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            parsed = None
        except RecursionError:
            raise _RowFails("the points cell nests too deeply for json.loads") from None
        if parsed is not None:
            out = []
            for p in parsed:
                if p is None:
                    continue
                if isinstance(p, (list, dict)):
                    raise _RowFails(f"points entry {p!r} is not a number (float() raises TypeError upstream)")
                try:
                    out.append(float(p))
                except ValueError:
                    break  # upstream's except ValueError drops the list and tries the whole text
            else:
                return out
    try:
        return [float(text)]
    except ValueError:
        return [0.0]


def _criteria(marking: list) -> int:
    """How many marking criteria the judge would be asked about (``_parse_marking_criteria``
    of the one set, or of each set when there are several)."""

    def count(items: list) -> int:
        flat: list = []
        for it in items:
            if isinstance(it, list):
                flat.extend(it)
            else:
                flat.append(it)
        return sum(1 for c in flat if c and str(c).strip())

    if len(marking) > 1 and all(isinstance(m, list) for m in marking):
        return sum(count(s) for s in marking)
    if len(marking) == 1 and isinstance(marking[0], list):
        marking = marking[0]
    return count(marking)


# --------------------------------------------------------------------------------------
# Extraction: \boxed{...}
# --------------------------------------------------------------------------------------


def _box_end(text: str, start: int) -> int | None:
    """Index of the ``}`` that closes the first brace group from ``start``, or None."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _box_start(text: str) -> int:
    i = text.rfind("\\boxed")
    return i if i >= 0 else text.rfind("\\fbox")


def _unbox(s: str | None) -> str | None:
    """The content of ``\\boxed{...}`` (None for ``\\fbox{...}`` and other shapes)."""
    if s is None or not s.startswith("\\boxed{") or not s.endswith("}"):
        return None
    return s[len("\\boxed{") : -1]


def _last_boxes(text: str, n: int) -> list[str | None]:
    """The last ``n`` boxes' contents, in text order, scanning leftwards past an unclosed
    one (``last_n_boxed_strings`` + ``remove_boxed``); fewer when there are fewer."""
    found: list[str | None] = []
    rest = text
    while rest and len(found) < n:
        i = _box_start(rest)
        if i < 0:
            break
        end = _box_end(rest, i)
        if end is not None:
            found.append(_unbox(rest[i : end + 1]))
        rest = rest[:i]
    found.reverse()
    return found


def _last_box(text: str) -> str | None:
    """``extract_boxed_answer``: the last box only (no leftward search past an unclosed one)."""
    i = _box_start(text)
    if i < 0:
        return None
    end = _box_end(text, i)
    return None if end is None else _unbox(text[i : end + 1])


# --------------------------------------------------------------------------------------
# Normalisation (no SymPy): the MATH-style form
# --------------------------------------------------------------------------------------

_TEXT_WHOLE = re.compile(r"^\\text\{(?P<text>.+?)\}$")
_UNIT_RES = tuple(re.compile(r"(^|\W)" + u + r"($|\W)") for u in UNIT_TEXTS)


def _drop_units(s: str) -> str:
    for _ in range(2):
        for rx in _UNIT_RES:
            t = rx.sub(r"\1\2", s)
            if t != "":
                s = t
    return s


def _fracs(s: str) -> str:
    """``\\frac12`` → ``\\frac{1}{2}``; raises IndexError on ``\\frac`` at the end (as upstream)."""
    head, *tails = s.split("\\frac")
    out = head
    for t in tails:
        out += "\\frac"
        if t[0] == "{":
            out += t
            continue
        if len(t) < 2:
            return s
        a, b, more = t[0], t[1], t[2:]
        out += ("{" + a + "}{" + b + "}" if b != "{" else "{" + a + "}" + b) + more
    return out


def _slash(s: str) -> str:
    parts = s.split("/")
    if len(parts) != 2:
        return s
    try:
        a, b = int(parts[0]), int(parts[1])
    except ValueError:
        return s
    return f"\\frac{{{a}}}{{{b}}}" if s == f"{a}/{b}" else s


def _sqrt(s: str) -> str:
    if "\\sqrt" not in s:
        return s
    head, *tails = s.split("\\sqrt")
    # t[0] raises IndexError on an empty piece, as upstream
    return head + "".join("\\sqrt" + t if t[0] == "{" else "\\sqrt{" + t[0] + "}" + t[1:] for t in tails)


def _math_form(s: str) -> str:
    """``_strip_string``; raises where it raises (its caller keeps the text then)."""
    s = s.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    s = re.sub(r"\\begin\{array\}\{.*?\}", r"\\begin{pmatrix}", s)
    s = re.sub(r"\\end\{array\}", r"\\end{pmatrix}", s).replace("bmatrix", "pmatrix")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac")
    s = s.replace("\\neq", "\\ne").replace("\\leq", "\\le").replace("\\geq", "\\ge")
    s = s.replace("\\left", "").replace("\\right", "")
    t = re.sub(r"\\text{.*?}$", "", s).strip()
    if t != "" and t != s:
        s = t
    s = _drop_units(s)
    s = s.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\$", "")
    if "\\text{ " in s:
        parts = s.split("\\text{ ")
        if len(parts) != 2:
            raise AssertionError("several '\\text{ '")
        s = parts[0]
    s = s.replace("\\%", "").replace(" .", " 0.").replace("{.", "{0.")
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    if s[0] == "{" and s[-1] == "}":
        s = s[1:-1]
    sides = s.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        s = sides[1]
    s = _sqrt(s).replace(" ", "")
    s = _fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    return _slash(s)


def _mathd(s: str | None) -> str | None:
    """``mathd_normalize_answer``."""
    if s is None:
        return None
    s = s.strip()
    try:
        m = _TEXT_WHOLE.search(s)
        if m is not None:
            s = m.group("text").strip()
        return _math_form(s)
    except Exception:  # noqa: BLE001 - upstream keeps the text on any error
        return s


# --------------------------------------------------------------------------------------
# The SymPy step (runs in a worker process)
# --------------------------------------------------------------------------------------

_COMMA_GROUP = re.compile(r"(\d)(,)(\d\d\d)($|\D)")


def _drop_group_commas(s: str) -> str:
    while True:
        t = _COMMA_GROUP.sub(r"\1\3\4", s)
        if t == s:
            return t
        s = t


def _as_float(s: str) -> float | None:
    try:
        return float(s)
    except ValueError:
        return None


def _near_int(x: float) -> bool:
    try:
        return abs(x - round(x)) <= 1e-7
    except Exception:  # noqa: BLE001 - nan/inf: not an integer
        return False


def _int_text(s: str) -> bool:
    try:
        return _near_int(float(_drop_group_commas(s)))
    except Exception:  # noqa: BLE001
        return False


def _latex_text(s: str) -> str:
    from pylatexenc import latex2text

    # pylatexenc logs a warning per odd macro (``\\frac{}``); without a handler Python would
    # print it (in the worker) through its last-resort handler.
    log = logging.getLogger("pylatexenc")
    if not log.handlers:
        log.addHandler(logging.NullHandler())

    s = s.replace("\\tfrac", "\\frac").replace("\\dfrac", "\\frac").replace("\\frac", " \\frac")
    s = latex2text.LatexNodes2Text().latex_to_text(s)
    for a, b in (("√", "sqrt"), ("π", "pi"), ("∞", "inf"), ("∪", "U"), ("·", "*"), ("×", "*")):
        s = s.replace(a, b)
    return s.strip()


def _sympy_form(s: str) -> str:
    """``sympy_normalize_answer``."""
    m = _TEXT_WHOLE.search(s)
    if m is not None:
        s = m.group("text")
    for a, b in (("\\%", "%"), ("\\$", "$"), ("$", ""), ("%", ""), (" or ", " , "), (" and ", " , ")):
        s = s.replace(a, b)
    for a, b in (("million", "*10^6"), ("billion", "*10^9"), ("trillion", "*10^12")):
        s = s.replace(a, b)
    s = _drop_units(s)
    s = re.sub(r"\^ *\\circ", "", s)
    if s and s[0] == "{" and s[-1] == "}":
        s = s[1:-1]
    s = re.sub(",\\\\! *", "", s)
    f = _as_float(s)
    if f is not None and _near_int(f):
        s = str(round(f))
    if "\\" in s:
        try:
            s = _latex_text(s)
        except Exception:  # noqa: BLE001, S110 - upstream keeps the text
            pass
    s = re.sub("- *", "-", s)
    s = re.sub("([0-9]) +([0-9])", "\\1+\\2", s)
    s = s.replace(" ", "").replace("{", "").replace("}", "").lower()
    if _int_text(s):
        s = str(int(float(s.replace(",", ""))))
    return s


def _tuple_items(s: str) -> list[str]:
    s = _drop_group_commas(s)
    if not s:
        return []
    if len(s) > 2 and s[0] in "()[]" and s[-1] in "()[]" and not any(c in s[1:-1] for c in "()[]"):
        return [e.strip() for e in s[1:-1].split(",")]
    return [s]


_FRAC_TEXT = re.compile(r"^-?[0-9]+.?/0*[1-9][0-9]*.?$")


def _choice_match(pred: str, gold: str) -> bool:
    """``judge_MC``."""
    if pred == gold:
        return True
    if pred.startswith("[") and pred.endswith("]"):
        pred = pred.strip("[]")
    if not pred:
        return False
    if "A" <= pred[0] <= "Z" and len(pred) > 1 and pred[1] in ".:":
        return pred[0] == gold
    return f"'{gold}'" in pred


_TF_WORDS = ("TRUE", "FALSE", "T", "F", "YES", "NO", "Y", "N")


def _truefalse_match(pred: str, gold: str) -> bool:
    """``judge_TF``."""
    if any("\u4e00" <= ch <= "\u9fff" for ch in pred):
        if pred in ("是", "对", "正确", "能"):
            pred = "TRUE"
        elif pred in ("否", "错", "错误", "不能"):
            pred = "FALSE"
    else:
        pred = pred.upper()
    gold = gold.upper()
    if gold not in _TF_WORDS or pred not in _TF_WORDS:
        return False

    def side(w: str) -> str:
        return "TRUE" if w in ("TRUE", "YES", "T", "Y") else "FALSE"

    return side(pred) == side(gold)


# handle_pi's eval, done without eval: arithmetic on number literals only.
_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.MatMult: operator.matmul,
}  # fmt: skip
_UNOPS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}


def _defined(name: str) -> bool:
    return name in REFERENCE_GLOBALS or hasattr(builtins, name)


def _ev(node: ast.AST) -> Any:
    """Evaluate ``node`` as Python would, in Python's order; _EvalFails where Python
    raises, _Unsupported where it would use a defined name or build a non-number."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (int, float, complex)) and not isinstance(node.value, bool):
            return node.value
        raise _Unsupported(f"literal {node.value!r}")
    if isinstance(node, ast.Name):
        if _defined(node.id):
            raise _Unsupported(f"the name {node.id!r}")
        raise _EvalFails
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = _ev(node.left), _ev(node.right)
        big = isinstance(a, int) and isinstance(b, int) and (
            (isinstance(node.op, ast.Pow) and b > 0 and abs(a) > 1 and b * math.log2(abs(a)) > 1e5)
            or (isinstance(node.op, ast.LShift) and b > 1e5 and a != 0)
        )
        if big:
            raise _Unsupported("a huge integer power")
        try:
            return _BINOPS[type(node.op)](a, b)
        except Exception:  # noqa: BLE001 - Python raises: eval fails
            raise _EvalFails from None
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
        a = _ev(node.operand)
        try:
            return _UNOPS[type(node.op)](a)
        except Exception:  # noqa: BLE001
            raise _EvalFails from None
    if isinstance(node, ast.Call) and not node.keywords and not any(isinstance(x, ast.Starred) for x in node.args):
        _ev(node.func)
        for x in node.args:
            _ev(x)
        raise _EvalFails  # a number is not callable
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        _ev(node.value)
    elif isinstance(node, ast.Tuple):
        for x in node.elts:
            _ev(x)
    elif isinstance(node, ast.Compare):
        _ev(node.left)
    raise _Unsupported(f"a {type(node).__name__} expression")


def _pi_value(s: str, pi: float) -> Any:
    """``handle_pi``: each ``pi`` becomes ``*{pi}`` after a digit, else ``1*{pi}``; the
    text is then evaluated, and kept when that fails."""
    if "pi" not in s:
        return s
    i = s.find("pi")
    while i != -1:
        s = s[:i] + ("*" if i > 0 and s[i - 1].isdigit() else "1*") + f"{pi}" + s[i + 2 :]
        i = s.find("pi", i + 1)
    try:
        tree = ast.parse(s.lstrip(" \t"), mode="eval")
    except (SyntaxError, ValueError):
        return s
    try:
        return _ev(tree.body)
    except _EvalFails:
        return s
    except RecursionError:
        raise _Unsupported("a deeply nested expression") from None


def _decimals(x: Any, tol: float = 1e-6) -> int:
    """Significant decimal places of ``x`` (``count_decimal_places``)."""
    with localcontext() as ctx:
        ctx.prec = 20
        text = format(Decimal(str(x)).normalize(), "f")
        if "." not in text:
            return 0
        digits = text.split(".")[1]
        n = 0
        for i in range(len(digits)):
            n += 1
            if abs(x - round(x, i + 1)) <= tol:
                break
        return n


def _parse(s: str) -> Any:
    from sympy.parsing import sympy_parser as sp

    return sp.parse_expr(
        s.replace("^", "**"),
        transformations=sp.standard_transformations + (sp.implicit_multiplication_application,),
        evaluate=False,
    )


def _sci(x: float) -> str:
    mant, exp = f"{x:.2e}".split("e")
    return f"{mant}*10**{int(exp)}"


def _is_sci(e: Any) -> bool:
    from sympy import Mul, Pow

    return isinstance(e, Mul) and isinstance(e.args[1], Pow) and e.args[1].args[0] == 10


def _same_sci(ep: Any, eg: Any, tol: float) -> bool:
    from sympy import N

    bp, xp = N(ep.args[0]), N(ep.args[1].args[1])
    bg, xg = N(eg.args[0]), N(eg.args[1].args[1])
    places = min(_decimals(bg), _decimals(bp))
    bp, bg = round(bp, places), round(bg, places)
    return bool(xp == xg and abs(bp - bg) <= tol)


def _evaluable(s: str) -> bool:
    """``should_allow_eval`` (raises on a non-text, as upstream, inside its try)."""
    letters = {c for c in s.replace("sqrt", "").replace("frac", "") if c.isalpha()}
    if len(letters) > 2 or "^{" in s or "^(" in s:
        return False
    return re.search(r"\^[0-9]+\^", s) is None and re.search(r"\^[0-9][0-9]+", s) is None


def _close(gold: Any, pred: Any, precision: float = 2e-3) -> bool:
    """``are_equal_under_sympy`` (no time limit: upstream runs it in a worker thread,
    where its SIGALRM guard is skipped)."""
    import sympy
    from sympy import N

    tol = precision * 1.01
    try:
        if pred == gold:
            return True
        p, g = float(pred), float(gold)
        places = min(_decimals(g), _decimals(p))
        p, g = round(p, places), round(g, places)
        if abs((p - g) / g) <= tol:
            return True
        sp, sg = _parse(_sci(float(pred))), _parse(_sci(float(gold)))
        if _is_sci(sp) and _is_sci(sg) and _same_sci(sp, sg, tol):
            return True
    except Exception:  # noqa: BLE001, S110 - upstream falls through to the symbolic test
        pass
    try:
        if _evaluable(gold) and _evaluable(pred):
            eg, ep = _parse(gold), _parse(pred)
            rel = (eg - ep) / (eg if eg != 0 else 1)
            if abs(N(sympy.simplify(rel))) <= tol:
                return True
            if _is_sci(ep) != _is_sci(eg):
                if _is_sci(ep):
                    eg = _parse(_sci(float(gold)))
                else:
                    ep = _parse(_sci(float(pred)))
            if _is_sci(ep) and _is_sci(eg):
                if _same_sci(ep, eg, tol):
                    return True
            elif N(ep) == N(eg):
                return True
    except Exception:  # noqa: BLE001, S110 - upstream: not equal
        pass
    return False


def _sympy_match(given: str, truth: str) -> bool:
    """``grade_answer_sympy``'s verdict."""
    g, p = _sympy_form(truth), _sympy_form(given)
    if g == p:
        return True
    if not p:
        return False
    gs, ps = _tuple_items(g), _tuple_items(p)
    if len(gs) > 1 and (g[0] != p[0] or g[-1] != p[-1]):
        return False
    if len(gs) != len(ps):
        return False
    for a, b in zip(gs, ps):
        if _FRAC_TEXT.search(a) and _FRAC_TEXT.search(b):
            ok = a == b  # unreduced fractions must match as written
        else:
            ok = _choice_match(b, a) or _truefalse_match(b, a)
            if not ok:
                if "pi" in b or "pi" in a:
                    # all three are tried, as upstream (a list, not a short-circuiting generator)
                    ok = any([_close(_pi_value(a, v), _pi_value(b, v)) for v in (math.pi, 3.14, 180)])  # noqa: C419
                else:
                    ok = _close(a, b)
        if not ok:
            return False
    return True


def sympy_stage(pred: str, gt: str, split_pred: str, split_gt: str, split: bool) -> tuple[bool | None, str]:
    """The verifier's SymPy step for one pair the string step did not match: its
    comparison of the whole answers, then (``split``) of the parts after the last ``=``.
    ``(verdict, path)``; verdict None where the reference's ``eval`` cannot be reproduced
    (``path`` says why). A module-level function: it runs in the SymPy worker pool."""
    try:
        if _sympy_match(pred, gt):
            return True, "sympy"
        if split and _sympy_match(split_pred, split_gt):
            return True, "sympy (after '=')"
        return False, "no rule matched"
    except _Unsupported as e:
        return None, f"the verifier evals {e} (not reproduced)"


# --------------------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------------------

_POOL: Any = None
_POOL_LOCK = threading.Lock()


def _default_pool() -> Any:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            from gaia_fast.math.pool import SympyPool

            _POOL = SympyPool(timeout=SYMPY_TIMEOUT, warm=("sympy", "pylatexenc.latex2text", __name__))
            atexit.register(_POOL.close)
        return _POOL


class _Row:
    __slots__ = ("coarse", "extracted", "fine", "marked", "pairs", "pending", "points", "reason", "status", "subset", "total")

    def __init__(self) -> None:
        self.status = "ok"
        self.reason = ""
        self.coarse: Any = 0.0
        self.fine = 0.0
        self.pairs: list[Any] = []  # per answer: a verdict, or the SymPy item it waits for
        self.points: list[float] = []
        self.total = 0.0
        self.subset: str | None = None
        self.extracted: str | None = None
        self.pending = False  # the coarse score waits for the pairs' verdicts
        self.marked = False  # a marking scheme: its criteria go to the judge


def _prepare(pred: str, answer: Any, points: Any, marking: Any) -> _Row:
    """Everything about a row but the SymPy step (which ``pairs`` then names)."""
    row = _Row()
    truths = _list_cell(answer)
    pts = _points_cell(points)
    marks = _list_cell(marking)
    row.points = pts
    row.total = sum(pts) if pts else 0.0
    row.marked = bool(marks) and _criteria(marks) > 0
    if not truths:
        row.reason = "no answer: coarse score 0"
        return row
    n = len(truths)
    boxes = _last_boxes(pred, n)
    boxes = [""] * (n - len(boxes)) + boxes
    row.extracted = ", ".join(str(b) for b in boxes if b)
    golds = []
    for t in truths:
        text = str(t)
        got = _last_boxes(text, 1)
        golds.append(got[0] if got else text)
    if not any(boxes):
        row.reason = "no \\boxed{} answer: coarse score 0"
        return row
    row.pending = True
    for b, g in zip(boxes, golds):
        if g is not None and "\\boxed" in g:
            g = _last_box(g)
        if g is None:
            raise _RowFails("an answer's \\boxed{} cannot be read (upstream's row raises)")
        if b is None:
            raise _RowFails("a \\fbox{} or malformed box among the prediction's last boxes (upstream's row raises)")
        m = _mathd(b)
        if m == _mathd(g):
            row.pairs.append(True)
            continue
        sp, sg = b.split("=")[-1], g.split("=")[-1]
        row.pairs.append((b, g, sp, sg, sp != m or sg != g))
    return row


def _finish(row: _Row) -> None:
    """The row's coarse score once every pair has a verdict."""
    verdicts = row.pairs
    n = len(verdicts)
    pts = row.points or [1.0] * n
    if len(pts) == n:
        point: Any = sum(v * p for v, p in zip(verdicts, pts))
    else:
        point = verdicts[-1]  # upstream: the last pair's verdict
    row.coarse = round(point, 2)
    row.reason = f"{sum(bool(v) for v in verdicts)}/{n} answers matched"


def _replay(rows: list[_Row], recorded: Any, all_mode: bool, decided: dict[str, int], disagree: list[int]) -> None:
    """A run graded with a judge: each row takes its recorded fine and coarse scores (the
    judge marked the scheme and may have accepted answers the rules reject), checked
    against the rules: the rules' coarse score may not exceed the recorded one (the judge
    only adds), and the points must agree. No record: ``needs_judge``."""
    seen: dict[str | None, int] = {}
    for i, r in enumerate(rows):
        pos = seen.get(r.subset, 0)
        seen[r.subset] = pos + 1
        if r.status == "not_graded":
            continue
        key = f"{r.subset}|{pos}" if all_mode else str(pos)
        rec = recorded.entries.get(key)
        if rec is None:
            r.status, r.coarse, r.reason = "needs_judge", None, "no recorded result for this row in the archive's judge run"
            decided["undecided"] += 1
            continue
        if not rec.get("ok"):
            r.status, r.coarse = "excluded", None
            r.reason = "the archive's judge run recorded a failure for this row; left out as upstream" + (f" (rules: {r.reason})" if r.reason else "")
            decided["recorded"] += 1
            continue
        fine, coarse, points = rec.get("fine"), rec.get("coarse"), rec.get("points")
        numbers = all(isinstance(x, (int, float)) for x in (fine, coarse, points))
        if not numbers or r.status == "excluded" or abs(points - r.total) > 1e-9 or (r.status == "ok" and r.coarse - coarse > 1e-9):
            why = (
                "the record is not numbers" if not numbers
                else f"upstream's row raises here ({r.reason}) but the record has a result" if r.status == "excluded"
                else f"recorded points {points} vs {r.total} from the points cell" if abs(points - r.total) > 1e-9
                else f"the rules give coarse {r.coarse}, more than the recorded {coarse}"
            )
            r.status, r.coarse, r.reason = "disagrees", None, why
            disagree.append(i)
            continue
        by_rules = r.status == "ok" and not r.marked and fine == 0 and abs(r.coarse - coarse) <= 1e-9
        decided["rules" if by_rules else "recorded"] += 1
        rules = f"rules: coarse {r.coarse}" if r.status == "ok" else f"rules: {r.reason}"
        r.status, r.fine, r.coarse = "ok", fine, coarse
        r.reason = f"{rules}; recorded: fine {fine}, coarse {coarse}"


def _check_variant(variant: str | None) -> str:
    variant = DEFAULT_VARIANT if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"unknown HiPhO variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    return variant


def _totals(rows: Sequence[_Row]) -> dict[str, float]:
    fine = coarse = final = 0.0
    top = 0.0
    for r in rows:
        fine = round(fine + r.fine, 2)
        coarse = round(coarse + r.coarse, 2)
        final = round(final + max(r.fine, r.coarse), 2)
        top += r.total
    top = round(top, 2)

    def rate(x: float) -> float:
        return round(x / top * 100, 2) if top > 0 else 0.0

    return {
        "fine_grained_total_score": fine,
        "fine_grained_score_rate": rate(fine),
        "coarse_grained_total_score": coarse,
        "coarse_grained_score_rate": rate(coarse),
        "max_possible_score": top,
        "total_score": final,
        "score_rate": rate(final),
    }


def grade(
    frame: Any, *, variant: str | None = None, seed: int = 0, judge: Any = None, all_subsets: bool = False,
    pool: Any = None, recorded: Any = None, **_: Any,
) -> GradeResult:  # fmt: skip
    """Grade a VLMEvalKit HiPhO result table (``prediction``, ``answer``, ``points``,
    ``marking``; ``SUB_DATASET`` for HiPhO_ALL) as ``HiPhODataset.evaluate`` does without a
    judge, or replay a run graded with one from its records.

    ``rows``: every input row, plus ``extracted`` (the boxes read), ``fine_grained_score``,
    ``coarse_grained_score``, ``score`` (the points earned; null where the row is not in
    the totals), ``max_points``, ``status`` (``ok``; ``excluded``: upstream's row raises and
    is left out; ``not_graded``: a HiPhO_ALL row of another subset; ``unreproduced``;
    replaying a judge run: ``needs_judge`` (no record), ``disagrees`` (the record contradicts
    the rules)) and ``reason``. Where a row is ``unreproduced``, ``needs_judge`` or
    ``disagrees`` the report's values are null. ``report``: the ``_score.json`` values, one row; with ``all_subsets`` (the
    HiPhO_ALL name) and a ``SUB_DATASET`` column, its nested report as ``key``/``value``
    rows (``subset_results|IPhO_2024|...``); without the column HiPhO_ALL is graded as one
    set, as upstream.
    ``seed`` and ``judge`` are unused (no live judge: its marking prompts are not ported).
    ``recorded`` (:func:`~gaia_fast.scorers.vlm.recorded.find_records`, kind ``hipho``): the
    judge run's per-row records, replayed (``stats['decided']``: rows the rules alone decide
    vs the recorded judge); a judge run without them is reported as another method
    (``archive_method``, ``matches_archive`` False). ``pool``: a
    :class:`~gaia_fast.math.pool.SympyPool` (default: a shared one, ``SYMPY_TIMEOUT``).
    """
    frame = as_frame(frame)
    variant = _check_variant(variant)
    for name in ("prediction", "answer"):
        if name not in frame.columns:
            raise ValueError(f"HiPhO: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    import importlib.metadata
    import importlib.util

    if importlib.util.find_spec("pylatexenc") is None:
        raise ImportError("HiPhO grading needs pylatexenc 2.10 (pip install 'gaia-fast[hipho]')")
    # The verdicts were checked against VLMEvalKit run on these versions; others may differ.
    versions = {"pylatexenc": "2.10", "sympy": "1.14.0"}
    off = [f"{k} {v} (checked with {want})" for k, want in versions.items() if (v := importlib.metadata.version(k)) != want]
    n = frame.height

    def cells(name: str) -> list[Any]:
        if name not in frame.columns:
            return [None] * n
        _kind, col = pandas_column(frame[name])
        return col.to_list()

    preds_raw, answers, points, markings = cells("prediction"), cells("answer"), cells("points"), cells("marking")
    all_mode = all_subsets and "SUB_DATASET" in frame.columns
    subsets = cells("SUB_DATASET") if all_mode else [None] * n

    replay = recorded is not None and getattr(recorded, "judge", None) and bool(getattr(recorded, "entries", None))
    rows: list[_Row] = []
    for i in range(n):
        p = preds_raw[i]
        pred = ("nan" if _missing(p) else str(p)).strip()
        try:
            row = _prepare(pred, answers[i], points[i], markings[i])
        except _RowFails as e:
            row = _Row()
            row.status, row.reason, row.coarse = "excluded", str(e), None
        if row.marked and not replay and row.status != "excluded":
            # upstream's fine-grained step runs first and raises without a judge
            row.status, row.coarse = "excluded", None
            row.reason = "the marking scheme goes to the LLM judge, and there is none (upstream's row raises)"
        if all_mode:
            sub = subsets[i]
            row.subset = None if _missing(sub) else str(sub)
            if row.subset not in ALL_SUBSETS:
                row.status, row.reason, row.coarse = "not_graded", f"SUB_DATASET {sub!r} is not a HiPhO subset (upstream skips it)", None
        rows.append(row)

    # The SymPy step for every open pair, in the pool (cached by pair).
    items = [(r, j, pair) for r in rows if r.status == "ok" for j, pair in enumerate(r.pairs) if isinstance(pair, tuple)]
    timeouts = 0
    if items:
        outcomes = (pool or _default_pool()).map(sympy_stage, [pair for _, _, pair in items])
        for (r, j, _pair), out in zip(items, outcomes):
            if out.status == "ok" and out.value[0] is not None:
                r.pairs[j] = out.value[0]
                continue
            if r.status == "ok":
                r.status, r.coarse = "unreproduced", None
                if out.status == "timeout":
                    timeouts += 1
                    r.reason = f"SymPy ran past {SYMPY_TIMEOUT:g} s (upstream has no limit)"
                elif out.status == "ok":
                    r.reason = out.value[1]
                else:
                    r.reason = f"the SymPy worker failed: {out.error}"
    for r in rows:
        if r.status == "ok" and r.pending:
            _finish(r)
    decided, disagree = {"rules": 0, "recorded": 0, "live": 0, "undecided": 0}, []
    if replay:
        _replay(rows, recorded, all_mode, decided, disagree)

    included = [r for r in rows if r.status == "ok"]
    unreproduced = sum(r.status == "unreproduced" for r in rows)
    excluded = sum(r.status == "excluded" for r in rows)
    null = bool(unreproduced or decided["undecided"] or disagree)
    if not replay:
        decided["rules"] = len(included) + excluded
    if all_mode:
        present = [s for s in ALL_SUBSETS if any(r.subset == s for r in rows)]
        keys: list[str] = ["evaluation_type", "total_subsets"]
        values: list[Any] = ["HiPhO_ALL", len(present)]
        for s in present:
            part = [r for r in rows if r.subset == s]
            res = _totals([r for r in part if r.status == "ok"])
            res.update(subset_name=s, problem_count=len(part))
            for k, v in res.items():
                keys.append(f"subset_results|{s}|{k}")
                values.append(v)
        if null:
            values = [None] * len(values)
        report = pl.DataFrame({"key": keys, "value": [None if v is None else str(v) for v in values]}, schema={"key": pl.String, "value": pl.String})
    else:
        res = _totals(included)
        report = pl.DataFrame({k: [None if null else res[k]] for k in REPORT_KEYS}, schema={k: pl.Float64 for k in REPORT_KEYS})

    notes = []
    if off:
        notes.append("HiPhO: " + ", ".join(off))
    if unreproduced:
        notes.append(f"HiPhO: {unreproduced} row(s) not reproduced (see their reason); the report's values are null")
    skipped = sum(r.status == "not_graded" for r in rows)
    if excluded or skipped:
        notes.append(
            f"HiPhO: {excluded + skipped} row(s) left out of the totals as upstream ({excluded} raise, {skipped} of no HiPhO "
            "subset); VLMEvalKit's evaluate then raises ValueError after writing its reports (no _detailed.xlsx)"
        )
    earned = [None if r.status != "ok" else max(r.fine, r.coarse) for r in rows]
    out_rows = frame.with_columns(
        pl.Series("extracted", [r.extracted for r in rows], pl.String),
        pl.Series("fine_grained_score", [r.fine if r.status == "ok" else None for r in rows], pl.Float64),
        pl.Series("coarse_grained_score", [None if r.status != "ok" else float(r.coarse) for r in rows], pl.Float64),
        pl.Series("score", [None if e is None else float(e) for e in earned], pl.Float64),
        pl.Series("max_points", [r.total if r.status == "ok" else None for r in rows], pl.Float64),
        pl.Series("status", [r.status for r in rows], pl.String),
        pl.Series("reason", [r.reason for r in rows], pl.String),
    )
    got = sum(float(e) for e in earned if e is not None)
    top = sum(r.total for r in included)
    stats: dict[str, Any] = {
        "benchmark": "hipho",
        "variant": variant,
        "rows": n,
        "tasks": len(included),
        "correct": got,  # points earned (HiPhO scores rows in points)
        "accuracy": None if null or top <= 0 or not 0 <= got <= top else got / top,
        "excluded_rows": excluded,
        "not_graded_rows": sum(r.status == "not_graded" for r in rows),
        "unreproduced_rows": unreproduced,
        "sympy_timeouts": timeouts,
        "reference_error": "; ".join(notes) or None,
        "crashed_rows": excluded,
        "method": "rules, no judge (exact_matching)",
        "decided": decided,
    }
    if replay:
        method = f"rules + recorded judge {recorded.judge} (LLM marking scheme and xverify)"
        stats.update(method=method, archive_method=method, matches_archive=True, decided=decided)
        stats.update(record_disagreements=len(disagree), record_disagreement_indexes=disagree)
    elif recorded is not None and getattr(recorded, "judge", None):
        stats["archive_method"] = f"judge {recorded.judge} (LLM marking scheme and xverify; its per-row results not found)"
        stats["matches_archive"] = False
    return GradeResult(rows=out_rows, report=report, stats=stats)
