"""Each sheet's cut lines as SVG and DXF, one closed path per card, in the printed sheet's
coordinates (millimetres from the paper's corner), for a cutting machine's software.

The outlines are the trim outlines the PDF draws as cut guides (render/outline.py): rounded
corners as arcs, circles, hexagons and triangles as drawn; the bleed lies outside them.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

from generator.layout.sheet import Placement, Sheet
from generator.render.outline import hexagon, triangle
from pnp_model.components import Deck
from pnp_model.units import MM
from pnp_shared import files

BULGE_90 = math.tan(math.radians(90) / 4)  # a DXF bulge for a quarter-circle arc

# An outline, PDF points: ("circle", cx, cy, r), ("round", x, y, w, h, r), ("poly", points)
Outline = tuple


def outline_of(deck: Deck, pl: Placement) -> Outline:
    """The trim outline of a placed card on its page."""
    w, h = deck.width, deck.height
    if deck.shape == "circle":
        return ("circle", pl.x + w / 2, pl.y + h / 2, min(w, h) / 2)
    if deck.shape in ("hexagon", "triangle"):
        pts = hexagon(w, h) if deck.shape == "hexagon" else triangle(w, h)
        if pl.rotation == 180:  # turned about the box centre, as the renderer turns it
            pts = [(w - x, h - y) for x, y in pts]
        return ("poly", [(pl.x + x, pl.y + y) for x, y in pts])
    return ("round", pl.x, pl.y, w, h, min(deck.corner_radius, w / 2, h / 2))


def sheet_outlines(deck: Deck, sheet: Sheet) -> list[list[Outline]]:
    """The outlines of the cards on each front page: what the machine cuts."""
    return [[outline_of(deck, pl) for pl in page.placements if pl.side != "back"]
            for page in sheet.pages if page.side == "front"]


def _mm(v: float) -> str:
    return f"{v / MM:.4f}".rstrip("0").rstrip(".")


def svg(outlines: list[Outline], width: float, height: float) -> str:
    """An SVG the size of the paper; y runs down, so each point is flipped."""
    def p(x: float, y: float) -> str:
        return f"{_mm(x)},{_mm(height - y)}"

    paths = []
    for o in outlines:
        if o[0] == "circle":
            _, cx, cy, r = o
            a = f"A{_mm(r)},{_mm(r)} 0 1 1 "
            d = f"M{p(cx - r, cy)} {a}{p(cx + r, cy)} {a}{p(cx - r, cy)} Z"
        elif o[0] == "poly":
            d = "M" + " L".join(p(x, y) for x, y in o[1]) + " Z"
        else:
            _, x, y, w, h, r = o
            if r <= 0:
                d = f"M{p(x, y)} L{p(x + w, y)} L{p(x + w, y + h)} L{p(x, y + h)} Z"
            else:  # counter-clockwise on the page, so the arcs sweep 0 (SVG's y runs down)
                a = f"A{_mm(r)},{_mm(r)} 0 0 0 "
                d = (f"M{p(x + r, y)} L{p(x + w - r, y)} {a}{p(x + w, y + r)} "
                     f"L{p(x + w, y + h - r)} {a}{p(x + w - r, y + h)} L{p(x + r, y + h)} "
                     f"{a}{p(x, y + h - r)} L{p(x, y + r)} {a}{p(x + r, y)} Z")
        paths.append(f'  <path d="{d}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(width)}mm" '
            f'height="{_mm(height)}mm" viewBox="0 0 {_mm(width)} {_mm(height)}">\n'
            '<g fill="none" stroke="#ff0000" stroke-width="0.1">\n'
            + "\n".join(paths) + "\n</g>\n</svg>\n")


def dxf(outlines: list[Outline], width: float, height: float) -> bytes:
    """A DXF in millimetres, y up from the paper's bottom-left corner (the PDF's own axes)."""
    import ezdxf
    from ezdxf import units

    doc = ezdxf.new("R2010", units=units.MM)
    space = doc.modelspace()
    for o in outlines:
        if o[0] == "circle":
            space.add_circle((o[1] / MM, o[2] / MM), o[3] / MM)
            continue
        if o[0] == "poly":
            pts = [(x / MM, y / MM, 0) for x, y in o[1]]
        else:
            _, x, y, w, h, r = (v / MM if isinstance(v, float | int) else v for v in o)
            b = BULGE_90 if r > 0 else 0
            pts = [(x + r, y, 0), (x + w - r, y, b), (x + w, y + r, 0), (x + w, y + h - r, b),
                   (x + w - r, y + h, 0), (x + r, y + h, b), (x, y + h - r, 0), (x, y + r, b)]
        space.add_lwpolyline(pts, format="xyb", close=True)
    buf = io.StringIO()
    doc.write(buf)
    return buf.getvalue().encode()


def export_cut(deck: Deck, sheet: Sheet, folder: Path) -> dict:
    """sheet-N.svg and sheet-N.dxf per printed sheet, written atomically; the manifest."""
    written = []
    for n, outlines in enumerate(sheet_outlines(deck, sheet), 1):
        for ext, data in (("svg", svg(outlines, sheet.width, sheet.height).encode()),
                          ("dxf", dxf(outlines, sheet.width, sheet.height))):
            files.write_atomic(folder / f"sheet-{n}.{ext}", data)
        written.append({"sheet": n, "cards": len(outlines), "svg": f"sheet-{n}.svg",
                        "dxf": f"sheet-{n}.dxf"})
    return {"game": deck.name, "folder": str(folder), "paper_mm": [round(sheet.width / MM, 3),
            round(sheet.height / MM, 3)], **{k: v for k, v in sheet.info.items()
                                              if k != "warnings"}, "sheets": written}
