"""Preflight: what a print shop would reject, measured from the PDF the build writes.

Each distinct card face and back is drawn as a print-shop page (trim plus bleed) and its page
objects are read back with pdfium: raster images and their effective ppi at the placed size,
text and its size after every scaling, text bounds against the safe zone, and fonts that are not
embedded; characters no font has are the renderer's own notes while it draws them. So a
finding is about what prints, not about what the definition meant.

One problem seen on many cards (the same art file too coarse on every card that shows it) is
one finding that names the file and counts the cards. The ppi floor depends on where the cards
are printed: a print shop asks 300 ppi, a home sheet prints art at 200 ppi without visible
softness (generator.render.basic.PPI_FLOOR).
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field

from generator.exports import distinct
from generator.notes import collecting
from generator.render.basic import PPI_FLOOR
from pnp_model.components import Card, Deck
from pnp_model.units import MM

MIN_TEXT_PT = 6.0
LISTED = 6  # a grouped finding lists this many card ids, then counts the rest
MAX_ART_FILES = 2000  # art files looked at to name an image by its pixel size


@dataclass(frozen=True)
class Finding:
    card: int  # the first card it was seen on (0: the document)
    name: str
    side: str
    check: str  # ppi | text-size | safe-zone | font | glyph
    message: str
    cards: tuple[int, ...] = ()  # every card that shows it (copies of a face included)
    file: str = ""  # the art file, when an image's pixel size names one

    def __str__(self) -> str:
        what = f"{self.file}: {self.message}" if self.file else self.message
        if not self.card:
            return f"document: {what}"
        if len(self.cards) <= 1:
            return f"card #{self.card} ({self.name}) {self.side}: {what}"
        ids = ", ".join(f"#{i}" for i in self.cards[:LISTED])
        more = f" and {len(self.cards) - LISTED} more" if len(self.cards) > LISTED else ""
        return f"{len(self.cards)} cards ({ids}{more}) {self.side}: {what}"


@dataclass
class _Seen:
    """One problem and the distinct faces or backs it was seen on (ppi: the range found)."""

    check: str
    message: str
    faces: list = field(default_factory=list)
    ppi: list = field(default_factory=list)
    texts: list = field(default_factory=list)  # the distinct texts, for a message with {text}


def check(deck: Deck, cards: tuple[Card, ...], safe: float | None = None,
          target: str = "shop", min_text: float = MIN_TEXT_PT) -> list[Finding]:
    """Every finding for the distinct faces (and backs) of `cards`, a repeated one once, in
    card order; `target` (shop or home) sets the ppi floor, a shop preset the safe zone and
    the smallest text."""
    from generator.layout.sheet import one_card_a_page
    from generator.render.pdf import render

    floor = PPI_FLOOR[target]
    safe = deck.print.safe if safe is None else safe
    faces = [(f, "front") for f in distinct(deck, cards)]
    if deck.has_backs:
        faces += [(f, "back") for f in distinct(deck, cards, "back")]
    jobs = [(f.card, side) for f, side in faces]
    b = 9.0  # an eighth of an inch of bleed, as shops ask
    with collecting() as notes:
        pdf = render(deck, one_card_a_page(deck.width, deck.height, jobs, b), ppi_floor=floor)
    findings = [Finding(0, "", "", "font", f"font {name} is not embedded")
                for name in unembedded_fonts(pdf)]
    findings += _glyph_findings(notes, jobs)
    trim = (b, b, b + deck.width, b + deck.height)
    import pypdfium2 as pdfium

    seen: dict[tuple, _Seen] = {}
    doc = pdfium.PdfDocument(pdf)
    try:
        for index, face in enumerate(faces):
            for check_name, message, key, ppi, text in _page_findings(
                    doc[index], trim, safe, deck.shape, floor, min_text):
                entry = seen.setdefault((check_name, key), _Seen(check_name, message))
                entry.faces.append(face)
                if ppi:
                    entry.ppi.append(ppi)
                if text and text not in entry.texts:
                    entry.texts.append(text)
    finally:
        doc.close()
    files = _art_by_size(deck) if any(k[0] == "ppi" for k in seen) else {}
    return findings + [_finding(key, entry, floor, files) for key, entry in seen.items()]


@dataclass(frozen=True)
class Ink:
    """The most total ink (C + M + Y + K, percent) at any point of the CMYK output, where."""

    percent: float
    limit: float
    page: int  # of the one-card-a-page CMYK render, as a shop file is laid out
    card: int
    name: str
    side: str

    def __str__(self) -> str:
        return (f"total ink at most {self.percent:.0f} % (limit {self.limit:g} %), on page "
                f"{self.page}: card #{self.card} ({self.name}) {self.side}")


def most_ink(deck: Deck, cards: tuple[Card, ...], limit: float | None = None) -> Ink | None:
    """The distinct faces (and backs) drawn in CMYK, one a page, as a shop's file is, within
    the limit (default 300 %): the page and card that carry the most ink."""
    from generator.ink.limit import DEFAULT
    from generator.layout.sheet import one_card_a_page
    from generator.render.pdf import render

    limit = limit or DEFAULT
    faces = [(f.card, "front") for f in distinct(deck, cards)]
    if deck.has_backs:
        faces += [(f.card, "back") for f in distinct(deck, cards, "back")]
    inks: dict[int, float] = {}
    render(deck, one_card_a_page(deck.width, deck.height, faces, 9.0), cmyk=True,
           ink_limit=limit, most_ink=inks)
    if not inks:
        return None
    page = max(inks, key=lambda n: (inks[n], -n))
    card, side = faces[page - 1]
    return Ink(inks[page], limit, page, card.id, card.name, side)


def missing_characters(deck: Deck, cards: tuple[Card, ...]) -> list[Finding]:
    """Characters no font has (an emoji in a name), each with the first card that prints it:
    an export's images show an empty box there. Found by drawing the distinct faces and backs
    as the build does, so a font's fallback is counted as the print counts it."""
    from generator.layout.sheet import one_card_a_page
    from generator.render.pdf import render

    jobs = [(f.card, "front") for f in distinct(deck, cards)]
    if deck.has_backs:
        jobs += [(f.card, "back") for f in distinct(deck, cards, "back")]
    with collecting() as notes:
        render(deck, one_card_a_page(deck.width, deck.height, jobs, 0.0))
    return _glyph_findings(notes, jobs)


