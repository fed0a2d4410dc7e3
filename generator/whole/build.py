"""`pnp build` of a game of several components: plan, draw, write one PDF atomically."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from generator.build import Options, Result, write_atomic
from generator.whole.contents import rows
from generator.whole.plan import Part, plan_game, sheets
from pnp_model.game import Game


def build_game(game: Game, out: Path, opts: Options,
               progress: Callable[[int], None] | None = None,
               parts: list[Part] | None = None, strict: bool = False) -> Result:
    """`strict`: a build with warnings writes nothing (the last good PDF stays)."""
    if opts.pdfx:  # a file per component (generator/whole/pdfx.py)
        from generator.whole.pdfx import build_game_pdfx

        return build_game_pdfx(game, out, opts, progress, strict)
    parts = parts or plan_game(game, opts)
    data, result = game_pdf(game, out, opts, progress, parts)
    if strict and result.notes:
        return replace(result, written=False)
    write_atomic(out, data)
    return result


def game_pdf(game: Game, out: Path, opts: Options,
             progress: Callable[[int], None] | None = None,
             parts: list[Part] | None = None) -> tuple[bytes, Result]:
    """The whole game's PDF as `pnp build` writes it to `out`, and what the build reports:
    one function, so that previews and the live page show what the build prints."""
    from generator.notes import collecting
    from generator.whole.document import render_game

    parts = parts or plan_game(game, opts)
    apart = sheets(plan_game(game, opts, nesting=False)) if any(p.guests for p in parts) \
        else sheets(parts)
    with collecting() as notes:
        data = render_game(game.title, parts, cmyk=opts.cmyk, progress=progress,
                           pages=game.pages)
    warnings = [f"{p.component.name}: {w}" for p in parts for w in p.sheet.info.get("warnings", ())]
    pages = len(game.pages) + 1 + sum(p.pages + p.blank_before for p in parts)
    contents = rows(parts)
    cards = sum(int(r["pieces"]) for r in contents)
    return data, Result(out, pages, cards, parts[0].options.paper,
                        {"components": contents, "sheets": sheets(parts) + len(game.pages),
                         "sheets without nesting": apart + len(game.pages)},
                        (*warnings, *notes.values()))
