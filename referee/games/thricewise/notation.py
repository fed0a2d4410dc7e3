"""Thricewise's moves as typed: `grid ...`, `reveal ana Journey, ben Sea`, `Journey E4`."""

from __future__ import annotations

from referee.engine import InvalidMove, Rules
from referee.games.thricewise.decktet import card_by_id, find_card, parse_cards
from referee.games.thricewise.model import (
    CELL_RE,
    Grid,
    Place,
    Reveal,
    SetAside,
    State,
    cell_name,
    parse_cell,
)


def parse_move(game: Rules, state: State, text: str, player: str | None = None):
    words = text.replace("=", " ").replace(":", " ").split()
    if not words:
        raise InvalidMove("empty move")
    verb = words[0].lower()
    rest = " ".join(words[1:])
    if verb == "grid":
        rows = tuple(tuple(c.id for c in parse_cards(r)) for r in rest.split("/"))
        if not any(rows):
            raise InvalidMove("expected the starting grid row by row: "
                              "grid Journey, Mountain / Forest, Sea")
        return Grid(rows)
    if verb == "reveal":
        return parse_reveal(game, state, words[1:])
    if verb in ("set-aside", "setaside", "aside"):
        return SetAside(card_or_next(game, state, rest), player)
    if verb == "place":
        words = words[1:]
    words = [w for w in words if w.lower() != "at"]
    if words and CELL_RE.match(words[-1]):
        cell = parse_cell(words[-1])
        return Place(card_or_next(game, state, " ".join(words[:-1])), cell, player)
    if words and CELL_RE.match(words[0]):
        cell = parse_cell(words[0])
        return Place(card_or_next(game, state, " ".join(words[1:])), cell, player)
    raise InvalidMove(f"cannot read {text!r}: expected `grid ...`, `reveal ana Journey, "
                      "ben Sea`, a placement like `Journey E4` (or `E4`), or `set-aside "
                      "Journey`")


def card_or_next(game: Rules, state: State, text: str) -> int:
    if text.strip():
        return find_card(text).id
    if not state.pending:
        raise InvalidMove("no card is waiting to be placed: name the card (Journey E4)")
    return state.pending[0][1]


def parse_reveal(game: Rules, state: State, words: list[str]) -> Reveal:
    names = {p.lower(): p for p in state.players}
    plays: list[tuple[str, list[str]]] = []
    for group in " ".join(words).split(","):
        for n, w in enumerate(group.split()):
            if w.lower() in names:
                plays.append((names[w.lower()], []))
            elif not plays or (n == 0 and plays[-1][1]):  # a comma starts the next player
                raise InvalidMove(f"expected a player name before {w!r} "
                                  f"({', '.join(state.players)}): reveal ana Journey, ben Sea")
            else:
                plays[-1][1].append(w)
    if not plays:
        raise InvalidMove("expected each player and the card they reveal: "
                          "reveal ana Journey, ben Sea")
    seen = set()
    out = []
    for p, ws in plays:
        if p in seen:
            raise InvalidMove(f"{p} appears twice in the reveal")
        seen.add(p)
        if not ws:
            raise InvalidMove(f"which card did {p} reveal? (reveal {p} Journey)")
        found = parse_cards(" ".join(ws))
        if len(found) != 1:
            raise InvalidMove(f"{p} reveals one card, not {len(found)}")
        out.append((p, found[0].id))
    return Reveal(tuple(out))


def format_move(game: Rules, state: State, move) -> str:
    if isinstance(move, Grid):
        return "grid " + " / ".join(", ".join(card_by_id(c).name for c in r)
                                    for r in move.rows)
    if isinstance(move, Reveal):
        return "reveal " + ", ".join(f"{p} {card_by_id(c).name}" for p, c in move.plays)
    if isinstance(move, Place):
        return f"{card_by_id(move.card).name} {cell_name(move.cell)}"
    if isinstance(move, SetAside):
        return f"set-aside {card_by_id(move.card).name}"
    raise TypeError(move)

