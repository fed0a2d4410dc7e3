"""Notes that know the card's version: a note about a card keeps the card's fields and their
digest, so after the designer edits the card, `referee playtests` shows the note under the
version it was about ("about Scout v1 (cost 2), now cost 3") and splits the card's figures
by version. Versions are numbered in the order the notes first saw them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any


def digest(fields: Mapping[str, str]) -> str:
    """The card's content: every field, by name, so a reordered card list keeps it."""
    text = json.dumps(dict(fields), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def kept(fields: Mapping[str, str]) -> dict[str, Any]:
    """What a note stores of the card it is about."""
    return {"digest": digest(fields), "fields": dict(fields)}


def changed(old: Mapping[str, str], new: Mapping[str, str] | None) -> tuple[str, str]:
    """The fields that differ, as the old card had them and as the card has them now:
    ("cost 2", "cost 3"); a card no longer in the definition is "gone"."""
    if new is None:
        return ", ".join(f"{k} {v}" for k, v in old.items() if k != "name"), "gone"
    keys = [k for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)]
    return (", ".join(f"{k} {old.get(k) or '-'}" for k in keys),
            ", ".join(f"{k} {new.get(k) or '-'}" for k in keys))


def versions(name: str, noted: Sequence[dict[str, Any]],
             now: Mapping[str, str] | None) -> list[dict[str, Any]]:
    """The card's versions the notes saw (each note: {"digest", "fields", "at"}, in the order
    they were made), numbered from 1, each with how it reads against the card now."""
    out: list[dict[str, Any]] = []
    current = digest(now) if now is not None else None
    for n in noted:
        if any(v["digest"] == n["digest"] for v in out):
            continue
        v = {"version": len(out) + 1, "digest": n["digest"], "fields": n["fields"],
             "since": n["at"], "current": n["digest"] == current}
        if v["current"]:
            v["about"] = f"about {name} v{v['version']}, the card as it is now"
        else:
            was, is_now = changed(n["fields"], now)
            v["about"] = f"about {name} v{v['version']} ({was}), now {is_now}"
        out.append(v)
    return out


def in_force(found: Sequence[dict[str, Any]], started: str, own: str | None) -> int:
    """The version a match played: the one its own note names, else the last one noted
    before the match started (the first when none was)."""
    if own is not None:
        return next(v["version"] for v in found if v["digest"] == own)
    before = [v["version"] for v in found if v["since"] <= started]
    return before[-1] if before else 1
