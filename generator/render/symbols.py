"""The `symbols` element: a symbol deck card's symbols, packed without overlap in the card.

Each symbol is one of: a built-in icon (a glyph of the embedded Font Awesome Free solid font,
so each icon's outline is stored once per PDF however many cards show it), an image from the
user's folder, or a plain word. Icons and words are drawn in a palette colour chosen per
symbol, so the same symbol has the same colour on every card.

A deck of the user's images is packed by the images' real silhouettes
(generator.layout.silhouettes): PNG/JPG art is cleaned first (generator.render.art: plain
background made transparent, trimmed), drawn once into a PDF form and placed by reference; an
SVG is drawn as vector once into a form and packed by its shape too (its polygons filled on a
coarse grid: generator.render.svg_shape). A small deck of icons only is packed the same way by
the glyphs' shapes (generator.render.icon_shapes); other icon decks and words are packed by
their tight bounding circles (generator.layout.packing, generator.render.glyph_circles), each
scaled so that its circle fills its place. With `badge = "tint"` each icon is drawn on a disc
of a pale tint of its colour (generator.render.badges) and the discs, being what is seen, are
packed as circles, densely (generator.layout.front_packing).
"""

from __future__ import annotations

import math
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.layout.packing import Region, Spot, card_layout
from generator.notes import note
from generator.render.badges import GAP_MM, GLYPH_SHARE, draw_disc
from generator.render.basic import PPI_FLOOR
from generator.render.fonts import font
from generator.render.glyph_circles import enclosing_circle, glyph_circle, prefetch_circles
from generator.render.icon_shapes import icon_shape, pack_cards, pack_icons, packs_by_shape
from generator.render.registry import Ctx, drawer
from generator.render.svg import read_svg
from pnp_model.cardvalues import resolve_color
from pnp_model.components import IMAGE_SUFFIXES, Element
from pnp_model.designs import icons
from pnp_model.errors import PnpError
from pnp_model.units import MM, to_mm

ICON_FONT = "FontAwesomeFreeSolid"
MIN_SYMBOLS_BOX = 1 * MM  # a smaller box packs nothing visible (and 0 divides by zero)
# Ten colours that stay apart (CIEDE2000 11 or more, pairwise) for normal vision and for each
# of protanopia, deuteranopia and tritanopia as `pnp check` simulates them, so the colour that
# helps find a symbol helps every player; each dark enough for its glyph to stand out on its
# tint disc (a channel at most 110 of 255). Chosen by a search over an sRGB grid.
PALETTE = ("#ee0066", "#4499ee", "#779900", "#663322", "#bb11bb", "#2200cc", "#337755",
           "#ff7766", "#776600", "#444444")
SQRT3 = math.sqrt(3)
RIM = 1.2 * MM  # no image ink this close to the symbols' region edge (cutting wobbles)
LISTED = 6  # a note names the blurriest symbols, and counts the rest



