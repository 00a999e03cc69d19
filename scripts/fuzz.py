"""Coverage-guided fuzzing of one target of ``tests/fuzz_targets.py`` with atheris.

    python scripts/fuzz.py TARGET [--seconds N] [--corpus DIR] [--work DIR]

Inputs found to add coverage are merged into ``--corpus`` (default
``tests/data/fuzz/TARGET``); the search itself runs in ``--work`` (default
``target/fuzz-work/TARGET``, not committed). A failing input is saved as
``target/fuzz-work/TARGET/crash-*`` and the exit status is non-zero.

Coverage comes from atheris's bytecode instrumentation of ``gaia_fast`` (the twins in
``gaia_fast.reference`` mirror the native branches) and, when present, from a native
extension built with SanitizerCoverage: ``FUZZ_BUILD_NATIVE=1 scripts/fuzz.sh`` builds it
(``target/fuzz-native``) and sets ``GAIA_FAST_FUZZ_NATIVE=/path/to/lib_native.so``.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Tokens libFuzzer splices into inputs: the syntax each scorer looks for.
DICTIONARY = [
    "\\boxed{", "\\boxed {", "\\fbox{", "}", "{", "\\{", "\\}", "\\frac{", "\\dfrac", "\\sqrt{", "\\pm", "\\mp",
    "\\text{", "\\mathrm{", "\\left(", "\\right)", "\\infty", "\\pi", "\\cdot", "\\times", "^{", "_{", "$", "$$",
    "So the final answer is ", "所以最终答案是", "The answer is", "Answer:", "answer:", "FINAL ANSWER: ",
    "<ans>", "</ans>", "(A)", "(B)", " A ", "B.", "C)", "[D]", "E:", "Z", "none of", "Cannot determine",
    "inf", "nan", "-0", "1e400", "0x", "1_000", "1,000", "3.14", "%", ",", ";", ", ", "; ", "=", "\\le", "\\ge",
    "(", ")", "[", "]", "\\in", "\\cup", "yes", "no", "None", "?", "\u00a0", "\u3000", "\u200b", "\x1c", "\x85",
    "\u0130", "\u03a3", "\u212a", "\u00df", "\u0301", "\u0661", "\uff15", "\U0001d7ce", "中", "能", "不能",
]


def _dict_file(path: Path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for tok in DICTIONARY:
            esc = "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else "".join(f"\\x{b:02x}" for b in c.encode()) for c in tok)
            fh.write(f'"{esc}"\n')


def _load_sancov_native(path: Path) -> None:
    """Import ``path`` as ``gaia_fast._native``. Its coverage hooks
    (``__sanitizer_cov_*``) resolve against atheris's libFuzzer, which ``atheris.Fuzz``
    loads with global symbols (see ``main``): so this runs inside the first input."""
    loader = importlib.machinery.ExtensionFileLoader("gaia_fast._native", str(path))
    spec = importlib.util.spec_from_file_location("gaia_fast._native", str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules["gaia_fast._native"] = module


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--work", type=Path)
    ap.add_argument("--max-len", type=int, default=2048)
    ap.add_argument("--timeout", type=int, default=30, help="seconds for one input before it counts as a hang")
    ap.add_argument("--merge", action="store_true", help="only merge --work inputs that add coverage into --corpus")
    ap.add_argument("--minimize", action="store_true", help="rewrite --corpus as a smallest set with the same coverage")
    args, extra = ap.parse_known_args()

    # atheris loads its libFuzzer core inside Fuzz(); global symbols let the
    # instrumented extension, loaded after that, find the coverage hooks.
    flags = sys.getdlopenflags()
    sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
    import atheris

    sys.path.insert(0, str(ROOT / "tests"))
    corpus = args.corpus or ROOT / "tests" / "data" / "fuzz" / args.target
    work = args.work or ROOT / "target" / "fuzz-work" / args.target
    corpus.mkdir(parents=True, exist_ok=True)
    live = work / "live"
    live.mkdir(parents=True, exist_ok=True)
    dict_path = work / "tokens.dict"
    _dict_file(dict_path)

    if args.minimize:
        # Into an empty folder, then swapped in (regression inputs are always kept).
        fresh = work / "minimized"
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        dirs = ["-merge=1", "-use_counters=0", str(fresh), str(corpus)]
    elif args.merge:
        # Edges only (no hit-count buckets): the committed corpus grows on new branches.
        dirs = ["-merge=1", "-use_counters=0", str(corpus), str(live)]
    else:
        dirs = [str(live), str(corpus), f"-max_total_time={max(1, args.seconds)}"]
    # libFuzzer's merge re-runs argv[0] through the shell: make it the whole command.
    me = shlex.join([sys.executable, str(Path(__file__).resolve()), args.target, "--corpus", str(corpus), "--work", str(work)])
    fuzz_argv = [
        me,
        *dirs,
        f"-max_len={args.max_len}",
        f"-timeout={args.timeout}",
        f"-dict={dict_path}",
        f"-artifact_prefix={work}/",
        "-rss_limit_mb=3072",
        "-print_final_stats=1",
        *extra,
    ]
    # Opt-in (a build left from older code would disagree with the twins of this one).
    native = os.environ.get("GAIA_FAST_FUZZ_NATIVE", "")
    if native == "off":  # the installed extension; only Python coverage guides the search
        native = ""
    test = {}

    def load() -> None:
        sys.setdlopenflags(flags)  # everything else loads as usual
        if native:
            _load_sancov_native(Path(native))
            print(f"fuzz: native extension with coverage: {native}", file=sys.stderr)
        with atheris.instrument_imports(include=["gaia_fast", "fuzz_targets"]):
            import fuzz_targets
        if args.target not in fuzz_targets.TARGETS:
            print(f"fuzz: unknown target {args.target!r}; targets: {', '.join(fuzz_targets.TARGETS)}", file=sys.stderr)
            os._exit(2)
        test["run"] = fuzz_targets.TARGETS[args.target]

    def one_input(data: bytes) -> None:
        if not test:
            load()
        test["run"](data)

    atheris.Setup(fuzz_argv, one_input)
    atheris.Fuzz()  # exits the process: 0 at -max_total_time, non-zero on a failure
    return 0


if __name__ == "__main__":
    sys.exit(main())
