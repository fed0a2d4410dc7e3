"""PDF/X-1a:2003 (ISO 15930-4) from the CMYK renderer, for shops that ask for it (DriveThruCards).

What the standard asks and where it is done:
- PDF 1.4 at most (reportlab writes 1.4), not encrypted, a document ID (reportlab writes one);
- Info: GTS_PDFXVersion, Title, CreationDate, ModDate and Trapped (/False): _PdfxInfo;
- an OutputIntent /S /GTS_PDFX naming the printing condition, with the ICC profile the colours
  were converted through as its DestOutputProfile: SWOP coated #3, CGATS TR 003
  (generator/ink/profile.py), so the intent a shop's RIP reads is the one the inks were made
  for, not a condition named on trust;
- a TrimBox and a BleedBox inside the MediaBox on every page: the one-card-a-page sheet;
- every font embedded: fonts are TrueType and embedded (render/fonts.py);
- DeviceCMYK only and no transparency: colours through render/cmyk.py, and transparent or
  raster elements flattened into opaque CMYK pictures (render/flatten.py).

reportlab has no PDF/X switch, so its document is given an Info object with the PDF/X keys and
its catalog an OutputIntents entry before it is saved: no second PDF library is needed.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDate,
    PDFDictionary,
    PDFInfo,
    PDFName,
    PDFStream,
    PDFString,
)

from generator.ink import profile
from generator.layout.sheet import Sheet
from pnp_model.components import Deck

VERSION = "PDF/X-1a:2003"
REGISTRY = "http://www.color.org"


class _PdfxInfo(PDFInfo):
    """reportlab's document Info with the PDF/X identification added."""

    def format(self, document):
        date = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        return PDFDictionary({
            "Title": PDFString(self.title), "Author": PDFString(self.author),
            "Subject": PDFString(self.subject), "Keywords": PDFString(self.keywords),
            "Creator": PDFString(self.creator), "Producer": PDFString(self.producer),
            "CreationDate": date, "ModDate": date, "Trapped": PDFName("False"),
            "GTS_PDFXVersion": PDFString(VERSION), "GTS_PDFXConformance": PDFString(VERSION),
        }).format(document)


def mark_pdfx(canvas, title: str) -> None:
    """Make the canvas's document a PDF/X-1a:2003 one: Info keys and the output intent."""
    doc = canvas._doc  # reportlab's PDFDocument: no public hook for these two entries
    info = _PdfxInfo()
    info.__dict__.update(doc.info.__dict__)
    info.title = title
    doc.info = info
    catalog = doc.Catalog
    icc = PDFStream(PDFDictionary({"N": 4, "Alternate": PDFName("DeviceCMYK")}),
                    profile.icc_bytes())
    catalog.OutputIntents = PDFArray([PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(profile.CONDITION),
        "RegistryName": PDFString(REGISTRY), "OutputCondition": PDFString(profile.CONDITION_INFO),
        "Info": PDFString(profile.CONDITION_INFO), "DestOutputProfile": doc.Reference(icc),
    })])
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]


def render_pdfx(deck: Deck, sheet: Sheet, *, progress: Callable[[int], None] | None = None,
                ink_limit: float | None = None, most_ink: dict | None = None) -> bytes:
    """The sheet (one card a page, with trim boxes) as a PDF/X-1a:2003 file, within ink_limit
    percent of total ink (default 300); most_ink gets the most ink of each page."""
    from generator.render.flatten import draw_flattened, flattened
    from generator.render.pdf import DUPLEX, draw_card, draw_marks, new_canvas, set_boxes
    from generator.render.registry import load_drawers
    from pnp_model.errors import PnpError

    if not sheet.trim_box:
        raise PnpError("PDF/X needs a trim box on every page: use one card a page (--single)",
                       "--pdfx")
    buf = io.BytesIO()
    c = new_canvas(buf, sheet.width, sheet.height, deck.title, cmyk=True, ink_limit=ink_limit)
    mark_pdfx(c, deck.title)
    has_backs = any(p.side == "back" for p in sheet.pages)
    c.setViewerPreference("Duplex", DUPLEX.get(sheet.flip, "Simplex") if has_backs else "Simplex")
    drawers = {**load_drawers(), "flattened": draw_flattened}
    cache: dict = {}
    memo: dict = {}
    for page in sheet.pages:
        set_boxes(c, sheet, sheet.trim_box)
        for pl in page.placements:
            elements = flattened(deck, pl.card, page.side, pl.bleed, drawers, memo)
            draw_card(c, deck, pl, elements, drawers, cache, False)
        draw_marks(c, page)
        c.showPage()
        if progress:
            progress(1)
    c.save()
    if most_ink is not None:
        most_ink.update(c.most_ink)
    return buf.getvalue()
