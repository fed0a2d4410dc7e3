"""Per-match summaries (totals, winners, moves) for `matches` and `standings`.

Why: those two read every match; loading 2,000 matches one by one (verify, unpickle, fold the
tail) takes seconds. A summary is kept per match, keyed like a snapshot: the match's last event
hash, the rules' source, and a digest of all its events as stored, recomputed for every match in
two grouped queries. Each row carries an HMAC over all its columns under the user's key
(key.py, kept outside the database), so an edit of the database cannot forge a result. A match
whose summary no longer fits (new events, other rules, an edit, a MAC that fails) is loaded the
ordinary way, which reports any tampering, and its summary is written again.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from referee import registry
from referee.engine import Event, Game, RefereeError
from referee.record import integrity, key, snapshots
from referee.record.event_digest import JOINED, EventDigest, digest
from referee.record.snapshots import end_read
from referee.record.store import Match, Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS summaries (
    match INTEGER PRIMARY KEY,
    head TEXT NOT NULL,
    code TEXT NOT NULL,
    content TEXT NOT NULL,
    data TEXT NOT NULL,
    mac TEXT NOT NULL
)
"""
CONTENTS = f"SELECT match, {JOINED}, count(*), max(seq) FROM events GROUP BY match"


@dataclass(frozen=True)
class Summary:
    """One match as `matches` and `standings` show it (error: why it cannot be read)."""

    match: Match
    totals: dict[str, int]
    winners: tuple[str, ...] | None
    reason: str | None
    moves: int
    status: str = ""  # as `matches` says it: in play, won by ..., abandoned, ...
    error: str | None = None
    adjusted: dict[str, int] = field(default_factory=dict)  # the table's part of each total
    scratch: bool = False  # typed in from a position and not kept: not in standings

    @property
    def scores(self) -> dict:
        """The totals as every view writes them, corrections named (referee/scoreboard.py)."""
        from referee.scoreboard import from_totals

        return from_totals(self.totals, self.adjusted)


class Standing(NamedTuple):
    """One player's record in one game (points of different games are never averaged)."""

    game: str
    player: str
    played: int
    finished: int
    won: int
    average: float | None  # of finished matches only (None before the first): a match given
    best: int | None  # up after one entry says nothing of how well anyone plays
    adjusted: int = 0  # points of the table's corrections among these totals


def every(store: Store, game_name: str | None = None) -> list[Summary]:
    """Every match (of one game, or all) summarised; unreadable ones carry their error."""
    wanted = registry.game(game_name).name if game_name is not None else None  # a typo errs
    db = store.db
    reading = not db.in_transaction  # one consistent view while another terminal appends
    if reading:
        db.execute("BEGIN")
    try:
        for p in store.database_problems():
            raise RefereeError(f"{p.what}; see `referee verify --all`", p.where)
        out, stale = _read(store, wanted)
    except sqlite3.DatabaseError as e:  # damaged, locked, unreadable: one line, as everywhere
        raise store._failed(e) from None
    finally:
        if reading:
            end_read(db)
    if not stale:
        return out
    fresh = []
    locked = _begin(store)  # one transaction for every snapshot and summary written below
    try:
        for i, m in stale:
            out[i], row = _load(store, m)
            if row is not None:
                fresh.append(row)
        if fresh:
            _save(store, fresh)
    finally:
        if locked and store.db.in_transaction:
            store.db.execute("COMMIT")
    return out


