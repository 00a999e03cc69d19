"""Long and non-ASCII answers: native scorers against their pure-Python twins.

The native scorers decide long texts with early exits (float() rejected at the first code
point no number holds, the lenient normal form searched while it is built 64 bytes at a
time, list credit from an index over many pieces). These tests give them the shapes where
an early exit could go wrong: numbers padded past 64 bytes with the whitespace float()
trims and with ``$ % ,``, the truth at every position of a sentence and across 64-byte
block edges, whitespace runs crossing those edges, Unicode digits, spaces, final sigma, and
long lists on both sides.
"""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gaia_fast.reference import gaia as ref

if os.environ.get("GAIA_FAST_ALLOW_NO_NATIVE"):
    nat = pytest.importorskip("gaia_fast._native")
else:
    import gaia_fast._native as nat

SETTINGS = settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = [
    "the", "answer", "is", "Paris", "42", "1,000", "$5", "3.5%", "New York", "ΑΣ", "Σ", "ς", "Zürich", "東京", "答案",
    "İ", "\u212a", "naïve", "—", "“x”", "...", "!", "-", "_", "a_b", "nan", "inf", "Infinity", "1e5", "e", "١٢", "１２",
    ";", ",", ", ", "; ",
]
SPACES = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\ufeff", "\u0085", "\x1c", "\u200b"]
NUMBER_LITERALS = ["42", "1e5", "-3.5", "+.5E-3", "1_000", "١٢", "１２.٥", "inf", "nan", "0", "12345678901234567890123"]
TRUTHS = [
    "Paris", "42", "3.5", "1000", "0", "inf", "New York", "a, b, c", "1, 2, 3", "x; y", "Zürich", "ΑΣ", "東京", "?", "",
    "the answer", "Σ", "1e5", "nan", "$5",
]


@st.composite
def long_text(draw, truth: str | None = None) -> str:
    """A text of about 65 to 3,000 bytes: words and spaces, sometimes the truth (in any
    case) at a drawn position, sometimes long runs placed near 64-byte block edges."""
    parts: list[str] = []
    size = draw(st.integers(65, 3000))
    at = draw(st.integers(0, size))
    placed = truth is None or draw(st.booleans())
    total = 0
    while total < size:
        if not placed and total >= at:
            placed = True
            piece = truth if draw(st.booleans()) else truth.upper()
        elif draw(st.integers(0, 15)) == 0:
            piece = draw(st.sampled_from([" ", "-", "é", "x", "\t", ","])) * draw(st.integers(50, 80))
        else:
            piece = draw(st.sampled_from(WORDS))
            if draw(st.booleans()):
                piece += draw(st.sampled_from(SPACES))
        parts.append(piece)
        total += len(piece.encode())
    return "".join(parts)


@st.composite
def padded_number(draw) -> str:
    """A float literal padded past 64 bytes with trimmed whitespace, `$ % ,`, and maybe one
    code point that breaks it."""
    pads = st.sampled_from([" ", "\t", "\n", "\u00a0", "\u3000", "$", "%", ",", "\u0085", "\r", "\x0b"])
    left = "".join(draw(st.lists(pads, min_size=0, max_size=60)))
    right = "".join(draw(st.lists(pads, min_size=0, max_size=60)))
    text = left + draw(st.sampled_from(NUMBER_LITERALS)) + right
    if len(text.encode()) <= 64:
        text = " " * 65 + text
    if draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(["x", "\x1c", "é", "²", "/", "a", "e", "_", "\u200b"])) + text[i:]
    return text


@st.composite
def long_list(draw) -> str:
    items = st.sampled_from(["1", "1.0", "$1", "-0", "0", "nan", "inf", "x", "X", " x ", "a b", "", "é", "İ", "ΑΣ", "ας"])
    return draw(st.sampled_from([",", ";", ", "])).join(draw(st.lists(items, min_size=1, max_size=400)))


