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
    if b"use" in data:
        _check_uses(data, path)


XLINK = "{http://www.w3.org/1999/xlink}href"


def _check_uses(data: bytes, path: Path) -> None:
    """Refuse an SVG that expands more than MAX_SVG_USES <use> references: a few hundred
    bytes of <use> nested in <use> draw billions, and svglib copies each one (its own cap
    still takes half a minute and prints a library line). Each element's count of uses is
    summed once, bottom up, without recursion (the file's nesting is the attacker's)."""
    from lxml import etree

    from pnp_shared import limits

    parser = etree.XMLParser(remove_comments=True, recover=True, resolve_entities=False,
                             no_network=True)  # as svglib reads it
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return  # svglib names a malformed file
    if root is None:
        return
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}

    def parts(el) -> list:
        """What drawing `el` draws: its children (none for <defs>: drawn only where a <use>
        refers into them), and the element a <use> refers to."""
        name = etree.QName(el).localname
        found = [c for c in el if isinstance(c.tag, str)] if name != "defs" else []
        if name == "use":
            target = (el.get(XLINK) or el.get("href") or "").lstrip("#")
            if target in ids:
                found.append(ids[target])
        return found

    most = limits.MAX_SVG_USES
    uses: dict = {}  # element -> uses drawn by drawing it (capped past the limit)
    open_now: set = set()
    todo = [(root, False)]
    while todo:
        el, done = todo.pop()
        if done:
            own = 1 if etree.QName(el).localname == "use" else 0
            uses[el] = min(most + 1, own + sum(uses[c] for c in parts(el)))
            open_now.discard(el)
            continue
        if el in uses:
            continue
        open_now.add(el)
        todo.append((el, True))
        for c in parts(el):
            if c in open_now:
                raise PnpError("this SVG file has a <use> that draws itself (directly or "
                               "through others): save it again from the drawing program",
                               str(path))
            if c not in uses:
                todo.append((c, False))
    if uses[root] > most:
        raise PnpError(f"this SVG file expands more than {most:,} <use> references (nested "
                       "<use> multiply): simplify it, or save it as a PNG", str(path))


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
