"""Ctrl-C held once a command's change is about to be committed, until the command has said so;
deferred over a few renames that must happen together (deferred()); or noticed where Python
would drop it (noticed()).

Why: a Ctrl-C that lands after the COMMIT but before `ok (event 52)` is printed (or between
that line and the program's exit) used to end as `error: aborted`, exit 130, so the table typed
the move again and it counted twice. From just before the commit, an interrupt is ignored: the
command finishes, reports and exits 0. Before that point it still aborts, and the transaction
rolls back, so nothing is recorded.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_before: Any = None  # SIGINT's handler before the hold (None: not held)


def hold() -> None:
    """Ignore Ctrl-C from now on, until release(). Only the main thread gets signals (a
    server's request threads hold nothing). A Ctrl-C already pending raises here, before the
    handler is changed: the caller has not committed yet, so it rolls back."""
    global _before
    if _before is not None or threading.current_thread() is not threading.main_thread():
        return
    _before = signal.signal(signal.SIGINT, signal.SIG_IGN)


def release() -> None:
    """Put back the handler hold() replaced (a Ctrl-C meanwhile was ignored: the command it
    came during went through): for a process that goes on after the command (the shell,
    tests). The program itself ends still holding."""
    global _before
    if _before is None or threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, _before)
    _before = None


@contextmanager
def deferred() -> Iterator[None]:
    """Ctrl-C held back over the block and delivered after it (it still ends the program right
    after): the few renames that swap an export in, so its folder is never half old, half new."""
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "pthread_sigmask")):  # Windows: no signal masks
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def noticed() -> Iterator[None]:
    """Ctrl-C over the block ends it even when its KeyboardInterrupt is raised inside a
    destructor or a weakref callback, where Python only prints it ("Exception ignored") and
    goes on: such an interrupt is remembered, not printed, and raised when the block ends, so
    what the block made is not committed (an interrupted export is not swapped in)."""
    swallowed = []
    before = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            swallowed.append(unraisable.exc_value)
        else:
            before(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = before
    if swallowed:
        raise KeyboardInterrupt
