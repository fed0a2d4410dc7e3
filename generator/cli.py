"""pnp: the generator's command line. Thin: parse options, call the library, print results."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from generator.allow_option import allow_folder_option
from generator.cli_group import PnpGroup
from pnp_model.errors import PnpError
from pnp_shared.counts import plural


def _paper(ctx, param, value):
    """A named paper (a4, a3, a5, letter, legal, tabloid, ledger) or WIDTHxHEIGHT with units."""
    from pnp_model import units

    if value is None:
        return None
    try:
        units.paper(value.lower())
    except PnpError as e:  # said as every other option's mistake: (pnp build --paper)
        raise click.BadParameter(e.what) from None
    return value.lower()


PAPERS = {"callback": _paper, "metavar": "PAPER"}


@click.group("pnp", cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-toolkit")
def main() -> None:
    """Turn game definitions (game.toml + cards.csv + art) into print-ready PDF sheets.

    Start with `pnp list`, then `pnp build NAME` for a template it lists; `pnp preview NAME
    --card 1` shows one card as a PNG; `pnp calibrate` prints a page to check your printer first.
    """
    # numpy's OpenBLAS starts a thread per core as it is imported (symbol art); pnp never
    # multiplies matrices, so the threads only cost start-up CPU. A user's setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def length_value(ctx, param, value):
    from pnp_model.definition import print_length

    return None if value is None else print_length(value, f"--{param.name.replace('_', '-')}")


MAX_BLEED_MM = 25  # shops ask 3 mm or 1/8 in; a page past PDF's 200 in is no longer a PDF


def bleed_value(ctx, param, value):
    """--bleed: a length from 0 up to MAX_BLEED_MM, a typo's 3000mm refused here by name."""
    from pnp_model import units

    length = length_value(ctx, param, value)
    if length is not None and length > MAX_BLEED_MM * units.MM:
        raise PnpError(f"a bleed of more than {MAX_BLEED_MM} mm is not a bleed (print shops ask "
                       "3 mm or 1/8 in)", "--bleed")
    return length


def margin_value(ctx, param, value):
    """--margin of build, export and `printer save`: one check, so a profile never stores a
    margin the build would refuse (generator/layout/margins.py checked_margin)."""
    from generator.layout.margins import checked_margin

    length = length_value(ctx, param, value)
    return None if length is None else checked_margin(length, "--margin")


def offset_value(ctx, param, value):
    from pnp_model.definition import back_offset

    if value is None:
        return None
    parts = [p for p in value.replace(";", ",").split(",") if p.strip()]
    if len(parts) != 2:
        raise click.BadParameter("give two lengths X,Y, e.g. 1mm,-0.5mm")
    return back_offset(parts, "--back-offset")


def _grid(ctx, param, value):
    if value is None:
        return None
    try:
        cols, rows = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter("write COLSxROWS, e.g. 3x3") from None
    if cols < 1 or rows < 1:
        raise click.BadParameter(f"a grid needs at least one column and one row, not {value}")
    return cols, rows


@main.command("list")
@click.argument("game", required=False)
@allow_folder_option
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def list_templates(game: str | None, as_json: bool) -> None:
    """List the bundled templates, one line each; with GAME, its cards (ids, names, copies)."""
    from pnp_model.catalog import bundled

    if game is not None:
        from generator.cardselect import list_cards
        from pnp_model.game import load_game

        whole = load_game(game)
        if not whole.whole:
            click.echo(list_cards(whole.components[0].deck, as_json))
        elif as_json:
            click.echo(json.dumps({c.name: json.loads(list_cards(c.deck, True))
                                   for c in whole.components}, indent=2, ensure_ascii=False))
        else:
            for c in whole.components:
                click.echo(f"{c.name} ({c.kind}):\n{list_cards(c.deck, False)}")
        return
    from pnp_model.game import load_game

    rows = []
    for name in bundled():
        game = load_game(name)
        decks = [c.deck for c in game.components]
        rows.append({"name": name, "title": game.title,
                     "cards": sum(len(d.select()) for d in decks),
                     "description": decks[0].description,
                     **({"components": [c.name for c in game.components]} if game.whole else {})})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        click.echo(f"{r['name']:<{width}}  {r['cards']:>4} cards  {r['description']}")


