"""Coda's position as text: the same for everyone (the referee knows no secret)."""

from __future__ import annotations

from referee.engine import totals
from referee.games.coda.model import COLOURS, State, outcome_of, tile_short, value_word


def show(state: State) -> str:
    """Public information only: the same text whoever looks (the referee knows no secret)."""
    kind = "advanced" if state.advanced else "basic"
    head = f"Coda, {kind} game, round {state.round} of {state.rounds}"
    lines = [head + (", sealed" if state.sealed else "")]
    width = max(len(p) for p in state.players)
    for p, row, dealt in zip(state.players, state.rows, state.dealt, strict=True):
        if not dealt:
            lines.append(f"  {p:<{width}}  (no row yet)")
            continue
        tiles = "  ".join(f"{i}:{tile_short(s.tile) if s.tile is not None else 'bw'[s.colour] + '?'}"
                          for i, s in enumerate(row, start=1))
        n = sum(s.tile is None for s in row)
        status = f"{n} hidden"
        if p == state.winner:
            status = "wins the round" + (f", {n} hidden" if n else "")
        elif n == 0:
            status = "out"
        sealed = ", sealed" if any(s.seal for s in row) else ""
        lines.append(f"  {p:<{width}}  {tiles}   ({status}{sealed})")
    lines.append(f"pool: {state.pool[0]} black, {state.pool[1]} white")
    if state.drawn is not None:
        lines.append(f"{state.to_play} holds a drawn {COLOURS[state.drawn]} tile")
    if state.asked:
        a = state.asked[-1]
        lines.append(f"last guess: {a.guesser} said {a.target}'s tile {a.position} is "
                     f"{value_word(a.tile)}: {'hit' if a.hit else 'miss'} (every guess: "
                     "referee log)")
    lines.append("now: " + now_line(state))
    for rep in state.reports:
        lines.append("found: " + rep)
    tot = totals(state.ledger, state.players)
    lines.append("scores: " + ", ".join(f"{p} {v}" for p, v in tot.items()))
    return "\n".join(lines)


def now_line(state: State) -> str:
    me = state.to_play
    if state.phase == "deal":
        missing = [p for p, d in zip(state.players, state.dealt, strict=True) if not d]
        if missing:
            want = 3 if len(state.players) == 4 else 4
            return (f"deal {want} tiles each and type each row's colours left to right: "
                    + "; ".join(f"row {p} ..." for p in missing))
        unsealed = [p for p in state.players if any(not s.seal for s in state.row(p))]
        return f"sealed game: {', '.join(unsealed)} seal their tiles (seal NAME --secret)"
    return {
        "draw": f"{me} draws a tile (draw black|white)",
        "guess": f"{me} guesses (guess NAME POSITION NUMBER hit|miss)"
                 + (" or stops (stop at N)" if state.hits else ""),
        "stop": f"{me} puts the drawn tile in its place (stop at N)",
        "place": f"{me} puts the drawn tile revealed in its place (place NUMBER at N)",
        "expose": f"{me} reveals one of their hidden tiles (reveal POSITION NUMBER)",
        "tally": f"{state.winner} won the round: reveal the hidden tiles (tally N N ...)",
        "closed": f"round {state.round} is over: deal round {state.round + 1} "
                  "(row NAME colours ...)",
        "over": "game over: "
                + (", ".join(outcome_of(state).winners) if outcome_of(state) else ""),
    }[state.phase]
