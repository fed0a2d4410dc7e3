"""Draws as chance nodes: the cards a step takes from a pile (Dealer.takes), what can come at
each, and a chance outcome put where the dealer will take it from.

A step may take several cards from one pile (a hand refilled): the k-th lies k cards below
the top when its chance node is resolved, the cards above it being those drawn before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.dealing import Dealer, Take
from referee.engine import RefereeError


def queued(takes: Sequence[Take]) -> list[tuple[Take, int]]:
    """(take, depth below the pile's top) in the order the cards are taken."""
    depth: dict[tuple, int] = {}
    out = []
    for take in takes:
        at = (take.pile, take.key)
        out.append((take, depth.get(at, 0)))
        depth[at] = depth.get(at, 0) + 1
    return out


def can_come(dealer: Dealer, take: Take, depth: int) -> list:
    """The cards the draw can bring, in pile order (the one the shuffle put there last)."""
    pile = dealer.pile(take)
    return [c for c in pile[:len(pile) - depth] if dealer.fits(take, c)]


def bring(dealer: Dealer, take: Take, depth: int, card: Any) -> None:
    """A chance outcome: the card moves to where the draw takes it from."""
    pile = dealer.pile(take)
    cut = len(pile) - depth
    at = max((i for i in range(cut) if pile[i] == card), default=None)
    if at is None or not dealer.fits(take, card):
        raise RefereeError(f"{dealer.card_text(card)} cannot come from the {take.pile}",
                           "openspiel adapter")
    pile.insert(cut - 1, pile.pop(at))


def seen_line(take: Take, text: str, players: Sequence[str]) -> tuple:
    """The information-state line of a draw: (seats that read `text`, what others read,
    `text`)."""
    if set(take.seen_by) >= set(players):  # face up: everyone reads the card
        return tuple(range(len(players))), text, text
    where = take.pile if take.key is None else f"{take.pile} of {take.key}"
    public = f"a card from the {where}, " + (
        f"seen by {', '.join(take.seen_by)}" if take.seen_by else "face down")
    return tuple(players.index(p) for p in take.seen_by), public, text
