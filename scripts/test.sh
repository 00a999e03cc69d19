#!/usr/bin/env bash
# The whole test suite from a fresh machine: install (builds the native extension),
# the release wheel, Rust unit tests, then pytest (parity with the Python twins, conformance
# vectors, CLI, the wheel in a fresh venv).
set -euo pipefail
cd "$(dirname "$0")/.."
# wheel: a fresh venv's setuptools (65) cannot build the sdist-only test dependencies (rouge-score) without it.
python -m pip install --quiet 'maturin>=1.9,<2' wheel
python -m pip install --quiet --no-build-isolation -e '.[test]'
# The release wheel (manylinux2014, abi3) and the sdist, built into a wheel too; tests/test_wheel.py installs the wheel
# into a fresh venv without a Rust toolchain.
bash scripts/build_wheel.sh --check-sdist
GAIA_FAST_WHEEL="$(ls "$PWD"/dist/*.whl)"
export GAIA_FAST_WHEEL
cargo test --quiet -p gaia-fast-core
# MathVision's latex step for pre-2026-04 runs is latex2sympy2 1.9.1 (gaia-fast[latex2sympy2]) in a worker interpreter; it pins
# ANTLR 4.7.2 and SymPy's parse_latex needs 4.11, so it gets a venv of its own (the versions the reference ran with, from
# PyPI only; kept between runs). Best effort: where it cannot be built the tests that need it skip and say why.
L2S_VENV="${TMPDIR:-/tmp}/gaia-fast-latex2sympy2"
l2s_ready() {
    "$L2S_VENV/bin/python" -c 'import importlib.metadata as m, latex2sympy2; assert m.version("latex2sympy2") == "1.9.1"' >/dev/null 2>&1
}
if ! l2s_ready; then
    rm -rf "$L2S_VENV"
    # No pip of its own in the venv (ensurepip takes seconds): this pip installs into it (--python, pip >= 22.3).
    if ! { python -m venv --without-pip "$L2S_VENV" \
        && env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL python -m pip --python "$L2S_VENV/bin/python" install --quiet \
            --disable-pip-version-check --index-url https://pypi.org/simple --timeout 30 --retries 1 \
            'latex2sympy2==1.9.1' 'antlr4-python3-runtime==4.7.2' 'sympy==1.14.0'; }; then
        echo "scripts/test.sh: could not build the latex2sympy2 1.9.1 venv at $L2S_VENV; the tests that need it will skip" >&2
    fi
fi
if l2s_ready; then
    export GAIA_FAST_LATEX2SYMPY2_PYTHON="$L2S_VENV/bin/python"
fi
FUZZ_MERGE=0 bash scripts/fuzz.sh 24  # a short fuzz pass (3 s a target after its corpus)
python -m pytest -q
