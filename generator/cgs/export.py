"""A game as a Card Game Simulator custom-game folder, per CGS's published specification
(github.com/finol-digital/FinolDigital.Cgs.Json: schema/cgs.json, schema/AllCards.json and the
README's folder structure):

    <game name>/cgs.json          name, cardSize (inches), file types, backs, boards, decks
    <game name>/AllCards.json     [{"id", "name", "set", "backs"}], one entry a distinct card
    <game name>/CardBack.png      the default back
    <game name>/backs/<id>.png    each component's backs (cardBackFaceImageUrls)
    <game name>/sets/<set>/<id>.png   each card's face; a component is a set
    <game name>/decks/<name>.txt  each component as a deck: "<qty> [<id>] <name> (<set>)"
    <game name>/boards/<id>.png   a board component

CGS plays cards at one size (cardSize: the first deck's); a deck of another size is shown at
that size, and the export says so. Tokens and tiles are not cards: they are left out, with a
note (the Tabletop Simulator export has them). Identical cards are one entry, the deck file
counts the copies. With a base URL the file also says where each image is hosted, so CGS can
download the game from it (autoUpdateUrl: the hosted cgs.json).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from generator.exports import distinct, render_pngs
from pnp_model.game import Component, Game
from pnp_model.units import INCH
from pnp_shared.files import write_atomic

NOT_CARDS = ("tokens", "tiles")
UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]')  # not in a folder name on any of CGS's platforms


def export_cgs(game: Game, folder: Path, *, dpi: int = 300, base_url: str | None = None,
               workers: int = 1, progress: Callable[[int], None] | None = None) -> dict:
    """Write the game's CGS folder inside `folder`; returns a summary."""
    from generator.tts import check_base_url

    base = check_base_url(base_url) if base_url else None
    name = UNSAFE.sub("", game.title).strip(" .") or "game"
    root = folder / name
    decks = [c for c in game.components if c.kind not in NOT_CARDS + ("board",)]
    boards = [c for c in game.components if c.kind == "board"]
    left_out = [c.name for c in game.components if c.kind in NOT_CARDS]
    cards, backs, deck_files, notes = [], [], [], []
    size = decks[0].deck if decks else None
    for comp in decks:
        entries, comp_backs = _deck(comp, root, dpi, workers, progress)
        cards += entries
        backs += comp_backs
        deck_files.append(_deck_file(comp, entries, root))
        d = comp.deck
        if size and (abs(d.width - size.width) > 0.5 or abs(d.height - size.height) > 0.5):
            notes.append(f"{comp.name}: its {_mm(d)} cards show at the game's one card size, "
                         f"{_mm(size)} (CGS has one card size)")
    board_ids = [_board(c, root, dpi, workers, progress) for c in boards]
    if left_out:
        notes.append(f"{', '.join(left_out)}: tokens and tiles are not cards in CGS and are "
                     "left out (pnp export --format tts has them)")
    if backs:  # the default back: the first deck's
        write_atomic(root / "CardBack.png", (root / "backs" / f"{backs[0]}.png").read_bytes())
    spec = _spec(game.title, size, cards, backs, deck_files, boards, board_ids, base)
    write_atomic(root / "AllCards.json", _json([{k: v for k, v in c.items() if k != "copies"}
                                                for c in cards]))
    write_atomic(root / "cgs.json", _json(spec))
    return {"folder": str(root), "cards": len(cards), "sets": [c.name for c in decks],
            "decks": deck_files, "boards": board_ids, "notes": notes}


