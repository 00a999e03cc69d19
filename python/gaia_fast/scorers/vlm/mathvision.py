"""MathVision / MathVision_MINI: ``post_check``'s prefetch rule, the archive's recorded judge
extractions (``res``) for the rest, and ``MATH_V_acc``, whose ``is_equal`` runs Python
``eval()`` and ``latex2sympy`` on the answers. Laid out as extract -> score -> aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/utils/mathv.py`` (``is_equal``,
``post_check``, ``MATH_V_auxeval``, ``MATH_V_acc``) and ``MathVision.evaluate_heuristic`` in
``vlmeval/dataset/image_vqa.py``; head e8e78f05, first 24f7defb (2024-07-19).

``is_equal(asw, gt)``: ``str().lower().strip()`` of both; equal text is a hit; else
``eval(gt)`` and ``eval(asw)`` in mathv.py's module globals, a hit when
``abs(a - b) < 1e-6``; else ``latex2sympy`` of both, a hit when
``abs(eval(str(a)) - eval(str(b))) < 1e-6`` or (that difference computed but not small)
``abs(a - b) < 1e-6`` in SymPy; any exception is a miss. Archive text is never executed
here: :func:`safe_eval` reproduces ``eval`` on the expressions it can decide (literals,
arithmetic, comparisons, containers, names that are not defined: ``NameError``) and
raises :class:`Undecided` on the rest (a name that is defined in the reference's globals
or builtins, a call, an attribute, an f-string, work too large to finish in the
reference's 30 s). Such rows get ``status="undecided"`` and are not counted; they are never
guessed. ``latex2sympy`` runs in a separate, killable interpreter (:class:`LatexRunner`)
with a hard per-pair time limit; it only parses (no ``eval`` of the text), and ``str()``
of its results goes through :func:`safe_eval` too.

The latex2sympy library: VLMEvalKit told users to ``pip install latex2sympy2`` (1.9.1,
which pins ``antlr4-python3-runtime==4.7.2``: it cannot share an environment with SymPy's
``parse_latex``, which needs ANTLR 4.11); from a9343a1e (2026-04-09) mathv.py imports
``latex2sympy2_extended`` first (its requirements.txt lists it, unpinned). The
interpreter that runs it is ``latex_python=``, else :func:`latex_interpreter`
(``$GAIA_FAST_LATEX2SYMPY2_PYTHON`` for the latex2sympy2 variants,
``$GAIA_FAST_LATEX2SYMPY2_EXTENDED_PYTHON`` for the head import order; default this Python).
It imports the libraries in the variant's order and the stats name the one used (the
archive does not record which the run had: a report that differs may be the library). Without a working library every row that reaches the latex step is
``undecided``.

Variants (``post_check`` x ``can_infer`` eras):

* ``2024-07`` (24f7defb, 2024-07-19): a free-form row compares ``str(None)`` (``"none"``)
  with the answer (fixed in 1ec8c10b); ``can_infer`` classic; latex2sympy2;
* ``classic`` (1ec8c10b, 2024-07-31): ``str(response)``; ``can_infer`` classic; latex2sympy2
  (a8101884, 2025-02-01, adds the 30 s timeout: a row that slow is ``undecided`` here);
* ``2025-08`` (c3371551, 2025-08-04): ``can_infer`` 2025-08;
* ``2026-04`` (a9343a1e, 2026-04-09): ``latex2sympy2_extended`` first, then latex2sympy2;
* ``2026-06`` (a67ace50, 2026-06-17, head): ``can_infer`` 2026-06.

LENS-CN-QA / LENS-CN-QA_MINI (``benchmark="lens"``; ``vlmeval/dataset/utils/lens.py``,
``LENS_auxeval`` / ``LENS_acc``, 65f8b768 2026-02-13 to head, one variant ``classic``):
the same ``is_equal`` (no timeout) and report; ``post_check`` has no choices (always
``str(response)`` against ``str(answer)``); ``latex2sympy2_extended`` first, then latex2sympy2.

Files: ``{stem}_{J}.xlsx`` (the rows plus ``res`` and ``log``; the table ``MATH_V_acc``
reads) and ``{stem}_{J}.pkl`` (``index -> {"log", "res"}``); report
``{stem}_{J}_score.csv``: ``Subject, tot, prefetch, hit, prefetch_rate, acc``, rows
``Overall`` and each category, sorted by ``Subject``.
"""

