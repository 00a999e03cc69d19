"""Many archives in one call (kept for imports of earlier releases): the pipeline's stages
live in :mod:`~gaia_fast.grading.discover` (paths -> plan), :mod:`~gaia_fast.grading.execute`
(plan -> records) and :mod:`~gaia_fast.grading.reporters` (records -> tables)."""

from gaia_fast.grading.discover import SEARCHED_SUFFIXES, expand, is_metadata_folder, is_parquet_dataset, is_workspace
from gaia_fast.grading.execute import CAN_INFER_BENCHMARKS, OUT_SUFFIX, grade_gaia, grade_many, out_paths
from gaia_fast.grading.plan import COLUMNS, OPTIONAL_COLUMNS, ArchiveRecord, Job, Plan, SkippedFile, columns
from gaia_fast.grading.reporters import records_frame, write_summary

__all__ = [
    "CAN_INFER_BENCHMARKS",
    "COLUMNS",
    "OPTIONAL_COLUMNS",
    "OUT_SUFFIX",
    "SEARCHED_SUFFIXES",
    "ArchiveRecord",
    "Job",
    "Plan",
    "SkippedFile",
    "columns",
    "expand",
    "grade_gaia",
    "grade_many",
    "is_metadata_folder",
    "is_parquet_dataset",
    "is_workspace",
    "out_paths",
    "records_frame",
    "write_summary",
]
