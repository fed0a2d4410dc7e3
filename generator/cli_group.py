"""pnp's click group: one-line errors, and the commands of generator/commands/ imported only
when run, so that `pnp build` does not load the exporter, the verifier or the watcher.

`pnp --help` lists those commands from LISTED (the first paragraph of each one's help; a test
checks it against theirs) without importing them. A module of generator/commands/ that is not
in ELSEWHERE still works: it is imported when the group needs the whole list or a command it
does not know (a test asks for it to be listed, so that it is lazy too). A mistyped command
imports them all, so that click suggests the one meant among every command."""

from __future__ import annotations

from pathlib import Path

import click

from pnp_shared.lazy_group import LazyGroup

ELSEWHERE = {  # command -> the module of generator/commands/ that defines it (in COMMANDS)
    "check": "generator.commands.export",
    "export": "generator.commands.export",
    "plane": "generator.commands.verify",
    "printer": "generator.commands.printer",
    "serve": "generator.commands.serve",
    "verify": "generator.commands.verify",
    "watch": "generator.commands.watch",
}

LISTED = {  # the first paragraph of the help of each command in ELSEWHERE
    "check": "Preflight GAME as a print shop would: low-resolution art, tiny text, text in the "
             "safe\n    zone margin, fonts not embedded. Exit code 1 when anything is found.",
    "export": "Export GAME's cards as images: each distinct face once, with a manifest.",
    "plane": "Print the incidence of the projective plane of order Q: each card's symbols "
             "(0-based).",
    "printer": "Printer profiles: a printer's back offset, flip edge and margin, applied to "
               "every build.",
    "serve": "Show GAME's printed pages and each card in a browser, updated on every save.",
    "verify": "Check a deck: a bundled template, a definition folder, or a CSV of symbols per "
              "card.",
    "watch": "Rebuild GAME's PDF (or --card / --page preview) whenever a file of its folder "
             "changes.",
}


class PnpGroup(LazyGroup):
    """The `pnp` group: the commands of generator/commands/ added when first asked for."""

    elsewhere = ELSEWHERE
    listed = LISTED
    program = ("pnp", "generator")  # `pnp`, or `python -m generator`
    _unlisted_loaded = False

    def _add_unlisted(self) -> None:
        """Import the modules of generator/commands/ that ELSEWHERE does not name (none today):
        a command module added later is not lost, only not lazy."""
        if self._unlisted_loaded:
            return
        self._unlisted_loaded = True
        known = set(ELSEWHERE.values())
        folder = Path(__file__).parent / "commands"
        for path in sorted(folder.glob("*.py")):
            name = f"generator.commands.{path.stem}"
            if path.stem != "__init__" and name not in known:
                self.load(name)

    def load_all(self) -> None:
        self._add_unlisted()
        super().load_all()

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_unlisted()
        return super().list_commands(ctx)
