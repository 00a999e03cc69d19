"""Pure-Python twins of every native (Rust) function of gaia-fast.

Each twin reproduces its reference scorer with Python's own semantics (``float()``,
``str.lower()``, ``re``), written from ``specs/gaia.md`` rather than from the Rust code, so
it is an independent oracle: the test-suite checks the native module against it.  The
twins are also the fallback for inputs the native path cannot take, e.g. strings holding
lone surrogates (JSON ``"\\ud800"``), which cannot become a Rust ``String``.

The twins never print and never warn.
"""

from gaia_fast.reference.gaia import (
    gaia_norm,
    gaia_number,
    graded_score,
    js_normalize,
    lenient_match,
    lenient_reason,
    official_explained,
    py_float,
    question_scorer,
    score_rows,
)
from gaia_fast.reference.order import csv_rows, repeat_starts, stable_order

__all__ = [
    "csv_rows",
    "gaia_norm",
    "gaia_number",
    "graded_score",
    "js_normalize",
    "lenient_match",
    "lenient_reason",
    "official_explained",
    "py_float",
    "question_scorer",
    "repeat_starts",
    "score_rows",
    "stable_order",
]
