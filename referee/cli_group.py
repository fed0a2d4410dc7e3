"""The referee's click group: one-line errors, and commands kept in other modules imported only
when run (`referee --help` lists them from LISTED, so it loads none of them)."""

from __future__ import annotations

import click

from pnp_shared.oneline import OneLineErrors


class RefereeGroup(OneLineErrors):
    """Every user mistake is one line; one that names no place gets its command. The table's
    commands, the shell and the simulation live in their own modules, imported only when run;
    `referee --help` lists them by the first paragraph of their help, kept in LISTED (a test
    checks it against theirs)."""

    name_the_command = True
    elsewhere = {name: "referee.table_cli" for name in ("undo", "redo", "adjust", "end", "moves")}
    elsewhere["shell"] = "referee.shell"
    elsewhere["simulate"] = "referee.simulate_cli"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.elsewhere})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.elsewhere and name not in self.commands:
            import importlib

            module = importlib.import_module(self.elsewhere[name])
            self.add_command(getattr(module, f"{name}_cmd"))
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, with the commands of other modules not imported."""
        listed = [(name, self.commands.get(name) or click.Command(name, help=LISTED[name])
                   if name in self.elsewhere else self.get_command(ctx, name))
                  for name in self.list_commands(ctx)]
        listed = [(name, cmd) for name, cmd in listed if cmd is not None and not cmd.hidden]
        if listed:
            limit = formatter.width - 6 - max(len(name) for name, _ in listed)
            with formatter.section("Commands"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in listed])


LISTED = {  # the first paragraph of the help of each command in RefereeGroup.elsewhere
    "undo": "Take back the latest entry (a move, an adjustment, an early end); the log keeps "
            "it, marked as undone. A rejected attempt is not a move: undo right after one sets "
            "it aside and leaves the move before it standing (undo again to take that back).",
    "redo": "Put back what the latest undo took back (until a new move is made).",
    "adjust": "Correct a player's score by ±POINTS, with a reason (shown in score, log, "
              "exports).",
    "end": "End the current match early: abandoned, or with the result the table declares.",
    "moves": "The legal moves of the player to act, as you would type them (where the game can "
             "list them from what the table sees).",
    "shell": "One prompt per move for the current match: history, Tab completion of commands, "
             "cards, cells and players, and the board drawn again after each move.",
    "simulate": "Play GAME many times with bots, dealt from the printed components: seat win "
                "rates, scores, game length, rounds with no winner, per-card figures.",
}
