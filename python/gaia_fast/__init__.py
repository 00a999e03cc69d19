"""gaia-fast: exact, fast answer scoring for AI benchmarks.

Each scorer reproduces a named reference scorer decision for decision (see the README),
runs natively on all cores over Arrow columns, and can explain each decision.
"""

from gaia_fast import _native, math, vlm
from gaia_fast._lazy import lazy_exports
from gaia_fast.frame import expr, score_batch, score_frame
from gaia_fast.scorers.gaia import Graded, graded_score, lenient_match, normalize_answer, official_explained, question_scorer

__version__: str = _native.__version__

# Loaded on first use: ``import gaia_fast`` stays light.
__getattr__, __dir__ = lazy_exports(__name__, globals(), {"GAIABenchmark": "gaia_fast.compat.gaia_benchmark"})

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
