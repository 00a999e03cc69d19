"""``eval()`` of VLMEvalKit's math helpers (mathv.py, lens.py) without executing anything.

Self-contained (standard library only): :mod:`gaia_fast.scorers.vlm.mathvision` imports it,
and its latex2sympy worker, which may run in another Python, ``exec``s this file's source
so the values SymPy returns (``eval(str(a))`` can name the local ``a``) are evaluated the
same way there.

:func:`safe_eval` returns exactly what ``eval`` returns for the expressions it decides:
literals, arithmetic, comparisons, boolean operators, conditionals, containers,
subscripts, the caller's local variables (``eval`` inside ``is_equal`` sees ``asw``,
``gt_asw`` and, once assigned, ``a`` and ``b``), and names defined nowhere (``NameError``).
It raises :class:`Raises` where ``eval`` raises, and :class:`Undecided` for everything it
will not reproduce: a name the reference's globals or builtins define, a call, an
attribute, an f-string, a lambda, work too large to finish in the reference's time.
"""

from __future__ import annotations

import ast
import builtins
import operator
import re
import warnings
from typing import Any

__all__ = ["OPAQUE", "REFERENCE_GLOBALS", "Raises", "Undecided", "close", "is_number", "safe_eval"]

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


class Raises(Exception):
    """``eval`` of this text raises (the exception's type name is the message)."""


#: A value that is not reproduced: a local variable whose value is not known here
#: (``post_check``'s ``line``, ``ans``...), or what a bare global name evaluates to (never
#: a number). Using it in an expression is Undecided; it is no number.
OPAQUE = object()


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
    if op is ast.Pow and isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1 and _bits(a) * b > _MAX_BITS:
        raise Undecided(f"{a!r:.20} ** {b!r:.20} is too large to reproduce (the reference may time out)")
    if op is ast.LShift and isinstance(a, int) and isinstance(b, int) and b > _MAX_BITS:
        raise Undecided("a shift too large to reproduce")
    if op is ast.Mult and isinstance(a, int) and isinstance(b, int) and _bits(a) + _bits(b) > _MAX_BITS:
        raise Undecided("a product too large to reproduce")
    if op is ast.Mult:
        for s, n in ((a, b), (b, a)):
            if isinstance(s, _SEQ) and isinstance(n, int) and len(s) * max(n, 0) > _MAX_ITEMS:
                raise Undecided("a repeated sequence too large to reproduce")
    if op is ast.Mod and isinstance(a, (str, bytes)):
        raise Undecided("%-formatting is not reproduced")


