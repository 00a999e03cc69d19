"""Archive I/O: readers for every result layout gaia-fast knows, atomic writers."""

from gaia_fast.io.readers import (
    ArchiveScan,
    InputError,
    Layout,
    SkippedLine,
    detect_layout,
    extract_final_answer,
    parquet_parts,
    read_archive,
    scan_archive,
    scan_parquet_parts,
)
from gaia_fast.io.writers import atomic_path, comparison_frame, write_comparison_csv, write_table

__all__ = [
    "ArchiveScan",
    "InputError",
    "Layout",
    "SkippedLine",
    "atomic_path",
    "comparison_frame",
    "detect_layout",
    "extract_final_answer",
    "parquet_parts",
    "read_archive",
    "scan_archive",
    "scan_parquet_parts",
    "write_comparison_csv",
    "write_table",
]