@drawer("symbols")
def draw_symbols(ctx: Ctx, el: Element) -> None:
    syms = ctx.card.symbols
    if not syms:
        return
    kit = kit_for(ctx, el)
    x0, y0 = el.get("x", 0.0), el.get("y", 0.0)
    w, h = el.get("w", ctx.width - x0), el.get("h", ctx.height - y0)
    if min(w, h) < MIN_SYMBOLS_BOX:
        raise PnpError(f"the symbols box is {to_mm(w):g}×{to_mm(h):g} mm: give it a width and "
                       f"a height of at least {to_mm(MIN_SYMBOLS_BOX):g} mm",
                       f"card {ctx.card.id}, {el.where}")
    region = region_for(ctx.deck.shape, w, h)
    cx, cy = x0 + w / 2, ctx.y(y0 + h / 2)
    seed = int(el.get("seed", 0))
    if el.get("spread", 2.0) < 1:
        raise PnpError(f"spread is the largest symbol's size over the smallest's: 1 or more, "
                       f"not {el.get('spread'):g}", f"{el.where}.spread")
    c = ctx.canvas
    badge = el.get("badge", "none") != "none"  # per card: a {field} may choose it
    if kit.by_shape and not badge:
        kit.pack_ahead(ctx, el, region, seed)
    if kit.files or (kit.by_shape and not badge):
        _record(ctx, _draw_by_silhouette(c, kit, el, syms, region, (cx, cy),
                                         f"{seed}:{ctx.card.id}", ctx.card.id))
        return
    spots = card_layout(len(syms), region, seed, ctx.card.id, el.get("rotate_symbols", True),
                        spread=el.get("spread", 2.2), dense=badge)
    _record(ctx, [(name, cx + s.x, cy + s.y, s.r) for name, s in zip(syms, spots, strict=True)])
    gap = GAP_MM * MM / 2 if badge else 0.0  # each disc keeps half the gap to itself
    for name, spot in zip(syms, spots, strict=True):
        if kit.is_word(name):
            c.saveState()
            c.translate(cx + spot.x, cy + spot.y)
            c.rotate(spot.angle)
            kit.word(c, name, spot)
            c.restoreState()
        else:
            form = kit.icon_form(c, name, badge)
            place(c, form, cx + spot.x, cy + spot.y, spot.angle, (spot.r - gap) / form.radius)


def _record(ctx: Ctx, spots: list[tuple[str, float, float, float]]) -> None:
    """Where each symbol went (name, centre x, y from the card's top, radius; points), kept
    when the caller asked for it (ctx.cache["symbol spots"]): the reference pack that
    `referee look` reads names the symbol two photographed cards share (generator/lookpack)."""
    out = ctx.cache.get("symbol spots")
    if out is not None:
        out[ctx.card.id] = [(n, x, ctx.y(y), r) for n, x, y, r in spots]


def place(c, form: Form, x: float, y: float, angle: float, scale: float) -> None:
    """Draw a form with its centre (form.cx, form.cy) at (x, y), turned and scaled: one
    matrix, so a placement is a few bytes of the PDF and little work.

    The operators are those of saveState, transform, doForm and restoreState, written
    directly: a form changes no canvas state, and the 32,000 placements of a big deck spent
    a third of their time copying and restoring the canvas's state (same bytes)."""
    a = math.radians(angle)
    cos, sin = math.cos(a) * scale, math.sin(a) * scale
    code = c._code
    code.append("q")
    code.append(fp_str(cos, sin, -sin, cos, x - cos * form.cx + sin * form.cy,
                       y - sin * form.cx - cos * form.cy) + " cm")
    code.append(f"/{c._doc.getXObjectName(form.name)} Do")
    c._formsinuse.append(form.name)
    code.append("Q")


def _draw_by_silhouette(c, kit: _Kit, el: Element, syms, region: Region,
                        centre: tuple[float, float], seed: str, card_id: int
                        ) -> list[tuple[str, float, float, float]]:
    """Pack the card's symbols by their ink and place each one's form; -> where each went
    (name, centre, half its printed extent)."""
    from generator.layout.silhouettes import Sizes
    from generator.render import symbol_prep

    sizes = Sizes(el.get("min_size", Sizes.min_size), el.get("max_size", Sizes.max_size),
                  el.get("spread", Sizes.spread))
    if not 0 < sizes.min_size <= sizes.max_size <= 1:
        raise PnpError(f"min_size and max_size are fractions of the symbol area's width: "
                       f"0 < min_size ({sizes.min_size:g}) <= max_size ({sizes.max_size:g}) <= 1",
                       el.where)
    rotate = el.get("rotate_symbols", True)
    if kit.files and kit.layouts is None:  # the first card: clean and lay out the sheet's at once
        kit.cleaned, kit.layouts = symbol_prep.prefetch(
            symbol_prep.rendered_cards(kit.ctx), kit.files, kit.keep_background, region,
            int(el.get("seed", 0)), sizes, rotate, RIM)
    forms = [kit.form(c, name) for name in syms]
    placed = (kit.layouts or {}).get(symbol_prep.layout_key(syms, region, seed, sizes, rotate,
                                                            RIM))
    if placed is None:
        try:
            placed = kit.pack([f.silhouette for f in forms], tuple(syms), region, seed, sizes,
                              rotate)
        except ValueError as e:
            raise PnpError(f"cannot lay out the symbols: {e}; lower min_size", el.where) from None
    for name, form, p in zip(syms, forms, placed, strict=True):
        place(c, form, centre[0] + p.x, centre[1] + p.y, p.angle, p.scale)
        kit.printed(name, form, p.scale)
    if min(p.size for p in placed) < sizes.min_size * (1 - 1e-9):
        kit.crowded.append(card_id)
        note(f"crowded:{el.where}", f"{len(kit.crowded)} card(s) cannot hold all their symbols "
             f"at min_size {sizes.min_size:g}, so some are smaller (cards "
             f"{', '.join(f'#{i}' for i in kit.crowded[:LISTED])}"
             f"{' ...' if len(kit.crowded) > LISTED else ''}); lower min_size or max_size")
    return [(name, centre[0] + p.x, centre[1] + p.y, p.size * region.r)
            for name, p in zip(syms, placed, strict=True)]