from __future__ import annotations

import ast
import builtins
import json
import math
import operator
import os
import re
import select
import subprocess
import sys
import time
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column
from gaia_fast.scorers.vlm._replay import (
    check_replay_args,
    decided_from_routes,
    disagreement_keys,
    has_record_files,
    judge_label,
    method_keys,
    method_line,
    records_summary,
    replay_matches,
    status_counts,
    tally_keys,
)
from gaia_fast.scorers.vlm.mcq import can_infer
from gaia_fast.scorers.vlm.recorded import Records

__all__ = ["BENCHMARKS", "PREFETCH_LOG", "VARIANTS", "LatexRunner", "Undecided", "grade", "is_equal", "latex_interpreter", "safe_eval"]

BENCHMARKS = ("mathvision", "lens")
VARIANTS = ("2024-07", "classic", "2025-08", "2026-04", "2026-06")
_CAN_INFER = {"2024-07": "classic", "classic": "classic", "2025-08": "2025-08", "2026-04": "2025-08", "2026-06": "2026-06"}
#: The libraries mathv.py imports, in its order, per variant.
_LIBRARIES = {v: ("latex2sympy2",) for v in VARIANTS} | {v: ("latex2sympy2_extended", "latex2sympy2") for v in ("2026-04", "2026-06")}
PREFETCH_LOG = "Prefetch succeed"

# --------------------------------------------------------------------------------------
# eval() without executing anything
# --------------------------------------------------------------------------------------

#: Names bound in mathv.py's module globals in some version (its own top-level names, and
#: up to 401916c0 everything ``from ...smp import *`` brought: every public top-level name
#: of vlmeval/smp/{file,log,misc,vlm}.py in every commit 24f7defb..401916c0, and the four
#: submodules). Such a name resolves upstream to an object we will not touch: Undecided.
REFERENCE_GLOBALS = frozenset((
    'FAIL_MSG', 'HFCacheRoot', 'Image', 'JSONDecoder', 'LENS_acc', 'LENS_auxeval', 'LMUDataRoot',
    'MATH_V_acc', 'MATH_V_auxeval', 'MMBenchOfficialServer', 'NumpyEncoder', 'Optional', 'OrderedDict',
    'Path', 'Pool', 'ROOT_LOGGER_NAME', 'abc', 'apiok', 'argparse', 'auto_split_flag', 'base64', 'bg',
    'bincount', 'build_lens_gpt4_prompt', 'build_mathv_gpt4_prompt', 'build_option_str', 'can_infer',
    'circular_pred', 'cn_string', 'colored', 'concat_images', 'concat_images_vlmeval', 'cp', 'csv',
    'current_process', 'd2df', 'datetime', 'decode_base64_to_image', 'decode_base64_to_image_file',
    'decode_img_omni', 'decord', 'defaultdict', 'dict_merge', 'download_file', 'dump', 'ef',
    'encode_image_file_to_base64', 'encode_image_to_base64', 'extract_json_objects', 'fetch_aux_files', 'fg',
    'file', 'file_size', 'get_cache_path', 'get_cuda_visible_devices', 'get_eval_file_format',
    'get_eval_file_path', 'get_file_extension', 'get_gpt4_ICE', 'get_gpu_memory',
    'get_intermediate_file_path', 'get_logger', 'get_pred_file_format', 'get_pred_file_path',
    'get_rank_and_world_size', 'githash', 'gpt_key_set', 'h2r', 'hashlib', 'io', 'is_equal', 'isimg',
    'istype', 'json', 'last_modified', 'latex2sympy', 'list_to_dict', 'listinstr', 'load', 'load_env',
    'localize_df', 'log', 'logger', 'logger_initialized', 'logging', 'ls', 'md5', 'mimetypes', 'misc',
    'mmqa_display', 'modelscope_flag_set', 'mp', 'mrlines', 'mwlines', 'np', 'os', 'osp', 'parquet_to_tsv',
    'parse_file', 'pd', 'pickle', 'pip_install_robust', 'plt', 'portalocker', 'post_check',
    'prepare_reuse_files', 'process_punctuation', 'proxy_set', 'r2h', 'rd', 'read_ok', 'requests',
    'rescale_img', 'resize_image_by_factor', 'rs', 'run_command', 'scan_cache_dir', 'setup_logger',
    'setup_subprocess_logger', 'shutil', 'sns', 'splitlen', 'string', 'subprocess', 'sys', 'tabulate', 'time',
    'timencommit', 'timeout_decorator', 'timestr', 'toliststr', 'tqdm', 'uuid4', 'validators', 'version_cmp',
    'vlm', 'warnings', 'youtube_dl',
))  # fmt: skip
#: Builtins of any Python 3 the reference may have run on (this one's, and newer ones').
_BUILTINS = frozenset(dir(builtins)) | {"aiter", "anext", "EncodingWarning", "BaseExceptionGroup", "ExceptionGroup", "PythonFinalizationError", "_IncompleteInputError"}

