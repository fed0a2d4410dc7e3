"""Clean a deck's symbol art and lay out its cards ahead of drawing, on every core at once.

A deck of the user's raster art spends its build time cleaning each image (generator.render.art)
and packing each card by silhouette (generator.layout.silhouettes). Both are pure functions of
their inputs, so generator.parallel shares the images, then the cards, between this process
and forked children; the results are the same whoever computes them, so the PDF's bytes do
not change (where forking cannot help or is not safe, everything is done here). Both are also
kept from build to build (generator.render.symbol_memo): a rebuild computes only what changed.

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
    cards, computed with split(): what the drawing of each card would compute, ahead of time.
    What an earlier build computed from the same files and options is read back instead
    (generator.render.symbol_memo), and what this one computes is stored for the next."""
    from generator.render import symbol_memo as memo

    names = list(dict.fromkeys(n for card in cards for n in card.symbols))
    raster = [n for n in names if n in files and files[n].suffix.lower() != ".svg"]
    keys = {n: memo.art_key(files[n], keep) for n in raster}
    arts = {}
    for n in raster:
        got = memo.load_art(keys[n], files[n], keep) if keys[n] else None
        if got is not None:
            arts[n] = got
    todo = [n for n in raster if n not in arts]
    for n, got in zip(todo, _clean_all([files[n] for n in todo], keep), strict=True):
        if got is not None:
            arts[n] = got
            if keys[n]:
                memo.save_art(keys[n], *got)
    layouts: dict = {}
    if len(arts) < len(names):
        return arts, layouts
    folder = files[raster[0]].parent
    stored = memo.load_layouts(folder)
    card_keys = [memo.layout_key([keys[n] for n in card.symbols], f"{seed}:{card.id}", region,
                                 sizes, rotate, rim)
                 if all(keys[n] for n in card.symbols) else None for card in cards]
    missing = [card for card, key in zip(cards, card_keys, strict=True) if key not in stored]

    from generator.layout import silhouettes

    if missing:
        silhouettes.prepare_grid(region, rim)

    def pack(card):
        return silhouettes.pack_silhouettes([arts[n][0].silhouette for n in card.symbols], region,
                                f"{seed}:{card.id}", sizes, rim=rim, rotate=rotate)

    packed = {card.id: placed for card, placed in zip(missing, split(pack, missing),
                                                      strict=True)}
    fresh = {}
    for card, key in zip(cards, card_keys, strict=True):
        placed = stored[key] if key in stored else packed.get(card.id)
        if placed is None:
            continue
        layouts[layout_key(card.symbols, region, f"{seed}:{card.id}", sizes, rotate,
                           rim)] = placed
        if key is not None:
            fresh[key] = placed
    if missing and fresh:
        # the deck's other layouts stay (a preview draws a few cards), up to a bound
        kept = stored if len(stored) + len(fresh) <= MEMO_LAYOUTS else {}
        memo.save_layouts(folder, {**kept, **fresh})
    return arts, layouts


MEMO_LAYOUTS = 4096  # card layouts kept per deck folder; past this, only the latest build's


def _clean_all(paths: list, keep: bool) -> list:
    """Each image cleaned and encoded, over the cores (None for one that failed)."""
    if not paths:
        return []
    from PIL import Image

    from generator.render.art import clean
    from generator.render.symbol_image import encode
    from generator.render.symbol_memo import StoredArt

    Image.preinit()  # the PNG and JPEG readers, imported once here rather than in each process

    def prepare(path):
        art = clean(path, keep)
        enc = encode(path, art)
        return (art if enc is None else StoredArt.of(art, path, keep)), enc

    return split(prepare, paths)


def layout_key(symbols, region, seed: str, sizes, rotate: bool, rim: float) -> tuple:
    """Everything a card's layout depends on."""
    return tuple(symbols), region, seed, sizes, bool(rotate), rim
