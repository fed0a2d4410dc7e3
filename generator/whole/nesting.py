"""Small one-sided pieces (tokens, tiles) put in the empty room of other components' sheets.

A deck's last sheet is often part empty; tokens there cost no paper. A guest is nested only
when that leaves it fewer sheets of its own (all of them, or a shorter run); pieces that do not
fit are imposed on their own sheets as before. Guests go on front pages only, clear of the
host's cards, bleed and crop marks, so a double-sided host's backs stay exactly where they were
(the back behind a guest is blank: a one-sided piece). Nested pieces are cut along their
outlines (drawn as guides); they get no crop marks, which would cross the host's cards.
"""

from __future__ import annotations

from dataclasses import replace

from generator.build import plan
from generator.layout.grid import MARK_GAP, MARK_LENGTH
from generator.layout.sheet import Placement
from pnp_model.units import MM

NESTABLE = ("tokens", "tiles")
CLEAR = MARK_GAP + MARK_LENGTH  # room kept around a host's card: its crop marks live there
FOOTER = 11 * MM  # the page's footer line sits below this
SPACING = 2 * MM  # at least this between two nested pieces: room to cut each outline

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def nest(parts: list, opts) -> list:
    """The parts with nestable guests moved into their hosts' free room where that saves
    sheets; each host part gains `guests`, a guest part keeps only the pieces left over."""
    # not a fold sheet: a guest there would be folded and glued to what lies across the line
    hosts = [p for p in parts if not _guest(p) and "fold" not in p.sheet.info]
    out = {id(p): p for p in parts}
    taken: dict[int, dict[int, list[Box]]] = {id(h): {} for h in hosts}  # host -> page -> boxes
    for part in parts:
        if not _guest(part):
            continue
        cards = [pl.card for page in part.sheet.pages for pl in page.placements]
        slots = list(_slots(part, hosts, taken, len(cards)))
        rest = cards[len(slots):]
        rest_sheet = plan(replace(part.component.deck, cards=tuple(rest), default_parts=()),
                          replace(opts, parts=(), fold=False)) if rest else None  # one-sided
        left = sum(1 for p in rest_sheet.pages if p.side == "front") if rest_sheet else 0
        if left >= part.sheets:
            continue  # no sheet saved: keep it apart
        for (host, page, box, placement), card in zip(slots, cards, strict=False):
            taken[id(host)].setdefault(page, []).append(box)
            h = out[id(host)]
            guests = dict(h.guests)
            guests[page] = (*guests.get(page, ()), (part.component.deck, replace(placement,
                                                                                 card=card)))
            out[id(host)] = replace(h, guests=guests)
        out[id(part)] = replace(part, sheet=rest_sheet if rest_sheet else replace(
            part.sheet, pages=()), nested_on=tuple(sorted({h.component.name for h, *_ in
                                                           slots[:len(cards)]})))
    return [out[id(p)] for p in parts]


def _guest(part) -> bool:
    return part.component.kind in NESTABLE and not part.double_sided and \
        part.options.layout != "single"


def _slots(part, hosts, taken, wanted: int):
    """Free places for the guest's pieces, page by page of each host, from the top left."""
    deck, o = part.component.deck, part.options
    bleed = o.bleed
    w, h = deck.width + 2 * bleed, deck.height + 2 * bleed
    gap = max(o.gutter, SPACING)
    found = 0
    for host in hosts:
        sheet, margin = host.sheet, host.options.margin
        for n, page in enumerate(sheet.pages):
            if page.side != "front" or found >= wanted:
                continue
            walls = [_box(pl, host.component.deck, CLEAR) for pl in page.placements]
            walls += [(min(x1, x2) - MARK_GAP, min(y1, y2) - MARK_GAP, max(x1, x2) + MARK_GAP,
                       max(y1, y2) + MARK_GAP) for x1, y1, x2, y2 in page.marks]
            walls += [(x - CLEAR, y - CLEAR, x + w + CLEAR, y + h + CLEAR)  # a cutter's marks
                      for x, y, w, h in page.fills]
            walls += taken[id(host)].get(n, [])
            right = sheet.width - margin - MARK_GAP
            y = sheet.height - margin - MARK_GAP - h
            while y >= FOOTER and found < wanted:  # rows 1 mm apart, each scanned left to right
                x = margin + MARK_GAP
                while x + w <= right and found < wanted:
                    room = (x - gap / 2, y - gap / 2, x + w + gap / 2, y + h + gap / 2)
                    wall = next((b for b in walls if _overlap(room, b)), None)
                    if wall is not None:
                        x = max(x + 0.1 * MM, wall[2] + gap / 2)  # past what is in the way
                        continue
                    walls.append(room)
                    found += 1
                    yield host, n, room, Placement(None, x + bleed, y + bleed, 0, bleed)
                    x += w + gap
                y -= 1 * MM


def _box(pl: Placement, deck, clear: float) -> Box:
    if pl.clip:  # a board's window: all of it, and its marks around
        x, y, w, h = pl.clip
        return (x - clear, y - clear, x + w + clear, y + h + clear)
    b = pl.bleed + clear
    return (pl.x - b, pl.y - b, pl.x + deck.width + b, pl.y + deck.height + b)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
