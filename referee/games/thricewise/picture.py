"""Thricewise's tableau as SVG: the grid of Decktet cards with its column letters and row
numbers (the cells to type), each card's rank, name and suits, the latest card ringed and,
while a card waits to be placed, the legal cells dashed.
"""

from __future__ import annotations

from referee import svg
from referee.games.thricewise.decktet import card_by_id
from referee.games.thricewise.model import State, box, cell_name, legal_cells

CW, CH, GAP = 96, 124, 8  # a card and the space between cards
SUIT_COLOURS = {"moons": "#5b6c9a", "suns": "#d99a00", "waves": "#1f78b4",
                "leaves": "#2e8b3a", "wyrms": "#b22222", "knots": "#8b5a2b"}
STYLE = """
.card{fill:#fffdf7;stroke:#3b3b3b;stroke-width:2}
.rank{font-weight:700}
.axis{fill:#555;font-weight:700}
"""


def picture(game, state: State) -> str:
    title = f"Thricewise, turn {state.turn}: {len(state.grid)} cards in the tableau"
    cells = state.cells
    if not cells:
        return svg.message("no cards yet: deal the starting grid")
    free = set(legal_cells(cells)) if state.phase == "place" else set()
    c0, r0, c1, r1 = box([*cells, *free])
    latest = state.grid[-1][0]

    def at(cell: tuple[int, int]) -> svg.Point:
        return 30 + (cell[0] - c0) * (CW + GAP), 30 + (cell[1] - r0) * (CH + GAP)

    body = [svg.text(at((c, r0))[0] + CW / 2, 10, cell_name((c, 1))[0], 18, "axis")
            for c in range(c0, c1 + 1)]
    body += [svg.text(10, at((c0, r))[1] + CH / 2, r, 18, "axis") for r in range(r0, r1 + 1)]
    for cell in sorted(free):
        x, y = at(cell)
        body.append(svg.group([svg.card(x, y, CW, CH, "free", 8),
                               svg.text(x + CW / 2, y + CH / 2, cell_name(cell), 16,
                                        "free-label")], "free-cell", data_cell=cell_name(cell)))
    for cell, card_id in cells.items():
        body.append(_card(*at(cell), card_id, cell == latest, cell_name(cell)))
    width = 30 + (c1 - c0 + 1) * (CW + GAP)
    height = 30 + (r1 - r0 + 1) * (CH + GAP)
    return svg.document(body, (0, 0, width, height), title, STYLE)


def _card(x: float, y: float, card_id: int, latest: bool, where: str) -> str:
    card = card_by_id(card_id)
    parts = [svg.card(x, y, CW, CH, "card latest" if latest else "card", 8),
             svg.text(x + 14, y + 18, card.short, 22, "rank")]
    words = (card.name if card.value != 1 else card.suits[0].capitalize()).split()
    for k, word in enumerate(words[:2]):
        parts.append(svg.text(x + CW / 2, y + 54 + 18 * k, word, 16))
    for k, suit in enumerate(card.suits):
        cx = x + CW / 2 + (k - (len(card.suits) - 1) / 2) * 28
        parts.append(f'<circle cx="{svg.num(cx)}" cy="{svg.num(y + CH - 22)}" r="12" '
                     f'fill="{SUIT_COLOURS.get(suit, "#777")}"/>')
        parts.append(svg.text(cx, y + CH - 22, suit[:2].capitalize(), 10, "", fill="#fff"))
    return svg.group(parts, "placed", data_cell=where, data_card=card.name)