# the renderer's note: "card #6 (name), game.toml [[layouts.card.face]] #7 (text): no font ..."
_GLYPH_NOTE = re.compile(r"^card #(\d+) .*?, (.*?): no font has")


def _glyph_findings(notes: dict[str, str], jobs: list) -> list[Finding]:
    """The renderer's notes of characters no font has, as findings naming card and side."""
    names = {card.id: card.name for card, _ in jobs}
    found = []
    for key, text in notes.items():
        m = _GLYPH_NOTE.match(text)
        if not key.startswith("glyph:") or not m:
            continue
        ch, card = key[-1], int(m.group(1))
        side = "back" if re.search(r"back\]\]", m.group(2)) else "front"
        found.append(Finding(card, names.get(card, ""), side, "glyph",
                             f"no font has the character {ch!r} (U+{ord(ch):04X}): it prints "
                             "as an empty box (use a font that has it, or an [icons] entry)"))
    return found


def _finding(key: tuple, seen: _Seen, floor: float, files: dict) -> Finding:
    card = seen.faces[0][0].card
    sides = list(dict.fromkeys(side for _, side in seen.faces))
    ids = tuple(sorted({i for face, _ in seen.faces for i in face.ids}))
    message, file = seen.message, ""
    if seen.check == "ppi":
        w, h = key[1]
        lo, hi = round(min(seen.ppi)), round(max(seen.ppi))
        at = f"{lo}" if lo == hi else f"{lo}–{hi}"
        message = f"image of {w}×{h} px prints at {at} ppi (below {floor})"
        file = " or ".join(files.get((w, h), []))
    if seen.texts:
        message = message.format(text=_texts(seen.texts))
    return Finding(card.id, card.name, " and ".join(sides), seen.check, message, ids, file)


def _texts(texts: list[str], shown: int = 3) -> str:
    """The texts one finding was seen with: a card number differs on every card, the problem
    (its size, its place) does not, so it is one line that shows a few."""
    if len(texts) == 1:
        return f"text {texts[0]}"
    more = f" and {len(texts) - shown} more" if len(texts) > shown else ""
    return f"texts {', '.join(texts[:shown])}{more}: each"


