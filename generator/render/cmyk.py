"""CMYK output for print shops: every colour the drawing sets becomes a DeviceCMYK colour.

The conversion from RGB is the plain device one with full grey component replacement (not
Pillow's, which puts no black): K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K) (likewise M, Y).
So greys, black included, print with black ink only (#000000 is C0 M0 Y0 K100, not a four-ink
muddy black), and a colour a definition gives as cmyk(C,M,Y,K) (percentages, e.g. rich black
cmyk(60,40,40,100)) is kept exactly. No ICC profile is applied: the shop's RIP maps DeviceCMYK
to its press.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColor, HexColor, toColor

from pnp_model.colorspec import cmyk_percent


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



def cmyk_image(image):
    """A PIL image as a CMYK one by the same conversion as colours (Pillow's own RGB->CMYK
    conversion puts no black at all: K = 0)."""
    import numpy as np
    from PIL import Image

    rgb = np.asarray(image.convert("RGB"), dtype=np.float32) / 255
    k = 1 - rgb.max(axis=2, keepdims=True)
    cmy = (1 - rgb - k) / np.where(k < 1, 1 - k, 1)
    inks = np.concatenate([cmy, k], axis=2)
    return Image.fromarray(np.round(inks * 255).astype(np.uint8), "CMYK")
