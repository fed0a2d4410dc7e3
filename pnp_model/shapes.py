"""Vector shapes as pure path data, so definitions can name them and the renderer can draw them.

Each shape is a list of subpaths in a unit box from -1 to 1 (y up). Commands are tuples:
("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",). Shapes marked even-odd use the
even-odd fill rule (holes). Names are generic (a crescent, not a suit), so any game can use them.
"""

from __future__ import annotations

import math

K = 0.5522847498  # Bézier circle constant


def _circle(cx: float, cy: float, r: float, clockwise: bool = False) -> list[tuple]:
    k = K * r
    pts = [
        ("M", cx + r, cy),
        ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
        ("Z",),
    ]
    if not clockwise:
        return pts
    return [
        ("M", cx + r, cy),
        ("C", cx + r, cy - k, cx + k, cy - r, cx, cy - r),
        ("C", cx - k, cy - r, cx - r, cy - k, cx - r, cy),
        ("C", cx - r, cy + k, cx - k, cy + r, cx, cy + r),
        ("C", cx + k, cy + r, cx + r, cy + k, cx + r, cy),
        ("Z",),
    ]


def _polygon(points: list[tuple[float, float]]) -> list[tuple]:
    path = [("M", *points[0])] + [("L", *p) for p in points[1:]]
    return path + [("Z",)]


def regular(n: int, r: float = 1.0, start: float = 90.0) -> list[tuple[float, float]]:
    """Corners of a regular n-gon of circumradius r, the first at angle `start` degrees."""
    return [
        (r * math.cos(math.radians(start + 360 * i / n)), r * math.sin(math.radians(start + 360 * i / n)))
        for i in range(n)
    ]


def _star(points: int = 5, inner: float = 0.45) -> list[tuple]:
    outer = regular(points, 1.0)
    inner_pts = regular(points, inner, 90 + 180 / points)
    return _polygon([p for pair in zip(outer, inner_pts, strict=True) for p in pair])


def _heart() -> list[tuple]:
    return [
        ("M", 0, -0.95),
        ("C", -0.35, -0.6, -1.0, -0.2, -1.0, 0.35),
        ("C", -1.0, 0.85, -0.45, 1.05, 0, 0.6),
        ("C", 0.45, 1.05, 1.0, 0.85, 1.0, 0.35),
        ("C", 1.0, -0.2, 0.35, -0.6, 0, -0.95),
        ("Z",),
    ]


def _cross(t: float = 0.34) -> list[tuple]:
    return _polygon([(-t, 1), (t, 1), (t, t), (1, t), (1, -t), (t, -t), (t, -1), (-t, -1),
                     (-t, -t), (-1, -t), (-1, t), (-t, t)])


def _crescent(dx: float = 0.42, dy: float = 0.22, r2: float = 0.8, steps: int = 48) -> list[tuple]:
    """The part of the unit disc outside a second circle: an outer arc, then an inner arc."""
    d = math.hypot(dx, dy)
    base = math.atan2(dy, dx)
    # Angles (seen from each centre) of the two intersection points of the circles.
    a1 = math.acos((1 + d * d - r2 * r2) / (2 * d))
    a2 = math.acos((r2 * r2 + d * d - 1) / (2 * r2 * d))
    outer = [(math.cos(base + a1 + t * (2 * math.pi - 2 * a1) / steps),
              math.sin(base + a1 + t * (2 * math.pi - 2 * a1) / steps)) for t in range(steps + 1)]
    start = base + math.pi + a2
    inner = [(dx + r2 * math.cos(start - t * 2 * a2 / steps),
              dy + r2 * math.sin(start - t * 2 * a2 / steps)) for t in range(steps + 1)]
    return _polygon(outer + inner)


def _sun(rays: int = 12) -> list[tuple]:
    path = _circle(0, 0, 0.55)
    for i in range(rays):
        a = math.radians(360 * i / rays)
        w = math.radians(9)
        path += _polygon([
            (0.66 * math.cos(a - w), 0.66 * math.sin(a - w)),
            (1.0 * math.cos(a), 1.0 * math.sin(a)),
            (0.66 * math.cos(a + w), 0.66 * math.sin(a + w)),
        ])
    return path


def _waves() -> list[tuple]:
    path: list[tuple] = []
    for y in (0.55, 0.0, -0.55):
        top, bot = y + 0.13, y - 0.13
        path += [
            ("M", -1, bot),
            ("C", -0.66, bot + 0.45, -0.33, bot + 0.45, 0, bot),
            ("C", 0.33, bot - 0.45, 0.66, bot - 0.45, 1, bot),
            ("L", 1, top),
            ("C", 0.66, top - 0.45, 0.33, top - 0.45, 0, top),
            ("C", -0.33, top + 0.45, -0.66, top + 0.45, -1, top),
            ("Z",),
        ]
    return path


def _leaf() -> list[tuple]:
    return [
        ("M", -0.75, -0.75),
        ("C", -0.9, 0.3, -0.2, 0.95, 0.85, 0.85),
        ("C", 0.95, -0.2, 0.3, -0.9, -0.75, -0.75),
        ("Z",),
        ("M", -0.95, -0.95),
        ("L", -0.85, -1.0),
        ("L", 0.55, 0.45),
        ("L", 0.45, 0.55),
        ("Z",),
    ]


def _serpent() -> list[tuple]:
    # A thick S: two arcs of a snake body with a head.
    path = [
        ("M", 0.7, 0.75),
        ("C", 0.2, 1.05, -0.75, 0.85, -0.65, 0.3),
        ("C", -0.55, -0.15, 0.55, 0.0, 0.6, -0.45),
        ("C", 0.65, -0.85, -0.2, -0.9, -0.75, -0.6),
        ("L", -0.8, -0.85),
        ("C", -0.1, -1.15, 0.95, -1.0, 0.85, -0.4),
        ("C", 0.75, 0.2, -0.35, 0.05, -0.38, 0.38),
        ("C", -0.4, 0.72, 0.3, 0.72, 0.62, 0.5),
        ("Z",),
    ]
    return path + _circle(0.72, 0.66, 0.2)


def _knot() -> list[tuple]:
    # Four interlaced rings around the centre, drawn with holes (even-odd).
    path: list[tuple] = []
    for cx, cy in ((0.42, 0), (-0.42, 0), (0, 0.42), (0, -0.42)):
        path += _circle(cx, cy, 0.55) + _circle(cx, cy, 0.36, clockwise=True)
    return path


def _ring() -> list[tuple]:
    return _circle(0, 0, 1.0) + _circle(0, 0, 0.55, clockwise=True)


SHAPES: dict[str, tuple[list[tuple], bool]] = {
    "circle": (_circle(0, 0, 1.0), False),
    "square": (_polygon([(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)]), False),
    "triangle": (_polygon(regular(3, 1.0)), False),
    "diamond": (_polygon([(0, 1), (0.7, 0), (0, -1), (-0.7, 0)]), False),
    "pentagon": (_polygon(regular(5, 1.0)), False),
    "hexagon": (_polygon(regular(6, 1.0, 0)), False),
    "star": (_star(), False),
    "heart": (_heart(), False),
    "cross": (_cross(), False),
    "ring": (_ring(), True),
    "crescent": (_crescent(), False),
    "sun": (_sun(), False),
    "waves": (_waves(), False),
    "leaf": (_leaf(), False),
    "serpent": (_serpent(), True),
    "knot": (_knot(), True),
}


def shape_path(name: str) -> tuple[list[tuple], bool]:
    """The path of a named shape and whether it fills even-odd. KeyError for unknown names."""
    return SHAPES[name]
