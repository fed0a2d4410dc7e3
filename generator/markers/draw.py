"""The `marker` element: the card's ArUco code as vector squares (sharp at any print size)."""

from __future__ import annotations

from generator.render.registry import Ctx, drawer
from pnp_model.components import Element

from .codes import cells


@drawer("marker")
def draw_marker(ctx: Ctx, el: Element) -> None:
    if ctx.card.marker is None:  # a build without --markers leaves the room to the design
        return
    fixed = el.get("shared")  # a back's: the same on every card, so a face-down card tells nothing
    grid = cells(ctx.card.marker if fixed is None else int(fixed))
    size = el.get("size")
    cell = size / len(grid)
    left = el.get("x") - size / 2
    top = ctx.y(el.get("y") - size / 2)
    c = ctx.canvas
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    for row, line in enumerate(grid):  # one rectangle per run of black cells: no seams
        col = 0
        while col < len(line):
            if not line[col]:
                col += 1
                continue
            end = col
            while end < len(line) and line[end]:
                end += 1
            c.rect(left + col * cell, top - (row + 1) * cell, (end - col) * cell, cell,
                   stroke=0, fill=1)
            col = end
    c.restoreState()
