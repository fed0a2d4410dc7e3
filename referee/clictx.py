"""The match database of a `referee` invocation, opened once per command line (shared by the
command modules, so none of them imports another)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from referee.record import Store


def store_of(ctx: click.Context) -> Store:
    """The Store of this invocation (--db or $REFEREE_DB), opened on first use."""
    from referee.record import Store  # not for `referee --help` or `referee games`

    root = ctx.find_root()
    obj = root.obj
    if obj.get("store") is None:  # the shell and the page stop on Ctrl-C: they never hold it
        sub, path = root.invoked_subcommand, obj.get("db")
        creates = sub in CREATES
        if path is not None:
            _named(root, Path(path), creates)
        obj["store"] = store = Store(path, hold_on_commit=sub not in TAKE_CTRL_C,
                                     create=creates)
        root.call_on_close(lambda: _finish(store))
    return obj["store"]


# the commands that may make the database: simulate --keep, and the table page, which waits
# for the first match (`referee serve` before `referee new`) and whose seats record moves
CREATES = ("new", "simulate", "serve")


def _named(root: click.Context, path: Path, creates: bool) -> None:
    """A database named with --db or $REFEREE_DB: a command that only reads needs it there, and
    one that makes it needs its folder (a typo makes neither a folder nor an empty database)."""
    from click.core import ParameterSource

    from referee.engine import RefereeError

    where = "$REFEREE_DB" if root.get_parameter_source("db") is ParameterSource.ENVIRONMENT \
        else "--db"
    folder = path.parent
    if creates and not folder.is_dir():
        why = "is a file" if folder.exists() else "does not exist"
        raise RefereeError(f"the folder {str(folder)!r} of the database {why}: make it first, "
                           "or pick another path", where)
    if not creates and not path.exists():
        raise RefereeError(f"no database at {str(path)!r}: check the path, or start one with "
                           "`referee new GAME --players ana,bob`", where)


TAKE_CTRL_C = ("shell", "serve")  # commands that run until Ctrl-C (their own writes: per command)


def _finish(store: Store) -> None:
    """After the command: what its checks found, remembered for the next command while the
    file stays as it is; then the database is closed."""
    from referee import record

    record.finish(store)


def echo_json(data: Any) -> None:
    from referee.jsontext import pretty

    click.echo(pretty(data))


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """--option key=value pairs as a dict; a malformed or repeated key is a user error."""
    from referee.engine import RefereeError

    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RefereeError(f"an option is written key=value, not {pair!r}", "--option")
        if key.strip() in out:
            raise RefereeError(f"option {key.strip()} is given twice: "
                               f"{out[key.strip()]!r} and {value.strip()!r}", "--option")
        out[key.strip()] = value.strip()
    return out


LONG_RUNNING = ("shell", "simulate", "serve")


def without_cycle_collection(ctx: click.Context) -> None:
    """A command that answers and exits runs without Python's cyclic garbage collector (the
    process ends before cycles matter; collecting walked the objects of a long match's state
    again and again for nothing). The `referee` program starts without it (see
    cli.py: the imports alone set it off several times) and a command that exits never turns
    it back on; run in a process that goes on (tests, the shell's own commands), it is put back
    when the command ends. The shell and the simulation run long: they collect cycles, all but
    those among the objects made while starting (gc.freeze: modules, code)."""
    import gc

    if ctx.invoked_subcommand in LONG_RUNNING:
        if not gc.isenabled():
            gc.freeze()
            gc.enable()
    elif gc.isenabled():
        gc.disable()
        ctx.call_on_close(gc.enable)
