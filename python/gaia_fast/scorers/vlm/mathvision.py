"""MathVision / MathVision_MINI (and LENS-CN-QA): the archive's stored ``res`` / ``log`` (the
prefetch rule's or the judge's extraction; the rule where a row has no record) and
``MATH_V_acc``, whose ``is_equal`` runs Python ``eval()`` and ``latex2sympy`` on the
answers. Laid out as extract -> score -> aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/utils/mathv.py`` (``is_equal``,
``post_check``, ``MATH_V_auxeval``, ``MATH_V_acc``) and ``MathVision.evaluate_heuristic`` in
``vlmeval/dataset/image_vqa.py``; head e8e78f05, first 24f7defb (2024-07-19).

``is_equal(asw, gt)``: ``str().lower().strip()`` of both; equal text is a hit; else
``eval(gt)`` and ``eval(asw)`` in mathv.py's module globals, a hit when
``abs(a - b) < 1e-6``; else ``latex2sympy`` of both, a hit when
``abs(eval(str(a)) - eval(str(b))) < 1e-6`` or (that difference computed but not small)
``abs(a - b) < 1e-6`` in SymPy; any exception is a miss. Archive text is never executed
here: :func:`safe_eval` (:mod:`gaia_fast.scorers.vlm._safe_eval`) reproduces ``eval`` on
the expressions it can decide (literals, arithmetic, comparisons, containers, names that
are not defined: ``NameError``, and ``is_equal``'s own local variables, which ``eval``
sees: ``asw``, ``gt_asw``, then ``a`` — an extraction ``a`` equals any numeric answer
upstream) and raises :class:`Undecided` on the rest (a name the reference's globals or
builtins define, a call, an attribute, an f-string, work too large to finish in the
reference's 30 s). Such rows get ``status="undecided"`` and are not counted; they are never
guessed. The latex step runs whole in a separate, killable interpreter
(:class:`LatexRunner`, a hard per-pair time limit): latex2sympy only parses, and the
``eval(str(a))`` there is the same safe evaluator, with the SymPy ``a`` and ``b`` as locals.

The latex2sympy library: VLMEvalKit told users to ``pip install latex2sympy2`` (1.9.1,
which pins ``antlr4-python3-runtime==4.7.2``: it cannot share an environment with SymPy's
``parse_latex``, which needs ANTLR 4.11); from a9343a1e (2026-04-09) mathv.py imports
``latex2sympy2_extended`` first (its requirements.txt lists it, unpinned). The
interpreter that runs it is ``latex_python=``, else :func:`latex_interpreter`
(``$GAIA_FAST_LATEX2SYMPY2_PYTHON`` for the latex2sympy2 variants,
``$GAIA_FAST_LATEX2SYMPY2_EXTENDED_PYTHON`` for the head import order; default this Python).
It imports the libraries in the variant's order and the stats name the one used (the
archive does not record which the run had: a report that differs may be the library).
Without a working library every row that reaches the latex step is ``undecided``.

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

import json
import math
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult, _safe_eval
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
from gaia_fast.scorers.vlm._safe_eval import OPAQUE, Raises, Undecided, close, safe_eval
from gaia_fast.scorers.vlm.mcq import can_infer
from gaia_fast.scorers.vlm.recorded import Records

_Raises = Raises  # the name the tests use
_EVALUATOR_SOURCE = Path(_safe_eval.__file__).read_text(encoding="utf-8")

__all__ = ["BENCHMARKS", "OPAQUE", "PREFETCH_LOG", "VARIANTS", "LatexRunner", "Undecided", "grade", "is_equal", "latex_interpreter", "safe_eval"]

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=``.
RECORD_KIND = "mathvision"

BENCHMARKS = ("mathvision", "lens")
VARIANTS = ("2024-07", "classic", "2025-08", "2026-04", "2026-06")
_CAN_INFER = {"2024-07": "classic", "classic": "classic", "2025-08": "2025-08", "2026-04": "2025-08", "2026-06": "2026-06"}
#: The libraries mathv.py imports, in its order, per variant.
_LIBRARIES = {v: ("latex2sympy2",) for v in VARIANTS} | {v: ("latex2sympy2_extended", "latex2sympy2") for v in ("2026-04", "2026-06")}
PREFETCH_LOG = "Prefetch succeed"


# --------------------------------------------------------------------------------------
# latex2sympy in a killable interpreter
# --------------------------------------------------------------------------------------

# Run as ``python -c RUNNER LIBS``: imports the first library that loads (mathv.py's
# order); reads the source of gaia_fast.scorers.vlm._safe_eval (first input line); then
# per input line [gt, asw] runs is_equal's latex step with eval replaced by safe_eval and
# prints {"result": true | false | null (undecided), "why"}. Nothing evaluates the text.
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
SE = {"__name__": "gaia_fast_safe_eval"}
exec(compile(json.loads(sys.stdin.readline()), "_safe_eval.py", "exec"), SE)
Undecided = SE["Undecided"]
safe_eval = SE["safe_eval"]
hello = {"ready": fn is not None, "why": "; ".join(why), "library": used,
         "version": version(used.replace("_", "-")) if used else None,
         "sympy": version("sympy"), "antlr": version("antlr4-python3-runtime")}
sys.stdout.write(json.dumps(hello) + "\n")
sys.stdout.flush()
def latex_step(gt_asw, asw):
    # is_equal's second try block; eval sees is_equal's locals asw, gt_asw, a, b
    try:
        a = fn(gt_asw)
        b = fn(asw)
        local = {"asw": asw, "gt_asw": gt_asw, "a": a, "b": b}
        if abs(safe_eval(str(a), local) - safe_eval(str(b), local)) < 1e-6:
            return True, "latex2sympy: equal values"
        if abs(a - b) < 1e-6:
            return True, "latex2sympy: SymPy difference below 1e-6"
    except Undecided as e:
        return None, "eval of str(latex2sympy(...)): %s" % e
    except (RecursionError, MemoryError) as e:
        return None, "%s (environment-dependent)" % type(e).__name__
    except ValueError as e:
        if "integer string conversion" in str(e):
            return None, "an integer past Python's digit limit (version-dependent)"
        return False, "ValueError raised"
    except Exception as e:
        return False, "%s raised" % type(e).__name__
    return False, "different values"
for line in sys.stdin:
    gt, asw = json.loads(line)
    result, why = latex_step(gt, asw)
    sys.stdout.write(json.dumps({"result": result, "why": why}) + "\n")
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
            assert self._proc.stdin is not None
            self._proc.stdin.write((json.dumps(_EVALUATOR_SOURCE) + "\n").encode())
            self._proc.stdin.flush()
        except OSError as e:
            self.info = {"ready": False, "why": f"cannot start {self.python}: {e}"}
            self.close()
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
            try:
                out = json.loads(line)
            except ValueError:  # a worker that wrote something else: undecided, restart it
                self.close()
                out = None
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


def is_equal(asw: Any, gt_asw: Any, runner: LatexRunner | None) -> tuple[bool, str]:
    """``is_equal`` (never raising upstream's way: a miss is ``(False, why)``); raises
    :class:`Undecided`. ``eval`` runs in ``is_equal``, so it also sees its local variables:
    ``asw`` and ``gt_asw`` (the lowered texts) and, for ``eval(asw)``, ``a``."""
    asw_s = str(asw).lower().strip()
    gt_s = str(gt_asw).lower().strip()
    if gt_s == asw_s:
        return True, "equal text"
    local: dict[str, Any] = {"asw": asw_s, "gt_asw": gt_s}
    try:
        a = safe_eval(gt_s, local)
        local["a"] = a
        b = safe_eval(asw_s, local)
    except Raises:
        pass
    else:
        if close(a, b):
            return True, "eval: equal values"
    if runner is None:
        raise Undecided("the latex2sympy step is needed and no runner was given")
    got = runner.convert(gt_s, asw_s)
    if got is None:
        why = runner.info.get("why") if runner.info and not runner.info.get("ready") else f"over the {runner.limit:g} s limit"
        raise Undecided(f"latex2sympy step: {why}")
    if got["result"] is None:
        raise Undecided(f"latex2sympy step: {got['why']}")
    return bool(got["result"]), str(got["why"])


class _Crash(Exception):
    """Upstream's MATH_V_acc raises on this row (post_check catches only ValueError)."""


def _choices(value: Any, prefetch: bool) -> Any:
    """``eval(line['choices'])`` (in post_check: its locals are visible)."""
    if not isinstance(value, str):
        raise _Crash(f"choices is {value!r} (eval of a non-string raises TypeError upstream)")
    local = {"line": OPAQUE, "prefetch": prefetch, "res": None, "ans": OPAQUE, "response": OPAQUE}
    try:
        return safe_eval(value, local)
    except Raises as e:
        if str(e) == "ValueError":
            raise
        raise _Crash(f"eval of choices {value[:60]!r} raises {e}") from None


def _is_choice_row(line: dict[str, Any], bench: str) -> bool:
    """Whether ``post_check`` takes the ``can_infer`` branch (cheap to re-run); False where
    eval of the choices cannot be decided here (the full rule will say so)."""
    if bench == "lens" or not isinstance(line.get("choices"), str):
        return False
    try:
        value = safe_eval(line["choices"], {"line": OPAQUE, "prefetch": True, "res": None, "ans": OPAQUE, "response": OPAQUE})
        return len(value) > 0
    except Exception:  # noqa: BLE001 - Raises, Undecided, len() of a non-sequence: not cheaply a choice row
        return False


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
        choices = _choices(line["choices"], prefetch)
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
    except Raises:  # eval(...) raised ValueError: upstream passes
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
    ``category``; LENS: no ``choices``).

    Each row's ``res`` and ``log`` are the record's where the archive has one
    (``recorded``: :func:`gaia_fast.scorers.vlm.recorded.find_records`, kind
    ``"mathvision"``), as ``MATH_V_acc`` reads them; the prefetch rule is re-run where that
    is cheap (choice rows, recorded prefetches) and ``prefetch_disagreements`` counts rows
    it decides otherwise. A row without a record takes the prefetch rule, else is
    ``needs_judge``. Then ``post_check(prefetch=False)`` on ``res``. A row whose prefetch
    or hit cannot be decided safely is ``undecided``; rows upstream crashes on are
    ``error``; neither is counted in the report. ``latex_python``: the interpreter for the
    latex step (default :func:`latex_interpreter`); ``latex_timeout``: its limit per pair.
    ``judge`` must be None (live judging is not supported). ``seed`` is unused.
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
    # Stage 1: each row's res and log (what {stem}_{J}.xlsx holds). A recorded row takes the
    # record (MATH_V_acc reads exactly that); the prefetch rule is re-run on it where that
    # is cheap (multiple choice: can_infer; a recorded prefetch: it held) to count
    # disagreements, not on free-form rows the judge extracted (the rule failed there, and
    # confirming that runs latex2sympy on the whole response). A row without a record
    # takes the rule, or is needs_judge.
    res_text: list[str | None] = [None] * n
    logs: list[str | None] = [None] * n
    route: list[str] = [""] * n
    reasons: list[str] = [""] * n
    disagree = 0
    reference_error = None
    for i in range(n):
        line = {c: col[c][i] for c in ("answer", "choices")}
        rec = use.get(index[i]) if use is not None and index[i] is not None else None
        rec = rec if rec is not None and "res" in rec else None
        rec_log = None if rec is None else rec.get("log")
        rec_fetched = rec_log is not None and str(rec_log) == PREFETCH_LOG
        pre: Any = False
        why, pre_undecided = "", None
        if rec is None or rec_fetched or _is_choice_row(line, bench):
            try:
                pre, why = post_check(line, col["prediction"][i], prefetch=True, variant=variant, runner=runner, benchmark=bench)
            except Undecided as e:
                pre, pre_undecided = False, str(e)
            except _Crash as e:
                route[i], reasons[i] = "error", f"error: {e}"
                reference_error = reference_error or f"{name}: row {i + 2}: {e}; left out"
                continue
        if rec is not None:
            raw = rec.get("res")
            res_text[i] = None if raw is None else str(raw)
            logs[i] = None if rec_log is None else str(rec_log)
            if rec_fetched:
                route[i], reasons[i] = "rules", f"rules (recorded prefetch {res_text[i]!r})"
                if pre_undecided is None and (not pre or str(pre) != res_text[i]):
                    disagree += 1  # the run's rule decided otherwise (another can_infer, library)
            else:
                route[i], reasons[i] = "recorded", f"{who} extracted {res_text[i]!r}"
                if pre:
                    disagree += 1
        elif pre:
            res_text[i], logs[i], route[i] = str(pre), PREFETCH_LOG, "rules"
            reasons[i] = f"rules (prefetch, {why})"
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
