"""The seats' HTTP API: `POST /api/move`, `/api/check`, `/api/undo`, `GET /api/state`.

Why it calls `session.play`: a move from a phone goes through exactly the checks and the
recording of `referee play --by PLAYER` (a rejected one kept as the CLI keeps it), and answers
the JSON of `referee check --json`. One writer thread with its own store (SQLite connections
stay in their thread) makes the server's writes one at a time; the turn is checked under the
record's write lock, so two phones sending for one turn record one move and the other is told
why (409), whichever terminal or phone wrote first.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from referee.engine import RefereeError
from referee.seats.guard import Pace, Refused, body_of, check_origin, host_ok, token_of
from referee.seats.tokens import Seats


def answer(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status, media_type="application/json",
                    headers={"cache-control": "no-store"})


class Table:
    """The match's seats and the server's one writer (all its methods run in `pool`)."""

    def __init__(self, path: Path, seats: Seats):
        self.path = path
        self.seats = seats
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="seat-writer")
        self.pace = Pace()
        self.asked: dict[str, Any] | None = None  # the pending undo: event, asked by, agreed
        self._store = None
        self.wake = None  # the pages' refresh (table_page/app.py), called after a write
        self._moves: tuple[int, list[str], str | None, str | None] | None = None

    @property
    def store(self):
        if self._store is None:
            from referee.record import Store

            self._store = Store(self.path)
        return self._store

    @property
    def match_id(self) -> int:
        return self.seats.match.id

    def move(self, player: str, text: str, seen: int | None, dry: bool) -> tuple[int, dict]:
        """Judge (and unless dry, record) a seat's move; 409 when the table moved on since
        the event the page showed (`seen`), checked under the write lock."""
        from referee import session
        from referee.log_text import verdict_json

        store = self.store
        with nullcontext() if dry else store.transaction():
            last = store.last_seq(self.match_id)
            stale = _moved_on(seen, last, "; look and try again")
            if stale is not None:
                return stale
            p = session.play(store, text, player, dry=dry, match_id=self.match_id)
        out = verdict_json(p)
        if not dry and p.event is not None:
            self.asked = None  # a new move: a pending undo asked for an older one
        out["to_move"] = self._to_move(p)
        return 200, out

    def _to_move(self, p) -> str | None:
        from referee import registry

        g = registry.game(p.match.game)
        return None if p.state is None or g.outcome(p.state) else g.to_move(p.state)

    def undo(self, player: str, seen: int | None) -> tuple[int, dict]:
        """Undo from a phone: asked by one seat, done once every other seat agreed (a tap on
        each); the terminal's `referee undo` needs no consent."""
        from referee import table_session
        from referee.session import describe

        store = self.store
        players = self.seats.match.players
        last = store.last_seq(self.match_id)
        stale = _moved_on(seen, last)
        if stale is not None:
            return stale
        asked = self.asked
        if asked is None or asked["event"] != last:
            table_session.undoable(store, self.match_id)  # nothing to undo: refused now
            asked = {"event": last, "by": player, "agreed": [player]}
        elif player not in asked["agreed"]:
            asked["agreed"].append(player)
        waiting = [p for p in players if p not in asked["agreed"]]
        self.asked = asked
        if waiting:
            return 202, {"undo": "asked", **asked, "waiting_for": waiting}
        self.asked = None
        with store.transaction():
            if store.last_seq(self.match_id) != asked["event"]:
                return 409, {"error": "the table moved on before everyone agreed"}
            done = table_session.undo(store, self.match_id)
        took = describe(done.taken) if done.taken else \
            "rejected attempt(s) " + ", ".join(str(e.seq) for e in done.dismissed)
        return 200, {"undo": "done", "event": done.event.seq, "took": took,
                     "agreed": asked["agreed"], "to_move": done.to_move}

    def state(self, player: str | None) -> dict[str, Any]:
        """The seat's own view: who it is, whose turn, the moves it may type, a pending undo."""
        from referee import table_session

        store = self.store
        last = store.last_seq(self.match_id)
        if self._moves is None or self._moves[0] != last:  # one listing per event
            try:
                listed = table_session.moves(store, self.match_id)
                self._moves = (last, list(listed.moves), listed.to_move, None)
            except RefereeError as e:  # a game that cannot list them says why; the turn
                from referee import session  # is still the rules'

                cur = session.load(store, self.match_id)
                to_move = None if cur.outcome() else cur.game.to_move(cur.state)
                self._moves = (last, [], to_move, str(e))
        _, moves, to_move, note = self._moves
        mine = player is not None and (to_move is None or to_move == player)
        return {"match": self.match_id, "event": last, "seat": player,
                "players": list(self.seats.match.players), "to_move": to_move,
                "moves": moves if mine else [], "moves_note": note,
                "undo": {**self.asked, "waiting_for": [
                    p for p in self.seats.match.players if p not in self.asked["agreed"]]}
                if self.asked and self.asked["event"] == last else None}


