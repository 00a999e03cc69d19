"""Native (Rust) GAIA functions against their pure-Python twins and CPython itself.

``gaia_fast._native`` must be importable: a missing extension is an error, not a skip,
unless the environment variable GAIA_FAST_ALLOW_NO_NATIVE is set.
"""

from __future__ import annotations

import json
import math
import os
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gaia_fast.reference import gaia as ref

if os.environ.get("GAIA_FAST_ALLOW_NO_NATIVE"):
    nat = pytest.importorskip("gaia_fast._native")
else:
    import gaia_fast._native as nat

DATA = Path(__file__).parent / "data"
SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def load_rows(name: str) -> list[tuple[str | None, str, bool]]:
    with open(DATA / name, encoding="utf-8") as fh:
        return [
            (o["prediction"], o["truth"], o["expected"])
            for o in (json.loads(line) for line in fh if line.strip())
        ]


OFFICIAL = load_rows("gaia_official.jsonl")
LENIENT = load_rows("gaia_lenient.jsonl")


def same_float(a: float | None, b: float | None) -> bool:
    """Equal including None-ness, NaN and the sign of zero."""
    if a is None or b is None:
        return a is b
    return repr(a) == repr(b)


def _report(bad: list, limit: int = 8) -> str:
    return f"{len(bad)} disagreements, first ones:\n" + "\n".join(repr(b) for b in bad[:limit])


# ---------------------------------------------------------------------------------------
# Conformance rows
# ---------------------------------------------------------------------------------------


CONFORMANCE = {
    "gaia": (OFFICIAL, nat.question_scorer, ref.question_scorer),
    "gaia-lenient": (LENIENT, nat.lenient_match, ref.lenient_match),
}


@pytest.mark.parametrize("scorer", CONFORMANCE)
def test_conformance_native(scorer):
    """Every conformance row: native scalar, native batch and twin against the reference."""
    pa = pytest.importorskip("pyarrow")
    rows, native, twin = CONFORMANCE[scorer]
    preds, truths = pa.array([p for p, _, _ in rows], pa.string()), pa.array([t for _, t, _ in rows], pa.string())
    batch = pa.array(nat.score_arrow(preds, truths, scorer, None, False, False, None, True)["score"]).to_pylist()
    bad = []
    for i, ((p, t, want), got_batch) in enumerate(zip(rows, batch), start=1):
        got, twin_got = native(p, t), twin(p, t)
        if not (got is want and twin_got is want and got_batch is want):
            bad.append((i, p, t, want, got, twin_got, got_batch))
    assert not bad, _report(bad)


def test_conformance_explanations_and_grades():
    bad = []
    for i, (p, t, _) in enumerate(OFFICIAL, start=1):
        for tol in (None, 1e-6):
            if nat.question_scorer(p, t, tol) != ref.question_scorer(p, t, tol):
                bad.append((i, p, t, "question_scorer", tol))
            n, r = nat.official_explained(p, t, tol), ref.official_explained(p, t, tol)
            if n != r:
                bad.append((i, p, t, "official_explained", tol, n, r))
        n, r = nat.graded_score(p, t, 2), ref.graded_score(p, t, 2)
        if n != r:
            bad.append((i, p, t, "graded_score", n, r))
        n, r = nat.lenient_reason(p, t), ref.lenient_reason(p, t)
        if n != r:
            bad.append((i, p, t, "lenient_reason", n, r))
    assert not bad, _report(bad)


def test_score_arrow_matches_twin_rows():
    pa = pytest.importorskip("pyarrow")
    preds = [p for p, _, _ in OFFICIAL[:3000]] + [None, "x", "y", "42"]
    truths = [t for _, t, _ in OFFICIAL[:3000]] + [" ? ", None, "?", "42"]
    levels = [(i % 4) or None for i in range(len(preds))]
    for scorer in ("gaia", "gaia-lenient", "gaia-graded"):
        for placeholder in (True, False):
            out = nat.score_arrow(
                pa.array(preds, pa.large_string()),
                pa.array(truths, pa.large_string()),
                scorer,
                1e-6 if scorer == "gaia" else None,
                placeholder,
                True,
                pa.array(levels, pa.int64()),
            )
            want = ref.score_rows(
                preds,
                truths,
                scorer,
                number_tolerance=1e-6 if scorer == "gaia" else None,
                placeholder_is_missing=placeholder,
                levels=levels,
                explain=True,
            )
            got = {k: pa.array(v).to_pylist() for k, v in out.items()}
            assert set(got) == set(want), (scorer, set(got), set(want))
            for key in want:
                diff = [(i, got[key][i], want[key][i]) for i in range(len(preds)) if got[key][i] != want[key][i]]
                assert not diff, (scorer, placeholder, key, _report(diff))


