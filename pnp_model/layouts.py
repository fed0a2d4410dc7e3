"""Named layouts: several face and back designs in one deck, chosen per card.

    [deck]
    layout = "{type}"          # each card's layout, by name (a {field} template or a name)

    [layouts.base]             # a layout: its own [[layouts.NAME.face]] and .back elements
    [layouts.spell]
    extends = "base"           # start from base's elements; an element with the `id` of an
                               # inherited one changes it (remove = true drops it), others add

The top-level [[face]] and [[back]] are the layout named "default": the only one when there is
no [layouts], and the one a card gets when its layout column is empty. Layouts are resolved
here on the raw TOML tables (inheritance, overrides); the loader then reads each resolved
element as usual and tags it with its layout, so a card draws only its own layout's elements.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pnp_model.components import Card, Element
from pnp_model.errors import PnpError

DEFAULT = "default"
LAYOUT_KEYS = {"extends", "face", "back"}
SIDES = ("face", "back")
MAX_DEPTH = 20  # layouts extending layouts: deeper is a generated mistake
Raw = tuple[str, dict]  # (where, the element's TOML table without id/remove)


@dataclass
class Layout:
    name: str
    sides: dict[str, list[tuple[str | None, Raw]]] = field(default_factory=dict)  # (id, raw)
    given: set[str] = field(default_factory=set)  # the sides this layout itself defines
    extends: str = ""


def _items(items: Any, what: str, fname: str) -> list[tuple[str | None, Raw]]:
    if not isinstance(items, list):
        raise PnpError(f"[[{what}]] must be a list of elements", fname)
    out, seen = [], set()
    for i, item in enumerate(items, 1):
        where = f"{fname} [[{what}]] #{i}"
        if not isinstance(item, dict):
            raise PnpError("an element must be a table", where)
        item = dict(item)
        ident = item.pop("id", None)
        if ident is not None:
            if not isinstance(ident, str) or not ident:
                raise PnpError(f"an element id is a name such as \"title\", not {ident!r}",
                               f"{where}.id")
            if ident in seen:
                raise PnpError(f"two elements have the id {ident!r}", where)
            seen.add(ident)
        out.append((ident, (where, item)))
    return out


def read(data: dict, fname: str) -> dict[str, Layout]:
    """Every layout of the definition, unresolved: the default one and [layouts.*]."""
    layouts = {DEFAULT: Layout(DEFAULT, {s: _items(data.get(s, []), s, fname) for s in SIDES},
                               {s for s in SIDES if s in data})}
    table = data.get("layouts", {})
    if not isinstance(table, dict):
        raise PnpError("[layouts] must be a table of named layouts", fname)
    for name, spec in table.items():
        where = f"{fname} [layouts.{name}]"
        if not isinstance(spec, dict):
            raise PnpError("a layout must be a table", where)
        if name == DEFAULT and (data.get("face") or data.get("back")):
            raise PnpError("a layout named 'default' and top-level [[face]]/[[back]]: the "
                           "top-level elements are the default layout; rename one", where)
        unknown = sorted(set(spec) - LAYOUT_KEYS)
        if unknown:
            raise PnpError(f"unknown key {unknown[0]!r} in a layout (known: "
                           f"{', '.join(sorted(LAYOUT_KEYS))})", where)
        extends = spec.get("extends", "")
        if not isinstance(extends, str):
            raise PnpError(f"extends names a layout, not {extends!r}", f"{where}.extends")
        layouts[name] = Layout(name, {s: _items(spec.get(s, []), f"layouts.{name}.{s}", fname)
                                      for s in SIDES}, {s for s in SIDES if s in spec}, extends)
    return layouts


def resolve(layouts: dict[str, Layout], name: str, fname: str) -> dict[str, list[Raw]]:
    """A layout's elements per side, with what it extends merged in."""
    return {s: [raw for _, raw in items] for s, items in _with_ids(layouts, name, fname).items()}


