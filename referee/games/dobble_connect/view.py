"""Dobble Connect's table as text: teams, points, piles, and the hex diagram."""

from __future__ import annotations

from referee.engine import Rules
from referee.games.dobble_connect.model import BLACK, State, diagram, letter


def show(game: Rules, state: State) -> str:
    return "\n".join(header(game, state) + diagram(state.board, game.deck.colors))


def header(game: Rules, s: State) -> list[str]:
    head = (f"Dobble Connect — game over: {s.outcome.reason}" if s.outcome else
            f"Dobble Connect — round {s.round}, black #{s.start} at 0,0; "
            f"{s.target} points win")
    lines = [head]
    for team, members in s.teams.items():
        held = ", ".join(f"{n} {c}" for c, n in s.received[team].items() if n)
        n = s.points[team]
        lines.append(f"  {team} ({'+'.join(members)}): {n} point{'s' if n != 1 else ''}, "
                     f"{game.available(s, team)} {team} cards in piles"
                     + (f", rival cards held: {held}" if held else ""))
    if s.last_win:
        lines.append(f"  last line: {s.last_win}")
    lines.append("  letters: " + ", ".join(f"{letter(c)} {c}" for c in
                                           (*s.teams, BLACK)) + "; · free hex (q,r below)")
    return lines