def _ev(node: ast.AST, depth: int, env: dict[str, Any]) -> Any:
    if depth > _MAX_DEPTH:
        raise Undecided("expression nested too deeply")
    d = depth + 1
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:  # eval's locals come before the globals
            value = env[node.id]
            if value is OPAQUE:
                raise Undecided(f"local variable {node.id!r} of the reference")
            return value
        if _defined(node.id):
            raise Undecided(f"name {node.id!r} is defined in the reference's globals or builtins")
        raise Raises("NameError")
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
        v = _ev(node.operand, d, env)
        try:
            return _UNOPS[type(node.op)](v)
        except Exception as e:  # noqa: BLE001 - eval raises the same on these values
            raise Raises(type(e).__name__) from None
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a = _ev(node.left, d, env)
        b = _ev(node.right, d, env)
        _guard_binop(type(node.op), a, b)
        try:
            return _BINOPS[type(node.op)](a, b)
        except Exception as e:  # noqa: BLE001
            raise Raises(type(e).__name__) from None
    if isinstance(node, ast.BoolOp):
        v = None
        for k, part in enumerate(node.values):
            v = _ev(part, d, env)
            if k == len(node.values) - 1:
                return v
            try:
                truth = bool(v)
            except Exception as e:  # noqa: BLE001
                raise Raises(type(e).__name__) from None
            if truth is isinstance(node.op, ast.Or):
                return v
        return v
    if isinstance(node, ast.Compare) and all(type(o) in _CMPOPS for o in node.ops):
        left = _ev(node.left, d, env)
        result: Any = True
        last = len(node.ops) - 1
        for k, (op, comp) in enumerate(zip(node.ops, node.comparators)):
            right = _ev(comp, d, env)
            try:
                result = _CMPOPS[type(op)](left, right)
                # Python tests the truth of every comparison but the last (a SymPy
                # relation is returned as it is, and bool() of it raises)
                if k < last and not result:
                    return result
            except Exception as e:  # noqa: BLE001
                raise Raises(type(e).__name__) from None
            left = right
        return result
    if isinstance(node, ast.IfExp):
        test = _ev(node.test, d, env)
        try:
            truth = bool(test)
        except Exception as e:  # noqa: BLE001
            raise Raises(type(e).__name__) from None
        return _ev(node.body, d, env) if truth else _ev(node.orelse, d, env)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise Undecided("starred element")
        items = [_ev(e, d, env) for e in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(items)
        if isinstance(node, ast.List):
            return items
        try:
            return set(items)
        except Exception as e:  # noqa: BLE001
            raise Raises(type(e).__name__) from None
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise Undecided("** in a dict display")
        out: dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            key = _ev(k, d, env)  # type: ignore[arg-type]
            val = _ev(v, d, env)
            try:
                out[key] = val
            except Exception as e:  # noqa: BLE001
                raise Raises(type(e).__name__) from None
        return out
    if isinstance(node, ast.Subscript):
        value = _ev(node.value, d, env)
        index = _slice(node.slice, d, env)
        try:
            return value[index]
        except Exception as e:  # noqa: BLE001
            raise Raises(type(e).__name__) from None
    if isinstance(node, ast.Attribute):
        _ev(node.value, d, env)  # ``Interval.open`` (str of a SymPy set): NameError on Interval first
        raise Undecided("an attribute of a value")
    if isinstance(node, ast.Call):
        _ev(node.func, d, env)  # an undefined function name raises NameError first, as upstream
        raise Undecided("a call")
    raise Undecided(f"{type(node).__name__} is not reproduced")


def _slice(node: ast.AST, d: int, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _ev(p, d, env) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)
    return _ev(node, d, env)


_LONG_DIGITS = re.compile(r"[0-9_]{4000,}")


def safe_eval(text: str, local_values: dict[str, Any] | None = None) -> Any:
    """What ``eval(text)`` returns in mathv.py's globals and the caller's ``local_values``
    (name -> value, or :data:`OPAQUE`), for the texts it can decide. Raises :class:`Raises`
    (``eval`` raises) or :class:`Undecided`. Nothing in ``text`` is executed."""
    if _LONG_DIGITS.search(text):
        raise Undecided("an integer literal long enough for Python's 4300-digit limit (version-dependent)")
    try:
        with warnings.catch_warnings():
            # invalid escapes ('\\s') warn at parse time; under -W error they would raise,
            # which the reference (warnings as warnings) does not
            warnings.simplefilter("ignore")
            tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise Raises("SyntaxError") from None
    except ValueError:  # null bytes (SyntaxError from Python 3.12): an exception either way
        raise Raises("ValueError") from None
    except (RecursionError, MemoryError):
        raise Undecided("too deeply nested to parse") from None
    env = dict(local_values or {})
    body = tree.body
    if isinstance(body, ast.Name) and body.id not in env and _defined(body.id) and not body.id.startswith("__"):
        # A bare name of the reference's globals or builtins: a module, function, class,
        # text or dict there (none of those names is bound to a number in any version), so
        # no number; what it is exactly is not reproduced (OPAQUE: any use is Undecided).
        return OPAQUE
    return _ev(body, 0, env)


def is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex))


def close(a: Any, b: Any) -> bool | None:
    """``abs(a - b) < 1e-6``; None where it raises (either way, upstream goes on)."""
    if not (is_number(a) and is_number(b)):
        return None  # TypeError (a set difference has no abs either)
    try:
        return bool(abs(a - b) < 1e-6)
    except Exception:  # noqa: BLE001 - OverflowError of a huge int
        return None
