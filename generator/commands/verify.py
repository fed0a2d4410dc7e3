"""`pnp verify` (deck properties) and `pnp plane` (the incidence of a projective plane)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from generator.allow_option import allow_folder_option
from pnp_model.errors import PnpError, read_text
from pnp_model.tables import csv_records, sniff_delimiter
from pnp_shared.counts import plural
from pnp_shared.csv_text import csv_text

SHOW = 20  # offending pairs listed before "... and N more"


def read_symbol_csv(path: Path) -> list[tuple[int, tuple[str, ...]]]:
    """Cards from a CSV, one card per row listing its symbols.

    The delimiter (`,` `;` or tab) is found as for a card list. Every non-empty cell is a
    symbol, unless the first row is a header: then a column named card or id gives the card
    ids, a column named symbols holds several symbols separated by spaces or semicolons, and
    other columns are symbols (`pnp plane --format csv` writes this). A file without a header
    or any comma lists each card's symbols separated by spaces, semicolons or tabs.
    """
    text = read_text(path, str(path))
    kept = [(int(where.rsplit(":", 1)[1]), [c.strip() for c in values])
            for where, values in csv_records(text, path.name) if any(c.strip() for c in values)]
    lines, rows = [n for n, _ in kept], [r for _, r in kept]
    if not rows:
        raise PnpError("the CSV lists no cards", str(path))
    header = [h.lower() for h in rows[0]]
    id_col = next((i for i, h in enumerate(header) if h in ("card", "id")), None)
    multi = header.index("symbols") if "symbols" in header else None
    has_header = id_col is not None or multi is not None
    body, lines = (rows[1:], lines[1:]) if has_header else (rows, lines)
    if not body:  # a header alone is as empty as an empty file: "OK, 0 cards" would mislead
        raise PnpError("the CSV lists no cards", str(path))
    # no header and no comma: symbols separated by spaces or semicolons, each cell split
    split_all = not has_header and (sniff_delimiter(text) != ","
                                    or all(len(r) == 1 for r in rows))
    cards = []
    seen: dict[int, int] = {}  # card id -> its line
    for n, (row, number) in enumerate(zip(body, lines, strict=True)):
        line = f"{path.name}:{number}"
        cid = n + 1
        syms: list[str] = []
        for i, cell in enumerate(row):
            if i == id_col:
                try:
                    cid = int(cell.lstrip("#"))
                except ValueError:
                    raise PnpError(f"card id {cell!r} is not a whole number", line) from None
                if cid in seen:  # else the report names "cards #1 and #1": which rows?
                    raise PnpError(f"card id {cid} is also on line {seen[cid]}", line)
                seen[cid] = number
            elif i == multi or split_all:
                syms += cell.replace(";", " ").split()
            elif cell:
                syms.append(cell)
        cards.append((cid, tuple(syms)))
    return cards


def print_report(rep, title: str) -> None:
    if rep.ok:
        facts = rep.facts
        extra = ""
        if "symbols" in facts:
            extra = f", {facts['symbols']} symbols"
        click.echo(f"{title}: OK — {plural(rep.cards, 'card')}{extra}")
        for c in rep.checks:
            click.echo(f"  ✓ {c}")
        if "appearances" in facts:
            spread = ", ".join(f"{plural(n, 'symbol')} on {plural(k, 'card')}"
                               for k, n in sorted(facts["appearances"].items(), reverse=True))
            click.echo(f"  symbol appearances: {spread}")
        return
    failed = {k: n for k, n in rep.totals.items() if n}
    click.echo(f"{title}: FAILED — {plural(rep.cards, 'card')}, "
               f"{sum(failed.values())} violation(s) of {len(failed)} check(s)")
    for check, total in failed.items():
        listed = [v for v in rep.violations if v.check == check]
        click.echo(f"{check}: {total}")
        for v in listed[:SHOW]:
            shared = f": {', '.join(v.shared)}" if v.shared and check == "pairs" else ""
            click.echo(f"  {v.why}{shared}")
        if total > min(len(listed), SHOW):
            click.echo(f"  … and {total - min(len(listed), SHOW)} more")


@click.command()
@click.argument("target")
@allow_folder_option
@click.option("--pairs", type=click.IntRange(min=0), default=None,
              help="Symbols every two cards must share (default: declared, or 1).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--balance", is_flag=True,
              help="Also check the [balance] targets by simulating games with the referee.")
def verify(target: str, pairs: int | None, as_json: bool, balance: bool) -> None:
    """Check a deck: a bundled template, a definition folder, or a CSV of symbols per card."""
    from generator import verify as checks

    path = Path(target)
    if path.suffix.lower() == ".csv" and not (path / "game.toml").exists():
        if not path.is_file():
            raise PnpError("no such file", target)
        rep = checks.check_symbols(read_symbol_csv(path), pairs=1 if pairs is None else pairs,
                                   limit=SHOW)
        title = path.name
    else:
        from pnp_model.game import load_game

        game = load_game(target)
        if game.whole:
            _verify_whole(game, pairs, as_json, balance)
            return
        deck = game.components[0].deck
        if pairs is not None and not any(card.symbols for card in deck.cards):
            raise PnpError(f"the cards of {deck.name} have no symbols to share", "--pairs")
        rep = checks.check_deck(deck, pairs=pairs, limit=SHOW)
        title = deck.title
    if balance and path.suffix.lower() == ".csv" and not (path / "game.toml").exists():
        raise PnpError("--balance needs a definition with a [balance] table, not a CSV", target)
    sim = None
    if balance:
        from generator.balance import check

        sim = check(deck)
    if as_json:
        extra = {"balance": sim} if sim is not None else {}
        click.echo(json.dumps({"deck": title, **rep.to_dict(), **extra}, indent=2,
                              ensure_ascii=False))
    else:
        print_report(rep, title)
        if sim is not None:
            print_balance(sim)
    if not rep.ok or (sim is not None and not sim["ok"]):
        raise SystemExit(1)


def _verify_whole(game, pairs: int | None, as_json: bool, balance: bool) -> None:
    """Each component's [verify] checked like a deck's; exit 1 if any fails."""
    from generator import verify as checks

    if balance:
        raise PnpError("--balance simulates one deck's game; a game of components has none to "
                       "simulate", "--balance")
    reports = [(c, checks.check_deck(c.deck, pairs=pairs if any(card.symbols for card in
                                                                 c.deck.cards) else None,
                                     limit=SHOW)) for c in game.components]
    if as_json:
        click.echo(json.dumps({"game": game.title, "ok": all(r.ok for _, r in reports),
                               "components": [{"component": c.name, **r.to_dict()}
                                              for c, r in reports]}, indent=2,
                              ensure_ascii=False))
    else:
        for c, r in reports:
            print_report(r, c.deck.title)
    if not all(r.ok for _, r in reports):
        raise SystemExit(1)


def print_balance(sim: dict) -> None:
    """The balance targets like the other properties: a tick or the figure that missed."""
    opts = " ".join(f"{k}={v}" for k, v in sim["options"].items())
    head = (f"balance ({sim['game']}, {sim['games']} games, {sim['players']} players, "
            f"{sim['bot']} bot, seed {sim['seed']}" + (f", {opts}" if opts else "") + ")")
    missed = [t for t in sim["targets"] if not t["ok"]]
    click.echo(f"{head}: " + ("OK" if not missed else f"FAILED — {len(missed)} of "
                              f"{len(sim['targets'])} target(s) missed"))
    for t in sim["targets"]:
        mark = "✓" if t["ok"] else "✗"
        verdict = "within" if t["ok"] else "outside"
        click.echo(f"  {mark} {t['target']}: {t['what']} {t['shown']}, {verdict} {t['want']}")
    if sim["note"]:
        click.echo(f"  note: {sim['note']}")


@click.command()
@click.option("--order", "order_text", required=True, metavar="Q",
              help="Order of the plane: a prime power (2, 3, 4, 5, 7, 8, 9, 11, ...).")
@click.option("--cards", type=click.IntRange(min=1), default=None,
              help="Only the first N cards (default: all q²+q+1).")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
def plane(order_text: str, cards: int | None, fmt: str, as_json: bool) -> None:
    """Print the incidence of the projective plane of order Q: each card's symbols (0-based)."""
    from pnp_model.designs.planes import checked_order, parse_order
    from pnp_model.designs.planes import plane as build

    q = checked_order(parse_order(order_text), "--order")
    if as_json:
        fmt = "json"
    total = q * q + q + 1
    if cards is not None and cards > total:
        raise PnpError(f"a plane of order {q} has {total} cards, not {cards}", "--cards")
    lines = build(q)[: cards or total]
    if fmt == "json":
        click.echo(json.dumps({"order": q, "cards": len(lines), "symbols": total,
                               "per_card": q + 1,
                               "incidence": [list(line) for line in lines]}))
        return
    header = ["card"] + [f"s{i + 1}" for i in range(q + 1)]
    click.echo(csv_text([header, *([i, *line] for i, line in enumerate(lines, 1))]), nl=False)


COMMANDS = [verify, plane]
