"""The outline of a card shape as a reportlab path: used to clip the art and as a cut guide."""

from __future__ import annotations

import math

from pnp_model.shapes import K


def outline(canvas, shape: str, w: float, h: float, grow: float = 0.0, radius: float = 0.0):
    """Path of the card's trim outline in card coordinates, grown outward by `grow` (bleed)."""
    p = canvas.beginPath()
    if shape == "circle":
        p.circle(w / 2, h / 2, min(w, h) / 2 + grow)
    elif shape == "hexagon":
        _polygon(p, hexagon(w, h, grow))
    elif shape == "triangle":
        _polygon(p, triangle(w, h, grow))
    elif radius > 0 and grow == 0:
        p.roundRect(0, 0, w, h, radius)
    else:
        p.rect(-grow, -grow, w + 2 * grow, h + 2 * grow)
    return p


def hexagon(w: float, h: float, grow: float = 0.0) -> list[tuple[float, float]]:
    """A hexagon filling the box: flat-topped when the box is wider than tall, else pointy.

    Growing a regular hexagon's edges by g moves its corners out by 2g/sqrt(3).
    """
    cx, cy, rx, ry = w / 2, h / 2, w / 2, h / 2
    k = 2 / math.sqrt(3)
    if w >= h:
        rx, ry = rx + k * grow, ry + grow
        return [(cx + rx, cy), (cx + rx / 2, cy + ry), (cx - rx / 2, cy + ry), (cx - rx, cy),
                (cx - rx / 2, cy - ry), (cx + rx / 2, cy - ry)]
    rx, ry = rx + grow, ry + k * grow
    return [(cx, cy + ry), (cx - rx, cy + ry / 2), (cx - rx, cy - ry / 2), (cx, cy - ry),
            (cx + rx, cy - ry / 2), (cx + rx, cy + ry / 2)]


def triangle(w: float, h: float, grow: float = 0.0) -> list[tuple[float, float]]:
    """The up-pointing triangle filling the box, its edges pushed out by `grow`."""
    # For an equilateral triangle, moving each edge out by g moves each corner out by 2g.
    cx, cy = w / 2, h / 3
    pts = [(0.0, 0.0), (w, 0.0), (w / 2, h)]
    out = []
    for x, y in pts:
        d = math.hypot(x - cx, y - cy)
        out.append((x + (x - cx) / d * 2 * grow, y + (y - cy) / d * 2 * grow))
    return out


def _polygon(path, pts: list[tuple[float, float]]) -> None:
    path.moveTo(*pts[0])
    for x, y in pts[1:]:
        path.lineTo(x, y)
    path.close()


def shape_path(canvas, commands: list[tuple], cx: float, cy: float, r: float):
    """A pnp_model.shapes path scaled by r and centred at (cx, cy)."""
    p = canvas.beginPath()
    for cmd in commands:
        op, args = cmd[0], cmd[1:]
        pts = [(cx + args[i] * r, cy + args[i + 1] * r) for i in range(0, len(args), 2)]
        if op == "M":
            p.moveTo(*pts[0])
        elif op == "L":
            p.lineTo(*pts[0])
        elif op == "C":
            p.curveTo(*pts[0], *pts[1], *pts[2])
        else:
            p.close()
    return p


__all__ = ["K", "hexagon", "outline", "shape_path", "triangle"]
