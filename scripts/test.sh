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
FUZZ_MERGE=0 bash scripts/fuzz.sh 24  # a short fuzz pass (3 s a target after its corpus)
python -m pytest -q