@st.composite
def long_pairs(draw) -> tuple[str | None, str]:
    kind = draw(st.integers(0, 5))
    truth = draw(st.sampled_from(TRUTHS))
    if kind == 0:
        return draw(long_text(truth)), truth
    if kind == 1:
        return draw(padded_number()), draw(st.sampled_from(["42", "100000", "-3.5", "0.0005", "1000", "12", "inf", "nan", "12.5"]))
    if kind == 2:
        return draw(long_list()), draw(long_list())
    if kind == 3:
        # A long truth (the sides swapped), or a null prediction against it.
        text = draw(long_text(truth))
        return (None if draw(st.booleans()) else truth), text
    if kind == 4:
        text = draw(long_text(None))
        return text, text + draw(st.sampled_from(["", "a", " ", "!", "é"]))
    return draw(long_text(truth)), draw(long_text(truth))


def same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or repr(a) == repr(b)


def check_pair(p: str | None, t: str) -> None:
    for tol in (None, 1e-6):
        assert nat.question_scorer(p, t, tol) == ref.question_scorer(p, t, tol), ("question_scorer", tol)
        for lower in (True, False):
            assert nat.official_explained(p, t, tol, lower) == ref.official_explained(p, t, tol, lower), ("official_explained", tol, lower)
    assert nat.lenient_match(p, t) == ref.lenient_match(p, t), "lenient_match"
    assert nat.lenient_reason(p, t) == ref.lenient_reason(p, t), "lenient_reason"
    for level in (None, 2):
        n, r = nat.graded_score(p, t, level), ref.graded_score(p, t, level)
        assert n[1:] == r[1:] and same_float(n[0], r[0]), ("graded_score", level, n, r)


@SETTINGS
@given(long_pairs())
@example(("The answer is Paris. " + "x" * 200, "Paris"))
@example((" " * 70 + "1e5" + "\u3000" * 10, "100000"))
@example(("$" * 40 + "1,000" + "%" * 40, "1000"))
@example((" " * 63 + "a" + " " * 64 + "b", "a b"))
@example(("-" * 130 + "P", "Paris"))
@example(("ΑΣ " * 40, "ασ"))
@example((",".join(["x"] * 300), "x, x, x"))
@example((",".join(str(i % 7) for i in range(300)), ",".join(str(i % 5) for i in range(200))))
def test_long_pairs_native_vs_twin(pair):
    check_pair(*pair)


@SETTINGS
@given(padded_number())
def test_padded_numbers_read_like_float(s):
    n, r = nat.py_float(s), ref.py_float(s)
    assert (n is None and r is None) or (n is not None and r is not None and same_float(n, r)), (s, n, r)
    (nv, np_), (rv, rp) = nat.gaia_number(s), ref.gaia_number(s)
    assert np_ == rp and same_float(nv, rv), (s, nv, rv)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(long_pairs(), min_size=1, max_size=12))
def test_long_rows_in_batch(rows):
    """The batch driver (all outputs and reasons) against the twin's row driver."""
    pa = pytest.importorskip("pyarrow")
    preds = [p for p, _ in rows]
    truths = [t for _, t in rows]
    levels = [(i % 4) or None for i in range(len(rows))]
    for scorer in ("gaia", "gaia-lenient", "gaia-graded"):
        out = nat.score_arrow(
            pa.array(preds, pa.string()), pa.array(truths, pa.string()), scorer, None, True, True, pa.array(levels, pa.int64())
        )
        want = ref.score_rows(preds, truths, scorer, levels=levels, explain=True)
        got = {k: pa.array(v).to_pylist() for k, v in out.items()}
        assert set(got) == set(want), scorer
        for key in want:
            assert got[key] == want[key], (scorer, key)


