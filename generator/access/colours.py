"""Colour pairs that become too alike under protanopia, deuteranopia or tritanopia.

The colours that tell cards apart are those an element takes from a card's own field (a fill
or frame keyed by suit or type: `fill = "{suit}"`). Each distinct colour is simulated for a
full (dichromat) deficiency with daltonlens, each by the model made for it (vision.py), and
two values whose simulated colours differ by less than THRESHOLD in CIEDE2000 are named, with
the cards that carry them and a suggestion.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.access.vision import DEFICIENCIES, simulate
from pnp_model.cardvalues import fill, resolve_color, visible
from pnp_model.colour import RGB, ciede2000
from pnp_model.components import Card, Deck

# CIEDE2000 below 10: a difference one notices on looking for it, not one a player reads at a
# glance across the table (2-10 is "perceptible at a glance" only side by side).
THRESHOLD = 10.0
SHOWN = 4  # symbols named per colour in a finding (a deck of 57 shares 10 colours)
KEYS = ("fill", "color", "stroke")
CONDITIONS = ("when", "unless")  # choose whether an element is drawn; they draw nothing


@dataclass(frozen=True)
class Keyed:
    """One value of a keying field and the colour it gives: ('suit', 'hearts', rgb, cards)."""

    template: str
    value: str
    rgb: RGB
    cards: tuple[int, ...]
    side: str = "face"
    symbols: tuple[str, ...] = ()  # a symbol deck's colour: the symbols drawn in it


@dataclass(frozen=True)
class Finding:
    deficiency: str
    a: Keyed
    b: Keyed
    difference: float

    def __str__(self) -> str:
        def side(k: Keyed) -> str:
            ids = ", ".join(f"#{i}" for i in k.cards[:3]) + (" ..." if len(k.cards) > 3 else "")
            return f"{k.value!r} ({_hex(k.rgb)}, cards {ids})"

        if self.a.symbols:
            def drawn(k: Keyed) -> str:
                names = ", ".join(k.symbols[:SHOWN]) + (" ..." if len(k.symbols) > SHOWN else "")
                return f"{_hex(k.rgb)} ({names})"

            return (f"{self.deficiency}: symbols in {drawn(self.a)} and in {drawn(self.b)} look "
                    f"alike in colour (CIEDE2000 {_shown(self.difference)} < {THRESHOLD:g}, "
                    f"{self.a.template}): the colour no longer helps find the matching symbol; "
                    "give the symbols element `colors` that stay apart (e.g. Okabe-Ito), or "
                    "make one clearly lighter than the other")
        return (f"{self.deficiency}: {side(self.a)} and {side(self.b)} look alike "
                f"(CIEDE2000 {_shown(self.difference)} < {THRESHOLD:g}, {self.a.template}): give "
                "each its own symbol or shape too, or make one clearly lighter than the other")


def _shown(difference: float) -> str:
    """One decimal, or two where one would round up to the threshold ("10.0 < 10")."""
    return f"{difference:.1f}" if round(difference, 1) < THRESHOLD else f"{difference:.2f}"


def _hex(rgb: RGB) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


def keyed_colours(deck: Deck, cards: tuple[Card, ...]) -> list[list[Keyed]]:
    """For each element colour that comes from a card's field, its distinct colours."""
    from generator.render.cmyk import to_color

    groups = []
    for side, el in [("face", e) for e in deck.face] + [("back", e) for e in deck.back]:
        for key in KEYS:
            template = el.get(key)
            if not isinstance(template, str) or "{" not in template or _also_drawn(el, template):
                continue
            seen: dict[str, tuple[RGB, list[int]]] = {}
            for card in cards:
                value = fill(template, card)
                if not value or not visible(el, card):
                    continue
                literal = resolve_color(value, deck.colors, el.where)
                if literal == "none":
                    continue
                colour = to_color(literal)
                rgb = tuple(colour.rgb()) if hasattr(colour, "rgb") else (0.0, 0.0, 0.0)
                seen.setdefault(value, (rgb, []))[1].append(card.id)
            keyed = [Keyed(f"{side} {el.kind} {key} = {template!r}", v, rgb, tuple(ids), side)
                     for v, (rgb, ids) in seen.items()]
            if len({k.rgb for k in keyed}) > 1 and keyed not in groups:
                groups.append(keyed)
    return groups


