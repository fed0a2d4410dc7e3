"""referee: the table-side command line. Thin: parse options, call referee.session, print.

Generic over the game contract (engine.Rules): no game is named here. User mistakes are one line
`error: <what> (<where>)` with exit code 2; a rejected move is exit code 1 with the rule.
"""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pnp_shared.program import is_program

if is_program("referee"):  # not a test importing this: no cycle collection while the
    gc.disable()  # program loads (see clictx.without_cycle_collection)

import click  # noqa: E402

from pnp_shared.oneline import capped, fail, quoted  # noqa: E402
from referee import log_text  # noqa: E402
from referee.cli_group import RefereeGroup  # noqa: E402
from referee.clictx import (  # noqa: E402
    echo_json,
    parse_options,
    store_of,
    without_cycle_collection,
)

if TYPE_CHECKING:
    from referee import session
    from referee.engine import Verdict

# Each command imports what it needs when it runs (the rules, the store, the snapshots): a
# table waits on every command, and `referee --help` or `referee games` need none of that.


_store, _json, _parse_options = store_of, echo_json, parse_options
_points = log_text.points


@click.group("referee", cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-toolkit", prog_name="referee")
@click.option("--db", type=click.Path(dir_okay=False), envvar="REFEREE_DB",
              help="Match database (default: referee.sqlite3 in your data folder; $REFEREE_DB).")
@click.pass_context
def main(ctx: click.Context, db: str | None) -> None:
    """Record moves, check them against the rules, keep scores, settle disputes.

    Start with `referee games`, then `referee new GAME --players ana,bob` and
    `referee play MOVE` for each move; `referee show` draws the position.
    """
    ctx.obj = {"db": db, "store": None}
    without_cycle_collection(ctx)


# games and rules


@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def games_cmd(as_json: bool) -> None:
    """The games the referee knows, with their options."""
    from referee.games_listing import listing

    found = listing()
    if as_json:
        _json(found)
        return
    for g in found:
        lo, hi = g["players"]
        click.echo(f"{g['name']}  ({g['title']}, {lo}-{hi} players)")
        for o in g["options"]:
            choices = f" [{'|'.join(o['choices'])}]" if o["choices"] else ""
            click.echo(f"    --option {o['name']}={o['default']}{choices}  {o['help']}")
        if g["notation"]:
            click.echo(f"    moves: {g['notation']}")


@main.command("rule")
@click.argument("game")
@click.argument("rule_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def rule_cmd(ctx, game: str, rule_id: str | None, as_json: bool) -> None:
    """The text of a game's rules (all of them, or one by id, e.g. `rule tripple-domino D3`);
    during a match a rule id alone is the current match's rule (`rule U1`)."""
    from referee import registry
    from referee.engine import RefereeError

    try:
        g = registry.game(game)
    except RefereeError as unknown:
        current = _current_game(ctx) if rule_id is None else None
        if current is None:
            raise
        if game.strip().lower() not in {k.lower() for k in current.rules}:
            raise RefereeError(f"{game!r} is no rule of {current.name}, the current match's game "
                               f"(rules: {', '.join(current.rules)}), and {unknown.what}",
                               "referee rule") from None
        g, rule_id = current, game
    rules = list(g.rules.values())
    if rule_id is not None:
        found = {k.lower(): r for k, r in g.rules.items()}.get(rule_id.strip().lower())
        if found is None:
            raise RefereeError(f"no rule {rule_id!r} in {g.name} (rules: {', '.join(g.rules)})",
                               "referee rule")
        rules = [found]
    if as_json:
        _json([{"id": r.id, "text": r.text} for r in rules])
        return
    for r in rules:
        click.echo(f"{r.id}: {r.text}")


def _current_game(ctx):
    """The current match's game, or None when there is none (nor a database to hold one: a
    question about the rules creates no database)."""
    from referee import registry
    from referee.engine import RefereeError
    from referee.record import default_path

    db = ctx.find_root().obj.get("db")
    if not Path(db if db is not None else default_path()).is_file():
        return None
    try:
        return registry.game(_store(ctx).current().game)
    except RefereeError:
        return None


# matches


@main.command("new")
@click.argument("game")
@click.option("--players", required=True, help="Player names in seating order: ana,bob,cara.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. variant=pressman (repeatable; see `referee games`).")
@click.option("--position", type=click.File("r"), default=None,
              help="Start from a position written in a file ('-' reads stdin), for disputes.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def new_cmd(ctx, game: str, players: str, options, position, as_json: bool) -> None:
    """Start a new match; it becomes the current match."""
    from referee import session
    from referee.engine import RefereeError

    names = [p for p in players.split(",")]
    try:  # a byte-order mark (Windows editors write one) is not part of the position
        text = position.read().lstrip("\ufeff") if position is not None else None
    except UnicodeDecodeError:
        raise RefereeError(f"{position.name} is not a text file (UTF-8): write the position "
                           "as `referee position` prints it", "--position") from None
    store = _store(ctx)
    try:  # a dispute's scratch match says how to go back to the match it came from
        before = store.current().id if text is not None else None
    except RefereeError:
        before = None
    cur = session.new_match(store, game, names, _parse_options(options), text)
    m = cur.match
    if as_json:
        _json({"match": m.id, "game": m.game, "players": list(m.players), "options": m.options,
               "scratch": text is not None})
        return
    opts = " ".join(f"{k}={v}" for k, v in m.options.items() if v)  # options left empty: none
    click.echo(f"match {m.id}: {m.game}, players {', '.join(m.players)}"
               + (f", {opts}" if opts else ""))
    click.echo(cur.board())
    if text is not None:
        back = f"; `referee use {before}` goes back to match {before}" if before else ""
        click.echo(f"scratch match: a position typed in to settle a dispute stays out of "
                   f"standings, playtests and exports unless you keep it (`referee keep`){back}")


@main.command("matches")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def matches_cmd(ctx, as_json: bool) -> None:
    """Every match in the database; * marks the current one."""
    from referee import engine, record, scoreboard
    from referee.engine import RefereeError

    store = _store(ctx)
    try:
        current = store.current().id
    except RefereeError:
        current = None
    rows = [(x.match, x.scores, engine.Outcome(x.winners, x.reason or "") if x.winners is not None
             else None, x.moves, "unreadable" if x.error else x.status, x.error, x.scratch)
            for x in record.summaries_of(store)]
    if as_json:
        _json([{"match": m.id, "game": m.game, "players": list(m.players), "options": m.options,
                "created": m.created, "current": m.id == current,
                "totals": {p: t.total for p, t in tot.items()},
                "adjusted": {p: t.adjusted for p, t in tot.items()},
                "winners": list(o.winners) if o else None, "events": n, "error": err,
                "status": status, "scratch": scratch}
               for m, tot, o, n, status, err, scratch in rows])
        return
    if not rows:
        click.echo("no matches yet: start one with `referee new GAME --players ana,bob`")
    out = []  # one write for thousands of lines
    for m, tot, _, _, status, err, scratch in rows:
        mark = "*" if m.id == current else " "
        scores = scoreboard.line(tot)
        state = f"unreadable: {err}" if err else status + (", scratch" if scratch else "")
        game = "" if m.damage else m.game  # not the edited header's, nor an unchecked event's
        out.append(f"{mark}{m.id:>4}  {game:<16} {m.created[:16]}  {scores}  ({state})")
    if out:
        click.echo("\n".join(out))


@main.command("use")
@click.argument("match_id", type=int)
@click.pass_context
def use_cmd(ctx, match_id: int) -> None:
    """Make match ID the current match."""
    store = _store(ctx)
    m = store.set_current(match_id)
    click.echo(f"match {m.id}: {m.game}, players {', '.join(m.players)}")


# moves


def _print_verdict(v: Verdict) -> None:
    for x in v.violations:
        click.echo(capped(f"  {x.rule.id}: {x.reason}"))
        click.echo(f"      rule {x.rule.id}: {x.rule.text}")


def _secret_text(ctx, text: str, by: str | None, match_id: int | None = None) -> str:
    """--secret: read a secret with a hidden prompt; the game turns it into the public move
    (e.g. salted hashes), so the secret itself is never stored, logged or shown."""
    from referee import session
    from referee.engine import RefereeError

    cur = session.load(_store(ctx), match_id)
    g, state = cur.game, cur.state
    prompt = g.secret_prompt(state, text)
    stdin = sys.stdin
    if stdin.isatty():
        secret = click.prompt(prompt, hide_input=True, err=True)
    else:  # piped (a script, another program): one line from stdin, no terminal needed
        secret = stdin.readline().rstrip("\r\n")
        if not secret.strip():
            raise RefereeError(f"--secret read nothing from stdin: pipe one line ({prompt})",
                               "--secret")
    return g.secret_move(state, text, secret, by if by is not None else g.to_move(state))


def _move_command(ctx, words: tuple[str, ...], by: str | None, as_json: bool, dry: bool,
                  secret: bool = False, match_id: int | None = None) -> int:
    from referee import registry, session

    text = " ".join(words)
    if secret:
        text = _secret_text(ctx, text, by, match_id)
    p = session.play(_store(ctx), text, by, dry=dry, match_id=match_id)
    on = f"  (match {p.match.id})"  # every verdict names its match: another terminal may switch
    if as_json:
        _json(log_text.verdict_json(p))
        return 2 if p.error else (0 if p.verdict.legal else 1)
    if p.error is not None:
        kept = "" if dry else "; kept in the log as rejected"
        fail(f"match {p.match.id}: {p.error}{kept}", f"move {quoted(p.text)}")
    v = p.verdict
    # Moves of real-time games carry their player ("ana: ..."); do not say it twice.
    who = f"{p.player}: " if p.player and not str(p.move).startswith(f"{p.player}:") else ""
    if not v.legal:
        click.echo(capped(f"illegal: {who}{p.move} — rejected"
                          + ("" if dry else " (kept in the log)") + on))
        _print_verdict(v)
        return 1
    verb = "legal" if dry else f"ok (event {p.event.seq})"
    click.echo(f"{verb}: {who}{p.move}{on}")
    if v.score:
        click.echo(f"  scores: {_points(v.score)}")
    for n in v.notes:
        click.echo(f"  {n}")
    if not dry:
        g = registry.game(p.match.game)
        nxt = g.to_move(p.state)
        outcome = p.outcome  # on the corrected totals, as show and every other view
        if outcome is not None:
            click.echo(f"  game over: {', '.join(outcome.winners)} — {outcome.reason}")
        elif nxt:
            click.echo(f"  next: {nxt}")
    return 0


# A move may hold a negative number (`ana military -2` on a score sheet) or a player named
# `-2+3`: a word that cannot be an option (a dash and a letter, or two dashes and a word), a
# word of several (`"-2+3 coins 3"`) and every word after `--` belong to the move; any other
# unknown option is still one (with did-you-mean).
MOVE_WORDS = {"ignore_unknown_options": True}
OPTION = re.compile(r"--?[A-Za-z][\w-]*(=\S*)?")
AFTER_DASHES = "referee.words after --"  # ctx.meta key: how many MOVE words followed `--`


class MoveCommand(click.Command):
    """A command whose MOVE words may start with a dash: it notes how many words followed
    `--`, which click passes on as arguments without saying so."""

    def parse_args(self, ctx, args):
        if "--" in args:
            ctx.meta[AFTER_DASHES] = len(args) - args.index("--") - 1
        return super().parse_args(ctx, args)


def _options_in(ctx, words: tuple[str, ...]) -> None:
    typed = words[:len(words) - ctx.meta.get(AFTER_DASHES, 0)]
    for word in typed:
        if OPTION.fullmatch(word):
            raise click.NoSuchOption(word, ctx=ctx)


@main.command("play", cls=MoveCommand, context_settings=MOVE_WORDS)
@click.argument("move", nargs=-1, required=True)
@click.option("--by", "by", help="Who makes the move (default: whose turn it is).")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.option("--secret", is_flag=True,
              help="Type a secret at a hidden prompt (e.g. coda: seal your tiles); only what "
                   "the game derives from it (hashes) is recorded.")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def play_cmd(ctx, move, by, as_json, secret, match_id) -> None:
    """Record a move: applied when legal, rejected with the rule and reason (exit 1) if not."""
    _options_in(ctx, move)
    ctx.exit(_move_command(ctx, move, by, as_json, dry=False, secret=secret, match_id=match_id))


@main.command("ask")
@click.argument("question", nargs=-1, required=True)
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def ask_cmd(ctx, question, match_id, as_json) -> None:
    """Ask the referee about the position to settle a dispute, in the game's own words
    (e.g. coda: `ask possible ben 2 7 miss`; thricewise: `ask cells`)."""
    from referee import session

    text = " ".join(question)
    cur, answer = session.ask(_store(ctx), text, match_id)
    if as_json:
        _json({"match": cur.match.id, "question": text, "answer": answer})
        return
    click.echo(answer)


@main.command("check", cls=MoveCommand, context_settings=MOVE_WORDS)
@click.argument("move", nargs=-1, required=True)
@click.option("--by", "by", help="Who would make the move (default: whose turn it is).")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def check_cmd(ctx, move, by, as_json, match_id) -> None:
    """Dry run: would this move be legal, and what would it score? Records nothing."""
    _options_in(ctx, move)
    ctx.exit(_move_command(ctx, move, by, as_json, dry=True, match_id=match_id))


# looking at a match


def _show(cur: session.Loaded, as_json: bool, full: bool = False) -> None:
    g, m, state = cur.game, cur.match, cur.state
    outcome = cur.outcome()
    scores = cur.scores()
    if as_json:
        _json({"match": m.id, "game": m.game, "players": list(m.players),
               "event": cur.events[-1].seq, "to_move": g.to_move(state),
               "totals": {p: t.total for p, t in scores.items()},
               "adjusted": {p: t.adjusted for p, t in scores.items()},
               "status": cur.status(), "position": cur.position(),
               "outcome": {"winners": list(outcome.winners), "reason": outcome.reason}
               if outcome else None,
               "board": cur.board(full)})
        return
    click.echo(f"match {m.id}: {m.game}, players {', '.join(m.players)}, "
               f"after event {cur.events[-1].seq}")
    click.echo(cur.board(full))
    if outcome is not None:
        winners = ", ".join(outcome.winners) or "nobody"
        click.echo(f"game over: {winners} — {outcome.reason}")


@main.command("show")
@click.option("--as", "viewer", hidden=True,
              help="Accepted for old scripts: the referee records only what is public (secrets "
                   "are never stored), so every player sees the same position.")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--full", is_flag=True, help="The whole board, even when it does not fit the screen.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False),
              help="Write the board drawn as a picture (SVG, as `referee serve` shows it).")
@click.pass_context
def show_cmd(ctx, viewer, match_id, full, as_json, svg_file) -> None:
    """The position: board with coordinates, whose turn, scores."""
    from referee import engine, session
    from referee.engine import RefereeError

    if viewer is not None:  # still a player of the match: a typo is reported
        engine.find_player(session.load(_store(ctx), match_id).match.players, viewer, "--as",
                           RefereeError)
    cur = session.load(_store(ctx), match_id)
    if svg_file is not None:
        _write_picture(cur, svg_file)
        return
    _show(cur, as_json, full)


def _write_picture(cur: session.Loaded, path: str) -> None:
    from referee import svg
    from referee.engine import RefereeError

    picture = cur.game.picture(cur.state)
    if picture is None:
        raise RefereeError(f"{cur.game.name} draws no picture: `referee show` prints the board",
                           "--svg")
    svg.write_file(path, picture)
    click.echo(f"wrote {path}")


@main.command("replay")
@click.option("--to", "upto", type=int, required=True, help="Show the match as after event N.")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def replay_cmd(ctx, upto, match_id, as_json) -> None:
    """The position as it was right after event N of the log (see `referee log`)."""
    from referee import session

    _show(session.load(_store(ctx), match_id, upto=upto), as_json)


@main.command("position")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.pass_context
def position_cmd(ctx, match_id) -> None:
    """The position as text that `referee new GAME --position FILE` reads back (disputes)."""
    from referee import session
    from referee.engine import RefereeError

    cur = session.load(_store(ctx), match_id)
    text = cur.position()
    if text is None:
        raise RefereeError(f"{cur.game.name} cannot write its position as text", "referee position")
    click.echo(text.rstrip("\n"))


@main.command("score")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--all", "every", is_flag=True,
              help="Every round, however many (by default the latest rounds, a screenful).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON (every line).")
