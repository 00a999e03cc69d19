"""The registry against VLMEvalKit's own dataset table (``tests/data/vlmevalkit_datasets.jsonl``,
a copy of the shared classification of VLMEvalKit head ``e8e78f05``): every re-gradable name
has an entry or a documented reason, and no name maps to a flow VLMEvalKit does not use for it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from gaia_fast import benchmarks
from gaia_fast.grading import many

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "data" / "vlmevalkit_datasets.jsonl"
COVERAGE = ROOT / "docs" / "vlmevalkit_coverage.md"
#: The page's table as the package ships it (scripts/vlmevalkit_unmapped.py writes it).
SHIPPED = Path(benchmarks.__file__).parent / "data" / "vlmevalkit_unmapped.json"
REGRADABLE = ("rules", "rules+judge-fallback", "judge")
#: Names with a flow when this test was written; the count only grows.
FLOOR = 398


def _table() -> list[dict]:
    return [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _datasets() -> list[dict]:
    return [r for r in _table() if r["kind"] == "dataset"]


def _regradable() -> list[dict]:
    return [r for r in _datasets() if r["grading"] in REGRADABLE]


def _documented() -> dict[str, tuple[str, str]]:
    """name -> (grading, reason) from the table between the markers of the coverage doc."""
    text = COVERAGE.read_text(encoding="utf-8")
    m = re.search(r"<!-- coverage:start -->\n(.*?)<!-- coverage:end -->", text, re.DOTALL)
    assert m, "docs/vlmevalkit_coverage.md has no coverage markers"
    out: dict[str, tuple[str, str]] = {}
    for line in m.group(1).splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == 3, line
        name, grading, reason = cells
        assert name not in out, f"{name} listed twice"
        out[name] = (grading, reason)
    return out


def test_table_is_the_502():
    assert len(_regradable()) == 502


def test_every_regradable_name_has_a_flow_or_a_reason():
    documented = _documented()
    missing, both = [], []
    for r in _regradable():
        entry = benchmarks.for_dataset(r["name"])
        if entry is None and r["name"] not in documented:
            missing.append(r["name"])
        if entry is not None and r["name"] in documented:
            both.append(r["name"])
    assert not missing, f"no entry and no reason in docs/vlmevalkit_coverage.md: {missing}"
    assert not both, f"have an entry, remove them from docs/vlmevalkit_coverage.md: {both}"


def test_documented_names_are_regradable_with_a_reason():
    table = {r["name"]: r for r in _regradable()}
    for name, (grading, reason) in _documented().items():
        assert name in table, f"{name} is not a re-gradable VLMEvalKit name"
        assert grading == table[name]["grading"], name
        assert len(reason) > 10, name


def test_flows_match_vlmevalkit():
    """The entry's grading category is the name's; MCQ names run the helper upstream runs."""
    wrong = []
    for r in _regradable():
        entry = benchmarks.for_dataset(r["name"])
        if entry is None:
            continue
        if entry.grading != r["grading"]:
            wrong.append((r["name"], entry.name, f"grading {entry.grading!r} != {r['grading']!r}"))
        opts = entry.options
        flow = opts.get("benchmark")
        if "mcq_circular_eval" in r["helper"] and flow != "mcq-circular":
            wrong.append((r["name"], entry.name, "upstream runs mcq_circular_eval"))
        if "mcq_vanilla_eval" in r["helper"] and flow not in ("mcq", "mmmu"):
            wrong.append((r["name"], entry.name, "upstream runs mcq_vanilla_eval"))
        runs_mcq = any(h in r["helper"] for h in ("mcq_vanilla_eval", "mcq_circular_eval", "eval_vanilla per row"))
        if flow in ("mcq", "mcq-circular", "mmmu") and not runs_mcq:
            wrong.append((r["name"], entry.name, f"upstream does not run the MCQ flow ({r['helper']})"))
        if "report_acc_MMT" in r["helper"] and opts.get("report") != "mmt":
            wrong.append((r["name"], entry.name, "upstream reports with report_acc_MMT"))
        if "can_infer_lego" in r["helper"] and opts.get("matcher") != "lego":
            wrong.append((r["name"], entry.name, "upstream matches with can_infer_lego"))
        if "MMMU_preproc" in r["helper"] and not (flow == "mmmu" or opts.get("preproc")):
            wrong.append((r["name"], entry.name, "upstream runs MMMU_preproc"))
    assert not wrong, wrong


def test_judge_names_never_map_to_rules_flows():
    for r in _regradable():
        entry = benchmarks.for_dataset(r["name"])
        if r["grading"] == "judge":
            assert entry is None or entry.grading == "judge", (r["name"], entry.name)


@pytest.mark.parametrize("layout", ["m_{}.xlsx", "m/m_{}.xlsx", "GPT4o_0513/GPT4o_0513_{}.tsv"])
def test_detect_agrees_with_for_dataset_for_every_name(layout):
    # A result file of any VLMEvalKit dataset is read as that dataset: never as a shorter
    # registered name its own name ends with (Creation_MMBench is not {model}_MMBench).
    wrong = []
    for r in _datasets():
        d = benchmarks.detect(layout.format(r["name"]))
        got = d.benchmark if d else None
        if got is not benchmarks.for_dataset(r["name"]):
            wrong.append((r["name"], got and got.name))
        elif d is not None:
            assert d.dataset == r["name"]
    assert not wrong, wrong


def test_for_dataset_is_unambiguous_and_the_count_grows():
    names = [r["name"] for r in _regradable()]
    mapped = [n for n in names if benchmarks.for_dataset(n) is not None]
    assert len(mapped) >= FLOOR
    with pytest.raises(ValueError):
        benchmarks.BENCHMARKS["_dup"] = benchmarks.BENCHMARKS["mcq"]
        try:
            benchmarks.for_dataset("MMStar")
        finally:
            del benchmarks.BENCHMARKS["_dup"]


def test_every_entry_claims_a_known_name_or_is_outside_the_table():
    # An entry's regexes should match names VLMEvalKit has (LiveXivVQA is the DCVLR fork's,
    # GAIA is not VLMEvalKit).
    names = [r["name"] for r in _table()]
    # Names VLMEvalKit had only on a branch, not at head: real archives carry them.
    branch_only = {r"MTVQA_TEST_(?:JA|JA_10|AR|DE_FR)"}
    for entry in benchmarks.BENCHMARKS.values():
        if entry.name in ("gaia", "livexivvqa"):
            continue
        for rx in entry.datasets:
            if rx in branch_only:
                continue
            assert any(re.fullmatch(rx, n) for n in names), (entry.name, rx)


@pytest.mark.parametrize(
    "name",
    ["m_3DSRBench_results.tsv", "m_tdbench_rot0_REresult.csv", "m_MMMU_Pro_10c_COT_cotpost.xlsx", "m_MMBench_DEV_EN_acc_all.csv"],
)
def test_outputs_of_the_new_flows_are_not_results(name):
    assert benchmarks.non_result(f"m/{name}") is not None
    assert benchmarks.detect(f"m/{name}") is None


def test_the_package_ships_the_coverage_page_table():
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    documented = _documented()
    assert [(n, e["grading"], e["reason"]) for n, e in shipped.items()] == [(n, g, r) for n, (g, r) in documented.items()]
    # every name is named unsupported wherever it is, with the page's reason (BMMR and
    # TreeBench keep the registry's own messages)
    own = ("BMMR", "BMMR_mini", "TreeBench")
    for name, (_, reason) in documented.items():
        got = benchmarks.unsupported(f"elsewhere/vila_8b_{name}.xlsx", listed_only=True)
        assert got is not None and got[:2] == ("vila_8b", name), (name, got)
        if name not in own:
            assert got[2] == f"no grading flow yet for {name} ({reason})"
    assert "math_equal" in benchmarks.unsupported("m/m_BMMR_mini.xlsx")[2]
    assert "raises TypeError" in benchmarks.unsupported("m/m_TreeBench.xlsx")[2]


def test_an_unmapped_file_is_skipped_with_its_reason(tmp_path):
    # a judge-only set and one VLMEvalKit grades with an evaluation of its own; the table has
    # the multiple-choice shape, which must not get them graded by shape
    model = tmp_path / "outputs" / "m"
    model.mkdir(parents=True)
    frame = pl.DataFrame({"index": [0], "question": ["q"], "A": ["x"], "B": ["y"], "answer": ["A"], "prediction": ["A"]})
    names = ("VGRPBench", "MM-Math")
    for name in names:
        frame.write_excel(model / f"m_{name}.xlsx")
    documented = _documented()
    # a folder search, and each file named on its own
    for paths in ([str(tmp_path / "outputs")], [str(model / f"m_{n}.xlsx") for n in names]):
        records = {r.dataset: r for r in many.grade_many(many.expand(paths), report_dir=tmp_path / "R")}
        assert set(records) == set(names)
        for name in names:
            r = records[name]
            assert (r.benchmark, r.status, r.model) == ("unsupported", "skipped", "m"), (name, r)
            assert r.error == f"no grading flow yet for {name} ({documented[name][1]})"