def routes(table: Table, port: int) -> list[Route]:
    """The API's routes, for the table page's app."""
    seats = table.seats

    async def run(fn, *args) -> tuple[int, dict]:
        return await asyncio.get_running_loop().run_in_executor(table.pool, fn, *args)

    def seat_of(request: Request) -> tuple[str, bool]:
        token, from_cookie = token_of(request.headers, port)
        player = seats.player(token)
        if player is None:
            raise Refused(403, "this needs a seat's token: open your seat's link"
                          if not token else "this token is no seat's of this match")
        return player, from_cookie

    async def write(request: Request, kind: str) -> Response:
        try:
            if not host_ok(request.headers.get("host", ""), port):
                raise Refused(400, "the Host is not this server")
            player, from_cookie = seat_of(request)
            check_origin(request.headers, port, from_cookie)
            body = await body_of(request)
            table.pace.take(player)
            data = _json_body(body)
            by = data.get("by")
            if by is not None and by != player:
                raise Refused(403, f"this seat is {player}'s: it cannot act for {by}")
            seen = data.get("event")
            if seen is not None and (type(seen) is not int):
                raise Refused(400, "event must be the number of the last event the page showed")
            if kind == "undo":
                status, out = await run(table.undo, player, seen)
                return woken(answer(out, status), "event" in out)
            text = data.get("move")
            if not isinstance(text, str):
                raise Refused(400, 'the body must be JSON {"move": "..."}')
            other = _speaker(text, seats.match.players)
            if other is not None and other != player:
                raise Refused(403, f"this seat is {player}'s: it cannot act for {other}")
            status, out = await run(table.move, player, text, seen, kind == "check")
            return woken(answer(out, status), kind == "move" and status == 200)
        except Refused as r:
            return answer({"error": r.why}, r.status)
        except RefereeError as e:
            return answer({"error": str(e)}, 400)

    tasks: set[asyncio.Task] = set()  # held until done (the loop keeps only weak references)

    def woken(response: Response, wrote: bool) -> Response:
        """The answer, and when something was recorded, every page told now (not at the
        reader's next look)."""
        if wrote and table.wake is not None:
            task = asyncio.create_task(table.wake())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        return response

    async def move(request: Request) -> Response:
        return await write(request, "move")

    async def check(request: Request) -> Response:
        return await write(request, "check")

    async def undo(request: Request) -> Response:
        return await write(request, "undo")

    async def state(request: Request) -> Response:
        if not host_ok(request.headers.get("host", ""), port):
            return answer({"error": "the Host is not this server"}, 400)
        token, _ = token_of(request.headers, port)
        try:
            return answer(await run(table.state, seats.player(token)))
        except RefereeError as e:
            return answer({"error": str(e)}, 400)

    return [Route("/api/move", move, methods=["POST"]),
            Route("/api/check", check, methods=["POST"]),
            Route("/api/undo", undo, methods=["POST"]),
            Route("/api/state", state, methods=["GET"])]


def _json_body(body: bytes) -> dict[str, Any]:
    try:
        data = orjson.loads(body or b"{}")
    except orjson.JSONDecodeError:
        raise Refused(400, 'the body must be JSON, e.g. {"move": "pass"}') from None
    if not isinstance(data, dict):
        raise Refused(400, 'the body must be a JSON object, e.g. {"move": "pass"}')
    return data


def _speaker(text: str, players) -> str | None:
    """The player a move names before a colon ("bob: draw"), as `referee play` reads it."""
    said, colon, rest = text.partition(":")
    if not colon or not rest.strip():
        return None
    return next((p for p in players if p.lower() == said.strip().lower()), None)


def _moved_on(seen: int | None, last: int, then: str = "") -> tuple[int, dict] | None:
    """409 when the page showed an earlier event than the table's last; 400 for a number no
    page could have shown (past the last event, or below 0): not a race, a bad request."""
    if seen is None or seen == last:
        return None
    if not 0 <= seen < last:
        return 400, {"error": f"event {seen} is not an event of this match (its last is "
                              f"{last})", "event": last}
    return 409, {"error": f"the table moved on: event {last} came after the event {seen} "
                          f"your page showed{then}", "event": last}
