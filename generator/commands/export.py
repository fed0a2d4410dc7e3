"""`pnp export`: per-card PNGs for print shops, Tabletop Simulator decks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from generator.allow_option import allow_folder_option
from generator.cli import margin_value
from pnp_model.errors import PnpError
from pnp_shared.counts import plural
from pnp_shared.files import staged_folder


def _length(flag: str):
    def parse(ctx, param, value):
        from pnp_model.definition import print_length

        return None if value is None else print_length(value, flag)

    return parse


@click.command()
@click.argument("game")
@allow_folder_option
@click.option("--format", "fmt", type=click.Choice(["png", "tts", "cgs", "cut", "look"]),
              default="png", show_default=True, help="png: one image per distinct card; tts: "
              "Tabletop Simulator; cgs: Card Game Simulator's game folder; cut: each sheet's cut "
              "lines as SVG and DXF for a cutting machine; look: the reference pack `referee "
              "look` reads photos against (renders, look.json: each card's symbols).")
@click.option("--cutter", type=click.Choice(["silhouette", "cricut", "brother"]),
              help="cut: the sheet laid out as `pnp build --cutter` lays it out.")
@click.option("--paper", help="cut: the paper, as for `pnp build --paper`.")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]),
              help="cut: as for `pnp build --orientation`.")
@click.option("--gutter", callback=_length("--gutter"), help="cut: as for `pnp build --gutter`.")
@click.option("--margin", callback=margin_value, help="cut: as for `pnp build --margin`.")
@click.option("--printer", metavar="NAME", help="cut: as for `pnp build --printer` (default: "
              "the default printer profile, as the build applies it).")
@click.option("--component", metavar="NAME", help="cut: a game of several components: the "
              "component whose cut lines to write, laid out as `pnp build --only NAME` prints it.")
@click.option("--shop", help="Print shop preset (sizes, bleed, naming): thegamecrafter, "
              "makeplayingcards, printerstudio, drivethrucards, printninja (PDF/X-1a); see "
              "docs/guides/print-shop.md.")
@click.option("--dpi", type=click.IntRange(30, 1200), help="Pixels per inch (png: 300, tts: 150, "
              "cgs: 300).")
@click.option("--bleed", callback=_length("--bleed"), help="Bleed around each card (png; default: the "
              "definition's). TTS cards have none.")
@click.option("--base-url", metavar="URL", help="tts: where you will host the sheets (the JSON's "
              "image URLs are URL/sheet-1.png...), so other players at the table see the cards; "
              "default: file:// URLs of this machine. cgs: where the game folder will be hosted, "
              "so CGS can download it from URL/cgs.json.")
@click.option("--part", "parts", multiple=True, help="Only these parts ('all' for every part).")
@click.option("--markers/--no-markers", default=None, help="Each card's fiducial marker where "
              "the design reserves room, as `pnp build --markers` prints it (default: [print] "
              "markers).")
@click.option("--workers", type=click.IntRange(1, 64), help="Processes that render (default: "
              "the cores, up to 4).")
@click.option("-o", "--output", type=click.Path(path_type=Path, file_okay=False),
              help="Folder to write (default output/<game>-<format>/).")
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
def export(game, fmt, shop, dpi, bleed, base_url, parts, markers, workers, output, as_json,
           cutter, paper, orientation, gutter, margin, printer, component) -> None:
    """Export GAME's cards as images: each distinct face once, with a manifest.

    PNGs have exact pixel sizes (round(inches × dpi), bleed included), carry their dpi, and
    have no cut guides; round and hex cards are on a transparent background.
    """
    from generator.naming import output_stem
    from pnp_model.game import load_game

    if base_url is not None and fmt not in ("tts", "cgs"):
        raise click.UsageError("--base-url is for --format tts or cgs")
    if shop and fmt in ("tts", "cut", "look"):  # else one of the two was silently dropped
        raise click.UsageError(f"--shop writes the files a print shop takes, not --format {fmt}: "
                               "give one of them")
    if shop and fmt != "cgs" and (dpi is not None or bleed is not None):
        raise click.UsageError("--shop uses the dpi and bleed the shop asks for: drop "
                               f"{'--dpi' if dpi is not None else '--bleed'}")
    sheet = {"cutter": cutter, "paper": paper, "orientation": orientation, "gutter": gutter,
             "margin": margin, "printer": printer}
    given = [f"--{name}" for name, value in sheet.items() if value is not None]
    if given and fmt != "cut":
        raise click.UsageError(f"{', '.join(given)}: for --format cut (the sheet the cut lines "
                               "are for)")
    if component is not None and fmt != "cut":
        raise click.UsageError("--component is for --format cut (a whole game's other formats "
                               "export every component)")
    whole = load_game(game)
    if component is not None:
        whole.needs_components("--component")
    if fmt == "cgs":
        return _export_cgs(whole, shop, dpi, parts, base_url, workers, output, as_json)
    if whole.whole and fmt == "cut":
        deck = _cut_component(whole, component)
    elif whole.whole:
        if fmt == "look":
            raise click.UsageError("--format look takes one deck: export a component "
                                   "from a game folder of that deck alone")
        _export_whole(whole, fmt, shop, dpi, bleed, base_url, parts, workers, output, as_json)
        return
    else:
        deck = whole.components[0].deck
    if fmt == "cut":
        return _export_cut(deck, sheet, bleed, parts, output, as_json)
    cards = _cards(deck, parts)
    if deck.print.markers if markers is None else markers:
        from generator.markers import marked

        cards = marked(deck, cards, "--markers" if markers else "[print] markers")
    if not shop:  # a shop export says it among its preflight lines
        _warn_missing_characters([(deck, cards)])
    workers = workers or min(4, os.cpu_count() or 1)
    folder = output or Path("output") / f"{output_stem(deck)}-{shop or fmt}"
    with _progress(len(cards) * 2, deck.name, quiet=as_json) as bar, \
            staged_folder(folder) as into:
        if shop:
            from generator.shops import export_for_shop

            data = export_for_shop(deck, cards, shop, into, workers=workers,
                                   progress=bar.update)
            from generator.preflight import check as preflight
            from generator.shops import shop as preset

            s = preset(shop)
            data["preflight"] = [str(f) for f in preflight(deck, cards, s.safe_points(),
                                                           min_text=s.min_text_pt)]
            summary = (f"{deck.name}: {plural(data['size'], 'card')} for {data['shop']} -> "
                       f"{data.get('pdf') or folder}")
        elif fmt == "look":
            from generator.lookpack.pack import PACK, export_look

            data = export_look(deck, cards, into, dpi=dpi or 150, workers=workers,
                               progress=bar.update)
            summary = (f"{deck.name}: reference pack of {plural(len(data['cards']), 'face')} -> "
                       f"{folder / PACK}")
        elif fmt == "tts":
            from generator.tts import export_tts

            data = export_tts(deck, cards, into, dpi=dpi or 150, base_url=base_url,
                              workers=workers, progress=bar.update, at=folder)
            _say_lowered_dpi(dpi or 150, [(deck.name, data["dpi"])])
            backs = ", per-card backs" if data["unique_back"] else ""
            summary = (f"{deck.name}: {plural(data['cards'], 'card')} on "
                       f"{plural(len(data['sheets']), 'TTS sheet')}{backs} -> {folder / data['json']}")
            if not base_url:
                summary += ("\nthe images are file:// URLs of this machine: for a shared table, "
                            "host them and export with --base-url URL")
        else:
            from generator.exports import export_png

            rows = export_png(deck, cards, into, dpi=dpi or 300, bleed=bleed, workers=workers,
                              progress=bar.update)
            data = [r.__dict__ | {"ids": list(r.ids)} for r in rows]
            summary = (f"{deck.name}: {plural(len(rows), 'distinct face')} of "
                       f"{plural(len(cards), 'card')} -> {folder}/ (manifest.csv, manifest.json)")
        data = _relocated(data, into, folder)
        summary = _relocated(summary, into, folder)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in data.get("preflight", []) if shop else []:
        click.echo(f"preflight: {line}", err=True)
    click.echo(summary)


def _export_whole(game, fmt, shop, dpi, bleed, base_url, parts, workers, output, as_json):
    """A game of several components: Tabletop Simulator gets the whole game in one saved
    object (generator/whole/tts.py); PNGs are exported per component, a folder each."""
    from generator.naming import slug

    if shop or parts:
        raise PnpError(f"{'--shop' if shop else '--part'} is for one deck: a game of "
                       "components is exported whole", "--shop" if shop else "--part")
    _warn_missing_characters([(c.deck, c.deck.select(), f"{c.name}: ")
                              for c in game.components])
    workers = workers or min(4, os.cpu_count() or 1)
    folder = output or Path("output") / f"{slug(game.name, 'game')}-{fmt}"
    total = sum(len(c.deck.select()) * 2 for c in game.components)
    with _progress(total, game.name, quiet=as_json) as bar, staged_folder(folder) as into:
        if fmt == "tts":
            from generator.whole.tts import export_game_tts

            data = export_game_tts(game, into, dpi=dpi or 150, base_url=base_url,
                                   workers=workers, progress=bar.update, at=folder)
            _say_lowered_dpi(dpi or 150, [(c["component"], c["dpi"]) for c in data["components"]])
            lines = [f"{game.name}: {plural(len(data['components']), 'component')} in one saved object "
                     f"-> {folder / data['json']}"]
            lines += [f"  {c['component']}: {c['object']}, {c['contents']}"
                      for c in data["components"]]
            if not base_url:
                lines.append("the images are file:// URLs of this machine: for a shared table, "
                             "host the folder and export with --base-url URL")
        else:
            from generator.exports import export_png

            data, lines = {}, []
            for c in game.components:
                rows = export_png(c.deck, c.deck.select(), into / c.name, dpi=dpi or 300,
                                  bleed=bleed, workers=workers, progress=bar.update)
                data[c.name] = [r.__dict__ | {"ids": list(r.ids)} for r in rows]
                lines.append(f"{c.name}: {len(rows)} distinct faces -> {folder / c.name}/")
        data = _relocated(data, into, folder)
    click.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else "\n".join(lines))


def _export_cgs(game, shop, dpi, parts, base_url, workers, output, as_json) -> None:
    """A game, one deck or several components, as Card Game Simulator's game folder."""
    from generator.cgs.export import export_cgs
    from generator.naming import slug
    from pnp_model.errors import PnpError

    if shop or parts:
        raise PnpError(f"{'--shop' if shop else '--part'} does not apply to --format cgs: CGS "
                       "gets the whole game", "--shop" if shop else "--part")
    _warn_missing_characters([(c.deck, c.deck.select(), f"{c.name}: " if game.whole else "")
                              for c in game.components])
    folder = output or Path("output") / f"{slug(game.name, 'game')}-cgs"
    total = sum(len(c.deck.select()) * 2 for c in game.components)
    with _progress(total, game.name, quiet=as_json) as bar, staged_folder(folder) as into:
        data = _relocated(export_cgs(game, into, dpi=dpi or 300, base_url=base_url,
                                     workers=workers or min(4, os.cpu_count() or 1),
                                     progress=bar.update), into, folder)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(f"{game.name}: {data['cards']} distinct cards in {len(data['sets'])} set(s)"
               f"{', ' + str(len(data['boards'])) + ' board(s)' if data['boards'] else ''} "
               f"-> {data['folder']}/ (cgs.json, AllCards.json)")
    for note in data["notes"]:
        click.echo(f"note: {note}")
    where = "host the folder and export with --base-url URL for CGS to download it, or copy "\
        if not base_url else "put the folder at --base-url, then add the game in CGS from "\
        f"{base_url.rstrip('/')}/cgs.json; or copy "
    click.echo(f"{where}the folder into CGS's games folder")


