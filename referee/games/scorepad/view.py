"""The scorepad as text: one row per player, a column per category, the total, and the round."""

from __future__ import annotations

from pnp_shared.columns import left, widest
from referee.engine import totals
from referee.games.scorepad.model import State


def show(state: State) -> str:
    spec = state.spec
    cats = spec.categories
    table = state.table()
    tot = totals(state.ledger, state.players)
    width = widest(state.players, 6)
    cols = [max(5, len(c)) for c in cats]
    head = f"{'player':<{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cats, cols, strict=True)) \
        + "  total"
    rows = [f"{left(p, width)}  " + "  ".join(f"{table[p][c]:>{w}}" for c, w in zip(cats, cols, strict=True))
            + f"  {tot[p]:>5}" for p in state.players]
    of = f" of {spec.rounds}" if spec.rounds else ""
    title = f"{spec.game}: " if spec.game else ""
    lines = [f"{title}score sheet, round {state.round}{of} ({spec.ending()})", head, *rows]
    if state.over:
        lines.append("the game is over")
    else:
        waiting = state.waiting()
        lines.append("this round: " + (f"waiting for {', '.join(waiting)}" if waiting
                                       else "everyone has scored; `round` closes it"))
    return "\n".join(lines)
