"""`did you mean ...?` for a mistyped name, the same in both tools: commands, options, games,
players, cards. No click here: the referee's rules use it too."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(typed: str, known: Iterable[str], n: int = 3, cutoff: float = 0.6) -> str:
    """`did you mean show?` (or `x or y?`) for the names close to `typed`; '' when none is.
    Case and leading dashes are ignored when comparing (`--jsn` is close to `--json`, not to
    every option for their two dashes)."""
    by_key: dict[str, str] = {}
    for name in known:
        by_key.setdefault(name.lstrip("-").lower(), name)
    key = typed.strip().lstrip("-").lower()
    close = difflib.get_close_matches(key, list(by_key), n=n, cutoff=cutoff)
    if not close and len(key) == 1:  # a short option: the long ones of that letter
        close = [k for k in by_key if k.startswith(key) and len(k) > 1][:n]
    return f"did you mean {' or '.join(by_key[k] for k in close)}?" if close else ""
