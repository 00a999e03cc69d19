"""Inspect evaluation logs (``.eval`` and JSON) of GAIA runs, read with and without inspect_ai.

The logs in tests/data/inspect_logs/ were written by inspect_ai itself with made-up tasks
(``make_logs.py`` there); the expected rows below are those tasks.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import gaia_fast as gf
import polars as pl
import pytest
from gaia_fast.io import InputError
from gaia_fast.io import inspect_logs as il

DATA = Path(__file__).parent / "data" / "inspect_logs"
EVAL = DATA / "gaia_made_up.eval"
DEFLATE = DATA / "gaia_made_up_deflate.eval"
JSON = DATA / "gaia_made_up.json"
T = "0a1b2c3d-0000-4000-8000-00000000000"  # + 1..5

COLUMNS = [
    "task_id", "prediction", "truth", "level", "input_status", "input_reason",
    "epoch", "framework_verdict", "framework_score", "framework_scorer", "framework_error", "model",
]  # fmt: skip

#: (task, epoch) -> (prediction, truth, level, verdict) of the made-up run.
EXPECTED = {
    (1, 1): ("17", "17", 1, True),
    (2, 1): ("ama, ilo", "Ilo, Ama", 2, False),
    (3, 1): ("FINAL ANSWER: teal", "teal", 1, False),
    (4, 1): (None, "4,096", 3, None),
    (5, 1): ("Sarn river", "Sarn River", 2, True),
    (1, 2): ("17", "17", 1, True),
    (2, 2): ("Ilo, Ama", "Ilo, Ama", 2, True),
    (3, 2): ("Teal", "teal", 1, True),
    (4, 2): (None, "4,096", 3, None),
    (5, 2): ("the Sarn", "Sarn River", 2, False),
}

inspect_ai = pytest.importorskip("inspect_ai")


def read(path, **kw) -> pl.DataFrame:
    frame, layout = il.read_inspect_log(path, **kw)
    assert layout == il.INSPECT_LAYOUT
    return frame


def check_made_up(frame: pl.DataFrame, epochs: int) -> None:
    assert frame.columns == COLUMNS
    want = [(t, e) for e in range(1, epochs + 1) for t in range(1, 6)]  # Inspect's order
    assert frame.height == len(want)
    for row, (t, e) in zip(frame.iter_rows(named=True), want):
        pred, truth, level, verdict = EXPECTED[(t, e)]
        assert (row["task_id"], row["epoch"]) == (f"{T}{t}", e)
        assert (row["prediction"], row["truth"], row["level"], row["framework_verdict"]) == (pred, truth, level, verdict), row
        assert row["input_status"] is None and row["model"] == "mockllm/model"
        if t == 4:  # the task whose solver raised: no score, its error kept
            assert row["framework_score"] is None and row["framework_scorer"] is None
            assert "made-up tool failure" in row["framework_error"]
        else:
            assert row["framework_score"] == ("C" if verdict else "I")
            assert row["framework_scorer"] == "gaia_scorer" and row["framework_error"] is None


@pytest.mark.parametrize("path", [EVAL, DEFLATE], ids=["zstd", "deflate"])
@pytest.mark.parametrize("use_inspect_ai", [True, False], ids=["inspect_ai", "stdlib"])
def test_eval_log(path: Path, use_inspect_ai: bool) -> None:
    check_made_up(read(path, use_inspect_ai=use_inspect_ai), epochs=2)


@pytest.mark.parametrize("use_inspect_ai", [True, False], ids=["inspect_ai", "stdlib"])
def test_json_log_prefers_gaia_scorer(use_inspect_ai: bool) -> None:
    # match() is the first scorer in this log; the verdict is still gaia_scorer's.
    doc = json.loads(JSON.read_text())
    assert list(doc["samples"][0]["scores"]) == ["match", "gaia_scorer"]
    frame = read(JSON, use_inspect_ai=use_inspect_ai)
    check_made_up(frame, epochs=1)
    by_id = {s["id"]: s for s in doc["samples"]}
    for row in frame.iter_rows(named=True):
        scores = by_id[row["task_id"]]["scores"]
        assert row["framework_score"] == (scores["gaia_scorer"]["value"] if scores else None)


@pytest.mark.parametrize("path", [EVAL, DEFLATE, JSON], ids=["zstd", "deflate", "json"])
def test_both_readers_give_the_same_frame(path: Path) -> None:
    a = read(path, use_inspect_ai=True)
    b = read(path, use_inspect_ai=False)
    assert a.equals(b)
    assert read(path).equals(a)  # the default uses inspect_ai when it is installed


def test_verdict_is_the_official_rule_on_these_rows() -> None:
    # inspect_evals' gaia_scorer copies the leaderboard's question_scorer: where it gave a
    # verdict, gaia-fast's drop-in gives the same one.
    frame = read(EVAL).filter(pl.col("framework_verdict").is_not_null())
    assert frame.height == 8
    for row in frame.iter_rows(named=True):
        assert gf.question_scorer(row["prediction"], row["truth"]) == row["framework_verdict"], row


def test_without_inspect_ai_in_a_fresh_process(tmp_path: Path) -> None:
    # A process where inspect_ai and zipfile_zstd cannot be imported (so zipfile is not
    # taught zstd): deflate and JSON logs through the standard library, the zstd log
    # through the zstandard package.
    script = textwrap.dedent(
        f"""
        import sys
        sys.modules["inspect_ai"] = None
        sys.modules["zipfile_zstd"] = None
        from gaia_fast.io import inspect_logs as il
        assert il._inspect_ai_reader() is None
        for name, path in (("zstd", {str(EVAL)!r}), ("deflate", {str(DEFLATE)!r}), ("json", {str(JSON)!r})):
            frame, _ = il.read_inspect_log(path)
            frame.write_parquet({str(tmp_path)!r} + "/" + name + ".parquet")
        assert "inspect_ai" not in sys.modules or sys.modules["inspect_ai"] is None
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    for name, path in (("zstd", EVAL), ("deflate", DEFLATE), ("json", JSON)):
        assert pl.read_parquet(tmp_path / f"{name}.parquet").equals(read(path, use_inspect_ai=True)), name


