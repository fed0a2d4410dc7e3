"""The referee's click group: one-line errors, and commands kept in other modules imported only
when run (`referee --help` lists them from LISTED, so it loads none of them)."""

from __future__ import annotations

from pnp_shared.lazy_group import LazyGroup

LISTED = {  # the first paragraph of the help of each command in RefereeGroup.elsewhere
    "undo": "Take back the latest entry (a move, an adjustment, an early end); the log keeps "
            "it, marked as undone. A rejected attempt is not a move: undo right after one sets "
            "it aside and leaves the move before it standing (undo again to take that back).",
    "redo": "Put back what the latest undo took back (until a new move is made).",
    "adjust": "Correct a player's score by ±POINTS, with a reason (shown in score, log, "
              "exports).",
    "end": "End the current match early: abandoned, or with the result the table declares.",
    "keep": "Keep a scratch match (one typed in from a position to settle a dispute): it then "
            "counts in standings, playtests and exports.",
    "moves": "The legal moves of the player to act, as you would type them (where the game can "
             "list them from what the table sees).",
    "shell": "One prompt per move for the current match: history, Tab completion of commands, "
             "cards, cells and players, and the board drawn again after each move.",
    "note": "Attach a playtest note to the match, about a card with --card; kept in the log "
            "(undo takes it back) and summed up by `referee playtests`: `referee note \"too "
            "strong\" --card firestorm`.",
    "playtests": "What the matches of GAME say (your game's name or folder, or a bundled "
                 "game; the current match's game when left out): plays, wins by seat with 95% "
                 "intervals, scores, length, category "
                 "averages, per-card win rates where moves name cards, notes by card, and real "
                 "play beside the simulation when its game.toml has a [balance] table (or with "
                 "--simulate).",
    "simulate": "Play GAME many times with bots, dealt from the printed components: seat win "
                "rates, scores, game length, rounds with no winner, per-card figures.",
    "look": "Read a photo of the table: the cards printed with `pnp build --markers` and "
            "where they lie, as a position file `referee new --position` takes; or a symbol "
            "deck's cards (Dobble) by their features, and the symbol two of them share. Cards "
            "it cannot read are listed as not seen, never guessed. Needs the camera extra: pip "
            "install 'pnp-toolkit[camera]'.",
    "serve": "The match's page for the phones and the TV at the table: players "
             "and totals, whose turn, the last ruling, the score by round and the board drawn "
             "as a picture; it follows every move typed in any terminal.",
}


class RefereeGroup(LazyGroup):
    """Every user mistake is one line; one that names no place gets its command. The table's
    commands, the shell and the simulation live in their own modules, imported only when run."""

    name_the_command = True
    elsewhere = {**dict.fromkeys(("undo", "redo", "adjust", "end", "keep", "moves"),
                                 "referee.commands.table"),
                 "shell": "referee.commands.shell", "simulate": "referee.commands.simulate",
                 "serve": "referee.commands.serve", "look": "referee.commands.look",
                 **dict.fromkeys(("note", "playtests"), "referee.commands.playtest")}
    listed = LISTED
    program = ("referee", None)

    def main(self, *args, **kwargs):
        """The command run; a process that goes on after it (the shell, tests) gets Ctrl-C
        back (the program itself ends in main, still holding it: pnp_shared/interrupts.py)."""
        from pnp_shared import interrupts

        try:
            return super().main(*args, **kwargs)
        finally:
            interrupts.release()
