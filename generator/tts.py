"""Tabletop Simulator decks: face sheets, backs, and a saved-object JSON.

TTS reads a custom deck from a grid image of at most 10×7 cards whose last cell is the image
shown for a hidden card; so a sheet holds up to 69 cards and larger decks take several sheets,
each its own entry of the deck's CustomDeck. A card is numbered CardID = sheet key × 100 + its
cell index (row-major from the top left). A cell is one distinct (face, back) pair: a deck
whose printed backs differ (the back's colour is game information) gets TTS's per-card backs,
`UniqueBack` with a back sheet laid out cell for cell like the face sheet; a deck with one back
gets back.png. Round and hex decks use TTS's own card shapes and their sheets are transparent
around each card; the scale follows the trim size, the same on both axes (TTS draws a card of
scale 1 a poker card's height tall, its width from the sheet cell's aspect). The JSON is one
DeckCustom object, as TTS saves it, with the URLs where the sheets will be found: `base_url` +
the file name for a table that other players join, else file:// URLs of this machine.
Import it through Objects → Saved Objects.
"""

from __future__ import annotations

import io
import json
import math
import posixpath
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from generator.exports import distinct
from generator.naming import output_stem
from generator.raster import pixels
from pnp_model.components import Card, Deck
from pnp_model.errors import PnpError
from pnp_model.units import CARD_SIZES_MM, MM
from pnp_shared.files import write_atomic

COLS, ROWS = 10, 7
PER_SHEET = COLS * ROWS - 1  # the last cell shows a hidden card
MAX_SHEET_PX = 4096  # wider or taller sheets load slowly or not at all in TTS
# TTS's card types (the CustomDeck "Type"); it has no triangle: a triangle is a square-cornered
# rectangle whose sheet is transparent around the triangle
RECTANGLE_ROUNDED, RECTANGLE, HEX, CIRCLE = 0, 1, 3, 4
POKER_W, POKER_H = (v * MM for v in CARD_SIZES_MM["poker"])  # a TTS card at scale 1
URL_SCHEMES = ("http", "https", "file")


def card_type(deck: Deck) -> int:
    """TTS's card shape for the deck's cut shape."""
    if deck.shape == "circle":
        return CIRCLE
    if deck.shape == "hexagon":
        return HEX
    return RECTANGLE_ROUNDED if deck.shape == "rect" and deck.corner_radius > 0 else RECTANGLE


def scale(deck: Deck) -> tuple[float, float]:
    """(scaleX, scaleZ) that make the card its trim size on the table, one scale on both axes:
    TTS already takes a rectangle's aspect from its cell of the sheet (a card of scale 1 is a
    poker card's height tall and that height × the cell's width/height wide), so a rectangle
    scales by its height against a poker card's; a round or hex card keeps its mesh's
    proportions and scales by its width."""
    s = deck.width / POKER_W if deck.shape in ("circle", "hexagon") else deck.height / POKER_H
    return round(s, 4), round(s, 4)


def check_base_url(base_url: str) -> str:
    """The base URL, its path percent-encoded (a space is not a URL character) and without a
    trailing slash; PnpError when it is not an http(s) or file URL of a folder."""
    parts = urlsplit(base_url.strip())
    if parts.scheme not in URL_SCHEMES or not (parts.netloc or parts.scheme == "file"):
        raise PnpError(f"{base_url!r} is not a URL: give where the sheets will be hosted, "
                       "e.g. https://example.com/mygame/", "--base-url")
    if parts.query or parts.fragment or base_url.rstrip().endswith(("?", "#")):
        # each file's name is added after the folder: after a query it names no file
        raise PnpError(f"{base_url!r} carries a query or a fragment (?... or #...): give the "
                       "folder's plain address, each file's name is added after it",
                       "--base-url")
    # normpath drops a trailing slash and resolves "..": the URL names the folder once
    path = posixpath.normpath(quote(parts.path, safe="/%~")) if parts.path.strip("/") else ""
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def grid(n: int) -> tuple[int, int]:
    """Columns and rows for n cells plus the hidden-card cell."""
    cols = min(COLS, n + 1)
    return cols, math.ceil((n + 1) / cols)


def fit_dpi(deck: Deck, dpi: int, cols: int = 1, rows: int = 1) -> int:
    """The dpi, lowered so the sheet (or one board or piece image, 1 × 1) stays within
    MAX_SHEET_PX on both sides."""
    while dpi > 30 and (pixels(deck.width, dpi) * cols > MAX_SHEET_PX
                        or pixels(deck.height, dpi) * rows > MAX_SHEET_PX):
        dpi -= 1
    return dpi


def _images(deck: Deck, jobs: list[tuple[Card, str]], dpi: int, workers: int,
            progress: Callable[[int], None] | None, folder: Path, clear: bool) -> list:
    """Render each (card, side) at dpi without bleed; returns PIL images in job order."""
    from PIL import Image

    from generator.exports import render_pngs

    tmp = folder / ".cards"
    paths = [tmp / f"{i:05d}.png" for i in range(len(jobs))]
    render_pngs(deck, [(c, s, p) for (c, s), p in zip(jobs, paths, strict=True)], 0.0, dpi, workers, progress,
                transparent=clear)
    images = []
    for p in paths:
        with Image.open(p) as im:
            images.append(im.convert("RGBA" if clear else "RGB"))
        p.unlink()
    tmp.rmdir()
    return images


