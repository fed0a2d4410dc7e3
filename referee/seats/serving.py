"""`referee serve --seats`: the seats of the match served, and the links printed for them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from pnp_shared import web
from referee.record import Match
from referee.seats.api import Table
from referee.seats.page import SeatPage
from referee.seats.tokens import Seats


def seating(match: Match, path: Path, where: web.Address,
            what: str) -> tuple[SeatPage, Callable[[], None]]:
    """The seat page for the app, and what to print once the server listens."""
    seats = Seats(match)
    page = SeatPage(Table(path, seats), where.port)

    def announce(out=None) -> None:
        out = out or sys.stdout
        web.announce(where, what, out)
        import segno

        for player in match.players:
            link = seats.link(where.url, player)
            print(f"{player}'s seat: {link}", file=out)
            segno.make(link, error="l").terminal(out=out, compact=True)
        print("Each link is that player's own: whoever opens it enters moves as that player. "
              "The links stay valid when the server is started again.", file=out)
        out.flush()

    return page, announce
