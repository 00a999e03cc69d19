"""Module-level functions for the worker-pool tests (workers import them by name)."""

import os
import sys
import threading
import time


def square(x: int) -> int:
    return x * x


def sleepy(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def boom(message: str) -> None:
    raise ValueError(message)


def die() -> None:
    os._exit(3)


def killed(marker: str) -> str:
    # SIGKILL on the first run (the marker file is absent), an answer on the next: a
    # worker the kernel killed once for memory another process used.
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), 9)
    return "second run"


def always_killed() -> None:
    os.kill(os.getpid(), 9)


def pid(tag: object = None) -> int:
    return os.getpid()


def noisy(x: int) -> tuple[int, str]:
    """Prints to stdout and reads stdin, which must not disturb the worker's pipes."""
    print("x" * 100_000, flush=True)
    sys.stdout.write("\0\0\0\0\0\0\0\x08garbage")
    sys.stdout.flush()
    return x, sys.stdin.read()


def unpicklable() -> object:
    return threading.Lock()


def hold_gil(marker: str, n: int) -> int:
    """Announces itself in ``marker``, then runs a C loop that never releases the GIL."""
    with open(marker, "w") as f:
        f.write(str(os.getpid()))
    return sum(range(n))