PRINT_OPTIONS = [  # how a deck is printed: shared by build, preview, watch and serve
    click.option("--paper", **PAPERS, help="Paper: a4, a3, a5, letter, legal, tabloid, ledger "
                 "or WIDTHxHEIGHT such as 300x200mm (default: the template's, else a4)."),
    click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]),
                 help="Paper orientation (default auto: whichever holds more cards)."),
    click.option("--bleed", callback=bleed_value,
                 help="Bleed beyond the trim, e.g. 3mm or 0.125in."),
    click.option("--gutter", callback=length_value, help="Space between cards, e.g. 2mm."),
    click.option("--marks", type=click.Choice(["on", "full", "off"]), is_flag=False,
                 flag_value="on", default=None,
                 help="Crop marks outside the cards (default on: the fewest sheets, marks where "
                 "there is room, a warning where not); 'full' prefers marks on every side to "
                 "the fewest sheets; 'off' draws none."),
    click.option("--no-marks", is_flag=True, help="No crop marks (same as --marks off)."),
    click.option("--guides/--no-guides", default=None,
                 help="Thin outline on each card's cut line, showing rounded corners (default: "
                 "on sheets, off with --single, where a shop would print it)."),
    click.option("--backs/--no-backs", default=None,
                 help="A back page after each front page (default: when the template has "
                 "backs)."),
    click.option("--flip", type=click.Choice(["long", "short"]),
                 help="Duplex flip edge of your printer (default long)."),
    click.option("--back-offset", callback=offset_value, metavar="X,Y",
                 help="Shift backs to correct printer misregistration, e.g. 1mm,-0.5mm."),
    click.option("--grid", callback=_grid, metavar="COLSxROWS",
                 help="Force a grid, e.g. 3x3."),
    click.option("--part", "parts", multiple=True,
                 help="Build only these parts of the deck (repeatable; 'all' for every part)."),
    click.option("--single", is_flag=True,
                 help="One card per page with TrimBox, for print shops, with bleed (default the "
                 "larger of the definition's and 3 mm, 0.125 in on Letter; --bleed sets it)."),
    click.option("--cmyk", is_flag=True,
                 help="CMYK colours and images for print shops (greys and black in black ink "
                 "only); art is checked against a shop's 300 ppi instead of a home sheet's 200."),
    click.option("--legend/--no-legend", default=None,
                 help="Symbol decks: add legend cards listing every symbol with its name, after "
                 "the playing cards, with their back (default: the definition's [deck] legend). "
                 "As many as keep names at 6 pt or more; never counted by pnp verify."),
    click.option("--pdfx", is_flag=True, help="PDF/X-1a:2003 for print shops (CMYK, "
                 "transparency flattened; needs --single)."),
    click.option("--margin", callback=margin_value, help="The edge your printer cannot print "
                 "(default: the paper's, 6mm on A4 and Letter; docs: print-at-home, printer "
                 "margins): cards and crop marks stay inside it."),
    click.option("--printer", metavar="NAME",
                 help="Apply a saved printer profile (pnp printer save); default: the default "
                 "profile; 'none' for no profile. Options given here win over it."),
    click.option("--cutter", type=click.Choice(["silhouette", "cricut", "brother"]),
                 help="Lay the sheet out for a cutting machine: its registration marks, the "
                 "room they need, no crop marks (cut lines: pnp export --format cut)."),
    click.option("--fold/--no-fold", default=None,
                 help="Fold-and-glue sheets for printers without duplex: each back printed "
                 "beside its front, mirrored across a dashed fold line (default: the "
                 "definition's [print] fold)."),
    click.option("--markers/--no-markers", default=None,
                 help="A fiducial marker on each card where the design reserves room, so "
                 "`referee look` can read a photo of the table (default: [print] markers)."),
]
_PRINT_NAMES = ("paper", "orientation", "bleed", "gutter", "marks", "no_marks", "guides", "backs",
                "flip", "back_offset", "grid", "parts", "single", "cmyk", "legend", "pdfx",
                "fold", "cutter", "printer", "margin", "markers")


