"""Symbols whose silhouettes are too alike to tell apart at speed (symbol decks, where a player
scans two cards for the one symbol they share, each turned any way).

Each symbol's ink is reduced to a square mask, cropped to its ink and scaled to SIDE cells, so
size does not count (symbols print at many sizes); two symbols are compared at every TURN
step and the best overlap (intersection over union) is kept, as symbols are turned on cards.
Pairs at or above LOOKALIKE are named. Built-in icons and the user's own art (PNG, JPG, SVG
as the build cleans and fills it) are checked; words are not shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp_model.components import Card, Deck

SIDE = 40  # cells across a normalised silhouette
TURN = 30  # degrees between the turns compared
# overlap (IoU) from which two silhouettes read as one at a glance: blobby icons as unlike as
# a cloud and a heart overlap 0.83, so only near-copies (a square and its rounded twin) count
LOOKALIKE = 0.9


@dataclass(frozen=True)
class Lookalike:
    a: str
    b: str
    overlap: float
    cards: tuple[int, ...]  # cards carrying either symbol

    def __str__(self) -> str:
        return (f"symbols {self.a!r} and {self.b!r} have look-alike silhouettes ({self.overlap:.0%} "
                f"overlap at the best turn, from {LOOKALIKE:.0%}): players may take one for the "
                "other at speed; use a clearly different icon for one of them")


def _normalised(image):
    """The ink cropped to its box, centred in a square, scaled to SIDE x SIDE (0/1 array)."""
    import numpy as np
    from PIL import Image

    box = image.getbbox()
    if box is None:
        return None
    ink = image.crop(box)
    side = max(ink.size)
    square = Image.new("L", (side, side), 0)
    square.paste(ink, ((side - ink.size[0]) // 2, (side - ink.size[1]) // 2))
    return np.asarray(square.resize((SIDE, SIDE), Image.BILINEAR)) > 127


def _turns(image) -> list:
    return [m for angle in range(0, 360, TURN)
            if (m := _normalised(image.rotate(angle, expand=True))) is not None]


def icon_masks(cards: tuple[Card, ...]) -> dict:
    """Each built-in icon symbol the cards carry: its ink as a Pillow mask (none when a symbol
    is not a built-in icon: words, or the deck's own art)."""
    from generator.render.icon_shapes import icon_shape
    from generator.render.symbols import icon_font_path
    from pnp_model.designs import icons

    path = icon_font_path()
    names = list(dict.fromkeys(s for c in cards for s in c.symbols))
    if path is None or not names or any(icons.codepoint(n) is None for n in names):
        return {}
    # the font's units only scale the mask, and masks are compared scaled to SIDE anyway
    return {n: icon_shape(str(path), icons.codepoint(n), 1000).silhouette.image for n in names}


def art_masks(deck: Deck, cards: tuple[Card, ...]) -> dict:
    """Each of the user's own symbols (`symbols = "folder:..."`) the cards carry: its ink as
    the build sees it (a PNG or JPG cleaned of its plain background, an SVG's filled shapes).
    Art whose background is kept prints as a rectangle: its outline says nothing, so it is
    left out, as is a file that cannot be read (the build names it)."""
    from generator.render.art import seen_ink
    from generator.render.svg import read_svg
    from generator.render.svg_shape import svg_silhouette
    from pnp_model.components import IMAGE_SUFFIXES
    from pnp_model.errors import PnpError

    folder = deck.root / deck.source["symbols"][len("folder:"):]
    if not folder.is_dir():
        return {}
    files = {p.stem: p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}
    keep = any(el.kind == "symbols" and el.get("background", "remove") == "keep"
               for el in deck.face)
    masks = {}
    for name in dict.fromkeys(s for c in cards for s in c.symbols):
        path = files.get(name)
        try:
            if path is None:
                continue
            if path.suffix.lower() == ".svg":
                svg = read_svg(path)
                shape = svg_silhouette(svg.drawing, svg.bounds, svg.pad)
                if shape is not None:
                    masks[name] = shape[0].image
            elif not keep and (ink := seen_ink(path)) is not None:
                masks[name] = ink
        except PnpError:
            continue
    return masks


def check(deck: Deck, cards: tuple[Card, ...]) -> list[Lookalike]:
    """Pairs of the deck's symbols whose best-turn overlap reaches LOOKALIKE."""
    import numpy as np

    spec = deck.source.get("symbols", "icons")
    if spec == "icons" or isinstance(spec, list):
        masks = icon_masks(cards)
    elif isinstance(spec, str) and spec.startswith("folder:"):
        masks = art_masks(deck, cards)
    else:
        return []
    names = [n for n, m in masks.items() if m.getbbox() is not None]
    if len(names) < 2:
        return []
    # every pair at once: overlaps of each upright symbol with each turn of every other
    upright = np.array([_normalised(masks[n]).ravel() for n in names], dtype=np.float32)
    turns = [_turns(masks[n]) for n in names]
    per = len(turns[0])
    turned = np.array([t.ravel() for ts in turns for t in ts], dtype=np.float32)
    inter = upright @ turned.T
    union = upright.sum(1)[:, None] + turned.sum(1)[None, :] - inter
    best = (inter / np.maximum(union, 1)).reshape(len(names), len(names), per).max(axis=2)
    found = []
    for i, a in enumerate(names):
        for j in range(i + 1, len(names)):
            if best[i, j] >= LOOKALIKE:
                b = names[j]
                ids = tuple(c.id for c in cards if a in c.symbols or b in c.symbols)
                found.append(Lookalike(a, b, float(best[i, j]), ids))
    return found
