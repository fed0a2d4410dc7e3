"""The `image` element: PNG, JPG or SVG art placed in a box, fitted three ways.

`contain` (the default) shows the whole picture as large as the box allows, centred;
`stretch` fills the box, distorting; `cover` fills the box keeping the proportions and crops
what overflows with a clip path (the cropped part stays in the file, hidden). A stretched or
covering picture whose box reaches the trim fills the bleed beyond it too. An SVG is drawn
as vector, once per PDF into a form, at the size of its own page (width/height or viewBox);
raster art is embedded once per PDF and named in a note when it prints below the target's
ppi floor (basic.PPI_FLOOR).
"""

from __future__ import annotations

from generator.render.basic import box, check_ppi, read_image
from generator.render.registry import Ctx, drawer
from pnp_model.cardvalues import fill
from pnp_model.components import Element


def scales(fit: str, w: float, h: float, iw: float, ih: float) -> tuple[float, float]:
    """Horizontal and vertical scale from the art's units to the box for a fit mode."""
    if fit == "stretch":
        return w / iw, h / ih
    s = (max if fit == "cover" else min)(w / iw, h / ih)
    return s, s


@drawer("image")
def draw_image(ctx: Ctx, el: Element) -> None:
    c = ctx.canvas
    name = fill(el.get("file"), ctx.card)
    path = ctx.deck.root / name
    where = f"card {ctx.card.id}, {el.where}"
    vector = path.suffix.lower() == ".svg"
    art = _svg(ctx, path) if vector else _raster(ctx, path, name, where)
    iw, ih = art[1] if vector else art.getSize()
    fit = el.get("fit", "contain")
    x, y, w, h = _reach(ctx, box(ctx, el)) if fit != "contain" else box(ctx, el)
    sx, sy = scales(fit, w, h, iw, ih)
    dw, dh = iw * sx, ih * sy
    c.saveState()
    if fit == "cover":
        clip = c.beginPath()
        clip.rect(x, y, w, h)
        c.clipPath(clip, stroke=0, fill=0)
    if vector:
        c.translate(x + (w - dw) / 2, y + (h - dh) / 2)
        c.scale(sx, sy)
        c.doForm(art[0])
    else:
        c.drawImage(art, x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, mask="auto")
    c.restoreState()
    if not vector:
        check_ppi(ctx, name, (iw, ih), dw, dh, "stretch")  # ppi of the art as drawn


def _reach(ctx: Ctx, b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A box that fills to the trim on a side runs on into the bleed there, as other art does:
    a slip of the cutter then shows picture, not paper."""
    x, y, w, h = b
    eps, bleed = 0.01, ctx.bleed
    left = bleed if x <= eps else 0.0
    bottom = bleed if y <= eps else 0.0
    right = bleed if x + w >= ctx.width - eps else 0.0
    top = bleed if y + h >= ctx.height - eps else 0.0
    return x - left, y - bottom, w + left + right, h + bottom + top


def _raster(ctx: Ctx, path, name: str, where: str):
    key = f"image:{path}"
    if key not in ctx.cache:
        ctx.cache[key], _ = read_image(path, name, where)
    return ctx.cache[key]


def _svg(ctx: Ctx, path) -> tuple[str, tuple[float, float]]:
    """The SVG drawn once into a form: its name and its page size (drawing units)."""
    key = f"svg:{path}"
    if key not in ctx.cache:
        from reportlab.graphics import renderPDF

        from generator.render.svg import read_svg
        from pnp_model.errors import PnpError

        svg = read_svg(path)
        x1, y1, x2, y2 = svg.bounds
        pw, ph = svg.page if min(svg.page) > 0 else (x2, y2)
        if min(pw, ph) <= 0:
            raise PnpError("this SVG file has no size (width, height or viewBox)", str(path))
        form = f"svgimage{sum(k.startswith('svg:') for k in ctx.cache)}"
        c = ctx.canvas
        # beginForm/endForm keep the canvas state themselves; a saveState around them would put
        # an extra q Q on the first card using the art, making its copies look distinct.
        c.beginForm(form, lowerx=0, lowery=0, upperx=pw, uppery=ph)
        try:
            renderPDF.draw(svg.drawing, c, 0, 0)
        except (ArithmeticError, ValueError) as e:  # a nan or inf the bounds did not show
            raise PnpError(f"cannot draw this SVG file: {e}", str(path)) from None
        c.endForm()
        ctx.cache[key] = (form, (pw, ph))
    return ctx.cache[key]
