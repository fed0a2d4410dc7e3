"""A photo of the table from a seat's phone: `POST /api/photo` reads it as `referee look`
does and answers the position it proposes with its overlay (`GET /api/photo/KEY.jpg`);
nothing is recorded until the player confirms (`POST /api/photo/dispute`), and then as
`referee new --position` records a dispute's position: a scratch match, the same checks. A
table of a symbol deck (a score sheet kept for Dobble: the game's photo_deck) is read by the
cards' features against the pack `referee look` reads, and shows the cards and the symbol two
share, with no position to confirm.

Why the last reading is kept on the server (one per seat): the player confirms what they saw,
not a position the page sends back, so no other text can slip in between. Why the header first
(referee/camera/header.py): an upload that is no photo, or a decompression bomb, is refused
before OpenCV decodes a pixel. OpenCV is imported in the reading thread, on the first photo.
"""

from __future__ import annotations

import asyncio
import importlib.util
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from referee.engine import RefereeError, Rules
from referee.seats.guard import Refused, body_of, check_origin, host_ok, token_of

PHOTO_LIMIT = 25 * 1024 * 1024  # bytes: a 12 MP phone JPEG is 3-8 MB, a 50 MP one under 25
OVERLAY_SIDE = 1600  # pixels across the overlay the page shows: a phone's screen, zoomed twice
WAITING = 2  # photos read or waiting at once; more are told to wait (each holds its pixels)


def readable(game: Rules, options: dict[str, str]) -> str | None:
    """What the seat panel offers: "ready" (the button), "install" (the button says how to
    install OpenCV), or None for a table no photo is read of: a game that reads no markers
    and names no symbol deck."""
    from referee.camera import reads_markers
    from referee.camera.pack import table_deck

    if not reads_markers(game) and table_deck(game, options) is None:
        return None
    return "ready" if importlib.util.find_spec("cv2") is not None else "install"


class Photos:
    """The last photo read from each seat, and the thread that reads them (not the writer's:
    a photo being read holds up no move)."""

    def __init__(self, table: Any):
        self.table = table
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="photo-reader")
        self.last: dict[str, dict[str, Any]] = {}
        self.busy = 0
        self._store = None  # the reading thread's own, for the match as it stands

    def read(self, player: str, data: bytes) -> dict[str, Any]:
        """In the reading thread: the photo read, its overlay kept for the seat."""
        from referee import registry
        from referee.camera import INSTALL, detect, overlay
        from referee.camera.look import read
        from referee.camera.pack import table_deck

        match = self.table.seats.match
        game = registry.game(match.game)
        if readable(game, match.options) is None:  # said before a pixel is decoded
            raise RefereeError(f"{game.name} is not read from photos yet", "photo")
        if importlib.util.find_spec("cv2") is None:
            raise RefereeError(f"reading a photo needs OpenCV on the computer running "
                               f"`referee serve`: {INSTALL}", "photo")
        deck = table_deck(game, match.options)
        if deck is not None:
            return self.read_symbols(player, deck, data)
        image = detect.decode(data, "the photo", "photo", colour=True)
        out, cells = read(game, image, "the photo")
        move, why, to_move = self.table_now(game, cells)
        # who plays next, which a photo cannot tell: the match's, as `look --turn` adds it
        # (a game played all at once has no turn to say)
        proposed = out["position"] + (f"turn {to_move}\n" if to_move else "")
        picture = overlay.encode(image, out["cards"], out["not_seen"], ".jpg", OVERLAY_SIDE,
                                 crop=True)
        key = self.keep(player, proposed, picture)
        return {"key": key, "overlay": f"api/photo/{key}.jpg", "position": proposed,
                "read": len(out["cards"]), "size": out["size"], "move": move, "move_why": why,
                "not_seen": [{"id": c["id"], "why": c["why"]} for c in out["not_seen"]],
                "kind": "markers", "cards": [], "shared": []}

    def read_symbols(self, player: str, deck: str, data: bytes) -> dict[str, Any]:
        """A symbol deck's cards found by their features against its reference pack, where
        `referee look` finds it (output/DECK-look/), and for every two the symbol they share;
        no position: nothing to confirm, the overlay settles "that's not a match!"."""
        from referee.camera import detect, overlay, symbol_deck
        from referee.camera import pack as packs

        folder = packs.default_folder(deck)
        if not (folder / packs.PACK).is_file():
            raise RefereeError(f"no reference pack of {deck} in {folder}/ where `referee serve` "
                               f"runs: make it there with `pnp export {deck} --format look`, "
                               "then send the photo again", "photo")
        ref = symbol_deck.reference(folder)
        image = detect.decode(data, "the photo", "photo", colour=True)
        out = symbol_deck.read(ref, image, "the photo")
        picture = overlay.encode(image, symbol_deck.outlines(ref, out), [], ".jpg",
                                 OVERLAY_SIDE, crop=True, circles=symbol_deck.circles(out))
        key = self.keep(player, None, picture)
        return {"key": key, "overlay": f"api/photo/{key}.jpg", "position": "", "kind": "symbols",
                "read": len(out["cards"]), "size": out["size"], "move": None, "move_why": "",
                "not_seen": [], "cards": [c["id"] for c in out["cards"]],
                "shared": [{"cards": s["cards"], "symbol": s["symbol"]} for s in out["shared"]]}

    def keep(self, player: str, position: str | None, picture: bytes) -> str:
        """The seat's last reading kept (its position to confirm, its overlay to show)."""
        key = secrets.token_urlsafe(9)
        self.last[player] = {"key": key, "position": position, "overlay": picture}
        return key

    def table_now(self, game: Rules, cells: dict[int, Any]
                  ) -> tuple[str | None, str, str | None]:
        """(The move the photo shows from the match as it stands (the game says, photo_move),
        why none, who is to move), read with this thread's own store (SQLite connections
        stay in their thread)."""
        from referee import session
        from referee.record import Store

        if self._store is None:
            self._store = Store(self.table.path)
        current = session.load(self._store, self.table.match_id)
        if current.outcome():
            return None, "the match is over", None
        return (*game.photo_move(current.state, cells), game.to_move(current.state))

    def dispute(self, player: str, key: str) -> tuple[int, dict[str, Any]]:
        """In the writer's thread: the seat's last photo's position, confirmed, becomes a
        scratch match as `referee new GAME --position` makes it."""
        from referee import session

        got = self.last.get(player)
        if got is None or not secrets.compare_digest(got["key"], key):
            return 409, {"error": "that is not the last photo read from your seat: take it "
                                  "again"}
        if got["position"] is None:
            return 409, {"error": "a photo of a symbol deck shows no position to settle a "
                                  "dispute from"}
        match = self.table.seats.match
        made = session.new_match(self.table.store, match.game, match.players, match.options,
                                 got["position"])
        return 200, {"match": made.match.id, "link": f"?match={made.match.id}",
                     "back": f"referee use {match.id}"}