def region_for(shape: str, w: float, h: float) -> Region:
    """The biggest circle or hexagon (like the card's shape) that fits the element's box."""
    if shape == "hexagon":
        if w >= h:  # flat-topped, as the card outline is drawn for wide boxes
            return Region(min(w / 2, h / SQRT3), 6, flat=True)
        return Region(min(h / 2, w / SQRT3), 6)
    return Region(min(w, h) / 2)


def symbol_colours(deck, el: Element) -> dict[str, str]:
    """Each symbol name of the deck and the colour its icon or word is drawn in: the palette
    (the element's `colors`, else PALETTE) in turn, by first appearance in the deck, so the
    same symbol has the same colour on every card (and `pnp check` judges these colours)."""
    names = list(dict.fromkeys(s for card in deck.cards for s in card.symbols))
    palette = [resolve_color(v, deck.colors, f"{el.where}.colors")
               for v in (el.get("colors") or PALETTE)]
    return {n: palette[i % len(palette)] for i, n in enumerate(names)}


def _note_unused(files: dict[str, Path], deck, folder: str) -> None:
    """A picture of the symbol folder that no card shows is named: the deck takes as many as
    its plane needs, in order of name, so one more was left out without a word (one fewer
    is an error)."""
    used = {n for card in deck.cards for n in card.symbols}
    unused = [name for name in files if name not in used]
    if unused:
        shown = ", ".join(files[n].name for n in unused[:5]) + (" ..." if len(unused) > 5 else "")
        note("unused symbols", f"{len(unused)} picture(s) of folder {folder!r} on no card: "
             f"{shown} (the deck takes the first {len(used)} by name)")


