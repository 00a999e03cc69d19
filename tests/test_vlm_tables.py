"""The PHYSICS and OlympiadBench scorers take their shared tables from modules of their
own, never from the twins in reference/; the twins take only those tables from the
product's package; where the product has its own copy of a rule, it equals the twin's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gaia_fast
from gaia_fast.reference import vlm_olympiad as olympiad_twin
from gaia_fast.scorers.vlm import olympiad

PKG = Path(gaia_fast.__file__).parent


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


@pytest.mark.parametrize("name", ["physics", "olympiad"])
def test_scorer_does_not_import_its_twin(name):
    found = imports(PKG / "scorers" / "vlm" / f"{name}.py")
    assert not {m for m in found if m.startswith("gaia_fast.reference")}, found
    assert f"gaia_fast.scorers.vlm.{name}_tables" in found


@pytest.mark.parametrize("name", ["physics", "olympiad"])
def test_twin_imports_only_the_shared_tables(name):
    found = {m for m in imports(PKG / "reference" / f"vlm_{name}.py") if m.startswith("gaia_fast")}
    assert found and all(m.startswith(f"gaia_fast.scorers.vlm.{name}_tables") for m in found), found


CELLS = [None, "nan", "1e-2", "0.5", "1e-2,1e-3", ",1e-3", "1e-2,", "0,,", "abc", "", "1,x"]


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("answer_type", [None, "Numerical", "Tuple", "nan"])
def test_vlmevalkit_precision_equals_the_twin(cell, answer_type):
    def twin() -> object:
        if answer_type is not None and answer_type != "nan" and "Tuple" in answer_type:
            return None
        return olympiad_twin.row_precision(cell)

    try:
        want: object = twin()
    except ValueError as e:
        want = type(e)
    try:
        got: object = olympiad._precision(answer_type, cell, "vlmevalkit")
    except ValueError as e:
        got = type(e)
    assert got == want
