"""Dobble Connect's table as SVG: every card a hexagon in its team's printed colour (black for
start cards) with its card id, the free hexes beside them dashed with the q,r to type, and the
teams with their points under the grid.
"""

from __future__ import annotations

import math

from referee import svg
from referee.games.dobble_connect.model import BLACK, State, around, hex_name

R = 34  # centre to corner of a hexagon, in picture units
LINE = 38  # a line of the legend
# The card colours as printed (templates/dobble-connect/game.toml [colors]); a colour a test's
# own deck names is drawn by its CSS name.
PRINTED = {"pink": "#e6007e", "orange": "#f29100", "green": "#46843c", "blue": "#3a3ad0",
           BLACK: "#1a1a1a"}
STYLE = """
.card{stroke:#fff;stroke-width:3}
.card-id{fill:#fff;font-weight:700}
"""


def colour(name: str) -> str:
    return PRINTED.get(name, name)


def centre(h: tuple[int, int]) -> svg.Point:
    """Axial (q, r) to the page: rows of pointy-top hexagons, r downwards."""
    q, r = h
    return R * math.sqrt(3) * (q + r / 2), 1.5 * R * r


def picture(game, state: State) -> str:
    colors = game.deck.colors
    title = f"Dobble Connect, round {state.round}: {len(state.board)} cards on the table"
    body: list[str] = []
    spots: list[svg.Point] = []
    free = {n for h in state.board for n in around(h)} - set(state.board)
    for h in sorted(free):
        pts = svg.hexagon_points(*centre(h), R - 2)
        spots += pts
        body.append(svg.group([svg.polygon(pts, "free"),
                               svg.text(*centre(h), hex_name(h), 12, "free-label")],
                              "free-hex", data_hex=hex_name(h)))
    for h, card in state.board.items():
        pts = svg.hexagon_points(*centre(h), R - 1)
        spots += pts
        team = colors[card]
        body.append(svg.group([svg.polygon(pts, "card", fill=colour(team)),
                               svg.text(*centre(h), card, 20, "card-id")],
                              "placed", data_hex=hex_name(h), data_card=card, data_team=team))
    x, y, w, h = svg.bounds(spots)
    legend_y = y + h + 34
    for k, (team, members) in enumerate(state.teams.items()):
        row = legend_y + LINE * k
        body.append(svg.card(x, row - 14, 28, 28, "", 5, fill=colour(team)))
        points = state.points.get(team, 0)
        body.append(svg.text(x + 40, row, f"{team}: {'+'.join(members)} — {points} point"
                             f"{'s' if points != 1 else ''}", 24, anchor="start"))
    height = legend_y + LINE * len(state.teams) - 20 - y
    return svg.document(body, (x, y, max(w, 300), height), title, STYLE)
