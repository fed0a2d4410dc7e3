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
@click.option("--no-open", is_flag=True, help="Do not open the page in a browser.")
@click.pass_context
def serve_cmd(ctx, match_id, port, lan, no_open) -> None:
    """A read-only page of the match for the phones and the TV at the table: players and
    totals, whose turn, the last ruling, the score by round and the board drawn as a picture;
    it follows every move typed in any terminal."""
    from pnp_shared import web
    from referee.table_page.app import build
    from referee.table_page.reader import Reader

    store = store_of(ctx)
    if match_id is not None:
        store.match(match_id)  # an unknown match is a one-line error before anything listens
    path = Path(store.path)
    where = web.address(port, lan)
    _check_free(where.host, where.port)
    app = build(Reader(path, match_id))
    what = "the table page" + (f" of match {match_id}" if match_id else "")
    try:
        web.run(app, where, open_browser=not no_open, ready=lambda: web.announce(where, what))
    except KeyboardInterrupt:  # Ctrl-C is how the page is stopped: not an error
        pass
    click.echo("the table page is stopped")


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
