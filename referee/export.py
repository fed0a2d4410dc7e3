"""Exports of finished or running matches: the full record (json), score items (csv), and
BG Stats plays (the JSON the BG Stats app imports), so results leave the referee intact."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pnp_shared import files
from pnp_shared.csv_text import csv_text
from referee import jsontext, session, table, whole_record
from referee.engine import RefereeError
from referee.record import Store
from referee.seats.clock import play_time


def _matches(store: Store, match_id: int | None) -> list[session.Loaded]:
    """The match asked for, or every match but the scratch ones (a dispute's position typed
    in and not kept with `referee keep`)."""
    if match_id is not None:
        return [session.load(store, match_id)]
    loaded = (session.load(store, m.id) for m in store.matches())
    return [cur for cur in loaded if not cur.scratch()]


def record(store: Store, cur: session.Loaded) -> dict[str, Any]:
    """One match as data: who, options, every event as recorded, the ledger and the result.
    The events and the ledger are laid out already, as jsontext.pretty_bytes writes them
    (from the record memo: referee/whole_record.py)."""
    m, g = cur.match, cur.game
    outcome = cur.outcome()
    count = len(cur.stamped)
    events = whole_record.pieces(
        store, m.id, type(g), cur.table_events, count, "export",
        lambda first: [whole_record.exported(s) for s in cur.stamped.span(first, count)])
    return {
        "match": m.id, "game": m.game, "title": g.title, "created": m.created,
        "players": list(m.players), "options": m.options,
        "events": jsontext.Verbatim(b"[\n%s\n    ]" % events),
        "ledger": whole_record.ledger(store, cur, "export-ledger"),
        "totals": cur.totals(),
        "adjusted": {p: t.adjusted for p, t in cur.scores().items()},
        "status": cur.status(),
        "outcome": {"winners": list(outcome.winners), "reason": outcome.reason}
        if outcome else None,
    }


def player_id(name: str) -> int:
    """A player's id, the same in every export (BG Stats merges players by id on import):
    31 bits of a hash of the name as typed, case folded."""
    return int(hashlib.sha256(f"referee-player:{name.lower()}".encode()).hexdigest()[:8], 16) >> 1


def rounds(cur: session.Loaded) -> int:
    """The rounds played: the latest round the score ledger reached (1 once a move is made)."""
    played = [i.round for i in cur.ledger()]
    if played:
        return max(played)
    return int(any(e.kind == "move" for e in cur.events))


def bgstats(loaded: list[session.Loaded]) -> dict[str, Any]:
    """BG Stats' data file (games, players, locations, plays with playerScores), the shape the
    app writes in its backups and reads back on import. Game ids are local to the file; player
    ids and uuids come from the name, so the same person has the same id in every export."""
    import uuid

    games: dict[str, bool] = {}  # title -> the highest total wins
    bgg: dict[str, int | None] = {}  # title -> BoardGameGeek id
    players: dict[str, str] = {}
    plays = []
    for cur in loaded:
        m, g = cur.match, cur.game
        title = m.options.get("game-name") or g.title  # a designer's own game keeps its name
        low = g.lowest_wins(m.options)
        games.setdefault(title, not low)
        bgg.setdefault(title, g.bgg_id)
        gid = list(games).index(title) + 1
        total = cur.totals()
        outcome = cur.outcome()
        stamped = cur.stamped
        opener = next((s.event.data.get("player") for s in stamped if s.event.kind == "move"),
                      None)
        start = stamped[0].at
        place = table.places(outcome, total, low)  # the winner first, as every command
        plays.append({
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"referee:{m.id}:{m.created}")),
            "gameRefId": gid,
            "playDate": start[:19].replace("T", " "),
            # the table clock's play time: a note written after the game is no play
            "durationMin": round(play_time(stamped, m.players) / 60),
            # an unfinished or abandoned match stays out of the statistics
            "ignored": outcome is None or not outcome.winners,
            "manualWinner": cur.status().endswith("(declared)"), "rounds": rounds(cur),
            "locationRefId": 0, "usesTeams": False,
            "comments": f"referee match {m.id} ({cur.status()}); "
                        + ", ".join(f"{k}={v}" for k, v in m.options.items()),
            "playerScores": [
                {"playerRefId": player_id(players.setdefault(p.lower(), p)),
                 "score": str(total[p]),
                 "winner": bool(outcome and p in outcome.winners), "newPlayer": False,
                 "startPlayer": p == opener, "rank": place[p],
                 "seatOrder": n + 1}
                for n, p in enumerate(m.players)
            ],
        })
    return {
        "games": [{"id": i, "name": name, **({"bggId": bgg[name]} if bgg.get(name) else {}),
                   "highestWins": high, "noPoints": False, "cooperative": False}
                  for i, (name, high) in enumerate(games.items(), start=1)],
        "players": [{"id": player_id(name), "name": name,
                     "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"referee-player:{key}"))}
                    for key, name in players.items()],
        "locations": [],
        "plays": plays,
    }


def render(store: Store, fmt: str, match_id: int | None = None) -> bytes:
    """The export as UTF-8."""
    loaded = _matches(store, match_id)
    if fmt == "json":
        return jsontext.pretty_bytes([record(store, c) for c in loaded]) + b"\n"
    if fmt == "bgstats":
        return jsontext.pretty_bytes(bgstats(loaded)) + b"\n"
    rows = [[c.match.id, c.match.game, c.match.created, i.round, i.player, i.points, i.label]
            for c in loaded for i in c.ledger()]
    return csv_text([["match", "game", "created", "round", "player", "points", "label"],
                     *rows]).encode()


def write_atomic(path: Path, data: bytes) -> None:
    """Write atomically; a path that cannot be written is a user error, not a traceback. The
    folder must be there: a mistyped one is not made (the export would be lost in it)."""
    if not path.parent.is_dir():
        what = "is a file" if path.parent.exists() else "does not exist"
        raise RefereeError(f"cannot write {path}: the folder {str(path.parent)!r} {what}",
                           "--output")
    try:
        files.write_atomic(path, data)
    except OSError as e:
        raise RefereeError(f"cannot write {path}: {_why(e, path)}", "--output") from None


def _why(e: OSError, path: Path) -> str:
    if isinstance(e, (FileExistsError, NotADirectoryError)):
        return "a file stands where a folder should be"
    if isinstance(e, IsADirectoryError):
        return f"{path} is a folder"
    return e.strerror or str(e)
