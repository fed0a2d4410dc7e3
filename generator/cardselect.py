"""Cards picked the way a designer names them: `14`, `#14`, `Mana Leak` or a range `1-9`.

Used by every command that takes --card. Names are matched without regard to case or spacing;
a typo gets the closest names as suggestions, so `--card "Mana Leek"` says what was meant.
"""

from __future__ import annotations

import difflib
import re

from pnp_model.components import Card, Deck
from pnp_model.errors import PnpError

_ID = re.compile(r"^#?\s*(\d+)$")
_RANGE = re.compile(r"^#?\s*(\d+)\s*(?:-|\.\.)\s*#?\s*(\d+)$")


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def select(deck: Deck, spec: str, where: str = "--card") -> tuple[Card, ...]:
    """The cards `spec` names: one id, a range of ids (both ends included), or the cards of
    that name (the first copy of each row). Anything else is a PnpError with the nearest names."""
    text = str(spec).strip()
    m = _ID.match(text)
    if m:
        return (_by_id(deck, int(m.group(1)), where),)
    m = _RANGE.match(text)
    if m:
        first, end = int(m.group(1)), int(m.group(2))
        if first > end:
            raise PnpError(f"the range {text!r} runs backwards: write {end}-{first}", where)
        for n in (first, end):
            _by_id(deck, n, where)
        return tuple(c for c in deck.cards if first <= c.id <= end)
    named = [c for c in deck.cards if _key(c.name) == _key(text)]
    if named:  # copies of a row look alike: its first copy stands for them
        distinct = {_look(c): c for c in reversed(named)}
        return tuple(sorted(distinct.values(), key=lambda c: c.id))
    raise PnpError(f"no card named {text!r} in {deck.name}{_suggestion(deck, text)}", where)


def _look(card: Card) -> tuple:
    """What tells two cards apart apart from their copy number."""
    fields = tuple(sorted((k, v) for k, v in card.fields.items() if k != "copy"))
    return fields, card.part, card.symbols


def _by_id(deck: Deck, number: int, where: str) -> Card:
    try:
        return deck.card(number)
    except KeyError:
        raise PnpError(f"{deck.name} has cards #1 to #{len(deck.cards)}; there is no card "
                       f"#{number}", where) from None


def _suggestion(deck: Deck, text: str) -> str:
    names = {_key(c.name): c.name for c in deck.cards}
    close = difflib.get_close_matches(_key(text), list(names), n=3, cutoff=0.6)
    if close:
        return "; did you mean " + " or ".join(repr(names[k]) for k in close) + "?"
    return " (`pnp list GAME` lists the cards with their ids and names)"


def groups(deck: Deck) -> list[dict]:
    """The deck's cards as a person lists them: copies of one row together, with their ids."""
    out: list[dict] = []
    for card in deck.cards:
        last = out[-1] if out else None
        if last and last["_look"] == _look(card) and last["ids"][-1] == card.id - 1:
            last["ids"].append(card.id)
            continue
        out.append({"ids": [card.id], "name": card.name, "part": card.part, "_look": _look(card)})
    return [{"ids": g["ids"], "name": g["name"], "copies": len(g["ids"]), "part": g["part"]}
            for g in out]


def id_text(ids: list[int]) -> str:
    """#4 for one card, #4-6 for consecutive copies."""
    return f"#{ids[0]}" if len(ids) == 1 else f"#{ids[0]}-{ids[-1]}"


def list_cards(deck: Deck, as_json: bool = False) -> str:
    """`pnp list GAME`: one line per row of the card list (ids, copies, name, part), or JSON."""
    import json

    rows = groups(deck)
    if as_json:
        return json.dumps(rows, indent=2, ensure_ascii=False)
    width = max(len("ids"), *(len(id_text(r["ids"])) for r in rows))
    lines = [f"{'ids':<{width}}  copies  name"]
    lines += [f"{id_text(r['ids']):<{width}}  {r['copies']:>6}  {r['name']}"
              + (f"  [{r['part']}]" if r["part"] else "") for r in rows]
    total = sum(r["copies"] for r in rows)
    return "\n".join([*lines, f"{deck.name}: {total} cards, {len(rows)} different"])