class _Kit:
    """How to draw each symbol name of one deck: source kind, colours, cached resources."""

    def __init__(self, ctx: Ctx, el: Element):
        deck = ctx.deck
        self.spec = deck.source.get("symbols", "icons")
        self.root = deck.root
        self.color = {n: HexColor(c) for n, c in symbol_colours(deck, el).items()}
        names = list(self.color)
        self.files: dict[str, Path] = {}
        if isinstance(self.spec, str) and self.spec.startswith("folder:"):
            folder = deck.root / self.spec[len("folder:"):]
            self.files = {p.stem: p for p in sorted(folder.iterdir())
                          if p.suffix.lower() in IMAGE_SUFFIXES}
            _note_unused(self.files, deck, self.spec[len("folder:"):])
        # icons by name (the library, or a list of names); a word list is always words
        self.words = isinstance(self.spec, str) and self.spec.startswith("words:")
        self.icon_font: str | None = None
        self.forms: dict[str, Form] = {}
        self.counter = ctx.cache.setdefault("symbol-forms", [0])
        self.keep_background = el.get("background", "remove") == "keep"
        self.where = el.where
        self.ppi: dict[str, float] = {}  # lowest print resolution of each raster symbol
        self.crowded: list[int] = []  # cards with a symbol below min_size
        self.word_font = font("sans-bold")
        self.ctx = ctx  # the first card's: which sheet is drawn (symbol_prep.rendered_cards)
        self.cleaned: dict = {}  # raster symbols cleaned and encoded ahead of drawing, by name
        self.layouts: dict | None = None  # card layouts computed ahead, by layout_key
        self.drawn = 0  # cards drawn so far
        self.packed: dict = {}  # layouts made ahead, by (symbols, region, seed, sizes, rotate)
        self.badges: dict[str, Form] = {}  # icons on discs (badges.py), by name
        # a small deck of icons only is packed by the icons' shapes (more ink, more time),
        # unless they are drawn on discs (the first card says; a card may differ)
        self.by_shape = (el.get("badge", "none") == "none" and not self.files
                         and not self.words and bool(names)
                         and not any(self.is_word(n) for n in names)
                         and packs_by_shape(len(deck.cards),
                                            max(len(card.symbols) for card in deck.cards)))

    def pack_ahead(self, ctx: Ctx, el: Element, region: Region, seed: int) -> None:
        """From the second card of an icon deck packed by shapes on, lay out all the cards
        still to draw at once, on every core (each card's layout depends only on its own
        symbols and seed, so the bytes are the same); one card alone (a preview) packs alone."""
        self.drawn += 1
        if self.drawn != 2:
            return
        from generator.layout.silhouettes import Sizes

        sizes = Sizes(el.get("min_size", Sizes.min_size), el.get("max_size", Sizes.max_size),
                      el.get("spread", Sizes.spread))
        if not 0 < sizes.min_size <= sizes.max_size <= 1:
            return  # drawing the card says what is wrong
        cards = ctx.cache.get("cards drawn", [])
        start = next((k for k, card in enumerate(cards) if card is ctx.card), len(cards))
        todo = list(dict.fromkeys((tuple(card.symbols), f"{seed}:{card.id}")
                                  for card in cards[start:] if card.symbols))
        if not todo:  # a drawing that did not say which cards it draws (an export)
            return
        face = pdfmetrics.getFont(self._icon_font()).face
        shapes = {n: icon_shape(str(icon_font_path()), icons.codepoint(n), face.unitsPerEm)
                  .silhouette for n in self.color}
        found = pack_cards(todo, shapes, region, sizes, RIM, el.get("rotate_symbols", True))
        rotate = el.get("rotate_symbols", True)
        for (names, card_seed), placed in zip(todo, found, strict=True):
            if placed is not None:
                self.packed[(names, region, card_seed, sizes, rotate)] = placed

    def pack(self, shapes, names: tuple[str, ...], region: Region, seed: str, sizes,
             rotate: bool):
        """A card's layout by silhouettes: made ahead (icons), or now."""
        if self.by_shape:
            ahead = self.packed.pop((names, region, seed, sizes, rotate), None)
            return ahead or pack_icons(shapes, region, seed, sizes, RIM, rotate)
        from generator.layout.silhouettes import pack_silhouettes

        return pack_silhouettes(shapes, region, seed, sizes, rim=RIM, rotate=rotate)

    def is_word(self, name: str) -> bool:
        """Whether the symbol is drawn as a word (not an icon; images go by silhouette)."""
        return self.words or icons.codepoint(name) is None

    def icon_form(self, c, name: str, badge: bool = False) -> Form:
        """The icon's glyph in its colour, drawn once into a form (in font units): placing it
        is then one line of the PDF, not a text object. A deck packed by shapes has one form
        per icon, centred on its silhouette (a legend card places that one too). On a badge
        the form is the disc and the glyph on it, its radius the disc's."""
        if self.by_shape and not badge:
            return self.form(c, name)
        forms = self.badges if badge else self.forms
        if name not in forms:
            fnt = self._icon_font()
            if not self.forms and not self.badges:  # the first icon: all circles at once
                prefetch_circles(fnt, [icons.codepoint(n) for n in self.color
                                        if not self.is_word(n)])
            gx, gy, gr = glyph_circle(fnt, icons.codepoint(name))
            r = gr / GLYPH_SHARE if badge else gr
            form = self._glyph_form(c, name, (gx - r, gy - r, gx + r, gy + r),
                                    disc=(gx, gy, r) if badge else None)
            forms[name] = Form(form, gx, gy, r)
        return forms[name]

    def icon_shape_form(self, c, name: str) -> Form:
        """The icon's glyph drawn once into a form, with its silhouette for shape packing."""
        fnt = self._icon_font()
        face = pdfmetrics.getFont(fnt).face
        shape = icon_shape(str(icon_font_path()), icons.codepoint(name), face.unitsPerEm)
        form = self._glyph_form(c, name, shape.box)
        return Form(form, shape.cx, shape.cy, shape.silhouette.radius, shape.silhouette)

    def _glyph_form(self, c, name: str, box: tuple[float, float, float, float],
                    disc: tuple[float, float, float] | None = None) -> str:
        """Draw the icon's glyph in its colour into a new form (font units, box as given),
        on a tinted disc (centre and radius) when given one."""
        fnt = self._icon_font()
        form = self._form_name()
        c.saveState()
        c.beginForm(form, lowerx=box[0], lowery=box[1], upperx=box[2], uppery=box[3])
        if disc is not None:
            draw_disc(c, disc, self.color[name])
        c.setFillColor(self.color[name])
        c.setFont(fnt, pdfmetrics.getFont(fnt).face.unitsPerEm)
        c.drawString(0, 0, chr(icons.codepoint(name)))
        c.endForm()
        c.restoreState()
        return form

    def _form_name(self) -> str:
        """A form name unique in the document (several symbols elements share one PDF)."""
        self.counter[0] += 1
        return f"symbol{self.counter[0]}"

    def _icon_font(self) -> str:
        if self.icon_font is None:
            path = icon_font_path()
            if path is None or not path.is_file():
                raise PnpError("the built-in icons need the fontawesomefree package "
                               "(pip install fontawesomefree)", "symbols = \"icons\"")
            if ICON_FONT not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(ICON_FONT, str(path)))
            self.icon_font = ICON_FONT
        return self.icon_font

    def word(self, c, name: str, spot: Spot) -> None:
        width = pdfmetrics.stringWidth(name, self.word_font, 1.0)
        cap = 0.72  # cap height of the sans-bold font, in ems
        size = 2 * spot.r / math.hypot(width, cap)
        c.setFillColor(self.color.get(name, HexColor("#1a1a1a")))
        c.setFont(self.word_font, size)
        c.drawCentredString(0, -cap * size / 2, name)

    def form(self, c, name: str) -> Form:
        """The symbol's art drawn once into a PDF form (cleaned first when it is raster)."""
        if name not in self.forms and self.by_shape:
            self.forms[name] = self.icon_shape_form(c, name)
        if name not in self.forms:
            path = self.files[name]
            label = self._form_name()
            if path.suffix.lower() == ".svg":
                self.forms[name] = _svg_form(c, label, path)
            else:
                self.forms[name] = _raster_form(c, label, path, self.keep_background,
                                                self.cleaned.get(name))
        return self.forms[name]

    def printed(self, name: str, form: Form, scale: float) -> None:
        """Keep the lowest resolution a raster symbol prints at; note those below the
        target's ppi floor (generator.render.basic.PPI_FLOOR)."""
        if not form.pixels:
            return
        ppi = 72 / scale  # form units are the image's pixels
        if ppi >= self.ppi.get(name, math.inf):
            return
        self.ppi[name] = ppi
        floor = self.ctx.cache.get("ppi floor", PPI_FLOOR["home"])
        low = sorted((v, n) for n, v in self.ppi.items() if v < floor)
        if low:
            listed = ", ".join(f"{self.files[n].name} ({v:.0f} ppi)" for v, n in low[:LISTED])
            more = f" and {len(low) - LISTED} more" if len(low) > LISTED else ""
            note(f"ppi:{self.where}", f"{len(low)} symbol image(s) print below {floor} ppi "
                 f"and will look soft: {listed}{more}; use larger images")


