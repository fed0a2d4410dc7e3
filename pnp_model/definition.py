"""Read and validate a game definition (game.toml + card list + art) into the components model.

Pure Python (no reportlab), so the referee can read the very cards the generator prints.
Every problem is a PnpError naming the file and the field, CSV line or card.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

from pnp_model import art_folders, conditions, layouts, remote, units
from pnp_model.cardvalues import BASIC_COLORS, fill, resolve_color, resolve_shape, visible
from pnp_model.colorspec import is_literal
from pnp_model.components import Card, Deck, Element, PrintSettings
from pnp_model.elements import CHOICES, COMMON, ELEMENTS, KIND_CHOICES
from pnp_model.errors import PnpError
from pnp_model.input_limits import ascii_digits, read_toml
from pnp_model.percard import PerCard, for_card
from pnp_model.problems import collecting, found, guard, record
from pnp_model.shapes import SHAPES
from pnp_model.sources import SOURCES, Row
from pnp_shared.limits import MAX_CARDS, MAX_QTY

CARD_SHAPES = ("rect", "circle", "hexagon", "triangle")
BUILTIN_FIELDS = ("id", "copy", "part", "symbols")
DECK_KEYS = {"source", "file", "sheet", "shape", "size", "corner_radius", "parts",
             "default_parts", "options", "layout", "legend"}
PRINT_KEYS = {"paper", "orientation", "gutter", "bleed", "marks", "flip", "back_offset", "safe",
              "fold", "markers"}
GAME_KEYS = {"name", "title", "description", "assets"}
URLS_KEY = "urls"  # [game] urls = true: card lists may be URLs (pnp_model.remote)
TABLES = {"game", "deck", "print", "colors", "shapes", "verify", "balance", "face", "back",
          "layouts", "icons", "scoring"}
MAX_BACK_OFFSET = 20 * units.MM  # printers misregister by 1-4 mm


def template_fields(text: str, where: str = "") -> list[str]:
    """The {field} names a template refers to; a format spec or conversion is refused."""
    try:
        parsed = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(text)
                  if f is not None]
    except ValueError as e:
        raise PnpError(f"bad placeholder in {text!r}: {e} (write {{{{ for a literal brace)",
                       where) from None
    for name, spec, conv in parsed:
        if spec or conv or not name:
            raise PnpError(f"bad placeholder in {text!r}: write {{column}} with a column name "
                           "and nothing else inside the braces", where)
    return [name for name, _, _ in parsed]


truthy = conditions.truthy


def find(name_or_path: str | Path) -> Path:
    """The folder of a bundled template by name, or a user's folder / game.toml path."""
    from pnp_model.catalog import bundled

    p = Path(name_or_path)
    if p.is_file() and p.name == "game.toml":
        return p.parent
    if (p / "game.toml").is_file():
        return p
    found = bundled().get(str(name_or_path))
    if found:
        return found
    names = ", ".join(sorted(bundled())) or "none"
    raise PnpError(f"no game {str(name_or_path)!r}: not a folder with game.toml, nor a bundled "
                   f"template ({names})")


def load(name_or_path: str | Path) -> Deck:
    """Load, validate and number the cards of one definition."""
    root = find(name_or_path)
    path = root / "game.toml"
    data = read_toml(path, str(path))
    if isinstance(data.get("component"), dict):  # a whole game: pnp_model.game reads it
        names = ", ".join(data["component"])
        raise PnpError(f"this game holds several components ({names}): `pnp build` prints "
                       "them and `pnp verify`, `pnp list` check them all; this command takes "
                       "one deck", str(path))
    return deck_from(data, root, path.name)


def deck_from(data: dict[str, Any], root: Path, fname: str) -> Deck:
    """One deck from its parsed tables; fname names it in errors (a component's table too)."""
    with collecting() as problems:  # go on past a mistake: one run names them all
        deck = None
        try:
            with art_folders.reading(root, _assets(data, root, fname)), \
                    remote.permitted(_urls(data, fname)):
                deck = _build(data, root, fname)
        except PnpError as e:  # a mistake nothing after it can be checked without
            problems.add(e)
        problems.raise_if_any()
    assert deck is not None  # no mistake found, so _build returned the deck
    return deck


