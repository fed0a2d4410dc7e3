"""Work shared among processes, in order, that a Ctrl-C stops at once (`referee simulate`).

Why not a bare ProcessPoolExecutor: Ctrl-C reaches every process of the terminal's group, so
each worker raised KeyboardInterrupt wherever it was; one caught holding the task queue's lock
left the others and the parent waiting on it for good (after `error: aborted`), and a worker
caught outside its task printed a traceback. Here the parent alone decides: workers ignore
SIGINT (blocked while they are forked, so none ever runs Python's handler), and on an interrupt
or an error the parent terminates them without waiting on their results. Nothing a worker does
is written anywhere but its result, so killing one loses only work not yet reported.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

JOIN_FOR = 2.0  # seconds a terminated worker gets to go before it is killed


def ordered(fn: Callable[[Any], Any], args: Sequence[Any], workers: int) -> Iterator[Any]:
    """fn(a) for each of args on `workers` processes, yielded in the order of args."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        with _interrupts_held():  # the pool forks its workers at the first task
            results = pool.map(fn, args)
        yield from results
    except BaseException:  # Ctrl-C, an error in a worker, or the caller stopped early
        _stop(pool)
        raise
    pool.shutdown()


class _interrupts_held:
    """SIGINT held (not lost) in this thread for the block: a process forked in it starts
    with SIGINT blocked, and a Ctrl-C meanwhile is raised here once the block ends."""

    def __enter__(self) -> None:
        self.before = _mask(signal.SIG_BLOCK)

    def __exit__(self, *exc: object) -> None:
        if self.before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.before)


def _mask(how: int) -> set | None:
    if not hasattr(signal, "pthread_sigmask"):  # not on Windows: the initializer alone
        return None
    return signal.pthread_sigmask(how, {signal.SIGINT})


def _ignore_interrupts() -> None:
    """In each worker, first thing: SIGINT is the parent's to act on."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _mask(signal.SIG_UNBLOCK)


def _stop(pool: ProcessPoolExecutor) -> None:
    """The workers terminated and the pool let go, waiting on no result."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        p.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.join(JOIN_FOR)
        if p.is_alive():
            p.kill()
            p.join()