GREEK = ["ΑΣ", "Σ", "ΣΑ", "σ", "ς", "Ὀ", "Ύ", "'", ".", ":", "\u0300", "\u0345", "\u00ad", "\u2019", "\u200b", "!", "-", ",", "1", "日", "a", "İ"]
GREEK_SPACES = [" ", "\u0085", "\u00a0", "\x1c", "\u3000", "\t"]


@st.composite
def greek_text(draw, min_size: int = 65) -> str:
    """Greek with capital sigmas at word ends, before and after case-ignorable characters,
    whitespace and punctuation, mixed with other scripts."""
    parts = draw(st.lists(st.sampled_from(GREEK + GREEK_SPACES), min_size=1, max_size=40))
    text = "".join(parts)
    while len(text.encode()) < min_size:
        text += "".join(draw(st.lists(st.sampled_from(GREEK + GREEK_SPACES), min_size=1, max_size=40)))
    return text


@st.composite
def sigma_pairs(draw) -> tuple[str, str]:
    """A long Greek text against a short truth that its normal form may start with, against
    itself with what the rules ignore changed, cut short, or with another ending."""
    text = draw(greek_text())
    kind = draw(st.integers(0, 4))
    if kind == 4:
        # Alike up to a point (the raw common start is skipped), then any two endings.
        tail = st.lists(st.sampled_from(GREEK + GREEK_SPACES), max_size=4).map("".join)
        return text + draw(tail), text + draw(tail)
    if kind == 0:
        return text, text[: draw(st.integers(0, 12))]
    if kind == 1:
        noisy = "".join(c + (draw(st.sampled_from(GREEK_SPACES)) if draw(st.integers(0, 5)) == 0 else "") for c in text)
        return text, noisy.lower() if draw(st.booleans()) else noisy
    if kind == 2:
        return text, text[: draw(st.integers(0, len(text)))]
    return text, draw(st.sampled_from(["ΑΣ", "ας", "ασ", "Σ", "σ", "ΑΣ'", "ας'"]))


@SETTINGS
@given(sigma_pairs())
@example(("ΑΣ ΣΑΣ Σ'Α ςσ ὈΔΥΣΣΕΎΣ " * 30, "ΑΣ"))
@example(("ΑΣ" + " " * 70, "ας"))
@example(("ΑΣ" + "'" * 70 + "Α", "ασ'"))
@example(("ΑΣ" + "\u0345" * 70, "ασ"))
@example(("ΑΣ" * 40 + "''Α", "ΑΣ" * 40 + "''!"))
@example(("ΑΣ" * 40 + "a", "ΑΣ" * 40 + "!a"))
@example(("ΑΣ" * 40 + " 'a", "ΑΣ" * 40 + " '!a"))
def test_long_sigma_texts_native_vs_twin(pair):
    """The string branch compares normal forms lazily; a capital sigma looks at its own
    neighbours (whitespace deleted, punctuation kept). Both sides long and short."""
    p, t = pair
    check_pair(p, t)
    check_pair(t, p)


LIST_NUMBERS = ["1", "01", "1.0", " 1", "-0", "0", "0.0", "nan", "inf", "-inf", "1e0", "1_0", "123456789012345", "1234567890123456", "12345678901234567890123", "١", "１", "2", ".5"]
LIST_TEXTS = ["x", "X", " x ", "xx", "xxxxxxxxxxxx", "a b", "ab", "", " ", "é", "É", "İ", "i\u0307", "ΑΣ", "ας", "ασ", "Σ", "Α Σ", "ΑΣ'", "ΑΣ\u0345", "$1", "1%", "\u212a", "k", "\x1c1"]


