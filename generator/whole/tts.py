"""A whole game for Tabletop Simulator: every component in one saved-object file.

Card decks are exported as `pnp export --format tts` exports a deck (generator/tts.py), each in
a folder of its own. The other components become TTS's own objects, each copy from the PNG of
its distinct face: a board a Custom_Board, tokens Custom_Token objects and tiles Custom_Tile
objects (round, hex or square as cut), the pieces of one component in a Bag. A Custom_Token
has one image (TTS shows it on both faces), so two-sided tokens are Custom_Tile objects, whose
ImageSecondaryURL is the bottom face. The JSON's ObjectStates hold one object per component,
set side by side: Objects → Saved Objects loads the whole game at once.

The names and fields are those of TTS's published save format: the Knowledge Base's "Save File
Format" (ObjectState, CustomImageState, CustomToken, CustomTile) and the API's "Custom Game
Objects" (object names, tile types 0 box, 1 hex, 2 circle, 3 rounded); docs/guides/
tabletop-simulator.md says which and tests/test_whole_tts.py checks the file against them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from generator.exports import distinct, render_pngs
from generator.naming import slug
from generator.tts import check_base_url, export_tts, fit_dpi, scale
from pnp_model.game import Component, Game
from pnp_shared.counts import plural
from pnp_shared.files import write_atomic

PIECES = ("board", "tokens", "tiles")  # TTS objects of their own; other kinds are card decks
TILE_TYPE = {"rect": 0, "hexagon": 1, "circle": 2}  # Custom_Tile's Box, Hex, Circle (Rounded: 3)
THICKNESS = 0.2
SPACING = 4.0  # table units between the components as they are laid out


def export_game_tts(game: Game, folder: Path, *, dpi: int = 150, base_url: str | None = None,
                    workers: int = 1, progress: Callable[[int], None] | None = None,
                    at: Path | None = None) -> dict:
    """Write each component's images into folder/<component>/ and <game>.tts.json into
    folder; returns a summary per component. `at`: the folder the files will be moved to
    (file:// URLs name it), when folder is where they are staged."""
    at = at or folder
    base = check_base_url(base_url) if base_url else None
    objects, summary = [], []
    x = 0.0
    for comp in game.components:
        sub = folder / comp.name
        url = f"{base}/{quote(comp.name)}" if base else None
        cards = comp.deck.select()
        if comp.kind in PIECES or not comp.deck.has_backs and comp.kind != "deck":
            used = fit_dpi(comp.deck, dpi)  # a board at 300 dpi was 5906 px wide
            obj, what = _pieces(comp, cards, sub, used,
                                url or (at / comp.name).resolve().as_uri(), workers, progress)
        else:
            data = export_tts(comp.deck, cards, sub, dpi=dpi, base_url=url, workers=workers,
                              progress=progress, at=at / comp.name)
            own = sub / data["json"]
            obj = json.loads(own.read_text())["ObjectStates"][0]
            own.unlink()  # the game's one file holds it
            what = f"{plural(data['cards'], 'card')} on {plural(len(data['sheets']), 'sheet')}"
            used = data["dpi"]
        obj["Transform"]["posX"] = x
        x += SPACING + obj["Transform"]["scaleX"] * 2
        objects.append(obj)
        summary.append({"component": comp.name, "kind": comp.kind, "object": obj["Name"],
                        "folder": comp.name, "contents": what, "dpi": used})
    name = f"{slug(game.name, 'game')}.tts.json"
    doc = {"SaveName": game.title, "ObjectStates": objects}
    write_atomic(folder / name, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode())
    return {"json": name, "components": summary,
            "base_url": base or at.resolve().as_uri()}


def _pieces(comp: Component, cards, folder: Path, dpi: int, base: str, workers: int,
            progress) -> tuple[dict, str]:
    """A board, or a Bag of tokens or tiles: one object per copy, each face's PNG once."""
    deck = comp.deck
    faces = distinct(deck, cards)
    names = [f"{n:03d}-{slug(f.card.name)}.png" for n, f in enumerate(faces, 1)]
    folder.mkdir(parents=True, exist_ok=True)
    render_pngs(deck, [(f.card, "front", folder / name) for f, name in zip(faces, names,
                                                                           strict=True)],
                0.0, dpi, workers, progress, transparent=deck.shape != "rect")
    image = {cid: f"{base}/{quote(name)}" for f, name in zip(faces, names, strict=True)
             for cid in f.ids}
    bottom = _backs(comp, cards, folder, dpi, base, workers, progress) \
        if deck.has_backs and comp.kind != "board" else {}
    sx, sz = scale(deck)
    transform = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
                 "rotZ": 0.0, "scaleX": sx, "scaleY": 1.0, "scaleZ": sz}
    if comp.kind == "board":
        card = cards[0]
        return ({"Name": "Custom_Board", "Transform": transform, "Nickname": comp.title,
                 "Description": deck.description,
                 "CustomImage": {"ImageURL": image[card.id], "ImageSecondaryURL": "",
                                 "ImageScalar": 1.0, "WidthScale": 0.0}},
                f"a board from {names[0]}")
    pieces = [_piece(comp, card.name, image[card.id], bottom.get(card.id, ""), transform)
              for card in cards]
    return ({"Name": "Bag", "Transform": dict(transform, scaleX=1.0, scaleZ=1.0),
             "Nickname": comp.title, "Description": deck.description,
             "ContainedObjects": pieces},
            f"{len(pieces)} {comp.kind} from {len(names)} image(s)")


def _backs(comp: Component, cards, folder: Path, dpi: int, base: str, workers: int,
           progress) -> dict[int, str]:
    """Each distinct back's PNG, once: card id -> its URL."""
    deck = comp.deck
    backs = distinct(deck, cards, "back")
    names = [f"{n:03d}-back.png" if len(backs) > 1 else "back.png"
             for n, _ in enumerate(backs, 1)]
    render_pngs(deck, [(b.card, "back", folder / name) for b, name in zip(backs, names,
                                                                          strict=True)],
                0.0, dpi, workers, progress, transparent=deck.shape != "rect")
    return {cid: f"{base}/{quote(name)}" for b, name in zip(backs, names, strict=True)
            for cid in b.ids}


def _piece(comp: Component, name: str, url: str, bottom: str, transform: dict) -> dict:
    deck = comp.deck
    custom = {"ImageURL": url, "ImageSecondaryURL": bottom, "ImageScalar": 1.0,
              "WidthScale": 0.0}
    if comp.kind == "tokens" and not bottom:  # TTS cuts a token to its image's opaque pixels
        custom["CustomToken"] = {"Thickness": THICKNESS, "MergeDistancePixels": 15.0,
                                 "StandUp": False, "Stackable": True}
        kind = "Custom_Token"
    else:  # a tile, or a two-sided token: a tile has a bottom image, a token none
        rounded = deck.shape == "rect" and deck.corner_radius > 0
        custom["CustomTile"] = {"Type": 3 if rounded else TILE_TYPE.get(deck.shape, 0),
                                "Thickness": THICKNESS, "Stackable": True, "Stretch": True}
        kind = "Custom_Tile"
    return {"Name": kind, "Transform": dict(transform), "Nickname": name, "Description": "",
            "CustomImage": custom}
