"""The `text` element: plain lines, wrapped paragraphs and text boxes with rich text.

Without `h`, (x, y) is the first line's baseline (x its left, centre or right by `align`), as
it always was. With `h` the text is a box: y is its top, the block sits at the top, middle or
bottom (`valign`), and `fit = "shrink"` makes it smaller until it fits, never below
`min_size`. What still does not fit, and characters no font has, are build warnings naming the
card and the element: a card whose rules run off its edge must not print silently.
Plain text takes reportlab's string drawing (fast, as before); markup, icons, fallback glyphs
and boxes go through platypus Paragraph, which breaks the lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.notes import note
from generator.render import fonts, richtext, text_room
from generator.render.basic import color
from generator.render.glue import icons_glued
from generator.render.registry import Ctx, drawer
from pnp_model.cardvalues import fill
from pnp_model.components import Element
from pnp_model.errors import PnpError
from pnp_model.units import MM

MIN_SIZE = 6.0  # points: smaller text is hard to read on a card (preflight flags it too)
ALIGN = {"left": 0, "center": 1, "right": 2}  # reportlab.lib.enums TA_LEFT, TA_CENTER, TA_RIGHT
BIG = 1e5  # points: "no limit" for a dimension the element does not constrain
EPS = 0.01  # points of slack before a block counts as not fitting
STEPS = 5  # halvings of the size range after the first guess: within ~0.1 pt


@drawer("text")
def draw_text(ctx: Ctx, el: Element) -> None:
    text = fill(el.get("text", ""), ctx.card)
    if not text:
        return
    base = fonts.font(el.get("font"), ctx.deck.root, el.where)
    parts = richtext.tokens(text, set(ctx.deck.icons))
    _within_limits(ctx, el, text, parts)
    shrink = bool(el.get("shrink")) or el.get("fit") == "shrink"
    plain = richtext.plain_text(parts) if richtext.is_plain(parts) else None
    if ctx.deck.icons:
        _unknown_icons(ctx, el, parts)
    if plain is not None and el.get("h") is None and \
            all(ch.isspace() or fonts.has_glyph(base, ch) for ch in plain):
        size = _one_line_size(el, plain, base) if shrink else el.get("size", 10.0)
        if size is not None:
            _draw_plain(ctx, el, plain, base, size)
            return
    TextBox(ctx, el, parts, base, shrink).draw()


def _within_limits(ctx: Ctx, el: Element, text: str, parts: list[richtext.Token]) -> None:
    """A card's text, its fields filled in, is refused past the limits of pnp_shared.limits:
    its drawing time grows with its characters and its icons."""
    from pnp_shared import limits

    where = f"card {ctx.card.id}, {el.where}"
    if len(text) > limits.MAX_CARD_TEXT_CHARS:
        raise PnpError(f"the text is {len(text):,} characters long with its fields filled in, "
                       f"more than the limit of {limits.MAX_CARD_TEXT_CHARS:,}", where)
    icons = sum(t.kind == "icon" for t in parts)
    if icons > limits.MAX_INLINE_ICONS:
        raise PnpError(f"the text shows {icons:,} icons, more than the limit of "
                       f"{limits.MAX_INLINE_ICONS:,}", where)


def _one_line_size(el: Element, text: str, name: str) -> float | None:
    """The size at which one plain line fits its width, or None below min_size (the text box
    then wraps it and warns)."""
    size = el.get("size", 10.0)
    width = stringWidth(text, name, size)
    if width <= el.get("w"):
        return size
    smaller = size * el.get("w") / width
    return smaller if smaller >= min(el.get("min_size", MIN_SIZE), size) else None


def _draw_plain(ctx: Ctx, el: Element, text: str, name: str, size: float) -> None:
    """One line, or greedy word wrap in w: strings drawn directly (most card text)."""
    c = ctx.canvas
    leading = el.get("leading", el.get("size", 10.0) * 1.2) * size / el.get("size", 10.0)
    width = el.get("w")
    lines = wrap(text, name, size, width) if width and not el.get("shrink") and \
        el.get("fit") != "shrink" else [text]
    c.setFillColor(color(ctx, el, "color") or HexColor("#000000"))
    c.setFont(name, size)
    x, y = el.get("x", 0.0), ctx.y(el.get("y", 0.0))
    align = el.get("align", "left")
    draw = {"center": c.drawCentredString, "right": c.drawRightString}.get(align, c.drawString)
    for i, line in enumerate(lines):
        draw(x, y - i * leading, line)
    widths = [stringWidth(line, name, size) for line in lines]
    text_room.check(ctx, el, text_room.ink_box(
        name, size, [(text_room.placed(x, w, align), w) for w in widths], y, leading))


def wrap(text: str, font_name: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to a width in points (a word longer than the width stands alone)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and stringWidth(trial, font_name, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    lines.append(current)
    return lines


@dataclass
class Layout:
    """A paragraph laid out at one size, its measures, and its vector icons in text order."""

    size: float
    para: Any
    widest: float
    height: float
    lines: int
    vectors: list


class TextBox:
    """One text element on one card laid out as a paragraph: size chosen, placed, drawn."""

    def __init__(self, ctx: Ctx, el: Element, parts: list[richtext.Token], base: str,
                 shrink: bool):
        self.ctx, self.el, self.parts, self.base, self.shrink = ctx, el, parts, base, shrink
        self.size = el.get("size", 10.0)
        self.ratio = el.get("leading", self.size * 1.2) / self.size
        self.min_size = min(el.get("min_size", MIN_SIZE), self.size)
        self.width = el.get("w")
        self.height = el.get("h")
        # shrink without h keeps the text in as many lines as it was written in
        self.lines = sum(t.kind == "br" for t in parts) + 1
        self.text_color = color(ctx, el, "color") or HexColor("#000000")
        from generator.render.inline import InlineIcons

        self.icons = InlineIcons(ctx.canvas, ctx.deck.icons, ctx.deck.root, ctx.cache,
                                 f"card {ctx.card.id}, {el.where}")
        self.missing: list[str] = []
        self.plain_styles: set[str] = set()  # bold/italic spans the font has no variant for
        self.pieces = richtext.pieces(parts, self.variant, base, self.missing)
        self.parsed = None  # the markup parsed at the element's size (see layout)
        self.vectors: list = []  # its vector icons, in text order

    def layout(self, size: float) -> Layout:
        """The paragraph at a font size, measured. The markup is parsed once (at the element's
        size); other sizes scale its fragments, which is what a parse at that size would give
        and saves most of the work of shrinking."""
        # platypus is slow to import: only decks with rich text or boxes pay for it
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus.paragraph import Paragraph

        # no space shrinking: reportlab would let a line run past w by a few % of its spaces
        style = ParagraphStyle(
            "pnp-text", fontName=self.base, fontSize=size, leading=size * self.ratio,
            alignment=ALIGN[self.el.get("align", "left")], textColor=self.text_color,
            splitLongWords=0, allowWidows=1, allowOrphans=1, spaceShrinkage=0)
        if self.parsed is None:
            self.icons.pending = []
            markup = "".join(p if isinstance(p, str) else
                             self.icons.markup(p.value, self.size, self.text_color)
                             for p in self.pieces)
            try:
                self.parsed = Paragraph(markup, style.clone("pnp-parse", fontSize=self.size,
                                                            leading=self.size * self.ratio))
            except ValueError as e:  # a markup slip of ours; still one line for the user
                raise PnpError(f"cannot lay out this text: {' '.join(str(e).split())}",
                               f"card {self.ctx.card.id}, {self.el.where}") from None
            self.vectors = self.icons.pending
        para = Paragraph("", style, frags=_scaled(self.parsed.frags, size / self.size))
        with icons_glued():
            _, height = para.wrap(self.width or BIG, BIG)
        widths = para.getActualLineWidths0() or [0.0]
        return Layout(size, para, max(widths), height, len(widths), self.vectors)

    def variant(self, bold: bool, italic: bool) -> str:
        """The font of a bold and/or italic span: the element's font_bold/font_italic/
        font_bold_italic, else the built-in family's variant; a .ttf without one is used as
        it is, with a warning (the span would look like the rest)."""
        key = ("font_bold_italic" if bold and italic else "font_bold" if bold else
               "font_italic" if italic else None)
        if key is None:
            return self.base
        if self.el.get(key):
            return fonts.font(fill(self.el.get(key), self.ctx.card), self.ctx.deck.root,
                              f"{self.el.where}.{key}")
        name = fonts.styled(self.base, bold, italic)
        if name == self.base:
            self.plain_styles.add(key)
        return name

    def fits(self, lay: Layout) -> bool:
        if self.width is not None and lay.widest > self.width + EPS:
            return False
        if self.height is not None:
            return lay.height <= self.height + EPS
        return not self.shrink or lay.lines <= self.lines

    def choose(self) -> Layout:
        """The largest size from min_size up to size that fits (size itself when no shrink):
        a first guess from the area the text needs, then bisection."""
        first = self.layout(self.size)
        if not self.shrink or self.fits(first):
            return first
        lo, hi, best = self.min_size, self.size, None
        if self.height and first.height > self.height:
            guess = max(self.min_size, self.size * math.sqrt(self.height / first.height))
            trial = self.layout(guess)
            if self.fits(trial):
                lo, best = guess, trial
            else:
                hi = guess
        if best is None:
            best = self.layout(self.min_size)
            if not self.fits(best):
                return best
        for _ in range(STEPS):
            trial = self.layout((lo + hi) / 2)
            if self.fits(trial):
                lo, best = trial.size, trial
            else:
                hi = trial.size
        return best

    def draw(self) -> None:
        lay = self.choose()
        if self.width is None:  # no box: as wide as the widest line, anchored by align
            with icons_glued():
                lay.para.wrap(lay.widest + EPS, BIG)
            box_w = lay.widest + EPS
        else:
            box_w = self.width
        x = self.el.get("x", 0.0)
        left = {"center": x - box_w / 2, "right": x - box_w}.get(self.el.get("align"), x)
        y = self.ctx.y(self.el.get("y", 0.0))
        if self.height is None:
            top = y + lay.size  # y is the first baseline, which reportlab sets a size down
        else:
            room = self.height - lay.height
            top = y - {"middle": room / 2, "bottom": room}.get(self.el.get("valign"), 0.0)
        with self.icons.drawing(lay.vectors):
            lay.para.drawOn(self.ctx.canvas, left, top - lay.height)
        # the widest line placed in the box as align places it; platypus sets the first
        # baseline a font size below the top
        anchor = {"center": left + box_w / 2, "right": left + box_w}.get(self.el.get("align"), left)
        line = (text_room.placed(anchor, lay.widest, self.el.get("align")), lay.widest)
        overflows = self.report(lay.size, lay.widest, lay.height, lay.lines)
        text_room.check(self.ctx, self.el, text_room.ink_box(
            self.base, lay.size, [line] * lay.lines, top - lay.size, lay.size * self.ratio),
            safe=not overflows)  # said once: overflowing its box says where it ends

    def report(self, size: float, widest: float, height: float, lines: int) -> bool:
        """Warnings for what did not fit and for characters no font has; True when the text
        does not fit its box."""
        card, el = self.ctx.card, self.el
        if card.get("copy", "1") != "1":  # copies repeat the first copy's warnings
            return False
        who = f"card #{card.id} ({card.name}), {el.where}"
        at = f" even at min_size {size:g} pt" if self.shrink else f" at {size:g} pt"
        problems = []
        if self.height is not None and height > self.height + EPS:
            over = height - self.height
            problems.append(f"text overflows its box (h {self.height / MM:.1f} mm) by "
                            f"{over / MM:.1f} mm ({math.ceil(over / (size * self.ratio) - 1e-6)} "
                            f"line{'s' if over > size * self.ratio else ''}){at}")
        elif self.height is None and self.shrink and lines > self.lines:
            problems.append(f"text needs {lines} lines, not {self.lines}{at}: give the "
                            "element a box height h")
        if self.width is not None and widest > self.width + EPS:
            problems.append(f"a word is {(widest - self.width) / MM:.1f} mm wider than the box "
                            f"(w {self.width / MM:.1f} mm){at}")
        for problem in problems:
            self._warn(f"overflow:{el.where}:{card.id}", f"{who}: {problem}")
        for key in sorted(self.plain_styles):
            self._warn(f"style:{el.where}:{key}",
                       f"{who}: {key.removeprefix('font_').replace('_', ' ')} text in a font "
                       f"without that style ({el.get('font')}); give the element {key} = "
                       "\"a .ttf file\"")
        for ch in self.missing:
            self._warn(f"glyph:{el.where}:{ch}",
                       f"{who}: no font has the character {ch!r} (U+{ord(ch):04X}); it prints "
                       "as an empty box (use a font that has it, or an [icons] entry)")
        return bool(problems)

    def _warn(self, key: str, text: str) -> None:
        seen = self.ctx.cache.setdefault("text-warnings", set())
        if key not in seen:
            seen.add(key)
            note(key, text)


def _scaled(frags: list, k: float) -> list:
    """Paragraph fragments at k times their size: fonts and inline images."""
    out = []
    for f in frags:
        g = f.clone(fontSize=f.fontSize * k)
        cb = getattr(f, "cbDefn", None)
        if cb is not None and getattr(cb, "kind", None) == "img":
            g.cbDefn = cb.clone(width=cb.width * k, height=cb.height * k)
        out.append(g)
    return out


def _unknown_icons(ctx: Ctx, el: Element, parts: list[richtext.Token]) -> None:
    """`:name:` that is not in [icons] prints as written; say so, since it is likely a typo."""
    import re

    for t in parts:
        if t.kind != "text":
            continue
        for m in re.finditer(r":([A-Za-z][A-Za-z0-9_-]*):", t.value):
            key = f"icon:{el.where}:{m.group(1)}"
            seen = ctx.cache.setdefault("text-warnings", set())
            if key not in seen:
                seen.add(key)
                note(key, f"card #{ctx.card.id} ({ctx.card.name}), {el.where}: no icon "
                          f"{m.group(0)} in [icons] ({', '.join(sorted(ctx.deck.icons))}); "
                          "it prints as written")
