"""Per-card images for print shops and virtual tabletops, drawn by the same code as the PDFs.

Each distinct card face is rendered once, however many copies the deck has: two cards are the
same face when their drawing is the same (compared on the PDF operators a card draws, so a face
that prints its id or copy number is distinct per card). Pixel sizes are exact: a card of W×H
points with bleed b is round((W + 2b) / 72 × dpi) pixels wide (likewise high); the rendered page
is that many pixels at exactly `dpi`, the sub-pixel difference going into the bleed. PNGs carry
the dpi in their pHYs chunk.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from generator.layout.sheet import Page, Placement, Sheet
from generator.naming import slug
from generator.raster import image_size
from pnp_model.components import Card, Deck, Element
from pnp_shared.csv_text import csv_text
from pnp_shared.files import write_atomic


@dataclass(frozen=True)
class Face:
    """One distinct card face: the first card drawn this way and how many cards share it."""

    card: Card
    copies: int
    ids: tuple[int, ...]


@dataclass(frozen=True)
class Exported:
    """A distinct face and the files written for it (back: None when the deck has no backs)."""

    id: int
    name: str
    copies: int
    ids: tuple[int, ...]
    face: str
    back: str | None


def distinct(deck: Deck, cards: tuple[Card, ...], side: str = "front") -> list[Face]:
    """The deck's distinct faces (or backs), in card order, with their copy counts."""
    from generator.render.pdf import drawing_digest
    from generator.render.registry import load_drawers

    drawers, cache = load_drawers(), {}
    elements = deck.face if side == "front" else deck.back
    groups: dict[str, list[Card]] = {}
    for card in cards:
        groups.setdefault(drawing_digest(deck, card, elements, drawers, cache), []).append(card)
    return [Face(g[0], len(g), tuple(c.id for c in g)) for g in groups.values()]


def _opaque(deck: Deck) -> Deck:
    """The deck with a white card underneath its art, so unpainted card areas are not clear."""
    white = Element("rect", {"bleed": True, "fill": "#ffffff"}, "export background")
    return replace(deck, face=(white, *deck.face), back=(white, *deck.back) if deck.back else ())


def card_pages(deck: Deck, cards: list[Card], sides: list[str], bleed: float,
               dpi: int) -> tuple[Sheet, tuple[int, int]]:
    """One page per (card, side), sized to whole pixels at dpi, the card centred on it."""
    px, py = image_size(deck.width + 2 * bleed, deck.height + 2 * bleed, dpi, "a card image")
    w, h = px * 72 / dpi, py * 72 / dpi
    ox, oy = (w - deck.width) / 2, (h - deck.height) / 2
    grow = max(ox, oy, 0.0)
    pages = tuple(Page(side, (Placement(card, ox, oy, 0, grow),))
                  for card, side in zip(cards, sides, strict=True))
    return Sheet(w, h, pages, 1, {}, guides=False, trim_box=(0, 0, w, h)), (px, py)


def render_pngs(deck: Deck, jobs: list[tuple[Card, str, Path]], bleed: float, dpi: int,
                workers: int = 1, progress: Callable[[int], None] | None = None,
                transparent: bool | None = None) -> tuple[int, int]:
    """Draw each (card, side) once and write it as a PNG of exact size; returns (w, h) px."""
    from generator.render.pdf import render

    sheet, size = card_pages(_opaque(deck), [j[0] for j in jobs], [j[1] for j in jobs], bleed, dpi)
    pdf = render(_opaque(deck), sheet)
    clear = deck.shape != "rect" if transparent is None else transparent
    tasks = [(i, str(path)) for i, (_, _, path) in enumerate(jobs)]
    from generator.raster import rasterize

    rasterize(pdf, tasks, dpi, size, clear, workers, progress)
    return size


def export_png(deck: Deck, cards: tuple[Card, ...], folder: Path, *, dpi: int = 300,
               bleed: float | None = None, workers: int = 1,
               progress: Callable[[int], None] | None = None) -> list[Exported]:
    """PNG files for every distinct face and back of `cards`, plus manifest.csv/.json."""
    bleed = deck.print.bleed if bleed is None else bleed
    faces = distinct(deck, cards)
    backs = distinct(deck, cards, "back") if deck.has_backs else []
    shared_back = len(backs) == 1
    jobs: list[tuple[Card, str, Path]] = []
    rows: list[Exported] = []
    back_of = {cid: b for b in backs for cid in b.ids}
    for n, f in enumerate(faces, 1):
        stem = f"{n:03d}-{slug(f.card.name)}"
        jobs.append((f.card, "front", folder / f"{stem}.png"))
        back_file = None
        if backs and not shared_back:
            back_file = f"{stem}-back.png"
            jobs.append((back_of[f.card.id].card, "back", folder / back_file))
        elif shared_back:
            back_file = "back.png"
        rows.append(Exported(f.card.id, f.card.name, f.copies, f.ids, f"{stem}.png",
                             back_file))
    if shared_back:
        jobs.append((backs[0].card, "back", folder / "back.png"))
    render_pngs(deck, jobs, bleed, dpi, workers, progress)
    write_manifest(folder, rows)
    return rows


def write_manifest(folder: Path, rows: list[Exported]) -> None:
    """manifest.json and manifest.csv: id, name, copies, files of each distinct face."""
    data = [{"id": r.id, "name": r.name, "copies": r.copies, "ids": list(r.ids),
             "face": r.face, "back": r.back} for r in rows]
    write_atomic(folder / "manifest.json", (json.dumps(data, indent=2, ensure_ascii=False)
                                            + "\n").encode())
    table = [["id", "name", "copies", "face", "back"],
             *([r.id, r.name, r.copies, r.face, r.back or ""] for r in rows)]
    write_atomic(folder / "manifest.csv", csv_text(table).encode())
