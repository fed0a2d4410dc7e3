"""The match database of a `referee` invocation, opened once per command line (shared by the
command modules, so none of them imports another)."""

from __future__ import annotations

import click

from referee.store import Store


def store_of(ctx: click.Context) -> Store:
    """The Store of this invocation (--db or $REFEREE_DB), opened on first use."""
    obj = ctx.find_root().obj
    if obj.get("store") is None:
        obj["store"] = Store(obj.get("db"))
    return obj["store"]
