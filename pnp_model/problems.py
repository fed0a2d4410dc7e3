"""Every mistake of a definition in one run: loading goes on past a mistake and names them all.

Three misspelt art files are three lines from one `pnp build`, not three rebuilds. Code that
checks a definition wraps each independent check in `guard()`; while `collecting()` is under
way a mistake is recorded and the check skipped, otherwise it is raised as before. The same
mistake on many cards (a misspelt back image) is one line that counts the other cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pnp_model.errors import PnpError, PnpErrors

# "card 4, game.toml [[face]] #3" or "card #4 (Goblin), game.toml ...": the card, the place
_CARD = re.compile(r"^card #?(\d+)(?: \([^)]*\))?, (.*)$", re.DOTALL)
_active: ContextVar[Problems | None] = ContextVar("pnp_problems", default=None)


class Problems:
    """The mistakes found so far, in the order found, each once."""

    def __init__(self) -> None:
        self.errors: list[PnpError] = []
        self._other_cards: dict[tuple[str, str], list[int]] = {}

    def add(self, error: PnpError) -> None:
        for e in getattr(error, "errors", None) or [error]:
            m = _CARD.match(e.where or "")
            key = (e.what, m.group(2) if m else e.where or "")
            if key in self._other_cards:
                if m:
                    self._other_cards[key].append(int(m.group(1)))
                continue
            self._other_cards[key] = []
            self.errors.append(e)

    def __len__(self) -> int:
        return len(self.errors)

    def raise_if_any(self) -> None:
        """Raise the one mistake as it is, or all of them as one PnpErrors."""
        found = []
        for e in self.errors:
            m = _CARD.match(e.where or "")
            others = self._other_cards.get((e.what, m.group(2) if m else e.where or ""), [])
            if others:
                n = len(others)
                e = PnpError(e.what, f"{e.where}; also card{'s' if n > 1 else ''} "
                             f"#{_ids(others)}")
            found.append(e)
        if len(found) == 1:
            raise found[0]
        if found:
            raise PnpErrors(found)


def _ids(ids: list[int], shown: int = 5) -> str:
    text = ", #".join(str(i) for i in ids[:shown])
    return text + (f" and {len(ids) - shown} more" if len(ids) > shown else "")


@contextmanager
def collecting() -> Iterator[Problems]:
    """Collect the mistakes `guard()` meets inside the block (nested: the outer one collects)."""
    outer = _active.get()
    if outer is not None:
        yield outer
        return
    problems = Problems()
    token = _active.set(problems)
    try:
        yield problems
    finally:
        _active.reset(token)


@contextmanager
def guard() -> Iterator[None]:
    """Record a PnpError and skip the rest of the block while collecting; else let it go."""
    problems = _active.get()
    if problems is None:
        yield
        return
    try:
        yield
    except PnpError as e:
        problems.add(e)


def record(error: PnpError) -> None:
    """guard() for hot loops (every card, every row), without a context manager's cost:
    `except PnpError as e: record(e)` records the mistake while collecting, else raises it."""
    problems = _active.get()
    if problems is None:
        raise error
    problems.add(error)


def found() -> int:
    """How many mistakes have been recorded so far (0 when not collecting)."""
    problems = _active.get()
    return len(problems) if problems is not None else 0
