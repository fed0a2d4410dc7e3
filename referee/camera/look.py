"""`referee look`'s work: the photo -> the markers of the game's range -> the game's reading.

The marker geometry (where on the card, how large, the first id of the game's range) is read
from the game's definition, the data `pnp build --markers` printed from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.engine import RefereeError


def geometry(template: str, where: str = "--game") -> tuple[dict[str, float], int, int]:
    """(the card box and its marker element in points, first id, number of cards) of a bundled
    template or a definition folder."""
    from pnp_model.definition import load
    from pnp_model.errors import PnpError

    try:
        deck = load(template)
    except PnpError as e:
        raise RefereeError(e.what, e.where or where) from None
    el = next((e for e in deck.face if e.kind == "marker"), None)
    if el is None:
        raise RefereeError(f"{deck.name} prints no markers (its game.toml has no marker "
                           "element), so a photo of it cannot be read", "--game")
    g = {"w": deck.width, "h": deck.height, "x": el.get("x"), "y": el.get("y"),
         "size": el.get("size")}
    back = next((e for e in deck.back if e.kind == "marker" and e.get("shared") is not None),
                None)
    if back is not None:  # one id on every back: a face-down card is seen, never named
        g["back"] = {"x": back.get("x"), "y": back.get("y"), "size": back.get("size"),
                     "id": int(back.get("shared"))}
    return g, int(el.get("first", 0)), max(c.id for c in deck.cards) + 1


def look(game: Any, photo: Path, deck: str | None = None) -> tuple[dict[str, Any], Any]:
    """(what the photo shows as --json prints it, the photo in grey)."""
    from referee.camera import detect

    image = detect.load(photo)
    return read(game, image, str(photo), deck)[0], image


def read(game: Any, image: Any, name: str, deck: str | None = None
         ) -> tuple[dict[str, Any], dict[int, Any]]:
    """(What a decoded photo (grey or colour) shows, as --json prints it; the game's own
    reading, card id -> place, for its photo_move); `name` says which photo."""
    from referee.camera import detect

    g, first, count = geometry(deck, "--deck") if deck else geometry(game.name)
    if deck and first != (own := geometry(game.name)[1]):
        # else another game's cards are read as this game's, the very thing the ranges prevent
        raise RefereeError(f"{deck} prints markers from id {first}, not {game.name}'s from "
                           f"{own}: the definition of another game?", "--deck")
    back = g.get("back", {}).get("id")
    found = detect.markers(image, {*range(first, first + count), back} - {None})
    seen = [{"id": None, "back": True, "corners": m["corners"]} if m["id"] == back else
            {"id": m["id"] - first, "corners": m["corners"]} for m in found]
    result = game.photo(seen, g)
    if result is None:
        raise RefereeError(f"{game.name} is not read from photos yet", "--game")
    corners = {s["id"]: s["corners"] for s in seen}
    cards = []
    for cid, (cell, reading) in sorted(result["cells"].items()):
        outline = result["outline"](cell)
        cards.append({"id": cid, "corners": outline, "marker": corners[cid],
                      "center": _mean(outline),
                      "position": result["line"](cell, reading)})
    for cell, marker in result.get("face_down", {}).items():  # a back: no id to give
        outline = result["outline"](cell)
        cards.append({"id": None, "face_down": True, "corners": outline, "marker": marker,
                      "center": _mean(outline), "position": result["line"](cell, None)})
    not_seen = [{"id": cid, "why": why, "corners": corners.get(cid, []),
                 "center": _mean(corners.get(cid))} for cid, why in sorted(result["not_seen"].items())]
    not_seen += [{"id": None, "face_down": True, "why": why, "corners": marker,
                  "center": _mean(marker)} for marker, why in result.get("backs_not_seen", [])]
    return ({"game": game.name, "photo": name, "size": [image.shape[1], image.shape[0]],
             "cards": cards, "not_seen": not_seen, "position": result["position"]},
            result["cells"])


def _mean(pts):
    if not pts:
        return None
    return [sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)]
