"""Ray waits are bounded and shown: connecting to an address that does not answer fails
within the connect bound, naming the address; a task that never finishes stops the run
after the stall bound, naming the archive and the phase; progress goes to the caller's
callback and, on the command line, to stderr (not with --json). A local Ray instance
(``ray.init(num_cpus=2)``) and the servers start inside the tests, on 127.0.0.1."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray", reason="Ray Data is not installed (pip install 'gaia-fast[ray]')")

from gaia_fast.cli import main  # noqa: E402
from gaia_fast.integrations import ray as gfr  # noqa: E402
from test_ray import ray_local  # noqa: E402,F401 - the module's local Ray instance


def _cli_subprocess(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "gaia_fast.cli", "grade", *args], capture_output=True, text=True, timeout=240, cwd=cwd
    )
    return proc, time.monotonic() - start


def _archive(tmp_path: Path) -> Path:
    src = tmp_path / "r.jsonl"
    src.write_text('{"task_id": "a", "prediction": "1", "truth": "1"}\n')
    return src


def test_closed_port_fails_at_once_naming_the_address(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    proc, elapsed = _cli_subprocess(str(_archive(tmp_path)), "--engine", "ray", "--ray-address", f"127.0.0.1:{port}", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert f"cannot connect to Ray at 127.0.0.1:{port}" in proc.stderr and "does not accept connections" in proc.stderr
    assert elapsed < 60, elapsed  # importing Ray is most of it; no connection attempt is retried
    assert not (tmp_path / "answer_comparison.csv").exists()


def test_silent_port_fails_within_the_connect_bound(tmp_path):
    """A port that accepts connections and never answers: Ray's own wait is minutes."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    port = server.getsockname()[1]
    try:
        proc, elapsed = _cli_subprocess(
            str(_archive(tmp_path)), "--engine", "ray", "--ray-address", f"127.0.0.1:{port}", "--ray-connect-timeout", "3", cwd=tmp_path
        )
    finally:
        server.close()
    assert proc.returncode == 2, proc.stderr
    assert f"cannot connect to Ray at 127.0.0.1:{port}: no answer within 3 s (--ray-connect-timeout 3)" in proc.stderr
    assert elapsed < 60, elapsed


def _release(fifo: Path, text: str = "") -> None:
    """Let a task blocked opening ``fifo`` for reading go on: open it for writing (the
    reader is there, or arrives within the bound), write ``text``, close."""
    deadline = time.monotonic() + 30
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:
            if e.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def test_a_task_that_never_finishes_stops_the_run(ray_local, tmp_path):
    fifo = tmp_path / "stuck.jsonl"
    os.mkfifo(fifo)  # opening it for reading blocks until someone writes: a read task that never ends
    start = time.monotonic()
    try:
        with pytest.raises(gfr.RayTimeout) as info:
            gfr.grade_archive_dataset(fifo, timeout=3)
        elapsed = time.monotonic() - start
    finally:
        _release(fifo)
    assert str(fifo) in str(info.value) and "no progress for 3 s while reading" in str(info.value)
    assert elapsed < 30, elapsed

    # the command: exit 2, the archive, the phase and the option named; no output written
    fifo2 = tmp_path / "stuck2.jsonl"
    os.mkfifo(fifo2)
    try:
        r = CliRunner().invoke(
            main, ["grade", str(fifo2), "--engine", "ray", "--ray-timeout", "3", "--comparison", str(tmp_path / "c.csv")], catch_exceptions=False
        )
    finally:
        _release(fifo2)
    assert r.exit_code == 2, r.output
    assert "stuck2.jsonl: Ray made no progress for 3 s while reading" in r.stderr and "(--ray-timeout 3)" in r.stderr
    assert "ray: reading 0/1 files" in r.stderr  # the progress line of the phase it stopped in
    assert not (tmp_path / "c.csv").exists()


def test_stall_bound_is_not_a_run_time_bound():
    """A wait that keeps making progress runs past the bound; one that stops does not."""
    watch = gfr._Watch(None, "archive.jsonl", 1.0)

    def steady():
        for _ in range(8):
            time.sleep(0.4)
            watch.tick("scoring", 10)
        return "done"

    start = time.monotonic()
    assert watch.run("scoring", steady) == "done"
    assert time.monotonic() - start > 3.0

    def stops():
        watch.tick("writing", 5)
        time.sleep(30)

    start = time.monotonic()
    with pytest.raises(gfr.RayTimeout, match=r"archive\.jsonl: Ray made no progress for 1 s while writing \(5 rows done\)"):
        watch.run("writing", stops)
    assert time.monotonic() - start < 5


def test_a_call_abandoned_after_a_timeout_publishes_nothing(tmp_path):
    """The stalled call goes on in its thread; when its block finally arrives it must not
    write the output the caller was told had failed."""
    import threading

    from gaia_fast.io.writers import atomic_path

    watch = gfr._Watch(None, "archive.jsonl", 0.5)
    late = threading.Event()
    out = tmp_path / "scored.csv"
    finished = {}

    def stalled():
        try:
            with atomic_path(out) as tmp:
                late.wait(30)  # the block arrives only after the timeout
                Path(tmp).write_text("row\n")
                watch.tick("writing", 1)
        except gfr.RayTimeout as e:
            finished["error"] = str(e)

    with pytest.raises(gfr.RayTimeout, match="no progress"):
        watch.run("writing", stalled)
    late.set()
    deadline = time.monotonic() + 10
    while "error" not in finished and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "abandoned after a timeout" in finished["error"]
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_grade_dataset_reports_progress(ray_local):
    import pyarrow as pa

    def slow(batch):
        time.sleep(0.3)
        return batch

    table = pa.table({"prediction": [str(i) for i in range(80)], "truth": [str(i % 2 * i) for i in range(80)]})
    ds = ray.data.from_arrow([table.slice(i, 8) for i in range(0, 80, 8)]).map_batches(slow, batch_format="pyarrow", batch_size=8)
    events: list[gfr.RayProgress] = []
    scored, summ = gfr.grade_dataset(ds, batch_size=8, on_progress=events.append)
    assert summ["rows"] == 80 and summ["correct"] == 41  # the odd ones and 0
    scoring = [e for e in events if e.phase == "scoring"]
    assert scoring and scoring[-1].done == 80 and scoring[-1].unit == "rows"
    dones = [e.done for e in scoring]
    assert dones == sorted(dones) and len(set(dones)) > 2  # blocks counted as they arrived
    assert [e.phase for e in events][-1] == "summarising"


def test_cli_progress_on_stderr_and_not_with_json(ray_local, tmp_path):
    src = tmp_path / "r.jsonl"
    src.write_text("".join(json.dumps({"task_id": f"t{i}", "prediction": str(i), "truth": str(i % 3)}) + "\n" for i in range(30)))
    r = CliRunner().invoke(main, ["grade", str(src), "--engine", "ray", "--comparison", str(tmp_path / "c.csv")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    for line in ("ray: reading 1/1 files", "ray: scoring 30/30 rows", "ray: writing 30/30 rows"):
        assert line in r.stderr, r.stderr
    r = CliRunner().invoke(main, ["grade", str(src), "--engine", "ray", "--comparison", str(tmp_path / "c.csv"), "--json"], catch_exceptions=False)
    assert r.exit_code == 0 and "ray:" not in r.stderr and json.loads(r.stdout)["rows"] == 30
