"""Clean a deck's symbol art and lay out its cards ahead of drawing, on two cores at once.

A deck of the user's raster art spends its build time cleaning each image (generator.render.art)
and packing each card by silhouette (generator.layout.silhouettes). Both are pure functions of
their inputs, so when the machine has a second core a forked helper process takes every other
image, then every other card, while this process does the rest; the results are the same
whoever computes them, so the PDF's bytes do not change. Without fork (Windows; macOS, where
forking after the image libraries load is unsafe), on one core, with threads running, or inside
a worker of a several-game build (the other cores are busy with the other games), everything is
done here, one after the other.

Anything that fails ahead of time (a damaged image, a card that cannot be laid out) is left
out: drawing the card computes it again and reports the error just as it always did.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any


def spare_core() -> bool:
    """Whether a forked helper would run beside this process rather than queue behind it."""
    if not hasattr(os, "fork") or sys.platform == "darwin" or threading.active_count() > 1:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity call on this OS
        cores = os.cpu_count() or 1
    if cores < 2:
        return False
    mp = sys.modules.get("multiprocessing")
    return not (mp is not None and mp.current_process().daemon)


def split(fn: Callable[[Any], Any], items: Sequence, fork: bool | None = None) -> list:
    """[fn(x) for x in items], every other item in a forked child when a core is spare; an item
    whose fn raised gives None (the caller computes it again to report the error)."""
    if fork is None:
        fork = len(items) > 1 and spare_core()
    if not fork:
        return [_quiet(fn, x) for x in items]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: its half, pickled down the pipe, then gone without cleanup
        try:
            os.close(read)
            data = pickle.dumps([_quiet(fn, x) for x in items[1::2]], pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write)
    got = os.fdopen(read, "rb")
    done = False
    try:
        mine = [_quiet(fn, x) for x in items[0::2]]
        data = got.read()
        done = True
    finally:
        got.close()
        if not done:  # interrupted: the helper must not outlive the build
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    try:
        theirs = pickle.loads(data)
    except Exception:  # the helper died (killed, out of memory): do its half here
        theirs = None
    if not isinstance(theirs, list) or len(theirs) != len(items[1::2]):
        theirs = [_quiet(fn, x) for x in items[1::2]]
    out: list = [None] * len(items)
    out[0::2], out[1::2] = mine, theirs
    return out


def _quiet(fn, x):
    try:
        return fn(x)
    except Exception:
        return None


def rendered_cards(ctx, el) -> list:
    """The cards this render draws the element on, in drawing order (only this card when the
    sheet is not known)."""
    sheet = ctx.cache.get("sheet")
    if sheet is None:
        return [ctx.card]
    on_front = any(e.where == el.where for e in ctx.deck.face)
    on_back = any(e.where == el.where for e in ctx.deck.back)
    seen: dict[int, Any] = {}
    for page in sheet.pages:
        if (on_front and page.side == "front") or (on_back and page.side == "back"):
            for placement in page.placements:
                seen.setdefault(placement.card.id, placement.card)
    return list(seen.values()) or [ctx.card]


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
