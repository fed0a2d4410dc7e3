"""The seat's part of the table page: the panel of the player whose link opened it, and the
routes it needs (the API, its script). The table page stays the same for everyone else.

Why a cookie: the link carries the token once (`?seat=...`); the page keeps it in an HttpOnly
cookie of its port, so the page's script never holds the token and the API accepts it only
with the page's own Origin (referee/seats/guard.py).
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from referee.seats import api, photo
from referee.seats.guard import cookie_name, token_of

HERE = Path(__file__).parent


class SeatPage:
    """What `referee serve --seats` adds to the table page's app."""

    def __init__(self, table: api.Table, port: int):
        self.table = table
        self.port = port
        self.photos = photo.Photos(table)
        self.templates = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                            autoescape=True)

    def routes(self) -> list[Route | Mount]:
        return [*api.routes(self.table, self.port), *photo.routes(self.photos, self.port),
                Mount("/seat-static", StaticFiles(directory=HERE / "static"), name="seat")]

    def panel(self, request: Request) -> tuple[str, str | None] | Response:
        """The seat panel's HTML and the cookie to set, "" for a page opened without a seat,
        or 403 for a seat link that is not this match's."""
        seats = self.table.seats
        given = request.query_params.get("seat")
        if given is not None:
            player = seats.player(given)
            if player is None:
                return PlainTextResponse(
                    f"403: this seat link is not one of match {seats.match.id}'s (an old link? "
                    "the terminal running `referee serve --seats` prints them)\n", 403)
            cookie = (f"{cookie_name(self.port)}={given}; HttpOnly; SameSite=Strict; Path=/")
        else:
            player, cookie = seats.player(token_of(request.headers, self.port)[0]), None
        if player is None:
            return "", None
        from referee import registry
        from referee.camera import INSTALL

        game = registry.game(seats.match.game)
        html = self.templates.get_template("seat.html").render(
            player=player, match=seats.match.id, players=seats.match.players,
            photo=photo.readable(game, seats.match.options), install=INSTALL,
            secrets=takes_secrets(game))
        return html, cookie


def takes_secrets(game) -> bool:
    """Whether the game takes secret input (Coda's passphrases): then a move typed on its seat
    page may hold one, and the page keeps no draft of what is typed (seat.js)."""
    from referee.engine import Rules

    return type(game).secret_move is not Rules.secret_move
