"""A reference page per command of both programs (one page of every command was 23,000 px
tall): docs/hooks.py adds the pages and their place under "Command line" on every build, from
the commands the groups hold, so a new command gets its page without an edit here.

mkdocs-click reads a command as an attribute of a module: this module answers `pnp__build`
with the `build` command of `pnp`."""

from __future__ import annotations

import importlib

import click

PROGRAMS = {"pnp": "generator.cli", "referee": "referee.cli"}
FOLDER = "reference/cli"


def _group(prog: str) -> click.Group:
    return importlib.import_module(PROGRAMS[prog]).main


def commands(prog: str) -> list[str]:
    """The commands `PROG --help` lists (hidden ones left out)."""
    group = _group(prog)
    ctx = click.Context(group, info_name=prog)
    return [name for name in group.list_commands(ctx)
            if not group.get_command(ctx, name).hidden]


def __getattr__(name: str) -> click.Command:
    prog, _, command = name.partition("__")
    if prog not in PROGRAMS:
        raise AttributeError(name)
    group = _group(prog)
    found = group.get_command(click.Context(group, info_name=prog), command)
    if found is None:
        raise AttributeError(name)
    return found


def path(prog: str, command: str) -> str:
    return f"{FOLDER}/{prog}-{command}.md"


def page(prog: str, command: str) -> str:
    """The page's markdown: mkdocs-click's heading, usage and options of the one command."""
    return (f"::: mkdocs-click\n    :module: cli_pages\n    :command: {prog}__{command}\n"
            f"    :prog_name: {prog} {command}\n    :depth: 0\n    :style: plain\n\n"
            f"[All commands](../cli.md#every-command) · exit codes and examples: "
            f"[Command line](../cli.md)\n")


def pages() -> dict[str, str]:
    """Every command page: path -> markdown."""
    return {path(prog, c): page(prog, c) for prog in PROGRAMS for c in commands(prog)}


def nav() -> list[dict]:
    """The nav entries under "Command line": one section per program."""
    return [{prog: [{f"{prog} {c}": path(prog, c)} for c in commands(prog)]}
            for prog in PROGRAMS]


def index() -> str:
    """The overview's list: each command, its help's first line, a link to its page."""
    out = []
    for prog in PROGRAMS:
        group = _group(prog)
        ctx = click.Context(group, info_name=prog)
        out.append(f"\n### {prog}\n")
        for name in commands(prog):
            summary = group.get_command(ctx, name).get_short_help_str(limit=90)
            out.append(f"- [`{prog} {name}`](cli/{prog}-{name}.md): {summary}")
    return "\n".join(out) + "\n"