# ---------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------

ODD_WS = ["\u200b", "\u180e", "\ufeff", "\u2060", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\x00"]
ALL_WS = sorted(set(ref.PY_WS) | set(ref.JS_WS) | set(ODD_WS))
ws = st.sampled_from(ALL_WS)
ws_run = st.text(alphabet=ws, max_size=3)
spacing = st.one_of(st.just(""), st.just(" "), ws_run)

# Zeros of decimal-digit blocks: ASCII, Arabic-Indic, Extended Arabic-Indic, Devanagari,
# Bengali, Thai, fullwidth, Osmanya, mathematical bold (astral).
DIGIT_ZEROS = [0x30, 0x30, 0x30, 0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10, 0x104A0, 0x1D7CE]
NOT_DIGITS = ["\xb2", "\xbd", "\u2460", "\u066b", "\u066c", "\u0e5a"]


@st.composite
def digit_strings(draw, min_size=1, max_size=6):
    values = draw(st.lists(st.integers(0, 9), min_size=min_size, max_size=max_size))
    mixed = draw(st.booleans())
    zero = draw(st.sampled_from(DIGIT_ZEROS))
    out = []
    for v in values:
        z = draw(st.sampled_from(DIGIT_ZEROS)) if mixed else zero
        out.append(chr(z + v))
        if draw(st.integers(0, 9)) == 0:
            out.append("_")
    return "".join(out)


@st.composite
def float_literals(draw):
    """Python float literals (mostly valid) with optional junk; Unicode digits allowed."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        x = draw(st.floats(allow_nan=True, allow_infinity=True))
        fmt = draw(st.sampled_from(["{!r}", "{:,}", "{:_}", "{:e}", "{:.2f}", "{:,.3f}", "{:g}", "{:.0f}"]))
        try:
            return fmt.format(x)
        except ValueError:
            return repr(x)
    if kind == 1:
        return draw(st.sampled_from(["inf", "Infinity", "-iNf", "+nan", "NaN", "infinity1", "nan(1)", "in", "1e400", "-1e400", "1e-400", "-0", "0", "+0.0", "9007199254740993", "0.30000000000000004"]))
    if kind == 2:
        sign = draw(st.sampled_from(["", "", "+", "-"]))
        intpart = draw(digit_strings(min_size=0))
        dot = draw(st.sampled_from(["", ".", "."]))
        frac = draw(digit_strings(min_size=0)) if dot else ""
        exp = ""
        if draw(st.booleans()):
            exp = draw(st.sampled_from(["e", "E"])) + draw(st.sampled_from(["", "+", "-"])) + draw(digit_strings(min_size=0, max_size=3))
        return sign + intpart + dot + frac + exp
    if kind == 3:
        toks = ["0", "1", "5", "9", "_", "__", ".", "e", "E", "+", "-", "$", "%", ",", "inf", "nan", " ", "\u0661", "\uff15", "\u096d", "x"]
        return "".join(draw(st.lists(st.sampled_from(toks + NOT_DIGITS), max_size=8)))
    x = draw(st.integers(-(10**12), 10**12))
    return draw(st.sampled_from(["{:,}", "${:,}", "{}%", "${}", "{:_}", "{},{}", "{} km"])).format(x, x)


@st.composite
def decorated_numbers(draw):
    s = draw(float_literals())
    if draw(st.booleans()):
        s = draw(spacing) + s + draw(spacing)
    if draw(st.integers(0, 3)) == 0:
        s = draw(st.sampled_from(["$", "%", ",", "$$"])) + s
    if draw(st.integers(0, 3)) == 0:
        s = s + draw(st.sampled_from(["%", "$", ",", "%%"]))
    if s and draw(st.integers(0, 4)) == 0:
        i = draw(st.integers(0, len(s)))
        s = s[:i] + draw(st.sampled_from(["$", "%", ",", "_", " "] + ALL_WS)) + s[i:]
    return s


WORDS = [
    "Paris", "paris", "sea gull", "seagull", "Right.", "right", "\u201cRight\u201d", "Right\u2014",
    "THE CASTLE", "the castle", "Stra\xdfe", "STRASSE", "\u0130stanbul", "istanbul", "\u0130", "i\u0307",
    "\u212a", "K", "k", "\u0391\u03a3 \u0391", "\u03b1\u03c3\u03b1", "\u03b1\u03c2 \u03b1", "\u03a3", "\u03c3",
    "\u03c2", "\u03a3'\u03a3", "A\u03a3\u0301", "\u0391\u03a3\u1f08", "caf\xe9", "cafe\u0301", "None", "none.",
    "N o n e", "?", "!!!", "", "foo_bar", "foo bar", "a.b", "A.B", "Hello, World!", "helloworld",
    "\u01c5", "\u1e9e", "\xdf", "ss", "\u65e5\u672c", "x\U0001f600y", "a - b", "a b", "'", '"', "\\",
    "\u0130\u212a", "\u03a3\u03a3\u03a3", "\u2c2f", "\U0001e900", "1/2", "\u2460", "inf", "nan", "-inf",
]


@st.composite
def case_variants(draw, base=st.sampled_from(WORDS)):
    s = draw(base)
    how = draw(st.integers(0, 4))
    if how == 1:
        s = s.upper()
    elif how == 2:
        s = s.lower()
    elif how == 3:
        s = s.swapcase()
    elif how == 4:
        flips = draw(st.lists(st.booleans(), min_size=len(s), max_size=len(s)))
        s = "".join(c.upper() if f else c for c, f in zip(s, flips))
    return s


atoms = st.one_of(
    case_variants(),
    decorated_numbers(),
    st.text(max_size=8),
    st.text(alphabet=st.sampled_from(list("aAbBzZ019_.,;$%'\"-!?") + ALL_WS + ["\u03a3", "\u0130", "\u212a", "\xdf", "\u0301"]), max_size=10),
)


@st.composite
def lists(draw):
    pieces = draw(st.lists(atoms, min_size=1, max_size=5))
    out = pieces[0]
    for p in pieces[1:]:
        out += draw(spacing) + draw(st.sampled_from([",", ";", ", ", "; ", ",,", " ,"])) + draw(spacing) + p
    return out


texts = st.one_of(atoms, lists(), st.text(max_size=40))


@st.composite
def mutate(draw, truth: str) -> str:
    """A prediction derived from the truth, so that the True branches are exercised."""
    how = draw(st.integers(0, 9))
    s = truth
    if how == 0:
        return s
    if how == 1:
        return draw(case_variants(st.just(s)))
    if how == 2:  # insert whitespace / decorations
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(s)))
            s = s[:i] + draw(st.sampled_from(ALL_WS + ["$", "%", ",", ".", "!", "_", "'"])) + s[i:]
        return s
    if how == 3:  # reorder / drop / duplicate list pieces
        parts = re.split("[,;]", s)
        perm = draw(st.permutations(parts))
        k = draw(st.integers(0, len(perm)))
        chosen = list(perm[:k]) if draw(st.booleans()) else list(perm) + list(perm[:1])
        return draw(st.sampled_from([",", ";", ", "])).join(chosen)
    if how == 4:  # perturb a number
        x = ref.py_float(s)
        if x is None or not math.isfinite(x):
            return s
        f = draw(st.sampled_from([1.0, 1.001, 0.999, 1.005, 0.995, 1.01, 0.99, 1.0100001, 1.02, -1.0, 0.5, 1 + 1e-9]))
        y = x * f
        return draw(st.sampled_from(["{!r}", "{:,}", "${:,.2f}", "{:.6g}", "{:e}"])).format(y)
    if how == 5:  # transliterate ASCII digits
        zero = draw(st.sampled_from(DIGIT_ZEROS))
        return "".join(chr(zero + int(c)) if c.isascii() and c.isdigit() else c for c in s)
    if how == 6:
        return s.strip() if draw(st.booleans()) else draw(spacing) + s + draw(spacing)
    return draw(texts)


@st.composite
def pairs(draw):
    truth = draw(texts)
    if draw(st.integers(0, 15)) == 0:
        return None, truth
    return draw(mutate(truth)), truth


SURROGATE = st.integers(0xD800, 0xDFFF).map(chr)


@st.composite
def with_surrogate(draw, base=texts):
    s = draw(base)
    i = draw(st.integers(0, len(s)))
    return s[:i] + draw(SURROGATE) + s[i:]


# ---------------------------------------------------------------------------------------
# Property tests: pairs
# ---------------------------------------------------------------------------------------


def _check_pair(p: str | None, t: str) -> None:
    for tol in (None, 1e-6):
        assert nat.question_scorer(p, t, tol) == ref.question_scorer(p, t, tol), ("question_scorer", tol)
        for lower in (True, False):
            assert nat.official_explained(p, t, tol, lower) == ref.official_explained(p, t, tol, lower), (
                "official_explained",
                tol,
                lower,
            )
    assert nat.lenient_match(p, t) == ref.lenient_match(p, t), "lenient_match"
    assert nat.lenient_reason(p, t) == ref.lenient_reason(p, t), "lenient_reason"
    for level in (None, 1, 2, 3):
        n, r = nat.graded_score(p, t, level), ref.graded_score(p, t, level)
        assert n[1:] == r[1:] and same_float(n[0], r[0]), ("graded_score", level, n, r)


@SETTINGS
@given(pairs())
@example(("3, four", "3, 4"))
@example(("100.9", "100"))
@example((None, "inf"))
@example(("e, b", "b, e"))
@example(("\u0391\u03a3 \u0391", "\u03b1\u03c3\u03b1"))
def test_pairs_native_vs_twin(pair):
    _check_pair(*pair)


# An answer identical to its truth takes a shortcut in the native scorer; these are the
# texts where "identical" must still not mean "match" (NaN pieces, tolerances).
IDENTICAL = [
    "nan", "NaN", "-nan", " nan ", "+NAN", "1, nan", "nan; 2", "a, nan", "nan,nan", "inf", "-inf", "Infinity",
    "1,inf", "n", "N", "banana", "1e5", "0.1", "17", "a, b", "", ",", ";;", " ", "\uff11\uff12", "\u0661, nan",
    "1_000", "\u00a0nan\u00a0", "Na\u00f1", "$1,000", "ΑΣ",
]


@pytest.mark.parametrize("s", IDENTICAL)
def test_identical_answer_and_truth(s):
    _check_pair(s, s)
    for tol in (None, 1e-6, 0.0, -1.0):
        assert nat.question_scorer(s, s, tol) == ref.question_scorer(s, s, tol), tol


def test_identical_answers_in_batch():
    pa = pytest.importorskip("pyarrow")
    col = pa.array(IDENTICAL, pa.string())
    for tol in (None, 1e-6, 0.0):
        got = pa.array(nat.score_arrow(col, col, "gaia", tol, False, False, None, True)["score"]).to_pylist()
        assert got == [ref.question_scorer(s, s, tol) for s in IDENTICAL], tol
    got = pa.array(nat.score_arrow(col, col, "gaia-lenient", None, False, False, None, True)["score"]).to_pylist()
    assert got == [ref.lenient_match(s, s) for s in IDENTICAL]


@SETTINGS
@given(st.one_of(st.text(), lists(), decorated_numbers()))
def test_identical_pairs(s):
    _check_pair(s, s)


@SETTINGS
@given(st.lists(st.one_of(pairs(), st.tuples(lists(), lists()), st.tuples(decorated_numbers(), decorated_numbers())), min_size=1, max_size=70))
def test_batch_rows_native_vs_twin(rows):
    """The batch driver (its own shortcuts, bit-packed output, more than one 64-row word)
    against the twin, row by row, for every scorer and level."""
    pa = pytest.importorskip("pyarrow")
    preds, truths = [p for p, _ in rows], [t for _, t in rows]
    levels = [i % 4 or None for i in range(len(rows))]
    for scorer in ("gaia", "gaia-lenient", "gaia-graded"):
        out = nat.score_arrow(
            pa.array(preds, pa.string()), pa.array(truths, pa.string()), scorer, None, False, False, pa.array(levels, pa.int64())
        )
        want = ref.score_rows(preds, truths, scorer, placeholder_is_missing=False, levels=levels)
        got = {k: pa.array(v).to_pylist() for k, v in out.items()}
        assert got["score"] == want["score"], scorer
        assert got["status"] == want["status"], scorer
        if scorer == "gaia-graded":
            assert got["kind"] == want["kind"]


@SETTINGS
@given(st.text(), st.text())
def test_arbitrary_text_pairs(p, t):
    _check_pair(p, t)


@SETTINGS
@given(decorated_numbers(), decorated_numbers())
def test_number_pairs(p, t):
    _check_pair(p, t)


@SETTINGS
@given(lists(), lists())
def test_list_pairs(p, t):
    _check_pair(p, t)


@SETTINGS
@given(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1e-9, 1e-4, 0.003, -0.005, 0.00999, 0.0100001, 0.5, None]),
)
def test_float_pairs(x, y, rel):
    """Number-branch reasons and the close band on arbitrary doubles (Rust float printing)."""
    if rel is not None:
        y = x * (1 + rel)
    _check_pair(repr(x), repr(y))
    _check_pair(repr(y), repr(x))


@settings(max_examples=300, deadline=None)
@given(with_surrogate(), texts, st.booleans())
def test_surrogate_pairs_native_vs_twin(s, other, swap):
    p, t = (other, s) if swap else (s, other)
    _check_pair(p, t)


def test_lone_surrogate_explicit():
    """A str holding a lone surrogate cannot become a Rust String; the native layer must
    still answer (carrying it as a Private Use character), with the twin's answer."""
    cases = [("\ud800", "\ud800"), ("x\udfff, 4", "X\udfff, 4"), ("\ud83d", "5"), (None, "a\udc00b"), ("\udc00", "a, b")]
    for p, t in cases:
        _check_pair(p, t)
    assert nat.question_scorer("\ud800", "\ud800") is True
    assert nat.question_scorer("A\udc00", "a\udc00") is True
    assert nat.official_explained("x", "\ud800") == (False, 'string: "x" != "\\u{d800}"')
    assert nat.lenient_match("\ud800abc", "ABC") is True


# ---------------------------------------------------------------------------------------
# Property tests: single-string primitives
# ---------------------------------------------------------------------------------------


def _check_text(s: str) -> None:
    assert same_float(nat.py_float(s), ref.py_float(s)), ("py_float", nat.py_float(s), ref.py_float(s))
    nv, np_ = nat.gaia_number(s)
    rv, rp = ref.gaia_number(s)
    assert np_ is rp and same_float(nv, rv), ("gaia_number", (nv, np_), (rv, rp))
    for drop in (True, False):
        for lower in (True, False):
            assert nat.gaia_norm(s, drop, lower) == ref.gaia_norm(s, drop_punct=drop, lower=lower), ("gaia_norm", drop, lower)
    assert nat.gaia_norm(s) == ref.gaia_norm(s)
    assert nat.js_normalize(s) == ref.js_normalize(s), "js_normalize"
    assert nat.py_lower(s) == s.lower(), "py_lower"


@MANY
@given(st.one_of(texts, decorated_numbers(), st.text()))
@example("\u0391\u03a3'\u03a3")
@example("1e\u0663")
@example("\x1c42\x1f")
def test_text_primitives_native_vs_twin(s):
    _check_text(s)


@settings(max_examples=200, deadline=None)
@given(with_surrogate())
def test_text_primitives_with_surrogates(s):
    _check_text(s)


def test_text_primitives_lone_surrogate_explicit():
    for s in ("\ud800", "1\udfff", "A\udc00\u03a3"):
        _check_text(s)
    assert nat.is_py_space("\ud800") is False
    assert nat.digit_value("\udfff") is None
    assert nat.py_lower("\u03a3\ud800") == "\u03c3\ud800"


# ---------------------------------------------------------------------------------------
# Code-point sweep against CPython (Unicode 14)
# ---------------------------------------------------------------------------------------

sweep = pytest.mark.skipif(
    unicodedata.unidata_version != "14.0.0",
    reason=f"the native tables are Unicode 14.0.0; this CPython has {unicodedata.unidata_version}",
)
CHARS = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]


