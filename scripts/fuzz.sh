#!/usr/bin/env bash
# Coverage-guided fuzzing of every native entry point through the Python face (atheris).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 600) is split evenly across the targets (default: all of them, see
# tests/fuzz_targets.py). New inputs that add coverage are merged into
# tests/data/fuzz/<target>/ (set FUZZ_MERGE=0 to leave the corpus alone, as CI does);
# pytest replays that corpus (tests/test_fuzz_corpus.py). A failing input is written to
# target/fuzz-work/<target>/crash-*; the script then exits 1.
#
# FUZZ_ARGS passes extra libFuzzer flags (e.g. FUZZ_ARGS=-len_control=0 for long inputs
# from the start). FUZZ_MINIMIZE=1 then rewrites each corpus as a smallest set of inputs with the same
# branch coverage (files named regress-* are always kept).
#
# FUZZ_BUILD_NATIVE=1 first builds the extension with SanitizerCoverage (stable Rust,
# no clang needed) into target/fuzz-native/, so libFuzzer also sees Rust branches;
# without that build only the Python side (gaia_fast and its twins) guides the search.
set -uo pipefail
cd "$(dirname "$0")/.."

total=${1:-600}
shift || true
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=(gaia text batch mcq boxed physics omni3d olympiad yorn vqa caption)
fi
per=$(( total / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1

if [ "${FUZZ_BUILD_NATIVE:-0}" = 1 ]; then
    echo "fuzz: building the instrumented extension (target/fuzz-native)"
    CARGO_TARGET_DIR=target/fuzz-native \
    CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true \
    CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
    RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares" \
        cargo build --quiet --release --target x86_64-unknown-linux-gnu -p gaia-fast-py --features pyo3/extension-module \
        || { echo "fuzz: instrumented build failed" >&2; exit 1; }
    export GAIA_FAST_FUZZ_NATIVE="$PWD/target/fuzz-native/x86_64-unknown-linux-gnu/release/lib_native.so"
fi

failed=()
printf '%-10s %8s %10s %8s\n' target seconds runs corpus
for t in "${targets[@]}"; do
    mkdir -p "target/fuzz-work/$t"
    log="target/fuzz-work/$t/last.log"
    # shellcheck disable=SC2086 # FUZZ_ARGS: extra libFuzzer flags, word-split on purpose
    python scripts/fuzz.py "$t" --seconds "$per" ${FUZZ_ARGS:-} >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    secs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log" | tail -1)
    if [ "$rc" -ne 0 ]; then
        failed+=("$t")
        echo "fuzz: $t FAILED (exit $rc); log $log" >&2
        grep -A25 -m1 -E "Uncaught Python exception|ERROR: libFuzzer|panicked" "$log" >&2
        grep -E "Test unit written to" "$log" >&2
        continue
    fi
    if [ "${FUZZ_MERGE:-1}" = 1 ]; then
        python scripts/fuzz.py "$t" --merge >"target/fuzz-work/$t/merge.log" 2>&1 \
            || { failed+=("$t(merge)"); echo "fuzz: merge of $t failed; see target/fuzz-work/$t/merge.log" >&2; }
    fi
    if [ "${FUZZ_MINIMIZE:-0}" = 1 ]; then
        if python scripts/fuzz.py "$t" --minimize >"target/fuzz-work/$t/minimize.log" 2>&1 \
            && [ -n "$(ls -A "target/fuzz-work/$t/minimized")" ]; then
            find "tests/data/fuzz/$t" -type f ! -name 'regress-*' -delete
            mv "target/fuzz-work/$t/minimized"/* "tests/data/fuzz/$t/"
        else
            failed+=("$t(minimize)"); echo "fuzz: minimizing $t failed; see target/fuzz-work/$t/minimize.log" >&2
        fi
    fi
    files=$(find "tests/data/fuzz/$t" -type f 2>/dev/null | wc -l)
    printf '%-10s %8s %10s %8s\n' "$t" "${secs:-?}" "${runs:-?}" "$files"
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: failures in: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: all ${#targets[@]} targets passed"