def _relocated(data, staged: Path, folder: Path):
    """The summary with the staging folder's paths as the folder's: the files end there."""
    if isinstance(data, dict):
        return {k: _relocated(v, staged, folder) for k, v in data.items()}
    if isinstance(data, list):
        return [_relocated(v, staged, folder) for v in data]
    if isinstance(data, str) and str(staged) in data:
        return data.replace(str(staged), str(folder))
    return data


def _say_lowered_dpi(asked: int, used: list[tuple[str, int]]) -> None:
    """One line on stderr when TTS images were drawn at a lower dpi than asked: each stays
    within 4096 px a side, which TTS loads; a silent 163 for --dpi 600 looked like a bug."""
    from generator.tts import MAX_SHEET_PX

    lowered = [f"{name} at {dpi} dpi" for name, dpi in used if dpi < asked]
    if lowered:
        click.echo(f"note: {asked} dpi lowered so each TTS image stays within {MAX_SHEET_PX} px "
                   f"a side: {', '.join(lowered)}", err=True)


def _warn_missing_characters(decks) -> None:
    """A warning on stderr for each character no font has, as `pnp build` gives: the images
    would show an empty box where the name had an emoji, and nothing else would say so."""
    from generator.preflight import missing_characters

    for deck, cards, *prefix in decks:
        for f in missing_characters(deck, cards):
            click.echo(f"warning: {''.join(prefix)}{f}", err=True)


