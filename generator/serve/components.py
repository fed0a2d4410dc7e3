"""The live page of a game of several components: the one PDF `pnp build` writes, its pages
labelled with what they hold, and every component's pieces under one numbering.

Ids repeat across components (each deck counts from #1), and the page asks for a piece's
images by one id: a piece's id on the page is its own id plus the highest id of the components
before it, and the page shows it as "component #own id". Pieces nested on another component's
page (generator/whole/nesting.py) are found there. Each component has its own outlines for
the trim, bleed and safe-area overlays.
"""

from __future__ import annotations

import re
import threading

from generator.build import Options
from generator.layout.sheet import Page, Sheet
from generator.serve.geometry import CARD_REF, card_boxes, outlines
from pnp_model.errors import PnpError
from pnp_model.game import Game
from pnp_shared.counts import plural

NAMED = re.compile(r"^([^:]+): ")  # a whole game's warning starts with its component's name


def build_whole(game: Game, opts: Options, output, lock: threading.Lock) -> tuple[bytes, dict]:
    """Build the game as `pnp build` does (same file), and the page's manifest of it."""
    from generator.naming import output_path, output_stem
    from generator.whole.build import build_game
    from generator.whole.plan import plan_game

    if opts.pdfx:
        raise PnpError("the live page shows a whole game's one PDF; its PDF/X is a file per "
                       "component: pnp build GAME --single --pdfx", "--pdfx")
    out = output_path(output, output_stem(game), 1)
    parts = plan_game(game, opts)
    result = build_game(game, out, opts, parts=parts)
    pdf = out.read_bytes()  # the file as written: the page shows what prints
    with lock:  # pdfium is not thread-safe (generator/serve/live.py)
        sizes = _page_sizes(pdf)
    return pdf, game_manifest(game, parts, result, sizes)


def _page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_size() for i in range(len(doc))]
    finally:
        doc.close()


def game_manifest(game: Game, parts, result, sizes) -> dict:
    """The manifest generator/serve/live.py's page draws, for a game of components."""
    labels = ["rules"] * len(game.pages) + ["contents"] + [""] * (len(sizes) - len(game.pages) - 1)
    pages = [{"side": "front", "w": round(w, 2), "h": round(h, 2), "cards": [], "label": label}
             for (w, h), label in zip(sizes, labels, strict=True)]
    found: dict[str, dict[int, dict]] = {p.component.name: {} for p in parts}
    for part in parts:
        if part.blank_before:
            pages[part.first_page - 2]["label"] = "blank"
        _place(pages, found[part.component.name], part.component.name, part.component.deck,
               part.sheet, part.first_page - 1)
        for n, guests in part.guests.items():  # pieces of other components on this page
            for guest in parts:
                mine = tuple(pl for deck, pl in guests if deck is guest.component.deck)
                if mine:
                    sheet = Sheet(part.sheet.width, part.sheet.height, (Page("front", mine),), 1)
                    _place(pages, found[guest.component.name], guest.component.name,
                           guest.component.deck, sheet, part.first_page - 1 + n, host=False)
    cards, shapes, components, offsets, offset = [], {}, [], {}, 0
    for part in parts:
        name, deck = part.component.name, part.component.deck
        offsets[name] = offset
        for own in sorted(found[name]):
            cards.append({**found[name][own], "id": own + offset, "component": name,
                          "label": f"{name} #{own}"})
        for page in pages:
            for c in page["cards"]:
                if c["component"] == name:
                    c["id"] = c["own"] + offset
        shapes[name] = {"w": deck.width, "h": deck.height, "shape": deck.shape,
                        **outlines(deck, part.options.bleed)}
        components.append({"name": name, "kind": part.component.kind})
        offset += max((c.id for c in deck.cards), default=0)
    return {"title": game.title, "game": game.name, "path": str(result.path),
            "summary": f"{plural(result.cards, 'piece')} in {plural(len(parts), 'component')} "
                       f"on {plural(result.pages, 'page')} ({result.paper})",
            "pages": pages, "cards": cards, "warnings": _warnings(result.notes, offsets, cards),
            "card": shapes[parts[0].component.name], "shapes": shapes,
            "components": components}


def _place(pages: list[dict], found: dict[int, dict], component: str, deck, sheet: Sheet,
           first: int, host: bool = True) -> None:
    """One component's pieces on its pages (from PDF page index `first`); on a host's page
    (host False) its nested pieces only, the page keeping its host's label."""
    placed, cards = card_boxes(deck, sheet)
    for n, page in enumerate(placed):
        target = pages[first + n]
        if host:
            target["side"], target["label"] = page["side"], component
        target["cards"] += [{**c, "own": c["id"], "component": component}
                            for c in page["cards"]]
    for c in cards:
        for side in ("front", "back"):
            if c[side]:
                c[side] = {**c[side], "page": c[side]["page"] + first}
        have = found.setdefault(c["id"], {**c, "front": None, "back": None})
        for side in ("front", "back"):
            have[side] = have[side] or c[side]


def _warnings(notes, offsets: dict[str, int], cards: list[dict]) -> list[dict]:
    """Each warning with the page's ids of the pieces it names ("voyages: card #3 ...")."""
    known = {c["id"] for c in cards}
    out = []
    for text in notes:
        m = NAMED.match(text)
        offset = offsets.get(m.group(1)) if m else None
        named = [] if offset is None else [
            int(n) + offset for found in CARD_REF.findall(text)
            for n in re.findall(r"#(\d+)", found) if int(n) + offset in known]
        out.append({"text": text, "cards": list(dict.fromkeys(named))})
    return out
