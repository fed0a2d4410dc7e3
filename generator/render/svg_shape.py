"""An SVG symbol's silhouette: its shapes filled on a coarse grid, so SVG decks pack by shape.

Raster symbols are packed by the cells their ink covers (generator.layout.silhouettes); an SVG
has no pixels, so each shape of its drawing is turned into polygons (curves sampled finely,
circles and ellipses as 32-gons, lines as strokes, rectangles and text as their boxes) in
drawing units and filled with Pillow on a grid a few times finer than the silhouette's cells,
each outlined as wide as its stroke (and at least two fine pixels, so that a sliver of ink
still marks its cell); a cell is inked when any of its pixels is. Holes are filled, as a raster
symbol's enclosed background is kept: nothing else goes inside a drawn ring. A shape of a kind
this does not know, or one it cannot read, gives no silhouette (None): the symbol is then
packed by its circle.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from generator.layout.silhouettes import Silhouette
from generator.render.art import MASK_CELLS  # as many cells as a raster symbol's mask

FINE = 4  # pixels per cell side when filling the polygons
CURVE_STEPS = 8  # points per Bezier segment


def svg_silhouette(drawing, bounds: tuple[float, float, float, float], pad: float
                   ) -> tuple[Silhouette, float, float] | None:
    """The drawing's silhouette and its centre (drawing units, y up), or None."""
    try:
        polygons = _polygons(drawing)
    except (ArithmeticError, IndexError, TypeError, ValueError):  # a shape svglib made oddly
        polygons = None
    if polygons is None:
        return None
    x1, y1, x2, y2 = bounds
    x1, y1, x2, y2 = x1 - pad, y1 - pad, x2 + pad, y2 + pad
    cell = max(x2 - x1, y2 - y1, 1e-9) / MASK_CELLS
    cols = int(math.ceil((x2 - x1) / cell)) + 2  # a cell of margin each side
    rows = int(math.ceil((y2 - y1) / cell)) + 2
    left = (x1 + x2) / 2 - cols * cell / 2  # the grid is centred on the ink's box
    top = (y1 + y2) / 2 + rows * cell / 2
    fine = Image.new("L", (cols * FINE, rows * FINE), 0)
    draw = ImageDraw.Draw(fine)
    scale = FINE / cell
    for poly, stroke in polygons:
        pts = [((x - left) * scale, (top - y) * scale) for x, y in poly]
        width = max(2, int(math.ceil(stroke * scale)))
        if len(pts) >= 3:
            draw.polygon(pts, fill=255)
            draw.line([*pts, pts[0]], fill=255, width=width, joint="curve")
        else:
            draw.line(pts * (2 if len(pts) == 1 else 1), fill=255, width=width)
    inked = np.asarray(fine).reshape(rows, FINE, cols, FINE).max(axis=(1, 3)) > 0
    if not inked.any():
        return None
    return Silhouette(inked, cell), (x1 + x2) / 2, (y1 + y2) / 2


def _polygons(drawing) -> list[tuple[list[tuple[float, float]], float]] | None:
    """Every shape of the drawing as (polygon, stroke width) in drawing units, or None for a
    shape of an unknown kind."""
    from reportlab.graphics import shapes as sh

    out: list[tuple[list[tuple[float, float]], float]] = []

    def walk(node, m) -> bool:
        if isinstance(node, sh.Group):
            m2 = sh.mmult(m, getattr(node, "transform", None) or (1, 0, 0, 1, 0, 0))
            return all(walk(child, m2) for child in node.getContents())
        if isinstance(node, sh.Circle | sh.Ellipse):
            rx = getattr(node, "rx", None) or node.r
            ry = getattr(node, "ry", None) or node.r
            local = [[(node.cx + rx * math.cos(a * math.pi / 16),
                       node.cy + ry * math.sin(a * math.pi / 16)) for a in range(32)]]
        elif isinstance(node, sh.Path):
            local = _path_polygons(node)
        elif isinstance(node, sh.Polygon | sh.PolyLine):
            p = list(node.points)
            local = [list(zip(p[0::2], p[1::2], strict=False))]
        elif isinstance(node, sh.Line):  # its stroke is drawn as wide as it is
            local = [[(node.x1, node.y1), (node.x2, node.y2)]]
        elif isinstance(node, sh.Rect | sh.String):
            bx1, by1, bx2, by2 = node.getBounds()
            local = [[(bx1, by1), (bx2, by1), (bx2, by2), (bx1, by2)]]
        else:
            return False
        stroke = 0.0
        if getattr(node, "strokeColor", None) is not None:
            # a stroke turns and scales with the shape: its width times the matrix's scale
            stroke = (getattr(node, "strokeWidth", 1) or 0) * math.sqrt(abs(m[0] * m[3]
                                                                             - m[1] * m[2]))
        out.extend(([sh.transformPoint(m, p) for p in poly], stroke) for poly in local if poly)
        return True

    return out if walk(drawing, (1, 0, 0, 1, 0, 0)) else None


def _path_polygons(path) -> list[list[tuple[float, float]]]:
    """A reportlab Path's subpaths as polygons, its Bezier curves sampled."""
    from reportlab.graphics.shapes import _CLOSEPATH, _CURVETO, _LINETO, _MOVETO

    pts = list(path.points)
    out: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    k = 0
    for op in path.operators:
        if op == _MOVETO:
            if current:
                out.append(current)
            current = [(pts[k], pts[k + 1])]
            k += 2
        elif op == _LINETO:
            current.append((pts[k], pts[k + 1]))
            k += 2
        elif op == _CURVETO:
            x0, y0 = current[-1] if current else (pts[k], pts[k + 1])
            ax, ay, bx, by, cx, cy = pts[k:k + 6]
            for i in range(1, CURVE_STEPS + 1):
                t = i / CURVE_STEPS
                u = 1 - t
                current.append((u**3 * x0 + 3 * u * u * t * ax + 3 * u * t * t * bx + t**3 * cx,
                                u**3 * y0 + 3 * u * u * t * ay + 3 * u * t * t * by + t**3 * cy))
            k += 6
        elif op == _CLOSEPATH:
            if current:
                out.append(current)
            current = []
    if current:
        out.append(current)
    return out
