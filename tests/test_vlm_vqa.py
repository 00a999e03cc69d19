"""Open VQA family (TextVQA, ChartQA, OCRVQA, GQA, DocVQA, InfoVQA): VLMEvalKit's
process_line / hit_calculate natively and in the twin, the archive's own reports
(`_acc.csv`) of the VILA-1.5 8B sample tree, through the library and the CLI."""

from __future__ import annotations

import csv
import json
import math
import random
import shutil
from pathlib import Path

import polars as pl
import pytest
from _vlm_cli import grade_one_file
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gaia_fast import _native, benchmarks
from gaia_fast.cli import main
from gaia_fast.io.vlm import read_result_table
from gaia_fast.reference import vlm_vqa as twin
from gaia_fast.scorers.vlm import vqa

TREE = Path(__file__).parent / "data" / "vlmevalkit_tree" / "vila_8b"
DATASETS = {"ChartQA_TEST": "chartqa", "TextVQA_VAL": "textvqa", "OCRVQA_TESTCORE": "ocrvqa"}
NA = set(vqa.PANDAS_NA)


def _acc_csv(path: Path) -> dict[str, str]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1
    return rows[0]


def _assert_report_equal(ours: dict, theirs: dict[str, str]) -> int:
    """Every number of the archive's report, exactly. Splits are compared as a set of
    columns (the reference lists them in ``set`` order); returns how many were compared."""
    assert set(ours) == set(theirs)
    assert list(ours)[-1] == list(theirs)[-1] or list(ours)[0] == list(theirs)[0] == "Overall"
    for k, v in theirs.items():
        assert float(ours[k]) == float(v), (k, ours[k], v)
    return len(theirs)


def _columns(frame: pl.DataFrame, name: str) -> list[str | None] | None:
    """A column as pandas read it (NaN = None)."""
    if name not in frame.columns:
        return None
    return [None if (x is None or x in NA) else x for x in frame[name].to_list()]


# --------------------------------------------------------------------------------------
# The archive
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dataset", list(DATASETS))
def test_archive_acc_csv(dataset):
    frame = read_result_table(TREE / f"vila_8b_{dataset}.xlsx")
    result = vqa.grade(frame, benchmark=DATASETS[dataset])
    theirs = _acc_csv(TREE / f"vila_8b_{dataset}_acc.csv")
    n = _assert_report_equal(result.report.row(0, named=True), theirs)
    assert n == {"ChartQA_TEST": 3, "TextVQA_VAL": 1, "OCRVQA_TESTCORE": 33}[dataset]
    assert result.stats["variant"] == "classic" and result.stats["reference_error"] is None
    assert result.rows.height == frame.height == result.stats["rows"]
    assert set(result.rows["status"]) == {"ok"}
    # The twin, from the same cells, gives the same numbers.
    split = _columns(frame, "split")
    ref = twin.evaluate(
        _columns(frame, "prediction"), _columns(frame, "answer"), vqa.BENCHMARKS[DATASETS[dataset]], "classic",
        split=split, category=None if split is not None else _columns(frame, "category"),
    )  # fmt: skip
    _assert_report_equal(ref, theirs)


def test_archive_rows_explained():
    frame = read_result_table(TREE / "vila_8b_TextVQA_VAL.xlsx")
    rows = vqa.grade(frame, benchmark="textvqa").rows
    assert rows.columns[: len(frame.columns)] == frame.columns
    assert rows["prediction"].to_list() == frame["prediction"].to_list()
    first = rows.row(0, named=True)
    assert (first["prediction"], first["extracted"], first["rule"]) == ("Dakota", "dakota", "vqa_match")
    assert set(rows["rule"]) == {"vqa_match", "vqa_none"}
    assert rows.filter(pl.col("rule") == "vqa_none")["score"].unique().to_list() == [0.0]
    # Ten cells read "None"/"nan"-like texts as pandas does: the prediction "nan".
    na = rows.filter(pl.col("prediction").is_in(list(NA)) | pl.col("prediction").is_null())
    assert na.height == 10 and set(na["extracted"]) == {"nan"}


