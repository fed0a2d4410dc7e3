"""`pnp serve`: the designer's live page (generator/serve/). The web server's libraries are
imported here, when the command runs, never when `pnp` starts."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli import print_options


@click.command()
@click.argument("game")
@print_options
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="The PDF to write, as for pnp build (default output/<game>.pdf).")
@click.option("--port", type=click.IntRange(1, 65535),
              help="Port to listen on (default: a free one, printed).")
@click.option("--lan", is_flag=True, help="Let other devices on this network open the page: "
              "the URL then carries a random token, printed with a QR code.")
@click.option("--open/--no-open", "open_browser", default=True, show_default=True,
              help="Open the page in the default browser.")
def serve(game, opts, output, port, lan, open_browser) -> None:
    """Show GAME's printed pages and each card in a browser, updated on every save.

    Builds the PDF as `pnp build` does with the same options, and shows its pages as they
    print, every card alone (front and back, with trim, bleed and safe-area overlays) and the
    build's warnings; "Seen by" shows every image as protanopia, deuteranopia or tritanopia
    sees it (the models `pnp check` judges with). A save with a mistake shows its errors and
    keeps the last good pages.
    Runs until Ctrl-C.
    """
    import threading

    from generator.serve.app import Hub, create_app
    from generator.serve.live import LiveBuild, watch_and_rebuild
    from pnp_model.definition import find
    from pnp_shared.web import address, announce, run

    find(game)  # a name that is no game is a one-line error before anything starts
    live = LiveBuild(game, opts, output)
    hub = Hub(live)
    stop = threading.Event()
    watcher = threading.Thread(target=watch_and_rebuild, args=(live, hub.publish, stop),
                               name="pnp-serve-watch", daemon=True)
    where = address(port, lan)
    _check_free(where.host, where.port)
    app = create_app(live, hub)  # its Host and Origin are checked by pnp_shared.web
    watcher.start()
    try:
        run(app, where, open_browser, ready=lambda: announce(where, f"{game}: the live page"))
    except KeyboardInterrupt:  # uvicorn passes Ctrl-C on once it has stopped
        pass
    finally:
        stop.set()
        watcher.join(timeout=2)
    click.echo("stopped serving")


def _check_free(host: str, port: int) -> None:
    """A port already taken is a one-line error before anything is announced."""
    import socket

    from pnp_model.errors import PnpError

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            s.bind((host, port))
        except OSError as e:
            raise PnpError(f"cannot listen on port {port}: {e.strerror or e} (another pnp "
                           "serve? leave --port out for a free one)", "--port") from None


COMMANDS = [serve]