def _no_zstd(monkeypatch: pytest.MonkeyPatch, zstandard: bool) -> None:
    # zipfile as Python < 3.14 has it without zipfile_zstd (which, once imported, has
    # patched it for the whole process).
    monkeypatch.setattr(il, "_zipfile_reads_zstd", lambda: False)
    if not zstandard:
        monkeypatch.setitem(sys.modules, "zstandard", None)


def test_zstd_through_zstandard(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("zstandard")
    _no_zstd(monkeypatch, zstandard=True)
    check_made_up(read(EVAL, use_inspect_ai=False), epochs=2)


def test_zstd_without_a_decoder_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_zstd(monkeypatch, zstandard=False)
    with pytest.raises(InputError, match=r"zstd-compressed .*install inspect-ai") as e:
        read(EVAL, use_inspect_ai=False)
    assert e.value.path == str(EVAL) and e.value.line == "header.json"
    check_made_up(read(DEFLATE, use_inspect_ai=False), epochs=2)  # deflate needs nothing


def test_requiring_inspect_ai_when_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "inspect_ai", None)
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)
    with pytest.raises(InputError, match="inspect_ai is not installed"):
        read(JSON, use_inspect_ai=True)
    check_made_up(read(JSON), epochs=1)  # the default falls back


def test_is_inspect_log(tmp_path: Path) -> None:
    assert il.is_inspect_log(EVAL) and il.is_inspect_log(DEFLATE) and il.is_inspect_log(JSON)
    plain = tmp_path / "results.json"
    plain.write_text(json.dumps([{"task_id": "a", "prediction": "1"}]))
    other_zip = tmp_path / "x.eval"
    with zipfile.ZipFile(other_zip, "w") as z:
        z.writestr("answers.json", "{}")
    assert not il.is_inspect_log(plain)
    assert not il.is_inspect_log(other_zip)
    assert not il.is_inspect_log(tmp_path / "missing.eval")


def _rezip(src: Path, dst: Path, replace: dict[str, bytes], extra: list[tuple[str, bytes]] = ()) -> None:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, replace.get(info.filename, zin.read(info)))
        for name, data in extra:
            zout.writestr(name, data)


def test_bad_sample_entry_names_the_entry(tmp_path: Path) -> None:
    bad = f"samples/{T}3_epoch_2.json"
    path = tmp_path / "bad.eval"
    _rezip(DEFLATE, path, {bad: b'{"id": "x", '})
    with pytest.raises(InputError) as e:
        read(path, use_inspect_ai=False)
    assert e.value.line == bad and "invalid JSON" in e.value.message and e.value.path == str(path)
    skipped: list = []
    frame, _ = il.read_inspect_log(path, skip_bad_lines=True, skipped=skipped, use_inspect_ai=False)
    assert frame.height == 9 and [s.line for s in skipped] == [bad]
    assert (f"{T}3", 2) not in set(zip(frame["task_id"], frame["epoch"]))