def _art_by_size(deck: Deck) -> dict[tuple[int, int], list[str]]:
    """The raster art files under the definition's folder by pixel size (header reads only),
    so a finding about an image of W×H px can name its file; a symbol image is printed
    trimmed to its drawing, so it is known by its cleaned size too."""
    from PIL import Image, UnidentifiedImageError

    root = deck.root
    found: dict[tuple[int, int], list[str]] = {}
    paths = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg"))
    for path in paths[:MAX_ART_FILES]:
        try:
            with Image.open(path) as im:
                found.setdefault(im.size, []).append(path.relative_to(root).as_posix())
        except (OSError, UnidentifiedImageError):
            continue
    for path, size in _cleaned_symbol_sizes(deck):
        name = path.relative_to(root).as_posix()
        if name not in found.get(size, []):
            found.setdefault(size, []).append(name)
    return found


def _cleaned_symbol_sizes(deck: Deck):
    """(file, size as printed) of each raster symbol of a `folder:` symbol deck: from the
    build memo the check's own drawing filled, else cleaned again."""
    spec = deck.source.get("symbols", "")
    if not (isinstance(spec, str) and spec.startswith("folder:")):
        return
    from generator.render.art import clean
    from generator.render.symbol_memo import art_key, load_art

    folder = deck.root / spec[len("folder:"):]
    keep = any(el.kind == "symbols" and el.get("background", "remove") == "keep"
               for el in deck.face)
    paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg"))
    for path in paths[:MAX_ART_FILES]:
        key = art_key(path, keep)
        stored = load_art(key, path, keep) if key else None
        try:
            yield path, (stored[0] if stored else clean(path, keep)).size
        except Exception:  # noqa: BLE001  an unreadable image was the build's to report
            continue


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


def _page_findings(page, trim, safe: float, shape: str, floor: float, min_text: float):
    """(check, message, grouping key, ppi or None, text or None) for each problem on the page:
    an image is keyed by its pixel size (the same art at any scale), text by its message with
    the text itself left out ({text} in the message)."""
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
                yield from _image(obj, floor, forms[-1] if forms else None)
            elif obj.type == raw.FPDF_PAGEOBJ_TEXT:
                for check_name, message, label in _text(obj, textpage, trim, safe, shape,
                                                        min_text):
                    yield check_name, message, message, None, label
    finally:
        textpage.close()


def _image(obj, floor: float, form=None):
    """An image's ppi as printed; inside a form (a symbol drawn once, placed many times) the
    form's placement scales it too, which pdfium's own dpi leaves out."""
    import math

    meta = obj.get_metadata()
    ppi = min(meta.horizontal_dpi, meta.vertical_dpi)
    if form is not None:
        m = obj.get_matrix().multiply(form)
        wide, high = math.hypot(m.a, m.b), math.hypot(m.c, m.d)
        ppi = min(meta.width * 72 / wide, meta.height * 72 / high) if wide and high else 0
    if 0 < ppi < floor - 0.5:
        yield "ppi", "", (meta.width, meta.height), ppi, None


def _text(obj, textpage, trim, safe: float, shape: str, min_text: float):
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
    if 0 < points < min_text - 0.05:
        yield "text-size", f"{{text}} is {points:.1f} pt (below {min_text:g} pt)", label
    if shape != "rect":
        return  # the safe zone of round and hex cards is not a box; not checked yet
    left, bottom, right, top = obj.get_bounds()
    x0, y0, x1, y1 = trim
    gap = min(left - x0, bottom - y0, x1 - right, y1 - top)
    if gap < safe - 0.01:
        where = "crosses the trim" if gap < 0 else f"is {gap / MM:.1f} mm from the trim"
        yield "safe-zone", f"{{text}} {where} (safe zone {safe / MM:g} mm)", label


def _text_of(obj, textpage) -> str:
    import pypdfium2.raw as raw

    n = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
    buf = ctypes.create_string_buffer(n)
    raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), n)
    return buf.raw.decode("utf-16-le", errors="replace").rstrip("\x00")
