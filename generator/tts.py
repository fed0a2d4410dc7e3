"""Tabletop Simulator decks: face sheets, a back image, and a saved-object JSON.

TTS reads a custom deck from a grid image of at most 10×7 cards whose last cell is the image
shown for a hidden card; so a sheet holds up to 69 faces and larger decks take several sheets,
each its own entry of the deck's CustomDeck. A card is numbered CardID = sheet key × 100 + its
cell index (row-major from the top left). The JSON is one DeckCustom object, as TTS saves it,
with file:// URLs to the exported images; import it through Objects → Saved Objects.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from pathlib import Path

from generator.exports import distinct
from generator.naming import output_stem
from generator.raster import pixels
from pnp_model.components import Card, Deck
from pnp_shared.files import write_atomic

COLS, ROWS = 10, 7
PER_SHEET = COLS * ROWS - 1  # the last cell shows a hidden card
MAX_SHEET_PX = 4096  # wider or taller sheets load slowly or not at all in TTS


def grid(n: int) -> tuple[int, int]:
    """Columns and rows for n faces plus the hidden-card cell."""
    cols = min(COLS, n + 1)
    return cols, math.ceil((n + 1) / cols)


def _fit_dpi(deck: Deck, dpi: int, cols: int, rows: int) -> int:
    """The dpi, lowered so the sheet stays within MAX_SHEET_PX on both sides."""
    while dpi > 30 and (pixels(deck.width, dpi) * cols > MAX_SHEET_PX
                        or pixels(deck.height, dpi) * rows > MAX_SHEET_PX):
        dpi -= 1
    return dpi


def _images(deck: Deck, jobs: list[tuple[Card, str]], dpi: int, workers: int,
            progress: Callable[[int], None] | None, folder: Path) -> list:
    """Render each (card, side) at dpi without bleed; returns PIL images in job order."""
    from PIL import Image

    from generator.exports import render_pngs

    tmp = folder / ".cards"
    paths = [tmp / f"{i:05d}.png" for i in range(len(jobs))]
    render_pngs(deck, [(c, s, p) for (c, s), p in zip(jobs, paths, strict=True)], 0.0, dpi, workers, progress,
                transparent=False)
    images = []
    for p in paths:
        with Image.open(p) as im:
            images.append(im.convert("RGB"))
        p.unlink()
    tmp.rmdir()
    return images


def _png(image, dpi: int) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi))
    return buf.getvalue()


def export_tts(deck: Deck, cards: tuple[Card, ...], folder: Path, *, dpi: int = 150,
               workers: int = 1, progress: Callable[[int], None] | None = None) -> dict:
    """Write sheet-N.png, back.png and <game>.tts.json into folder; returns a summary."""
    from PIL import Image

    faces = distinct(deck, cards)
    backs = distinct(deck, cards, "back") if deck.has_backs else []
    chunks = [faces[i:i + PER_SHEET] for i in range(0, len(faces), PER_SHEET)]
    dpi = _fit_dpi(deck, dpi, *grid(len(chunks[0])))
    back_card = backs[0].card if backs else None
    jobs = [(f.card, "front") for f in faces] + ([(back_card, "back")] if back_card else [])
    images = _images(deck, jobs, dpi, workers, progress, folder)
    w, h = images[0].size
    back_image = images[-1] if back_card else Image.new("RGB", (w, h), "#404040")
    write_atomic(folder / "back.png", _png(back_image, dpi))
    custom, contained, deck_ids, sheets = {}, [], [], []
    for key, chunk in enumerate(chunks, 1):
        cols, rows = grid(len(chunk))
        sheet = Image.new("RGB", (cols * w, rows * h), "white")
        for i, face in enumerate(chunk):
            sheet.paste(images[faces.index(face)], ((i % cols) * w, (i // cols) * h))
        sheet.paste(back_image, ((cols - 1) * w, (rows - 1) * h))  # the hidden-card cell
        name = f"sheet-{key}.png"
        write_atomic(folder / name, _png(sheet, dpi))
        sheets.append(name)
        entry = {"FaceURL": (folder / name).absolute().as_uri(),
                 "BackURL": (folder / "back.png").absolute().as_uri(),
                 "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                 "UniqueBack": False, "Type": 0}
        custom[str(key)] = entry
        for i, face in enumerate(chunk):
            card_id = key * 100 + i
            for _ in range(face.copies):
                deck_ids.append(card_id)
                contained.append(_card(card_id, face.card.name, key, entry))
    doc = {"SaveName": deck.title, "ObjectStates": [_deck(deck, deck_ids, custom, contained)]}
    json_name = f"{output_stem(deck)}.tts.json"
    write_atomic(folder / json_name, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode())
    return {"json": json_name, "sheets": sheets, "back": "back.png", "cards": len(deck_ids),
            "faces": len(faces), "dpi": dpi, "card_px": [w, h]}


def _transform(y: float = 1.0) -> dict:
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _card(card_id: int, name: str, key: int, entry: dict) -> dict:
    return {"Name": "Card", "Transform": _transform(), "Nickname": name, "Description": "",
            "CardID": card_id, "CustomDeck": {str(key): entry}}


def _deck(deck: Deck, deck_ids: list[int], custom: dict, contained: list[dict]) -> dict:
    if len(contained) == 1:  # TTS has no one-card deck: a lone card is its own object
        return contained[0] | {"Name": "CardCustom"}
    return {"Name": "DeckCustom", "Transform": _transform(), "Nickname": deck.title,
            "Description": deck.description, "DeckIDs": deck_ids, "CustomDeck": custom,
            "ContainedObjects": contained}
