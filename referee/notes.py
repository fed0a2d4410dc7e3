"""Playtest notes (`referee note "Firestorm too strong" --card firestorm`): a remark kept in the
match's chained log as a "note" event, so undo, redo, log, exports and verify treat it as any
entry. The cards it names are checked against the game's definition (the folder the match was
started from, or the bundled template of the game's name) and recorded by name and ids, so the
note reads the same whatever later happens to the card list, with the card's fields and their
digest, so playtests can tell which version of the card a note was about
(referee/card_versions.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pnp_shared.errors import UserError
from referee.engine import Event, RefereeError, find_player
from referee.note_text import describe as describe
from referee.record import Store
from referee.session import Loaded, load

MAX_NOTE = 2000  # characters: a remark, not a file


def slug(text: str) -> str:
    """How a card name is matched as typed: `firestorm`, `Fire Storm` and `fire-storm` alike."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def deck_of(cur: Loaded, deck: str | None) -> str:
    """Where the match's cards are defined: --deck, the folder it was started from, or the
    bundled template the game plays (its `bundled_deck`, else the one named like the game)."""
    return (deck or cur.match.options.get("definition") or cur.game.bundled_deck
            or cur.match.game)


def named_cards(rules: Any, source: str) -> list[tuple[int, str, str, dict[str, str]]]:
    """(id, name as the game's reports write it, name in the definition, fields) of every card
    of `source`: a note is filed under the name the win rates and the rest of the report use."""
    from referee.components import card_contents

    return [(cid, rules.card_name(name, f), name, f) for cid, name, f in card_contents(source)]


def resolve_cards(cards: Sequence[tuple[int, str]], typed: Sequence[str],
                  where: str, rules: Any = None,
                  aliases: Sequence[tuple[int, str]] = ()) -> list[dict[str, Any]]:
    """Each typed card (a name in any spelling, as the game spells it, or an id such as 12 or
    #12) as {name, ids}; `aliases` are other names of the same ids (the definition's, where the
    game names its cards otherwise). An unknown one is an error naming the nearest cards."""
    by_slug: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for cid, name in cards:
        by_slug.setdefault(slug(name), []).append(cid)
        names.setdefault(slug(name), name)
    by_id = dict(cards)
    other = {slug(name): [] for _, name in aliases}
    for cid, name in aliases:
        other[slug(name)].append(cid)
    out: list[dict[str, Any]] = []
    for word in typed:
        key = word.strip().lstrip("#")
        spelled = slug(rules.card_typed(word.strip())) if rules is not None else slug(word)
        if key.isdigit() and int(key) in by_id:
            cid = int(key)
            found = {"name": by_id[cid], "ids": [cid]}
        elif spelled in by_slug:
            found = {"name": names[spelled], "ids": by_slug[spelled]}
        elif slug(word) in other:
            ids = other[slug(word)]
            found = {"name": by_id[ids[0]], "ids": ids}
        else:
            import difflib

            close = difflib.get_close_matches(slug(word), list(by_slug), n=3, cutoff=0.6)
            hint = f": did you mean {' or '.join(names[c] for c in close)}?" if close else \
                f" (cards: {', '.join(list(names.values())[:12])}" + \
                (", ...)" if len(names) > 12 else ")")
            raise RefereeError(f"no card {word.strip()!r} in {where}{hint}", "--card")
        if found not in out:
            out.append(found)
    return out


def note(store: Store, text: str, cards: Sequence[str] = (), player: str | None = None,
         deck: str | None = None, match_id: int | None = None) -> tuple[Loaded, Event]:
    """Record a note on the current (or given) match; cards checked first, nothing stored on
    a mistake."""
    from referee import inputs

    text = " ".join(text.split())
    if not text:
        raise RefereeError("the note is empty: say what you noticed", "referee note")
    if len(text) > MAX_NOTE:
        raise RefereeError(f"a note is at most {MAX_NOTE} characters, not {len(text)}",
                           "referee note")
    inputs.check(text, "note")
    with store.transaction():
        cur = load(store, match_id)
        data: dict[str, Any] = {"text": text}
        if player is not None:
            data["player"] = find_player(cur.match.players, player, "--by", RefereeError)
        if cards:
            source = deck_of(cur, deck)
            from referee.card_versions import kept

            try:
                listed = named_cards(cur.game, source)
            except UserError as e:  # a mistake in the definition (or no such definition)
                raise RefereeError(f"cannot read the cards of {source}: {e.what}; name the "
                                   "definition (a folder or a template) with --deck",
                                   "--card") from None
            fields = {cid: f for cid, _, _, f in listed}
            data["cards"] = [{**c, **kept(fields[c["ids"][0]])} for c in resolve_cards(
                [(cid, name) for cid, name, _, _ in listed], cards, source, cur.game,
                [(cid, own) for cid, name, own, _ in listed if own != name])]
            data["deck"] = source  # where playtests reads the card again, to see an edit
        ev = store.append(cur.match.id, "note", data)
        return cur, ev