@click.pass_context
def score_cmd(ctx, match_id, every, as_json) -> None:
    """The score ledger, round by round, every bonus and penalty itemised (the latest rounds;
    --all: every one), and the totals."""
    if as_json:
        from referee.whole_record import score_json

        click.echo(score_json(_store(ctx), match_id))
        return
    from referee import session
    from referee.score_view import ledger_text

    cur = session.load(_store(ctx), match_id)
    click.echo(ledger_text(cur.ledger(), cur.match.players, every, cur.scores()))


LOG_SHOWN = 30  # events `referee log` lists by default: a screenful


@main.command("log")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--all", "every", is_flag=True,
              help=f"Every event, however many (by default the last {LOG_SHOWN}).")
@click.option("--json", "as_json", is_flag=True, help="Print every event as JSON.")
@click.option("--script", is_flag=True,
              help="Print the referee commands that replay the match into a new one.")
@click.pass_context
def log_cmd(ctx, match_id, every, as_json, script) -> None:
    """The match record: the latest events in order (--all: every one), with who, what and
    the points each scored."""
    if every or as_json or script:
        from referee.whole_record import whole_log

        form = "script" if script else "json" if as_json else "all"
        click.echo(whole_log(_store(ctx), match_id, form))
        return
    from referee import session

    lines = session.log(_store(ctx), match_id, LOG_SHOWN)
    out = []
    if lines and lines[0].seq > 1:
        out.append(f"({lines[0].seq - 1:,} earlier event{'s' if lines[0].seq > 2 else ''} not "
                   f"shown: `referee log --all` lists every event)")
    out += [log_text.line(x) for x in lines]
    click.echo("\n".join(out))