class Form:
    """A symbol drawn once as a PDF form: its name, the centre and radius (form units) of the
    circle around its ink, its silhouette for packing, and whether its units are pixels."""

    def __init__(self, name: str, cx: float, cy: float, radius: float, silhouette=None,
                 pixels: bool = False):
        self.name, self.cx, self.cy, self.radius = name, cx, cy, radius
        self._silhouette = silhouette
        self.pixels = pixels

    @property
    def silhouette(self):
        """The ink's silhouette; a disc of the enclosing circle when the ink is not known
        cell by cell (made on demand: icon decks never need it, nor numpy)."""
        if self._silhouette is None:
            from generator.layout.silhouettes import Silhouette

            self._silhouette = Silhouette.disc(self.radius)
        return self._silhouette


def _raster_form(c, form: str, path: Path, keep: bool, prepared=None) -> Form:
    """A PNG/JPG symbol cleaned (background, trim) and encoded (symbol_image), unless given
    both prepared, and drawn once into a form, 1 unit/pixel."""
    from reportlab.lib.utils import ImageReader

    from generator.render import symbol_image
    from generator.render.art import clean

    if prepared is None:
        art = clean(path, keep)
        prepared = art, symbol_image.encode(path, art)
    art, enc = prepared
    if art.note:
        note(f"background:{path}", art.note)
    w, h = art.size
    c.saveState()
    c.beginForm(form, lowerx=0, lowery=0, upperx=w, uppery=h)
    if enc is None:  # its background kept: ReportLab stores it
        c.drawImage(ImageReader(art.image), 0, 0, w, h, mask="auto")
    elif enc.size == (w, h):
        symbol_image.draw(c, f"{form}-art", enc, 0, 0)
    else:  # the whole file, its trimmed box at the form's origin
        (left, top), height = art.offset, art.source_size[1]
        symbol_image.draw(c, f"{form}-art", enc, -left, top + h - height)
    c.endForm()
    c.restoreState()
    return Form(form, w / 2, h / 2, art.silhouette.radius, art.silhouette, pixels=True)


