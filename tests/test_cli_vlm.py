"""`gaia-fast grade FILE --benchmark ...` end to end: real VLMEvalKit archives reproduce
their recorded numbers through the CLI; reports and row files are written; bad input
fails with the file named."""

from __future__ import annotations

import collections
import http.server
import json
from pathlib import Path

import polars as pl
import pytest
from _local_server import LocalServer
from click.testing import CliRunner

from gaia_fast.cli import main

DATA = Path(__file__).parent / "data"
MMSTAR = DATA / "vlmevalkit_mcq" / "vila_8b_MMStar.xlsx"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["grade", *args])
    return result.exit_code, result.output


def test_mmstar_archive_reproduces_its_acc_file(tmp_path):
    acc, rows = tmp_path / "acc.csv", tmp_path / "rows.parquet"
    code, out = run(str(MMSTAR), "--benchmark", "livexivvqa", "--variant", "classic", "--acc", str(acc), "--out", str(rows))
    assert code == 0, out
    ours = pl.read_csv(acc)
    archive = pl.read_csv(DATA / "vlmevalkit_mcq" / "vila_8b_MMStar_acc.csv")
    assert ours.columns == archive.columns
    for col in archive.columns[1:]:
        assert ours[col][0] == pytest.approx(archive[col][0], abs=1e-12), col
    scored = pl.read_parquet(rows)
    assert scored.height == 1500
    assert {"prediction", "extracted", "score", "status", "reason"} <= set(scored.columns)
    # The archive's own per-row verdicts (hit column of the judge result file).
    recorded = pl.read_excel(DATA / "vlmevalkit_mcq" / "vila_8b_MMStar_openai_result.xlsx", infer_schema_length=0)
    want = dict(zip(recorded["index"].to_list(), (int(float(h)) for h in recorded["hit"].to_list())))
    got = dict(zip(scored["index"].to_list(), (int(s) for s in scored["score"].to_list())))
    assert got == want


def test_mmmu_archive_reproduces_its_overall(tmp_path):
    path = DATA / "vlmevalkit_mcq" / "qwen_chat_MMMU_DEV_VAL.xlsx"
    acc = tmp_path / "acc.csv"
    code, out = run(str(path), "--benchmark", "mmmu", "--acc", str(acc))
    assert code == 0, out
    report = pl.read_csv(acc)
    archive = pl.read_excel(DATA / "vlmevalkit_mcq" / "qwen_chat_MMMU_DEV_VAL_acc.xlsx", sheet_name="field")
    ours, theirs = report.row(0, named=True), archive.row(0, named=True)
    assert [ours[k] for k in ("tot", "match", "hit")] == [theirs[k] for k in ("tot", "match", "hit")] == [1050, 891, 320]
    assert ours["acc"] == pytest.approx(35.91470258136925, abs=1e-12)


def test_json_summary_carries_report_and_fallback_stats(tmp_path):
    code, out = run(str(MMSTAR), "--benchmark", "livexivvqa", "--variant", "classic", "--acc", str(tmp_path / "a.csv"), "--json")
    assert code == 0, out
    payload = json.loads(out)
    assert payload["benchmark"] == "livexivvqa" and payload["rows"] == 1500
    assert payload["report"][0]["Overall"] == pytest.approx(0.4166666666666667)
    assert {"fallback_rate", "accuracy_no_fallback", "expected_accuracy"} <= set(payload["stats"])


def test_same_seed_same_numbers(tmp_path):
    outs = []
    for i in range(2):
        code, out = run(str(MMSTAR), "--benchmark", "vmcbench", "--seed", "7", "--acc", str(tmp_path / f"a{i}.csv"), "--json")
        assert code == 0, out
        outs.append(json.loads(out)["stats"])
    assert outs[0] == outs[1]


def omni3d_file(tmp_path: Path) -> tuple[Path, dict]:
    """A small Omni3DBench result file built from a conformance case with known report."""
    cases = [json.loads(line) for line in (DATA / "omni3d_report.jsonl").open()]
    case = max(cases, key=lambda c: sum(v is not None for v in c["expected"].values()) * 100 + len(c["rows"]))
    path = tmp_path / "model_Omni3DBench.tsv"
    pl.DataFrame(case["rows"], schema={"prediction": pl.String, "answer": pl.String, "answer_type": pl.String}).write_csv(
        path, separator="\t"
    )
    return path, case["expected"]


def test_omni3d_report_through_the_cli(tmp_path):
    path, expected = omni3d_file(tmp_path)
    acc = tmp_path / "acc.csv"
    code, out = run(str(path), "--benchmark", "omni3dbench", "--acc", str(acc))
    assert code == 0, out
    report = pl.read_csv(acc).row(0, named=True)
    assert list(report) == list(expected)
    for key, value in expected.items():
        assert report[key] == (pytest.approx(value) if value is not None else None), key


