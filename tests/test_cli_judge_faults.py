"""`gaia-fast grade --benchmark atomic --variant yale` on real PHYSICS rows against a judge
server that fails: the run ends promptly (circuit breaker), rows whose judge call failed
get status judge_error with the message, the outputs are written, the exit status is 1,
and the same command run again asks the judge only for what failed. The servers run in
this process on 127.0.0.1 and stop by themselves."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from _local_server import LocalServer

DATA = Path(__file__).parent / "data"


class JudgeServer(LocalServer):
    """An OpenAI-compatible endpoint: answers ``ok_first`` requests with ``True`` (all of
    them when None), then HTTP 500 for ever. Shuts itself down after ``lifetime`` s."""

    def __init__(self, ok_first: int | None, lifetime: float = 240.0) -> None:
        self.ok_first = ok_first
        self.prompts: list[str] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with outer.lock:
                    outer.prompts.append(body["messages"][-1]["content"])
                    ok = outer.ok_first is None or len(outer.prompts) <= outer.ok_first
                if ok:
                    status = 200
                    data = json.dumps({"choices": [{"message": {"role": "assistant", "content": "True"}}]}).encode()
                else:
                    status, data = 500, b'{"error": {"message": "internal error"}}'
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(Handler, lifetime)
        self.url += "/v1"

    @property
    def count(self) -> int:
        with self.lock:
            return len(self.prompts)


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """The real PHYSICS rows of tests/data as a result file (prediction, answer list)."""
    rows = [json.loads(line) for line in (DATA / "physics_realdata_small.jsonl").open(encoding="utf-8")]
    path = tmp_path / "physics_outputs.jsonl"
    pl.DataFrame(
        {"prediction": [r["solution"] for r in rows], "answer": [r["gt_final_answers"] for r in rows]},
        schema={"prediction": pl.String, "answer": pl.List(pl.String)},
    ).write_ndjson(path)
    return path


def grade(archive: Path, url: str, tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, float]:
    cmd = [sys.executable, "-m", "gaia_fast.cli", "grade", str(archive), "--benchmark", "atomic", "--variant", "yale"]
    cmd += ["--judge-model", "m", "--judge-base-url", url, "--acc", str(tmp_path / "acc.csv"), "--out", str(tmp_path / "rows.parquet")]
    cmd += ["--save-judge-responses", str(tmp_path / "judge.jsonl"), *extra]
    env = {**os.environ, "OPENAI_API_KEY": "test", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    return proc, time.monotonic() - start


def failed_prompts(tmp_path: Path) -> tuple[set[str], set[str]]:
    replies = [json.loads(line) for line in (tmp_path / "judge.jsonl").open(encoding="utf-8")]
    ok = {r["prompt"] for r in replies if r["error"] is None}
    return {r["prompt"] for r in replies if r["error"] is not None} - ok, ok


def test_dead_judge_ends_promptly_with_judge_error_rows(archive, tmp_path):
    with JudgeServer(ok_first=0) as server:
        proc, elapsed = grade(archive, server.url, tmp_path, "--json")
    assert proc.returncode == 1, proc.stderr
    payload = json.loads(proc.stdout)
    rows = pl.read_parquet(tmp_path / "rows.parquet")  # the outputs are written
    assert rows.height == payload["rows"] == 36 and (tmp_path / "acc.csv").exists()
    failed = rows.filter(pl.col("status") == "judge_error")
    n = failed.height
    assert n > 20 and payload["stats"]["status"]["judge_error"] == n == payload["stats"]["judge_error_rows"]
    assert all(r.startswith("judge_error: JudgeError: ") for r in failed["reason"])
    assert any("circuit breaker open" in r and "HTTP 500" in r for r in failed["reason"])
    calls = payload["stats"]["judge_calls"]
    client = payload["stats"]["judge_client"]
    # the breaker: a handful of requests reached the server for well over 100 prompts
    assert calls > 100 and client["failures"] == calls and client["breaker_open"]
    assert server.count == client["requests"] <= 5 + 8 + 8  # threshold + in flight + their retries
    assert client["failed_fast"] >= calls - 8
    # without the breaker: 6 attempts and ~31 s of backoff per prompt, 8 at a time (minutes)
    assert elapsed < 120, elapsed
    assert f"{n} row(s) have status judge_error" in proc.stderr and "Run the same command again" in proc.stderr
    assert not list((tmp_path / "cache").rglob("*.json"))  # failures are never cached


def test_judge_dying_mid_run_then_rerun_asks_only_what_failed(archive, tmp_path):
    with JudgeServer(ok_first=30) as server:
        first, _ = grade(archive, server.url, tmp_path)
    assert first.returncode == 1, first.stderr
    assert "judge " in first.stderr and "failed" in first.stderr  # the progress line
    failed, answered = failed_prompts(tmp_path)
    assert len(answered) == 30 and failed
    errors_before = pl.read_parquet(tmp_path / "rows.parquet").filter(pl.col("status") == "judge_error").height
    assert errors_before > 0
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert len(cached) == 30  # successes only

    with JudgeServer(ok_first=None) as healthy:
        second, _ = grade(archive, healthy.url, tmp_path, "--json")
    assert second.returncode == 0, second.stderr
    # only prompts that failed, each once; never one answered before (the cache has it).
    # (Fewer than all that failed: a "True" now ends a row's search for a matching pair.)
    asked = healthy.prompts
    assert asked and set(asked) <= failed and len(asked) == len(set(asked)) and not set(asked) & answered
    rows = pl.read_parquet(tmp_path / "rows.parquet")
    assert "judge_error" not in rows["status"].to_list()
    stats = json.loads(second.stdout)["stats"]["judge_client"]
    assert stats["cache_hits"] >= 30 and stats["failures"] == 0


def test_livexivvqa_rows_with_a_dead_judge_are_judge_error(tmp_path):
    """The MCQ judge path: rows can_infer leaves to the judge, with the judge down, get the
    reference's seeded fallback but status judge_error, and the command exits 1."""
    frame = pl.DataFrame(
        {
            "index": [1, 2, 3],
            "question": ["Which?", "Which?", "Which?"],
            "A": ["red", "red", "red"],
            "B": ["blue", "blue", "blue"],
            "answer": ["A", "B", "A"],
            "prediction": ["A", "I cannot tell", "no idea at all"],
        }
    )
    path = tmp_path / "m_LiveXivVQA.xlsx"
    frame.write_excel(path)
    with JudgeServer(ok_first=0) as server:
        cmd = [sys.executable, "-m", "gaia_fast.cli", "grade", str(path), "--benchmark", "livexivvqa", "--variant", "classic"]
        cmd += ["--judge-model", "m", "--judge-base-url", server.url, "--acc", str(tmp_path / "acc.csv"), "--out", str(tmp_path / "rows.parquet"), "--json"]
        env = {**os.environ, "OPENAI_API_KEY": "test", "XDG_CACHE_HOME": str(tmp_path / "cache")}
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        elapsed = time.monotonic() - start
    assert proc.returncode == 1, proc.stderr
    rows = pl.read_parquet(tmp_path / "rows.parquet")
    assert rows["status"].to_list() == ["ok", "judge_error", "judge_error"]
    assert all(r.startswith("judge_error: JudgeError: ") and "random_fallback" in r for r in rows["reason"][1:])
    stats = json.loads(proc.stdout)["stats"]
    assert stats["status"]["judge_error"] == 2 and stats["judge_exceptions"] == 6
    # the breaker opens at the 5th failed request: the other 5 calls never reach the server
    assert server.count == 5 and elapsed < 120
