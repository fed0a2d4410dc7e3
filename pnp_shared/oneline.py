"""The click group both CLIs use: every user mistake (ours or click's) is one line, exit 2.

`error: <what> (<where>)`; no traceback. A UserError that names no place gets the command it
came from when the group says so (`name_the_command`).
"""

from __future__ import annotations

import sys

import click

from pnp_shared.errors import UserError


def one_line(text: str) -> str:
    """Text of several lines (click's usage messages) as one."""
    return " ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def fail(what: str, where: str | None = None) -> None:
    """Print `error: what (where)` on stderr and exit with code 2."""
    what = one_line(what)
    click.echo(f"error: {what} ({where})" if where else f"error: {what}", err=True)
    sys.exit(2)


MAX_SHOWN = 20  # mistakes listed from one run; the rest are counted


def error_lines(error: UserError) -> list[str]:
    """`error: what (where)` for each mistake an error carries (several when a loader collected
    them: the first MAX_SHOWN, then one line counting the rest)."""
    errors = getattr(error, "errors", None) or [error]
    lines = [f"error: {one_line(e.what)} ({e.where})" if e.where else f"error: {one_line(e.what)}"
             for e in errors[:MAX_SHOWN]]
    if len(errors) > MAX_SHOWN:
        lines.append(f"error: {len(errors) - MAX_SHOWN} more mistakes not shown "
                     f"({len(errors)} in all)")
    return lines


class OneLineErrors(click.Group):
    """A click group whose user mistakes end as one line `error: ...` with exit code 2."""

    name_the_command = False  # a UserError without `where` gets "<prog> <subcommand>"

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.UsageError as e:
            fail(e.format_message(), e.ctx.command_path if e.ctx is not None else self.name)
        except click.exceptions.Abort:
            fail("aborted", self.name if self.name_the_command else None)
        except UserError as e:
            for line in error_lines(e):
                click.echo(line, err=True)
            sys.exit(2)
        except BrokenPipeError:
            sys.exit(0)
        except OSError as e:
            fail(f"{e.strerror or e}", e.filename and str(e.filename))
        code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UserError as e:
            if e.where is None and self.name_the_command:
                sub = ctx.invoked_subcommand
                e.where = f"{ctx.command_path} {sub}" if sub else ctx.command_path
            raise
