"""`--allow-folder DIR`: the option of every command that reads a definition (pnp_model.art_folders)."""

from __future__ import annotations

import click


def _allow(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    from pnp_model import art_folders

    art_folders.allow(value)  # every run sets it, so a folder allowed before is not kept


def _allow_url(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    from pnp_model import remote

    remote.allow(value)


def allow_folder_option(command):
    """Add `--allow-folder DIR` (repeatable) and `--allow-url` to a click command."""
    command = click.option(
        "--allow-url", is_flag=True, expose_value=False, callback=_allow_url,
        help="Read card lists given as URLs (file = \"https://...\"), keeping a copy for "
        "builds without the network.")(command)
    return click.option(
        "--allow-folder", "allow_folders", multiple=True, metavar="DIR", expose_value=False,
        callback=_allow, type=click.Path(exists=True, file_okay=False),
        help="Also read art and card lists from this folder, outside the game's (repeatable)."
    )(command)
