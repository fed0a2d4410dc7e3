"""Deck properties → a report of violations (what failed, which cards, why).

Two families of checks, both run by `pnp verify`:

Symbol checks, for decks whose cards carry symbols (or a CSV listing them):
  repeat      no card shows the same symbol twice;
  per_card    every card has the same number of symbols (or exactly `per_card` when declared);
  duplicate   no two cards have the same set of symbols;
  pairs       every two cards share exactly N symbols (N = 1 unless declared or given);
  symbols     the deck uses exactly this many distinct symbols (only when declared);
  appearances every symbol appears on exactly this many cards (only when declared).
The pair check is exact and fast: each symbol's cards are a bitset (a Python int), and for
each card the bitsets of its symbols are summed in bit-sliced counters, so the cards that share
a wrong number of symbols with it fall out of a few big-int operations (n·k additions, not
n²·k² set intersections). Symbols shared by an offending pair are only computed for the pairs
actually reported.

Declared checks, from a definition's [verify] table:
  count = N                 the definition has exactly N cards (copies included);
  unique = ["a", "b"]       no two cards have the same values in all these fields together;
  per.FIELD = {V = N, ...}  exactly N cards have FIELD = V for every listed V, and no card has a
                            value of FIELD that is not listed (the table describes the whole deck);
  pairs, per_card, symbols, appearances   as above, for the symbol checks;
  domino_set = true         the cards (fields a, b[, c]) are one complete domino set: every
                            combination of 0..max exactly once, triangles in one chirality.
A [verify] key or a field name the cards do not have is a user mistake (PnpError), not a failure.
Each check reports at most `limit` violations and counts them all.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pnp_model.errors import PnpError
from pnp_shared.counts import plural

VERIFY_KEYS = ("count", "unique", "per", "pairs", "per_card", "symbols", "appearances",
               "domino_set")


@dataclass(frozen=True)
class Violation:
    check: str
    cards: tuple[int, ...]
    why: str
    shared: tuple[str, ...] = ()


@dataclass
class Report:
    cards: int
    checks: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    limit: int = 20

    @property
    def ok(self) -> bool:
        return not any(self.totals.values())

    def found(self, v: Violation) -> None:
        """Count a violation; keep it for the listing while its check is under the limit."""
        n = self.totals.get(v.check, 0)
        if n < self.limit:
            self.violations.append(v)
        self.totals[v.check] = n + 1

    def passed(self, description: str, check: str) -> None:
        self.checks.append(description)
        self.totals.setdefault(check, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "cards": self.cards,
            "checks": self.checks,
            "totals": self.totals,
            "facts": self.facts,
            "violations": [asdict(v) for v in self.violations],
        }


# --- symbol checks ---------------------------------------------------------------------------


def check_symbols(cards: Sequence[tuple[int, Sequence[str]]], pairs: int = 1,
                  per_card: int | None = None, symbols: int | None = None,
                  appearances: int | None = None, report: Report | None = None,
                  limit: int = 20) -> Report:
    """Check a symbol deck given as (card id, symbols) pairs."""
    rep = report or Report(len(cards), limit=limit)
    ids = [cid for cid, _ in cards]
    sets = [frozenset(syms) for _, syms in cards]

    rep.passed("no card repeats a symbol", "repeat")
    for cid, syms in cards:
        twice = sorted(s for s, n in Counter(syms).items() if n > 1)
        if twice:
            rep.found(Violation("repeat", (cid,), f"card #{cid} shows {', '.join(twice)} more "
                                f"than once", tuple(twice)))

    sizes = Counter(len(s) for s in sets)
    want = per_card if per_card is not None else (sizes.most_common(1)[0][0] if sizes else 0)
    rep.passed(f"{plural(want, 'symbol')} per card", "per_card")
    rep.facts["symbols_per_card"] = dict(sorted(sizes.items()))
    for cid, s in zip(ids, sets, strict=True):
        if len(s) != want:
            rep.found(Violation("per_card", (cid,), f"card #{cid} has {len(s)} symbols, not "
                                f"{want}"))

    rep.passed("no two cards alike", "duplicate")
    first: dict[frozenset, int] = {}
    for cid, s in zip(ids, sets, strict=True):
        if s in first:
            rep.found(Violation("duplicate", (first[s], cid), f"cards #{first[s]} and #{cid} "
                                f"have the same symbols", tuple(sorted(s))))
        else:
            first[s] = cid

    _check_pairs(ids, [tuple(dict.fromkeys(syms)) for _, syms in cards], sets, pairs, rep)

    seen: Counter[str] = Counter(sym for s in sets for sym in s)
    rep.facts["symbols"] = len(seen)
    rep.facts["appearances"] = dict(sorted(Counter(seen.values()).items()))
    if symbols is not None:
        rep.passed(f"{symbols} distinct symbols", "symbols")
        if len(seen) != symbols:
            rep.found(Violation("symbols", (), f"the deck uses {len(seen)} distinct symbols, "
                                f"not {symbols}"))
    if appearances is not None:
        rep.passed(f"every symbol on {plural(appearances, 'card')}", "appearances")
        for sym, n in sorted(seen.items()):
            if n != appearances:
                on = tuple(cid for cid, s in zip(ids, sets, strict=True) if sym in s)
                rep.found(Violation("appearances", on, f"{sym!r} appears on "
                                    f"{plural(n, 'card')}, not {appearances}", (sym,)))
    return rep


def _check_pairs(ids: list[int], seqs: list[tuple[str, ...]], sets: list[frozenset], n: int,
                 rep: Report) -> None:
    """Every two cards share exactly n symbols: bit-sliced counting over symbol bitsets."""
    rep.passed(f"every two cards share exactly {plural(n, 'symbol')}", "pairs")
    count = len(sets)
    holders: dict[str, int] = defaultdict(int)
    for i, s in enumerate(sets):
        bit = 1 << i
        for sym in s:
            holders[sym] |= bit
    full = (1 << count) - 1
    bad_pairs = 0
    for i, s in enumerate(sets):
        later = full & ~((2 << i) - 1)  # cards after i: each pair once
        if not later:
            break
        planes: list[int] = []
        for sym in s:
            carry = holders[sym] & later
            for b in range(len(planes)):
                if not carry:
                    break
                planes[b], carry = planes[b] ^ carry, planes[b] & carry
            if carry:
                planes.append(carry)
        exact = later
        for b, plane in enumerate(planes):
            exact &= plane if (n >> b) & 1 else ~plane
        if n >> len(planes):
            exact = 0  # n needs more bits than any count reached
        bad = later & ~exact
        if not bad:
            continue
        bad_pairs += bad.bit_count()
        while bad and rep.totals.get("pairs", 0) < rep.limit:
            j = (bad & -bad).bit_length() - 1
            bad &= bad - 1
            shared = tuple(x for x in seqs[i] if x in sets[j])  # in the card's own order
            rep.found(Violation("pairs", (ids[i], ids[j]), f"cards #{ids[i]} and #{ids[j]} share "
                                f"{len(shared)}, not {n}", shared))
    rep.totals["pairs"] = bad_pairs
    rep.facts["pairs_checked"] = count * (count - 1) // 2


# --- declared checks -------------------------------------------------------------------------


def check_deck(deck: Any, pairs: int | None = None, limit: int = 20) -> Report:
    """Check what a definition (a components Deck) declares in [verify], plus its symbols."""
    props = dict(deck.properties)
    where = f"{deck.root.resolve().name}/game.toml [verify]"
    unknown = set(props) - set(VERIFY_KEYS)
    if unknown:
        raise PnpError(f"unknown key {sorted(unknown)[0]!r} in [verify] (known: "
                       f"{', '.join(VERIFY_KEYS)})", where)
    cards = deck.cards
    rep = Report(len(cards), limit=limit)
    columns = set(cards[0].fields) | {"id", "part"} if cards else set()

    if "count" in props:
        want = _whole(props["count"], f"{where}.count")
        rep.passed(f"{want} cards", "count")
        if len(cards) != want:
            rep.found(Violation("count", (), f"the deck has {len(cards)} cards, not {want}"))

    if "unique" in props:
        names = props["unique"]
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names:
            raise PnpError("unique must be a list of field names", f"{where}.unique")
        for name in names:
            _known_field(str(name), columns, f"{where}.unique")
        rep.passed(f"unique {' + '.join(map(str, names))}", "unique")
        groups: dict[tuple, list[int]] = defaultdict(list)
        for c in cards:
            groups[tuple(_value(c, str(n)) for n in names)].append(c.id)
        for key, cids in groups.items():
            if len(cids) > 1:
                shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, key, strict=True))
                rep.found(Violation("unique", tuple(cids), f"{len(cids)} cards have {shown}: "
                                    f"{_ids(cids)}"))

    per = props.get("per", {})
    if not isinstance(per, dict):
        raise PnpError("per must be a table of field = {value = count}", f"{where}.per")
    for fname, table in per.items():
        w = f"{where}.per.{fname}"
        _known_field(fname, columns, w)
        if not isinstance(table, dict) or not table:
            raise PnpError("expected a table of value = count", w)
        want_counts = {str(v): _whole(n, f"{w}.{v}") for v, n in table.items()}
        rep.passed(f"cards per {fname}", "per")
        have: dict[str, list[int]] = defaultdict(list)
        for c in cards:
            have[_value(c, fname)].append(c.id)
        for value, n in want_counts.items():
            got = have.get(value, [])
            if len(got) != n:
                rep.found(Violation("per", tuple(got), f"{fname} = {value!r}: "
                                    f"{plural(len(got), 'card')}, not {n}"))
        for value, got in have.items():
            if value not in want_counts:
                rep.found(Violation("per", tuple(got), f"{fname} = {value!r} is not declared "
                                    f"but {plural(len(got), 'card')} have it: {_ids(got)}"))

    if props.get("domino_set"):
        from pnp_model.designs.dominoes import check_set

        rep.passed("one complete domino set, each tile once, no mirror images", "domino_set")
        for problem in check_set(cards, deck.source.get("max")):
            rep.found(Violation("domino_set", problem.cards, problem.why))

    has_symbols = any(c.symbols for c in cards)
    symbol_keys = {"pairs", "per_card", "symbols", "appearances"} & set(props)
    if has_symbols or symbol_keys:
        n = pairs if pairs is not None else _whole(props.get("pairs", 1), f"{where}.pairs")
        opt = {k: _whole(props[k], f"{where}.{k}") for k in ("per_card", "symbols", "appearances")
               if k in props}
        check_symbols([(c.id, c.symbols) for c in cards], pairs=n, report=rep, **opt)
    return rep


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PnpError(f"expected a whole number, got {value!r}", where)
    return value


def _known_field(name: str, columns: set[str], where: str) -> None:
    if name not in columns:
        raise PnpError(f"the cards have no field {name!r} (fields: "
                       f"{', '.join(sorted(columns))})", where)


def _value(card: Any, name: str) -> str:
    if name == "id":
        return str(card.id)
    if name == "part":
        return card.part
    return card.fields.get(name, "")


def _ids(cids: Iterable[int], most: int = 12) -> str:
    cids = list(cids)
    shown = ", ".join(f"#{c}" for c in cids[:most])
    return shown + (f" … ({len(cids)} in all)" if len(cids) > most else "")
