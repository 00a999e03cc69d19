"""gaia-fast: exact, fast answer scoring for AI benchmarks.

Each scorer reproduces a named reference scorer decision for decision (see the README),
runs natively on all cores over Arrow columns, and can explain each decision.
"""

from gaia_fast import _native, math, vlm
from gaia_fast._lazy import lazy_exports
from gaia_fast.scorers.gaia import Graded, graded_score, lenient_match, normalize_answer, official_explained, question_scorer

__version__: str = _native.__version__

# Loaded on first use, so ``import gaia_fast`` for the scalar scorers costs no Polars,
# pyarrow or NumPy import.
__getattr__, __dir__ = lazy_exports(
    __name__,
    globals(),
    {
        "GAIABenchmark": "gaia_fast.compat.gaia_benchmark",
        "expr": "gaia_fast.frame",
        "score_batch": "gaia_fast.frame",
        "score_frame": "gaia_fast.frame",
    },
)

__all__ = [
    "GAIABenchmark",
    "Graded",
    "expr",
    "graded_score",
    "lenient_match",
    "math",
    "normalize_answer",
    "official_explained",
    "question_scorer",
    "score_batch",
    "score_frame",
    "vlm",
]
