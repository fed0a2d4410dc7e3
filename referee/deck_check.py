"""What is wrong with a user's deck for the game dealt from it (`referee simulate --deck`).

Why: the rules read a few columns of the printed cards (Tripple Domino the corners a, b, c;
Dobble Connect the colour and the symbols). A copy of the template that lacks one of them, or
has no card of a kind the rules start from, used to end in the rules' own words ("no black
start card left") or a Python exception. Here the user's cards are compared, column by column,
with the bundled template's, so the message names the column and the values to fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

FEW = 12  # a column with at most this many distinct values is a set of kinds (colours...)


def _column(cards: Sequence, field: str) -> list[str]:
    if field == "symbols":
        return [str(len(c.symbols)) for c in cards if c.symbols]
    return [str(c.get(field)).strip() for c in cards if str(c.get(field)).strip()]


def missing_columns(folder: str | Path, reads: Mapping[str, Sequence[str]]) -> list[str]:
    """The columns the game reads that no card of `folder` fills (nothing can be dealt)."""
    from pnp_model.definition import load

    own = load(str(folder)).cards
    out = []
    for fields in reads.values():
        empty = [f for f in fields if not _column(own, f)]
        if empty:
            columns = [repr(f) for f in empty if f != "symbols"]
            what = [f"column{'s' if len(columns) > 1 else ''} {', '.join(columns)}"] * bool(
                columns) + ["symbols"] * ("symbols" in empty)
            out.append(f"no card has {' or '.join(what)} (the rules read "
                       f"{', '.join(fields)})")
    return out


def differences(folder: str | Path, reads: Mapping[str, Sequence[str]]) -> list[str]:
    """How `folder`'s cards differ from the bundled template's in what the rules read: the
    number of cards, kinds missing or unknown (a column with few values), symbols per card."""
    from pnp_model.definition import load

    own = load(str(folder)).cards
    out = missing_columns(folder, reads)
    for template, fields in reads.items():
        bundled = load(template).cards
        if len(own) != len(bundled):
            out.append(f"{len(own)} cards where the bundled {template} has {len(bundled)}")
        for f in fields:
            theirs, mine = set(_column(bundled, f)), set(_column(own, f))
            if not mine or len(theirs) > FEW:
                continue
            label = "symbols per card" if f == "symbols" else f
            if theirs - mine:
                out.append(f"no card with {label} = {', '.join(sorted(theirs - mine))} "
                           f"(the bundled {template} has them)")
            if mine - theirs:
                out.append(f"{label} = {', '.join(sorted(mine - theirs))} is not a value of "
                           f"the bundled {template} ({', '.join(sorted(theirs))})")
    return out
