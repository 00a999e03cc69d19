"""Grade one VLMEvalKit result file through the CLI as a user would: the file in its model
folder, ``--benchmark auto``, reports written to the working folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
from click.testing import CliRunner

from gaia_fast.cli import main


def grade_one_file(source: Path, tmp_path: Path, monkeypatch) -> pl.DataFrame:
    """Run ``gaia-fast grade <model>/<file> --benchmark auto --out rows.csv`` in
    ``tmp_path`` (reports land there) and return the rows, read as text."""
    src = tmp_path / "vila_8b"
    src.mkdir()
    shutil.copy(source, src)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["grade", str(src / source.name), "--benchmark", "auto", "--out", "rows.csv"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return pl.read_csv(tmp_path / "rows.csv", infer_schema_length=0)