def test_archive_chartqa_lists_of_numbers():
    """`[2014, 2016]` is a list for the reference's eval; `[Gambia, Niger]` is one answer."""
    frame = read_result_table(TREE / "vila_8b_ChartQA_TEST.xlsx")
    result = vqa.grade(frame, benchmark="chartqa")
    assert result.stats["literal_rows"] == 22
    rows = result.rows.filter(pl.col("answer").str.starts_with("["))
    assert rows.height == 22 and set(rows["status"]) == {"ok"}


def test_variants_on_the_archive():
    frame = read_result_table(TREE / "vila_8b_TextVQA_VAL.xlsx")
    theirs = float(_acc_csv(TREE / "vila_8b_TextVQA_VAL_acc.csv")["Overall"])
    new = vqa.grade(frame, benchmark="textvqa", variant="2025-05").report["Overall"][0]
    assert new != theirs
    ref = twin.evaluate(_columns(frame, "prediction"), _columns(frame, "answer"), "vqa_score", "2025-05")
    assert new == ref["Overall"]
    assert vqa.grade(frame, benchmark="textvqa", variant="2025-09").report["Overall"][0] == new
    with pytest.raises(ValueError, match="variant"):
        vqa.grade(frame, benchmark="textvqa", variant="1999")


# --------------------------------------------------------------------------------------
# Rules on the reference's edge cases
# --------------------------------------------------------------------------------------

PROCESS = [
    ("The Two dogs.", "2 dogs"),
    ("  dont\tknow\n", "don't know"),
    ("Im here", "im here"),  # the table's capitalised keys never match lowercased words
    ("1,000 (approx)", "1000 approx"),  # a digit comma anywhere removes every mark
    ("x-y", "x y"),
    ("x - y", "x y"),
    ("a-b", "b"),  # becomes "a b"; the article goes
    ("3.5.", "3.5"),
    ("none of them", "0 of them"),
    ("Ten", "10"),
    ("e.g. U.S.A.", "eg usa"),
    ("café\u00a0au lait", "café au lait"),
    ("\u0130STANBUL", "i\u0307stanbul"),
    ("yall'd've", "y'all'd've"),
    ("it's", "it's"),
]


@pytest.mark.parametrize(("text", "want"), PROCESS)
def test_process_answer(text, want):
    assert vqa.process_answer(text) == twin.process_answer(text) == want


def test_process_answer_period_variants():
    many = ". " * 40 + "end."
    assert vqa.process_answer(many) == twin.process_answer(many) == ". " * 8 + "end."
    assert vqa.process_answer("7.", "classic") == "7"
    assert vqa.process_answer("7.", "2025-05") == twin.process_answer("7.", "2025-05") == "7."


RELAXED = [
    ("100", "104", True, "number_close"),
    ("100", "106", False, "number_far"),
    ("50%", "0.51", True, "number_close"),
    ("50%%", "0.5", True, "number_close"),  # rstrip('%') takes every trailing %
    ("0", "0.0", False, "text_differ"),  # a zero target is compared as text
    ("0", "0", True, "text_equal"),
    ("Yes", "yes", True, "text_equal"),
    ("nan", "nan", False, "number_far"),  # NaN is truthy, every comparison with it False
    ("inf", "inf", False, "number_far"),
    ("1_000", "1000", True, "number_close"),
    (" 12 ", "12", True, "number_close"),  # float() strips whitespace
    ("\u0661\u0662", "12", True, "number_close"),  # Unicode digits
    ("1e400", "inf", False, "number_far"),
]


@pytest.mark.parametrize(("target", "prediction", "ok", "rule"), RELAXED)
def test_relaxed_correctness(target, prediction, ok, rule):
    assert vqa.relaxed_correctness(target, prediction) == twin.relaxed_correctness(target, prediction) == (ok, rule)


