"""`pnp printer`: save, list, show and remove printer profiles (generator/printers/)."""

from __future__ import annotations

import json

import click

from generator.cli import margin_value, offset_value


@click.group()
def printer() -> None:
    """Printer profiles: a printer's back offset, flip edge and margin, applied to every build."""


@printer.command()
@click.argument("name")
@click.option("--back-offset", callback=offset_value, metavar="X,Y",
              help="What `pnp calibrate` measured, e.g. 1mm,-0.5mm.")
@click.option("--flip", type=click.Choice(["long", "short"]), help="The duplex flip edge.")
@click.option("--margin", callback=margin_value, help="The edge the printer cannot print, e.g. 5mm "
              "(default 6mm; at most 50mm).")
@click.option("--default", "make_default", is_flag=True,
              help="Use it for every build without --printer (the first profile saved is).")
def save(name, back_offset, flip, margin, make_default) -> None:
    """Save (or update) the printer profile NAME."""
    from generator.printers import profiles

    profile = profiles.save(name, back_offset, flip, margin, make_default)
    default, _ = profiles.listed()
    click.echo(f"saved printer {name}: {profiles.described(profile)}"
               f"{' (default)' if default == name else ''} -> {profiles.config_file()}")


@printer.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the profiles as JSON.")
def list_(as_json) -> None:
    """List the saved printer profiles; * marks the default."""
    from generator.printers import profiles

    default, printers = profiles.listed()
    if as_json:
        click.echo(json.dumps({"default": default, "printers": printers}, indent=2))
        return
    if not printers:
        click.echo("no printer profiles (save one with `pnp printer save NAME`)")
    for name, p in sorted(printers.items()):
        click.echo(f"{'*' if name == default else ' '} {name}: {profiles.described(p)}")


@printer.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the profile as JSON.")
def show(name, as_json) -> None:
    """Show the printer profile NAME."""
    from generator.printers import profiles

    p = profiles.get(name)
    default, _ = profiles.listed()
    if as_json:
        click.echo(json.dumps({"name": name, "default": default == name, **p}, indent=2))
        return
    click.echo(f"{name}{' (default)' if default == name else ''}: {profiles.described(p)}")


@printer.command()
@click.argument("name")
def remove(name) -> None:
    """Remove the printer profile NAME."""
    from generator.printers import profiles

    profiles.remove(name)
    click.echo(f"removed printer {name}")


COMMANDS = (printer,)
