"""A printer calibration sheet: a 100 mm ruler (scaling) and duplex registration scales."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor

from generator.layout.grid import mirror
from generator.render.fonts import font
from generator.render.pdf import new_canvas
from pnp_model import units

MM = units.MM


def _cross(c, x: float, y: float, size: float = 8 * MM) -> None:
    c.line(x - size / 2, y, x + size / 2, y)
    c.line(x, y - size / 2, x, y + size / 2)
    c.circle(x, y, size / 4)


def _ruler(c, x: float, y: float, vertical: bool = False) -> None:
    """100 mm with mm ticks, longer every 5 and 10 mm, numbered every 10."""
    c.setFont(font("sans"), 6)
    for mm in range(101):
        tick = 5 * MM if mm % 10 == 0 else 3 * MM if mm % 5 == 0 else 1.8 * MM
        if vertical:
            c.line(x, y + mm * MM, x + tick, y + mm * MM)
            if mm % 10 == 0:
                c.drawString(x + 6 * MM, y + mm * MM - 2, str(mm))
        else:
            c.line(x + mm * MM, y, x + mm * MM, y + tick)
            if mm % 10 == 0:
                c.drawCentredString(x + mm * MM, y + 6 * MM, str(mm))


def _scale(c, x: float, y: float, vertical: bool) -> None:
    """Offset scale -5..+5 mm around (x, y), read against the cross on the other side."""
    c.setFont(font("sans"), 5)
    for mm in range(-5, 6):
        tick = 4 * MM if mm == 0 else 2.5 * MM
        if vertical:
            c.line(x, y + mm * MM, x + tick, y + mm * MM)
            if mm % 5 == 0:
                c.drawString(x + 5 * MM, y + mm * MM - 2, f"{mm:+d}")
        else:
            c.line(x + mm * MM, y, x + mm * MM, y + tick)
            if mm % 5 == 0:
                c.drawCentredString(x + mm * MM, y + 5 * MM, f"{mm:+d}")


def calibration_pdf(paper: str = "a4", flip: str = "long", orientation: str = "portrait") -> bytes:
    """Print it in the orientation of the job it calibrates: a landscape page turns over the
    other way, and --back-offset is read in the back page's own axes."""
    width, height = units.paper(paper, orientation)
    buf = io.BytesIO()
    c = new_canvas(buf, width, height, "pnp printer calibration")
    c.setViewerPreference("Duplex", "DuplexFlipLongEdge" if flip == "long" else "DuplexFlipShortEdge")
    crosses = [(30 * MM, 30 * MM), (width - 30 * MM, 30 * MM), (60 * MM, height - 70 * MM),
               (width - 30 * MM, height - 70 * MM)]
    # Front: ruler, square, crosses.
    c.setLineWidth(0.3)
    c.setFont(font("sans-bold"), 14)
    c.drawString(20 * MM, height - 20 * MM, "pnp printer calibration (front)")
    c.setFont(font("sans"), 9)
    lines = [
        "1. Print this file double-sided at 100 % / 'actual size' (no 'fit to page').",
        "2. The ruler must measure exactly 100 mm, the square 50 mm on each side.",
        "3. Hold the sheet against the light: each cross on this side should sit on the zero",
        "   of the two scales printed on the back. If not, the numbers under the cross's lines",
        "   are the correction: X on the horizontal scale, Y on the vertical one. Build with",
        f"   `pnp build GAME --flip {flip} --back-offset X,Y` (mm).",
    ]
    for i, line in enumerate(lines):
        c.drawString(20 * MM, height - 30 * MM - i * 5 * MM, line)
    _ruler(c, (width - 100 * MM) / 2, height / 2 + 20 * MM)
    _ruler(c, 25 * MM, height / 2 - 60 * MM, vertical=True)
    c.rect(width / 2 - 25 * MM, height / 2 - 50 * MM, 50 * MM, 50 * MM)
    c.drawCentredString(width / 2, height / 2 - 55 * MM, "50 mm x 50 mm")
    for x, y in crosses:
        _cross(c, x, y)
    c.showPage()
    # Back: scales where the crosses land after the flip.
    c.setLineWidth(0.3)
    c.setFont(font("sans-bold"), 14)
    c.drawString(20 * MM, 15 * MM, "pnp printer calibration (back)")
    c.setStrokeColor(HexColor("#c0392b"))
    for x, y in crosses:
        bx, by = mirror(x, y, 0, 0, width, height, flip)
        _scale(c, bx - 0 * MM, by - 8 * MM, vertical=False)
        _scale(c, bx + 8 * MM, by, vertical=True)
    c.showPage()
    c.save()
    return buf.getvalue()