_MAX_BITS = 1_000_000  # an int result this large still takes milliseconds
_MAX_ITEMS = 100_000
_MAX_DEPTH = 100


class Undecided(Exception):
    """``eval`` (or latex2sympy) of this text cannot be reproduced safely; the row is not guessed."""


class _Raises(Exception):
    """``eval`` of this text raises (the exception's type name is the message)."""


def _defined(name: str) -> bool:
    return name in REFERENCE_GLOBALS or name in _BUILTINS or name.startswith("__")


_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
    ast.MatMult: operator.matmul,
}  # fmt: skip
_CMPOPS = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}  # fmt: skip
_UNOPS = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Invert: operator.invert, ast.Not: operator.not_}
_SEQ = (str, bytes, tuple, list)


def _bits(x: Any) -> int:
    return abs(int(x)).bit_length() if isinstance(x, int) else 64


def _guard_binop(op: type, a: Any, b: Any) -> None:
    """Undecided where Python would compute for long (a huge power) or on content we do not
    reproduce (``%`` formatting of text)."""
    if op is ast.Pow and isinstance(a, int) and isinstance(b, int) and b > 0:
        if abs(a) > 1 and _bits(a) * b > _MAX_BITS:
            raise Undecided(f"{a!r:.20} ** {b!r:.20} is too large to reproduce (the reference may time out)")
    if op is ast.LShift and isinstance(a, int) and isinstance(b, int) and b > _MAX_BITS:
        raise Undecided("a shift too large to reproduce")
    if op is ast.Mult:
        if isinstance(a, int) and isinstance(b, int) and _bits(a) + _bits(b) > _MAX_BITS:
            raise Undecided("a product too large to reproduce")
        for s, n in ((a, b), (b, a)):
            if isinstance(s, _SEQ) and isinstance(n, int) and len(s) * max(n, 0) > _MAX_ITEMS:
                raise Undecided("a repeated sequence too large to reproduce")
    if op is ast.Mod and isinstance(a, (str, bytes)):
        raise Undecided("%-formatting is not reproduced")