def print_options(command):
    """The build's print options on another command, handed to it as one `opts` (Options), so
    that `preview`, `watch` and `serve` print the pages the build would with the same flags."""
    import functools

    @functools.wraps(command)
    def with_options(*args, **kwargs):
        from generator.build import Options

        given = {name: kwargs.pop(name) for name in _PRINT_NAMES}
        if given["pdfx"] and not given["single"]:
            raise PnpError("PDF/X needs a trim box on every page: add --single", "--pdfx")
        single = given.pop("single")
        if given["no_marks"] and given["marks"] not in (None, "off"):
            raise PnpError("--marks and --no-marks do not go together: one asks for crop marks, "
                           "the other for none; drop one", "--marks, --no-marks")
        marks = "off" if given.pop("no_marks") else given["marks"]
        given["marks"] = {"on": True, "off": False}.get(marks, marks)  # None, or "full"
        from generator.printers.profiles import with_profile

        given = with_profile(given)
        opts = Options(**{**given, "parts": tuple(given["parts"])},
                       layout="single" if single else "sheet")
        return command(*args, opts=opts, **kwargs)

    for option in reversed(PRINT_OPTIONS):
        with_options = option(with_options)
    return with_options


@main.command()
@click.argument("games", nargs=-1)
@allow_folder_option
@click.option("--all", "build_all", is_flag=True, help="Build every bundled template.")
@print_options
@click.option("-o", "--output", metavar="PATH",
              help="Where to write: a path ending .pdf is the file (one game); an existing "
              "folder or a path ending / is a folder, each game's PDF named after it inside. "
              "Default: output/<game>.pdf")
@click.option("--json", "as_json", is_flag=True, help="Print what was built as JSON.")
@click.option("--strict", is_flag=True,
              help="Exit with code 1 when the build has warnings (text that does not fit, a "
              "missing glyph, art below 200 ppi, 300 with --cmyk/--pdfx...), writing no PDF: "
              "the last good one stays as it was.")
@click.option("--only", metavar="NAME[,NAME]",
              help="A game of several components: build only these components.")
@click.option("--no-nesting", is_flag=True,
              help="A game of several components: keep small one-sided pieces (tokens, tiles) "
              "on sheets of their own instead of in other sheets' free room.")
def build(games, build_all, opts, output, as_json, strict, only, no_nesting) -> None:
    """Build print-ready PDFs for GAMES (bundled names or folders with a game.toml).

    A game of several components ([component.NAME] tables) is one PDF: a contents page,
    then each component's sheets. Options that rule each other out (--single with --grid,
    --fold with --back-offset...) are refused, naming both; the game's [print] defaults yield
    to the options given."""
    from generator.naming import output_path, output_stem
    from pnp_model.catalog import bundled
    from pnp_model.game import load_game

    names = list(dict.fromkeys(list(games) + (list(bundled()) if build_all else [])))
    if not names:
        raise PnpError("name a game to build (see `pnp list`) or use --all")
    chosen = tuple(n.strip() for n in (only or "").split(",") if n.strip())
    jobs: dict[Path, object] = {}
    for name in names:
        game = load_game(name)
        if chosen:
            game.needs_components("--only")
        deck = game.only(chosen) if game.whole else game.components[0].deck
        stem = output_stem(game if game.whole else deck)
        out = output_path(output, stem, len(names))
        if out in jobs:
            raise PnpError(f"two games would both be written to {out}; build them one at a "
                           "time with -o", name)
        jobs[out] = deck
    from pnp_model import remote

    for text in remote.notes():  # a card list's kept copy used offline, and its age
        click.echo(f"warning: {text}", err=True)
    if no_nesting:
        from dataclasses import replace

        opts = replace(opts, nesting=False)
    results = _build_many(list(jobs.items()), opts, quiet=as_json, strict=strict)
    if opts.printer and not as_json:
        from generator.printers.profiles import described, get

        click.echo(f"printer profile {opts.printer}: {described(get(opts.printer))}")
    if as_json:
        click.echo(json.dumps([{"game": g, "path": str(r.path), "pages": r.pages,
                                **({"printer": opts.printer} if opts.printer else {}),
                                "cards": r.cards, "paper": r.paper, **r.info,
                                **({"warnings": list(r.notes)} if r.notes else {}),
                                **({} if r.written else {"written": False})}
                               for g, r in results], indent=2))
    else:
        for game, r in results:
            if "files" in r.info:  # a whole game for a shop: a PDF/X file per component
                click.echo(f"{game}: {plural(r.cards, 'piece')} in "
                           f"{plural(len(r.info['files']), 'PDF/X file')}:")
                for f in r.info["files"]:
                    click.echo(f"  {f['component']} ({f['kind']}): {plural(f['pieces'], 'piece')} "
                               f"on {plural(f['pages'], 'page')} -> "
                               f"{f['path']}")
                if "not in PDF/X" in r.info:
                    click.echo(f"  not in PDF/X: {r.info['not in PDF/X']}")
            elif "components" in r.info:  # a whole game: a line per component
                click.echo(_whole_said(game, r))
            if "files" in r.info or "components" in r.info:
                for text in r.notes:
                    click.echo(f"warning: {game}: {text}", err=True)
                continue
            extra = "".join(f", {k} {v}" for k, v in r.info.items() if k != "legend cards")
            click.echo(f"{game}: {plural(r.cards, 'card')}{_legend_said(r.info)} on "
                       f"{plural(r.pages, 'page')} "
                       f"({r.paper}{extra}) -> {_where(r)}")
            for text in r.notes:
                click.echo(f"warning: {game}: {text}", err=True)
    warnings = sum(len(r.notes) for _, r in results)
    if strict and warnings:
        kept = [str(r.path) for _, r in results if not r.written]
        click.echo(f"error: {plural(warnings, 'warning')} and --strict: "
                   f"did not write {', '.join(kept)} (the last good one stays as it was) "
                   "(--strict)",
                   err=True)
        sys.exit(1)


