"""A click group whose commands may live in other modules, imported only when run: both CLIs
start faster when a command does not load the others' code (`pnp build` no exporter,
`referee show` no simulation).

`--help` lists such a command by the first paragraph of its help, kept in `listed` (each CLI
has a test that checks it against the command's own). A mistyped command imports every module,
so that click's "Did you mean ...?" can name a command not yet loaded."""

from __future__ import annotations

import importlib

import click

from pnp_shared.oneline import OneLineErrors


class LazyGroup(OneLineErrors):
    """`elsewhere`: command name -> module defining it (the module lists its commands in
    COMMANDS); `listed`: command name -> the first paragraph of its help."""

    elsewhere: dict[str, str] = {}
    listed: dict[str, str] = {}

    def load(self, module_name: str) -> None:
        """Add the commands of `module_name` (its COMMANDS) not already added."""
        for command in importlib.import_module(module_name).COMMANDS:
            if command.name not in self.commands:
                self.add_command(command)

    def load_all(self) -> None:
        for module in dict.fromkeys(self.elsewhere.values()):
            self.load(module)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.elsewhere})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands:
            if name in self.elsewhere:
                self.load(self.elsewhere[name])
            else:  # a mistyped name: every command, for click's "Did you mean ...?"
                self.load_all()
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, with the commands of other modules not imported."""
        listed = []
        for name in self.list_commands(ctx):
            cmd = self.commands.get(name)
            if cmd is None and name in self.elsewhere:
                cmd = click.Command(name, help=self.listed[name])
            elif cmd is None:
                cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                listed.append((name, cmd))
        if listed:
            limit = formatter.width - 6 - max(len(name) for name, _ in listed)
            with formatter.section("Commands"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in listed])
