"""OlympiadBench tables shared by the scorer (:mod:`gaia_fast.scorers.vlm.olympiad`) and
its pure-Python twin (:mod:`gaia_fast.reference.vlm_olympiad`): the variants and the
report's sources and columns (``specs/vlmevalkit.md`` §5)."""

from __future__ import annotations

__all__ = ["REPORT_COLUMNS", "SOURCES", "VARIANTS"]

#: ``variant=`` values: the benchmark authors' MathJudger, VLMEvalKit's port.
VARIANTS = ("openbmb", "vlmevalkit")

#: The report's sources, in column order (§5.7).
SOURCES = (
    "OE_MM_maths_en_COMP",
    "OE_MM_maths_zh_CEE",
    "OE_MM_maths_zh_COMP",
    "OE_MM_physics_en_COMP",
    "OE_MM_physics_zh_CEE",
    "OE_TO_maths_en_COMP",
    "OE_TO_maths_zh_CEE",
    "OE_TO_maths_zh_COMP",
    "OE_TO_physics_en_COMP",
    "OE_TO_physics_zh_CEE",
)

#: Every column of the report, in order: the sources, the language × subject groups, the
#: subjects, ``AVG``.
REPORT_COLUMNS = (
    *SOURCES,
    "zh_maths",
    "zh_physics",
    "en_maths",
    "en_physics",
    "maths",
    "physics",
    "AVG",
)