@main.command("standings")
@click.option("--game", "game_name", help="Only matches of this game.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def standings_cmd(ctx, game_name, as_json) -> None:
    """Across matches, per game and player: played, finished, won, and the average and best
    total of finished matches (one given up after an entry would drag the average down)."""
    from referee import record

    left_out: list = []  # damaged matches: marked, the others still counted
    rows = record.standings(_store(ctx), game_name, left_out)
    marks = [f"match {x.match.id} left out: {x.error}" for x in left_out]
    if as_json:
        _json([s._asdict() for s in rows])
        for line in marks:
            click.echo(line, err=True)
        return
    if not rows and not marks:
        click.echo("no matches yet")
        return
    if marks:
        click.echo("\n".join(marks))
    if not rows:  # every match left out: no table to draw
        click.echo("no matches left to count")
        return
    from pnp_shared.columns import left, widest

    width = widest((s.player for s in rows), 6)
    for game in dict.fromkeys(s.game for s in rows):  # one table per game: scales differ
        click.echo(f"{game}\n  {'player':<{width}}  played  finished  won  average  best")
        for s in (s for s in rows if s.game == game):
            average = "-" if s.average is None else f"{s.average:.1f}"
            best = "-" if s.best is None else s.best
            click.echo(f"  {left(s.player, width)}  {s.played:>6}  {s.finished:>8}  {s.won:>3}  "
                       f"{average:>7}  {best:>4}")
        out = [f"{s.player} {s.played - s.finished}" for s in rows
               if s.game == game and s.played > s.finished]
        if out:
            click.echo(f"  average and best are of finished matches; left out, unfinished "
                       f"(abandoned or in play): {', '.join(out)}")
        adjusted = [f"{s.player} {s.adjusted:+d}" for s in rows
                    if s.game == game and s.adjusted]
        if adjusted:
            click.echo(f"  totals include the table's adjustments: {', '.join(adjusted)}")


@main.command("verify")
@click.option("--all", "every", is_flag=True, help="Every match in the database.")
@click.option("--match", "match_id", type=int, help="Another match than the current one.")
@click.option("--full", is_flag=True,
              help="Also replay each match from its first event and compare every cached state "
                   "with it (slow on long matches).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def verify_cmd(ctx, every, match_id, full, as_json) -> None:
    """Check the record: hash chains, match headers, chain heads, every cache's MAC, no match
    dropped (exit 1 with what broke and where)."""
    from referee.record import verify

    report = verify(_store(ctx), match_id, every, full)
    if as_json:
        _json({"matches": report.matches, "events": report.events, "ok": not report.problems,
               "problems": [{"what": p.what, "where": p.where} for p in report.problems]})
    elif report.problems:
        for p in report.problems:
            click.echo(f"broken: {p}")
    else:
        how = "replayed from event 1" if full else "replayed from the newest snapshot"
        click.echo(f"ok: {report.matches} match(es), {report.events} events, every hash, head "
                   f"and cache as recorded; {how}")
    ctx.exit(1 if report.problems else 0)


@main.command("export")
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "bgstats"]), default="json",
              show_default=True,
              help="json: full record; csv: score items; bgstats: BG Stats plays.")
@click.option("--match", "match_id", type=int, help="One match (default: every match).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write to a file.")
@click.pass_context
def export_cmd(ctx, fmt, match_id, output) -> None:
    """Export matches: the full record, the score items, or BG Stats plays."""
    from referee import export

    data = export.render(_store(ctx), fmt, match_id)
    if output is None:
        click.echo(data, nl=False)
        return
    export.write_atomic(Path(output), data)
    click.echo(f"wrote {output}")




if __name__ == "__main__":
    main()