def _py_float(s: str) -> float | None:
    try:
        return float(s)
    except ValueError:
        return None


@sweep
def test_sweep_lower():
    bad = [(hex(ord(c)), nat.py_lower(c), c.lower()) for c in CHARS if nat.py_lower(c) != c.lower()]
    assert not bad, _report(bad)
    assert nat.py_lower_many(CHARS) == [c.lower() for c in CHARS]


@sweep
def test_sweep_final_sigma_context():
    """Every code point as the left and right neighbour of U+03A3 (cased / case-ignorable)."""
    for make in (
        lambda c: c + "\u03a3",
        lambda c: "A" + c + "\u03a3",
        lambda c: "A\u03a3" + c,
        lambda c: "A\u03a3" + c + "a",
    ):
        items = [make(c) for c in CHARS]
        got = nat.py_lower_many(items)
        bad = [(ascii(s), g, s.lower()) for s, g in zip(items, got) if g != s.lower()]
        assert not bad, _report(bad)


@sweep
def test_sweep_isspace():
    bad = [hex(ord(c)) for c in CHARS if nat.is_py_space(c) != c.isspace()]
    assert not bad, _report(bad)
    assert nat.is_py_space_many("".join(CHARS)) == [c.isspace() for c in CHARS]


@sweep
def test_sweep_digit_value():
    bad = [(hex(ord(c)), nat.digit_value(c)) for c in CHARS if nat.digit_value(c) != unicodedata.decimal(c, None)]
    assert not bad, _report(bad)