def _png(image, dpi: int) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi))
    return buf.getvalue()


def _cells(deck: Deck, cards: tuple[Card, ...]) -> tuple[list, list, list]:
    """The distinct faces, the distinct backs, and the cells: one per distinct (face, back)
    pair in card order, as (face index, back index or None, the cards)."""
    faces = distinct(deck, cards)
    backs = distinct(deck, cards, "back") if deck.has_backs else []
    face_of = {cid: i for i, f in enumerate(faces) for cid in f.ids}
    back_of = {cid: i for i, b in enumerate(backs) for cid in b.ids}
    cells: dict[tuple[int, int | None], list[Card]] = {}
    for card in cards:
        cells.setdefault((face_of[card.id], back_of.get(card.id)), []).append(card)
    return faces, backs, [(f, b, group) for (f, b), group in cells.items()]


def export_tts(deck: Deck, cards: tuple[Card, ...], folder: Path, *, dpi: int = 150,
               base_url: str | None = None, workers: int = 1,
               progress: Callable[[int], None] | None = None, at: Path | None = None) -> dict:
    """Write sheet-N.png, the backs (back.png, or back-N.png sheets when the backs differ) and
    <game>.tts.json into folder; returns a summary. `at`: the folder the files will be moved
    to (file:// URLs name it), when folder is where they are staged."""
    from PIL import Image

    base = check_base_url(base_url) if base_url else (at or folder).resolve().as_uri()
    faces, backs, cells = _cells(deck, cards)
    unique_back = len(backs) > 1
    chunks = [cells[i:i + PER_SHEET] for i in range(0, len(cells), PER_SHEET)]
    dpi = fit_dpi(deck, dpi, *grid(len(chunks[0])))
    clear = deck.shape != "rect"
    jobs = [(f.card, "front") for f in faces] + [(b.card, "back") for b in backs]
    images = _images(deck, jobs, dpi, workers, progress, folder, clear)
    face_images, back_images = images[:len(faces)], images[len(faces):]
    w, h = face_images[0].size
    mode, paper = ("RGBA", (0, 0, 0, 0)) if clear else ("RGB", "white")
    hidden = back_images[0] if back_images else Image.new(mode, (w, h), "#404040")
    if not unique_back:
        write_atomic(folder / "back.png", _png(hidden, dpi))

    def url(name: str) -> str:
        return f"{base}/{quote(name)}"

    custom, contained, deck_ids, sheets, back_sheets = {}, [], [], [], []
    for key, chunk in enumerate(chunks, 1):
        cols, rows = grid(len(chunk))
        sheet = Image.new(mode, (cols * w, rows * h), paper)
        back_sheet = Image.new(mode, (cols * w, rows * h), paper) if unique_back else None
        for i, (f, b, _) in enumerate(chunk):
            at = ((i % cols) * w, (i // cols) * h)
            sheet.paste(face_images[f], at)
            if back_sheet is not None:
                back_sheet.paste(back_images[b], at)
        last = ((cols - 1) * w, (rows - 1) * h)  # the hidden-card cell
        sheet.paste(hidden, last)
        name = f"sheet-{key}.png"
        write_atomic(folder / name, _png(sheet, dpi))
        sheets.append(name)
        back_name = "back.png"
        if back_sheet is not None:
            back_sheet.paste(hidden, last)
            back_name = f"back-{key}.png"
            write_atomic(folder / back_name, _png(back_sheet, dpi))
            back_sheets.append(back_name)
        entry = {"FaceURL": url(name), "BackURL": url(back_name),
                 "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                 "UniqueBack": unique_back, "Type": card_type(deck)}
        custom[str(key)] = entry
        for i, (_, _, group) in enumerate(chunk):
            card_id = key * 100 + i
            for card in group:
                deck_ids.append(card_id)
                contained.append(_card(deck, card_id, card.name, key, entry))
    doc = {"SaveName": deck.title, "ObjectStates": [_deck(deck, deck_ids, custom, contained)]}
    json_name = f"{output_stem(deck)}.tts.json"
    write_atomic(folder / json_name, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode())
    return {"json": json_name, "sheets": sheets, "backs": back_sheets or ["back.png"],
            "unique_back": unique_back, "cards": len(deck_ids), "faces": len(faces),
            "cells": len(cells), "dpi": dpi, "card_px": [w, h], "type": card_type(deck),
            "base_url": base}


def _transform(deck: Deck, y: float = 1.0) -> dict:
    sx, sz = scale(deck)
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": sx, "scaleY": 1.0, "scaleZ": sz}


def _card(deck: Deck, card_id: int, name: str, key: int, entry: dict) -> dict:
    return {"Name": "Card", "Transform": _transform(deck), "Nickname": name, "Description": "",
            "CardID": card_id, "CustomDeck": {str(key): entry}}


def _deck(deck: Deck, deck_ids: list[int], custom: dict, contained: list[dict]) -> dict:
    if len(contained) == 1:  # TTS has no one-card deck: a lone card is its own object
        return contained[0] | {"Name": "CardCustom"}
    return {"Name": "DeckCustom", "Transform": _transform(deck), "Nickname": deck.title,
            "Description": deck.description, "DeckIDs": deck_ids, "CustomDeck": custom,
            "ContainedObjects": contained}
