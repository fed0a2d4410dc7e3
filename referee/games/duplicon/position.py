"""Duplicon positions as text, for disputes: written by `referee position`, read back line by line."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import (
    Draft,
    RefereeError,
    ScoreItem,
    find_player,
    totals,
)
from referee.games.duplicon.model import HAND, HOLE, UNKNOWN, State, card_type, card_types
from referee.position import read_lines

POSITION_HELP = ("round N · starter PLAYER (who opened the round) · turn PLAYER [again] · "
                 "opening · deck N · grid a1=TYPE b2=- (- a hole) · "
                 "hands ana=3 · zones ana=orange,blue · won ana=12 · drew PLAYER · "
                 "final PLAYER,... (- when this is the last final turn) · scores ana=19")


def write_position(s: State) -> str:
    """The position as text that read_position reads back (for disputes)."""
    def each(values: Mapping[str, object]) -> str:
        return " ".join(f"{p}={v}" for p, v in values.items())

    grid = " ".join(f"{pos}={'-' if v == HOLE else v}" for pos, v in s.grid.items()
                    if v != UNKNOWN)
    out = [f"# duplicon position: {POSITION_HELP}", f"round {s.round}",
           f"starter {s.players[s.starter]}",
           "opening" if s.phase == "opening" else f"turn {s.current}" + (" again" * s.chained),
           f"deck {s.deck}"]
    out += [f"grid {grid}"] if grid else []
    out.append(f"hands {each(s.hands)}")
    zones = {p: ",".join(c for c, _ in z) for p, z in s.zones.items() if z}
    out += [f"zones {each(zones)}"] if zones else []
    out.append(f"won {each({p: len(w) for p, w in s.won.items()})}")
    out += [f"drew {p}" for p, d in s.drew_last.items() if d]
    if s.final is not None and s.phase == "play":  # `final -`: nobody after this turn
        out.append(f"final {','.join(s.final) or '-'}")
    out.append(f"scores {each(totals(s.ledger, s.players))}")
    return "\n".join(out) + "\n"


def read_position(state: State, text: str) -> State:
    """A table typed in; the discard holds whatever the other places leave of the 96 cards."""
    s = Draft(state)
    s.ledger, s.phase = [], "play"
    final: tuple[str, ...] | None = None

    def who(name: str) -> str:
        return find_player(s.players, name)

    keys = {"round": 1, "starter": 1, "opening": 0, "turn": 1, "deck": 1, "grid": 0,
            "hands": 0, "won": 0, "scores": 0, "zones": 0, "drew": 1, "final": 1}
    for line in read_lines(text.lower(), keys, f"expected {POSITION_HELP}"):
        head, words = line.key, line.args
        pairs = [w.partition("=")[::2] for w in words]
        with line.reading():
            if head == "round":
                s.round = line.number()
            elif head == "starter":
                s.starter = s.players.index(who(words[0]))
            elif head == "opening":
                s.phase = "opening"
            elif head == "turn":
                s.turn, s.chained = s.players.index(who(words[0])), words[1:] == ("again",)
            elif head == "deck":
                s.deck = line.number()
            elif head == "grid":
                for pos, v in pairs:
                    if pos not in s.grid:
                        raise KeyError(pos)
                    s.grid[pos] = HOLE if v == "-" else UNKNOWN if v == "?" else card_type(v).key
            elif head in ("hands", "won", "scores"):
                for p, v in pairs:
                    if head == "hands":
                        s.hands[who(p)] = int(v)
                    elif head == "won":
                        s.won[who(p)] = [UNKNOWN] * int(v)
                    elif int(v):
                        s.ledger.append(ScoreItem(who(p), int(v), "score when the position "
                                                  "was set up", s.round))
            elif head == "zones":
                for p, v in pairs:
                    s.zones[who(p)] = [(card_type(c).key, 0) for c in v.split(",") if c]
            elif head == "drew":
                s.drew_last[who(words[0])] = True
            else:  # final
                final = tuple(who(p) for p in line.rest.replace(",", " ").split()
                              if p != "-")
    if s.phase == "opening":
        s.turn, s.chained = s.starter, False
    s.last_turn[s.current] = s.turn_no
    if s.phase == "play" and s.deck == 0:
        n = len(s.players)
        s.final = final if final is not None else tuple(
            s.players[(s.turn + i) % n] for i in range(1, n))
    _check_loaded(s)
    return s.done()


def _check_loaded(s: Draft) -> None:
    """The places must hold exactly the printed cards, and no type more often than printed."""
    if min([s.deck, *s.hands.values(), s.round]) < 0 or s.round < 1:
        raise RefereeError("counts in a position are not negative", "position")
    placed = (s.deck + sum(1 for v in s.grid.values() if v != HOLE) + sum(s.hands.values())
              + sum(len(z) for z in s.zones.values()) + sum(len(w) for w in s.won.values()))
    total = sum(t.count for t in card_types())
    if placed > total:
        raise RefereeError(f"deck, grid, hands, play zones and won piles hold {placed} cards; "
                           f"there are {total}", "position")
    s.discard = [UNKNOWN] * (total - placed)
    if s.final is None and s.deck > 0 and any(h < HAND for h in s.hands.values()):
        raise RefereeError("while the deck has cards every hand holds 3 or more", "position")
    for t in card_types():
        seen = sum(1 for v in s.grid.values() if v == t.key) + sum(
            1 for z in s.zones.values() for c, _ in z if c == t.key)
        if seen > t.count:
            raise RefereeError(f"{seen} {t.key} cards in the grid and play zones; there are "
                               f"{t.count}", "position")