def test_chartqa_argument_order():
    # classic divides by the prediction: |100 - 95| / 95 > 0.05.
    assert vqa.decide("95", "100", "chartqa", "classic").hit == 0.0
    assert vqa.decide("95", "100", "chartqa", "2025-05").hit == 0.0
    assert vqa.decide("95", "100", "chartqa", "2025-09").hit == 1.0
    assert vqa.decide("105", "100", "chartqa", "classic").hit == 1.0
    # A prediction of 0 is compared as text in classic, as a number against the answer later.
    assert vqa.decide("0", "0.001", "chartqa", "classic").rule == "text_differ"
    assert vqa.decide("0", "0.001", "chartqa", "2025-09").rule == "number_far"


ANLS = [
    ("Hello", "hello", 0.0),
    ("abcd", "abce", 0.25),
    ("a  b", "a b", 0.0),  # whitespace collapses before the distance, not in the length
    ("straße", "STRASSE", 2 / 7),  # the length is that of the uppercased text (7, not 6)
    ("", "", 0.0),
    ("", "abc", 1.0),
]


@pytest.mark.parametrize(("gt", "pred", "want"), ANLS)
def test_anls_compute(gt, pred, want):
    assert vqa.anls_compute(gt, pred) == twin.anls_compute(gt, pred) == want


def test_anls_threshold_and_best_answer():
    d = vqa.decide("abce", "['abcd', 'xyz']", "docvqa")
    assert (d.hit, d.rule, d.matched) == (0.75, "anls", 1)
    assert vqa.decide("ab", "abcd", "infovqa").hit == 0.5  # 1 - 0.5 is not under 0.5
    d = vqa.decide("a", "abcd", "docvqa")
    assert (d.hit, d.rule) == (0.0, "anls_below")


def test_upper_length_every_code_point():
    """ANLS divides by ``len(s.upper())``: the native table against CPython, every code point."""
    cps = [cp for cp in range(0x110000) if not 0xD800 <= cp < 0xE000]
    long = [cp for cp in cps if len(chr(cp).upper()) != 1]
    assert len(long) == 102
    for cp in long + random.Random(0).sample(cps, 3000):
        c = chr(cp)
        assert vqa.anls_compute("", c) == twin.anls_compute("", c), hex(cp)


def test_answer_lists():
    assert vqa.parse_answers("['a', \"b'c\"]") == ["a", "b'c"]
    assert _native.vqa_parse_answers("['a', \"b'c\"]")[0] == "list"
    assert vqa.parse_answers("[2014, 2016]") == [2014, 2016]  # Python's literal parser
    assert _native.vqa_parse_answers("[2014, 2016]")[0] == "undecided"
    assert vqa.parse_answers("[Gambia, Niger]") == ["[Gambia, Niger]"]  # eval raises: one answer
    assert vqa.parse_answers("plain") == ["plain"]
    assert vqa.parse_answers("('a', 'b')") == ["('a', 'b')"]  # a tuple is no list
    assert vqa.parse_answers("['\\N{BULLET}']") == ["\u2022"]
    # A number list: str() of each for ChartQA; the string methods raise upstream.
    assert vqa.decide("2016", "[2014, 2016]", "chartqa").hit == 1.0
    d = vqa.decide("2016", "[2014, 2016]", "ocrvqa")
    assert (d.hit, d.status) == (None, "reference_error") and "AttributeError" in d.reason
    with pytest.raises(AttributeError):
        twin.score_row("2016", "[2014, 2016]", "accuracy")
    # bytes.strip().lower() works upstream and never equals the text: no match, no error.
    for bench, method in (("ocrvqa", "accuracy"), ("gqa", "accuracy_mean")):
        d = vqa.decide("x", "[b'x', 'X ']", bench)
        assert (d.hit, d.status, d.matched) == (twin.hit_of(twin.score_row("x", "[b'x', 'X ']", method), method), "ok", 1)
    assert vqa.decide("x", "[b'x', 'X ']", "gqa").hit == 0.5
    assert vqa.decide("x", "[b'x']", "textvqa").status == "reference_error"


