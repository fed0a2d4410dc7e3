"""`pnp watch`: rebuild the PDF or a preview on every save (generator/watch.py)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.allow_option import allow_folder_option
from generator.cli import print_options


@click.command()
@click.argument("game")
@allow_folder_option
@click.option("--card", "card", metavar="ID|NAME|RANGE",
              help="Rebuild these cards' previews (PNG) instead of the PDF.")
@click.option("--page", type=click.IntRange(1), help="Rebuild this page's preview (PNG).")
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True,
              help="Resolution of the previews.")
@click.option("--component", metavar="NAME",
              help="A game of several components: whose cards --card shows.")
@print_options
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="File to write (default output/<game>.pdf, -card-ID.png or -page-N.png; a "
              "folder for several cards).")
def watch(game, card, page, dpi, component, opts, output) -> None:
    """Rebuild GAME's PDF (or --card / --page preview) whenever a file of its folder changes.

    A save with a mistake prints the error lines and keeps the last good output; each build
    prints its warnings. A mistake in an option (--card 99 of 8 cards) ends it at once.
    The print options are those of `pnp build`. Ctrl-C stops.
    """
    from generator.watch import Target
    from generator.watch import watch as watch_game
    from pnp_model.definition import find
    from pnp_model.errors import PnpError

    if card is not None and page is not None:
        raise PnpError("give --page or --card, not both", "pnp watch")
    root = find(game)

    def report(line: str, is_error: bool) -> None:
        click.echo(line, err=is_error)

    try:
        watch_game(root, Target(card, page, dpi, output, opts, component), report)
    except KeyboardInterrupt:
        pass
    click.echo("stopped watching")


COMMANDS = [watch]