def _ev(node: ast.AST, depth: int = 0) -> Any:
    if depth > _MAX_DEPTH:
        raise Undecided("expression nested too deeply")
    d = depth + 1
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if _defined(node.id):
            raise Undecided(f"name {node.id!r} is defined in the reference's globals or builtins")
        raise _Raises("NameError")
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
        v = _ev(node.operand, d)
        try:
            return _UNOPS[type(node.op)](v)
        except Exception as e:  # noqa: BLE001 - eval raises the same on these values
            raise _Raises(type(e).__name__) from None
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a = _ev(node.left, d)
        b = _ev(node.right, d)
        _guard_binop(type(node.op), a, b)
        try:
            return _BINOPS[type(node.op)](a, b)
        except Exception as e:  # noqa: BLE001
            raise _Raises(type(e).__name__) from None
    if isinstance(node, ast.BoolOp):
        v = None
        for part in node.values:
            v = _ev(part, d)
            if isinstance(node.op, ast.And) and not v:
                return v
            if isinstance(node.op, ast.Or) and v:
                return v
        return v
    if isinstance(node, ast.Compare) and all(type(o) in _CMPOPS for o in node.ops):
        left = _ev(node.left, d)
        result: Any = True
        for op, comp in zip(node.ops, node.comparators):
            right = _ev(comp, d)
            try:
                result = _CMPOPS[type(op)](left, right)
                truth = bool(result)
            except Exception as e:  # noqa: BLE001
                raise _Raises(type(e).__name__) from None
            if not truth:
                return result
            left = right
        return result
    if isinstance(node, ast.IfExp):
        return _ev(node.body, d) if _ev(node.test, d) else _ev(node.orelse, d)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise Undecided("starred element")
        items = [_ev(e, d) for e in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(items)
        if isinstance(node, ast.List):
            return items
        try:
            return set(items)
        except Exception as e:  # noqa: BLE001
            raise _Raises(type(e).__name__) from None
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise Undecided("** in a dict display")
        out: dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            key = _ev(k, d)  # type: ignore[arg-type]
            val = _ev(v, d)
            try:
                out[key] = val
            except Exception as e:  # noqa: BLE001
                raise _Raises(type(e).__name__) from None
        return out
    if isinstance(node, ast.Subscript):
        value = _ev(node.value, d)
        index = _slice(node.slice, d)
        try:
            return value[index]
        except Exception as e:  # noqa: BLE001
            raise _Raises(type(e).__name__) from None
    if isinstance(node, ast.Attribute):
        _ev(node.value, d)  # ``Interval.open`` (str of a SymPy set): NameError on Interval first
        raise Undecided("an attribute of a value")
    if isinstance(node, ast.Call):
        _ev(node.func, d)  # an undefined function name raises NameError first, as upstream
        raise Undecided("a call")
    raise Undecided(f"{type(node).__name__} is not reproduced")


def _slice(node: ast.AST, d: int) -> Any:
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _ev(p, d) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)
    return _ev(node, d)


_LONG_DIGITS = re.compile(r"[0-9_]{4000,}")


def safe_eval(text: str) -> Any:
    """What ``eval(text)`` returns in mathv.py's globals, for the texts it can decide.
    Raises ``_Raises`` (``eval`` raises: the row goes on as upstream's ``except``) or
    :class:`Undecided`. Nothing in ``text`` is executed."""
    if _LONG_DIGITS.search(text):
        raise Undecided("an integer literal long enough for Python's 4300-digit limit (version-dependent)")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise _Raises("SyntaxError") from None
    except ValueError:  # null bytes (SyntaxError from Python 3.12): an exception either way
        raise _Raises("ValueError") from None
    except (RecursionError, MemoryError):
        raise Undecided("too deeply nested to parse") from None
    return _ev(tree.body)


def _number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex))


def _close(a: Any, b: Any) -> bool | None:
    """``abs(a - b) < 1e-6``; None where it raises (either way, upstream goes on)."""
    if not (_number(a) and _number(b)):
        return None  # TypeError (a set difference has no abs either)
    try:
        return bool(abs(a - b) < 1e-6)
    except Exception:  # noqa: BLE001 - OverflowError of a huge int
        return None


# --------------------------------------------------------------------------------------
# latex2sympy in a killable interpreter
# --------------------------------------------------------------------------------------

