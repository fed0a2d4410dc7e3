"""CMYK output for print shops: every colour the drawing sets becomes a DeviceCMYK colour.

The conversion from RGB is the plain device one with grey component replacement, the same as
Pillow's: K = 1 - max(R, G, B), and C = (1 - R - K) / (1 - K) (likewise M, Y). So greys, black
included, print with black ink only (#000000 is C0 M0 Y0 K100, not a four-ink muddy black), and a
colour a definition gives as cmyk(C,M,Y,K) (percentages, e.g. rich black cmyk(60,40,40,100))
is kept exactly. No ICC profile is applied: the shop's RIP maps DeviceCMYK to its press.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColor, HexColor, toColor

from generator.colorspec import cmyk_percent


def to_color(literal: str):
    """A resolved colour literal (#rrggbb or cmyk(...)) as a reportlab colour."""
    inks = cmyk_percent(literal)
    return HexColor(literal) if inks is None else CMYKColor(*inks)


def rgb_to_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """Fractions 0..1 in, fractions 0..1 out."""
    k = 1 - max(r, g, b)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)


def enforce_cmyk(value):
    """reportlab's enforceColorSpace hook: any colour in, a CMYKColor out."""
    c = toColor(value)
    if isinstance(c, CMYKColor):
        return c
    alpha = getattr(c, "alpha", 1)
    return CMYKColor(*rgb_to_cmyk(c.red, c.green, c.blue), alpha=alpha)

