"""The legend of a symbol deck: cards listing every symbol with its name, for teaching.

Pure geometry, no drawing: which symbols go on which legend card, and where each symbol and
its caption sit inside the card's shape (circle, hexagon or rectangle), clear of the rim. Text
is measured through a function the caller gives (the renderer's font metrics), so this module
imports no reportlab. Captions are never below MIN_TEXT points and symbols never below
MIN_SYMBOL: when a deck's symbols do not fit one card at those sizes, they are shared out over
as many legend cards as needed.

Legend cards are added when a deck is printed (generator.build), never to the definition's
cards: `pnp verify`, the pair property and the referee see only the playing cards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pnp_model.components import Card, Element

MM = 72 / 25.4
MIN_TEXT = 6.0  # points: the smallest caption a player reads at arm's length
MAX_TEXT = 8.0
MIN_SYMBOL = 6 * MM  # a symbol smaller than this is hard to recognise (diameter of its circle)
RIM = 2 * MM  # nothing closer than this to the legend area's edge (cutting wobbles)
GAP = 0.35  # space between neighbours and between rows, in ems of the caption
LEADING = 1.15
MAX_CARDS = 12  # more legend cards than this is no longer a legend: the deck has too many symbols
SQRT3 = math.sqrt(3)

Measure = Callable[[str, float], float]  # text width in points at a font size


def display_name(symbol: str) -> str:
    """What the legend calls a symbol: an icon name or a file stem made readable
    ("red_fox" -> "Red fox", "hand-holding-heart" -> "Hand holding heart")."""
    text = " ".join(re.sub(r"[_\-]+", " ", symbol).split())
    return text[:1].upper() + text[1:] if text[:1].islower() else text or symbol


@dataclass(frozen=True)
class Area:
    """Where a legend card's entries may go, centred on (0, 0), y up, rim already taken off.

    kind: "circle" (radius r), "hexagon" (circumradius r; pointy-topped unless flat) or
    "rect" (half-width hw, half-height hh)."""

    kind: str
    r: float = 0.0
    flat: bool = False
    hw: float = 0.0
    hh: float = 0.0

    @classmethod
    def inside(cls, shape: str, w: float, h: float, rim: float = RIM) -> Area:
        """The card shape's largest area of its kind in a w x h box, moved in by rim."""
        if shape == "rect":
            return cls("rect", hw=w / 2 - rim, hh=h / 2 - rim)
        if shape == "hexagon":
            flat = w >= h  # as generator.render.symbols.region_for
            r = min(w / 2, h / SQRT3) if flat else min(h / 2, w / SQRT3)
            return cls("hexagon", r=r - rim * 2 / SQRT3, flat=flat)
        return cls("circle", r=min(w, h) / 2 - rim)

    @property
    def size(self) -> float:
        """The area's surface."""
        if self.kind == "rect":
            return 4 * self.hw * self.hh
        return math.pi * self.r**2 if self.kind == "circle" else 1.5 * SQRT3 * self.r**2

    @property
    def top(self) -> float:
        if self.kind == "rect":
            return self.hh
        return self.r * SQRT3 / 2 if self.kind == "hexagon" and self.flat else self.r

    def half_width(self, y: float) -> float:
        """Half the area's width at height y (negative outside)."""
        y = abs(y)
        if y > self.top + 1e-9:
            return -1.0
        if self.kind == "rect":
            return self.hw
        if self.kind == "circle":
            return math.sqrt(max(self.r * self.r - y * y, 0.0))
        if self.flat:
            return self.r - y / SQRT3
        return self.r * SQRT3 / 2 if y <= self.r / 2 else (self.r - y) * SQRT3

    def band(self, y1: float, y2: float) -> float:
        """Half the width all of the band between heights y1 and y2 has (the area is convex
        and symmetric, so its narrowest point is the band's edge farthest from the centre)."""
        if y1 * y2 < 0:
            return min(self.half_width(y1), self.half_width(y2))
        return self.half_width(max(abs(y1), abs(y2)))