def _where(r) -> str:
    """Where a build went: its path, or that --strict kept its warnings from replacing it."""
    return str(r.path) if r.written else f"{r.path} not written (--strict)"


def _whole_said(game: str, r) -> str:
    """What a whole game's build printed: the file, then the contents page's lines."""
    saved = r.info["sheets without nesting"] - r.info["sheets"]
    nesting = f", {r.info['sheets without nesting']} without nesting" if saved else ""
    lines = [f"{game}: {plural(r.cards, 'piece')} in {plural(len(r.info['components']), 'component')}"
             f" on {plural(r.pages, 'page')}, {plural(r.info['sheets'], 'sheet')}{nesting} "
             f"({r.paper}) -> {_where(r)}"]
    for c in r.info["components"]:
        extra = "".join(f", {c[k]}" for k in ("assembly", "shares", "fold") if k in c)
        pages = "pages" if "-" in c["pages"] or "," in c["pages"] else "page"
        lines.append(f"  {c['component']} ({c['kind']}): {c['pieces']} x {c['size']}, "
                     f"{c['sheets']} sheet{'s' if c['sheets'] != '1' else ''}, {pages} "
                     f"{c['pages']} {c['print']}{extra}")
    return "\n".join(lines)


def _legend_said(info: dict) -> str:
    """' + 2 legend cards (...)' when the build added legend cards, else nothing."""
    n = info.get("legend cards")
    if not n:
        return ""
    why = " (the symbols do not fit legibly on one)" if n > 1 else ""
    return f" + {n} legend card{'s' if n > 1 else ''}{why}"


_FORKED: tuple = ()  # (jobs, options, strict) handed to forked workers without pickling the decks


def _build_many(jobs: list, opts, quiet: bool, strict: bool) -> list:
    """Several games at once, one per core: forked workers inherit the loaded decks and send
    back only each Result (games are independent, so the PDFs are the same bytes). One game,
    one core or no fork (Windows, macOS): one after the other, with progress bars."""
    workers = min(len(jobs), len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                  else os.cpu_count() or 1)
    if workers < 2:  # one game: no pool, not even multiprocessing's import
        return [_build_one(deck, out, opts, quiet, strict) for out, deck in jobs]
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return [_build_one(deck, out, opts, quiet, strict) for out, deck in jobs]
    global _FORKED
    _FORKED = (jobs, opts, strict)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(_build_forked, range(len(jobs)), chunksize=1)
    finally:
        _FORKED = ()


def _build_forked(index: int):
    jobs, opts, strict = _FORKED
    out, deck = jobs[index]
    return _build_one(deck, out, opts, True, strict)


