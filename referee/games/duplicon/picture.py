"""Duplicon's table as SVG: the 3×3 grid with its a-c / 1-3 labels, every card face down; a
card the table has seen shows the type it was (what everyone saw when it was turned), an
unseen one only its back, a hole (the deck ran out) a dashed outline; under it, each player's
play zone face up.
"""

from __future__ import annotations

from referee import svg
from referee.games.duplicon.model import HOLE, POSITIONS, UNKNOWN, State

CW, CH, GAP = 84, 112, 10
ZONE = 46  # a play-zone card, drawn smaller
# The printed colours (templates/duplicon/game.toml [colors], the Okabe-Ito palette).
PRINTED = {"orange": "#e69f00", "skyblue": "#56b4e9", "green": "#009e73", "yellow": "#f0e442",
           "blue": "#0072b2", "vermilion": "#d55e00", "purple": "#cc79a7", "black": "#1a1a1a"}
STYLE = """
.back{fill:#2b3a67;stroke:#1a1a1a;stroke-width:2}
.inset{fill:#fdfcf8;stroke:#1a1a1a;stroke-width:1}
.face{fill:#fdfcf8;stroke:#1a1a1a;stroke-width:2}
.shape{stroke:#1a1a1a;stroke-width:1.5}
.axis{fill:#555;font-weight:700}
.unseen{fill:#c9d3f0;font-weight:700}
"""


def picture(game, state: State) -> str:
    title = f"Duplicon, round {state.round}: the grid as the table has seen it"
    body = [svg.text(30 + k * (CW + GAP) + CW / 2, 10, c, 18, "axis") for k, c in
            enumerate("abc")]
    body += [svg.text(10, 30 + k * (CH + GAP) + CH / 2, r, 18, "axis") for k, r in
             enumerate("123")]
    for pos in POSITIONS:
        col, row = "abc".index(pos[0]), int(pos[1]) - 1
        x, y = 30 + col * (CW + GAP), 30 + row * (CH + GAP)
        body.append(_grid_card(x, y, state.grid.get(pos, UNKNOWN), pos))
    y = 30 + 3 * (CH + GAP) + 16
    first = max(100, 12 + svg.name_width(state.players, 16))  # the zones start past the names
    for player in state.players:
        body.append(svg.name(0, y + ZONE / 2, player, 16, font_weight=700))
        zone = state.zones.get(player, [])
        if not zone:
            body.append(svg.text(first, y + ZONE / 2, "play zone empty", 14, "note",
                                 anchor="start"))
        for k, (kind, _turn) in enumerate(zone):
            x = first + k * (ZONE + 8)
            body.append(svg.group([svg.card(x, y, ZONE, ZONE, "face", 5),
                                   _shape(kind, x + ZONE / 2, y + ZONE / 2, ZONE * 0.32)],
                                  "zone-card", data_type=kind))
        y += ZONE + 10
    return svg.document(body, (0, 0, max(30 + 3 * (CW + GAP), first + 120), y), title, STYLE)


def _grid_card(x: float, y: float, kind: str, pos: str) -> str:
    if kind == HOLE:
        return svg.group([svg.card(x, y, CW, CH, "free", 8)], "hole", data_pos=pos)
    parts = [svg.card(x, y, CW, CH, "back", 8)]
    if kind == UNKNOWN:
        parts.append(svg.text(x + CW / 2, y + CH / 2, "?", 30, "unseen"))
        return svg.group(parts, "unseen-card", data_pos=pos)
    parts.append(svg.card(x + 12, y + 14, CW - 24, CW - 24, "inset", 6))
    parts.append(_shape(kind, x + CW / 2, y + 14 + (CW - 24) / 2, (CW - 24) * 0.34))
    parts.append(svg.text(x + CW / 2, y + CH - 16, "seen", 12, "unseen"))
    return svg.group(parts, "seen-card", data_pos=pos, data_type=kind)


def _shape(kind: str, cx: float, cy: float, r: float) -> str:
    """The type's shape in its colour (colour-shape, e.g. orange-circle)."""
    colour, _, shape = kind.partition("-")
    fill = PRINTED.get(colour, colour)
    if shape == "circle":
        return (f'<circle class="shape" cx="{svg.num(cx)}" cy="{svg.num(cy)}" r="{svg.num(r)}" '
                f'fill="{fill}"/>')
    if shape == "square":
        return svg.card(cx - r, cy - r, 2 * r, 2 * r, "shape", 1, fill=fill)
    points = {
        "triangle": [(0, -1.1), (1, 0.75), (-1, 0.75)],
        "diamond": [(0, -1.2), (0.85, 0), (0, 1.2), (-0.85, 0)],
        "star": [(0, -1.15), (0.3, -0.35), (1.1, -0.35), (0.45, 0.15), (0.7, 1),
                 (0, 0.5), (-0.7, 1), (-0.45, 0.15), (-1.1, -0.35), (-0.3, -0.35)],
        "heart": [(0, 1), (-1, 0), (-1, -0.5), (-0.5, -0.95), (0, -0.55), (0.5, -0.95),
                  (1, -0.5), (1, 0)],
        "hexagon": [(0, -1.1), (0.95, -0.55), (0.95, 0.55), (0, 1.1), (-0.95, 0.55),
                    (-0.95, -0.55)],
        "cross": [(-0.3, -1), (0.3, -1), (0.3, -0.3), (1, -0.3), (1, 0.3), (0.3, 0.3), (0.3, 1),
                  (-0.3, 1), (-0.3, 0.3), (-1, 0.3), (-1, -0.3), (-0.3, -0.3)],
    }.get(shape, [(-1, -1), (1, -1), (1, 1), (-1, 1)])
    return svg.polygon([(cx + r * px, cy + r * py) for px, py in points], "shape", fill=fill)
