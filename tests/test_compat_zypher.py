"""``gaia-fast grade`` with no PATH: Zypher's bench/grade.py on a synthetic checkout.

The expected CSV rows and report lines are the ones grade.py produced on this workspace
(spec §4's computed example)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gaia_fast.compat.zypher import grade_workspace, settings

TASKS = [
    ("t1", "42", 1),
    ("t2", "b, e", 1),
    ("t3", "Sea Gull", 2),
    ("t4", "17", 2),
    ("t5", 'He said "hi"', 3),
    ("t6", "x", 2),
    ("t7", "ok", 1),
    ("t8", "never answered", 3),
]
ANSWERS = {
    "t1": b"FINAL ANSWER: $42",
    "t2": b"  FINAL ANSWER: b; e  ",
    "t3": b"final answer: sea gull",
    "t4": b"FINAL ANSWER:17",
    "t5": b'FINAL ANSWER: He said "hi"',
    "t6": b"ERROR: model gave up",
    "t7": b"FINAL ANSWER: \xff bad",
    "zz-unknown": b"1",
}


def checkout(root: Path, dataset: str = "bench/GAIA", workspace: str = "bench/workspace", metadata: str = "metadata") -> Path:
    meta = root / dataset / "2023" / "validation" / f"{metadata}.jsonl"
    meta.parent.mkdir(parents=True)
    meta.write_text("".join(json.dumps({"task_id": t, "Question": "q", "Final answer": a, "Level": lv}) + "\n" for t, a, lv in TASKS))
    for tid, body in ANSWERS.items():
        d = root / workspace / tid
        d.mkdir(parents=True)
        (d / "answer.txt").write_bytes(body)
    return root


def run_cli(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith("BENCHMARK_")}
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "gaia_fast.cli", "grade", *args], cwd=cwd, env=full, capture_output=True, text=True, timeout=120
    )


EXPECTED_CSV = (
    "task_id,level,expected_answer,actual_answer,match\r\n"
    "t1,1,42,$42,True\r\n"
    't2,1,"b, e",b; e,True\r\n'
    "t3,2,Sea Gull,final answer: sea gull,False\r\n"
    "t4,2,17,FINAL ANSWER:17,False\r\n"
    't5,3,"He said ""hi""","He said ""hi""",True\r\n'
    "t6,2,x,ERROR: model gave up,False\r\n"
)


def test_default_paths_give_grade_py_csv_and_report(tmp_path):
    root = checkout(tmp_path)
    r = run_cli(root)
    assert r.returncode == 0, r.stderr
    text = (root / "answer_comparison.csv").read_bytes().decode("utf-8")
    assert text.startswith(EXPECTED_CSV)
    lines = text.split("\r\n")
    assert lines[7].startswith("t7,1,ok,ERROR: 'utf-8' codec can't decode byte 0xff") and lines[7].endswith(",False")
    assert lines[8] == "zz-unknown,0,NOT_FOUND,1,False" and lines[9] == ""
    out = r.stdout.splitlines()
    assert out[:4] == ["", "Comparison completed. Results saved to answer_comparison.csv", "Total tasks processed: 8", ""]
    assert out[4] == "=" * 60 and out[5] == "RESULTS BY LEVEL"
    assert out[7:13] == ["", "Level 0:", "  Correct: 0/1 (0.0%)", "  Incorrect: 1", "  Mismatches:", "    zz-unknown: Expected 'NOT_FOUND', Got '1'"]
    assert "Level 3:" in out and "  Correct: 1/1 (100.0%)" in out
    i = out.index("Level 3:")
    assert out[i + 2 : i + 4] == ["  Incorrect: 0", ""]  # no Mismatches line
    assert out[-3:] == ["Average percentage across levels: 41.7%", "Overall percentage (weighted): 37.5%", "Total correct: 3/8"]
    # t8 has no answer file: counted nowhere
    assert "t8" not in text


def test_environment_and_dotenv_configure_paths(tmp_path):
    root = checkout(tmp_path, dataset="data/GAIA", workspace="runs/ws", metadata="meta_v2")
    (root / ".env").write_text('# bench settings\nBENCHMARK_DATASET="data/GAIA"\nexport BENCHMARK_WORKSPACE=elsewhere\nBENCHMARK_METADATA=meta_v2 # name\n')
    cfg = settings(environ={"BENCHMARK_WORKSPACE": "runs/ws"}, cwd=root)
    assert cfg.sources == {
        "BENCHMARK_WORKSPACE": "environment",
        "BENCHMARK_DATASET": ".env",
        "BENCHMARK_MODE": "default",
        "BENCHMARK_METADATA": ".env",
    }
    assert cfg.metadata == root / "data/GAIA/2023/validation/meta_v2.jsonl"
    r = run_cli(root, "--json", env={"BENCHMARK_WORKSPACE": "runs/ws"})
    assert r.returncode == 0, r.stderr
    payload = json.loads(r.stdout)
    assert (payload["rows"], payload["correct"]) == (8, 3)
    assert (root / "answer_comparison.csv").read_bytes().decode("utf-8").startswith(EXPECTED_CSV)


def test_level_filter_leaves_other_levels_out_and_says_so(tmp_path):
    root = checkout(tmp_path)
    r = run_cli(root, env={"BENCHMARK_LEVEL": "1"})
    assert r.returncode == 0, r.stderr
    rows = (root / "answer_comparison.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == ["t1", "t2", "t7"]
    assert "5 answer file(s) of tasks not at level 1 were not graded" in r.stderr
    cfg = settings(environ={"BENCHMARK_LEVEL": "1"}, cwd=root)
    assert grade_workspace(cfg, root / "c.csv").other_levels == 5


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"BENCHMARK_MODE": "dev"}, "BENCHMARK_MODE: must be 'validation' or 'test'"),
        ({"BENCHMARK_LEVEL": "one"}, "BENCHMARK_LEVEL: must be a level number"),
        ({"BENCHMARK_WORKSPACE": "nowhere"}, "no such workspace folder"),
        ({"BENCHMARK_METADATA": "absent"}, "absent.jsonl: cannot read the metadata"),
    ],
)
def test_bad_settings_exit_2_naming_the_problem(tmp_path, env, message):
    root = checkout(tmp_path)
    r = run_cli(root, env=env)
    assert r.returncode == 2 and message in r.stderr, r.stderr


def test_comparison_never_overwrites_the_metadata(tmp_path):
    root = checkout(tmp_path)
    meta = root / "bench/GAIA/2023/validation/metadata.jsonl"
    before = meta.read_bytes()
    r = run_cli(root, "--comparison", str(meta))
    assert r.returncode == 2 and "would overwrite an input" in r.stderr
    assert meta.read_bytes() == before
