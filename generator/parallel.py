"""Independent pieces of one build spread over the machine's cores, results in input order.

A big deck's expensive parts (its base layouts, its icons' outlines) are pure functions of
their arguments, so forked workers compute the same values the parent would, and the PDF is
the same bytes however the work was scheduled. Forking is skipped where it cannot help or is
not allowed: one core, no fork (Windows, macOS), other threads running, or inside a worker
of `pnp build --all` (which already runs one game per core, and whose daemonic workers may
not fork again).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence

_TASK: tuple = ()  # (fn, items) handed to forked workers without pickling them


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether forked workers may help: more than one core, fork available, not inside a
    daemonic worker, and no other thread running (a thread could hold a lock the child
    would inherit locked, as under `pnp watch`)."""
    return (cores() > 1 and "fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon
            and threading.active_count() == 1)


def fork_map(fn: Callable, items: Sequence) -> list:
    """[fn(x) for x in items], spread over the cores when that is allowed; fn and the items
    reach the workers by fork, only the results are pickled back."""
    workers = min(len(items), cores())
    if workers < 2 or not can_fork():
        return [fn(x) for x in items]
    global _TASK
    _TASK = (fn, items)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(_run, range(len(items)), chunksize=1)
    finally:
        _TASK = ()


def _run(index: int):
    fn, items = _TASK
    return fn(items[index])