def _assets(data: dict, root: Path, fname: str) -> tuple[Path, ...]:
    """The folders [game] assets allows besides the game's own (pnp_model.art_folders)."""
    game = data.get("game")
    if not isinstance(game, dict) or "assets" not in game:
        return ()
    return art_folders.assets(game["assets"], root, f"{fname} [game].assets")


def _urls(data: dict, fname: str) -> bool:
    """[game] urls = true: the definition's card lists may be URLs (pnp_model.remote)."""
    game = data.get("game")
    value = game.get("urls", False) if isinstance(game, dict) else False
    if not isinstance(value, bool):
        raise PnpError(f"urls must be true or false, not {value!r}", f"{fname} [game].urls")
    return value


class _AnyColumn(set):
    """The columns when the card list could not be read: {field}s cannot be checked."""

    def __contains__(self, name: object) -> bool:
        return True


def _known(table: dict, known: set[str], what: str, where: str) -> None:
    for key in sorted(set(table) - known):
        with guard():
            raise PnpError(f"unknown key {key!r} in {what} (known: "
                           f"{', '.join(sorted(known))})", where)


def _one_of(value: str, allowed: tuple[str, ...], key: str, where: str) -> None:
    if value not in allowed:
        raise PnpError(f"{key} must be one of {', '.join(allowed)}, not {value!r}", f"{where}.{key}")


