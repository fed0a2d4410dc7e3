"""`pnp watch`: rebuild a game's PDF or preview whenever one of its files is saved.

A designer edits cards.csv or the art and looks at the result, without a manual rebuild each
time. The folder is watched with watchfiles (native file-system events). A save with a mistake
prints its error lines and leaves the last good output where it was (files are written
atomically), so the viewer keeps showing something sensible until the mistake is fixed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.errors import PnpError

# Changes grouped for at most this long before a rebuild; a save is picked up after STEP_MS
# of quiet (an editor writes a file in several steps, a spreadsheet saves several files).
DEBOUNCE_MS = 400
STEP_MS = 30


@dataclass(frozen=True)
class Target:
    """What a watch rebuilds: the PDF (default), cards' previews (--card) or a page (--page)."""

    card: str | None = None
    page: int | None = None
    dpi: int = 100
    output: Path | None = None  # a PDF or PNG file; a folder for several cards


def render_once(game: str | Path, target: Target) -> tuple[list[Path], str, list[str]]:
    """Load the definition afresh and write the target's files; returns them, a summary and
    the build's warnings (text that does not fit, a missing glyph...)."""
    from generator.definition import load
    from generator.naming import output_stem

    deck = load(game)
    stem = output_stem(deck)
    if target.card is not None:
        from generator.cardselect import select
        from generator.preview import preview_card

        cards = select(deck, target.card)
        outs = []
        for card in cards:
            name = f"{stem}-card-{card.id}.png"
            out = (target.output / name if target.output and len(cards) > 1 else
                   target.output) or Path("output") / name
            preview_card(deck, card.id, out, dpi=target.dpi)
            outs.append(out)
        return outs, f"{len(cards)} card preview{'s' if len(cards) > 1 else ''}", []
    if target.page is not None:
        from generator.preview import preview_page

        out = target.output or Path("output") / f"{stem}-page-{target.page}.png"
        preview_page(deck, target.page, out, dpi=target.dpi)
        return [out], f"page {target.page}", []
    from generator.build import Options, build

    out = target.output or Path("output") / f"{stem}.pdf"
    result = build(deck, out, Options())
    warnings = [f"warning: {deck.name}: {text}" for text in result.notes]
    return [out], f"{result.cards} cards on {result.pages} pages", warnings


def outputs_filter(root: Path, target: Target) -> Callable[[object, str], bool]:
    """watchfiles' default filter (editor swap files, .git, caches) that also ignores what the
    watch itself writes, so a game folder holding its output/ does not rebuild forever."""
    from watchfiles import DefaultFilter

    default = DefaultFilter()
    root = root.resolve()
    own = (target.output or Path("output")).resolve()
    own_folder = own if own.suffix == "" else own.parent
    skip_folder = own_folder != root and own_folder not in root.parents

    def keep(change, path: str) -> bool:
        p = Path(path)
        if skip_folder and (p == own_folder or own_folder in p.parents):
            return False
        if p == own or (p.parent == own.parent and p.name.startswith(f".{own.name}.")):
            return False
        return default(change, path)

    return keep


def watch(game: str | Path, target: Target, report: Callable[[str, bool], None],
          stop_event=None) -> None:
    """Build once, then again after every change under the game's folder, until `stop_event`
    is set (or Ctrl-C, which the caller handles). `report(line, is_error)` gets each outcome,
    and a line starting `watching` once the watcher runs."""
    from watchfiles import watch as watch_files

    from generator.definition import find

    root = find(game)
    keep = outputs_filter(root, target)
    before = _snapshot(root, keep)
    built = _rebuild(root, target, report, "start", built=False)
    starting = True
    for changes in watch_files(root, watch_filter=keep, debounce=DEBOUNCE_MS, step=STEP_MS,
                               stop_event=stop_event, rust_timeout=250, yield_on_timeout=True):
        names = sorted({_relative(path, root) for _, path in changes if Path(path).exists()})
        names = names or sorted({_relative(path, root) for _, path in changes})
        if starting:  # a save between the first build and the watcher's start is not lost
            starting = False
            if not names and _snapshot(root, keep) != before:
                names = ["a file saved while starting"]
            report(f"watching {root} for changes (Ctrl-C to stop)", False)
        if names:
            why = ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")
            built = _rebuild(root, target, report, why, built) or built


def _snapshot(root: Path, keep: Callable[[object, str], bool]) -> dict[str, tuple[int, int]]:
    """Size and modification time of every watched file, to notice a save made before the
    watcher runs."""
    from watchfiles import Change

    found = {}
    for p in root.resolve().rglob("*"):
        if p.is_file() and keep(Change.modified, str(p)):
            st = p.stat()
            found[str(p)] = (st.st_mtime_ns, st.st_size)
    return found


def _relative(path: str, root: Path) -> str:
    p = Path(path).resolve()
    return str(p.relative_to(root.resolve())) if root.resolve() in p.parents else p.name


def _rebuild(root: Path, target: Target, report: Callable[[str, bool], None], why: str,
             built: bool) -> bool:
    """Build and report; True when the output was written. `built`: whether an earlier
    rebuild succeeded, so an error line can say a good output is still there."""
    from pnp_shared.oneline import capped, error_lines

    kept = "kept the last good output" if built else "no good build yet"
    start = time.perf_counter()
    try:
        outs, summary, warnings = render_once(root, target)
    except PnpError as e:
        for line in error_lines(e):
            report(capped(f"{line} [{why}; {kept}]"), True)
        return False
    except Exception as e:  # a bug must not end the session; say it in one line
        report(capped(f"error: unexpected {type(e).__name__}: {e} [{why}; {kept}]"), True)
        return False
    took = time.perf_counter() - start
    report(f"built {', '.join(map(str, outs))} ({summary}) in {took:.2f} s [{why}]", False)
    for line in warnings:  # on stderr with the errors: the designer must see it
        report(line, True)
    return True