def _build_one(deck, out: Path, opts, quiet: bool, strict: bool):
    from generator.build import build as build_pdf
    from generator.build import plan

    if not hasattr(deck, "cards"):  # a game of several components (generator/whole)
        return _build_whole(deck, out, opts, quiet, strict)
    sheet = plan(deck, opts)
    if len(sheet.pages) > 20 and not quiet and sys.stderr.isatty():
        with click.progressbar(length=len(sheet.pages), label=deck.name, file=sys.stderr) as bar:
            return deck.name, build_pdf(deck, out, opts, progress=bar.update, sheet=sheet,
                                        strict=strict)
    return deck.name, build_pdf(deck, out, opts, sheet=sheet, strict=strict)


def _build_whole(game, out: Path, opts, quiet: bool, strict: bool):
    from generator.whole.build import build_game
    from generator.whole.plan import plan_game

    if opts.pdfx:  # a PDF/X file per component, each built as a deck is
        return game.name, build_game(game, out, opts, strict=strict)
    parts = plan_game(game, opts)
    pages = sum(p.pages for p in parts)
    if pages > 20 and not quiet and sys.stderr.isatty():
        with click.progressbar(length=pages, label=game.name, file=sys.stderr) as bar:
            return game.name, build_game(game, out, opts, progress=bar.update, parts=parts,
                                         strict=strict)
    return game.name, build_game(game, out, opts, parts=parts, strict=strict)


@main.command()
@click.argument("game")
@allow_folder_option
@click.option("--page", type=int, help="Page number of the built PDF to show (default 1).")
@click.option("--card", "card_spec", metavar="ID|NAME|RANGE",
              help="Show cards by id (14), name (\"Mana Leak\") or range (1-9): one PNG each.")
@click.option("--back", is_flag=True, help="With --card: show the card's back.")
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True)
@click.option("--component", metavar="NAME",
              help="A game of several components: whose cards --card shows.")
@print_options
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="PNG file to write (default output/<game>-page-N.png or -card-ID.png).")
def preview(game, page, card_spec, back, dpi, component, opts, output) -> None:
    """Render a page or cards of GAME to PNG, to see them without printing.

    With the print options of `pnp build`, --page shows that page of the PDF the build writes
    with them, and the build's warnings are printed as it prints them. A game of several
    components: --page is a page of its one PDF, --card a piece of --component NAME.
    """
    from generator.naming import output_stem
    from generator.preview import check_not_game_file, preview_page
    from pnp_model.game import load_game

    if card_spec is not None and page is not None:
        raise PnpError("give --page or --card, not both", "pnp preview")
    if back and card_spec is None:
        raise PnpError("--back shows the back of one card: add --card ID", "pnp preview")
    whole = load_game(game)
    check_not_game_file(output, whole.root)
    if component:
        whole.needs_components("--component")
    if component and card_spec is None:
        raise PnpError("--component picks whose cards --card shows: add --card ID",
                       "--component")
    if whole.whole and card_spec is None:  # a page of the game's one PDF
        _preview_game_page(whole, 1 if page is None else page, dpi, opts, output)
        return
    if whole.whole:
        from generator.whole.preview import component_deck

        deck = component_deck(whole, component, "--card")
    else:
        deck = whole.components[0].deck
    if card_spec is not None:
        from generator.preview import preview_cards

        outs, warnings = preview_cards(deck, card_spec, output, dpi, back, opts)
    else:
        n = 1 if page is None else page
        outs = [output or Path("output") / f"{output_stem(deck)}-page-{n}.png"]
        warnings = preview_page(deck, n, outs[0], dpi, opts)
    for out in outs:
        click.echo(f"wrote {out}")
    for text in warnings:
        click.echo(f"warning: {deck.name}: {text}", err=True)


def _preview_game_page(game, page: int, dpi: int, opts, output) -> None:
    from generator.naming import output_stem
    from generator.whole.preview import preview_game_page

    stem = output_stem(game)
    out = output or Path("output") / f"{stem}-page-{page}.png"
    warnings = preview_game_page(game, page, out, dpi, opts)
    click.echo(f"wrote {out}")
    for text in warnings:
        click.echo(f"warning: {game.name}: {text}", err=True)


@main.command()
@click.argument("directory")
@click.option("--from", "template", metavar="TEMPLATE",
              help="Bundled template to copy (see `pnp list`), a game folder, or 'blank'.")
@click.option("--blank", is_flag=True, help="A minimal game with every key explained (the "
              "default without --from).")