def _table(data: dict, key: str, fname: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise PnpError(f"[{key}] must be a table", fname)
    return value


def _build(data: dict[str, Any], root: Path, fname: str) -> Deck | None:
    for unknown in sorted(set(data) - TABLES):
        with guard():
            raise PnpError(f"unknown table [{unknown}] (known: {', '.join(sorted(TABLES))})", fname)
    if found():  # a misspelt table: what it holds is unknown, so later mistakes would be noise
        return None
    game = _table(data, "game", fname)
    _known(game, GAME_KEYS | {URLS_KEY}, "[game]", fname)
    deck = _table(data, "deck", fname)
    _known(deck, DECK_KEYS, "[deck]", fname)
    where = f"{fname} [deck]"
    shape = str(deck.get("shape", "rect"))
    with guard():
        if shape not in CARD_SHAPES:
            raise PnpError(f"unknown card shape {shape!r} (use {', '.join(CARD_SHAPES)})",
                           f"{where}.shape")
    width, height = units.size("poker")  # stands in for a wrong size while checking the rest
    with guard():
        width, height = units.size(str(deck.get("size", "poker")), f"{where}.size")
        if width <= 0 or height <= 0:
            raise PnpError("card size must be positive", f"{where}.size")
    radius = 0.0
    with guard():
        radius = units.length(deck.get("corner_radius", "0mm"), f"{where}.corner_radius")
        if radius < 0:
            raise PnpError("corner_radius cannot be negative", f"{where}.corner_radius")

    colors = {str(k).lower(): str(v) for k, v in _table(data, "colors", fname).items()}
    shapes = {str(k).lower(): str(v) for k, v in _table(data, "shapes", fname).items()}
    for k, v in shapes.items():
        with guard():
            if v not in SHAPES:
                shapes[k] = "circle"  # named once here, not again on every card using it
                raise PnpError(f"shape alias {k!r} = {v!r} is not a shape ({', '.join(SHAPES)})",
                               f"{fname} [shapes]")
    for k, v in colors.items():
        with guard():
            if v.lower() not in BASIC_COLORS and not is_literal(v):
                colors[k] = "black"  # named once here, not again on every card using it
                raise PnpError(f"colour {k!r} = {v!r} is not #rrggbb or cmyk(C,M,Y,K) in "
                               "percent", f"{fname} [colors]")

    source_name = str(deck.get("source", "csv"))
    options: dict[str, Any] = {}
    cards: list[Card] | None = None  # None: the card list has a mistake, named already
    with guard():
        options = _source_options(deck, source_name, where)
        mistakes = found()
        cards = _number(SOURCES[source_name](options, root, where))
        if not cards and found() == mistakes:
            raise PnpError("the definition has no cards", where)
    parts = tuple(dict.fromkeys(c.part for c in cards or () if c.part))
    default_parts = deck.get("default_parts", deck.get("parts", parts))
    with guard():
        if not isinstance(default_parts, list | tuple):
            raise PnpError(f"default_parts must be a list such as [{default_parts!r}]",
                           f"{where}.default_parts")
        default_parts = tuple(str(p) for p in default_parts)
        for p in default_parts if cards else ():
            if p not in parts:
                raise PnpError(f"default part {p!r} is not a value of the part column "
                               f"({', '.join(parts) or 'none'})", f"{where}.default_parts")

    columns = set(cards[0].fields) | set(BUILTIN_FIELDS) if cards else _AnyColumn()
    size_box = (width, height)
    if "layout" in deck:  # without the cards' layouts nothing further can be checked
        _known_columns(template_fields(str(deck["layout"]), f"{where}.layout"), columns,
                       f"{where}.layout")
    laid_out, face, back = layouts.build(
        data, deck.get("layout"), fname, cards or [], fill,
        lambda items: _elements(items, size_box, columns))
    cards = laid_out if cards else None
    if cards and not any(c.symbols for c in cards):
        for el in face + back:
            with guard():
                if el.kind == "symbols":
                    raise PnpError("a symbols element, but no card has symbols (use a plane "
                                   "source or a symbols column in the card list)", el.where)
    for card in cards or ():
        _check_card(card, face + back, root, colors, shapes)
    legend = deck.get("legend", False)
    with guard():
        if not isinstance(legend, bool):
            raise PnpError(f"legend must be true or false, not {legend!r}", f"{where}.legend")
        if legend and cards and not any(el.kind == "symbols" for el in face):
            raise PnpError("legend = true lists the symbols of a symbol deck, but the face has "
                           "no symbols element", f"{where}.legend")
    properties = _table(data, "verify", fname)
    balance: dict[str, Any] = {}
    with guard():
        balance = _table(data, "balance", fname)
        if balance:  # read only for a deck that has one
            from pnp_model.balance import read_balance

            balance = read_balance(balance, root, fname)
    scoring: dict[str, Any] = {}
    with guard():  # [scoring]: the referee's score sheet (pnp_model/scoring.py)
        scoring = _scoring(_table(data, "scoring", fname), fname)
    settings = PrintSettings()
    with guard():
        settings = _print_settings(_table(data, "print", fname), fname)

    return Deck(
        name=str(game.get("name", root.resolve().name)),
        title=str(game.get("title", root.resolve().name)),
        description=str(game.get("description", "")),
        root=root,
        shape=shape,
        width=width,
        height=height,
        corner_radius=radius,
        cards=tuple(cards or ()),
        face=face,
        back=back,
        colors=colors,
        shapes=shapes,
        properties=properties,
        balance=balance,
        scoring=scoring,
        print=settings,
        parts=parts,
        default_parts=default_parts,
        source={"name": source_name, **options},
        icons=_icons(_table(data, "icons", fname), root, fname, colors, shapes),
        legend=legend is True,
    )


def _scoring(table: dict, fname: str) -> dict[str, Any]:
    from pnp_model.scoring import read_scoring

    return read_scoring(table, fname) if table else {}


def _icons(table: dict, root: Path, fname: str, colors: dict, shapes: dict) -> dict:
    """The [icons] table (pnp_model.inline_icons), shown in text as :name:."""
    from pnp_model import inline_icons

    return inline_icons.read(table, root, fname, lambda v, w: resolve_color(v, colors, w),
                             lambda v, w: resolve_shape(v, shapes, w))


def _source_options(deck: dict, source_name: str, where: str) -> dict[str, Any]:
    """The card source's options, [deck] file and sheet included; the source must exist."""
    if source_name not in SOURCES:
        _load_design_sources()
    if source_name not in SOURCES:
        raise PnpError(f"unknown card source {source_name!r} (use {', '.join(sorted(SOURCES))})",
                       f"{where}.source")
    if not isinstance(deck.get("options", {}), dict):
        raise PnpError("options must be a table, e.g. options = { order = 7 }", f"{where}.options")
    options = dict(deck.get("options", {}))
    for key in ("file", "sheet"):
        if key in deck:
            options.setdefault(key, deck[key])
    return options


def _load_design_sources() -> None:
    """Import the combinatorial sources lazily: they register themselves on import."""
    import importlib

    for mod in ("pnp_model.designs.planes", "pnp_model.designs.dominoes"):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise


def _number(rows: list[Row]) -> list[Card]:
    cards: list[Card] = []
    copies = []
    for row in rows:
        qty = 0  # a row with a bad qty is named and left out; the others are still checked
        try:
            qty = _qty(row)
        except PnpError as e:
            record(e)
        copies.append(qty)
    total = sum(copies)
    if total > MAX_CARDS:
        raise PnpError(f"the deck would have {total:,} cards, more than the limit of "
                       f"{MAX_CARDS:,}: fewer rows or a lower qty", rows[-1].where.rsplit(":", 1)[0])
    for row, qty in zip(rows, copies, strict=True):
        fields = dict(row.fields)
        for reserved in ("id", "copy"):
            if reserved in fields:
                raise PnpError(f"a column cannot be named {reserved!r}: {{{reserved}}} is the "
                               f"card's {'number' if reserved == 'id' else 'copy number'}; "
                               "rename the column", row.where)
        fields.pop("qty", None)
        part = fields.pop("part", "")
        for copy in range(1, qty + 1):
            cards.append(Card(len(cards) + 1, {**fields, "copy": str(copy)}, part, row.symbols))
    return cards


def _qty(row: Row) -> int:
    """Copies of a row: its qty column, 1 when there is none or it is empty."""
    qty_text = row.fields.get("qty") or "1"
    ascii_digits(qty_text, "qty", row.where)
    try:
        qty = int(qty_text)
    except ValueError:
        raise PnpError(f"qty must be a whole number, not {qty_text!r}", row.where) from None
    if qty < 0:
        raise PnpError(f"qty cannot be negative ({qty})", row.where)
    if qty > MAX_QTY:
        raise PnpError(f"qty {qty} is more than {MAX_QTY} copies of one card", row.where)
    return qty


def _elements(items: list[tuple[str, dict]], box: tuple[float, float],
              columns: set[str]) -> tuple[Element, ...]:
    """A side's elements, each (where, TOML table) as pnp_model.layouts resolved them."""
    w, h = box
    out = []
    for where, item in items:
        with guard():  # an element with a mistake is named and left out; the others go on
            out += _element(item, where, w, h, columns)
    return tuple(out)


def _element(item: dict, where: str, w: float, h: float, columns: set[str]) -> list[Element]:
    """One element checked: [the element], or [] when a parameter's mistake was recorded."""
    kind = item.get("type")
    if kind not in ELEMENTS:
        raise PnpError(f"unknown element type {kind!r} (use {', '.join(ELEMENTS)})", where)
    where = f"{where} ({kind})"
    spec = {**COMMON, **ELEMENTS[kind]}
    params: dict[str, Any] = {}
    mistakes = found()
    for key, value in item.items():
        if key == "type":
            continue
        with guard():
            if key not in spec:
                raise PnpError(f"unknown parameter {key!r} (a {kind} takes "
                               f"{', '.join(sorted(spec))})", where)
            params[key] = _param(spec[key], value, f"{where}.{key}", w, h, columns)
    for key, allowed in CHOICES.items():
        if key in params and key in spec and (kind, key) not in KIND_CHOICES:
            with guard():
                params[key] = _choice(params[key], allowed, key, where)
    for (of_kind, key), allowed in KIND_CHOICES.items():
        if of_kind == kind and key in params:
            with guard():
                params[key] = _choice(params[key], allowed, key, where)
    if found() > mistakes:
        return []
    if (params.get("shrink") or params.get("fit") == "shrink") and "w" not in params:
        how = "shrink = true" if params.get("shrink") else 'fit = "shrink"'
        raise PnpError(f"{how} needs the width w to shrink the text into", where)
    if kind == "image" and "file" not in params:
        raise PnpError("an image needs file = \"picture.png\"", where)
    if kind == "text":
        _text_box(params, where)
    if "{" in str(params.get("font", "")):  # drawers take the font as given: fill it here
        params["font"] = PerCard(params["font"], tuple(template_fields(params["font"])),
                                 lambda v, _where: v, "text")
    return [Element(kind, params, where)]


def _text_box(params: dict[str, Any], where: str) -> None:
    """A text box's width and height cannot be negative (0 or none: no box)."""
    for key in ("w", "h"):
        value = params.get(key)
        if isinstance(value, float) and value < 0:
            raise PnpError(f"a text box's {key} cannot be negative ({units.to_mm(value):.1f} mm)",
                           f"{where}.{key}")


def _choice(value: str, allowed: tuple[str, ...], key: str, where: str) -> Any:
    """One of a few words, or a {field} template checked per card."""
    if "{" in value:
        return PerCard(value, tuple(template_fields(value, where)),
                       lambda v, wh: _choice(v, allowed, key, wh.rsplit(".", 1)[0]), "text")
    _one_of(value, allowed, key, where)
    return value


def _param(kind: str, value: Any, where: str, w: float, h: float, columns: set[str]) -> Any:
    """A parameter's value; a number or length written with {fields} is resolved per card."""
    if kind == "condition":
        condition, names = conditions.parse(str(value), where)
        _known_columns(names, columns, where)
        return condition
    if kind in PER_CARD_KINDS and isinstance(value, str) and "{" in value:
        names = template_fields(value, where)
        _known_columns(names, columns, where)
        return PerCard(value, tuple(names), lambda v, wh: _value(kind, v, wh, w, h), kind)
    if kind not in PER_CARD_KINDS and kind != "list":  # text, colour, file: filled when drawn
        _known_columns(template_fields(str(value), where), columns, where)
    return _value(kind, value, where, w, h)


PER_CARD_KINDS = ("x", "y", "len", "pt", "num", "fraction", "bool")


def _known_columns(names: list[str], columns: set[str], where: str) -> None:
    for name in names:
        if name not in columns:
            raise PnpError(f"refers to {{{name}}} but the cards have no column {name!r} "
                           f"(columns: {', '.join(sorted(columns))})", where)


def _value(kind: str, value: Any, where: str, w: float, h: float) -> Any:
    if kind in ("x", "y", "len"):
        points = units.length(value, where, percent_of={"x": w, "y": h, "len": min(w, h)}[kind])
        if kind == "len" and points < 0:
            raise PnpError(f"{value!r} is negative", where)
        return points
    if kind == "pt":
        points = (units.number(value, where, units.MAX_LENGTH)
                  if isinstance(value, int | float) and not isinstance(value, bool)
                  else units.length(value, where))
        if points <= 0:
            raise PnpError(f"a size must be more than 0, not {value!r}", where)
        return points
    if kind in ("num", "fraction"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PnpError(f"expected a number, got {value!r}", where)
        if kind == "fraction" and not 0 <= value <= 1:
            raise PnpError(f"expected 0 (invisible) to 1 (solid), not {value!r}", where)
        return units.number(value, where)
    if kind == "bool":
        if not isinstance(value, bool):
            raise PnpError(f"expected true or false, got {value!r}", where)
        return value
    if kind == "list":
        if not isinstance(value, list):
            raise PnpError(f"expected a list, got {value!r}", where)
        return [str(v) for v in value]
    return str(value)


def _check_card(card: Card, elements: tuple[Element, ...], root: Path, colors: dict,
                shapes: dict) -> None:
    """Catch per-card problems at load time: missing images, unknown colours and shapes."""
    for el in elements:
        try:  # every element of every card is checked: one run names every mistake
            _check_element(card, el, root, colors, shapes)
        except PnpError as e:
            record(e)


def _check_element(card: Card, el: Element, root: Path, colors: dict, shapes: dict) -> None:
    where = f"card {card.id}, {el.where}"
    if not visible(el, card):
        return
    el = for_card(el, card)
    if el.kind == "text":
        _text_box(el.params, where)
    spec = ELEMENTS[el.kind]
    for key, value in el.params.items():
        kind = spec.get(key)
        if kind == "color":
            resolve_color(fill(value, card), colors, f"{where}.{key}")
        elif kind == "file":
            name = fill(value, card)
            if not art_folders.inside(root, name, where, "image").is_file():
                raise PnpError(f"missing image {name!r}", where)
        elif key.startswith("font") and str(value).lower().endswith((".ttf", ".otf")):
            art_folders.inside(root, fill(str(value), card), f"{where}.{key}", "font")
    if el.kind == "shape":
        resolve_shape(fill(el.params.get("name", "circle"), card), shapes, f"{where}.name")


def print_length(value: Any, where: str) -> float:
    """A bleed or gutter: a length that cannot be negative."""
    points = units.length(value, where)
    if points < 0:
        raise PnpError(f"{value!r} is negative; use 0mm for none", where)
    return points


def back_offset(values: Any, where: str) -> tuple[float, float]:
    """The duplex correction X,Y; more than a few millimetres is a typo, not a printer."""
    if not isinstance(values, list | tuple) or len(values) != 2:
        raise PnpError(f"give two lengths X,Y such as [\"1mm\", \"-0.5mm\"], not {values!r}", where)
    x, y = (units.length(v, where) for v in values)
    if max(abs(x), abs(y)) > MAX_BACK_OFFSET:
        raise PnpError(f"a back offset of more than {units.to_mm(MAX_BACK_OFFSET):.0f} mm is not "
                       "a printer's misregistration (1-4 mm); measure it with `pnp calibrate`",
                       where)
    return x, y


def check_shared_print(data: dict, fname: str) -> None:
    """A whole game's shared [print], checked once at its own table. Checked only as part of
    each component's, one mistake there was one line per component, each naming a component's
    [print] the file does not have."""
    with collecting() as problems:
        with guard():
            _print_settings(_table(data, "print", fname), fname)
        problems.raise_if_any()


def _print_settings(table: dict, fname: str) -> PrintSettings:
    where = f"{fname} [print]"
    _known(table, PRINT_KEYS, "[print]", fname)
    choices = {"orientation": ("auto", "portrait", "landscape"), "flip": ("long", "short")}
    for key, allowed in choices.items():
        if key in table:
            _one_of(str(table[key]).lower(), allowed, key, where)
    if "paper" in table:
        units.paper(str(table["paper"]).lower(), where=f"{where}.paper")
    marks = table.get("marks", True)
    fold = table.get("fold", False)
    markers = table.get("markers", False)
    for key, flag in (("marks", marks), ("fold", fold), ("markers", markers)):
        if not isinstance(flag, bool):
            raise PnpError(f"expected true or false, got {flag!r}", f"{where}.{key}")
    return PrintSettings(
        fold=fold,
        paper=str(table.get("paper", "a4")).lower(),
        orientation=str(table.get("orientation", "auto")).lower(),
        gutter=print_length(table.get("gutter", "0mm"), f"{where}.gutter"),
        bleed=print_length(table.get("bleed", "0mm"), f"{where}.bleed"),
        marks=marks,
        flip=str(table.get("flip", "long")).lower(),
        back_offset=back_offset(table.get("back_offset", ["0mm", "0mm"]), f"{where}.back_offset"),
        safe=print_length(table.get("safe", "3mm"), f"{where}.safe"),
        markers=markers,
    )
