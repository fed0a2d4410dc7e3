"""`referee shell`: one prompt per move for the current match.

Between turns at a table, `referee play ` is most of what is typed. The shell reads one line
per move (or a referee command: show, undo, ask ...), runs it as the CLI would (the same
group, in this process, so every answer and error reads the same), and draws the board again
after each move that counts. Lines are kept in a history file beside the match database
(arrow keys, Ctrl-R), and Tab completes commands, players and the words of the legal moves
(cards, cells, tiles), as far as the game can list them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import click

from pnp_shared.limits import MAX_NAME_CHARS
from pnp_shared.terminal import escape
from referee import session
from referee.clictx import store_of
from referee.engine import RefereeError

# Referee commands the shell runs by their name; every other line is a move. `end` and
# `replay` are also move verbs (Tripple Domino `end ...`, Duplicon `replay ...`): they are
# commands only with a flag (`end --abandoned`, `replay --to 5`).
TYPED_COMMANDS = ("show", "score", "log", "undo", "redo", "moves", "ask", "check", "adjust",
            "position", "matches", "standings", "rule", "games", "keep", "note", "playtests")
FLAGGED = ("end", "replay")
HELP = ("type a move as at `referee play` (without `referee play`); or a command: "
        + ", ".join(TYPED_COMMANDS + FLAGGED) + "; `help`, `quit` (or Ctrl-D)")


class Words:
    """Tab completion from the current position: commands, players, and the words of the
    legal moves (worked out once per position, when Tab is first pressed)."""

    def __init__(self, load: Callable[[], session.Loaded]):
        self.load = load
        self.key: tuple[int, int] | None = None
        self.moves: list[list[str]] = []
        self.players: list[str] = []

    def refresh(self) -> None:
        cur = self.load()
        key = (cur.match.id, cur.events[-1].seq)
        if key == self.key:
            return
        self.key, self.players = key, list(cur.match.players)
        try:
            moves = cur.game.legal_moves(cur.state) if cur.outcome() is None else []
            self.moves = [cur.game.format(cur.state, m).split() for m in moves]
        except (NotImplementedError, RefereeError):
            self.moves = []

    def candidates(self, typed: Sequence[str], prefix: str) -> list[str]:
        """Words that may come next after the words typed, starting with prefix."""
        self.refresh()
        n = len(typed)
        low = [w.lower() for w in typed]
        words = {m[n] for m in self.moves if len(m) > n and [w.lower() for w in m[:n]] == low}
        if n == 0:
            words |= set(TYPED_COMMANDS) | set(FLAGGED) | {"help", "quit"}
        elif typed[0] == "check":  # a move follows
            return self.candidates(typed[1:], prefix)
        elif typed[0] in TYPED_COMMANDS + FLAGGED:  # adjust PLAYER, end --winner PLAYER, ask ...
            words = set(self.players)
            if typed[0] == "ask":
                words |= {w for m in self.moves for w in m}
        if not words:
            words = set(self.players) | {w for m in self.moves for w in m}
        return sorted(w for w in words if w.lower().startswith(prefix.lower()))


def argv_for(line: str) -> list[str] | None:
    """The referee command line a shell line stands for (None: not a line to run)."""
    import shlex  # imported here: every `referee` command loads this module

    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    if not words:
        return None
    flagged = any(w.startswith("--") for w in words)
    if words[0] in TYPED_COMMANDS or (words[0] in FLAGGED and flagged):
        return words
    return ["play", *words] if flagged else ["play", line.strip()]  # `draw --by bob`


def prompt(cur: session.Loaded) -> str:
    """`tripple-domino #3 ana> `: the match and who acts next."""
    who = cur.game.to_move(cur.state)
    status = cur.status()
    tail = (f"({status})> " if status != "in play" else f"{who}> " if who else "> ")
    return f"{cur.match.game} #{cur.match.id} {tail}"


def run(ctx: click.Context) -> None:
    """The loop: prompt, read a line, run it, redraw the board after a move that counts."""
    group, store = ctx.find_root().command, store_of(ctx)
    words = Words(lambda: session.load(store))
    history = _readline(store.path.with_suffix(".history"), words)
    base = ["--db", str(store.path)]
    cur = session.load(store)  # no current match: the one-line error, before any prompt
    click.echo(f"match {cur.match.id}: {cur.match.game}, players {', '.join(cur.match.players)}"
               f" ({HELP})")
    click.echo(cur.board())
    first: session.Loaded | None = cur  # the first prompt: from the position just shown
    while True:
        shown, first = first or session.load(store), None  # then read again for each prompt
        try:
            line = input(escape(prompt(shown)))  # readline writes it past sys.stdout
        except EOFError:
            click.echo()
            break
        except KeyboardInterrupt:
            click.echo("^C (quit or Ctrl-D to leave)")
            continue
        if line.strip() in ("quit", "exit"):
            _forget_last()  # an Enter on the next session's first up-arrow would leave
            if history is not None:
                history()
            break
        if line.strip() in ("help", "?"):
            click.echo(HELP)
            continue
        argv = argv_for(line)
        if argv is None:
            continue
        _keep_last(_history_line(store, shown, line, argv))
        if history is not None:
            history()  # saved line by line: a closed terminal loses none of it
        code = _invoke(group, base + argv)
        if code == 0 and argv[0] in ("play", "undo", "redo", "end", "adjust"):
            now = session.load(store)
            click.echo(now.board())


def _invoke(group: click.Group, argv: list[str]) -> int:
    """Run one referee command line in this process; its exit code (errors are printed as
    the CLI prints them, and never end the shell)."""
    try:
        code = group.main(args=argv, prog_name="referee", standalone_mode=False)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return code if isinstance(code, int) else 0


def _history_line(store, shown: session.Loaded, line: str, argv: list[str]) -> str | None:
    """The line as the history keeps it: a move as the record keeps it (written from what the
    parser read, secrets left out: session.kept_text), another command as typed unless it
    may hold a secret (None: not kept). A command's words are asked about without its options
    (`score`, `log --json` hold nothing a game would withhold, even in a sealed match)."""
    if argv[0] not in ("play", "check"):
        free = " ".join(w for w in argv[1:] if not w.startswith("-"))
        hidden = free and shown.game.withheld(shown.state, free) is not None
        return None if hidden else line.strip()
    words, by, rest = [], None, argv[1:]
    while rest:
        w = rest.pop(0)
        if w in ("--by", "--match") and rest:
            value = rest.pop(0)
            by = value if w == "--by" else by
        elif w.startswith("--by="):
            by = w[len("--by="):]
        elif not w.startswith("--"):
            words.append(w)
    typed = " ".join(" ".join(words).split())
    try:
        kept = session.kept_text(store, typed, by)
    except RefereeError:
        return None
    if kept == typed:  # nothing withheld: the line as typed, its --by included
        return line.strip()
    if by is not None and len(by.split()) == 1 and len(by) <= MAX_NAME_CHARS:
        kept += f" --by {by}"
    return f"check {kept}" if argv[0] == "check" else kept


def _keep_last(line: str | None) -> None:
    """Put the line the history keeps in place of the one typed (None: drop it)."""
    if line is None:
        _forget_last()
        return
    try:
        import readline

        last = readline.get_current_history_length()
        if last and readline.get_history_item(last) != line:
            readline.replace_history_item(last - 1, line)
    except (ImportError, ValueError):
        pass


def _forget_last() -> None:
    try:
        import readline

        readline.remove_history_item(readline.get_current_history_length() - 1)
    except (ImportError, ValueError):
        pass


def _readline(path: Path, words: Words) -> Callable[[], None] | None:
    """History (kept in `path`) and Tab completion, where readline exists; the function that
    saves the history."""
    try:
        import readline
    except ImportError:  # e.g. Windows without pyreadline: the shell still works, plainly
        return None
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(1000)
    readline.set_completer_delims(" \t\n")  # 0-3-5, U1,0 and b2=blue are single words

    def complete(text: str, state: int) -> str | None:
        typed = readline.get_line_buffer()[:readline.get_begidx()].split()
        found = words.candidates(typed, text)
        return found[state] + " " if state < len(found) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")

    def save() -> None:
        try:
            readline.write_history_file(path)
        except OSError:
            pass

    return save


@click.command("shell")
@click.pass_context
def shell_cmd(ctx) -> None:
    """One prompt per move for the current match: history, Tab completion of commands, cards,
    cells and players, and the board drawn again after each move."""
    run(ctx)


COMMANDS = [shell_cmd]  # loaded by the group when run
