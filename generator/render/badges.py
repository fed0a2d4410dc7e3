"""Icons drawn on discs (`badge = "tint"` on a symbols element): a disc in a pale tint of the
icon's colour, the glyph in its full colour inside it.

Why: a Font Awesome glyph inks under half of the circle around it (a bell, a bicycle), so a
card of bare icons stays mostly blank however tightly they are packed. On a disc, each icon's
place is ink all over and the card reads as a set of coloured badges; the glyph stays the
salient shape because it is the same hue at full strength, large in its disc. The tint is
printed ink (TINT_DEPTH from white in its strongest channel), not a near-white that a
printer drops.
"""

from __future__ import annotations

from reportlab.lib.colors import Color

GLYPH_SHARE = 0.8  # the glyph's enclosing circle over the disc, across
TINT_DEPTH = 64  # the tint's strongest channel sits this far below white (of 255)
GAP_MM = 0.5  # cream between neighbouring discs, so they read as separate badges


def tint(color: Color) -> Color:
    """The colour mixed with white until its strongest channel is TINT_DEPTH below white:
    every hue gets a tint of the same depth (a pale pink, a pale grey), never darker than
    the colour itself."""
    rgb = (color.red, color.green, color.blue)
    strongest = max(1 - v for v in rgb)
    share = min(1.0, TINT_DEPTH / 255 / strongest) if strongest > 0 else 0.0
    return Color(*(1 - share * (1 - v) for v in rgb))


def draw_disc(c, disc: tuple[float, float, float], color: Color) -> None:
    """Fill the disc (centre x, y and radius) in the tint of the icon's colour; the glyph is
    drawn on it next, GLYPH_SHARE of its width."""
    cx, cy, radius = disc
    c.setFillColor(tint(color))
    c.circle(cx, cy, radius, stroke=0, fill=1)