# Run as ``python -c RUNNER LIBS``: imports the first library that loads (mathv.py's
# order), then per input line [gt, asw] prints str() of both conversions and SymPy's
# abs(a - b) < 1e-6 (null when it raises). Nothing here evaluates the text.
RUNNER = r"""
import json, sys
fn, used, why = None, None, []
for lib in sys.argv[1].split(","):
    try:
        mod = __import__(lib)
        fn, used = mod.latex2sympy, lib
        break
    except Exception as e:
        why.append("%s: %s: %s" % (lib, type(e).__name__, e))
def version(name):
    try:
        from importlib.metadata import version as v
        return v(name)
    except Exception:
        return None
if fn is not None:
    try:
        fn("1")
    except Exception as e:
        why.append("%s cannot parse '1': %s: %s" % (used, type(e).__name__, e))
        fn = None
hello = {"ready": fn is not None, "why": "; ".join(why), "library": used,
         "version": version(used.replace("_", "-")) if used else None,
         "sympy": version("sympy"), "antlr": version("antlr4-python3-runtime")}
sys.stdout.write(json.dumps(hello) + "\n")
sys.stdout.flush()
for line in sys.stdin:
    gt, asw = json.loads(line)
    try:
        a = fn(gt)
        b = fn(asw)
        sa, sb = str(a), str(b)
    except ValueError as e:
        out = {"parsed": False, "digits": "integer string conversion" in str(e)}
    except Exception:
        out = {"parsed": False}
    else:
        try:
            close = bool(abs(a - b) < 1e-6)
        except Exception:
            close = None
        out = {"parsed": True, "a": sa, "b": sb, "close": close}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""


def latex_interpreter(libraries: tuple[str, ...]) -> str:
    """The Python that runs ``libraries`` when ``latex_python`` is not given:
    ``$GAIA_FAST_LATEX2SYMPY2_EXTENDED_PYTHON`` for the head import order (latex2sympy2_extended
    first; it shares ANTLR 4.11 with SymPy, so this Python by default),
    ``$GAIA_FAST_LATEX2SYMPY2_PYTHON`` for latex2sympy2 alone (1.9.1 pins ANTLR 4.7.2: usually
    its own venv), else this Python."""
    var = "GAIA_FAST_LATEX2SYMPY2_EXTENDED_PYTHON" if libraries[0] == "latex2sympy2_extended" else "GAIA_FAST_LATEX2SYMPY2_PYTHON"
    return os.environ.get(var) or sys.executable


class LatexRunner:
    """One worker interpreter running latex2sympy for (gt, asw) pairs with a hard time
    limit per pair (the worker is killed and restarted when a pair overruns)."""

    def __init__(self, libraries: tuple[str, ...], python: str | None = None, limit: float = 10.0, start_limit: float = 60.0) -> None:
        self.libraries = libraries
        self.python = python or sys.executable
        self.limit = limit
        self.start_limit = start_limit
        self.info: dict[str, Any] | None = None
        self.timeouts = 0
        self._proc: subprocess.Popen | None = None
        self._buf = b""
        self._cache: dict[tuple[str, str], dict[str, Any] | None] = {}

    def _readline(self, limit: float) -> bytes | None:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        end = time.monotonic() + limit
        while b"\n" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _start(self) -> bool:
        self._buf = b""
        try:
            self._proc = subprocess.Popen(
                [self.python, "-c", RUNNER, ",".join(self.libraries)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        except OSError as e:
            self.info = {"ready": False, "why": f"cannot start {self.python}: {e}"}
            return False
        line = self._readline(self.start_limit)
        hello = json.loads(line) if line else {"ready": False, "why": f"{self.python} did not start the latex2sympy worker"}
        if self.info is None or not hello.get("ready"):
            self.info = hello
        if not hello.get("ready"):
            self.close()
            return False
        return True

    def ready(self) -> bool:
        if self._proc is None and (self.info is None or self.info.get("ready")):
            self._start()
        return bool(self.info and self.info.get("ready"))

    def convert(self, gt: str, asw: str) -> dict[str, Any] | None:
        """The worker's answer for the pair, or None (no library, or it overran the limit)."""
        key = (gt, asw)
        if key in self._cache:
            return self._cache[key]
        if not self.ready():
            return None
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((json.dumps([gt, asw]) + "\n").encode())
            self._proc.stdin.flush()
            line = self._readline(self.limit)
        except OSError:
            line = None
        if line is None:
            self.timeouts += 1
            self.close()
            out = None
        else:
            out = json.loads(line)
        self._cache[key] = out
        return out

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            for f in (self._proc.stdin, self._proc.stdout):
                if f is not None:
                    f.close()
            self._proc = None


# --------------------------------------------------------------------------------------
# is_equal, post_check
# --------------------------------------------------------------------------------------


def _py_str(x: Any) -> str:
    return str(x)