@sweep
def test_sweep_py_float():
    bad = []
    for c in CHARS:
        for s in (c, "1" + c, c + "1", "1" + c + "5"):
            n, r = nat.py_float(s), _py_float(s)
            if not same_float(n, r):
                bad.append((ascii(s), n, r))
    assert not bad, _report(bad)


@sweep
def test_sweep_norms():
    bad = []
    for c in CHARS:
        s = "a" + c + "B"
        for drop in (True, False):
            if nat.gaia_norm(s, drop, True) != ref.gaia_norm(s, drop_punct=drop):
                bad.append(("gaia_norm", drop, ascii(s)))
        if nat.js_normalize(s) != ref.js_normalize(s):
            bad.append(("js_normalize", ascii(s), nat.js_normalize(s), ref.js_normalize(s)))
    assert not bad, _report(bad)


@sweep
def test_sweep_explanation_quoting():
    """The reason text quotes strings with Rust's {:?}; every code point goes through it."""
    bad = []
    for c in CHARS:
        p = "x" + c
        n, r = nat.official_explained(p, "y", None, False), ref.official_explained(p, "y", None, False)
        if n != r:
            bad.append((hex(ord(c)), n, r))
    assert not bad, _report(bad)


# ---------------------------------------------------------------------------------------
# Argument types
# ---------------------------------------------------------------------------------------


