"""`pnp export --format look`: the card renders (as `pnp export` writes them, no bleed, so a
render is the card's own box) and look.json: per distinct face its file, card ids and each
symbol's name, centre and radius in the render's pixels."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pnp_model.components import Card, Deck
from pnp_shared.files import write_atomic

FORMAT = "pnp look pack 1"  # what referee/camera/pack.py checks before reading the rest
PACK = "look.json"


def export_look(deck: Deck, cards: tuple[Card, ...], folder: Path, *, dpi: int = 150,
                workers: int = 1, progress: Callable[[int], None] | None = None) -> dict:
    """The renders, manifest.json and look.json in `folder`; -> look.json's content."""
    from generator.exports import export_png

    rows = export_png(deck, cards, folder, dpi=dpi, bleed=0.0, workers=workers,
                      progress=progress)
    spots = symbol_spots(deck, [r.ids[0] for r in rows])
    px = _pixels(deck, dpi)
    data = {"format": FORMAT, "deck": deck.name, "shape": deck.shape, "dpi": dpi,
            "size": list(px), "cards": []}
    sx, sy = px[0] / deck.width, px[1] / deck.height
    for r in rows:
        data["cards"].append({
            "id": Path(r.face).stem, "card": r.id, "ids": list(r.ids), "image": r.face,
            "symbols": [{"symbol": n, "x": round(x * sx, 2), "y": round(y * sy, 2),
                         "r": round(rad * sx, 2)} for n, x, y, rad in spots.get(r.id, [])]})
    write_atomic(folder / PACK, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
    return data


def symbol_spots(deck: Deck, ids: list[int]) -> dict[int, list[tuple[str, float, float, float]]]:
    """card id -> [(symbol, x, y from the top, radius)] in points, as the face draws them (a
    dry draw: the drawer records where it put each symbol, generator/render/symbols.py)."""
    from generator.render.pdf import drawing_digest
    from generator.render.registry import load_drawers

    by_id = {c.id: c for c in deck.cards}
    drawers, cache = load_drawers(), {"symbol spots": {}}
    cache["cards drawn"] = [by_id[i] for i in ids]
    for i in ids:
        drawing_digest(deck, by_id[i], deck.face, drawers, cache)
    return cache["symbol spots"]


def _pixels(deck: Deck, dpi: int) -> tuple[int, int]:
    from generator.raster import image_size

    return image_size(deck.width, deck.height, dpi, "a card image")
