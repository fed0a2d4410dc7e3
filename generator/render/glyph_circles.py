"""Tight circles around symbols: the smallest circle holding a glyph's outline or an SVG's
points, so that circle packing fills each place with the symbol, not with its empty box.

Pure Python and numpy (no drawing): glyph outlines are read from the TrueType glyph table
that reportlab loaded; a big deck's circles are found on every core (generator.parallel).
"""

from __future__ import annotations

import math
import struct
from functools import cache

from reportlab.pdfbase import pdfmetrics

from pnp_model.errors import PnpError

_GLYPH_CIRCLES: dict[int, tuple[float, float, float]] = {}
MANY_POINTS = 64  # above this, enclosing_circle checks points with numpy


def enclosing_circle(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """The smallest circle holding all points.

    Few points: Welzl's algorithm (iterative, fixed order). Many (a glyph's outline): Welzl on
    a growing subset, starting from the extreme points in 16 directions and adding the
    farthest point left outside until none is; each check of all points is one numpy pass.
    The subset's circle never exceeds the full set's, so the last one is the exact answer."""
    if len(points) <= MANY_POINTS:
        return _welzl(points)
    import numpy as np

    pts = np.asarray(points, dtype=float)
    turns = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    extreme = np.argmax(pts @ np.stack([np.cos(turns), np.sin(turns)]), axis=0)
    subset = [tuple(pts[i]) for i in sorted(set(extreme.tolist()))]
    while True:
        cx, cy, r = _welzl(subset)
        far = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
        k = int(far.argmax())
        if far[k] <= r + 1e-7:
            return cx, cy, r
        subset.append(tuple(pts[k]))


def _welzl(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    pts = sorted(set(points), key=lambda p: (math.sin(p[0] * 12.9898 + p[1] * 78.233), p))
    if not pts:
        return 0.0, 0.0, 1.0
    cx, cy, r = pts[0][0], pts[0][1], 0.0
    eps = 1e-7

    def inside(p, c):
        return math.hypot(p[0] - c[0], p[1] - c[1]) <= c[2] + eps

    circle = (cx, cy, r)
    for i, p in enumerate(pts):
        if inside(p, circle):
            continue
        circle = (p[0], p[1], 0.0)
        for j in range(i):
            q = pts[j]
            if inside(q, circle):
                continue
            circle = _two(p, q)
            for k in range(j):
                s = pts[k]
                if not inside(s, circle):
                    circle = _three(p, q, s)
    return circle


def _two(a, b):
    cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return cx, cy, math.hypot(a[0] - cx, a[1] - cy)


def _three(a, b, c):
    ax, ay = a
    bx, by = b
    cx, cy = c
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if abs(d) < 1e-12:  # collinear: the widest pair
        return max((_two(a, b), _two(a, c), _two(b, c)), key=lambda t: t[2])
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay)
          + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx)
          + (cx * cx + cy * cy) * (bx - ax)) / d
    return ux, uy, math.hypot(ax - ux, ay - uy)


def glyph_circle(font_name: str, code: int) -> tuple[float, float, float]:
    """Centre and radius (font units) of a circle around a glyph's outline.

    The circle is fitted to points sampled along the outline (a hair inside the true curve
    between samples: invisible at print sizes). Composite glyphs use their box.
    """
    if code in _GLYPH_CIRCLES:
        return _GLYPH_CIRCLES[code]
    face = pdfmetrics.getFont(font_name).face
    gid = face.charToGlyph.get(code)
    if gid is None:
        raise PnpError(f"the icon font has no glyph U+{code:04X}")
    glyf = _glyf_table(font_name)
    start, end = face.glyphPos[gid], face.glyphPos[gid + 1]
    data = glyf[start:end]
    if len(data) < 10:
        result = (0.0, 0.0, face.unitsPerEm / 2)
    else:
        ncont, xmin, ymin, xmax, ymax = struct.unpack(">hhhhh", data[:10])
        pts = _simple_points(data, ncont) if ncont > 0 else []
        if not pts:
            pts = [(xmin, ymin), (xmax, ymin), (xmin, ymax), (xmax, ymax)]
        result = enclosing_circle(pts)
        if result[2] <= 0:
            result = (result[0], result[1], face.unitsPerEm / 2)
    _GLYPH_CIRCLES[code] = result
    return result


MANY_ICONS = 200  # above this many icons in a deck, their circles are found on every core


def prefetch_circles(font_name: str, codes: list[int]) -> None:
    """Find the circles of a big deck's icons at once, shared over the cores (each glyph's
    circle is pure Python, so a deck of hundreds of icons is worth sharing)."""
    codes = [c for c in codes if c not in _GLYPH_CIRCLES]
    if len(codes) <= MANY_ICONS:
        return
    import numpy  # noqa: F401  (imported once here, not once in each child)

    from generator.parallel import fork_map

    found = fork_map(lambda code: glyph_circle(font_name, code), codes)
    _GLYPH_CIRCLES.update(zip(codes, found, strict=True))


@cache
def _glyf_table(font_name: str) -> bytes:
    """The font's glyph table, read once (reportlab copies the whole table, large for Font
    Awesome, on every get_table call)."""
    return pdfmetrics.getFont(font_name).face.get_table("glyf")


def _simple_points(data: bytes, ncont: int) -> list[tuple[float, float]]:
    """Points on the outline of a simple TrueType glyph: its on-curve points and three points
    along each quadratic curve (off-curve control points lie outside round shapes)."""
    try:
        ends = struct.unpack(f">{ncont}H", data[10:10 + 2 * ncont])
        npts = ends[-1] + 1
        pos = 10 + 2 * ncont
        (ilen,) = struct.unpack(">H", data[pos:pos + 2])
        pos += 2 + ilen
        flags: list[int] = []
        while len(flags) < npts:
            f = data[pos]
            pos += 1
            flags.append(f)
            if f & 8:
                flags.extend([f] * data[pos])
                pos += 1
        xs, pos = _coords(data, pos, flags, 2, 16)
        ys, _ = _coords(data, pos, flags, 4, 32)
    except (struct.error, IndexError):
        return []
    out: list[tuple[float, float]] = []
    start = 0
    for end in ends:
        contour = [(xs[i], ys[i], bool(flags[i] & 1)) for i in range(start, end + 1)]
        start = end + 1
        out += _outline_points(contour)
    return out


def _outline_points(contour: list[tuple[float, float, bool]]) -> list[tuple[float, float]]:
    if not contour:
        return []
    # insert the implied on-curve midpoint between two consecutive off-curve points
    pts: list[tuple[float, float, bool]] = []
    for i, p in enumerate(contour):
        q = contour[i - 1]
        if not p[2] and not q[2]:
            pts.append(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, True))
        pts.append(p)
    out = [(x, y) for x, y, on in pts if on]
    for i, (x, y, on) in enumerate(pts):
        if on:
            continue
        (ax, ay, _), (bx, by, _) = pts[i - 1], pts[(i + 1) % len(pts)]
        for t in (0.25, 0.5, 0.75):
            u = 1 - t
            out.append((u * u * ax + 2 * u * t * x + t * t * bx,
                        u * u * ay + 2 * u * t * y + t * t * by))
    return out or [(x, y) for x, y, _ in contour]


def _coords(data: bytes, pos: int, flags: list[int], short: int, same: int):
    out, v = [], 0
    for f in flags:
        if f & short:
            d = data[pos]
            pos += 1
            v += d if f & same else -d
        elif not f & same:
            (d,) = struct.unpack(">h", data[pos:pos + 2])
            pos += 2
            v += d
        out.append(v)
    return out, pos
