"""The table's commands (undo, redo, adjust, end, moves): thin, over referee.table_session.

Kept apart from cli.py, which loads them only when one of them is run (or --help lists them).
"""

from __future__ import annotations

import click

from referee import scoreboard, session, table_session
from referee.clictx import echo_json, store_of
from referee.engine import Event

_store = store_of


def _entry(e: Event) -> str:
    """An entry as undo/redo name it: `event 7 3-4-5 U1,0, bob's move`."""
    text = str(e.data.get("text", "")) if e.kind == "move" else session.describe(e)
    who = e.data.get("player")
    whose = f", {who}'s move" if e.kind == "move" and who else ""
    return f"event {e.seq} {text}{whose}"


def _now(match_id: int, to_move: str | None) -> str:
    return f"  now: {to_move}'s turn" if to_move else f"  now: no turn order (match {match_id})"


@click.command("undo")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def undo_cmd(ctx, match_id) -> None:
    """Take back the latest entry (a move, an adjustment, an early end); the log keeps it,
    marked as undone. A rejected attempt is not a move: undo right after one sets it aside
    and leaves the move before it standing (undo again to take that back)."""
    done = table_session.undo(_store(ctx), match_id)
    m = done.match
    if done.taken is not None:
        click.echo(f"undone: {_entry(done.taken)} (match {m.id}, event {done.event.seq})")
        click.echo(_now(m.id, done.to_move))
        if done.winner:
            click.echo(f"  {done.winner}")
        return
    tried = ", ".join(f"{e.data.get('player') or 'someone'}'s {e.data.get('text')!r} "
                      f"(event {e.seq})" for e in done.dismissed)
    click.echo(f"nothing taken back: the rejected attempt {tried} changed nothing; set aside "
               f"(match {m.id}, event {done.event.seq})")
    if done.stands is not None:
        click.echo(f"  still in force: {_entry(done.stands)} (`undo` again takes it back)")
    click.echo(_now(m.id, done.to_move))


@click.command("redo")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def redo_cmd(ctx, match_id) -> None:
    """Put back what the latest undo took back (until a new move is made)."""
    done = table_session.redo(_store(ctx), match_id)
    click.echo(f"redone: {_entry(done.taken)} (match {done.match.id}, event {done.event.seq})")
    click.echo(_now(done.match.id, done.to_move))
    if done.winner:
        click.echo(f"  {done.winner}")


@click.command("adjust", context_settings={"ignore_unknown_options": True})
@click.argument("player")
@click.argument("points")
@click.option("--reason", required=True, help="Why the score is corrected (kept in the log).")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def adjust_cmd(ctx, player: str, points: str, reason: str, match_id) -> None:
    """Correct a player's score by ±POINTS, with a reason (shown in score, log, exports).

    E.g. `referee adjust ana -5 --reason "counted a tile twice"`; the position the rules
    judge is not changed."""
    cur, ev, winner = table_session.adjust(_store(ctx), player, points, reason, match_id)
    d = ev.data
    click.echo(f"adjusted: {d['player']} {d['points']:+d} ({d['reason']}) "
               f"(match {cur.match.id}, event {ev.seq})")
    click.echo(f"  total: {scoreboard.line(cur.scores())}")
    if winner:
        click.echo(f"  {winner}")


@click.command("end")
@click.option("--abandoned", is_flag=True, help="Nobody wins; the match is no longer in play.")
@click.option("--winner", "winners", multiple=True,
              help="The declared winner (repeat it or ana,bob for a shared win).")
@click.option("--reason", default="", help="Why the match ends early (kept in the log).")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def end_cmd(ctx, abandoned: bool, winners: tuple[str, ...], reason: str, match_id) -> None:
    """End the current match early: abandoned, or with the result the table declares."""
    names = [w for group in winners for w in group.split(",") if w.strip()]
    cur = table_session.end(_store(ctx), abandoned, names, reason, match_id)
    on = f" --match {cur.match.id}" if match_id is not None else ""  # not the current match
    click.echo(f"match {cur.match.id} ended: {cur.status()} (event {cur.events[-1].seq}); "
               f"`referee undo{on}` takes it back")


@click.command("keep")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def keep_cmd(ctx, match_id) -> None:
    """Keep a scratch match (one typed in from a position to settle a dispute): it then
    counts in standings, playtests and exports."""
    cur = table_session.keep(_store(ctx), match_id)
    click.echo(f"match {cur.match.id} kept: it counts in standings, playtests and exports "
               f"(event {cur.events[-1].seq})")


@click.command("moves")
@click.option("--all", "show_all", is_flag=True, help="List every move, however many.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def moves_cmd(ctx, show_all: bool, as_json: bool) -> None:
    """The legal moves of the player to act, as you would type them (where the game can list
    them from what the table sees)."""
    listed = table_session.moves(_store(ctx))
    if as_json:
        echo_json({"match": listed.match.id, "to_move": listed.to_move,
                   "moves": list(listed.moves)})
        return
    who = f"{listed.to_move} to move" if listed.to_move else "anyone may play"
    n = len(listed.moves)
    click.echo(f"{who}: {n} legal move{'' if n == 1 else 's'}")
    shown = listed.moves if show_all else listed.moves[:MOVES_SHOWN]
    for text in shown:
        click.echo(f"  {text}")
    if len(shown) < n:
        click.echo(f"  ... and {n - len(shown)} more (`referee moves --all`)")


MOVES_SHOWN = 30  # a screenful


COMMANDS = [undo_cmd, redo_cmd, adjust_cmd, end_cmd, keep_cmd, moves_cmd]  # loaded by the group when run
