"""Thricewise's position drawn as text: the grid with coordinates, hands, scores, what comes next."""

from __future__ import annotations

from referee.engine import (
    Rules,
    totals,
)
from referee.games.thricewise.decktet import card_by_id
from referee.games.thricewise.model import (
    State,
    draw_grid,
    grid_shape,
    legal_cells,
)


def show(game: Rules, state: State) -> str:
    lines = [(f"Thricewise, turn {state.turn}" if state.turn else "Thricewise, set-up")
             + (" (final turn of deferred cards)" if state.final and state.phase != "over"
                else "")
             + f"; deferred cards: {state.mode}"]
    if state.grid:
        lines += draw_grid(state.cells, state.phase == "place")
    hands = ", ".join(f"{p} {h}" for p, h in zip(state.players, state.hands, strict=True))
    lines.append(f"hands: {hands}; deck {state.deck}")
    waiting = [f"{p} {', '.join(card_by_id(c).label for c in d)}"
               for p, d in zip(state.players, state.deferred, strict=True) if d]
    if waiting:
        lines.append("deferred: " + "; ".join(waiting))
    if state.set_aside:
        lines.append("set aside: " + ", ".join(f"{p} {card_by_id(c).name} ({why})"
                                               for p, c, why in state.set_aside))
    lines.append("now: " + _now(game, state))
    tot = totals(state.ledger, state.players)
    lines.append("scores: " + ", ".join(f"{p} {v}" for p, v in tot.items()))
    return "\n".join(lines)


def _now(game: Rules, state: State) -> str:
    if state.phase == "grid":
        r, c = grid_shape(len(state.players))
        example = ("grid Journey, Mountain / Sea, Bard" if c == 2
                   else "grid Journey, Mountain, Forest / Sea, Bard, End")
        return f"deal the starting grid ({r}×{c}) and type it row by row: {example}"
    if state.phase == "reveal":
        who = [p for p, h in zip(state.players, state.hands, strict=True) if h]
        return ("everyone reveals a card together: reveal "
                + ", ".join(f"{p} <card>" for p in who))
    if state.phase == "place":
        owner, cid = state.pending[0]
        then = ", ".join(f"{p} {card_by_id(c).name}" for p, c in state.pending[1:])
        free = legal_cells(state.cells)
        text = f"{owner} places {card_by_id(cid).label} on a · cell ({len(free)} legal)"
        return text + (f"; then {then}" if then else "")
    out = game.outcome(state)
    return f"game over: {', '.join(out.winners)} ({out.reason})" if out else "game over"
