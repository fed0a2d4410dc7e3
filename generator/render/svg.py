"""SVG art read as vector drawings (svglib), checked before it can reach the PDF writer.

Symbols (generator.render.symbols) and `image` elements (generator.render.images) both draw an
SVG once into a PDF form and place it by reference; this module reads and checks the file.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from pnp_model.errors import PnpError

SVG_LIMIT = 1e6  # SVG user units; far beyond any drawing, far below what breaks the PDF writer


@dataclass(frozen=True)
class Svg:
    drawing: object  # reportlab.graphics.shapes.Drawing
    bounds: tuple[float, float, float, float]  # the ink's box, drawing units
    page: tuple[float, float]  # the SVG's own width and height (its viewBox), drawing units
    points: list[tuple[float, float]]  # points along the ink (empty: unknown shapes)
    pad: float  # half the widest stroke


def read_svg(path: Path) -> Svg:
    """The SVG as a reportlab Drawing, every coordinate checked; a PnpError names the file."""
    try:
        from svglib.svglib import svg2rlg
    except ImportError:
        raise PnpError("SVG art needs the svglib package (pip install svglib)",
                       str(path)) from None
    _check_size(path)
    try:
        drawing = svg2rlg(str(path))
        bounds = drawing.getBounds() if drawing is not None else None
    except Exception as e:  # svglib and lxml raise many kinds for a malformed file
        raise PnpError(f"cannot read this SVG file: {e}", str(path)) from None
    if not bounds:
        raise PnpError("cannot read this SVG file (nothing to draw)", str(path))
    # reportlab's default state font is Helvetica, which it would reference without embedding
    # it (preflight and print shops reject that): start from our embedded sans instead.
    from generator.render.fonts import font

    drawing.initialFontName = font("sans")
    pts, pad = drawing_points(drawing)
    page = (float(drawing.width or 0), float(drawing.height or 0))
    _check_coordinates([*bounds, *page, *(v for p in pts for v in p), pad], path)
    return Svg(drawing, tuple(bounds), page, pts, pad)


_NUMBER = re.compile(rb"\d+(?:\.\d*)?|\.\d+")


def _check_size(path: Path) -> None:
    """Refuse an SVG past the limits of pnp_shared.limits before svglib reads it: its time and
    memory grow with the tags and the numbers (every point of a path), not with the bytes."""
    from pnp_shared import limits

    try:
        size = path.stat().st_size
        data = path.read_bytes() if size <= limits.MAX_SVG_BYTES else b""
    except OSError as e:
        raise PnpError(f"cannot read this SVG file: {e.strerror}", str(path)) from None
    counts = [("bytes", size, limits.MAX_SVG_BYTES),
              ("elements", data.count(b"<"), limits.MAX_SVG_ELEMENTS),
              ("numbers", sum(1 for _ in _NUMBER.finditer(data)), limits.MAX_SVG_NUMBERS)]
    for what, count, most in counts:
        if count > most:
            raise PnpError(f"this SVG file has {count:,} {what}, more than the limit of "
                           f"{most:,}: simplify it, or save it as a PNG", str(path))


def _check_coordinates(values: list[float], path: Path) -> None:
    """nan, inf or a coordinate past ±SVG_LIMIT would reach the PDF writer and crash it."""
    if not all(math.isfinite(v) and abs(v) <= SVG_LIMIT for v in values):
        raise PnpError(f"this SVG file has a coordinate that is not a number from -{SVG_LIMIT:g} "
                       f"to {SVG_LIMIT:g} (nan, inf or 1e308?)", str(path))


def drawing_points(drawing) -> tuple[list[tuple[float, float]], float]:
    """Points along a reportlab Drawing's shapes (for a tight circle) and half the widest
    stroke; ([], 0) when a shape is of a kind this does not know, so the box is used."""
    from reportlab.graphics import shapes as sh

    out: list[tuple[float, float]] = []
    pad = 0.0

    def walk(node, m):
        nonlocal pad
        if isinstance(node, sh.Group):
            t = getattr(node, "transform", None) or (1, 0, 0, 1, 0, 0)
            m2 = sh.mmult(m, t)
            for child in node.getContents():
                if not walk(child, m2):
                    return False
            return True
        if getattr(node, "strokeColor", None) is not None:
            pad = max(pad, (getattr(node, "strokeWidth", 1) or 0) / 2)
        if isinstance(node, sh.Circle | sh.Ellipse):
            rx = getattr(node, "rx", None) or node.r
            ry = getattr(node, "ry", None) or node.r
            local = [(node.cx + rx * math.cos(a * math.pi / 16),
                      node.cy + ry * math.sin(a * math.pi / 16)) for a in range(32)]
        elif isinstance(node, sh.Path | sh.Polygon | sh.PolyLine):
            p = list(node.points)
            local = list(zip(p[0::2], p[1::2], strict=False))
        elif isinstance(node, sh.Rect | sh.Line | sh.String):
            bx1, by1, bx2, by2 = node.getBounds()
            local = [(bx1, by1), (bx2, by1), (bx1, by2), (bx2, by2)]
        else:
            return False
        out.extend(sh.transformPoint(m, p) for p in local)
        return True

    ok = walk(drawing, (1, 0, 0, 1, 0, 0))
    return (out, pad) if ok else ([], 0.0)
