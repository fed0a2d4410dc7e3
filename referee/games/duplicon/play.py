"""Duplicon's play: the checks a move must pass and what a legal move does (a draft of the state
played forward, with the notes for the table)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import (
    Draft,
    Outcome,
    ScoreItem,
    Violation,
    totals,
)
from referee.games.duplicon.model import HAND, HOLE, UNKNOWN, Move, State, card_types, deal, violation


def resolve(state: State, move: Move) -> Draft:
    """The state after a legal move (violations found nothing), as a draft with its notes."""
    s = Draft(state)
    p = move.player
    for pos, t in move.flips:
        if s.grid[pos] == UNKNOWN:
            s.grid[pos] = t  # the table has now seen it
    if move.kind == "open":
        (a, ta), (b, tb) = move.flips
        if ta == tb:
            _take_pair(s, (a, b), s.discard, f"opening pair of {ta}: to the discard")
        else:
            s.phase = "play"
            s.notes.append(f"{a} {ta} and {b} {tb} turn back face down; {p} plays")
            _deck_check(s)  # the opening's refills may have emptied the deck
    elif move.kind == "reveal":
        (a, ta), (b, tb) = move.flips
        if ta == tb:
            pile = s.won[p] if s.deck == 0 else s.discard
            where = f"{p}'s won pile (the deck is out)" if s.deck == 0 else "the discard"
            _take_pair(s, (a, b), pile, f"pair of {ta}: to {where}")
            _again(s)
        else:
            _end_turn(s, f"{ta} and {tb} differ: they turn back")
    elif move.kind in ("play", "replay", "steal"):
        pos, shown = move.flips[0]
        if move.kind == "play":
            s.hands[p] -= 1
            s.zones[p].append((move.card, s.turn_no))
        source = s.zones[move.owner or p]
        if shown == move.card:
            source.remove(_zone_card(source, move.card))
            s.won[p].append(move.card)
            _take_pair(s, (pos,), s.won[p], f"Dúplicon! {move.card} pair to {p}'s won pile")
            _top_up(s, p)
            _again(s)
        else:
            _top_up(s, p)
            _end_turn(s, f"{pos} shows {shown}, not {move.card}: it turns back")
    elif move.kind == "draw":
        s.hands[p] += 1
        s.deck -= 1
        _deck_check(s)
        _end_turn(s, f"{p} draws a card", drew=True)
    elif move.kind == "exchange":
        _end_turn(s, f"{p} exchanges {s.hands[p]} cards; the old ones are shuffled into the deck")
    if s.phase == "play":
        _round_end_check(s)
    if s.round != state.round:  # nobody acts again in a round that is over
        s.notes = [n for n in s.notes if not n.endswith("acts again")]
    return s


def _zone_card(zone: list[tuple[str, int]], key: str) -> tuple[str, int]:
    return min(c for c in zone if c[0] == key)


def preconditions(s: State, m: Move) -> list[Violation]:
    """Everything that can be checked before the flips are known."""
    if s.phase == "over":
        return [violation("end", "the game is over: " + (s.outcome.reason if s.outcome else ""))]
    out: list[Violation] = []
    p = m.player
    if p != s.current:
        again = " (acts again after a success)" if s.chained else ""
        out.append(violation("turn", f"it is {s.current}'s turn{again}, not {p}'s"))
    if m.kind in ("play", "replay") and not m.flips:
        mine, other = ("hand", "play zone") if m.kind == "play" else ("play zone", "hand")
        out.append(violation("U1", f"{m.card} from your {mine} with {m.paired} from your "
                                   f"{other} is no pair: a pair is one grid card with one hand "
                                   f"or play-zone card (turn one: '{m.kind} {m.card} "
                                   "b2=<type>')"))
        return out
    if s.phase == "opening" and m.kind != "open":
        out.append(violation("opening", f"round {s.round} starts with the opening reveal: "
                                 "'open a1=<type> c3=<type>'"))
    if s.phase != "opening" and m.kind == "open":
        out.append(violation("opening", "the opening reveal is done; turning two cards now is case 3: "
                                 "'reveal a1=<type> c3=<type>'"))
    for pos, shown in m.flips:
        seen = s.grid[pos]
        if seen == HOLE:
            rule = "U1" if m.kind in ("play", "replay", "steal") else "grid"
            out.append(violation(rule, f"there is no grid card at {pos} (holes are not refilled once "
                                "the deck is out)"))
        elif seen not in (UNKNOWN, shown):
            out.append(violation("grid", f"the card at {pos} was seen as {seen}, not {shown}"))
    if m.kind == "replay":
        mine = [c for c in s.zones[p] if c[0] == m.card]
        now = s.turn_no if p == s.current else s.last_turn.get(p, 0)
        if not mine:
            zone = ", ".join(c for c, _ in s.zones[p]) or "nothing"
            out.append(violation("U1", f"{elsewhere(s, m.card, p)}; {p}'s play zone holds "
                                f"{zone}, and a pair is made with a hand card ('play') or a "
                                "play-zone card"))
        elif all(turn >= now for _, turn in mine):
            out.append(violation("U3", f"your {m.card} was placed in your play zone on this turn; it "
                                "can be played again from your next turn on"))
    if m.kind == "steal":
        if m.owner == p:
            out.append(violation("U2", "that is your own play zone: play your own card with 'replay'"))
        elif not any(c == m.card for c, _ in s.zones[m.owner]):
            zone = ", ".join(c for c, _ in s.zones[m.owner]) or "nothing"
            out.append(violation("U2", f"{elsewhere(s, m.card, m.owner)}; {m.owner}'s play zone "
                                f"holds {zone}"))
    if m.kind == "play" and s.hands[p] == 0:
        out.append(violation("U1", f"{p} has no card in hand"))
    if m.kind == "draw":
        if s.drew_last[p]:
            out.append(violation("U4", "case 4 was used on your previous turn"))
        if s.deck == 0:
            out.append(violation("U4", "the deck is empty"))
    if m.kind == "exchange":
        n, h = s.deck, s.hands[p]
        if n < 5:
            out.append(violation("U4", f"the deck has only {n} card{'s' if n != 1 else ''} (case 5 "
                                "needs 5)"))
        elif n < h:  # our ruling: the new hand is drawn before the old one is shuffled in
            out.append(violation("U4", f"the deck has only {n} cards to replace a hand of {h}"))
    return out


def elsewhere(s: State, card: str, zone_of: str) -> str:
    """Where the table has seen a card type that is not in `zone_of`'s play zone: other
    players' zones first (a steal can take it), then the grid, won piles and the discard.
    A move naming a card its player does not hold learns whose it is, not only that their own
    zone lacks it. Hands are not known to the referee (counts only)."""
    places = [f"in {q}'s play zone ('steal {q} {card} <position>=<type>' takes it)"
              for q in s.players if q != zone_of and any(c == card for c, _ in s.zones[q])]
    grid = sorted(pos for pos, seen in s.grid.items() if seen == card)
    if grid:
        places.append(f"face down in the grid at {', '.join(grid)}")
    places += [f"in {q}'s won pile" for q in s.players if card in s.won[q]]
    if card in s.discard:
        places.append("in the discard")
    if not places:
        return f"no {card} is in a play zone, nor seen on the table"
    return f"{card} is not in {zone_of}'s play zone: the {card} seen is {' and '.join(places)}"


def count_problems(s: State, m: Move) -> list[Violation]:
    """No type can be seen more often than it is printed: a mistyped flip shows up here."""
    fresh = [t for pos, t in m.flips if s.grid[pos] == UNKNOWN]
    if m.kind == "play":
        fresh.append(m.card)  # a hand card comes into view
    out = []
    for t in card_types():
        if t.key not in fresh:
            continue
        seen = (fresh.count(t.key) + sum(1 for v in s.grid.values() if v == t.key)
                + s.discard.count(t.key) + sum(w.count(t.key) for w in s.won.values())
                + sum(1 for z in s.zones.values() for c, _ in z if c == t.key))
        if seen > t.count:
            out.append(violation("cards", f"this would make {seen} {t.key} cards seen this round; the "
                                   f"deck has {t.count}: check what was typed"))
    return out


def _take_pair(s: Draft, positions: Sequence[str], pile: list[str], note: str) -> None:
    """Grid cards leave for a pile; the holes are refilled face down while the deck lasts."""
    for pos in positions:
        pile.append(s.grid[pos])
        if s.deck > 0:
            s.grid[pos] = UNKNOWN
            s.deck -= 1
        else:
            s.grid[pos] = HOLE
    s.notes.append(note)
    _deck_check(s)


def _top_up(s: Draft, p: str) -> None:
    while s.hands[p] < HAND and s.deck > 0:
        s.hands[p] += 1
        s.deck -= 1
    _deck_check(s)


def _deck_check(s: Draft) -> None:
    """When the deck runs out, every other player takes one final turn after this one."""
    if s.deck == 0 and s.final is None and s.phase == "play":
        n = len(s.players)
        s.final = tuple(s.players[(s.turn + i) % n] for i in range(1, n))
        s.notes.append(f"the deck is out: this is {s.current}'s final turn, then one each for "
                       + ", ".join(s.final))


def _again(s: Draft) -> None:
    if s.phase == "play":
        s.chained = True
        s.notes.append(f"{s.current} acts again")


def _end_turn(s: Draft, note: str, drew: bool = False) -> None:
    p = s.current
    s.notes.append(note)
    s.drew_last[p] = drew
    s.chained = False
    s.turn_no += 1
    if s.final is not None:
        if not s.final:
            s.notes.append("the final turns are over")
            _end_round(s)
            return
        s.turn, s.final = s.players.index(s.final[0]), s.final[1:]
    else:
        s.turn = (s.turn + 1) % len(s.players)
    s.last_turn[s.current] = s.turn_no
    if s.final is not None:
        s.notes.append(f"{s.current} takes a final turn")


def _round_end_check(s: Draft) -> None:
    empty = [p for p in s.players if s.hands[p] == 0]
    if empty:
        s.notes.append(f"{empty[0]}'s hand is empty")
        _end_round(s)
    elif all(v == HOLE for v in s.grid.values()):
        s.notes.append("the grid is empty")
        _end_round(s)


def _end_round(s: Draft) -> None:
    """Score the round, then end the game or deal the next round."""
    left = [v for v in s.grid.values() if v != HOLE]
    s.discard.extend(left)
    s.notes.append(f"round {s.round} ends; {len(left)} grid cards go to the discard")
    for p in s.players:
        won, hand, zone = len(s.won[p]), s.hands[p], len(s.zones[p])
        s.ledger.append(ScoreItem(p, won, f"{won} won", s.round))
        if hand:
            s.ledger.append(ScoreItem(p, -2 * hand, f"{hand} in hand (−2 each)", s.round))
        if zone:
            s.ledger.append(ScoreItem(p, -3 * zone, f"{zone} in play zone (−3 each)", s.round))
    score = totals(s.ledger, s.players)
    s.notes.append("totals: " + ", ".join(f"{p} {score[p]}" for p in s.players))
    top = max(score.values())
    if top >= s.target:
        leaders = [p for p in s.players if score[p] == top]
        if len(leaders) == 1:
            s.phase = "over"
            s.outcome = Outcome((leaders[0],), f"{leaders[0]} has {top}, the highest total, at "
                                               f"the end of a round reaching {s.target}")
            s.notes.append(s.outcome.reason)
            return
        s.notes.append(f"{' and '.join(leaders)} tie at {top}: another round")
    s.round += 1
    s.starter = (s.starter + 1) % len(s.players)
    s.turn_no += 1
    deal(s)
    s.notes.append(f"round {s.round}: {s.current} opens with 'open <pos>=<type> <pos>=<type>'")
