"""Read `[component.NAME]` tables: each is a deck definition of its own (deck, face, back,
layouts, verify, print...), with the game's shared tables as its defaults.

Shared: [game] (title, assets), [print] (paper, bleed... a component overrides key by key),
[colors], [shapes] and [icons] (a component adds to them). Every mistake names its component:
`game.toml [component.tokens] [deck].size`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp_model.art_folders import inside
from pnp_model.components import Deck
from pnp_model.definition import GAME_KEYS, TABLES, URLS_KEY, check_shared_print, deck_from, find
from pnp_model.errors import PnpError, PnpErrors
from pnp_model.input_limits import read_toml

# what a component is for the print: a board may be larger than the paper (split over sheets);
# tokens and tiles are small pieces that may share other components' sheets
KINDS = ("deck", "tokens", "tiles", "board")
SHARED = ("print", "colors", "shapes", "icons")
WHOLE_TABLES = {"game", "component", *SHARED}
OWN_KEYS = {"kind", "title"}
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class Component:
    name: str
    kind: str
    title: str
    deck: Deck

    @property
    def double_sided(self) -> bool:
        return self.deck.has_backs


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    root: Path
    components: tuple[Component, ...]
    whole: bool  # several components ([component.NAME]); False: a one-deck definition
    pages: tuple[Path, ...] = ()  # the designer's own pages (the rules as images), first

    def needs_components(self, flag: str) -> None:
        """A flag that names components, refused for a definition of one deck."""
        if not self.whole:
            raise PnpError(f"{self.name} is one deck, not a game of components", flag)

    def only(self, names: tuple[str, ...], where: str = "--only") -> Game:
        """The game with only the named components, in the definition's order."""
        known = [c.name for c in self.components]
        for name in names:
            if name not in known:
                raise PnpError(f"no component {name!r} in {self.name} (components: "
                               f"{', '.join(known)})", where)
        kept = tuple(c for c in self.components if c.name in names) if names else self.components
        return Game(self.name, self.title, self.root, kept, self.whole, self.pages)


def load_game(name_or_path: str | Path) -> Game:
    """A game of one or several components, each validated and numbered like a deck."""
    root = find(name_or_path)
    path = root / "game.toml"
    data = read_toml(path, str(path))
    if "component" not in data:
        deck = deck_from(data, root, path.name)
        return Game(deck.name, deck.title, root, (Component(deck.name, "deck", deck.title,
                                                            deck),), whole=False)
    table = data["component"]
    if not isinstance(table, dict) or not table:
        raise PnpError("[component] holds one table per component, e.g. [component.cards]",
                       path.name)
    for key in sorted(set(data) - WHOLE_TABLES):
        hint = (f"; put it inside a component: [component.NAME.{key}]" if key in TABLES else "")
        raise PnpError(f"unknown table [{key}] in a game of components (known: "
                       f"{', '.join(sorted(WHOLE_TABLES))}){hint}", path.name)
    game = data.get("game", {})
    if not isinstance(game, dict):
        raise PnpError("[game] must be a table", path.name)
    known = GAME_KEYS | {URLS_KEY, "pages"}
    for key in sorted(set(game) - known):
        raise PnpError(f"unknown key {key!r} in [game] (known: {', '.join(sorted(known))})",
                       path.name)
    pages = _pages(game.get("pages", []), root, f"{path.name} [game].pages")
    name = str(game.get("name", root.resolve().name))
    title = str(game.get("title", name))
    components, errors, shared = [], [], data
    try:
        check_shared_print(data, path.name)
    except PnpError as e:  # once, at [print]; the components read without it say only theirs
        errors += getattr(e, "errors", None) or [e]
        shared = {k: v for k, v in data.items() if k != "print"}
    for cname, ctable in table.items():
        try:
            components.append(_component(cname, ctable, shared, game, title, root, path.name))
        except PnpErrors as e:
            errors += e.errors
        except PnpError as e:
            errors.append(e)
    if errors:
        raise PnpErrors(errors)
    return Game(name, title, root, tuple(components), whole=True, pages=pages)


def _component(cname: str, ctable: Any, data: dict, game: dict, title: str, root: Path,
               fname: str) -> Component:
    where = f"{fname} [component.{cname}]"
    if not _NAME.match(cname):
        raise PnpError(f"a component's name is lowercase letters, digits and dashes, not "
                       f"{cname!r} (it names the component in the contents and in files)", where)
    if not isinstance(ctable, dict):
        raise PnpError("a component is a table: [component.NAME] with its [deck] and faces",
                       where)
    kind = str(ctable.get("kind", "deck"))
    if kind not in KINDS:
        raise PnpError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}", f"{where}.kind")
    if "game" in ctable:
        raise PnpError("[game] belongs to the whole game, not to one component", where)
    ctitle = str(ctable.get("title", cname))
    own = {k: v for k, v in ctable.items() if k not in OWN_KEYS}
    merged: dict[str, Any] = {**own, "game": {
        **{k: v for k, v in game.items() if k in ("assets", "urls")},
        "name": f"{game.get('name', root.resolve().name)}/{cname}",
        "title": f"{title} · {ctitle}",
        "description": str(game.get("description", "")),
    }}
    for key in SHARED:  # the game's table, the component's own keys over it
        shared, mine = data.get(key, {}), own.get(key, {})
        if isinstance(shared, dict) and isinstance(mine, dict) and (shared or mine):
            merged[key] = {**shared, **mine}
    return Component(cname, kind, ctitle, deck_from(merged, root, where))


def _pages(value: Any, root: Path, where: str) -> tuple[Path, ...]:
    """[game] pages: images (PNG, JPG) of the game's folder printed first, one a page."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise PnpError(f"pages must be a list of images such as [\"rules-1.png\"], not "
                       f"{value!r}", where)
    out = []
    for name in value:
        if not name.lower().endswith((".png", ".jpg", ".jpeg")):
            raise PnpError(f"page {name!r} is not a PNG or JPG image (a PDF's pages: export "
                           "them as images)", where)
        page = inside(root, name, where, "page")
        if not page.is_file():
            raise PnpError(f"page {name!r} not found", where)
        out.append(page)
    return tuple(out)
