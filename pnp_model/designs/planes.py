"""Projective planes of order q over GF(q): the mathematics of symbol decks
in which any two cards share exactly one symbol.

Points are symbols and lines are cards: q²+q+1 of each, q+1 symbols per card, every symbol on
q+1 cards, and any two cards share exactly one symbol. Points and lines are the normalised
triples (x, y, 1), (x, 1, 0), (1, 0, 0); a point lies on a line when their dot product is 0.
Point indices: (x, y, 1) → x*q + y, (x, 1, 0) → q² + x, (1, 0, 0) → q² + q. Lines are taken
in the same order. A deck deals the lines and the symbol names in a seeded order and takes the
first N cards (deterministic; any subset of lines keeps the one-shared-symbol property).

Registers the card source "plane" (see plane_rows) for definitions that say source = "plane".
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from pnp_model.art_folders import inside
from pnp_model.components import IMAGE_SUFFIXES
from pnp_model.designs import icons
from pnp_model.designs.fields import field, prime_power
from pnp_model.errors import PnpError, read_text
from pnp_model.sources import Row, check_options, register

MAX_ORDER = 127  # 16,257 cards; larger planes are possible but no printable deck needs them
PROVEN_IMPOSSIBLE = {6: "Tarry's 1901 proof, Bruck–Ryser theorem",
                     10: "Lam, Thiel and Swiercz's 1989 computer search"}


def plane(q: int) -> list[tuple[int, ...]]:
    """The q²+q+1 lines of the plane of order q, each a sorted tuple of q+1 point indices."""
    if prime_power(q) is None:
        raise ValueError(why_not(q))
    F = field(q)
    qq = q * q
    inf_point = qq + q
    lines: list[tuple[int, ...]] = []

    # Lines a·x + b·y + z = 0.
    for a in range(q):
        for b in range(q):
            pts: list[int] = []
            if b:
                # y = -(1 + a x) / b for each x
                for x in range(q):
                    y = F.div(F.neg[F.add(1, F.mul(a, x))], b)
                    pts.append(x * q + y)
            elif a:
                x = F.neg[F.inv[a]]  # x = -1/a, y free
                pts.extend(x * q + y for y in range(q))
            if a:
                pts.append(qq + F.neg[F.div(b, a)])  # (x, 1, 0) with a x + b = 0
            elif b:
                pts.append(inf_point)
            else:
                pts.extend(range(qq, qq + q + 1))  # the line at infinity z = 0
            lines.append(tuple(sorted(pts)))
    # Lines a·x + y = 0.
    for a in range(q):
        pts = [x * q + F.neg[F.mul(a, x)] for x in range(q)]
        pts.append(qq + F.neg[F.inv[a]] if a else inf_point)
        lines.append(tuple(sorted(pts)))
    # The line x = 0.
    lines.append(tuple(sorted([y for y in range(q)] + [qq])))
    return lines


def nearest_orders(q: int) -> tuple[int | None, int]:
    """The closest prime-power orders below and above q (None below 2)."""
    lo = next((n for n in range(q - 1, 1, -1) if prime_power(n)), None)
    hi = next(n for n in range(q + 1, 2 * q + 3) if prime_power(n))
    return lo, hi


def why_not(q: int) -> str:
    """Why there is no deck of order q, and which orders to use instead."""
    if q < 2:
        return f"order {q} is too small: a plane needs order 2 or more (7 cards of 3 symbols)"
    lo, hi = nearest_orders(q)
    near = " or ".join(
        f"{n} ({n * n + n + 1} cards of {n + 1} symbols)" for n in (lo, hi) if n is not None
    )
    if q in PROVEN_IMPOSSIBLE:
        reason = f"no projective plane of order {q} exists ({PROVEN_IMPOSSIBLE[q]})"
    elif _bruck_ryser(q):
        reason = f"no projective plane of order {q} exists (Bruck–Ryser theorem)"
    else:
        reason = (f"no projective plane of order {q} is known: planes are only known for prime "
                  f"powers, and whether one of order {q} exists is an open problem")
    return f"{reason}; nearest orders that work: {near}"


def _bruck_ryser(q: int) -> bool:
    """True when Bruck–Ryser rules the order out: q ≡ 1, 2 (mod 4) and not a sum of 2 squares."""
    if q % 4 not in (1, 2):
        return False
    return not any(int((q - a * a) ** 0.5) ** 2 == q - a * a for a in range(int(q**0.5) + 1))


# --- the card source -------------------------------------------------------------------------


def _int_option(options: dict[str, Any], key: str, where: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PnpError(f"{key} must be a whole number, not {value!r}", f"{where}.options.{key}")
    return value


def _order(options: dict[str, Any], where: str) -> int:
    q = _int_option(options, "order", where)
    per_card = _int_option(options, "per_card", where)
    if q is None and per_card is None:
        raise PnpError("a plane source needs order = Q (or per_card = Q+1)", f"{where}.options")
    if q is not None and per_card is not None and per_card != q + 1:
        raise PnpError(f"per_card = {per_card} does not match order = {q} (a plane of order "
                       f"{q} has {q + 1} symbols per card)", f"{where}.options.per_card")
    if q is None:
        assert per_card is not None
        q = per_card - 1
        if prime_power(q) is None:
            raise PnpError(f"{per_card} symbols per card would need a plane of order {q}: "
                           f"{why_not(q)}", f"{where}.options.per_card")
    return checked_order(q, f"{where}.options.order")


def checked_order(q: int, where: str) -> int:
    """q when it gives a plane this program builds; else why not and what to use instead."""
    if q > MAX_ORDER:
        raise PnpError(f"order {q} gives {q * q + q + 1} cards; the largest supported order "
                       f"is {MAX_ORDER}", where)
    if prime_power(q) is None:
        raise PnpError(why_not(q), where)
    return q


def symbol_names(spec: Any, count: int, root: Path, where: str) -> list[str]:
    """`count` distinct symbol names from a symbol source.

    "icons" (default): the built-in icon library; "folder:DIR": image file stems (PNG, JPG,
    SVG) sorted by name; "words:FILE": one word or phrase per line; a list: the names given.
    """
    spec = "icons" if spec is None else spec
    if isinstance(spec, list):
        names = [str(s).strip() for s in spec if str(s).strip()]
        origin = "the symbols list"
    elif not isinstance(spec, str):
        raise PnpError(f"symbols must be \"icons\", \"folder:DIR\", \"words:FILE\" or a list, "
                       f"not {spec!r}", where)
    elif spec == "icons":
        found = icons.names(count)
        if found is None:
            raise PnpError(f"the icon library has {len(icons.library())} icons but the deck "
                           f"needs {count}: use a smaller order or words/images", where)
        return found
    elif spec.startswith("folder:"):
        folder = inside(root, spec[len("folder:"):], where, "symbol folder")
        if not folder.is_dir():
            raise PnpError(f"symbol folder {spec[7:]!r} not found", where)
        names = sorted(inside(folder, p.name, where, "symbol").stem for p in folder.iterdir()
                       if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        origin = f"folder {spec[7:]!r} (PNG, JPG or SVG files)"
    elif spec.startswith("words:"):
        path = inside(root, spec[len("words:"):], where, "word list")
        if not path.is_file():
            raise PnpError(f"word list {spec[6:]!r} not found", where)
        text = read_text(path, spec[6:])
        names = [line.strip() for line in text.splitlines() if line.strip()]
        origin = f"word list {spec[6:]!r}"
    else:
        raise PnpError(f"unknown symbol source {spec!r} (use \"icons\", \"folder:DIR\" or "
                       f"\"words:FILE\")", where)
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise PnpError(f"{origin} repeats the symbol {dupes[0]!r}", where)
    if len(names) < count:
        raise PnpError(f"{origin} has {len(names)} symbols but the deck needs {count}", where)
    return names[:count]


def _colors(options: dict[str, Any], cards: int | None, where: str) -> list[str] | None:
    """Per-card colours from colors = [{color = "pink", count = 20}, ...], in card order."""
    spec = options.get("colors")
    if spec is None:
        return None
    w = f"{where}.options.colors"
    if not isinstance(spec, list) or not spec:
        raise PnpError("colors must be a list like [{color = \"pink\", count = 20}]", w)
    out: list[str] = []
    for i, item in enumerate(spec, 1):
        if not isinstance(item, dict) or set(item) - {"color", "count"} or "color" not in item:
            raise PnpError(f"entry {i} must be {{color = \"name\", count = N}}", w)
        n = item.get("count", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise PnpError(f"entry {i}: count must be a whole number ≥ 0, not {n!r}", w)
        out += [str(item["color"])] * n
    if cards is not None and len(out) != cards:
        raise PnpError(f"the colour counts add up to {len(out)} but the deck has {cards} cards", w)
    return out


def plane_rows(options: dict[str, Any], root: Path, where: str) -> list[Row]:
    """Cards of a plane: options order (or per_card), cards, symbols, colors, seed."""
    check_options(options, ("order", "per_card", "cards", "symbols", "colors", "seed"), "plane",
                  where)
    q = _order(options, where)
    total = q * q + q + 1
    cards = _int_option(options, "cards", where)
    colors = _colors(options, cards, where)
    if cards is None:
        cards = len(colors) if colors else total
    if not 1 <= cards <= total:
        raise PnpError(f"a plane of order {q} has {total} cards; cards = {cards} is out of "
                       f"range 1..{total}", f"{where}.options.cards")
    if colors is not None and len(colors) != cards:
        raise PnpError(f"the colour counts add up to {len(colors)} but the deck has {cards} "
                       f"cards", f"{where}.options.colors")
    names = symbol_names(options.get("symbols"), total, root, f"{where}.options.symbols")
    seed = options.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise PnpError(f"seed must be a number or a word, not {seed!r}", f"{where}.options.seed")
    # Deal the lines and the names in a seeded order: neighbouring lines share a point (the
    # first q+1 lines all pass through one), so unshuffled, cards 1-8 of a deck would all show
    # the same symbol. Any subset of lines keeps the property, so a partial deck stays valid.
    # The icons' licence asks for attribution: a {credit} field for the backs, empty when the
    # symbols are the user's own art or words.
    spec = options.get("symbols")
    drawn_as_icons = spec in (None, "icons") or (
        isinstance(spec, list) and any(icons.codepoint(n) is not None for n in names))
    credit = icons.ATTRIBUTION if drawn_as_icons else ""
    rng = random.Random(f"plane:{q}:{seed}")
    lines = plane(q)
    rng.shuffle(lines)
    rng.shuffle(names)
    rows = []
    for i, line in enumerate(lines[:cards]):
        fields = {"credit": credit, **({"color": colors[i]} if colors else {})}
        rows.append(Row(fields, tuple(names[p] for p in line), where=f"{where}, card {i + 1}"))
    return rows


def parse_order(text: str) -> int:
    """An order from the command line: Q, or q^k / q**k."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:(?:\^|\*\*)\s*(\d+))?\s*", text)
    if not m:
        raise PnpError(f"bad order {text!r}: write a whole number such as 7 or 3^2", "--order")
    base, power = int(m.group(1)), int(m.group(2) or 1)
    if base > 1 and power * base.bit_length() > 64:
        raise PnpError(f"order {text} is far too large: the largest supported order is "
                       f"{MAX_ORDER}", "--order")
    return base**power


register("plane", plane_rows)
