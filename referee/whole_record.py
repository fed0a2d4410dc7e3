"""The whole record of a match as printed (`referee log --all`, `--json`, `--script`, the
events and ledger of `export`, the ledger of `score --json`), rendered event by event through
the record's memo (referee/record/record_memo.py), so that printing it again renders only the
events recorded since."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path

from referee import jsontext, log_text, record, script, session, table
from referee.engine import Event, Game, ScoreItem
from referee.record import Stamped, Store
from referee.session import LogLine

LEDGER_DEPTH = {"ledger": 2, "export-ledger": 3}  # in `score --json`, in `export`


def whole_log(store: Store, match_id: int | None, form: str) -> bytes:
    """The whole log of the current (or given) match in form "all", "json" or "script", as
    UTF-8 (the memo's bytes are printed as read: 8 MB for `--json` on 20,000 events)."""
    m, g, folded = record.read(store, match_id)
    control = {e.seq: e for e in folded.control}

    def render(first: int) -> list[bytes]:
        return [_piece(form, x, control).encode()
                for x in session.log_lines(g, folded, first)]

    body = pieces(store, m.id, type(g), folded.control, len(folded.log), form, render)
    if form == "json":
        return jsontext.pretty_bytes({"match": m.id, "game": m.game, "players": list(m.players),
                                      "options": m.options,
                                      "events": jsontext.Verbatim(b"[\n%s\n  ]" % body)})
    if form == "script":
        return script.header(m, control).encode() + (b"\n" + body if body else b"")
    return body


def score_json(store: Store, match_id: int | None) -> bytes:
    """`referee score --json`: every item of the ledger and the totals."""
    cur = session.load(store, match_id)
    return jsontext.pretty_bytes({"match": cur.match.id, "ledger": ledger(store, cur, "ledger"),
                                  "totals": cur.totals()})


def ledger(store: Store, cur: session.Loaded, form: str) -> jsontext.Verbatim:
    """The ledger laid out as in `score --json` ("ledger") or `export` ("export-ledger"): the
    game's items event by event (those of events 1..K from the memo), then the table's
    corrections in force."""
    depth, count = LEDGER_DEPTH[form], len(cur.stamped)
    own, marks = cur.game.ledger(cur.state), cur.marks

    def render(first: int) -> list[bytes]:
        return [_items(session.added(own, marks, seq), depth) for seq in range(first, count + 1)]

    body = pieces(store, cur.match.id, type(cur.game), cur.table_events, count, form, render)
    items = b",\n".join(p for p in (body, _items(table.table_items(cur.table_events), depth)) if p)
    return jsontext.Verbatim(b"[\n%s\n%s]" % (items, b"  " * (depth - 1)) if items else b"[]")


def _items(items: Sequence[ScoreItem], depth: int) -> bytes:
    return ",\n".join(indented(log_text.item(i), depth) for i in items).encode()


def pieces(store: Store, match_id: int, game_class: type[Game], control: Sequence[Event],
           count: int, form: str, render: Callable[[int], list[bytes]]) -> bytes:
    """The pieces of events 1..count in `form`, through the record's memo."""
    return record.memo_pieces(store, match_id, _code(game_class), control, count, form, render)


def _piece(form: str, x: LogLine, control: Mapping[int, Event]) -> str:
    if form == "all":
        return log_text.line(x)
    if form == "json":  # as pretty() writes it two levels down: in "events", in the record
        return indented(log_text.json_object(x), 2)
    return script.piece(x, control)


def exported(s: Stamped) -> bytes:
    """An event as `export` writes it: in "events", in its match, in the list of matches."""
    e = s.event
    return indented({"seq": e.seq, "kind": e.kind, "data": e.data, "at": s.at}, 3).encode()


def indented(data: object, depth: int) -> str:
    """pretty(data) as it reads `depth` levels down in an indented document."""
    pad = "  " * depth
    return pad + jsontext.pretty(data).replace("\n", "\n" + pad)


@cache
def _code(game_class: type[Game]) -> str:
    """The rules' fingerprint (as for snapshots) and the source of what renders the pieces."""
    h = hashlib.sha256(record.code_fingerprint(game_class).encode())
    for module in (session, log_text, script, jsontext, table):
        h.update(Path(module.__file__).read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()
