"""Drawers for the basic element kinds: rect, ellipse, line, shape (text: text.py, image:
images.py)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader

from generator.notes import note
from generator.render.cmyk import to_color
from generator.render.outline import shape_path
from generator.render.registry import Ctx, drawer
from pnp_model.cardvalues import fill, resolve_color, resolve_shape
from pnp_model.components import Element
from pnp_model.errors import PnpError
from pnp_model.shapes import shape_path as shape_commands

# Art printed coarser than this looks soft; a build warns, naming the file. A print shop asks
# 300 ppi; a home inkjet or laser sheet shows no softness from 200 ppi at reading distance.
PPI_FLOOR = {"shop": 300, "home": 200}


def color(ctx: Ctx, el: Element, key: str):
    """The element's colour parameter for this card, or None when absent or 'none'."""
    value = el.get(key)
    if value is None:
        return None
    resolved = resolve_color(fill(value, ctx.card), ctx.deck.colors, el.where)
    return None if resolved == "none" else to_color(resolved)


def paint(ctx: Ctx, el: Element, fill_default: str | None = None) -> tuple[bool, bool]:
    """Set fill and stroke from the element; say which of the two to use."""
    c = ctx.canvas
    s = color(ctx, el, "stroke")
    # The default fill is for a shape given no colour at all: an outline-only shape stays open.
    f = color(ctx, el, "fill") if el.get("fill") else (
        HexColor(fill_default) if fill_default and not el.get("stroke") else None)
    if f is not None:
        c.setFillColor(f)
    if s is not None:
        c.setStrokeColor(s)
        c.setLineWidth(el.get("stroke_width", 0.5))
    return f is not None, s is not None


def box(ctx: Ctx, el: Element) -> tuple[float, float, float, float]:
    """The element's box in canvas coordinates (x, y bottom-left, w, h); default: the card."""
    x, y = el.get("x", 0.0), el.get("y", 0.0)
    w, h = el.get("w", ctx.width - x), el.get("h", ctx.height - y)
    return x, ctx.y(y + h), w, h


def bled(ctx: Ctx, el: Element) -> tuple[float, float, float, float]:
    """The box of a filled rect or ellipse, pushed out by the bleed on every side where it
    reaches the trim (all sides with bleed = true): art that reaches the trim bleeds past it, so
    a card-sized disc on a round card becomes the larger disc of the bleed."""
    x, y, w, h = box(ctx, el)
    b, every = ctx.bleed, bool(el.get("bleed"))
    if not b or not (every or el.get("fill")):
        return x, y, w, h
    eps = 0.01
    left = b if every or x <= eps else 0.0
    bottom = b if every or y <= eps else 0.0
    right = b if every or x + w >= ctx.width - eps else 0.0
    top = b if every or y + h >= ctx.height - eps else 0.0
    return x - left, y - bottom, w + left + right, h + bottom + top


@drawer("rect")
def draw_rect(ctx: Ctx, el: Element) -> None:
    x, y, w, h = bled(ctx, el)
    do_fill, do_stroke = paint(ctx, el)
    r = el.get("radius", 0.0)
    if r:
        ctx.canvas.roundRect(x, y, w, h, r, stroke=do_stroke, fill=do_fill)
    else:
        ctx.canvas.rect(x, y, w, h, stroke=do_stroke, fill=do_fill)


@drawer("ellipse")
def draw_ellipse(ctx: Ctx, el: Element) -> None:
    x, y, w, h = bled(ctx, el)
    do_fill, do_stroke = paint(ctx, el)
    ctx.canvas.ellipse(x, y, x + w, y + h, stroke=do_stroke, fill=do_fill)


@drawer("line")
def draw_line(ctx: Ctx, el: Element) -> None:
    paint(ctx, el)
    ctx.canvas.line(el.get("x", 0.0), ctx.y(el.get("y", 0.0)), el.get("x2", 0.0),
                    ctx.y(el.get("y2", 0.0)))


@drawer("shape")
def draw_shape(ctx: Ctx, el: Element) -> None:
    c = ctx.canvas
    name = resolve_shape(fill(el.get("name", "circle"), ctx.card), ctx.deck.shapes, el.where)
    commands, even_odd = shape_commands(name)
    r = el.get("size", 10.0) / 2
    c.saveState()
    c.translate(el.get("x", ctx.width / 2), ctx.y(el.get("y", ctx.height / 2)))
    do_fill, do_stroke = paint(ctx, el, fill_default="#000000")
    c.drawPath(shape_path(c, commands, 0, 0, r), stroke=do_stroke, fill=do_fill,
               fillMode=1 if even_odd else 0)
    c.restoreState()


def check_ppi(ctx: Ctx, name: str, pixels: tuple[int, int], w: float, h: float,
               fit: str) -> None:
    """A warning for art printed below the target's ppi floor (the render's "ppi floor"),
    naming the file, its worst card and the ppi."""
    iw, ih = pixels
    if fit == "stretch":
        ppi = min(iw / (w / 72), ih / (h / 72)) if w and h else 0.0
    else:
        scale = min(w / iw, h / ih)  # points per pixel, as drawn
        ppi = 72 / scale if scale else 0.0
    floor = ctx.cache.get("ppi floor", PPI_FLOOR["shop"])
    worst = ctx.cache.setdefault("ppi", {})
    if 0 < ppi < floor and ppi < worst.get(name, floor):
        worst[name] = ppi
        target = "for a print shop" if floor >= PPI_FLOOR["shop"] else "on a home printer"
        note(f"ppi:{name}", f"{name} prints at {ppi:.0f} ppi on card #{ctx.card.id} "
                            f"({ctx.card.name}); {floor} ppi or more prints sharp {target}")


def art_pixels(size: tuple[int, int], name: str, where: str, most: int | None = None) -> None:
    """Refuse art larger than `most` pixels (MAX_ART_PIXELS) before it is decoded: a small
    file (a PNG of one colour) can hold a huge image, and decoding takes 4 bytes a pixel,
    several times over."""
    from pnp_shared.limits import MAX_ART_PIXELS

    most = MAX_ART_PIXELS if most is None else most
    w, h = size
    if w * h > most:
        raise PnpError(f"image {name!r} is {w:,}×{h:,} pixels, more than the limit of "
                       f"{most:,}: scale it down (1200 dpi is enough for any card)", where)


def read_image(path, name: str, where: str, measure=None) -> tuple[ImageReader, Any]:
    """An image decoded once (a damaged file fails here, not as a broken PDF), and what
    `measure` finds in the decoded Pillow image."""
    from PIL import Image

    try:
        with Image.open(path) as im:
            art_pixels(im.size, name, where)
            im.load()
            found = measure(im) if measure else None
        return ImageReader(str(path)), found
    except PnpError:
        raise
    except Exception as e:  # Pillow and reportlab raise assorted errors for bad files
        raise PnpError(f"cannot read image {name!r}: not a PNG or JPG file, or damaged "
                       f"({type(e).__name__})", where) from None
