"""Total ink capped at a limit, the way a press's separations do it.

Past the limit, ink first moves from the grey component of C, M and Y into black (one part of
K replaces a part each of C, M and Y: the colour keeps its darkness with two parts less ink),
then, if that is not enough, C, M and Y shrink together (the hue kept, K untouched). Shops
refuse or muddy ink over their limit: wet sheets stick and dark areas print blotchy.
"""

from __future__ import annotations

DEFAULT = 300.0  # percent: offset presses' usual ceiling (SWOP's own figure)


def cap(inks: tuple[float, float, float, float], limit: float = DEFAULT
        ) -> tuple[float, float, float, float]:
    """C, M, Y, K as fractions 0..1, within limit percent in total."""
    c, m, y, k = inks
    most = limit / 100
    over = c + m + y + k - most
    if over <= 1e-9:
        return inks
    grey = min(c, m, y, 1 - k, over / 2)
    c, m, y, k = c - grey, m - grey, y - grey, k + grey
    colour = c + m + y
    if colour + k > most + 1e-9 and colour > 0:
        s = max(most - k, 0.0) / colour
        c, m, y = c * s, m * s, y * s
    return c, m, y, k


def cap_pixels(inks, limit: float = DEFAULT):
    """The same for an array of 0..255 CMYK pixels (..., 4), as uint8."""
    import numpy as np

    f = inks.astype(np.float32) / 255
    most = limit / 100
    over = f.sum(axis=-1) - most
    if not (over > 1e-6).any():
        return inks
    c, m, y, k = (f[..., i] for i in range(4))
    grey = np.clip(np.minimum.reduce([c, m, y, 1 - k, over / 2]), 0, None)
    c, m, y, k = c - grey, m - grey, y - grey, k + grey
    colour = c + m + y
    s = np.where((colour + k > most) & (colour > 0),
                 np.clip(most - k, 0, None) / np.where(colour > 0, colour, 1), 1.0)
    out = np.stack([c * s, m * s, y * s, k], axis=-1)
    # floor, not round: a rounded-up channel could put a pixel a fraction over the limit
    return np.floor(out * 255 + 1e-4).astype(np.uint8)


def total(inks) -> float:
    """Total ink of fractions C, M, Y, K, in percent."""
    return sum(inks) * 100