def new(directory: str, template: str | None, blank: bool) -> None:
    """Start your own game in DIRECTORY: a blank starter, or a copy of a template."""
    from generator.starter import start_game

    if not directory.strip():  # Path("") is ".", which was refused as a folder not empty
        raise PnpError("the new game's folder name is empty: give it a name", "DIRECTORY")
    directory = Path(directory)
    if blank and template not in (None, "blank"):
        raise PnpError("give --blank or --from TEMPLATE, not both", "pnp new")
    blank = blank or template in (None, "blank")
    dropped = start_game(directory, None if blank else template)
    click.echo(f"created {directory} from {'the blank starter' if blank else template}: edit "
               f"{directory / 'game.toml'} and its card list, then run `pnp build {directory}` "
               f"(or `pnp watch {directory}`)")
    if dropped:
        click.echo(f"the template's [verify] table is commented out in {directory / 'game.toml'}: "
                   "it described the template's cards, not yours")


@main.command()
@click.argument("game", required=False)
@allow_folder_option
@click.option("--paper", **PAPERS, help="Paper (default: the game's [print] paper, else a4).")
@click.option("--flip", type=click.Choice(["long", "short"]),
              help="Duplex edge (default: the game's [print] flip, else long).")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]),
              help="Default: the orientation the game's build picks (a new game's poker cards "
              "without GAME); landscape sheets turn over the other way, so offsets are read on "
              "the sheet the job prints.")
@click.option("--printer", metavar="NAME",
              help="The printer profile whose flip and margin the build applies (default: the "
              "default profile; 'none' for no profile).")
@click.option("--component", metavar="NAME",
              help="A game of several components: the one printed on both sides whose sheet "
              "to calibrate on (default: the first).")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              default=Path("output/calibration.pdf"), show_default=True)
def calibrate(game, paper, flip, orientation, printer, component, output) -> None:
    """A two-page test print: a 100 mm ruler and duplex registration marks, on the sheet
    `pnp build GAME` prints (paper, orientation, duplex edge).

    Print it double-sided at 100 % ("actual size"), measure the ruler, and hold the sheet
    against the light: the crosses on both sides should coincide. The offset you read off the
    scales is the --back-offset to use when building.
    """
    from generator.build import Options, printed_as, write_atomic
    from generator.calibration import calibration_pdf
    from generator.printers.profiles import with_profile
    from generator.starter import starter_deck

    deck, which = _duplex_deck(game, component) if game else (starter_deck(), "")
    # the build's own flip and margin (which can turn the sheet); never its offset, measured here
    o = Options(**with_profile({"paper": paper, "flip": flip, "orientation": orientation,
                                "printer": printer}, keys=("flip", "margin")))
    paper, flip, orientation = printed_as(deck, o)
    printer, kept_flip = o.printer, "flip" in o.from_printer
    write_atomic(output, calibration_pdf(paper, flip, orientation))
    job = f"`pnp build {game}` prints{which}" if game else "a new game's poker cards print"
    used = f" with printer profile {printer}" if printer else ""
    click.echo(f"wrote {output}: {paper} {orientation}, turned over the {flip} edge, the sheet "
               f"{job} on{used}; print both sides at 100 % scale, then measure the ruler")
    keep = f"{printer or 'NAME'} --back-offset X,Y" + ("" if kept_flip else f" --flip {flip}")
    click.echo(f"then keep what you measured for every build: pnp printer save {keep}")


def _duplex_deck(game: str, component: str | None):
    """(The deck whose sheet a calibration is for, the component said): one deck, or a whole
    game's named component, else its first printed on both sides (one-sided pieces need no
    back aligned)."""
    from generator.whole.preview import component_deck
    from pnp_model.game import load_game

    whole = load_game(game)
    if component:
        whole.needs_components("--component")
    if not whole.whole:
        return whole.components[0].deck, ""
    both = [c for c in whole.components if c.double_sided]
    if component:
        deck = component_deck(whole, component, "--component")
        if not any(c.name == component for c in both):  # one-sided: no back to align
            others = ", ".join(c.name for c in both) or "none"
            raise PnpError(f"{component} is printed on one side, so it has no back to align "
                           f"(printed on both sides: {others})", "--component")
        return deck, f" {component}"
    if not both:
        raise PnpError(f"no component of {whole.name} is printed on both sides, so no back "
                       "needs aligning: `pnp calibrate --paper PAPER` checks the scale",
                       "pnp calibrate")
    return both[0].deck, f" {both[0].name}"
