"""The whole record as last printed (`referee log --all`, `--json`, `--script`, the events and
ledger of `export`, the ledger of `score --json`), so that printing it again renders only the
events recorded since.

Why: rendering an event for the record costs ~10 µs of Python (reading it, its line with its
points, its text), 0.3-0.5 s for 20,000 events against a budget of 150 ms a command. An event's
piece of the record depends only on the events up to it and on which of them were undone or
set aside: the fold is deterministic and the ledger only grows (engine.Rules.ledger). So the
pieces of events 1..K, kept in the user's cache folder (a file per database, match and form),
are exact while event K's hash (the chain vouches for every event before it), the entries
taken back and the attempts set aside among 1..K, and the code that renders them are as they
were. The match is verified first, as by every command; events K+1.. are then rendered (all of
them when the memo does not fit) after the memo's text. The cache folder is trusted as for the
trust memo (referee/trust_memo.py); a memo that cannot be read or written only costs time.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path

from pnp_shared.folders import write_memo_file
from referee import engine, jsontext, log_text, script, session, snapshots, table
from referee.components import db_memo_path
from referee.engine import Event, Game, ScoreItem
from referee.session import LogLine
from referee.store import Stamped, Store

SHORT = 500  # events: a record this short renders in a few ms, and keeps no memo (no file
# per match in the cache folder for the many short ones)
STALE = 100  # events: a memo this far behind is written again (rendering them takes ~1 ms;
# writing the memo again after every move cost more: 8 MB for `--json` on 20,000 events)
SEPARATOR = {"all": b"\n", "json": b",\n", "script": b"\n", "export": b",\n",
             "ledger": b",\n", "export-ledger": b",\n"}  # between two events' pieces: a log
# line, a JSON object in `log --json`, a script line, in `export`; their score items
LEDGER_DEPTH = {"ledger": 2, "export-ledger": 3}  # in `score --json`, in `export`


def whole_log(store: Store, match_id: int | None, form: str) -> bytes:
    """The whole log of the current (or given) match in form "all", "json" or "script", as
    UTF-8 (the memo's bytes are printed as read: 8 MB for `--json` on 20,000 events)."""
    m, g, folded = session.read(store, match_id)
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
    """The pieces of events 1..count joined by SEPARATOR[form]: those of 1..K from the memo
    when it fits, render(K + 1) for the rest (render(1) for all, when none fits)."""
    if count <= SHORT:
        return SEPARATOR[form].join(p for p in render(1) if p)
    undone = engine.undos(control)
    code = _code(game_class)
    path = db_memo_path(store.path, "record", f"-{match_id}-{form}.txt")
    upto, kept = _kept(path, store, match_id, count, code, undone)
    body = SEPARATOR[form].join(p for p in [kept, *render(upto + 1)] if p)
    if count - upto >= STALE or not upto:
        _keep(path, store, match_id, count, code, undone, body)
    return body


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


def _facts(store: Store, match_id: int, upto: int, code: str, undone: engine.Undos) -> dict:
    """What the pieces of events 1..upto were rendered from."""
    row = store.db.execute("SELECT hash FROM events WHERE match = ? AND seq = ?",
                           (match_id, upto)).fetchone()
    return {"seq": upto, "hash": row[0] if row else None, "code": code,
            "gone": sorted(s for s in undone.gone if s <= upto),
            "dismissed": sorted(s for s in undone.dismissed if s <= upto)}


def _kept(path: Path, store: Store, match_id: int, count: int, code: str,
          undone: engine.Undos) -> tuple[int, bytes]:
    """(K, the pieces of events 1..K) from the memo when it still fits, else (0, b"")."""
    try:
        with path.open("rb") as f:
            kept = json.loads(f.readline())
            upto = kept["seq"]
            if type(upto) is int and 1 <= upto <= count and kept == {
                    **_facts(store, match_id, upto, code, undone), "bytes": kept["bytes"]}:
                body = f.read()
                if len(body) == kept["bytes"]:  # not cut short
                    return upto, body
    except (OSError, ValueError, KeyError, TypeError, sqlite3.DatabaseError):
        pass
    return 0, b""


def _keep(path: Path, store: Store, match_id: int, count: int, code: str,
          undone: engine.Undos, body: bytes) -> None:
    try:
        facts = _facts(store, match_id, count, code, undone)
    except sqlite3.DatabaseError:
        return
    write_memo_file(path, json.dumps({**facts, "bytes": len(body)}).encode() + b"\n" + body)


@cache
def _code(game_class: type[Game]) -> str:
    """The rules' fingerprint (as for snapshots) and the source of what renders the pieces."""
    h = hashlib.sha256(snapshots.code_fingerprint(game_class).encode())
    for module in (session, log_text, script, jsontext, table):
        h.update(Path(module.__file__).read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()