def _cut_component(game, name: str | None):
    """The deck of the component whose cut lines are asked for; a whole game's sheets for a
    cutter are each component's own (no nesting), so its lines are that component's sheets. A
    board is split over glued sheets that carry no registration marks: nothing to cut by machine."""
    from generator.whole.preview import component_deck

    deck = component_deck(game, name, "--format cut")
    kind = next(c.kind for c in game.components if c.deck is deck)
    if kind == "board":
        raise PnpError(f"component {name} is a board: its sheets are glued together and carry no "
                       "registration marks, so a machine has nothing to cut (cut it by hand "
                       "along its trim lines)", "--component")
    return deck


def _export_cut(deck, given: dict, bleed, parts, output, as_json) -> None:
    """Cut lines of the sheets `pnp build` prints with the same --cutter, --paper, --bleed,
    --gutter, --margin, --orientation and printer profile (a build's default profile too:
    its margin moves the cards)."""
    from generator.build import Options, plan
    from generator.cut.files import export_cut
    from generator.naming import output_stem
    from generator.printers.profiles import with_profile
    from pnp_model.units import paper as paper_size

    if given["paper"]:
        paper_size(given["paper"])  # a paper the build would refuse is refused here too
    cutter = given["cutter"]
    sheet = plan(deck, Options(**with_profile(given, keys=("margin",)), bleed=bleed,
                               parts=tuple(parts)))
    folder = output or Path("output") / f"{output_stem(deck)}-cut"
    with staged_folder(folder) as into:
        data = _relocated(export_cut(deck, sheet, into), into, folder)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{deck.name}: cut lines of {plural(len(data['sheets']), 'sheet')} "
               f"({plural(sum(s['cards'] for s in data['sheets']), 'card')}"
               f"{', ' + cutter + ' layout' if cutter else ''}) -> {folder}/ (SVG and DXF)")