def test_type_errors():
    with pytest.raises(TypeError):
        nat.question_scorer(17, "17")
    with pytest.raises(TypeError):
        nat.question_scorer("17", None)
    with pytest.raises(TypeError):
        nat.question_scorer(17.0, "17")
    with pytest.raises(TypeError):
        nat.question_scorer(True, "True")
    with pytest.raises(TypeError):
        nat.lenient_match(17, "17")
    with pytest.raises(TypeError):
        nat.graded_score("17", 17)
    with pytest.raises(TypeError):
        nat.official_explained("17", None)


def test_coerce_applies_str():
    assert nat.question_scorer(17, "17", coerce=True) is True
    assert nat.question_scorer(17.0, "17", coerce=True) is True
    assert nat.question_scorer("17", 17, coerce=True) is True
    assert nat.question_scorer(True, "true", coerce=True) is True
    assert nat.question_scorer("17", None, coerce=True) is False  # truth "None": string branch
    assert nat.question_scorer("none", None, coerce=True) is True
    assert nat.question_scorer(None, "None", coerce=True) is True
    # a coerced argument next to a lone surrogate (the twin decides): str() still applies
    assert nat.question_scorer(17, "\ud800", coerce=True) is False
    assert nat.question_scorer("\ud800", 17, coerce=True) is False
    assert nat.question_scorer(17, "17\ud800", coerce=True) is False


def test_level_argument():
    for level in (None, 0, 1, 2, 3, -1, True, 2**63 - 1):
        assert nat.graded_score("Paris", "paris", level) == ref.graded_score("Paris", "paris", level)
    for bad in (2.0, "2"):
        with pytest.raises(TypeError):
            nat.graded_score("Paris", "paris", bad)
        with pytest.raises(TypeError):
            ref.graded_score("Paris", "paris", bad)