def test_bad_input_names_the_file(tmp_path):
    bad = tmp_path / "results.tsv"
    bad.write_text("index\tanswer\n1\tA\n")
    code, out = run(str(bad), "--benchmark", "vmcbench")
    assert code != 0
    assert str(bad) in out and "prediction" in out
    code, out = run(str(MMSTAR), "--benchmark", "omni3dbench", "--metadata", str(MMSTAR))
    assert code == 2 and "only apply to GAIA" in out


def _jsonl(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).open(encoding="utf-8")]


def test_physics_dcvlr_through_the_cli(tmp_path):
    """dcvlr needs no judge: every item vector's verdict through a result file and the CLI."""
    items = _jsonl("physics_item.jsonl")
    path = tmp_path / "model_atomic_dataset.jsonl"
    pl.DataFrame(
        {"index": [r["id"] for r in items], "prediction": [r["prediction"] for r in items], "answer": [r["answer"] for r in items]}
    ).write_ndjson(path)
    rows = tmp_path / "rows.parquet"
    code, out = run(str(path), "--benchmark", "atomic", "--variant", "dcvlr", "--acc", str(tmp_path / "acc.csv"), "--out", str(rows))
    assert code == 0, out
    got = pl.read_parquet(rows)["score"].to_list()
    assert got == [float(r["expected_dcvlr_no_judge"]) for r in items]


def test_olympiad_real_outputs_through_the_cli(tmp_path):
    """Real Qwen2-0.5B outputs in a VLMEvalKit-style TSV: both judges' recorded decisions."""
    real = _jsonl("olympiad_realdata_sample.jsonl")
    path = tmp_path / "Qwen2-0.5B_OlympiadBench.tsv"
    pl.DataFrame(
        {
            "index": [str(o["id"]) for o in real],
            "prediction": [o["model_output"] for o in real],
            "source": [o["source"] for o in real],
            "answer_type": [o["answer_type"] for o in real],
            "error": [o["error"] for o in real],
            "final_answer": [o["vlmevalkit_final_answer_cell"] for o in real],
        }
    ).write_csv(path, separator="\t")
    for variant, key in (("openbmb", "expected_openbmb"), ("vlmevalkit", "expected_vlmevalkit")):
        rows = tmp_path / f"{variant}.parquet"
        code, out = run(str(path), "--benchmark", "olympiadbench", "--variant", variant, "--acc", str(tmp_path / "acc.csv"), "--out", str(rows))
        assert code == 0, out
        scored = pl.read_parquet(rows)
        assert scored["extracted"].to_list() == [o["extracted_answer"] for o in real]
        got = [bool(s) for s in scored["score"].fill_null(0).to_list()]
        assert got == [bool(o[key]) for o in real], variant
        reasons = scored["reason"].to_list()
        assert scored["reason"].null_count() == 0 and "" not in reasons
        assert {r.split(":")[0] for r in reasons} <= {"native", "sympy"}, set(reasons)


class _ReplayJudge(http.server.BaseHTTPRequestHandler):
    """Chat-completions endpoint answering each prompt with the archive's recorded verdicts,
    in recorded order."""

    queues: dict[str, collections.deque] = {}
    unexpected: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        queue = self.queues.get(prompt)
        if queue:
            reply = "True" if queue.popleft() else "False"
        else:
            self.unexpected.append(prompt)
            reply = "False"
        data = json.dumps({"choices": [{"message": {"role": "assistant", "content": reply}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def test_physics_real_archive_through_the_cli_with_a_replayed_judge(tmp_path):
    from gaia_fast.reference.vlm_physics import judge_prompt

    real = [r for r in _jsonl("physics_realdata_small.jsonl") if r["model"] == "gpt-4o_output"]
    queues: dict[str, collections.deque] = collections.defaultdict(collections.deque)
    for r in real:
        for e in r["equivalency_results"]:
            if e["llm_result"] is not None:
                queues[judge_prompt(e["expr1"], e["expr2"])].append(bool(e["llm_result"]))
    _ReplayJudge.queues, _ReplayJudge.unexpected = queues, []
    path = tmp_path / "gpt-4o_output.jsonl"
    pl.DataFrame(
        {"prediction": [r["solution"] for r in real], "answer": [r["gt_final_answers"] for r in real]},
        schema={"prediction": pl.String, "answer": pl.List(pl.String)},
    ).write_ndjson(path)
    with LocalServer(_ReplayJudge) as server:
        rows, acc = tmp_path / "rows.parquet", tmp_path / "acc.csv"
        args = ["grade", str(path), "--benchmark", "atomic", "--variant", "yale", "--no-judge-cache", "--acc", str(acc), "--out", str(rows)]
        args += ["--judge-model", "replay", "--judge-base-url", f"{server.url}/v1"]
        result = CliRunner().invoke(main, args, env={"OPENAI_API_KEY": "test"})
    assert result.exit_code == 0, result.output
    scored = pl.read_parquet(rows)
    assert scored["score"].to_list() == [r["archive_accuracy"] for r in real]
    assert all(not q for q in queues.values()) and not _ReplayJudge.unexpected
    overall = pl.read_csv(acc)["Overall Accuracy"][0]
    assert overall == pytest.approx(sum(r["archive_accuracy"] for r in real) / len(real), abs=1e-15)