@dataclass(frozen=True)
class Entry:
    """One symbol on a legend card: its centre's place (area coordinates), the symbol's size
    (diameter of the circle it is drawn in) and the caption's lines under it."""

    symbol: str
    x: float
    y: float  # centre of the symbol
    size: float
    lines: tuple[str, ...]  # empty for a word symbol, which names itself
    width: float  # the entry's box width (symbol or caption, whichever is wider)


@dataclass(frozen=True)
class Sheet:
    """One legend card's content: a title and its entries, all sizes in points."""

    title: str
    title_y: float  # baseline of the title
    title_size: float
    text_size: float
    gap: float  # between a symbol and its caption
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class LegendCard(Card):
    """A legend card: printed after the playing cards with their back, never one of them."""

    legend: Sheet | None = None
    face: tuple[Element, ...] = field(default=())


def _caption(name: str, size: float, symbol: float, measure: Measure) -> tuple[str, ...]:
    """The name in one line, or two when one would be much wider than the symbol."""
    if measure(name, size) <= 1.6 * symbol or " " not in name:
        return (name,)
    words = name.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return min(splits, key=lambda pair: max(measure(pair[0], size), measure(pair[1], size)))


def text_size_for(symbol: float) -> float:
    """Captions grow with the symbols, between MIN_TEXT and MAX_TEXT points."""
    return min(MAX_TEXT, max(MIN_TEXT, symbol * 0.28))