def _deck(comp: Component, root: Path, dpi: int, workers: int, progress):
    """The component's distinct (face, back) cards as AllCards entries, their images written."""
    deck = comp.deck
    chosen = deck.select()
    faces = distinct(deck, chosen)
    backs = distinct(deck, chosen, "back") if deck.has_backs else []
    face_of = {cid: i for i, f in enumerate(faces) for cid in f.ids}
    back_of = {cid: i for i, b in enumerate(backs) for cid in b.ids}
    cells: dict[tuple, list] = {}
    for card in chosen:
        cells.setdefault((face_of[card.id], back_of.get(card.id)), []).append(card)
    back_ids = [f"{comp.name}" if len(backs) == 1 else f"{comp.name}-{n}"
                for n, _ in enumerate(backs, 1)]
    entries, jobs = [], []
    for (f, b), group in cells.items():
        first = group[0]
        cid = f"{comp.name}-{first.id}"
        entry = {"id": cid, "name": first.name, "set": comp.name, "copies": len(group)}
        if b is not None:
            entry["backs"] = [back_ids[b]]
        entries.append(entry)
        jobs.append((faces[f].card, "front", root / "sets" / comp.name / f"{cid}.png"))
    jobs += [(b.card, "back", root / "backs" / f"{bid}.png") for b, bid in zip(backs, back_ids,
                                                                             strict=True)]
    for _, _, path in jobs:
        path.parent.mkdir(parents=True, exist_ok=True)
    render_pngs(deck, jobs, 0.0, dpi, workers, progress)
    return entries, back_ids


def _deck_file(comp: Component, entries: list[dict], root: Path) -> str:
    """decks/<title>.txt in CGS's txt deck format, one line a distinct card with its copies."""
    name = UNSAFE.sub("", comp.title).strip(" .") or comp.name
    lines = [f"{e['copies']} [{e['id']}] {e['name']} ({e['set']})" for e in entries]
    write_atomic(root / "decks" / f"{name}.txt", ("\n".join(lines) + "\n").encode())
    return name


def _board(comp: Component, root: Path, dpi: int, workers: int, progress) -> str:
    deck = comp.deck
    path = root / "boards" / f"{comp.name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    render_pngs(deck, [(deck.cards[0], "front", path)], 0.0, dpi, workers, progress)
    return comp.name


def _spec(title, size, cards, backs, deck_files, boards, board_ids, base) -> dict:
    spec: dict = {"name": title, "autoUpdate": -1 if base is None else 30,
                  "cardImageFileType": "png", "cardBackImageFileType": "png",
                  "cardNameIsUnique": False, "deckFileType": "txt", "deckFileTxtId": "id"}
    if size is not None:
        spec["cardSize"] = {"x": round(size.width / INCH, 4), "y": round(size.height / INCH, 4)}
    if cards:
        spec["setCodeDefault"] = cards[0]["set"]
    if backs:
        spec["cardBackFaceImageUrls"] = [{"id": b, **_url(base, f"backs/{b}.png")}
                                         for b in backs]
    if boards:
        spec["gameBoardImageFileType"] = "png"
        spec["gameBoardUrls"] = [{"id": b, **_url(base, f"boards/{b}.png")} for b in board_ids]
        if cards:  # the boards come onto the table with the first deck
            spec["gameBoardCards"] = [{"card": cards[0]["id"], "boards": [
                {"id": b, "size": _inches(c.deck), "offsetMin": {
                    "x": round(-c.deck.width / INCH / 2, 4),
                    "y": round(-c.deck.height / INCH / 2, 4)}}
                for b, c in zip(board_ids, boards, strict=True)]}]
    if base is not None:
        spec |= {"autoUpdateUrl": f"{base}/cgs.json", "allCardsUrl": f"{base}/AllCards.json",
                 "cardImageUrl": f"{base}/sets/{{cardSet}}/{{cardId}}.{{cardImageFileType}}",
                 "cardBackImageUrl": f"{base}/CardBack.png" if backs else None,
                 "deckUrls": [{"name": d, "url": f"{base}/decks/{quote(d)}.txt"}
                              for d in deck_files]}
        if spec["cardBackImageUrl"] is None:
            del spec["cardBackImageUrl"]
    return spec


def _url(base: str | None, path: str) -> dict:
    return {"url": f"{base}/{quote(path)}"} if base else {}


def _inches(deck) -> dict:
    return {"x": round(deck.width / INCH, 4), "y": round(deck.height / INCH, 4)}


def _mm(deck) -> str:
    return f"{deck.width / INCH * 25.4:.4g}x{deck.height / INCH * 25.4:.4g} mm"


def _json(data) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
