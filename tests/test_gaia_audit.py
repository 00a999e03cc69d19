"""Audits of a GAIA grade (issue 21): the question join, truth conflicts, the framework's
own verdict against the official rule, leaked answer templates, the rerun policy. The
samples hold MADE-UP tasks (tests/data/gaia_layouts/)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from gaia_fast.datasets.gaia import load_metadata
from gaia_fast.grading import audit
from gaia_fast.grading.archive import grade_scan
from gaia_fast.io.readers import InputError, scan_archive

DATA = Path(__file__).parent / "data" / "gaia_layouts"
META = load_metadata(DATA / "metadata", "validation")


def grade(path, tmp_path, *, meta=META, **kw):
    cmp = tmp_path / "cmp.csv"
    opts = {"scorer": "gaia", "compare": None, "explain": False, "comparison": cmp, "out": None, "limit": 50, "want_duplicates": True}
    opts.update(kw)
    o = grade_scan(scan_archive(path), meta=meta, **opts)
    return o, pl.read_csv(cmp, infer_schema=False)


def test_question_join_exact_then_normalised_then_the_files_truth(tmp_path):
    o, cmp = grade(DATA / "smolagents_decentralized.jsonl", tmp_path)
    j = o.audit["join"]
    assert (j["on"], j["exact"], j["normalised"], j["unmatched"], j["file_truth_for_unmatched"]) == ("question", 3, 1, 1, True)
    rows = {r["task_id"]: r for r in cmp.iter_rows(named=True)}
    assert rows["mk-0003"]["match"] == "True"  # matched once whitespace was normalised
    assert rows["mk-0005"]["expected_answer"] == "Tamsin" and rows["mk-0005"]["actual_answer"] is None  # no row: missing
    orphan = cmp.filter(pl.col("task_id").is_null())
    assert orphan.rows() == [(None, "0", "7", "7", "True")]  # graded against the truth it carries
    assert (o.summary["correct"], o.summary["tasks"]) == (4, 6)


def test_no_id_and_no_question_grades_against_the_files_truth(tmp_path):
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in [{"answer": "1", "true_answer": "1"}, {"answer": "2", "true_answer": "3"}]) + "\n")
    o, _ = grade(p, tmp_path)
    assert o.audit["join"]["on"] is None and "truth the archive carries" in o.audit["join"]["graded_against"]
    assert (o.summary["correct"], o.summary["tasks"]) == (1, 2)
    p.write_text(json.dumps({"answer": "1"}) + "\n")
    with pytest.raises(InputError, match="no task id and no question"):
        grade(p, tmp_path)


def test_truth_conflicts_are_counted_listed_and_a_side_is_picked(tmp_path):
    o, cmp = grade(DATA / "smolagents_decentralized.jsonl", tmp_path)
    c = o.audit["conflicts"]
    assert c["count"] == 1 and o.differ == 1
    assert c["rows"].rows() == [("mk-0002", "Osory", "Ossory", "Ossory")]
    assert cmp.filter(pl.col("task_id") == "mk-0002").get_column("match").item() == "True"
    o2, cmp2 = grade(DATA / "smolagents_decentralized.jsonl", tmp_path, truth="archive")
    assert o2.audit["conflicts"]["rows"].get_column("graded_against").to_list() == ["Osory"]
    assert cmp2.filter(pl.col("task_id") == "mk-0002").get_column("match").item() == "False"
    assert o2.summary["correct"] == o.summary["correct"] - 1


def test_framework_verdict_agreements_and_each_disagreement_with_its_rule(tmp_path):
    o, _ = grade(DATA / "openhands_output.jsonl", tmp_path)
    v = o.audit["verdict"]
    assert (v["rows"], v["agree"], v["disagree"]) == (4, 3, 1)
    d = v["disagreements"]
    assert d.select("task_id", "prediction", "truth", "framework", "official").rows() == [("mk-0004", "150.", "150", False, True)]
    assert "number" in d.get_column("reason").item().lower()
    o, _ = grade(DATA / "open_deep_research.jsonl", tmp_path, duplicates="all")
    d = o.audit["verdict"]["disagreements"]
    assert d.select("task_id", "framework", "official").rows() == [("mk-0001", True, False)]  # "42 trees" is not 42


def test_templates_are_counted_shown_and_stripped_on_request(tmp_path):
    o, _ = grade(DATA / "leaderboard_templates.jsonl", tmp_path)
    t = o.audit["templates"]
    assert (t["answer_tag"], t["final_answer"], t["number_period"], t["any"]) == (1, 2, 1, 4)
    assert t["rows"].select("task_id", "stripped").rows() == [
        ("mk-0001", "42"), ("mk-0002", "Ossory"), ("mk-0003", "amberleaf, zest-root"), ("mk-0004", "150")
    ]
    assert o.summary["correct"] == 2 and "correct_stripped" not in t
    o2, cmp2 = grade(DATA / "leaderboard_templates.jsonl", tmp_path, strip_template=True)
    t2 = o2.audit["templates"]
    assert (t2["correct_as_written"], t2["correct_stripped"], o2.summary["correct"]) == (2, 5, 5)
    assert cmp2.get_column("actual_answer").to_list()[:3] == ["42", "Ossory", "amberleaf, zest-root"]


def test_any_template_count_is_the_rows_with_some_kind():
    # template_any is one pattern of the three as alternatives: each keeps its own flags
    # (case, dot matching newlines) and anchors, so a row counts exactly when one kind does.
    answers = [
        "<answer>\nx\n</answer>", "<ANSWER>x</Answer>", "<answer>x", "FINAL ANSWER: 7", "final  answer :x", "finalanswer: x",
        "the final answer: y", "afinal answer: z", "42.", " $1,000.5%. \n", "text\n42.", "42.\nmore", "42", "-3.", "<answer>\n</answer> 42.",
        "ﬁnal answer: 1", "Final\nanswer: 2", "", None,
    ]
    df = pl.DataFrame({"p": answers}, schema={"p": pl.String})
    p = pl.col("p")
    flags = audit.template_flags(p)
    per_row = df.select(pl.any_horizontal(list(flags.values()))).to_series().to_list()
    counts = df.select(audit.template_counts(p)).row(0, named=True)
    assert counts["template_any"] == sum(per_row) == 10
    for i, a in enumerate(answers):  # row by row, so an answer counted for the wrong reason shows
        one = df.slice(i, 1).select(audit.template_counts(p)).row(0, named=True)
        assert one["template_any"] == per_row[i], a


def test_strip_template_leaves_plain_answers_alone():
    s = pl.Series(["Paris", "3.5", "final answer: x", "a. b.", "FINAL ANSWER:  12.\n", "<answer> q </answer> tail", None])
    got = pl.select(audit.strip_template(pl.lit(s))).to_series().to_list()
    assert got == ["Paris", "3.5", "x", "a. b.", "12", "q", None]


@pytest.mark.parametrize(
    "policy, kept, correct", [("last", 4, 2), ("first", 4, 1), ("any-correct", 4, 2), ("all", 5, 2)]
)
def test_rerun_policies(tmp_path, policy, kept, correct):
    o, cmp = grade(DATA / "open_deep_research.jsonl", tmp_path, duplicates=policy)
    assert o.input_rows == kept and o.summary["correct"] == correct
    assert o.duplicates == 1 and o.duplicate_examples == ["mk-0003"]
    assert o.audit["duplicates"] == {"policy": policy, "task_ids": 1, "rows_not_graded": 5 - kept}
    assert cmp.filter(pl.col("task_id") == "mk-0003").height == (2 if policy == "all" else 1)


def test_any_correct_keeps_the_correct_rerun_wherever_it_is(tmp_path):
    rows = [
        {"task_id": "mk-0001", "prediction": "41", "true_answer": "42"},
        {"task_id": "mk-0001", "prediction": "42", "true_answer": "42"},
        {"task_id": "mk-0001", "prediction": "40", "true_answer": "42"},
    ]
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    _, cmp = grade(p, tmp_path, meta=None, duplicates="any-correct")
    assert cmp.rows() == [("mk-0001", "0", "42", "42", "True")]
    _, cmp = grade(p, tmp_path, meta=None, duplicates="last")
    assert cmp.rows() == [("mk-0001", "0", "42", "40", "False")]


def test_audits_change_no_byte_of_the_outputs(tmp_path):
    # The same archive with and without a verdict and a template-looking answer: the
    # comparison and --out are byte-identical (the audit columns are hidden).
    base = [{"task_id": f"t{i}", "prediction": p, "true_answer": "42"} for i, p in enumerate(["42", "FINAL ANSWER: 42", "41"])]
    with_verdict = [{**r, "is_correct": i == 1} for i, r in enumerate(base)]
    outs = []
    for name, rows in (("a.jsonl", base), ("b.jsonl", with_verdict)):
        d = tmp_path / name[0]
        d.mkdir()
        p = d / name
        p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
        cmp = d / "cmp.csv"
        out = d / "out.csv"
        o = grade_scan(scan_archive(p), meta=None, scorer="gaia", compare=None, explain=False, comparison=cmp, out=out, limit=5, want_duplicates=True)
        outs.append((cmp.read_bytes(), pl.read_csv(out).drop("is_correct", strict=False).write_csv().encode(), o))
    assert outs[0][0] == outs[1][0] and outs[0][1] == outs[1][1]
    assert outs[1][2].audit["verdict"]["disagree"] == 2 and outs[0][2].audit["templates"]["final_answer"] == 1
    assert not any(c.startswith("__gaia_fast") for c in pl.read_csv(tmp_path / "b" / "out.csv").columns)


# --------------------------------------------------------------------------- the command


def cli(*args, cwd: Path):
    import os

    from click.testing import CliRunner
    from gaia_fast.cli import main

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, ["grade", *map(str, args)], catch_exceptions=False)
    finally:
        os.chdir(old)


def test_command_reads_a_tape_folder_and_prints_the_audits(tmp_path):
    r = cli(DATA / "tapeagents_tapes", "--metadata", DATA / "metadata", "--json", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert (s["layout"], s["input_rows"], s["correct"], s["tasks"]) == ("tapeagents-tape", 3, 2, 5)
    r = cli(DATA / "smolagents_decentralized.jsonl", "--metadata", DATA / "metadata", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert "joined on the question text: 3 exact, 1 with whitespace normalised, 1 unmatched" in r.stdout
    assert "1 truth conflict(s)" in r.stdout and "Osory" in r.stdout
    assert "1 row(s) carry a truth that differs from the metadata's; the metadata's is used" in r.stderr
    r = cli(DATA / "openhands_output.jsonl", "--metadata", DATA / "metadata", cwd=tmp_path)
    assert "Framework verdict vs the official rule: 3 agree, 1 disagree" in r.stdout and "150 == 150" in r.stdout


def test_command_truth_side_and_strip_template(tmp_path):
    a = json.loads(cli(DATA / "smolagents_decentralized.jsonl", "--metadata", DATA / "metadata", "--json", cwd=tmp_path).stdout)
    b = json.loads(cli(DATA / "smolagents_decentralized.jsonl", "--metadata", DATA / "metadata", "--truth", "archive", "--json", cwd=tmp_path).stdout)
    assert b["correct"] == a["correct"] - 1 and b["audit"]["conflicts"]["rows"][0]["graded_against"] == "Osory"
    r = cli(DATA / "leaderboard_templates.jsonl", "--metadata", DATA / "metadata", cwd=tmp_path)
    assert "Answers still carrying a template: 4" in r.stdout and "--strip-template grades them" in r.stdout
    r = cli(DATA / "leaderboard_templates.jsonl", "--metadata", DATA / "metadata", "--strip-template", "--json", cwd=tmp_path)
    s = json.loads(r.stdout)
    assert s["correct"] == 5 and (s["audit"]["templates"]["correct_as_written"], s["audit"]["templates"]["correct_stripped"]) == (2, 5)


def test_reruns_without_task_ids_are_rows_of_one_question(tmp_path):
    rows = [
        {"question": "q1", "answer": "1", "true_answer": "2"},
        {"question": "q2", "answer": "5", "true_answer": "5"},
        {"question": "q1", "answer": "2", "true_answer": "2"},
        {"question": "q1", "answer": "3", "true_answer": "2"},
    ]
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    got = {}
    for policy in ("last", "first", "any-correct", "all"):
        o, _ = grade(p, tmp_path, meta=None, duplicates=policy)
        got[policy] = (o.input_rows, o.summary["correct"], o.audit["duplicates"])
    assert got["all"] == (4, 2, {"policy": "all", "task_ids": 1, "rows_not_graded": 0, "key": "question"})
    assert got["last"] == (2, 1, {"policy": "last", "task_ids": 1, "rows_not_graded": 2, "key": "question"})
    assert got["first"][:2] == (2, 1) and got["any-correct"][:2] == (2, 2)


def test_listing_after_the_pass_reports_skipped_lines_once(tmp_path, monkeypatch):
    from gaia_fast.io import readers

    monkeypatch.setattr(readers, "_BLOCK_BYTES", 64)  # several blocks: the bad line is in a later one
    lines = [json.dumps({"task_id": f"mk-000{i}", "model_answer": "FINAL ANSWER: 42"}) for i in range(1, 5)]
    lines.insert(3, "{not json")
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(lines) + "\n")
    scan = scan_archive(p, skip_bad_lines=True)
    o = grade_scan(scan, meta=META, scorer="gaia", compare=None, explain=False, comparison=tmp_path / "c.csv", out=None, limit=5, want_duplicates=True)
    assert [s.line for s in scan.skipped] == [4]
    assert o.audit["templates"]["any"] == 4 and o.audit["templates"]["rows"].height == 4


def test_the_cheap_template_filter_passes_every_row_a_pattern_matches():
    # The listing filters by maybe_template before the exact patterns: a row the (?i) patterns
    # match through Unicode case folding (the long s in <anſwer>) must pass it, or it would be
    # counted and not listed.
    from gaia_fast.grading import audit

    chars = pl.Series([chr(i) for i in range(0x80, 0x30000) if not 0xD800 <= i < 0xE000])
    folding = {
        letter: chars.filter(chars.str.contains(f"(?i){letter}")).to_list() for letter in "finalanswer"
    }
    texts = ["<answer>42</answer>", "FINAL ANSWER: 42", "Final answer : x", "12.", "<ANSWER>x</ANSWER>"]
    for base in ("<answer>x</answer>", "final answer: x"):
        for i, letter in enumerate(base):
            texts += [base[:i] + c + base[i + 1 :] for c in folding.get(letter, [])]
    assert any("\u017f" in t for t in texts)  # the case this guards
    frame = pl.DataFrame({"p": texts})
    flags = audit.template_flags(pl.col("p"))
    got = frame.select(pl.any_horizontal(list(flags.values())).alias("any"), audit.maybe_template(pl.col("p")).alias("cheap"))
    missed = [t for t, a, c in zip(texts, got["any"], got["cheap"]) if a and not c]
    assert not missed, missed
