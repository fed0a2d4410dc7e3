"""Notes a build collects for the user (a symbol printed blurry, a background kept), by key.

Drawing code deep inside a render cannot print (a script may read the output); it files a note
here, and the command that started the build shows the notes when it is done. A later note
under the same key replaces the earlier one, so a note can be kept up to date as a build goes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_NOTES: ContextVar[dict[str, str] | None] = ContextVar("pnp_notes", default=None)


def note(key: str, text: str) -> None:
    """File (or replace) a note; outside a collecting block, notes are dropped."""
    found = _NOTES.get()
    if found is not None:
        found[key] = text


@contextmanager
def collecting() -> Iterator[dict[str, str]]:
    """Collect the notes filed inside the block, in the order first filed."""
    found: dict[str, str] = {}
    token = _NOTES.set(found)
    try:
        yield found
    finally:
        _NOTES.reset(token)