def routes(photos: Photos, port: int) -> list[Route]:
    """The photo's routes, for the seat page."""
    seats = photos.table.seats

    def seat_of(request: Request, write: bool) -> str:
        if not host_ok(request.headers.get("host", ""), port):
            raise Refused(400, "the Host is not this server")
        token, from_cookie = token_of(request.headers, port)
        player = seats.player(token)
        if player is None:
            raise Refused(403, "this needs a seat's token: open your seat's link")
        if write:
            check_origin(request.headers, port, from_cookie)
        return player

    async def upload(request: Request) -> Response:
        from referee.seats.api import answer

        try:
            player = seat_of(request, write=True)
            photos.table.pace.take(player)
            if photos.busy >= WAITING:
                raise Refused(429, "other photos are being read: wait a moment and send again")
            photos.busy += 1
            try:
                try:
                    data = await body_of(request, PHOTO_LIMIT)
                except Refused as r:
                    if r.status == 413:
                        raise Refused(413, f"the photo is over {PHOTO_LIMIT >> 20} MB: take it "
                                           "again at a lower resolution") from None
                    raise
                if not data:
                    raise Refused(400, "no photo was sent")
                out = await asyncio.get_running_loop().run_in_executor(
                    photos.pool, photos.read, player, data)
            finally:
                photos.busy -= 1
            return answer(out)
        except Refused as r:
            return answer({"error": r.why}, r.status)
        except RefereeError as e:
            return answer({"error": e.what}, 400)

    async def picture(request: Request) -> Response:
        from referee.seats.api import answer

        try:
            player = seat_of(request, write=False)
        except Refused as r:
            return answer({"error": r.why}, r.status)
        got = photos.last.get(player)
        if got is None or not secrets.compare_digest(got["key"], request.path_params["key"]):
            return answer({"error": "no such photo of your seat (only the last one is kept)"},
                          404)
        return Response(got["overlay"], media_type="image/jpeg",
                        headers={"cache-control": "no-store"})

    async def dispute(request: Request) -> Response:
        import orjson

        from referee.seats.api import answer

        try:
            player = seat_of(request, write=True)
            photos.table.pace.take(player)
            try:
                key = orjson.loads(await body_of(request) or b"{}")
            except orjson.JSONDecodeError:
                key = None
            key = key.get("photo") if isinstance(key, dict) else None
            if not isinstance(key, str):
                raise Refused(400, 'the body must be JSON {"photo": "KEY"}')
            status, out = await asyncio.get_running_loop().run_in_executor(
                photos.table.pool, photos.dispute, player, key)
            return answer(out, status)
        except Refused as r:
            return answer({"error": r.why}, r.status)
        except RefereeError as e:
            return answer({"error": str(e)}, 400)

    return [Route("/api/photo", upload, methods=["POST"]),
            Route("/api/photo/dispute", dispute, methods=["POST"]),
            Route("/api/photo/{key}.jpg", picture, methods=["GET"])]