def test_vqa_accuracy_counts_other_answers():
    answers = str(["x"] * 8 + ["y", "y"])
    d = vqa.decide("y", answers, "textvqa")
    ret = twin.score_row("y", answers, "vqa_score")
    assert ret["match"] == [2 / 3] * 8 + [1 / 3] * 2
    assert d.hit == twin.hit_of(ret, "vqa_score") and d.matched == 2
    assert vqa.decide("x", answers, "textvqa").hit == twin.np_mean([1.0] * 8 + [1.0, 1.0])


def test_empty_answer_list():
    d = vqa.decide("a", "[]", "textvqa")
    assert math.isnan(d.hit) and d.status == "no_answers"
    for bench in ("chartqa", "ocrvqa", "docvqa"):
        d = vqa.decide("a", "[]", bench)
        assert d.hit is None and d.status == "reference_error"
    frame = pl.DataFrame({"prediction": ["a", "b"], "answer": ["[]", "b"]})
    r = vqa.grade(frame, benchmark="chartqa")
    assert r.report["Overall"].to_list() == [None] and "row 0" in r.stats["reference_error"]
    r = vqa.grade(frame, benchmark="textvqa")
    assert math.isnan(r.report["Overall"][0]) and r.stats["reference_error"] is None


def test_pandas_na_and_nulls():
    frame = pl.DataFrame({"prediction": ["None", None, "N/A"], "answer": ["nan", "nan", "NA"], "category": ["x", "x", "y"]})
    r = vqa.grade(frame, benchmark="ocrvqa")
    assert r.rows["extracted"].to_list() == ["nan", "nan", "nan"] and r.rows["score"].to_list() == [1.0, 1.0, 1.0]
    assert vqa.grade(frame, benchmark="ocrvqa", pandas_na=False).rows["score"].to_list() == [0.0, 1.0, 0.0]
    frame = pl.DataFrame({"prediction": ["a"], "answer": ["a"], "category": [None]}, schema_overrides={"category": pl.String})
    r = vqa.grade(frame, benchmark="ocrvqa")
    assert "TypeError" in r.stats["reference_error"] and r.report["Overall"].to_list() == [None]


def test_report_layout():
    frame = pl.DataFrame(
        {"prediction": ["1", "2", "3", "4"], "answer": ["1", "2", "0", "4"], "split": ["b", "a", "b", "b"]}
    )
    r = vqa.grade(frame, benchmark="chartqa")
    assert r.report.columns == ["a", "b", "Overall"]
    assert r.report.row(0) == (100.0, (2 / 3) * 100, 0.75 * 100)
    frame = frame.rename({"split": "category"})
    r = vqa.grade(frame, benchmark="ocrvqa")
    assert r.report.columns == ["Overall", "a", "b"]


def test_np_mean_is_numpy():
    np = pytest.importorskip("numpy")
    rng = random.Random(3)
    for n in (0, 1, 7, 8, 9, 127, 128, 129, 1000, 5000, 20011):
        values = [rng.random() / 3 for _ in range(n)]
        want = float(np.mean(np.array(values))) if n else math.nan
        got = vqa.np_mean(values)
        assert (math.isnan(got) and math.isnan(want)) or got == want == twin.np_mean(values), n


def test_bad_input():
    with pytest.raises(ValueError, match="no 'answer' column"):
        vqa.grade(pl.DataFrame({"prediction": ["a"]}), benchmark="textvqa")
    with pytest.raises(ValueError, match="unknown open-VQA benchmark"):
        vqa.grade(pl.DataFrame({"prediction": ["a"], "answer": ["a"]}), benchmark="vqa")
    with pytest.raises(ValueError, match="no judge"):
        vqa.grade(pl.DataFrame({"prediction": ["a"], "answer": ["a"]}), benchmark="textvqa", judge=lambda p: p)


# --------------------------------------------------------------------------------------
# Twin parity on arbitrary text
# --------------------------------------------------------------------------------------

