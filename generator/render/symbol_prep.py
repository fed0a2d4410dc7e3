"""Clean a deck's symbol art and lay out its cards ahead of drawing, on every core at once.

A deck of the user's raster art spends its build time cleaning each image (generator.render.art)
and packing each card by silhouette (generator.layout.silhouettes). Both are pure functions of
their inputs, so generator.parallel deals the images, then the cards, to forked children while
this process does its own share; the results are the same whoever computes them, so the PDF's
bytes do not change (where forking cannot help or is not safe, everything is done here).

Anything that fails ahead of time (a damaged image, a card that cannot be laid out) is left
out: drawing the card computes it again and reports the error just as it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def split(fn: Callable[[Any], Any], items: Sequence) -> list:
    """[fn(x) for x in items] over the cores (generator.parallel.fork_map); an item whose fn
    raised gives None (the caller computes it again to report the error)."""
    from generator.parallel import fork_map

    return fork_map(lambda x: _quiet(fn, x), items)


def _quiet(fn, x):
    try:
        return fn(x)
    except Exception:
        return None


def rendered_cards(ctx) -> list:
    """The cards this render draws, in drawing order, each once (only this card when the
    drawing does not say: an export)."""
    seen: dict[int, Any] = {}
    for card in ctx.cache.get("cards drawn") or [ctx.card]:
        seen.setdefault(card.id, card)
    return list(seen.values())


def prefetch(cards, files: dict, keep: bool, region, seed: int, sizes, rotate: bool,
             rim: float) -> tuple[dict, dict]:
    """(Cleaned art, its encoded image) by symbol name, and layouts by layout_key() for the
    cards, computed with split(): what the drawing of each card would compute, ahead of time."""
    from PIL import Image

    from generator.layout.silhouettes import pack_silhouettes
    from generator.render.art import clean
    from generator.render.symbol_image import encode

    Image.preinit()  # the PNG and JPEG readers, imported once here rather than in each process
    names = list(dict.fromkeys(n for card in cards for n in card.symbols))
    raster = [n for n in names if n in files and files[n].suffix.lower() != ".svg"]

    def prepare(name):
        art = clean(files[name], keep)
        return art, encode(files[name], art)

    found = split(prepare, raster)
    arts = {n: got for n, got in zip(raster, found, strict=True) if got is not None}
    layouts: dict = {}
    if len(arts) < len(names):
        return arts, layouts

    def pack(card):
        return pack_silhouettes([arts[n][0].silhouette for n in card.symbols], region,
                                f"{seed}:{card.id}", sizes, rim=rim, rotate=rotate)

    for card, placed in zip(cards, split(pack, cards), strict=True):
        if placed is not None:
            layouts[layout_key(card.symbols, region, f"{seed}:{card.id}", sizes, rotate,
                               rim)] = placed
    return arts, layouts


def layout_key(symbols, region, seed: str, sizes, rotate: bool, rim: float) -> tuple:
    """Everything a card's layout depends on."""
    return tuple(symbols), region, seed, sizes, bool(rotate), rim
