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
# ANTLR 4.7.2 and SymPy's parse_latex needs 4.11, so it gets a venv of its own.
L2S_VENV="${TMPDIR:-/tmp}/gaia-fast-latex2sympy2"
python -m venv "$L2S_VENV" && "$L2S_VENV/bin/python" -m pip install --quiet 'latex2sympy2==1.9.1'
export GAIA_FAST_LATEX2SYMPY2_PYTHON="$L2S_VENV/bin/python"
FUZZ_MERGE=0 bash scripts/fuzz.sh 24  # a short fuzz pass (3 s a target after its corpus)
python -m pytest -q