def is_equal(asw: Any, gt_asw: Any, runner: LatexRunner | None) -> tuple[bool, str]:
    """``is_equal`` (never raising upstream's way: a miss is ``(False, why)``); raises
    :class:`Undecided`."""
    asw_s = _py_str(asw).lower().strip()
    gt_s = _py_str(gt_asw).lower().strip()
    if gt_s == asw_s:
        return True, "equal text"
    try:
        a = safe_eval(gt_s)
        b = safe_eval(asw_s)
    except _Raises:
        pass
    else:
        if _close(a, b):
            return True, "eval: equal values"
    if runner is None:
        raise Undecided("the latex2sympy step is needed and no runner was given")
    got = runner.convert(gt_s, asw_s)
    if got is None:
        why = runner.info.get("why") if runner.info and not runner.info.get("ready") else f"over the {runner.limit:g} s limit"
        raise Undecided(f"latex2sympy step: {why}")
    if not got.get("parsed"):
        if got.get("digits"):
            raise Undecided("latex2sympy step: an integer past Python's digit limit (version-dependent)")
        return False, "latex2sympy raised"
    try:
        x = safe_eval(got["a"])
        y = safe_eval(got["b"])
    except _Raises:
        return False, "eval of str(latex2sympy(...)) raised"
    c = _close(x, y)
    if c is None:
        return False, "eval of str(latex2sympy(...)) is not a number"
    if c:
        return True, "latex2sympy: equal values"
    if got.get("close"):
        return True, "latex2sympy: SymPy difference below 1e-6"
    return False, "different values"


class _Crash(Exception):
    """Upstream's MATH_V_acc raises on this row (post_check catches only ValueError)."""


def _choices(value: Any) -> Any:
    """``eval(line['choices'])``."""
    if not isinstance(value, str):
        raise _Crash(f"choices is {value!r} (eval of a non-string raises TypeError upstream)")
    try:
        return safe_eval(value)
    except _Raises as e:
        if str(e) == "ValueError":
            raise
        raise _Crash(f"eval of choices {value[:60]!r} raises {e}") from None


def post_check(
    line: dict[str, Any], response: Any, *, prefetch: bool, variant: str, runner: LatexRunner | None, benchmark: str = "mathvision"
) -> tuple[Any, str]:
    """``post_check``: ``(value, why)``: with ``prefetch`` the value (a letter, the response
    text) or False; without it True / False. Raises :class:`Undecided`, ``_Crash``.
    ``benchmark="lens"``: LENS's post_check (no choices: always the texts)."""
    res: Any = None
    ans = line["answer"]
    if benchmark == "lens":
        res, ans = str(response), str(ans)
        ok, why = is_equal(res, ans, runner)
        return ((res if prefetch else True), why) if ok else (False, why)
    try:
        choices = _choices(line["choices"])
        try:
            n = len(choices)
        except TypeError:
            raise _Crash(f"len() of the choices {choices!r:.60} raises TypeError upstream") from None
        if n > 0:
            try:
                opts = {chr(65 + i): v for i, v in enumerate(choices)}
            except TypeError:
                raise _Crash("the choices are not iterable") from None
            res = can_infer(response, opts, _CAN_INFER[variant])
            res = False if res is None else res
            if prefetch:
                return res, "can_infer"
        else:
            res = str(None) if variant == "2024-07" else str(response)
            ans = str(ans)
    except _Raises:  # eval(...) raised ValueError: upstream passes
        pass
    ok, why = is_equal(res, ans, runner)
    if ok:
        return (res if prefetch else True), why
    return False, why


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------

_REPORT_SCHEMA = {
    "Subject": pl.String, "tot": pl.Int64, "prefetch": pl.Int64, "hit": pl.Int64,
    "prefetch_rate": pl.Float64, "acc": pl.Float64,
}  # fmt: skip


def _report(kept: list[tuple[Any, bool, bool]]) -> pl.DataFrame:
    tot: dict[Any, int] = {}
    fetch: dict[Any, int] = {}
    hit: dict[Any, int] = {}
    for cate, fetched, right in kept:
        for k in ("Overall", cate):
            tot[k] = tot.get(k, 0) + 1
            fetch[k] = fetch.get(k, 0) + int(fetched)
            hit[k] = hit.get(k, 0) + int(right)
    if any(not isinstance(k, str) and not (isinstance(k, float) and math.isnan(k)) for k in tot):
        raise _Crash("a category is a number: sort_values('Subject') compares it with 'Overall' (TypeError upstream)")
    rows = [(None if not isinstance(k, str) else k, t, fetch[k], hit[k], fetch[k] / t * 100, hit[k] / t * 100) for k, t in tot.items()]
    rows.sort(key=lambda r: (r[0] is None, r[0] or ""))  # sort_values('Subject'): text order, NaN last
    return pl.DataFrame(rows, schema=_REPORT_SCHEMA, orient="row")


