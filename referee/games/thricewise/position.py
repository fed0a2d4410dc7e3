"""Thricewise positions as text, for disputes, and the questions `referee ask` answers."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import replace

from referee.engine import (
    InvalidMove,
    RefereeError,
    Rules,
    ScoreItem,
    find_player,
    totals,
)
from referee.games.thricewise.decktet import card_by_id, deck, find_card
from referee.games.thricewise.model import (
    MAX_SPAN,
    POSITION_HELP,
    State,
    box,
    cell_name,
    legal_cells,
    parse_cell,
)
from referee.position import Line, read_lines


def write_position(game: Rules, state: State) -> str:
    """The position as text that load_position reads back (disputes)."""
    def pairs(items) -> str:
        return ", ".join(f"{a} {b}" for a, b in items)

    name = lambda cid: card_by_id(cid).name  # noqa: E731
    out = [f"# thricewise position: {POSITION_HELP}", f"turn {state.turn}"]
    out += [f"grid {pairs((cell_name(c), name(x)) for c, x in state.grid)}"]
    out += [f"hands {pairs(zip(state.players, state.hands, strict=True))}",
            f"deck {state.deck}"]
    deferred = [(p, name(c)) for p, d in zip(state.players, state.deferred, strict=True)
                for c in d]
    out += [f"deferred {pairs(deferred)}"] if deferred else []
    out += [f"aside {pairs((p, name(c)) for p, c, _ in state.set_aside)}"] if (
        state.set_aside) else []
    out += [f"pending {pairs((p, name(c)) for p, c in state.pending)}"] if (
        state.pending) else []
    out += [f"drawers {' '.join(state.drawers)}"] if state.drawers else []
    out += ["final"] if state.final else []
    out.append(f"scores {pairs(totals(state.ledger, state.players).items())}")
    return "\n".join(out) + "\n"


def read_position(game: Rules, state: State, text: str) -> State:
    """A position typed in or written by `position`; checks each card is seen once and
    that hands and deck account for every unseen card."""
    data: dict[str, list[tuple[str, str]]] = {}
    words: dict[str, str] = {}
    lines: dict[str, Line] = {}
    keys = dict.fromkeys(("turn", "grid", "hands", "deck", "deferred", "aside", "pending",
                          "drawers", "final", "scores"), 0)
    for line in read_lines(text, keys, f"expected {POSITION_HELP}"):
        words[line.key], lines[line.key] = line.rest, line
        items = [i.split(None, 1) for i in line.rest.split(",") if i.strip()]
        data[line.key] = [(i[0], i[1].strip() if len(i) > 1 else "") for i in items]

    def who(name: str) -> str:
        return find_player(state.players, name, "position", RefereeError)

    def number(text: str, what: str) -> int:
        if not text.strip().isdigit():
            raise RefereeError(f"{what} must be a number, not {text!r}", "position")
        return int(text)

    def reading(key: str):  # errors in a line name it
        return lines[key].reading() if key in lines else nullcontext()

    with reading("grid"):
        grid = tuple((parse_cell(c), find_card(n).id) for c, n in data.get("grid", []))
    hands = dict.fromkeys(state.players, 0)
    with reading("hands"):
        hands.update({who(p): number(n, "a hand") for p, n in data.get("hands", [])})
    deferred: dict[str, list[int]] = {p: [] for p in state.players}
    with reading("deferred"):
        for p, n in data.get("deferred", []):
            deferred[who(p)].append(find_card(n).id)
    with reading("aside"):
        aside = tuple((who(p), find_card(n).id, "set aside") for p, n in data.get("aside", []))
    with reading("pending"):
        pending = tuple((who(p), find_card(n).id) for p, n in data.get("pending", []))
    seen = [c for _, c in grid] + [c for d in deferred.values() for c in d]
    seen += [c for _, c, _ in aside] + [c for _, c in pending]
    twice = sorted({card_by_id(c).name for c in seen if seen.count(c) > 1})
    if twice:
        raise RefereeError(f"each card exists once: {', '.join(twice)}", "position")
    if len({c for c, _ in grid}) != len(grid):
        raise RefereeError("two cards on one cell", "position grid")
    if grid:
        c0, r0, c1, r1 = box([c for c, _ in grid])
        if c1 - c0 + 1 > MAX_SPAN or r1 - r0 + 1 > MAX_SPAN:
            raise RefereeError(f"the grid is {c1 - c0 + 1} columns wide and {r1 - r0 + 1} "
                               f"rows tall, more than {MAX_SPAN} (T3)", "position grid")
    deck_left = number(words.get("deck", "0"), "deck")
    unseen = len(deck()) - len(seen)
    if deck_left + sum(hands.values()) != unseen:
        raise RefereeError(f"hands ({sum(hands.values())}) and deck ({deck_left}) must "
                           f"hold the {unseen} unseen cards", "position")
    ledger = tuple(ScoreItem(who(p), number(v, "a score"), "score of the position")
                   for p, v in data.get("scores", []) if v != "0")
    new = replace(state, grid=grid, hands=tuple(hands[p] for p in state.players),
                  deck=deck_left, deferred=tuple(tuple(deferred[p]) for p in state.players),
                  set_aside=aside, pending=pending, final="final" in words,
                  drawers=tuple(who(p) for p in words.get("drawers", "").split()),
                  turn=number(words.get("turn", "1"), "turn"), ledger=ledger)
    if not grid:
        return replace(new, phase="grid")
    if pending:
        return replace(new, phase="place")
    if any(new.hands):
        return replace(new, phase="reveal")
    return game.advance(replace(new, phase="drawn"), [])


def query(game: Rules, state: State, text: str) -> str:
    """Settle a question at the table: `cells` lists where the next card may go;
    `where Journey` says where a card is (each card exists once)."""
    words = text.split()
    if words[:1] == ["cells"]:
        if state.phase != "place":
            return "no card is waiting to be placed"
        owner, cid = state.pending[0]
        free = legal_cells(state.cells)
        shown = " ".join(cell_name(x) for x in free) or "none: it is set aside (T4)"
        return f"{owner}'s {card_by_id(cid).label} may go on {len(free)} cell(s): {shown}"
    if words[:1] == ["where"] and len(words) > 1:
        c = find_card(" ".join(words[1:]))
        return f"{c.name} is " + (game.where_is(state, c.id) or "unseen (in a hand or the deck)")
    raise InvalidMove("ask `cells` (where the next card may go) or `where CARD`")
