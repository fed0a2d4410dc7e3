"""Opaque test art like people's own symbols, and measures of a built symbol deck's ink.

Shared by bench/bench_symbols.py and the tests: 57 coloured drawings (a few overlapping
shapes with a dark outline) on a white square with wide margins, saved as PNG or JPG without
alpha (or the same drawings as SVG); and from a rendered card (page = card, `pnp build
--single`), the share of the card circle covered by ink and the ink too close to the rim. No
third-party art is shipped.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

COLOURS = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 127, 14), (148, 103, 189),
           (140, 86, 75), (227, 119, 194), (23, 190, 207), (40, 40, 40), (188, 170, 0))
INK = 48  # a pixel this far (per channel) from the paper colour is ink


def draw_symbol(rng: random.Random, size: int = 256, margin: int = 40):
    """One opaque drawing on white: 2-4 shapes (star, blob, bar, ring) in two colours."""
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (size, size), (255, 255, 255))
    d = ImageDraw.Draw(im)
    lo, hi = margin, size - margin
    main, second = rng.sample(COLOURS, 2)
    for k in range(rng.randint(2, 4)):
        colour = main if k % 2 == 0 else second
        cx, cy = rng.uniform(lo + 40, hi - 40), rng.uniform(lo + 40, hi - 40)
        r = rng.uniform(25, min(cx - lo, hi - cx, cy - lo, hi - cy, 70))
        kind = rng.choice(("star", "blob", "bar", "ring"))
        if kind == "star":
            n = rng.randint(5, 8)
            pts = [(cx + (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / n),
                    cy + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / n))
                   for i in range(2 * n)]
            d.polygon(pts, fill=colour, outline=(30, 30, 30), width=3)
        elif kind == "blob":
            d.ellipse((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), fill=colour,
                      outline=(30, 30, 30), width=3)
        elif kind == "bar":
            d.rounded_rectangle((cx - r, cy - r * 0.3, cx + r, cy + r * 0.3), radius=8,
                                fill=colour, outline=(30, 30, 30), width=3)
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=int(r / 3))
    return im


def svg_symbol(rng: random.Random, size: int = 256, margin: int = 40) -> str:
    """draw_symbol's drawing as SVG (the same shapes for the same random state), with no
    background: vector art has none to remove."""
    def rgb(c):
        return "#" + "".join(f"{v:02x}" for v in c)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">']
    lo, hi = margin, size - margin
    main, second = rng.sample(COLOURS, 2)
    edge = 'stroke="#1e1e1e" stroke-width="3"'
    for k in range(rng.randint(2, 4)):
        colour = rgb(main if k % 2 == 0 else second)
        cx, cy = rng.uniform(lo + 40, hi - 40), rng.uniform(lo + 40, hi - 40)
        r = rng.uniform(25, min(cx - lo, hi - cx, cy - lo, hi - cy, 70))
        kind = rng.choice(("star", "blob", "bar", "ring"))
        if kind == "star":
            n = rng.randint(5, 8)
            pts = " ".join(
                f"{cx + (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / n):.2f},"
                f"{cy + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / n):.2f}"
                for i in range(2 * n))
            out.append(f'<polygon points="{pts}" fill="{colour}" {edge}/>')
        elif kind == "blob":
            out.append(f'<ellipse cx="{cx:.2f}" cy="{cy:.2f}" rx="{r:.2f}" ry="{r * 0.7:.2f}" '
                       f'fill="{colour}" {edge}/>')
        elif kind == "bar":
            out.append(f'<rect x="{cx - r:.2f}" y="{cy - r * 0.3:.2f}" width="{2 * r:.2f}" '
                       f'height="{r * 0.6:.2f}" rx="8" fill="{colour}" {edge}/>')
        else:
            w = int(r / 3)
            out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r - w / 2:.2f}" fill="none" '
                       f'stroke="{colour}" stroke-width="{w}"/>')
    return "\n".join(out + ["</svg>"])


def make_deck(root: Path, order: int = 7, diameter: str = "95mm", fmt: str = "png",
              seed: int = 57, cards: int | None = None) -> Path:
    """A definition folder: one opaque symbol per point of the plane, round cards."""
    n = order * order + order + 1
    art = root / "art"
    art.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for i in range(n):
        if fmt == "svg":
            (art / f"symbol{i:03d}.svg").write_text(svg_symbol(rng))
            continue
        im = draw_symbol(rng)
        if fmt == "png":
            im.save(art / f"symbol{i:03d}.png")
        else:
            im.save(art / f"symbol{i:03d}.jpg", quality=85)
    (root / "game.toml").write_text(f"""[game]
title = "Own art"
[deck]
source = "plane"
shape = "circle"
size = "{diameter}x{diameter}"
options = {{ order = {order}, symbols = "folder:art"{f", cards = {cards}" if cards else ""} }}
[[face]]
type = "symbols"
""")
    return root


def card_ink(pdf: Path, dpi: int = 150, rim_mm: float = 1.0, pages=None):
    """Per page of a single-card PDF (page = a round card): (share of the card circle that
    is ink, ink pixels within rim_mm of the rim). The cut guide on the rim is not counted."""
    import numpy as np
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    out = []
    try:
        for i in pages if pages is not None else range(len(doc)):
            px = np.asarray(doc[i].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16)
            h, w, _ = px.shape
            yy, xx = np.mgrid[0:h, 0:w]
            d = np.hypot(xx + 0.5 - w / 2, yy + 0.5 - h / 2)
            radius = min(w, h) / 2
            rim = rim_mm / 25.4 * dpi
            guide = 0.6 / 25.4 * dpi  # the 0.25 pt cut guide, antialiased
            ink = (255 - px).max(axis=2) > INK
            inside = d <= radius
            near_rim = (d > radius - rim) & (d < radius - guide)
            out.append((float(ink[inside & (d < radius - guide)].sum() / inside.sum()),
                        int(ink[near_rim].sum())))
    finally:
        doc.close()
    return out


def symbol_overlap(pdf: Path, page: int, dpi: int = 150) -> int:
    """Pixels inked by two or more symbols of one page (symbol_renders' ink masks added up)."""
    total = None
    for px in symbol_renders(pdf, page, dpi):
        ink = ((255 - px).max(axis=2) > INK).astype("int32")
        total = ink if total is None else total + ink
    return 0 if total is None else int((total > 1).sum())


def symbol_renders(pdf: Path, page: int, dpi: int = 150) -> list:
    """Each symbol (a form object) of one page rendered alone, everything else removed: one
    RGB array (int16, height x width x 3) per symbol, in the page's drawing order."""
    import numpy as np
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    count = sum(o.type == raw.FPDF_PAGEOBJ_FORM for o in doc[page].get_objects(max_depth=0))
    doc.close()
    out = []
    for k in range(count):
        doc = pdfium.PdfDocument(str(pdf))
        pg = doc[page]
        objs = list(pg.get_objects(max_depth=0))
        keep = [i for i, o in enumerate(objs) if o.type == raw.FPDF_PAGEOBJ_FORM][k]
        for i, obj in enumerate(objs):
            if i != keep:
                pg.remove_obj(obj)
        pg.gen_content()
        out.append(np.asarray(pg.render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16))
        doc.close()
    return out
