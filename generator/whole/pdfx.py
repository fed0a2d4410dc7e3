"""A whole game for a print shop as PDF/X-1a: one file per component, each as `pnp build
--single --pdfx` writes a deck.

A PDF/X file is one printed product: a shop prints a deck, a sheet of tokens and a board as
separate jobs, each page trimmed to its TrimBox. So the components are not put in one file
with a contents page (which has no trim and would be printed as a card); each is written
beside the game's file name, GAME-COMPONENT.pdf. The designer's own pages (the rules) are not
cards and go to the shop as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from generator.build import Options, Result, built, write_atomic
from pnp_model.errors import PnpError
from pnp_model.game import Game


def component_path(out: Path, name: str) -> Path:
    """Where a component's PDF/X file goes: beside out, named after it and the component."""
    return out.with_name(f"{out.stem}-{name}{out.suffix or '.pdf'}")


def build_game_pdfx(game: Game, out: Path, opts: Options,
                    progress: Callable[[int], None] | None = None, strict: bool = False
                    ) -> Result:
    """Every component's PDF/X-1a file; the result lists them (info "files"). All are drawn
    before any is written: with `strict` and a warning, none is (the last good set stays)."""
    files, notes, pages, cards, paper, drawn = [], [], 0, 0, "", []
    for comp in game.components:
        path = component_path(out, comp.name)
        try:
            data, r = built(comp.deck, path, opts, progress)
        except PnpError as e:  # name the component, whatever the option or table at fault
            raise PnpError(f"{comp.name}: {e.what}", e.where) from None
        files.append({"component": comp.name, "kind": comp.kind, "path": str(path),
                      "pages": r.pages, "pieces": r.cards})
        drawn.append((path, data))
        notes += [f"{comp.name}: {n}" for n in r.notes]
        pages, cards, paper = pages + r.pages, cards + r.cards, r.paper
    kept = {"not in PDF/X": f"the designer's pages ({', '.join(p.name for p in game.pages)}): "
                            "send them to the shop as they are"} if game.pages else {}
    result = Result(out, pages, cards, paper, {"files": files, **kept}, tuple(notes))
    if strict and notes:
        return replace(result, written=False)
    for path, data in drawn:
        write_atomic(path, data)
    return result