_ALPHA = st.sampled_from(list("aAnt e.,-/()[]'\"%0123456789\n\t\u00a0\u1680\u2028\x1c\u0661\u0130\u03a3ß_!?;:") + ["the ", "dont ", "one ", "1,0", "3.5.", "an "])
# Arbitrary Unicode, lone surrogates included, and texts dense in what the rules look at.
TEXT_UTF8 = st.one_of(st.text(), st.lists(_ALPHA, max_size=25).map("".join))
TEXT = st.one_of(TEXT_UTF8, st.text(st.characters(exclude_categories=())))
VARIANT = st.sampled_from(twin.VARIANTS)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(TEXT, VARIANT)
@example("\ud800 a.b", "classic")
def test_process_answer_parity(text, variant):
    assert vqa.process_answer(text, variant) == twin.process_answer(text, variant)


@SETTINGS
@given(TEXT, TEXT)
@example("\ud800", "\ud800")
def test_relaxed_and_anls_parity(a, b):
    assert vqa.relaxed_correctness(a, b) == twin.relaxed_correctness(a, b)
    assert vqa.anls_compute(a, b) == twin.anls_compute(a, b)


@SETTINGS
@given(st.lists(TEXT, max_size=6), st.sampled_from(["", " ", "\t"]), st.booleans())
def test_answer_list_parity(items, pad, trailing_comma):
    cell = pad + repr(items)
    if trailing_comma and items:
        cell = cell[:-1] + ",]"
    assert vqa.parse_answers(cell) == twin.parse_answers(cell) == items


@SETTINGS
@given(TEXT)
@example("['\ud800']")
@example("[2014, 2016]")
@example("[Gambia, Niger]")
@example(" ['a' 'b']")
@example("['\\N{BULLET}', r'\\d', b'x']")
@example("[\n'a',\n# c\n'b']")
def test_any_answer_cell_parity(cell):
    assert vqa.parse_answers(cell) == twin.parse_answers(cell)


@SETTINGS
@given(TEXT, st.one_of(TEXT, st.lists(TEXT, max_size=12).map(repr)), st.sampled_from(sorted(vqa.BENCHMARKS)), VARIANT)
@example("1", "[1, b'1', '1']", "chartqa", "classic")
@example("1", "[b'1', '1']", "docvqa", "classic")
@example("1", "[['1']]", "ocrvqa", "classic")
@example("", "[]", "gqa", "classic")
def test_row_parity(prediction, answer, bench, variant):
    method = vqa.BENCHMARKS[bench]
    d = vqa.decide(prediction, answer, bench, variant)
    try:
        want = twin.hit_of(twin.score_row(prediction, answer, method, variant), method)
    except (ValueError, AttributeError, TypeError):
        assert d.status == "reference_error" and d.hit is None
        return
    assert (math.isnan(d.hit) and math.isnan(want)) or d.hit == want


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(TEXT_UTF8, st.lists(TEXT_UTF8, min_size=1, max_size=4), st.sampled_from(["a", "b"])), min_size=1, max_size=20), VARIANT)
def test_batch_parity(rows, variant):
    # Columns are Arrow/Polars text (UTF-8): lone surrogates reach only the scalar functions.
    frame = pl.DataFrame(
        {"prediction": [r[0] for r in rows], "answer": [repr(r[1]) for r in rows], "split": [r[2] for r in rows]}
    )
    for bench in ("textvqa", "chartqa", "docvqa"):
        got = vqa.grade(frame, benchmark=bench, variant=variant, pandas_na=False).report.row(0, named=True)
        want = twin.evaluate(frame["prediction"].to_list(), frame["answer"].to_list(), vqa.BENCHMARKS[bench], variant, split=frame["split"].to_list())
        assert got == want


# --------------------------------------------------------------------------------------
# CLI and registry
# --------------------------------------------------------------------------------------


