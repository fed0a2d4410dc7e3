"""The click group both CLIs use: every user mistake (ours or click's) is one line, exit 2.

`error: <what> (<where>)`; no traceback. A UserError that names no place gets the command it
came from when the group says so (`name_the_command`).
"""

from __future__ import annotations

import sys

import click

from pnp_shared.errors import UserError
from pnp_shared.limits import MAX_ERROR_CHARS
from pnp_shared.program import is_program, leave_now
from pnp_shared.terminal import escaped

CUT = 60  # characters of a quoted input an error message shows
LONGEST = MAX_ERROR_CHARS  # characters of an error line at most, `error: ` included
PLACE = 200  # characters of the `(where)` part at most: the what keeps the rest


def one_line(text: str) -> str:
    """Text of several lines (click's usage messages) as one."""
    return " ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def shorten(text: str, keep: int = LONGEST) -> str:
    """A long text as an error message shows it: its first characters and its length."""
    if len(text) <= keep:
        return text
    return f"{text[:keep]}… ({len(text):,} characters)"


def quoted(text: str, keep: int = CUT) -> str:
    """An input quoted in an error message: whole when short, else its first `keep`
    characters and its length (`'xxxx…' (120,000 characters)`)."""
    if len(text) <= keep:
        return repr(text)
    return f"{text[:keep]!r}… ({len(text):,} characters)".replace("'…", "…'", 1)


def capped(line: str, keep: int = LONGEST) -> str:
    """One line of at most `keep` characters: its start, then how long it was."""
    if len(line) <= keep:
        return line
    tail = f"… ({len(line):,} characters)"
    return line[:keep - len(tail)] + tail


def error_line(what: str, where: str | None = None) -> str:
    """`error: what (where)` in at most LONGEST characters: a message echoing a huge input
    keeps its start and says how long it was, and the place is always shown."""
    what = one_line(what)
    where = one_line(where) if where else ""
    if len(where) > PLACE:
        where = f"{where[:PLACE - 2]}…"
    what = capped(what, LONGEST - len("error: ") - (len(where) + 3 if where else 0))
    return f"error: {what} ({where})" if where else f"error: {what}"


def fail(what: str, where: str | None = None) -> None:
    """Print `error: what (where)` on stderr and exit with code 2."""
    click.echo(error_line(what, where), err=True)
    sys.exit(2)


MAX_SHOWN = 20  # mistakes listed from one run; the rest are counted


def error_lines(error: UserError) -> list[str]:
    """`error: what (where)` for each mistake an error carries (several when a loader collected
    them: the first MAX_SHOWN, then one line counting the rest)."""
    errors = getattr(error, "errors", None) or [error]
    lines = [error_line(e.what, e.where) for e in errors[:MAX_SHOWN]]
    if len(errors) > MAX_SHOWN:
        lines.append(f"error: {len(errors) - MAX_SHOWN} more mistakes not shown "
                     f"({len(errors)} in all)")
    return lines


class OneLineErrors(click.Group):
    """A click group whose user mistakes end as one line `error: ...` with exit code 2."""

    name_the_command = False  # a UserError without `where` gets "<prog> <subcommand>"
    program: tuple[str, str | None] | None = None  # (name, package) of the program, for leave()

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        with escaped():  # no stored text reaches the terminal as a control sequence
            rv = self._run(args, prog_name, complete_var, **extra)
        code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            self.leave(code)
        return code

    def _run(self, args, prog_name, complete_var, **extra):
        """The command run, each user mistake printed as one line; its exit code."""
        rv = None
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as e:  # click's own mistakes, in our words
            from pnp_shared.click_words import translate

            fail(*translate(e, self._typed_path(args)))
        except click.exceptions.Abort as e:
            # the program (referee), else the command the user ran (`pnp export`)
            where = self.name if self.name_the_command else self._typed_path(args)
            if isinstance(e.__cause__, KeyboardInterrupt):  # Ctrl-C: 130, as shells report it
                click.echo(error_line("aborted", where), err=True)
                sys.exit(130)
            fail("aborted", where)
        except UserError as e:
            for line in error_lines(e):
                click.echo(line, err=True)
            sys.exit(2)
        except BrokenPipeError:
            sys.exit(0)
        except SystemExit as e:  # a command that ends with sys.exit(1) leaves as one returning 1
            if not isinstance(e.code, int):
                raise
            rv = e.code
        except OSError as e:
            fail(f"{e.strerror or e}", e.filename and str(e.filename))
        except UnicodeEncodeError as e:  # bytes that were not UTF-8, handed over by click
            bad = e.object[e.start:e.end].encode("utf-8", "surrogateescape").hex()
            fail(f"an argument is not UTF-8 text (byte 0x{bad[:2]}): type it again in UTF-8")
        return rv

    def _typed_path(self, args) -> str:
        """`referee export` for an error click raised before it knew the command (a flag
        without its value): the first word typed that names one of the group's commands."""
        words = list(args) if args is not None else sys.argv[1:]
        names = set(self.list_commands(click.Context(self)))
        sub = next((w for w in words if w in names), None)
        return f"{self.name} {sub}" if sub else str(self.name)

    def leave(self, code: int) -> None:
        """End after a command that went through: the program itself at once
        (pnp_shared.program.leave_now), a process importing the CLI (tests) as click's
        programs do."""
        if self.program is not None and is_program(*self.program):
            leave_now(code)
        sys.exit(code)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UserError as e:
            if e.where is None and self.name_the_command:
                sub = ctx.invoked_subcommand
                e.where = f"{ctx.command_path} {sub}" if sub else ctx.command_path
            raise
