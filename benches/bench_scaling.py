"""Scaling of every extractor, parser and scorer on adversarial input shapes.

One command::

    python benches/bench_scaling.py              # 1e4, 1e5, 1e6 characters per shape
    python benches/bench_scaling.py --quick      # 1e3, 1e4, 1e5
    python benches/bench_scaling.py --family boxed --family gaia

Each row is one input shape (a repeated or unclosed opener, deep nesting, a long run of
separators, digits, whitespace or tags) fed to one function at three sizes. The table gives
the best-of-N time at each size and the ratio between consecutive sizes: on a 10x larger
input a linear function takes ~10x longer; a quadratic one ~100x. A size is skipped
(``-``) when the previous one already took longer than ``--limit`` seconds, so a
superlinear function cannot stall the run.

Timings are wall-clock on a possibly shared machine: compare ratios within one run. The
test suite checks linearity by counting steps instead (``tests/test_linear_time.py`` and
the Rust unit tests), which does not depend on the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import gaia_fast as gf
from gaia_fast import _native
from gaia_fast.scorers.vlm import physics as _physics


def rep(unit: str, n: int, head: str = "", tail: str = "") -> str:
    """``head + unit * k + tail`` with about ``n`` characters in all."""
    k = max(1, (n - len(head) - len(tail)) // len(unit))
    return head + unit * k + tail


def nest(opener: str, inner: str, closer: str, n: int) -> str:
    """``opener * k + inner + closer * k``, about ``n`` characters."""
    k = max(1, (n - len(inner)) // (len(opener) + len(closer)))
    return opener * k + inner + closer * k


@dataclass
class Case:
    family: str
    name: str
    make: Callable[[int], tuple]  # size -> arguments
    call: Callable[..., object]


ABCD = {"A": "cat", "B": "dog", "C": "bird", "D": "fish"}


def cases() -> list[Case]:
    out: list[Case] = []

    def add(family: str, name: str, make: Callable[[int], tuple], call: Callable[..., object]) -> None:
        out.append(Case(family, name, make, call))

    # --- \boxed{} extraction, every style -------------------------------------------------
    box_shapes: dict[str, Callable[[int], str]] = {
        "open \\boxed{ x k": lambda n: rep("\\boxed{", n),
        "nested boxes": lambda n: nest("\\boxed{", "x", "}", n),
        "nested boxes, spaces": lambda n: nest("\\boxed{ ", "x", " }", n),
        "\\boxed{ + { x n": lambda n: rep("{", n, head="\\boxed{"),
        "\\boxed{ + {} x k (open)": lambda n: rep("{}", n, head="\\boxed{"),
        "closed \\boxed{x} x k": lambda n: rep("\\boxed{x} ", n),
        "open \\\\[boxed{ x k": lambda n: rep("\\\\[boxed{", n),
        "\\\\[boxed{ + {{}} x k": lambda n: rep("{{}}", n, head="\\\\[boxed{"),
        "\\boxed + spaces": lambda n: rep(" ", n, head="\\boxed"),
        "(\\boxed + spaces) x k": lambda n: rep("\\boxed" + " " * 50, n),
        "backslashes": lambda n: rep("\\", n),
        "box of open boxes + newline": lambda n: rep("\\boxed{", n, head="\\boxed{{{", tail="\n}}}"),
        "box of open list boxes": lambda n: rep("\\boxed{\\[", n, head="\\boxed{{{", tail="}}}"),
    }
    for style in ("balanced", "physics", "physics-final"):
        for name, make in box_shapes.items():
            add(f"extract_boxed[{style}]", name, (lambda m: lambda n: (m(n),))(make),
                (lambda s: lambda t: gf.vlm.extract_boxed(t, style=s))(style))
    yale_shapes = {
        "box of open list boxes": lambda n: rep("\\boxed{\\[", n, head="{{", tail="}}"),
        "list box of \\]s": lambda n: rep("\\]", n, head="\\boxed{\\[", tail="\\]}"),
    }
    for name, make in yale_shapes.items():
        add("physics yale list step", name, (lambda m: lambda n: ([m(n)],))(make), _physics._yale_list)

    # --- PHYSICS text steps ----------------------------------------------------------------
    add("physics_final", "\\boxed{ x k + newline", lambda n: (rep("\\boxed{", n, tail="\n"),), _native.physics_final)
    add("physics_final", "\\\\[boxed{} x k", lambda n: (rep("\\\\[boxed{}", n),), _native.physics_final)
    add("physics_final", "\\boxed{ + } x n", lambda n: (rep("}", n, head="\\\\[boxed{"),), _native.physics_final)
    add("physics_preprocess", "_{ x k + newline", lambda n: (rep("_{", n, tail="\n}"),), _native.physics_preprocess)
    add("physics_preprocess", "_\\ x k", lambda n: (rep("_\\", n),), _native.physics_preprocess)
    add("physics_preprocess", "\\left\\right\\cdot", lambda n: (rep("\\left\\right\\cdot", n),), _native.physics_preprocess)
    add("physics_core", "= x n", lambda n: (rep("=", n),), _native.physics_core)
    add("physics_core", "\\implies x k", lambda n: (rep("\\implies ", n),), _native.physics_core)
    add("physics sympy fast path", "digits", lambda n: (rep("1", n), rep("1", n)), _native.physics_sympy_fast)
    add("physics sympy fast path", "\\frac{ x k", lambda n: (rep("\\frac{", n), "1"), _native.physics_sympy_fast)

    # --- can_infer, every variant ----------------------------------------------------------
    mcq_shapes: dict[str, Callable[[int], str]] = {
        "<answer> x k": lambda n: rep("<answer>", n),
        "<answer> + spaces x k": lambda n: rep("<answer>" + " " * 20, n),
        "\\boxed{ x k": lambda n: rep("\\boxed{", n),
        "\\boxed + spaces x k": lambda n: rep("\\boxed" + " " * 20 + "{", n),
        "answer is x k": lambda n: rep("answer is ", n),
        "final answer is ** x k": lambda n: rep("The final answer is **", n),
        "answer: + spaces": lambda n: rep(" ", n, head="answer:"),
        "letters A B": lambda n: rep("A B ", n),
        "whitespace": lambda n: rep(" ", n),
        "separators": lambda n: rep(".,;:()[]", n),
        "option text repeated": lambda n: rep("cat dog ", n),
        "digits": lambda n: rep("7", n),
    }
    for variant in ("classic", "2025-08", "2026-06", "dcvlr", "2023-12"):
        for name, make in mcq_shapes.items():
            add(f"can_infer[{variant}]", name, (lambda m: lambda n: (m(n), ABCD))(make),
                (lambda v: lambda a, c: gf.vlm.can_infer(a, c, variant=v))(variant))
    add("can_infer[classic]", "long option texts", lambda n: (rep("a", n // 2), {"A": rep("a", n // 4) + "b", "B": "x"}),
        gf.vlm.can_infer)

    pmc_shapes: dict[str, Callable[[int], str]] = {
        "(A) x k": lambda n: rep("(A)", n),
        "A. x k": lambda n: rep("A. ", n),
        " A  x k": lambda n: rep(" A ", n),
        "strip chars": lambda n: rep(",.!?;:'", n),
        "whitespace": lambda n: rep(" ", n),
        "option texts": lambda n: rep("cat dog bird ", n),
        "digits": lambda n: rep("7", n),
    }
    for name, make in pmc_shapes.items():
        add("parse_multi_choice", name, (lambda m: lambda n: (m(n), ABCD))(make), gf.vlm.parse_multi_choice)
    add("parse_multi_choice", "long option texts", lambda n: (rep("a ", n // 2), {"A": rep("a ", n // 4) + "b", "B": "x"}),
        gf.vlm.parse_multi_choice)

    # --- Omni3DBench -----------------------------------------------------------------------
    add("omni3d_score", "<ans> x k (str)", lambda n: (rep("<ans>", n), "yes", "str"), gf.vlm.omni3d_score)
    add("omni3d_score", "<ans></ans> x k (float)", lambda n: (rep("<ans></ans>", n), "2", "float"), gf.vlm.omni3d_score)
    add("omni3d_score", "digits (int)", lambda n: (rep("9", n), "3", "int"), gf.vlm.omni3d_score)
    add("omni3d_score", "digits (float)", lambda n: (rep("9", n, tail=".5"), "3", "float"), gf.vlm.omni3d_score)
    add("omni3d_score", "zeros (float)", lambda n: (rep("0", n, head="0.", tail="1"), "3", "float"), gf.vlm.omni3d_score)
    add("omni3d_score", "underscores (int)", lambda n: (rep("1_", n, tail="1"), "3", "int"), gf.vlm.omni3d_score)
    add("omni3d_score", "whitespace (int)", lambda n: (rep(" ", n, tail="3"), "3", "int"), gf.vlm.omni3d_score)
    add("omni3d_score", "yes/no x k (str)", lambda n: (rep("yes no ", n), "yes", "str"), gf.vlm.omni3d_score)
    add("mra", "many pairs", lambda n: ([f"<ans>{i % 7 + 1}</ans>" for i in range(n // 12)], ["3"] * (n // 12)), gf.vlm.mra)

    # --- OlympiadBench ---------------------------------------------------------------------
    add("olympiad extract", "phrase x k", lambda n: (rep("So the final answer is ", n), False), _native.olympiad_extract)
    add("olympiad extract", "phrase + newline x k", lambda n: (rep("So the final answer is 1\n", n), False), _native.olympiad_extract)
    add("olympiad extract", "zh phrase x k", lambda n: (rep("所以最终答案是", n), True), _native.olympiad_extract)
    add("olympiad preprocess", "open \\boxed{ x k", lambda n: (rep("\\boxed{", n),), _native.olympiad_preprocess)
    add("olympiad preprocess", "closed boxes x k", lambda n: (rep("\\boxed{1}", n),), _native.olympiad_preprocess)
    add("olympiad preprocess", "$ x n", lambda n: (rep("$", n),), _native.olympiad_preprocess)
    add("olympiad preprocess", "\\mathrm{ x k", lambda n: (rep("\\mathrm{", n),), _native.olympiad_preprocess)
    add("olympiad preprocess", "\\in  x k", lambda n: (rep("\\in ", n),), _native.olympiad_preprocess)
    add("olympiad pieces", "commas", lambda n: (rep(",", n),), _native.olympiad_pieces)
    add("olympiad pieces", "parentheses", lambda n: (rep("(", n),), _native.olympiad_pieces)
    add("olympiad pair", "digits", lambda n: (rep("1", n), rep("1", n)), _native.olympiad_pair)
    add("olympiad pair", "( x n", lambda n: (rep("(", n), rep("(", n)), _native.olympiad_pair)
    add("olympiad pair", "\\frac{ nested", lambda n: (nest("\\frac{1}{", "2", "}", n), "1"), _native.olympiad_pair)
    add("olympiad pair", "^ x n", lambda n: (rep("2^", n, tail="2"), "4"), _native.olympiad_pair)
    add("olympiad judge (fast)", "equal pieces", lambda n: (rep("1,", n), rep("1,", n)), _native.olympiad_judge_fast)
    add("olympiad judge (fast)", "distinct pieces", lambda n: (",".join(str(i) for i in range(n // 7)),
                                                              ",".join(str(i) for i in reversed(range(n // 7)))),
        _native.olympiad_judge_fast)
    # The greedy pairing on lists of n/10 pieces (so the 1e4 and 1e5 columns are 1e3 and 1e4
    # pieces a side), in shapes where the first equal truth piece is far down the list.
    for name, shape in _pairing_shapes().items():
        add("olympiad judge (fast)", name + ", n/10 pieces",
            lambda n, shape=shape: tuple(",".join(side) for side in shape(max(1, n // 10))), _native.olympiad_judge_fast)

    # --- GAIA scorers ----------------------------------------------------------------------
    gaia_shapes: dict[str, Callable[[int], tuple[str, str]]] = {
        "digits": lambda n: (rep("1", n), rep("1", n)),
        "thousands separators": lambda n: (rep("1,", n, tail="1"), "1"),
        "list of numbers": lambda n: (rep("1, ", n, tail="1"), rep("1, ", n, tail="1")),
        "whitespace": lambda n: (rep(" ", n), "a"),
        "separators": lambda n: (rep(",;", n), "a,b"),
        "dollars/percent": lambda n: (rep("$%", n, tail="1"), "1"),
        "words": lambda n: (rep("the cat ", n), rep("the cat ", n)),
    }
    for name, make in gaia_shapes.items():
        add("question_scorer", name, make, gf.question_scorer)
        add("lenient_match", name, make, gf.lenient_match)
        add("graded_score", name, make, gf.graded_score)
    return out


def _pairing_shapes() -> dict[str, Callable[[int], tuple[list[str], list[str]]]]:
    """k -> (prediction pieces, truth pieces); every shape pairs up completely."""

    def words_after_numbers(k: int) -> tuple[list[str], list[str]]:
        h = k // 2
        return ["x"] * h + [f"{i}.5" for i in range(h)], [f"{i}.5" for i in reversed(range(h))] + ["x"] * h

    def mixed(k: int) -> tuple[list[str], list[str]]:
        a = ["yes" if i % 2 == 0 else str(i) for i in range(k)]
        return a, a[::-1]

    return {
        "numbers reversed": lambda k: ([f"{i}.5" for i in range(k)], [f"{i}.50" for i in reversed(range(k))]),
        "percent variants reversed": lambda k: ([f"{i}.5" for i in range(k)],
                                                [repr((i + 0.5) / 100) for i in reversed(range(k))]),
        # 1 + 2i·1e-8 is within the tolerance 1.01e-8 of two truth pieces.
        "near-tolerance chain reversed": lambda k: ([repr(1 + 2e-8 * i) for i in range(k)],
                                                    [repr(1 + 2e-8 * i + 1e-8) for i in reversed(range(k))]),
        "words after numbers": words_after_numbers,
        "words and numbers reversed": mixed,
    }


def timed(fn: Callable[..., object], args: tuple, limit: float) -> float:
    best = float("inf")
    spent = 0.0
    for _ in range(5):
        t0 = time.perf_counter()
        fn(*args)
        dt = time.perf_counter() - t0
        best = min(best, dt)
        spent += dt
        if spent > limit / 4:
            break
    return best


def fmt(t: float | None) -> str:
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.0f} us"
    if t < 1:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes 1e3, 1e4, 1e5")
    ap.add_argument("--family", action="append", default=[], help="only families containing this text (repeatable)")
    ap.add_argument("--limit", type=float, default=2.0, help="skip the next size after a call slower than this (s)")
    ap.add_argument("--flag", type=float, default=30.0, help="mark a ratio above this as superlinear")
    args = ap.parse_args()
    sizes = [1_000, 10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]
    todo = [c for c in cases() if not args.family or any(f in c.family for f in args.family)]
    head = ["family", "shape", *(f"{s:.0e}".replace("+0", "") for s in sizes), *(f"x{i + 2}/x{i + 1}" for i in range(len(sizes) - 1))]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    flagged = 0
    for case in todo:
        times: list[float | None] = []
        for size in sizes:
            if times and (times[-1] is None or times[-1] > args.limit):
                times.append(None)
                continue
            times.append(timed(case.call, case.make(size), args.limit))
        ratios = []
        bad = False
        for a, b in zip(times, times[1:]):
            if a is None or b is None:
                ratios.append("-" if a is None or a <= args.limit else "skipped")
                continue
            r = b / max(a, 1e-7)
            # Below ~50 us, call overhead dominates and ratios mean little.
            bad |= r > args.flag and b > 1e-3
            ratios.append(f"{r:.1f}" + (" !" if r > args.flag and b > 1e-3 else ""))
        if times[-1] is None:
            bad = True
        flagged += bad
        print(f"| {case.family} | {case.name} | " + " | ".join(fmt(t) for t in times) + " | " + " | ".join(ratios) + " |",
              flush=True)
    print(f"\n{len(todo)} rows, {flagged} superlinear (ratio > {args.flag:g} per 10x, or a size skipped)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