def _read(store: Store, wanted: str | None) -> tuple[list, list]:
    """The kept summaries that still fit, and the matches (index, match) that need loading."""
    db = store.db
    raw = {r[0]: r for r in db.execute(
        "SELECT id, game, players, options, created FROM matches ORDER BY id").fetchall()}
    heads = {r[0]: r[1:] for r in db.execute("SELECT match, header, count, head FROM heads")} \
        if integrity.installed(db) else {}
    contents = {r[0]: (EventDigest.of(r[1:-2], r[-2], r[-1]).hexdigest(), r[-2], r[-1])
                for r in db.execute(CONTENTS)}
    try:
        kept = {r[0]: r[1:] for r in db.execute(
            "SELECT match, head, code, content, data, mac FROM summaries")}
    except sqlite3.DatabaseError:
        kept = {}
    out, stale = [], []
    for m in store.matches():
        if wanted is not None and m.game != wanted:
            continue
        if m.damage is not None:  # listed, marked: the others are still read
            out.append(Summary(m, {}, None, None, 0, error=m.damage))
            continue
        s = _kept(m, raw[m.id], heads.get(m.id), contents.get(m.id), kept.get(m.id))
        out.append(s)
        if s is None:
            stale.append((len(out) - 1, m))
    return out, stale


def _begin(store: Store) -> bool:
    """Take the write lock if it is free right now (else the caches are simply not kept)."""
    if store.read_only is not None or store.db.in_transaction:
        return False
    from referee.record.store import BUSY_MS

    try:
        store.db.execute("PRAGMA busy_timeout=0")
        store.db.execute("BEGIN IMMEDIATE")
        return True
    except sqlite3.DatabaseError:
        return False
    finally:
        store.db.execute(f"PRAGMA busy_timeout={BUSY_MS}")


def authentic(match_id: object, head: object, code: object, content: object, data: object,
              check: object) -> bool:
    """Whether a summary row's MAC agrees with its columns under the user's key."""
    return key.agrees(check, "summary", str(match_id), str(head), str(code), str(content),
                      str(data))


def _kept(m: Match, raw: tuple, head: tuple | None, content: tuple | None,
          kept: tuple | None) -> Summary | None:
    if head is None or content is None or kept is None:
        return None
    header, count, last_hash = head
    digest, rows, last = content
    s_head, code, s_content, data, check = kept
    if (header != integrity.header_hash(*raw) or not rows == last == count
            or s_head != last_hash or s_content != digest
            or code != _rules_fingerprint(m.game)
            or not authentic(m.id, s_head, code, s_content, data, check)):
        return None
    return parsed(m, data)


def parsed(m: Match, data: str) -> Summary | None:
    """A summary's data column read back; None when it is not as this referee writes it."""
    try:
        d = json.loads(data)
        if "scratch" not in d:  # kept by an older referee
            return None
        return Summary(m, dict(d["totals"]), tuple(d["winners"]) if d["winners"] is not None
                       else None, d["reason"], int(d["moves"]), str(d["status"]),
                       adjusted=dict(d["adjusted"]), scratch=bool(d["scratch"]))
    except (TypeError, ValueError, KeyError, RecursionError):
        return None


def _rules_fingerprint(game_name: str) -> str | None:
    """The rules' source fingerprint, read from the game's files without importing it when
    the game is where its name says (a kept summary needs no rules imported)."""
    found = snapshots.code_fingerprint_by_name(game_name)
    if found is not None:
        return found
    try:
        return snapshots.code_fingerprint(type(registry.game(game_name)))
    except RefereeError:
        return None


def _load(store: Store, m: Match) -> tuple[Summary, tuple | None]:
    """The match loaded the ordinary way (verified, folded), and its summary row to keep."""
    from referee.record.match_read import read

    try:
        _, g, folded = read(store, m.id)
    except RefereeError as e:
        return Summary(m, {}, None, None, 0, error=str(e)), None
    s, data = summarised(m, g, folded.state, folded.control, moves(store.db, m.id))
    head = store.db.execute("SELECT hash FROM events WHERE match = ? ORDER BY seq DESC LIMIT 1",
                            (m.id,)).fetchone()[0]
    content = digest(store.db, m.id, len(folded.log))
    code = snapshots.code_fingerprint(type(g))
    check = key.mac("summary", str(m.id), head, code, content, data)
    return s, (m.id, head, code, content, data, check) if check is not None else None