def symbol_colours(deck: Deck, cards: tuple[Card, ...]) -> list[list[Keyed]]:
    """A symbol deck's palette: for each symbols element whose icons or words take a colour
    per symbol (not the user's own art, which keeps its own), each colour with the symbols and
    cards drawn in it. In a game of spotting the shared symbol, colour is the first cue a
    player searches by, so two colours a deficiency merges cost that player speed."""
    from generator.render.cmyk import to_color
    from generator.render.symbols import symbol_colours as drawn_in

    spec = deck.source.get("symbols", "icons")
    if isinstance(spec, str) and spec.startswith("folder:"):
        return []
    groups = []
    for side, el in [("face", e) for e in deck.face] + [("back", e) for e in deck.back]:
        if el.kind != "symbols":
            continue
        by_colour: dict[str, list[str]] = {}
        for name, colour in drawn_in(deck, el).items():
            by_colour.setdefault(colour, []).append(name)
        keyed = []
        for colour, names in by_colour.items():
            ids = tuple(c.id for c in cards if set(c.symbols) & set(names))
            if ids:
                rgb = tuple(to_color(colour).rgb())
                on = " on tinted discs" if el.get("badge", "none") == "tint" else ""
                keyed.append(Keyed(f"{side} symbols' colours{on}", colour, rgb, ids, side,
                                   tuple(names)))
        if len(keyed) > 1:
            groups.append(keyed)
    return groups


def _also_drawn(el, template: str) -> bool:
    """Whether the element also draws the field its colour is keyed by (a suit's own shape, a
    pip's number): then colour is not the only cue, and a look-alike pair costs nothing."""
    import re

    fields = set(re.findall(r"\{(\w+)\}", template))
    return any(isinstance(v, str) and fields & set(re.findall(r"\{(\w+)\}", v))
               for k, v in el.params.items() if k not in KEYS + CONDITIONS)


def _cues(deck: Deck, cards: tuple[Card, ...]) -> dict[str, list[dict[int, str]]]:
    """What else each card draws from its fields on each side (a shape's name, a text),
    element by element: card id -> the drawn value. A back's cue does not help read a face."""
    return {"face": _drawn(deck.face, cards), "back": _drawn(deck.back, cards)}


def _drawn(elements, cards: tuple[Card, ...]) -> list[dict[int, str]]:
    cues = []
    for el in elements:
        for key, template in el.params.items():
            if key in KEYS + CONDITIONS or not isinstance(template, str) or "{" not in template:
                continue
            cues.append({c.id: fill(template, c) for c in cards if visible(el, c)})
    return cues


def _told_apart(a: Keyed, b: Keyed, cues: list[dict[int, str]]) -> bool:
    """Whether something besides colour tells every card of `a` from every card of `b`: one
    drawn value shared by all of a's cards and another by all of b's (a shape per colour).
    Values that merely differ card by card (names) tell no class apart, and a class of one
    card cannot show which kind its value is."""
    if min(len(a.cards), len(b.cards)) < 2:
        return False
    for cue in cues:
        va, vb = {cue.get(i) for i in a.cards}, {cue.get(i) for i in b.cards}
        if len(va) == 1 and len(vb) == 1 and va != vb and None not in va | vb:
            return True
    return False


def check(deck: Deck, cards: tuple[Card, ...]) -> list[Finding]:
    """Pairs told apart by colour only in normal vision that a deficiency makes too alike; a
    pair several elements key alike is one finding with all their cards."""
    found: dict[tuple, Finding] = {}
    cues = _cues(deck, cards)
    for keyed in keyed_colours(deck, cards) + symbol_colours(deck, cards):
        for deficiency in DEFICIENCIES:
            seen = simulate([k.rgb for k in keyed], deficiency)
            for i, a in enumerate(keyed):
                for j in range(i + 1, len(keyed)):
                    b = keyed[j]
                    if ciede2000(a.rgb, b.rgb) < THRESHOLD or (
                            not a.symbols and _told_apart(a, b, cues[a.side])):
                        continue  # alike for everyone, or a shape tells them apart anyway
                    d = ciede2000(seen[i], seen[j])
                    if d < THRESHOLD:
                        key = (deficiency, bool(a.symbols),
                               *sorted([(a.value, a.rgb), (b.value, b.rgb)]))
                        old = found.get(key)
                        if old and old.a.value != a.value:
                            a, b = b, a
                        found[key] = Finding(deficiency, _merged(old and old.a, a),
                                             _merged(old and old.b, b), d)
    return list(found.values())


def _merged(old: Keyed | None, new: Keyed) -> Keyed:
    if old is None:
        return new
    return Keyed(old.template, old.value, old.rgb, tuple(sorted({*old.cards, *new.cards})),
                 old.side, tuple(dict.fromkeys(old.symbols + new.symbols)))