def test_cli_tree_reports_equal(tmp_path, monkeypatch):
    root = tmp_path / "outputs" / "vila_8b"
    root.mkdir(parents=True)
    for dataset in DATASETS:
        for suffix in (".xlsx", "_acc.csv"):
            shutil.copy(TREE / f"vila_8b_{dataset}{suffix}", root)
    monkeypatch.chdir(tmp_path)
    reports = tmp_path / "reports"
    r = CliRunner().invoke(main, ["grade", str(tmp_path / "outputs"), "--json", "--report-dir", str(reports)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    archives = {a["dataset"]: a for a in json.loads(r.stdout)["archives"]}
    assert set(archives) == set(DATASETS)
    for dataset, bench in DATASETS.items():
        a = archives[dataset]
        assert (a["benchmark"], a["status"], a["variant"]) == (bench, "ok", "classic")
        assert Path(a["report"]) == reports / "vila_8b" / f"vila_8b_{dataset}_acc.csv"
        _assert_report_equal(_acc_csv(Path(a["report"])), _acc_csv(TREE / f"vila_8b_{dataset}_acc.csv"))


@pytest.mark.parametrize("dataset", list(DATASETS))
def test_cli_one_file_auto(dataset, tmp_path, monkeypatch):
    rows = grade_one_file(TREE / f"vila_8b_{dataset}.xlsx", tmp_path, monkeypatch)
    _assert_report_equal(_acc_csv(tmp_path / f"vila_8b_{dataset}_acc.csv"), _acc_csv(TREE / f"vila_8b_{dataset}_acc.csv"))
    assert {"prediction", "extracted", "rule", "score", "matched", "status", "reason"} <= set(rows.columns)
    assert rows.height == read_result_table(TREE / f"vila_8b_{dataset}.xlsx").height


@pytest.mark.parametrize(
    ("name", "bench"),
    [
        ("vila_8b_ChartQA_TEST.xlsx", "chartqa"),
        ("m_TextVQA_VAL.tsv", "textvqa"),
        ("x_y_OCRVQA_TESTCORE.xlsx", "ocrvqa"),
        ("m_OCRVQA_TEST.xlsx", "ocrvqa"),
        ("m_DocVQA_VAL.xlsx", "docvqa"),
        ("m_InfoVQA_TEST.xlsx", "infovqa"),
        ("m_GQA_TestDev_Balanced.xlsx", "gqa"),
    ],
)
def test_registry_detects(name, bench):
    d = benchmarks.detect(name)
    assert d is not None and d.benchmark.name == bench and d.benchmark.report == "_acc.csv"
    assert benchmarks.unsupported(name) is None


def test_variant_as_of():
    """--as-of picks the variant from the registry's date table."""
    for name in ("textvqa", "chartqa", "ocrvqa", "docvqa", "infovqa", "gqa"):
        entry = benchmarks.get(name)
        assert {v for _, v in entry.variants} == set(vqa.VARIANTS) == set(twin.VARIANTS)
        assert entry.variant_on("2025-05-13") == entry.variant_on("2025-08-31") == "2025-05"
        assert entry.variant_on("2025-09-01") == entry.variant_on("2026-08-18") == "2025-09"
    assert benchmarks.variant_on("textvqa", "2024-07-27") == benchmarks.variant_on("chartqa", "2024-07-27") == "classic"
    assert benchmarks.variant_on("chartqa", "2025-05-12") == "classic"
    with pytest.raises(ValueError, match="before 2024-09-03"):
        benchmarks.variant_on("gqa", "2024-07-27")


def test_cli_as_of_picks_each_files_variant(tmp_path, monkeypatch):
    root = tmp_path / "vila_8b"
    root.mkdir()
    for dataset in DATASETS:
        shutil.copy(TREE / f"vila_8b_{dataset}.xlsx", root)
    monkeypatch.chdir(tmp_path)
    for day, variant in (("2024-07-27", "classic"), ("2025-06-01", "2025-05"), ("2025-09-01", "2025-09")):
        reports = tmp_path / f"rep-{day}"
        r = CliRunner().invoke(main, ["grade", str(root), "--as-of", day, "--json", "--report-dir", str(reports)], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        archives = json.loads(r.stdout)["archives"]
        assert {a["dataset"]: a["variant"] for a in archives} == dict.fromkeys(DATASETS, variant)
        textvqa = _acc_csv(reports / "vila_8b" / "vila_8b_TextVQA_VAL_acc.csv")
        same = float(textvqa["Overall"]) == float(_acc_csv(TREE / "vila_8b_TextVQA_VAL_acc.csv")["Overall"])
        assert same == (variant == "classic")