def moves(db: sqlite3.Connection, match_id: int) -> int:
    """How many moves the match's log holds (taken back or not), counted by SQLite: a summary
    shows it, and reading 20,000 events to count them would cost more than the rest."""
    return db.execute("SELECT count(*) FROM events WHERE match = ? AND kind = 'move'",
                      (match_id,)).fetchone()[0]


def summarised(m: Match, g: Game, state: object, entries: Sequence[Event],
               moves: int) -> tuple[Summary, str]:
    """A match's summary, and its data column: the totals with the table's corrections, the
    winners and reason of the rules' (or the table's) outcome, the moves and the status.
    (The table's rules are imported here: `matches` on kept summaries needs none of them.)"""
    from referee import scoreboard, table

    scores = scoreboard.scores(g, state, entries, m.players)
    totals = {p: t.total for p, t in scores.items()}
    adjusted = {p: t.adjusted for p, t in scores.items() if t.adjusted}
    outcome = table.outcome(g, state, entries)  # the rules decide on corrected totals
    s = Summary(m, totals, outcome.winners if outcome else None,
                outcome.reason if outcome else None, moves, table.status(g, state, entries),
                adjusted=adjusted, scratch=table.scratch(entries))
    data = json.dumps({"totals": totals, "winners": list(s.winners) if s.winners else None,
                       "reason": s.reason, "moves": moves, "status": s.status,
                       "adjusted": adjusted, "scratch": s.scratch})
    return s, data


def _save(store: Store, rows: list[tuple]) -> None:
    """Keep the summaries if the database can be written now without waiting (a cache)."""
    if store.read_only is not None:
        return
    db = store.db
    own = not db.in_transaction and _begin(store)
    if not db.in_transaction:
        return
    try:
        columns = {r[1] for r in db.execute("PRAGMA table_info(summaries)")}
        if columns and "mac" not in columns:  # made before the MAC: its rows cannot be checked
            db.execute("DROP TABLE summaries")
        db.execute(SCHEMA)
        db.executemany("INSERT OR REPLACE INTO summaries (match, head, code, content, data, mac)"
                       " VALUES (?, ?, ?, ?, ?, ?)", rows)
        if own:
            db.execute("COMMIT")
    except sqlite3.DatabaseError:
        if own and db.in_transaction:
            db.execute("ROLLBACK")


def standings(store: Store, game_name: str | None = None,
              left_out: list[Summary] | None = None) -> list[Standing]:
    """Per game and player across matches: played, finished, won, average and best total.
    Games score on different scales (300 points against a handful), so every game has its
    own rows; a match abandoned (or still in play) is played but not finished, and its totals
    stay out of the average and the best; a scratch match (a dispute's position, not kept) is
    not counted. A match that cannot be read (damaged, tampered with) is left out and added to
    `left_out`, so the others still count."""
    own = game_name is not None and any(m.own_name == game_name != m.game
                                        for m in store.matches())
    rows: dict[tuple[str, str], list] = {}
    for x in every(store, None if own else game_name):
        if x.error is not None:
            if left_out is not None:
                left_out.append(x)
            continue
        if x.scratch or (own and x.match.own_name != game_name):
            continue
        for p in x.match.players:  # a name stored before names were NFC: one row all the same
            r = rows.setdefault((x.match.own_name, unicodedata.normalize("NFC", p)),
                                [0, 0, 0, [], 0])
            r[0] += 1
            r[4] += x.adjusted.get(p, 0)
            if x.winners:
                r[1] += 1
                r[2] += p in x.winners
                r[3].append(x.totals[p])
    table = [Standing(g, p, r[0], r[1], r[2], sum(r[3]) / len(r[3]) if r[3] else None,
                      max(r[3], default=None), r[4])
             for (g, p), r in rows.items()]
    return sorted(table, key=lambda s: (s.game, -s.won, -(s.average or 0), s.player))
