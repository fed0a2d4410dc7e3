"""`referee note` and `referee playtests`: a designer's remarks during a match, and what the
matches of a game add up to (referee/notes.py, referee/playtests.py). Loaded only when run."""

from __future__ import annotations

from pathlib import Path

import click

from referee.clictx import echo_json, store_of


@click.command("note")
@click.argument("text", nargs=-1, required=True)
@click.option("--card", "cards", multiple=True,
              help="A card the note is about, by name or id (repeatable; checked against the "
                   "game's definition).")
@click.option("--by", "player", help="Who made the remark (a player of the match).")
@click.option("--deck", help="The definition folder the cards are from (default: the one the "
                             "match was started from, or the bundled game's).")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def note_cmd(ctx, text: tuple[str, ...], cards, player, deck, match_id, as_json: bool) -> None:
    """Attach a playtest note to the match, about a card with --card; kept in the log (undo
    takes it back) and summed up by `referee playtests`: `referee note "too strong" --card
    firestorm`."""
    from referee.notes import describe, note

    cur, ev = note(store_of(ctx), " ".join(text), cards, player, deck, match_id)
    if as_json:
        echo_json({"match": cur.match.id, "event": ev.seq, **ev.data})
        return
    click.echo(f"{describe(ev.data)} (match {cur.match.id}, event {ev.seq})")


@click.command("playtests")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="One row per player of each match (CSV).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write to a file.")
@click.option("--simulate", type=click.IntRange(0, 100_000), default=0, metavar="GAMES",
              help="Also play GAMES greedy games at each table size and show their per-card "
                   "win rates beside the real ones.")
@click.pass_context
def playtests_cmd(ctx, game: str | None, as_json: bool, as_csv: bool, output, simulate: int) -> None:
    """What the matches of GAME say (your game's name or folder, or a bundled game; the
    current match's game when left out): plays,
    wins by seat with 95% intervals, scores, length, category averages, per-card win rates
    where moves name cards, notes by card, and real play beside the simulation when its
    game.toml has a [balance] table (or with --simulate)."""
    from referee import playtests
    from referee.engine import RefereeError

    if as_json and as_csv:
        raise RefereeError("choose --json or --csv, not both", "--csv")
    store = store_of(ctx)
    if game is None:
        try:
            game = store.current().own_name
        except RefereeError:
            raise RefereeError("name the GAME: there is no current match to take it from",
                               "referee playtests") from None
    summary = playtests.gather(store, game, simulate)
    if as_json:
        from referee.jsontext import pretty

        data = pretty(summary) + "\n"
    elif as_csv:
        data = playtests.rows_csv(summary)
    else:
        data = playtests.text(summary) + "\n"
    if output is None:
        click.echo(data, nl=False)
        return
    from referee.export import write_atomic

    write_atomic(Path(output), data.encode())
    click.echo(f"wrote {output}")


COMMANDS = [note_cmd, playtests_cmd]  # loaded by the group when run
