"""Preflight: what a print shop would reject, measured from the PDF the build writes.

Each distinct card face and back is drawn as a print-shop page (trim plus bleed) and its page
objects are read back with pdfium: raster images and their effective ppi at the placed size,
text and its size after every scaling, text bounds against the safe zone, and fonts that are not
embedded. So a finding is about what prints, not about what the definition meant.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass

from generator.exports import distinct
from pnp_model.components import Card, Deck
from pnp_model.units import MM

MIN_PPI = 300
MIN_TEXT_PT = 6.0


@dataclass(frozen=True)
class Finding:
    card: int
    name: str
    side: str
    check: str  # ppi | text-size | safe-zone | font
    message: str

    def __str__(self) -> str:
        where = f"card #{self.card} ({self.name}) {self.side}" if self.card else "document"
        return f"{where}: {self.message}"


def check(deck: Deck, cards: tuple[Card, ...], safe: float | None = None) -> list[Finding]:
    """Every finding for the distinct faces (and backs) of `cards`, in card order."""
    from generator.layout.sheet import one_card_a_page
    from generator.render.pdf import render

    safe = deck.print.safe if safe is None else safe
    jobs = [(f.card, "front") for f in distinct(deck, cards)]
    if deck.has_backs:
        jobs += [(f.card, "back") for f in distinct(deck, cards, "back")]
    b = 9.0  # an eighth of an inch of bleed, as shops ask
    pdf = render(deck, one_card_a_page(deck.width, deck.height, jobs, b))
    findings = [Finding(0, "", "", "font", f"font {name} is not embedded")
                for name in unembedded_fonts(pdf)]
    trim = (b, b, b + deck.width, b + deck.height)
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        for index, (card, side) in enumerate(jobs):
            for check_name, message in _page_findings(doc[index], trim, safe, deck.shape):
                findings.append(Finding(card.id, card.name, side, check_name, message))
    finally:
        doc.close()
    return findings


def unembedded_fonts(pdf: bytes) -> list[str]:
    """Base font names of font dictionaries with no embedded font program (standard 14 fonts)."""
    names = []
    for m in re.finditer(rb"<<[^<>]*/Type\s*/Font\b[^<>]*>>", pdf):
        d = m.group(0)
        base = re.search(rb"/BaseFont\s*/([^\s/<>]+)", d)
        if base and b"/Subtype /Type3" not in d and b"/FontDescriptor" not in d \
                and b"/DescendantFonts" not in d:
            names.append(base.group(1).decode("latin-1"))
    return sorted(set(names))


def _page_findings(page, trim, safe: float, shape: str):
    import pypdfium2.raw as raw

    textpage = page.get_textpage()
    forms = []  # the page matrix of each enclosing form, by depth
    try:
        for obj in page.get_objects(max_depth=4):
            del forms[obj.level:]
            if obj.type == raw.FPDF_PAGEOBJ_FORM:
                m = obj.get_matrix()
                forms.append(m.multiply(forms[-1]) if forms else m)
            elif obj.type == raw.FPDF_PAGEOBJ_IMAGE:
                yield from _image(obj, forms[-1] if forms else None)
            elif obj.type == raw.FPDF_PAGEOBJ_TEXT:
                yield from _text(obj, textpage, trim, safe, shape)
    finally:
        textpage.close()


def _image(obj, form=None):
    """An image's ppi as printed; inside a form (a symbol drawn once, placed many times) the
    form's placement scales it too, which pdfium's own dpi leaves out."""
    import math

    meta = obj.get_metadata()
    ppi = min(meta.horizontal_dpi, meta.vertical_dpi)
    if form is not None:
        m = obj.get_matrix().multiply(form)
        wide, high = math.hypot(m.a, m.b), math.hypot(m.c, m.d)
        ppi = min(meta.width * 72 / wide, meta.height * 72 / high) if wide and high else 0
    if 0 < ppi < MIN_PPI - 0.5:
        yield "ppi", (f"image of {meta.width}×{meta.height} px prints at {ppi:.0f} ppi "
                      f"(below {MIN_PPI})")


def _text(obj, textpage, trim, safe: float, shape: str):
    import pypdfium2.raw as raw

    size = ctypes.c_float()
    raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
    m = obj.get_matrix()
    scale = (abs(m.a * m.d - m.b * m.c)) ** 0.5
    points = size.value * scale
    text = _text_of(obj, textpage)
    if not text.strip():
        return
    label = repr(text if len(text) <= 24 else text[:23] + "…")
    if 0 < points < MIN_TEXT_PT - 0.05:
        yield "text-size", f"text {label} is {points:.1f} pt (below {MIN_TEXT_PT:g} pt)"
    if shape != "rect":
        return  # the safe zone of round and hex cards is not a box; not checked yet
    left, bottom, right, top = obj.get_bounds()
    x0, y0, x1, y1 = trim
    gap = min(left - x0, bottom - y0, x1 - right, y1 - top)
    if gap < safe - 0.01:
        where = "crosses the trim" if gap < 0 else f"is {gap / MM:.1f} mm from the trim"
        yield "safe-zone", f"text {label} {where} (safe zone {safe / MM:g} mm)"


def _text_of(obj, textpage) -> str:
    import pypdfium2.raw as raw

    n = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
    buf = ctypes.create_string_buffer(n)
    raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), n)
    return buf.raw.decode("utf-16-le", errors="replace").rstrip("\x00")
