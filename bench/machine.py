"""The machine a bench ran on: its load and its speed, as one line printed before and after.

On a shared virtual machine the same build's wall time swings by a third from one minute to
the next at the same load (seen here: this loop took 95 ms, then 170 ms, minutes apart, with
nothing else running), so a figure says little without the machine's speed beside it. The
speed is a fixed pure-Python loop, in one process, best of five: a quiet laptop of 2024 runs
it in ~50 ms."""

from __future__ import annotations

import os
import time

LOOP = 3_000_000  # iterations of the reference loop


def speed_ms() -> float:
    """The reference loop's best time of five, in milliseconds."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(LOOP):
            pass
        best = min(best, time.perf_counter() - start)
    return best * 1000


def line(when: str) -> str:
    """`machine <when>: load 0.9 0.8 0.9 on 2 cores, a 3M-iteration loop 104 ms`."""
    try:
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "unknown"
    return (f"machine {when}: load {load} on {os.cpu_count()} cores, "
            f"a {LOOP // 1_000_000}M-iteration loop {speed_ms():.0f} ms")
