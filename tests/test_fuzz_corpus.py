"""Replay the fuzz corpus (``tests/data/fuzz/<target>/``, grown by ``scripts/fuzz.sh``)
through the same property checks the fuzzer runs: native equals twin, no panic, outputs
well formed. Files named ``regress-*`` are inputs that once failed (see their notes in
``tests/data/fuzz/README.md``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import fuzz_targets as ft

CORPUS = Path(__file__).parent / "data" / "fuzz"


def corpus_files(target: str) -> list[Path]:
    return sorted(p for p in (CORPUS / target).glob("*") if p.is_file())


@pytest.mark.parametrize("target", sorted(ft.TARGETS))
def test_corpus_replays_clean(target):
    files = corpus_files(target)
    assert files, f"no corpus for {target}: run scripts/fuzz.sh"
    bad = []
    for path in files:
        try:
            ft.TARGETS[target](path.read_bytes())
        except ft.PropertyFailed as e:
            bad.append(f"{path.name}: {e}")
    assert not bad, f"{len(bad)} of {len(files)} inputs fail:\n" + "\n".join(bad[:5])


def test_corpus_stays_small():
    sizes = [p.stat().st_size for p in CORPUS.rglob("*") if p.is_file()]
    assert 0 < sum(sizes) < 2_000_000, sum(sizes)


# The harness itself: a check that cannot fail would make the fuzzing meaningless.


def test_input_decoding():
    x = ft.Input(b"\x05\x81a\xffb\x80c\xff")
    assert (x.flags, x.sel) == (5, 0x81)
    assert x.fields == ["a", "b\udc80c", ""]
    assert x.flag(0) and not x.flag(1) and x.flag(2)
    assert ft.Input(b"").fields == [""] and ft.Input(b"").flags == 0


def test_same_tells_nan_signed_zero_and_bool():
    assert ft.same(math.nan, math.nan) and ft.same([1.0, None], [1.0, None])
    assert not ft.same(0.0, -0.0)
    assert not ft.same(True, 1) and not ft.same(1.0, 1)
    assert not ft.same({"a": [1]}, {"a": [2]})


def test_agree_reports_a_disagreement_and_a_raise():
    with pytest.raises(ft.PropertyFailed, match="native != twin"):
        ft.agree("f", lambda s: s.lower(), lambda s: s, "A")
    with pytest.raises(ft.PropertyFailed, match="native != twin"):
        ft.agree("f", lambda s: int(s), lambda s: 0, "x")
    assert ft.agree("f", str.lower, str.lower, "A") == "a"


def test_a_panic_is_not_swallowed():
    class Panic(BaseException):  # what pyo3's PanicException is
        pass

    def boom(_):
        raise Panic

    with pytest.raises(Panic):
        ft.outcome(boom, "x")


def test_slow_twin_gives_up():
    def spin():
        while True:
            pass

    assert ft.slow_twin(spin, seconds=0.2) is None
    assert ft.slow_twin(lambda: 3) == ("ok", 3)


# Regressions found by fuzzing.


def test_extract_boxed_with_a_lone_surrogate_stays_linear():
    """boxed fuzzer, timeout: a lone surrogate anywhere in the text sent it to the twin's
    regex, which backtracks exponentially (this 575-character input: 15 s; one more
    nesting level doubles it). The native reader now decides it, surrogates kept."""
    import gaia_fast as gf
    from gaia_fast.reference import vlm_physics as twin

    data = (CORPUS / "boxed" / "regress-surrogate-regex-backtracking").read_bytes()
    text = ft.Input(data).field(0)
    assert ft.has_surrogate(text)
    with ft.twin_deadline(5.0):  # raises TwinTimeout (a BaseException) if it is slow again
        for style in ("balanced", "physics", "physics-final"):
            assert gf.vlm.extract_boxed(text, style) == gf.vlm.extract_boxed(ft.clean(text), style) == []
    for text in ["\\boxed{a\ud800}", "\\boxed{\ud800 }x\\boxed{\udfff\U000f0000}", "\\boxed{\\boxed{\ud801}}", "\ud800"]:
        for style in ("balanced", "physics", "physics-final"):
            assert gf.vlm.extract_boxed(text, style) == twin.extract_boxed(text, style), (text, style)
    assert gf.vlm.extract_boxed("\\boxed{x\ud800 } \\boxed{\udfff}", "physics") == ["x\ud800", "\udfff"]