def icon_font_path() -> Path | None:
    """The built-in icons' font file (Font Awesome Free solid), None when not installed."""
    root = icons.package_dir()
    return Path(str(root / "webfonts" / "fa-solid-900.ttf")) if root is not None else None


def kit_for(ctx: Ctx, el: Element) -> _Kit:
    key = f"symbols-kit:{id(ctx.deck)}:{el.where}"
    if key not in ctx.cache:
        ctx.cache[key] = _Kit(ctx, el)
    return ctx.cache[key]


def _svg_form(c, form: str, path: Path) -> Form:
    """Draw an SVG once into a PDF form XObject; later cards only reference it."""
    from reportlab.graphics import renderPDF

    svg = read_svg(path)
    drawing, (x1, y1, x2, y2), pts, pad = svg.drawing, svg.bounds, svg.points, svg.pad
    c.saveState()
    c.beginForm(form, lowerx=x1 - 1, lowery=y1 - 1, upperx=x2 + 1, uppery=y2 + 1)
    try:
        renderPDF.draw(drawing, c, 0, 0)
    except (ArithmeticError, ValueError) as e:  # a nan or inf the bounds did not show
        raise PnpError(f"cannot draw this SVG file: {e}", str(path)) from None
    c.endForm()
    c.restoreState()
    from generator.render.svg_shape import svg_silhouette

    shape = svg_silhouette(drawing, (x1, y1, x2, y2), pad)
    if shape is not None:  # packed by its shape: placed by the centre of its silhouette
        sil, cx, cy = shape
        return Form(form, cx, cy, sil.radius, sil)
    if pts:
        cx, cy, r = enclosing_circle(pts)
        return Form(form, cx, cy, max(r + pad, 1e-6))
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return Form(form, cx, cy, max(math.hypot(x2 - x1, y2 - y1) / 2, 1e-6))
