#!/usr/bin/env bash
# One abi3 wheel (CPython >= 3.11) that pip accepts on any mainstream Linux, and the sdist.
#
#   bash scripts/build_wheel.sh [--check-sdist]
#
# The wheel links against glibc 2.17 (manylinux2014) through zig, so no manylinux container
# is needed; `auditwheel show` must confirm the tag or the script fails. --check-sdist also
# builds a wheel from the sdist, as a platform without a wheel would.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet 'maturin>=1.9,<2' 'ziglang>=0.13' 'auditwheel>=6'
rm -rf dist
maturin build --release --zig --compatibility manylinux2014 --out dist
maturin sdist --out dist
wheel=$(ls dist/*.whl)
auditwheel show "$wheel" | tee dist/auditwheel.txt
grep -q '"manylinux_2_17_x86_64"' dist/auditwheel.txt || { echo "build_wheel: auditwheel does not confirm manylinux_2_17" >&2; exit 1; }
if [[ "${1:-}" == "--check-sdist" ]]; then
    python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir dist/from-sdist dist/*.tar.gz
    ls dist/from-sdist/*.whl
fi
echo "build_wheel: $(ls dist/*.whl dist/*.tar.gz | tr '\n' ' ')($(du -k "$wheel" | cut -f1) KiB wheel)"