def lay_out(symbols: list[tuple[str, str, bool]], area: Area, symbol: float, title: str,
            measure: Measure, title_measure: Measure, balanced: bool = False) -> Sheet | None:
    """Entries in centred rows inside the area at this symbol size, or None if they do not
    all fit. symbols: (symbol, display name, is a word) in reading order.

    Rows flow down from a top line, each as full as its band of the area allows and only as
    tall as its captions need; of the top lines that fit everything, the one centring the
    block vertically wins (a circle's or hexagon's rows narrow away from the middle).
    balanced: as many rows, but no fuller than needed, so the last row is not left with one
    entry (for the final layout; the size search only asks whether everything fits)."""
    text = text_size_for(symbol)
    gap = GAP * text + 0.08 * symbol
    items = []
    for sym, name, is_word in symbols:
        lines = () if is_word else _caption(name, text, symbol, measure)
        wide = max([symbol] + [measure(line, text) for line in lines])
        if is_word:
            wide = max(wide, measure(name, word_size(symbol)))
        items.append((sym, lines, wide))
    title_size = max(text, min(MAX_TEXT + 1, text + 1))
    title_h = title_size * 1.4 + gap if title else 0.0
    title_w = title_measure(title, title_size) if title else 0.0
    best = _centred(items, area, symbol, gap, text, title_h, title_w, len(items))
    if best is None:
        return None
    if balanced:
        count = len(best[1])
        for cap in range(-(-len(items) // count), max(len(r[1]) for r in best[1])):
            even = _centred(items, area, symbol, gap, text, title_h, title_w, cap)
            if even is not None and len(even[1]) <= count:
                best = even
                break
    top, rows = best
    entries = []
    for y_row, row, used, half, _ in rows:
        # spread the row over its width, with at most twice the gap between entries
        extra = min((2 * half - used) / (len(row) + 1), 2 * gap)
        x = -(used + extra * (len(row) - 1)) / 2
        for sym, lines, wide in row:
            entries.append(Entry(sym, x + wide / 2, y_row - symbol / 2, symbol, lines, wide))
            x += wide + gap + extra
    return Sheet(title, top - title_size * 1.05, title_size, text, gap, tuple(entries))


def _centred(items: list, area: Area, symbol: float, gap: float, text: float, title_h: float,
             title_w: float, cap: int):
    """(top line, rows) of the flow that fits everything with the block most nearly centred
    vertically, at most cap entries a row; None when no top line fits everything."""
    best = None
    steps = 40
    for k in range(steps + 1):
        top = area.top * (1 - k / steps)
        if title_w and title_w > 2 * area.band(top, top - title_h):
            continue
        rows = _flow(items, area, top - title_h, symbol, gap, text, cap)
        if rows is None:
            if best is not None:
                break  # from here down the block runs off the bottom
            continue
        off = abs(top + rows[-1][0] - rows[-1][4])
        if best is not None and off > best[0] + 1e-9:
            break  # past the centred place: lower tops only get further off
        if best is None or off < best[0] - 1e-9:
            best = (off, top, rows)
    return None if best is None else best[1:]


def _flow(items: list, area: Area, y: float, symbol: float, gap: float, text: float, cap: int):
    """Rows (top, entries, width used, half width, height) from y down, at most cap entries
    each, or None if an entry is left over or a row cannot take its first entry."""
    def height(lines: int) -> float:
        return symbol + (gap + lines * text * LEADING if lines else 0)

    rows, i = [], 0
    while i < len(items):
        lines, used = len(items[i][1]), items[i][2]
        if used > 2 * area.band(y, y - height(lines)):
            return None
        end = i + 1
        while end < len(items) and end - i < cap:
            more, wider = max(lines, len(items[end][1])), used + gap + items[end][2]
            if wider > 2 * area.band(y, y - height(more)):
                break
            lines, used, end = more, wider, end + 1
        h = height(lines)
        rows.append((y, items[i:end], used, area.band(y, y - h), h))
        i = end
        y -= h + 0.6 * gap
    return rows


def word_size(symbol: float) -> float:
    """A word symbol's own size on the legend: as a caption, a little larger."""
    return max(MIN_TEXT, min(symbol * 0.4, 12.0))


def best_sheet(symbols: list[tuple[str, str, bool]], area: Area, title: str, measure: Measure,
               title_measure: Measure, largest: float) -> Sheet | None:
    """The sheet with the largest symbols that fit (MIN_SYMBOL at least), or None."""
    if lay_out(symbols, area, MIN_SYMBOL, title, measure, title_measure) is None:
        return None
    # each entry takes at least its symbol's square: no larger symbol can fit
    lo, hi = MIN_SYMBOL, max(min(largest, math.sqrt(area.size / max(len(symbols), 1))), MIN_SYMBOL)
    if lay_out(symbols, area, hi, title, measure, title_measure) is not None:
        lo = hi
    for _ in range(10):  # to a twentieth of a millimetre or so
        mid = (lo + hi) / 2
        if lay_out(symbols, area, mid, title, measure, title_measure) is not None:
            lo = mid
        else:
            hi = mid
    return lay_out(symbols, area, lo, title, measure, title_measure, balanced=True)


def plan_legend(symbols: list[tuple[str, str, bool]], area: Area, measure: Measure,
                title_measure: Measure) -> list[Sheet] | None:
    """The fewest legend cards holding every symbol legibly; all cards at one symbol size
    (the smallest of their best), so the legend reads as one. None when even MAX_CARDS
    cards cannot hold them."""
    ordered = sorted(symbols, key=lambda s: (s[1].casefold(), s[0]))
    largest = area.top  # a symbol as wide as the area is half tall (or less: see below)
    for count in range(1, MAX_CARDS + 1):
        groups = _share(ordered, count)
        titles = ["Symbols"] if count == 1 else [f"Symbols {i}/{count}" for i in range(1, count + 1)]
        sheets = []
        for g, t in zip(groups, titles, strict=True):
            sheets.append(best_sheet(g, area, t, measure, title_measure, largest))
            if sheets[-1] is None:
                break
        if sheets[-1] is None:
            continue
        size = min(s.entries[0].size for s in sheets if s is not None and s.entries)
        same = [lay_out(g, area, size, t, measure, title_measure, balanced=True)
                for g, t in zip(groups, titles, strict=True)]
        return [a if a is not None else b for a, b in zip(same, sheets, strict=True)]
    return None


def _share(items: list, count: int) -> list[list]:
    """items in `count` consecutive groups whose sizes differ by one at most."""
    size, extra = divmod(len(items), count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return out
