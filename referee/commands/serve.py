"""`referee serve`: the click command. Thin: check the options, build the app, serve it.

Kept apart from cli.py, which loads it only when `serve` is run: the web server's imports
(Starlette, uvicorn, Jinja2) are no other command's business.
"""

from __future__ import annotations

from pathlib import Path

import click

from referee.clictx import store_of


@click.command("serve")
@click.option("--match", "match_id", type=int,
              help="Show this match (default: the current one, following `referee use` and "
                   "`referee new`).")
@click.option("--port", type=click.IntRange(1, 65535),
              help="The port to listen on (default: a free one, printed).")
@click.option("--lan", is_flag=True,
              help="Let phones on this network open the page: the link carries a random token "
                   "(printed, and as a QR code); a request without it is refused.")
@click.option("--seats", is_flag=True,
              help="Each player enters their own moves from their phone: prints one link (and "
                   "QR code) per player, each with that seat's own token.")
@click.option("--clock", "game_clock", metavar="TIME",
              help="Warn when a player's time on turn passes TIME over the match (30m, 1h).")
@click.option("--turn", "turn_clock", metavar="TIME",
              help="Warn when a turn lasts longer than TIME (90s, 2m).")
@click.option("--no-open", is_flag=True, help="Do not open the page in a browser.")
@click.pass_context
def serve_cmd(ctx, match_id, port, lan, seats, game_clock, turn_clock, no_open) -> None:
    """The match's page for the phones and the TV at the table: players and
    totals, whose turn, the last ruling, the score by round and the board drawn as a picture;
    it follows every move typed in any terminal.

    With --seats, each player enters their own moves from their phone; --turn and --clock
    warn on every page when time runs out."""
    from pnp_shared import web
    from referee.table_page.app import build
    from referee.table_page.reader import Reader

    store = store_of(ctx)
    limits = _limits(game_clock, turn_clock)
    if match_id is not None:
        store.match(match_id)  # an unknown match is a one-line error before anything listens
    elif seats:  # the seats are one match's: the page stays on it
        match_id = store.current().id
    path = Path(store.path)
    where = web.address(port, lan)
    _check_free(where.host, where.port)
    what = "the table page" + (f" of match {match_id}" if match_id else "")
    seat_page, announce = None, (lambda: web.announce(where, what))
    if seats:
        from referee.seats.serving import seating

        seat_page, announce = seating(store.match(match_id), path, where, what)
    app = build(Reader(path, match_id), seat_page, limits)
    try:
        web.run(app, where, open_browser=not no_open, ready=announce)
    except KeyboardInterrupt:  # Ctrl-C is how the page is stopped: not an error
        pass
    click.echo("the table page is stopped")


def _limits(game_clock: str | None, turn_clock: str | None) -> dict[str, float | None]:
    """--clock and --turn in seconds (a time that is none: a one-line error)."""
    if game_clock is None and turn_clock is None:
        return {}
    from referee.seats.clock import duration

    return {"game": duration(game_clock, "--clock") if game_clock else None,
            "turn": duration(turn_clock, "--turn") if turn_clock else None}


def _check_free(host: str, port: int) -> None:
    """A port another program holds is a one-line error before the URL is printed."""
    import socket

    from referee.engine import RefereeError

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds it
        try:
            s.bind((host, port))
        except OSError as e:
            raise RefereeError(f"cannot listen on port {port}: {e.strerror or e} (another "
                               "program has it: pick another port, or leave --port out for a "
                               "free one)", "--port") from None


COMMANDS = [serve_cmd]
