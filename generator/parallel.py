"""Independent pieces of one build spread over the machine's cores, results in input order.

A big deck's expensive parts (its base layouts, its icons' outlines, a small deck's layouts by
shape) are pure functions of their arguments, so forked children compute the same values the
parent would, and the PDF is the same bytes however the work was scheduled. Forking is skipped
where it cannot help or is not safe: one core or none to spare (a busy machine), no fork
(Windows), other threads running (a child could inherit a lock held by one), or inside a
worker of `pnp build --all` (which already runs one game per core).

A bare os.fork and pipes, not a multiprocessing pool: the parent works through the items with
its children, all taking them from one queue, and no handler threads pass the work around; on
a busy machine a pool's hand-offs cost more than a 55-card icon deck's whole share of work.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable, Sequence


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether forked children may help: more than one core, fork available, not inside a
    daemonic worker, no other thread running, and a core to spare."""
    # multiprocessing is imported only by a pool (`pnp build --all`): without it, this is no
    # pool's worker (and a one-game build skips its import)
    pool = sys.modules.get("multiprocessing")
    return (cores() > 1 and hasattr(os, "fork")
            and not (pool is not None and pool.current_process().daemon)
            and threading.active_count() == 1 and not busy())


def busy() -> bool:
    """Whether the machine has no core to spare: its load over the last minute (this process
    included) is at least its number of cores. There a child only competes with the parent
    for the same CPU: measured on 2 cores, forking helped at a load of 1 and cost a little at
    a load of 5 (bench/bench_symbols.py)."""
    try:
        return os.getloadavg()[0] >= cores()
    except OSError:  # no load average on this system
        return False


def fork_map(fn: Callable, items: Sequence) -> list:
    """[fn(x) for x in items] over the cores: the parent and a forked child per other core
    take the items from one queue as they go, so a process the machine slows down simply
    does fewer (a fixed share each would leave the others waiting for the slowest). A child
    sends its results back pickled; an item no one sent (a child died) is done by the parent.

    The queue is a pipe filled before forking with the items' numbers, CHUNK_ROOM bytes at
    most (a few items per number for long lists): a read of one number's 4 bytes takes it
    whole, so each item goes to exactly one process."""
    k = min(len(items), cores())
    if k < 2 or not can_fork():
        return [fn(x) for x in items]
    n = len(items)
    chunk = -(-n * 4 // CHUNK_ROOM)  # items per number in the queue
    queue, filler = os.pipe()
    try:
        os.write(filler, b"".join(i.to_bytes(4, "little") for i in range(0, n, chunk)))
    finally:
        os.close(filler)
    children = []
    out: list = [None] * n
    done = [False] * n
    try:
        for _ in range(k - 1):
            children.append(_spawn(fn, items, queue, chunk))
        for i, value in _work(fn, items, queue, chunk):
            out[i], done[i] = value, True
        while children:
            pid, pipe = children.pop(0)
            found = _collect(pid, pipe)
            if isinstance(found, BaseException):
                raise found
            for i, value in found or ():
                out[i], done[i] = value, True
        for i in range(n):  # taken by a child that died before answering
            if not done[i]:
                out[i] = fn(items[i])
    finally:
        os.close(queue)
        for pid, pipe in children:  # only after an error: stop and reap the rest
            os.close(pipe)
            _stop(pid)
    return out


CHUNK_ROOM = 4096  # bytes of item numbers put in the queue: a pipe holds at least this much


def _work(fn: Callable, items: Sequence, queue: int, chunk: int):
    """(index, fn(item)) for each item taken from the queue until it is empty."""
    while True:
        number = os.read(queue, 4)
        if len(number) < 4:
            return
        start = int.from_bytes(number, "little")
        for i in range(start, min(start + chunk, len(items))):
            yield i, fn(items[i])


def _spawn(fn: Callable, items: Sequence, queue: int, chunk: int) -> tuple[int, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running the parent's exit code
        code = 0
        try:
            os.close(read)
            try:
                data = pickle.dumps(list(_work(fn, items, queue, chunk)))
            except Exception as e:  # noqa: BLE001  (sent to the parent, which raises it)
                data = pickle.dumps(e)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
        except BaseException:  # noqa: BLE001  (a broken pipe or a signal: the parent recomputes)
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def _collect(pid: int, pipe: int):
    """The child's (index, value) pairs, its exception, or None when it sent nothing readable."""
    with os.fdopen(pipe, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    try:
        return pickle.loads(data) if data else None
    except Exception:  # noqa: BLE001  (a cut-off answer)
        return None


def _stop(pid: int) -> None:
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