@st.composite
def keyed_lists(draw) -> tuple[str, str]:
    """A prediction of 17 to 300 pieces against a truth of one kind (all numbers or all
    texts, few or many distinct pieces), or with a piece of the other kind."""
    pool = draw(st.sampled_from([LIST_NUMBERS, LIST_TEXTS]))
    if draw(st.booleans()):
        pool = [x for x in pool if x.isascii()]
    chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=20))
    truth = draw(st.lists(st.sampled_from(chosen), min_size=1, max_size=30))
    if draw(st.integers(0, 2)) == 0:
        truth[draw(st.integers(0, len(truth) - 1))] = draw(st.sampled_from(LIST_TEXTS if pool[0] in LIST_NUMBERS else LIST_NUMBERS))
        if draw(st.booleans()):
            # A text piece and a number piece one prediction piece can both match.
            truth += [draw(st.sampled_from(["$1", "1%", "\x1c1"])), draw(st.sampled_from(["1", "1.0", "01"]))]
    # Pieces that extend a truth piece (a form cut at the truth's length must not match).
    extra = ["x", "1", " 1", "$1", "1%", "ΑΣ", "nan", "", "zzz", *(t + t[:2] for t in truth[:3])]
    pred = draw(st.lists(st.sampled_from(truth + chosen + extra), min_size=17, max_size=300))
    sep = st.sampled_from([",", ";", ", "])
    return draw(sep).join(pred), draw(sep).join(truth)


@SETTINGS
@given(keyed_lists())
@example((",".join(["x"] * 100), "x, y, z"))
@example((",".join(str(i % 97) for i in range(400)), ",".join(str(i % 97) for i in reversed(range(400)))))
@example((",".join(["-0"] * 20), "0, 0"))
@example((",".join(["xx"] * 40), "x, xxx"))
@example((",".join(["xx"] * 20), "x, y"))
@example((",".join(["ΑΣΑ"] * 20), "ασ, x"))
@example((",".join(["$1", "1"] * 10), "1, $1, x"))
@example((",".join(["1"] * 10 + ["$1"] * 10), "$1, 1, 1"))
def test_long_lists_graded_native_vs_twin(pair):
    """Graded list credit on long predictions (matched by key unless a piece is wanted
    both as a number and as a text) against the twin's pairwise matching."""
    p, t = pair
    for level in (None, 2):
        n, r = nat.graded_score(p, t, level), ref.graded_score(p, t, level)
        assert n[1:] == r[1:] and same_float(n[0], r[0]), (level, n, r)
    assert nat.question_scorer(p, t) == ref.question_scorer(p, t)


def test_megabyte_inputs_decide_like_the_twin():
    """Inputs of about 1 MB each way: a sentence, a number, Unicode and a long list."""
    sentence = ("the answer is not known after searching many sources " * 20_000)[:1_000_000]
    number = " " * 500_000 + "1" * 100 + "\u3000" * 100_000
    unicode_text = ("Zürich — ΑΣ 東京 \u00a0İ\u212a 1٢3 " * 30_000)[:400_000]
    big_list = ",".join(str(i % 1000) for i in range(150_000))
    pairs = [
        (sentence, "Paris"),
        (sentence + " Paris", "paris"),
        (number, "1" * 100),
        (unicode_text, "zürich"),
        (unicode_text, unicode_text + "x"),
        (big_list, ",".join(reversed(big_list.split(",")))),
        (big_list, "1, 2, 3"),
        (None, sentence),
    ]
    for p, t in pairs:
        assert nat.question_scorer(p, t) == ref.question_scorer(p, t), (p and p[:40], t[:40])
        assert nat.lenient_match(p, t) == ref.lenient_match(p, t), (p and p[:40], t[:40])
    # The graded twin compares list pieces pairwise (quadratic), so its lists stay at a
    # few thousand pieces; the native index takes lists this long already.
    small_list = ",".join(str(i % 300) for i in range(3_000))
    graded = [*pairs[:5], (small_list, ",".join(reversed(small_list.split(",")))), (small_list, "1, 2, 3"), (small_list, small_list[:4_000].rstrip(","))]
    for p, t in graded:
        n, r = nat.graded_score(p, t), ref.graded_score(p, t)
        assert n[1:] == r[1:] and same_float(n[0], r[0]), (p and p[:40], t[:40], n[1:], r[1:])
