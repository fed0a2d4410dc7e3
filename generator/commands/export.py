"""`pnp export`: per-card PNGs for print shops, Tabletop Simulator decks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from generator.allow_option import allow_folder_option


def _length(flag: str):
    def parse(ctx, param, value):
        from pnp_model.definition import print_length

        return None if value is None else print_length(value, flag)

    return parse


@click.command()
@click.argument("game")
@allow_folder_option
@click.option("--format", "fmt", type=click.Choice(["png", "tts"]), default="png",
              show_default=True, help="png: one image per distinct card; tts: Tabletop Simulator.")
@click.option("--shop", help="Print shop preset (sizes, bleed, naming): thegamecrafter, "
              "makeplayingcards, printerstudio, drivethrucards (PDF/X-1a); see docs/guides/print-shop.md.")
@click.option("--dpi", type=click.IntRange(30, 1200), help="Pixels per inch (png: 300, tts: 150).")
@click.option("--bleed", callback=_length("--bleed"), help="Bleed around each card (png; default: the "
              "definition's). TTS cards have none.")
@click.option("--base-url", metavar="URL", help="tts: where you will host the sheets (the JSON's "
              "image URLs are URL/sheet-1.png...), so other players at the table see the cards; "
              "default: file:// URLs of this machine.")
@click.option("--part", "parts", multiple=True, help="Only these parts ('all' for every part).")
@click.option("--markers/--no-markers", default=None, help="Each card's fiducial marker where "
              "the design reserves room, as `pnp build --markers` prints it (default: [print] "
              "markers).")
@click.option("--workers", type=click.IntRange(1, 64), help="Processes that render (default: "
              "the cores, up to 4).")
@click.option("-o", "--output", type=click.Path(path_type=Path, file_okay=False),
              help="Folder to write (default output/<game>-<format>/).")
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
def export(game, fmt, shop, dpi, bleed, base_url, parts, markers, workers, output,
           as_json) -> None:
    """Export GAME's cards as images: each distinct face once, with a manifest.

    PNGs have exact pixel sizes (round(inches × dpi), bleed included), carry their dpi, and
    have no cut guides; round and hex cards are on a transparent background.
    """
    from generator.naming import output_stem
    from pnp_model.definition import load

    if base_url is not None and fmt != "tts":
        raise click.UsageError("--base-url is for --format tts")
    deck = load(game)
    cards = _cards(deck, parts)
    if deck.print.markers if markers is None else markers:
        from generator.markers import marked

        cards = marked(deck, cards, "--markers" if markers else "[print] markers")
    workers = workers or min(4, os.cpu_count() or 1)
    folder = output or Path("output") / f"{output_stem(deck)}-{shop or fmt}"
    with _progress(len(cards) * 2, deck.name, quiet=as_json) as bar:
        if shop:
            from generator.shops import export_for_shop

            data = export_for_shop(deck, cards, shop, folder, workers=workers,
                                   progress=bar.update)
            from generator.preflight import check as preflight

            data["preflight"] = [str(f) for f in preflight(deck, cards)]
            summary = (f"{deck.name}: {data['size']} cards for {data['shop']} -> "
                       f"{data.get('pdf') or folder}")
        elif fmt == "tts":
            from generator.tts import export_tts

            data = export_tts(deck, cards, folder, dpi=dpi or 150, base_url=base_url,
                              workers=workers, progress=bar.update)
            backs = ", per-card backs" if data["unique_back"] else ""
            summary = (f"{deck.name}: {data['cards']} cards on {len(data['sheets'])} TTS "
                       f"sheet(s){backs} -> {folder / data['json']}")
            if not base_url:
                summary += ("\nthe images are file:// URLs of this machine: for a shared table, "
                            "host them and export with --base-url URL")
        else:
            from generator.exports import export_png

            rows = export_png(deck, cards, folder, dpi=dpi or 300, bleed=bleed, workers=workers,
                              progress=bar.update)
            data = [r.__dict__ | {"ids": list(r.ids)} for r in rows]
            summary = (f"{deck.name}: {len(rows)} distinct faces of {len(cards)} cards -> "
                       f"{folder}/ (manifest.csv, manifest.json)")
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in data.get("preflight", []) if shop else []:
        click.echo(f"preflight: {line}", err=True)
    click.echo(summary)


@click.command()
@click.argument("game")
@allow_folder_option
@click.option("--part", "parts", multiple=True, help="Only these parts ('all' for every part).")
@click.option("--safe", callback=_length("--safe"), help="Safe zone inside the trim (default: "
              "the definition's [print] safe, else 3mm).")
@click.option("--target", type=click.Choice(["shop", "home"]), default="shop", show_default=True,
              help="Where the cards are printed: the ppi floor for art is 300 for a print shop, "
              "200 for a home printer.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def check(game, parts, safe, target, as_json) -> None:
    """Preflight GAME as a print shop would: low-resolution art, tiny text, text in the safe
    zone margin, fonts not embedded. Exit code 1 when anything is found.

    A problem repeated on many cards is one line naming the file and counting the cards."""
    from generator.preflight import check as preflight
    from pnp_model.definition import load

    deck = load(game)
    findings = preflight(deck, _cards(deck, parts), safe, target)
    if as_json:
        click.echo(json.dumps([f.__dict__ | {"cards": list(f.cards)} for f in findings],
                              indent=2, ensure_ascii=False))
    else:
        for f in findings:
            click.echo(str(f))
        click.echo(f"{deck.name}: {len(findings) or 'no'} preflight finding(s)")
    if findings:
        sys.exit(1)


def _cards(deck, parts):
    from generator.build import cards_of

    return cards_of(deck, tuple(parts)) if parts else deck.select()


class _Quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int) -> None:
        pass


def _progress(total: int, label: str, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return _Quiet()
    return click.progressbar(length=total, label=label, file=sys.stderr)


COMMANDS = [export, check]