@click.command()
@click.argument("game")
@allow_folder_option
@click.option("--part", "parts", multiple=True, help="Only these parts ('all' for every part).")
@click.option("--safe", callback=_length("--safe"), help="Safe zone inside the trim (default: "
              "the definition's [print] safe, else 3mm).")
@click.option("--target", type=click.Choice(["shop", "home"]), default="shop", show_default=True,
              help="Where the cards are printed: the ppi floor for art is 300 for a print shop, "
              "200 for a home printer.")
@click.option("--shop", help="Check against a shop preset's safe zone and smallest text "
              "(e.g. drivethrucards: 1/8 in); --safe still wins.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def check(game, parts, safe, target, shop, as_json) -> None:
    """Preflight GAME as a print shop would: low-resolution art, tiny text, text in the safe
    zone margin, fonts not embedded. Exit code 1 when anything is found.

    Also names characters no font has (they print as an empty box), the colours that tell
    cards apart (fills and frames keyed by a field such as suit) which protanopia,
    deuteranopia or tritanopia make too alike, and a symbol deck's icons whose silhouettes are
    near copies of each other.

    A problem repeated on many cards (the same art, or text of the same size) is one line
    naming the file or the first texts and counting the cards; --json lists them all. A
    whole game is checked component by component, each finding named by its component."""
    from generator.shops import shop as preset
    from pnp_model.game import load_game

    whole = load_game(game)
    if whole.whole and parts:
        raise click.UsageError("--part names parts of one deck; a whole game's components are "
                               "all checked")
    limits, ink_limit = {}, None
    if shop:
        s = preset(shop)
        safe = s.safe_points() if safe is None else safe
        limits["min_text"], ink_limit = s.min_text_pt, s.ink_limit
    found, said = 0, []
    for c in whole.components:
        findings, colours, ink = _checked(c.deck, _cards(c.deck, parts), safe, target, limits,
                                          ink_limit)
        found += len(findings) + len(colours)
        named = {"component": c.name} if whole.whole else {}
        said += [named | f.__dict__ | {"cards": list(f.cards)} for f in findings]
        said += [named | _colour_json(f) for f in colours]
        if not as_json:
            prefix = f"{c.name}: " if whole.whole else ""
            for f in (*findings, *colours, *([ink] if ink else [])):
                click.echo(f"{prefix}{f}")
            click.echo(f"{c.deck.name}: {len(findings) or 'no'} preflight finding(s), "
                       f"{len(colours) or 'no'} colour-vision or look-alike finding(s)")
    if as_json:
        click.echo(json.dumps(said, indent=2, ensure_ascii=False))
    if found:
        sys.exit(1)


def _checked(deck, cards, safe, target, limits: dict, ink_limit):
    """(preflight findings, colour-vision and look-alike findings, the most ink) of one deck."""
    from generator.access.colours import check as colour_check
    from generator.access.lookalike import check as lookalike_check
    from generator.preflight import check as preflight
    from generator.preflight import most_ink

    findings = preflight(deck, cards, safe, target, **limits)
    colours = [*colour_check(deck, cards), *lookalike_check(deck, cards)]
    return findings, colours, most_ink(deck, cards, ink_limit)


def _colour_json(f) -> dict:
    if not hasattr(f, "deficiency"):  # look-alike symbols
        return {"check": "look-alike", "message": str(f), "overlap": round(f.overlap, 3),
                "symbols": [f.a, f.b], "cards": list(f.cards)}
    return {"check": "colour-vision", "deficiency": f.deficiency, "message": str(f),
            "difference": round(f.difference, 2),
            "pair": [{"value": k.value, "cards": list(k.cards)}
                     | ({"symbols": list(k.symbols)} if k.symbols else {}) for k in (f.a, f.b)]}


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
