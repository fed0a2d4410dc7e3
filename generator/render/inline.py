"""Inline icons in card text (`:name:` from [icons]) as paragraph markup, sized to the line.

A Font Awesome icon is a character of the embedded icon font; a PNG/JPG is reportlab's own
inline <img>. A built-in shape or an SVG has no such tag: it takes its room in the line as a
transparent placeholder <img>, and when reportlab draws that placeholder (at its place and
size, in the order of the text) the vector icon is drawn there instead. One tag per icon, so a
line never breaks between an icon and its room. SVG art is drawn once per PDF into a form and
placed by reference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from reportlab.lib.colors import Color, toColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.render.cmyk import to_color
from generator.render.markup import quoteattr
from generator.render.outline import shape_path
from pnp_model.designs import icons
from pnp_model.errors import PnpError
from pnp_model.inline_icons import InlineIcon
from pnp_model.shapes import shape_path as shape_commands

ICON_FONT = "FontAwesomeFreeSolid"  # the same registration as the symbols element's
RAISE = "middle"  # reportlab's vertical placement of inline images: centred on the text


class InlineIcons:
    """Builds the markup of a text's icons and draws the vector ones when reportlab asks."""

    def __init__(self, canvas, table: dict[str, InlineIcon], root: Path, cache: dict,
                 where: str):
        self.canvas, self.table, self.root, self.cache = canvas, table, root, cache
        self.where = where
        self.pending: list[Callable] = []  # vector icons of the markup being built, in order

    def markup(self, name: str, size: float, text_color: Color) -> str:
        spec = self.table[name]
        height = size * spec.scale
        if spec.kind == "icon":
            code = icons.codepoint(spec.value)
            tint = _hex(to_color(spec.color) if spec.color else text_color)
            return (f"<font name={quoteattr(_icon_font())} size={height:.3f} color={tint}>"
                    f"&#x{code:x};</font>")
        if spec.kind == "file" and not spec.value.lower().endswith(".svg"):
            path = self.root / spec.value
            w, h = self._image_size(path)
            return _img(str(path), height * w / h, height)
        if spec.kind == "file":
            form = self._svg_form(self.root / spec.value)
            width = height * form[3] / form[4]
            draw = _form_drawer(form)
        else:
            width = height
            tint = to_color(spec.color) if spec.color else text_color
            draw = _shape_drawer(spec.value, tint)
        self.pending.append(draw)
        return _img(_blank(), width, height)

    @contextmanager
    def drawing(self, vectors: list[Callable]) -> Iterator[None]:
        """While a paragraph draws: each placeholder reportlab draws becomes the next vector
        icon of that paragraph (`vectors`, in text order), drawn in the placeholder's box."""
        c = self.canvas
        queue = iter(vectors)

        def draw_image(image, x, y, width=None, height=None, *args, **kwargs):
            if getattr(image, "fileName", None) == _blank():
                next(queue)(c, x, y, width, height)
                return None
            return type(c).drawImage(c, image, x, y, width, height, *args, **kwargs)

        c.drawImage = draw_image
        try:
            yield
        finally:
            del c.drawImage

    def _image_size(self, path: Path) -> tuple[int, int]:
        key = f"inline-size:{path}"
        if key not in self.cache:
            from PIL import Image

            try:
                with Image.open(path) as im:
                    self.cache[key] = im.size
            except Exception as e:  # Pillow raises assorted errors for damaged files
                raise PnpError(f"cannot read icon image {path.name!r}: not a PNG or JPG file, or "
                               f"damaged ({type(e).__name__})", self.where) from None
        return self.cache[key]

    def _svg_form(self, path: Path) -> tuple[str, float, float, float, float]:
        """The SVG drawn once per PDF into a form: its name, left, bottom, width, height.
        Layout happens before any text object is open, so the form can be drawn here."""
        key = f"inline-svg:{path}"
        if key not in self.cache:
            from generator.render.svg import read_svg

            try:  # the checks of any SVG art: coordinates, size, elements
                svg = read_svg(path)
            except PnpError as e:
                raise PnpError(f"icon SVG {path.name!r}: {e.what}", self.where) from None
            bounds, drawing = svg.bounds, svg.drawing
            if bounds[2] <= bounds[0] or bounds[3] <= bounds[1]:
                raise PnpError(f"cannot read icon SVG {path.name!r} (nothing to draw)",
                               self.where)
            from reportlab.graphics import renderPDF

            x1, y1, x2, y2 = bounds
            name = f"inlineicon{sum(k.startswith('inline-svg:') for k in self.cache) + 1}"
            c = self.canvas
            c.saveState()
            c.beginForm(name, lowerx=x1, lowery=y1, upperx=x2, uppery=y2)
            renderPDF.draw(drawing, c, 0, 0)
            c.endForm()
            c.restoreState()
            self.cache[key] = (name, x1, y1, x2 - x1, y2 - y1)
        return self.cache[key]


def _form_drawer(form: tuple[str, float, float, float, float]):
    name, x1, y1, w, h = form

    def draw(c, x, y, width, height):
        sx, sy = width / w, height / h
        c.saveState()
        c.transform(sx, 0, 0, sy, x - x1 * sx, y - y1 * sy)
        c.doForm(name)
        c.restoreState()

    return draw


def _shape_drawer(name: str, tint: Color):
    def draw(c, x, y, width, height):
        commands, even_odd = shape_commands(name)
        r = min(width, height) / 2
        c.saveState()
        c.setFillColor(tint)
        c.drawPath(shape_path(c, commands, x + width / 2, y + height / 2, r), stroke=0,
                   fill=1, fillMode=1 if even_odd else 0)
        c.restoreState()

    return draw


def _img(src: str, width: float, height: float) -> str:
    return (f"<img src={quoteattr(src)} width={width:.3f} height={height:.3f} "
            f'valign="{RAISE}"/>')


def _blank() -> str:
    """A 1×1 transparent PNG shipped with the package: room in the line for a vector icon
    (reportlab reads inline images by file name; data: URLs are off unless trusted)."""
    return str(Path(__file__).with_name("blank.png"))


def _hex(color: Color) -> str:
    c = toColor(color)
    r, g, b = (c.rgb() if hasattr(c, "rgb") else (c.red, c.green, c.blue))
    return f'"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"'


def _icon_font() -> str:
    if ICON_FONT not in pdfmetrics.getRegisteredFontNames():
        root = icons.package_dir()
        path = Path(str(root / "webfonts" / "fa-solid-900.ttf")) if root is not None else None
        if path is None or not path.is_file():
            raise PnpError("Font Awesome icons need the fontawesomefree package "
                           "(pip install fontawesomefree)", "[icons]")
        pdfmetrics.registerFont(TTFont(ICON_FONT, str(path)))
    return ICON_FONT
