"""`referee look PHOTO`: the click command. Thin: find the game, read the photo, print.

Kept apart from cli.py, which loads it only when `look` is run: OpenCV (the `camera` extra)
is no other command's business.
"""

from __future__ import annotations

from pathlib import Path

import click

from referee.clictx import echo_json, store_of


@click.command("look")
@click.argument("photo", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", help="The game on the table (default: the current match's game).")
@click.option("--deck", type=click.Path(path_type=Path, file_okay=False),
              help="Your own copy's definition folder (what was printed), not the bundled one.")
@click.option("--pack", type=click.Path(path_type=Path, file_okay=False),
              help="A symbol deck's reference pack (`pnp export GAME --format look -o DIR`); "
                   "default: output/GAME-look/, made by running pnp when missing.")
@click.option("--turn", metavar="NAME",
              help="Who plays next: added to the position, so `referee new --position` takes "
                   "it as it is (a photo cannot tell).")
@click.option("--overlay", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the photo with what was read drawn on it (PNG or JPEG).")
@click.option("--json", "as_json", is_flag=True,
              help="Print per card its id, corners and center in photo pixels and its position.")
@click.pass_context
def look_cmd(ctx, photo, game, deck, pack, turn, overlay, as_json) -> None:
    """Read a photo of the table: the cards printed with `pnp build --markers` and where they
    lie, as a position file `referee new --position` takes; or a symbol deck's cards (Dobble)
    by their features, and the symbol two of them share. Cards it cannot read are listed
    as not seen, never guessed. Needs the camera extra: pip install 'pnp-toolkit[camera]'."""
    from referee.camera import opencv
    from referee.camera.look import look
    from referee.engine import RefereeError

    opencv()  # the missing extra is said first, whatever else is wrong
    if not photo.is_file():
        raise RefereeError(f"no photo {photo}", "PHOTO")
    if overlay is not None and overlay.exists() and overlay.samefile(photo):
        raise RefereeError(f"the overlay would be written over the photo {photo}: name "
                           "another file", "--overlay")
    # a pack names its deck: no game to ask for
    name = game if game is not None or pack is not None else _current_game(ctx)
    g = None if name is None else _marker_game(name)
    if g is None:  # a symbol deck, read by its features against its pack
        for flag, value in (("--deck", deck), ("--turn", turn)):
            if value is not None:
                raise RefereeError(f"{flag} is for a board read by its markers; a symbol "
                                   "deck is read against its pack (--pack DIR, made by `pnp "
                                   "export FOLDER --format look -o DIR`)", flag)
        return _symbols(name, photo, pack, overlay, as_json)
    if pack is not None:
        raise RefereeError(f"--pack is for a symbol deck; {name} is read by its markers "
                           "(your own copy: --deck FOLDER)", "--pack")
    data, _ = look(g, photo, str(deck) if deck else None)
    if turn:
        data["position"] += f"turn {turn}\n"
    if overlay is not None:
        from referee.camera import detect
        from referee.camera import overlay as drawing

        drawing.write(detect.load(photo, colour=True), data["cards"], data["not_seen"], overlay)
    if as_json:
        echo_json(data)
        return
    click.echo(data["position"], nl=False)
    for card in data["not_seen"]:
        what = "a face-down card" if card.get("face_down") else f"card {card['id']}"
        x, y = card["center"] or ("?", "?")
        click.echo(f"# not seen: {what} at {x:.0f},{y:.0f} px ({card['why']})"
                   if card["center"] else f"# not seen: {what} ({card['why']})")
    click.echo(f"# {len(data['cards'])} read, {len(data['not_seen'])} not seen"
               + (f"; overlay -> {overlay}" if overlay else ""), err=True)


COMMANDS = (look_cmd,)


def _marker_game(name: str):
    """The referee's rules of `name` when its cards are read by their markers; None for a
    symbol deck (a bundled template or a definition folder); a one-line error otherwise."""
    from referee import registry
    from referee.camera import reads_markers
    from referee.engine import RefereeError

    try:
        g = registry.game(name)
    except RefereeError:
        from pnp_model.catalog import bundled

        if name in bundled() or (Path(name) / "game.toml").is_file():
            return None
        raise RefereeError(f"no game {name!r}: not one the referee reads from photos "
                           f"({', '.join(_photo_games())}), a bundled template, nor a folder "
                           "with game.toml", "--game") from None
    if not reads_markers(g):
        raise RefereeError(f"{name} is not read from photos: `referee look` reads the markers "
                           f"of {', '.join(_photo_games())}, and symbol decks such as dobble",
                           "--game")
    return g


def _photo_games() -> list[str]:
    from referee import registry
    from referee.camera import reads_markers

    return [n for n, g in registry.games().items() if reads_markers(g)]


def _symbols(game, photo, pack, overlay, as_json) -> None:
    """A symbol deck read against its reference pack: the cards, and the symbol two share."""
    from referee.camera import detect, symbol_deck
    from referee.camera import overlay as drawing
    from referee.camera import pack as packs
    from referee.engine import RefereeError

    folder = pack or packs.default_folder(game)
    if pack is None and not (folder / packs.PACK).is_file():
        click.echo(f"# making the reference pack: pnp export {game} --format look -o {folder}",
                   err=True)
        packs.make(game, folder)
    made_of = packs.deck_of(folder)
    if game is not None and made_of is not None and made_of != packs.deck_name(game):
        # a pack of another deck names none of the photo's cards: it reads as nothing
        raise RefereeError(f"the pack in {folder} is of {made_of}, not of {game}", "--pack")
    game = game or made_of
    ref = symbol_deck.reference(folder)
    image = detect.load(photo, colour=True)
    data = {"game": game} | symbol_deck.read(ref, image, str(photo))
    if overlay is not None:
        drawing.write(image, symbol_deck.outlines(ref, data), [], overlay,
                      circles=symbol_deck.circles(data))
    if as_json:
        echo_json(data)
        return
    for card in data["cards"]:
        x, y = card["center"]
        click.echo(f"{card['id']} at {x:.0f},{y:.0f} px")
    for s in data["shared"]:
        click.echo(f"{s['cards'][0]} and {s['cards'][1]} share: {s['symbol']}")
    click.echo(f"# {len(data['cards'])} card(s) read; a card not listed was not seen"
               + (f"; overlay -> {overlay}" if overlay else ""), err=True)


def _current_game(ctx) -> str:
    """The current match's game; with no database (or no match) the user names it."""
    from referee.engine import RefereeError
    from referee.record import default_path

    db = ctx.find_root().obj.get("db")
    if Path(db if db is not None else default_path()).is_file():
        from referee import registry
        from referee.camera.pack import table_deck

        try:
            match = store_of(ctx).current()
            # a score sheet kept for a symbol deck: that deck is on the table
            return table_deck(registry.game(match.game), match.options) or match.game
        except RefereeError:
            pass
    raise RefereeError("say which game is on the table: --game GAME (one of "
                       f"{', '.join(_photo_games())}, or a symbol deck such as dobble)", "--game")
