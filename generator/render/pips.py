"""The `pips` element: domino pips for 0..9 in a box, a numeral above 9 (double-twelve sets).

Pips sit on a 3x3 grid in the largest square centred in the box, in the classic domino
patterns (2 and 3 on the diagonal, 6 as two columns, 7-9 as on double-nine sets), so a
value reads the same on every tile of every set.
"""

from __future__ import annotations

from generator.render.fonts import font
from generator.render.registry import Ctx, drawer
from pnp_model.cardvalues import fill, resolve_color
from pnp_model.components import Element
from pnp_model.errors import PnpError

# (column, row) on the 3x3 grid, row 0 at the top.
PATTERNS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}
GRID = (0.2, 0.5, 0.8)  # pip centres as fractions of the square's side
PIP_RADIUS = 0.085  # of the square's side
NUMERAL_FONT = "sans-bold"  # embedded, like every font the renderer uses
CAP_HEIGHT = 0.73  # cap height of Vera Bold per point of size


def pip_value(el: Element, ctx: Ctx) -> int:
    """The element's value for this card, or a PnpError naming the card and the element."""
    text = fill(str(el.get("value", "0")), ctx.card).strip()
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise PnpError(f"pips value must be a whole number 0 or more, not {text!r}",
                       f"card {ctx.card.id}, {el.where}.value")
    return value


def pip_centres(value: int, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """Pip centres for value 0..9 in the box whose top-left is (x, y), y down."""
    side = min(w, h)
    left, top = x + (w - side) / 2, y + (h - side) / 2
    return [(left + GRID[c] * side, top + GRID[r] * side) for c, r in PATTERNS[value]]


@drawer("pips")
def draw_pips(ctx: Ctx, el: Element) -> None:
    value = pip_value(el, ctx)
    x, y = el.get("x", 0.0), el.get("y", 0.0)
    w, h = el.get("w", ctx.width - x), el.get("h", ctx.height - y)
    color = resolve_color(fill(str(el.get("color", "black")), ctx.card), ctx.deck.colors,
                          f"card {ctx.card.id}, {el.where}.color")
    c = ctx.canvas
    c.saveState()
    c.setFillColor(color)
    c.setStrokeColor(color)
    if value in PATTERNS:
        radius = PIP_RADIUS * min(w, h)
        for px, py in pip_centres(value, x, y, w, h):
            c.circle(px, ctx.y(py), radius, stroke=0, fill=1)
    else:
        text = str(value)
        name = font(NUMERAL_FONT)
        size = 0.55 * min(w, h) / CAP_HEIGHT
        width = c.stringWidth(text, name, size)
        if width > 0.85 * w:
            size *= 0.85 * w / width
        c.setFont(name, size)
        c.drawCentredString(x + w / 2, ctx.y(y + h / 2) - size * CAP_HEIGHT / 2, text)
    c.restoreState()