def _values(series: pl.Series) -> list[Any]:
    """The column as pandas holds it after ``load()`` (NaN for a missing cell)."""
    kind, cells = pandas_column(series.cast(pl.String))
    vals = cells.to_list()
    return [math.nan if v is None else v for v in vals] if kind == "object" else vals


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "mathvision",
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
    recorded: Records | None = None,
    judge_policy: str = "auto",
    latex_python: str | None = None,
    latex_timeout: float = 10.0,
) -> GradeResult:
    """Grade a MathVision result table (``index``, ``prediction``, ``answer``, ``choices``,
    ``category``).

    Each row: the prefetch rule first (``can_infer`` on the choices, else ``is_equal`` of the
    prediction and the answer); a row it leaves to the judge takes the recorded ``res``
    (``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records`, kind
    ``"mathvision"``), else ``status="needs_judge"``; then ``post_check(prefetch=False)`` on
    ``res``. A row whose prefetch or hit cannot be decided safely is ``undecided``; rows
    upstream crashes on are ``error``; neither is counted in the report. ``judge`` must be
    None (live judging is not supported). ``seed`` is unused.
    """
    frame = _check_frame(frame)
    check_replay_args(judge_policy, recorded)
    if benchmark not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}; expected one of {', '.join(map(repr, BENCHMARKS))}")
    if judge is not None:
        raise ValueError(f"{benchmark}: live judging is not supported (the extraction prompt is not ported); rows without a recorded extraction are needs_judge")
    if benchmark == "lens":
        if variant not in (None, "classic"):
            raise ValueError(f"lens has one rule (variant 'classic', from 65f8b768), not {variant!r}")
        variant, libraries = "classic", ("latex2sympy2_extended", "latex2sympy2")
        need: tuple[str, ...] = ("index", "prediction", "answer", "category")
    else:
        variant = "classic" if variant is None else variant
        if variant not in VARIANTS:
            raise ValueError(f"unknown MathVision variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
        libraries = _LIBRARIES[variant]
        need = ("index", "prediction", "answer", "choices", "category")
    for name in need:
        if name not in frame.columns:
            raise ValueError(f"{benchmark}: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    use = recorded if judge_policy == "auto" else None
    who = judge_label(recorded)
    runner = LatexRunner(libraries, latex_python or latex_interpreter(libraries), latex_timeout)
    try:
        return _grade(frame, benchmark, variant, use, recorded, judge_policy, who, runner)
    finally:
        runner.close()


def _grade(frame: pl.DataFrame, bench: str, variant: str, use: Records | None, recorded: Records | None, judge_policy: str, who: str, runner: LatexRunner) -> GradeResult:
    n = frame.height
    col = {c: _values(frame[c]) for c in ("prediction", "answer", "choices", "category") if c in frame.columns}
    col.setdefault("choices", [None] * n)
    name = "LENS" if bench == "lens" else "MathVision"
    index = frame["index"].cast(pl.String).to_list()
    # Stage 1: each row's res and log (what {stem}_{J}.xlsx holds), by rule or record.
    res_text: list[str | None] = [None] * n
    logs: list[str | None] = [None] * n
    route: list[str] = [""] * n
    reasons: list[str] = [""] * n
    disagree = 0
    reference_error = None
    for i in range(n):
        line = {c: col[c][i] for c in ("answer", "choices")}
        rec = use.get(index[i]) if use is not None and index[i] is not None else None
        rec_log = None if rec is None else rec.get("log")
        try:
            pre, why = post_check(line, col["prediction"][i], prefetch=True, variant=variant, runner=runner, benchmark=bench)
            pre_undecided = None
        except Undecided as e:
            pre, why, pre_undecided = False, "", str(e)
        except _Crash as e:
            route[i], reasons[i] = "error", f"error: {e}"
            reference_error = reference_error or f"{name}: row {i + 2}: {e}; left out"
            continue
        if pre:
            res_text[i], logs[i], route[i] = str(pre), PREFETCH_LOG, "rules"
            reasons[i] = f"rules (prefetch, {why})"
            if rec_log is not None and str(rec_log) != PREFETCH_LOG:
                disagree += 1
        elif rec is not None and "res" in rec:
            raw = rec.get("res")
            res_text[i] = None if raw is None else str(raw)
            logs[i], route[i] = (None if rec_log is None else str(rec_log)), "recorded"
            reasons[i] = f"{who} extracted {res_text[i]!r}"
            if pre_undecided is None and rec_log is not None and str(rec_log) == PREFETCH_LOG:
                disagree += 1
        elif pre_undecided is not None:
            route[i], reasons[i] = "undecided", f"undecided: prefetch rule: {pre_undecided}"
        else:
            route[i] = "needs_judge"
            w = "--judge none" if judge_policy == "none" else "no recorded extraction for this index"
            reasons[i] = f"needs_judge: the rule did not decide ({w}); not counted"
    # Stage 2: MATH_V_acc re-reads the table: res as pandas types that column.
    res_vals = _values(pl.Series("res", res_text, pl.String))
    # pandas types the stored res column from every row; with rows we have no res for, the
    # type (text or numbers) can depend on them: rows whose value it changes are undecided.
    if any(r is None for r, rt in zip(res_text, route) if rt not in ("rules", "recorded")):
        alt = _values(pl.Series("res", [t if rt in ("rules", "recorded") else "x" for t, rt in zip(res_text, route)], pl.String))
        for i in range(n):
            if route[i] in ("rules", "recorded") and str(alt[i]) != str(res_vals[i]):
                route[i], reasons[i] = "undecided", f"undecided: {reasons[i]}; the stored res column's pandas type depends on rows without a res"
    scores: list[float | None] = [None] * n
    status: list[str] = [""] * n
    kept: list[tuple[Any, bool, bool]] = []
    counts = {"rules": 0, "recorded": 0, "needs_judge": 0, "error": 0, "undecided": 0}
    for i in range(n):
        if route[i] in ("rules", "recorded"):
            line = {c: col[c][i] for c in ("answer", "choices")}
            try:
                hit, why = post_check(line, res_vals[i], prefetch=False, variant=variant, runner=runner, benchmark=bench)
            except Undecided as e:
                route[i], reasons[i] = "undecided", f"undecided: {reasons[i]}; is_equal: {e}"
            except _Crash as e:
                route[i], reasons[i] = "error", f"error: {e}"
                reference_error = reference_error or f"{name}: row {i + 2}: {e}; left out"
            else:
                cate = col["category"][i]
                kept.append((cate, logs[i] == PREFETCH_LOG, bool(hit)))
                scores[i] = 1.0 if hit else 0.0
                status[i] = "ok"
                reasons[i] += f": {'right' if hit else 'wrong'} ({why})"
                counts[route[i]] += 1
                continue
        status[i] = route[i]
        counts[route[i]] += 1
    try:
        report = _report(kept)
    except _Crash as e:
        reference_error = reference_error or f"{name}: {e}"
        report = pl.DataFrame(schema=_REPORT_SCHEMA)
    rows = frame.with_columns(
        pl.Series("res", res_text, pl.String),
        pl.Series("log", logs, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reasons, pl.String),
    )
    routes = {"rules": counts["rules"], "recorded": counts["recorded"], "needs_judge": counts["needs_judge"] + counts["undecided"], "error": counts["error"]}
    decided = decided_from_routes(routes)
    method = method_line([("rules", decided["rules"], "prefetch"), (who, decided["recorded"])], decided["undecided"])
    archive_method = f"rules + judge {recorded.judge}" if has_record_files(recorded) else None
    n_hit = sum(1 for k in kept if k[2])
    stats: dict[str, Any] = {
        "benchmark": bench,
        "variant": variant,
        **tally_keys(n, len(kept), n_hit),
        **method_keys(decided, method, judge_policy, archive_method, replay_matches(archive_method, judge_policy, decided["undecided"], disagree, counts["error"])),
        **disagreement_keys("prefetch_disagreements", disagree),
        "status": status_counts(rows),
        "undecided_rows": counts["undecided"],
        "latex2sympy": runner.info,
        "latex_timeouts": runner.timeouts,
        "judge": False,
        "crashed_rows": counts["error"],
        "reference_error": reference_error,
    }
    if recorded is not None:
        stats["records"] = records_summary(recorded)
    return GradeResult(rows=rows, report=report, stats=stats)
