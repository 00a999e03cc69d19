"""Linear time on adversarial input, checked without timing.

* Native extractors, parsers and scorers agree with their pure-Python twins on the
  adversarial shapes of ``benches/bench_scaling.py`` (repeated or unclosed openers, deep
  nesting, long runs of separators, digits, whitespace, tags) at moderate sizes. Their
  linear work is proved by step counts in the Rust unit tests (``cargo test``).
* The one Python scan on a hot path, the yale-nlp/Physics list step
  (:func:`gaia_fast.scorers.vlm._lists.list_groups`), equals ``LIST_PATTERN.findall``
  and its work is counted through a ``str`` subclass that adds up the characters every
  ``find`` runs over: at 10x the size it does at most ~10x the work.
"""

from __future__ import annotations

import math
import random
import struct
import time

import pytest

import gaia_fast as gf
from gaia_fast.reference import vlm_mcq as ref_mcq
from gaia_fast.reference import vlm_omni3d as ref_omni3d
from gaia_fast.reference import vlm_physics as ref_physics
from gaia_fast.scorers.vlm import physics
from gaia_fast.scorers.vlm._lists import list_groups

nat = pytest.importorskip("gaia_fast._native")


def rep(unit: str, n: int, head: str = "", tail: str = "") -> str:
    k = max(1, (n - len(head) - len(tail)) // len(unit))
    return head + unit * k + tail


def nest(opener: str, inner: str, closer: str, n: int) -> str:
    k = max(1, n // (len(opener) + len(closer)))
    return opener * k + inner + closer * k


BOX_SHAPES = {
    "open boxes": lambda n: rep("\\boxed{", n),
    "nested boxes": lambda n: nest("\\boxed{", "x", "}", n),
    "nested boxes, spaces": lambda n: nest("\\boxed{ ", "x", " }", n),
    "nested boxes, escapes": lambda n: nest("\\boxed{\\{", "x", "\\}}", n),
    "open braces": lambda n: rep("{", n, head="\\boxed{"),
    "open {}s": lambda n: rep("{}", n, head="\\boxed{"),
    "closed boxes": lambda n: rep("\\boxed{x} ", n),
    "closed then open": lambda n: rep("\\boxed{x} ", n // 2) + rep("\\boxed{", n // 2),
    "open then closed": lambda n: rep("\\boxed{", n // 2) + rep("\\boxed{x} ", n // 2),
    "open second form": lambda n: rep("\\\\[boxed{", n),
    "second form, {{}}": lambda n: rep("{{}}", n, head="\\\\[boxed{"),
    "second forms, empty": lambda n: rep("\\\\[boxed{}", n),
    "boxed + spaces": lambda n: rep(" ", n, head="\\boxed"),
    "boxed + spaces, repeated": lambda n: rep("\\boxed" + " " * 30, n),
    "backslashes": lambda n: rep("\\", n),
    "box of open boxes, newline": lambda n: rep("\\boxed{", n, head="\\boxed{{{", tail="\n}}}"),
    "box of open list boxes": lambda n: rep("\\boxed{\\[", n, head="\\boxed{{{", tail="}}}"),
    "list boxes": lambda n: rep("\\boxed{\\[1, 2\\]} ", n),
    "box, closing braces": lambda n: rep("}", n, head="\\\\[boxed{"),
}

# The twins are the oracles and may be quadratic (the balanced twin and Python's `re` are):
# sizes stay moderate.
SIZE = 3_000
#: Shapes on which the reference regex (the `physics` twins) backtracks exponentially:
#: 320 characters of "open then closed" take Python's `re` over a second, 80 of
#: "second form, {{}}" more than five. The native side takes linear time on both.
REGEX_TWIN_SIZE = {"open then closed": 160, "second form, {{}}": 40}


@pytest.mark.parametrize("style", ["balanced", "physics", "physics-final"])
@pytest.mark.parametrize("shape", sorted(BOX_SHAPES))
def test_extract_boxed_matches_twin_on_adversarial_shapes(style: str, shape: str) -> None:
    size = SIZE if style == "balanced" else REGEX_TWIN_SIZE.get(shape, SIZE)
    text = BOX_SHAPES[shape](size)
    assert gf.vlm.extract_boxed(text, style=style) == ref_physics.extract_boxed(text, style)


def test_nested_boxes_unwrap_to_the_innermost() -> None:
    text = nest("\\boxed{ ", "x", " }", 10_000)
    assert gf.vlm.extract_boxed(text) == ["x"]
    assert gf.vlm.extract_boxed(rep("\\boxed{", 100_000)) == []
    assert gf.vlm.extract_boxed(rep("\\boxed{", 50_000) + "\\boxed{7}") == ["7"]


@pytest.mark.parametrize("shape", sorted(BOX_SHAPES))
def test_final_step_matches_twin_on_adversarial_shapes(shape: str) -> None:
    text = BOX_SHAPES[shape](SIZE)
    assert nat.physics_final(text) == ref_physics.physics_final(text)
    assert nat.physics_final(text + "\n\\boxed{5}") == ref_physics.physics_final(text + "\n\\boxed{5}")


PREPROCESS_SHAPES = {
    "_{ newline": lambda n: rep("_{", n, tail="\n}"),
    "_{ unclosed": lambda n: rep("_{", n),
    "_{ then close": lambda n: rep("_{", n, tail="}"),
    "_{} x k": lambda n: rep("_{}", n),
    "_\\ x k": lambda n: rep("_\\", n),
    "underscores": lambda n: rep("_", n),
    "\\left\\right\\cdot": lambda n: rep("\\left\\right\\cdot", n),
    "= and \\implies": lambda n: rep("=\\implies ", n),
}


@pytest.mark.parametrize("shape", sorted(PREPROCESS_SHAPES))
def test_physics_preprocessing_matches_twin_on_adversarial_shapes(shape: str) -> None:
    text = PREPROCESS_SHAPES[shape](SIZE)
    pre = nat.physics_preprocess(text)
    assert pre == ref_physics.physics_preprocess(text)
    assert nat.physics_core(pre) == ref_physics.physics_core(pre)


ABCD = {"A": "cat", "B": "dog", "C": "bird", "D": "fish"}
MCQ_SHAPES = {
    "<answer> x k": lambda n: rep("<answer>", n),
    "<answer> + spaces": lambda n: rep("<answer>" + " " * 20, n),
    "<answer>A + spaces": lambda n: rep("<answer> A " + " " * 20, n),
    "\\boxed{ x k": lambda n: rep("\\boxed{", n),
    "\\boxed + spaces": lambda n: rep("\\boxed" + " " * 20 + "{", n),
    "answer is x k": lambda n: rep("answer is ", n),
    "final answer is ** x k": lambda n: rep("The final answer is **", n),
    "answer: + spaces": lambda n: rep(" ", n, head="answer:"),
    "letters": lambda n: rep("A B ", n),
    "one letter, spaces": lambda n: rep(" ", n, head="B"),
    "whitespace": lambda n: rep(" ", n),
    "separators": lambda n: rep(".,;:()[]", n),
    "(A) x k": lambda n: rep("(A)", n),
    "A. x k": lambda n: rep("A. ", n),
    "strip chars": lambda n: rep(",.!?;:'", n),
    "option texts": lambda n: rep("cat dog ", n),
    "digits": lambda n: rep("7", n),
}


#: The dcvlr answer-phrase regex, `(?:(?:The|the)?\s*(?:correct|best|final)?\s*answer…`,
#: takes cubic time in Python on a run of whitespace (3,000 spaces: over two minutes);
#: the twin uses that regex, so it sees shorter runs here.
DCVLR_TWIN_SIZE = {"answer: + spaces": 300, "one letter, spaces": 300, "whitespace": 300}


@pytest.mark.parametrize("variant", ["classic", "2025-08", "2026-06", "dcvlr", "2023-12"])
@pytest.mark.parametrize("shape", sorted(MCQ_SHAPES))
def test_can_infer_matches_twin_on_adversarial_shapes(variant: str, shape: str) -> None:
    size = DCVLR_TWIN_SIZE.get(shape, SIZE) if variant == "dcvlr" else SIZE
    text = MCQ_SHAPES[shape](size)
    assert gf.vlm.can_infer(text, ABCD, variant=variant) == ref_mcq.can_infer(text, ABCD, variant)


@pytest.mark.parametrize("shape", sorted(MCQ_SHAPES))
def test_parse_multi_choice_matches_twin_on_adversarial_shapes(shape: str) -> None:
    text = MCQ_SHAPES[shape](SIZE)
    assert gf.vlm.parse_multi_choice(text, ABCD) == ref_mcq.parse_multi_choice(text, ABCD)


OMNI3D_ROWS = {
    "<ans> x k (str)": lambda n: (rep("<ans>", n), "yes", "str"),
    "<ans></ans> x k (float)": lambda n: (rep("<ans></ans>", n), "2", "float"),
    "digits (int)": lambda n: (rep("9", n), "3", "int"),
    "digits (float)": lambda n: (rep("9", n, tail=".5"), "3", "float"),
    "zeros (float)": lambda n: (rep("0", n, head="0.", tail="1"), "3", "float"),
    "underscores (int)": lambda n: (rep("1_", n, tail="1"), "3", "int"),
    "whitespace (int)": lambda n: (rep(" ", n, tail="3"), "3", "int"),
    "yes/no (str)": lambda n: (rep("yes no ", n), "yes", "str"),
}


@pytest.mark.parametrize("shape", sorted(OMNI3D_ROWS))
def test_omni3d_matches_twin_on_adversarial_shapes(shape: str) -> None:
    pred, gt, kind = OMNI3D_ROWS[shape](SIZE)
    assert gf.vlm.omni3d_score(pred, gt, kind) == ref_omni3d.omni3d_score(pred, gt, kind)


# --- the yale list step --------------------------------------------------------------------


def findall_groups(box: str) -> list[str]:
    return [g1 or g2 for g1, g2 in ref_physics.LIST_PATTERN.findall(box)]


LIST_SHAPES = {
    "open list boxes": lambda n: rep("\\boxed{\\[", n),
    "open list boxes, newline, close": lambda n: rep("\\boxed{\\[", n, tail="\n\\]}"),
    "open list boxes, close": lambda n: rep("\\boxed{\\[", n, tail="\\]}"),
    "open second forms, close": lambda n: rep("\\\\[boxed{\\[", n, tail="\\]}\\\\]"),
    "mixed openers": lambda n: rep("\\boxed{\\[\\\\[boxed{\\[", n, tail="\\]}"),
    "closers": lambda n: rep("\\]}", n, head="\\boxed{\\["),
    "list boxes": lambda n: rep("\\boxed{\\[1, 2\\]} ", n),
    "second-form list boxes": lambda n: rep("\\\\[boxed{\\[a\\]}\\\\] ", n),
    "newlines": lambda n: rep("\\boxed{\\[\n", n),
}


@pytest.mark.parametrize("shape", sorted(LIST_SHAPES))
def test_list_groups_match_findall_on_adversarial_shapes(shape: str) -> None:
    box = LIST_SHAPES[shape](SIZE)
    assert list_groups(box) == findall_groups(box)


def test_list_groups_match_findall_on_random_text() -> None:
    rng = random.Random(20261125)
    atoms = ["\\boxed{\\[", "\\\\[boxed{\\[", "\\]}", "\\]}\\\\]", "\\\\]", "\\", "[", "]", "{", "}", "\n", "a", ",", " ", "é"]
    for _ in range(20_000):
        box = "".join(rng.choice(atoms) for _ in range(rng.randrange(10)))
        assert list_groups(box) == findall_groups(box), repr(box)


def test_yale_extraction_matches_twin() -> None:
    for make in LIST_SHAPES.values():
        text = "\\boxed{" + make(500) + "}"
        boxes = nat.extract_boxed(text, "physics")
        assert physics._yale_list(boxes) == ref_physics.yale_extract(text)


class CountingStr(str):
    """A ``str`` whose ``find`` adds the characters it runs over to ``work``."""

    work = 0

    def find(self, sub, start=0, end=None):  # type: ignore[override]
        at = str.find(self, sub, start) if end is None else str.find(self, sub, start, end)
        stop = len(self) if at < 0 else at + len(sub)
        CountingStr.work += max(stop - start, 0) + 1
        return at


def counted(fn, text: str) -> int:
    CountingStr.work = 0
    fn(CountingStr(text))
    return CountingStr.work


def naive_list_groups(box: str) -> list[str]:
    """``findall`` as the regex engine runs it: a fresh search from every opener."""
    out = []
    pos = 0
    while True:
        i = box.find("\\boxed{\\[", pos)
        if i < 0:
            return out
        a = i + 9
        j, nl = box.find("\\]}", a), box.find("\n", a)
        if j >= 0 and (nl < 0 or j < nl):
            out.append(box[a:j])
            pos = j + 3
        else:
            pos = i + 1


@pytest.mark.parametrize("shape", sorted(LIST_SHAPES))
def test_list_groups_work_is_linear(shape: str) -> None:
    make = LIST_SHAPES[shape]
    small, large = counted(list_groups, make(10_000)), counted(list_groups, make(100_000))
    assert 0 < large <= 12 * small, (small, large)


def test_work_count_detects_a_quadratic_scan() -> None:
    make = LIST_SHAPES["open list boxes"]
    small, large = counted(naive_list_groups, make(2_000)), counted(naive_list_groups, make(20_000))
    assert large > 50 * small


# --- Hashed maps on keys crafted to collide ---------------------------------------------
#
# List credit indexes list pieces by their number's bits in a hash map. Under the unkeyed
# hasher gaia-fast had before, these numbers all share a first bucket and a control byte
# (built by inverting that hash), so each insert compared with every earlier key: 20,000
# pieces took ~20x as long as random numbers (1.9 s against 0.09 s), 100,000 ~100x. The hasher
# is now keyed per process; the Rust tests count the key comparisons (``fasthash``,
# ``gaia::tests::list_maps_stay_linear_on_keys_colliding_under_the_old_hash``). This is the
# same check through the Python face, by time, with a wide margin.

_M64 = (1 << 64) - 1


def _inverse(a: int) -> int:
    x = a
    for _ in range(6):
        x = (x * (2 - a * x)) & _M64
    return x


def _unfinalise(h: int) -> int:
    """The inverse of splitmix64's finaliser."""
    h ^= (h >> 31) ^ (h >> 62)
    h = (h * _inverse(0x94D049BB133111EB)) & _M64
    h ^= (h >> 27) ^ (h >> 54)
    h = (h * _inverse(0xBF58476D1CE4E5B9)) & _M64
    h ^= (h >> 30) ^ (h >> 60)
    return h


def colliding_under_the_old_hash(n: int) -> list[float]:
    """Doubles whose bits hash, under the old hasher (``finalise(bits * K)``), to the same
    low 32 and top 7 bits."""
    kinv, out, i = _inverse(0x517CC1B727220A95), [], 1
    while len(out) < n:
        bits = (_unfinalise((0x55 << 57) | (i << 32) | 0x12345678) * kinv) & _M64
        i += 1
        v = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if not math.isnan(v) and v != 0.0:
            out.append(v)
    return out


def _best_time(f, reps: int = 3) -> float:
    best = math.inf
    for _ in range(reps):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def test_list_credit_on_numbers_colliding_under_the_old_hash() -> None:
    n = 30_000
    crafted = colliding_under_the_old_hash(n)
    assert all(float(repr(v)) == v for v in crafted)
    spread = [float(i) * 1.000001 + 0.5 for i in range(n)]
    pairs = [(", ".join(map(repr, xs)), ", ".join(map(repr, reversed(xs)))) for xs in (crafted, spread)]
    for pred, truth in pairs:
        g = gf.graded_score(pred, truth)
        assert (g.score, g.kind) == (0.9, "reordered")
    t_crafted, t_spread = (_best_time(lambda p=p, t=t: gf.graded_score(p, t)) for p, t in pairs)
    assert t_crafted < 10 * t_spread + 0.05, (t_crafted, t_spread)