def test_relogged_sample_the_last_entry_counts(tmp_path: Path) -> None:
    name = f"samples/{T}5_epoch_2.json"
    with zipfile.ZipFile(DEFLATE) as z:
        sample = json.loads(z.read(name))
    sample["scores"]["gaia_scorer"].update(value="C", answer="Sarn River")
    path = tmp_path / "relogged.eval"
    with pytest.warns(UserWarning, match="Duplicate name"):
        _rezip(DEFLATE, path, {}, extra=[(name, json.dumps(sample).encode())])
    for use in (True, False):
        frame = read(path, use_inspect_ai=use)
        row = frame.filter((pl.col("task_id") == f"{T}5") & (pl.col("epoch") == 2)).row(0, named=True)
        assert frame.height == 10 and (row["prediction"], row["framework_verdict"]) == ("Sarn River", True)


def test_json_log_shapes(tmp_path: Path) -> None:
    doc = json.loads(JSON.read_text())
    s = doc["samples"]
    s[0]["id"] = 7  # integer ids: text, ordered as Inspect orders them (zero-filled)
    s[1]["target"] = ["Ilo", ", Ama"]  # a list target: Target.text joins it
    s[2]["target"] = 12  # not text: bad_type, nothing else lost
    s[3]["metadata"] = {}
    s[4]["scores"] = {"match": {"value": 0.5, "answer": "x"}}  # partial credit: no verdict
    path = tmp_path / "shapes.json"
    path.write_text(json.dumps(doc))
    frame = read(path, use_inspect_ai=False)
    rows = {r["task_id"]: r for r in frame.iter_rows(named=True)}
    assert frame["task_id"].to_list()[0] == "7" and rows["7"]["prediction"] == "17"
    assert rows[f"{T}2"]["truth"] == "Ilo, Ama"
    assert rows[f"{T}3"]["truth"] is None and rows[f"{T}3"]["input_status"] == "bad_type"
    assert "'target'" in rows[f"{T}3"]["input_reason"]
    assert rows[f"{T}4"]["level"] is None
    r5 = rows[f"{T}5"]
    assert (r5["prediction"], r5["framework_verdict"], r5["framework_score"], r5["framework_scorer"]) == ("x", None, "0.5", "match")


def test_not_a_log_and_column_options(tmp_path: Path) -> None:
    plain = tmp_path / "results.json"
    plain.write_text(json.dumps({"results": []}))
    with pytest.raises(InputError, match="not an Inspect JSON log"):
        read(plain, use_inspect_ai=False)
    with pytest.raises(InputError, match="do not apply"):
        il.read_inspect_log(JSON, {"prediction_col": "x", "truth_col": None})
    no_header = tmp_path / "no_header.eval"
    with zipfile.ZipFile(no_header, "w") as z:
        z.writestr("samples/a_epoch_1.json", "{}")
    with pytest.raises(InputError, match="no header.json"):
        read(no_header, use_inspect_ai=False)


def test_unfinished_log_reads_the_journal_header(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # While a run is going, the zip holds _journal/start.json and the samples done so far.
    path = tmp_path / "running.eval"
    with zipfile.ZipFile(DEFLATE) as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            if info.filename in ("header.json", "summaries.json", "reductions.json") or info.filename.endswith("_epoch_2.json"):
                continue
            zout.writestr(info.filename, zin.read(info))
    with caplog.at_level("WARNING", logger="gaia_fast.io"):
        frame = read(path, use_inspect_ai=False)
    assert frame.height == 5 and frame["epoch"].to_list() == [1] * 5
    assert "status is 'started'" in caplog.text and "5 of the 10 (sample, epoch) pairs" in caplog.text


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ("C", True), ("I", False), ("N", False), ("P", None), ("c", None), ("yes", True), ("False", False),
        ("1", True), ("0.0", False), ("0.5", None), ("nan", None), (1, True), (0.0, False), (True, True),
        (False, False), (0.5, None), (2, None), ([1], None), ({"a": 1}, None), (None, None),
    ],
)  # fmt: skip
def test_verdict(value, want) -> None:
    assert il.verdict(value) is want