def _with_ids(layouts: dict[str, Layout], name: str, fname: str,
              chain: tuple[str, ...] = ()) -> dict[str, list[tuple[str | None, Raw]]]:
    """Like resolve, keeping element ids so that a layout extending this one can change them."""
    layout = layouts[name]
    if not layout.extends:
        return layout.sides
    where = f"{fname} [layouts.{name}].extends"
    if layout.extends not in layouts:
        raise PnpError(f"extends {layout.extends!r}, which is not a layout (layouts: "
                       f"{', '.join(sorted(layouts))})", where)
    if layout.extends in (*chain, name):
        raise PnpError(f"layouts extend each other in a circle: "
                       f"{' -> '.join((*chain, name, layout.extends))}", where)
    if len(chain) >= MAX_DEPTH:
        raise PnpError(f"layouts extend each other more than {MAX_DEPTH} deep", where)
    parent = _with_ids(layouts, layout.extends, fname, (*chain, name))
    return {s: _merge(parent[s], layout.sides[s]) for s in SIDES}


def _merge(parent: list, child: list) -> list:
    out = list(parent)
    index = {ident: i for i, (ident, _) in enumerate(out) if ident}
    removed = []
    for ident, (where, item) in child:
        if ident in index:
            i = index[ident]
            base = out[i][1][1]
            if item.get("remove"):
                extra = sorted(set(item) - {"remove"})
                if extra or item["remove"] is not True:
                    raise PnpError("remove = true drops the inherited element; give nothing "
                                   "else with it", where)
                removed.append(i)
                continue
            same_type = item.get("type", base.get("type")) == base.get("type")
            out[i] = (ident, (where, {**base, **item} if same_type else item))
        else:
            if "remove" in item or (ident and "type" not in item):
                what = "remove = true" if "remove" in item else "no type"
                raise PnpError(f"{what}, but no inherited element has the id {ident!r}", where)
            out.append((ident, (where, item)))
    return [e for i, e in enumerate(out) if i not in removed]


def assign(template: str, cards: list[Card], layouts: dict[str, Layout], fill: Callable,
           where: str) -> list[Card]:
    """Each card with its layout's name (from [deck] layout, filled in for the card)."""
    defined = [n for n, lay in layouts.items() if lay.given or lay.extends]
    out = []
    for card in cards:
        name = fill(template, card).strip() or DEFAULT
        if name not in defined:
            raise PnpError(f"card #{card.id} ({card.name}) asks for layout {name!r}, which is "
                           f"not defined (layouts: {', '.join(defined) or 'none'})", where)
        out.append(replace(card, layout=name))
    return out


def build(data: dict, choice: Any, fname: str, cards: list[Card], fill: Callable,
          parse: Callable[[list[Raw]], tuple[Element, ...]]):
    """The cards (each with its layout) and the deck's face and back elements."""
    layouts = read(data, fname)
    where = f"{fname} [deck].layout"
    if choice is None:
        if len(layouts) > 1:
            raise PnpError("[layouts] are defined but no card chooses one: add layout = "
                           "\"{column}\" (or a layout name) to [deck]", where)
        sides = elements(layouts, [DEFAULT], fname, parse, tag=False)
        return cards, sides["face"], sides["back"]
    if not isinstance(choice, str):
        raise PnpError(f"layout is a layout name or a {{column}}, not {choice!r}", where)
    cards = assign(choice, cards, layouts, fill, where)
    sides = elements(layouts, sorted({c.layout for c in cards}), fname, parse, tag=True)
    return cards, sides["face"], sides["back"]


def elements(layouts: dict[str, Layout], used: list[str], fname: str,
             parse: Callable[[list[Raw]], tuple[Element, ...]],
             tag: bool) -> dict[str, tuple[Element, ...]]:
    """The deck's face and back: every layout's elements read by `parse`; tagged with their
    layout's name when cards choose layouts. Every layout is read (errors in an unused one are
    errors too); only the used ones are drawn."""
    out: dict[str, list[Element]] = {s: [] for s in SIDES}
    for name in layouts:
        resolved = resolve(layouts, name, fname)
        for side in SIDES:
            parsed = parse(resolved[side])
            if name in used:
                out[side] += [replace(e, layout=name) if tag else e for e in parsed]
    return {s: tuple(v) for s, v in out.items()}
