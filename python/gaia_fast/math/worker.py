"""The math worker program and its wire format.

A worker is a fresh Python interpreter started by :class:`gaia_fast.math.pool.SympyPool`
as ``python -c BOOTSTRAP CONFIG``. It never imports the caller's ``__main__`` (unlike
``multiprocessing``'s ``spawn``), so the math API needs no ``if __name__ == "__main__":``
guard and works from a script, ``python -``, ``python -c``, a notebook, threads and a
running event loop.

Wire format, both ways over the worker's stdin/stdout pipes: frames of an 8-byte
big-endian length followed by a pickle. Parent to worker: ``(sys_path | None, pickled
(func, args))`` per item; end of input (the parent closed the pipe or died) ends the worker.
Worker to parent: ``("ready", pid)`` once its warm-up imports are done, or
``("failed", why)`` if it cannot start; then ``(status, value, error)`` per item.

A worker never outlives its parent: it exits at end of input or when a watchdog thread
sees its parent pid change, and on Linux it also asks the kernel to kill it when the
parent dies (``PR_SET_PDEATHSIG``), which works even while an item holds the GIL inside
a C call (the two threads need the GIL; elsewhere such an item ends first). Keyboard interrupts are the parent's to handle, so workers ignore SIGINT.

This module imports only the standard library: it is loaded before anything else in
every worker.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
import threading
from queue import SimpleQueue
from typing import Any

_HEADER = struct.Struct("!Q")

# Run by ``python -c``: set the parent's sys.path, then import this module. A failure to
# import it is reported over the wire (a bare exit would leave the parent guessing).
BOOTSTRAP = """\
import sys
try:
    import json
    _config = json.loads(sys.argv[1])
    sys.path[:] = _config["path"]
    from gaia_fast.math.worker import main
except BaseException as e:
    import os, pickle, struct
    _why = "cannot import gaia_fast.math.worker: %s: %s (sys.path %r)" % (type(e).__name__, e, sys.path)
    _frame = pickle.dumps(("failed", _why))
    os.write(1, struct.pack("!Q", len(_frame)) + _frame)
    raise SystemExit(1)
main(_config)
"""


def encode(obj: Any) -> bytes:
    """One frame holding ``obj``."""
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(body)) + body


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class FrameReader:
    """Splits a byte stream into frame bodies (still pickled)."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        frames = []
        while len(self._buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buf)
            end = _HEADER.size + size
            if len(self._buf) < end:
                break
            frames.append(bytes(self._buf[_HEADER.size : end]))
            del self._buf[:end]
        return frames


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    try:
        os.kill(parent, 0)  # the parent may have died before the request above
    except ProcessLookupError:
        os._exit(0)
    except PermissionError:
        pass
    first = os.getppid()

    def watch() -> None:
        import time

        while os.getppid() == first:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _read_jobs(fd: int, jobs: SimpleQueue) -> None:
    reader = FrameReader()
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except InterruptedError:
            continue
        except OSError:
            data = b""
        if not data:  # the parent closed the pipe or died: nothing more will come
            os._exit(0)
        for frame in reader.feed(data):
            jobs.put(frame)


def main(config: dict[str, Any]) -> None:
    # The protocol gets private copies of the pipes; fd 0 becomes /dev/null and fd 1 the
    # parent's stderr, so an item that prints or reads stdin cannot corrupt the stream.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    try:
        os.dup2(2, 1)
    except OSError:  # the parent runs without a stderr
        os.dup2(devnull, 1)
    os.close(devnull)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(int(config["parent"]))
    jobs: SimpleQueue = SimpleQueue()
    threading.Thread(target=_read_jobs, args=(proto_in, jobs), name="job-reader", daemon=True).start()

    for module in config["warm"]:  # pay the imports once, before the first deadline starts
        try:
            __import__(module)
        except BaseException as e:  # noqa: BLE001 - reported to the parent, which raises
            write_all(proto_out, encode(("failed", f"cannot import {module!r}: {type(e).__name__}: {e}")))
            os._exit(1)
    write_all(proto_out, encode(("ready", os.getpid())))

    while True:
        frame = jobs.get()
        try:
            path, job = pickle.loads(frame)
            if path is not None:  # before the job is unpickled: it may name a module found there
                sys.path[:] = path
            func, args = pickle.loads(job)
            reply = encode(("ok", func(*args), None))
        except Exception as e:  # noqa: BLE001 - any failure of the item is its result
            reply = encode(("error", None, f"{type(e).__name__}: {e}"))
        write_all(proto_out, reply)
