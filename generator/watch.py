"""`pnp watch`: rebuild a game's PDF or preview whenever one of its files is saved.

A designer edits cards.csv or the art and looks at the result, without a manual rebuild each
time. The folder is watched with watchfiles (native file-system events). A save with a mistake
prints its error lines and leaves the last good output where it was (files are written
atomically), so the viewer keeps showing something sensible until the mistake is fixed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.build import Options
from generator.preview import AS_DEFINED
from pnp_model.errors import PnpError
from pnp_shared.counts import plural

# Changes grouped for at most this long before a rebuild; a save is picked up after STEP_MS
# of quiet (an editor writes a file in several steps, a spreadsheet saves several files).
DEBOUNCE_MS = 400
STEP_MS = 30


@dataclass(frozen=True)
class Target:
    """What a watch rebuilds: the PDF (default), cards' previews (--card) or a page (--page),
    printed with the build's options."""

    card: str | None = None
    page: int | None = None
    dpi: int = 100
    output: Path | None = None  # a PDF or PNG file; a folder for several cards
    opts: Options = AS_DEFINED
    component: str | None = None  # a game of several components: whose cards --card shows


def render_once(game: str | Path, target: Target) -> tuple[list[Path], str, list[str]]:
    """Load the definition afresh and write the target's files; returns them, a summary and
    the build's warnings (text that does not fit, a missing glyph...)."""
    from generator.naming import output_stem
    from pnp_model.game import load_game

    whole = load_game(game)
    if whole.whole and target.card is None:
        return _render_game(whole, target)
    if target.component:
        whole.needs_components("--component")
    if whole.whole:
        from generator.whole.preview import component_deck

        deck = component_deck(whole, target.component, "--card")
    else:
        deck = whole.components[0].deck
    stem = output_stem(deck)
    said: dict[str, None] = {}  # the warnings in order, each once
    if target.card is not None:
        from generator.preview import preview_cards

        outs, warnings = preview_cards(deck, target.card, target.output, target.dpi,
                                       opts=target.opts)
        said.update(dict.fromkeys(warnings))
        summary = f"{len(outs)} card preview{'s' if len(outs) > 1 else ''}"
    elif target.page is not None:
        from generator.preview import preview_page

        out = target.output or Path("output") / f"{stem}-page-{target.page}.png"
        said.update(dict.fromkeys(preview_page(deck, target.page, out, target.dpi,
                                                target.opts)))
        outs, summary = [out], f"page {target.page}"
    else:
        from generator.build import build

        out = target.output or Path("output") / f"{stem}.pdf"
        result = build(deck, out, target.opts)
        said.update(dict.fromkeys(result.notes))
        outs, summary = [out], f"{plural(result.cards, 'card')} on {plural(result.pages, 'page')}"
    return outs, summary, [f"warning: {deck.name}: {text}" for text in said]


def _render_game(game, target: Target) -> tuple[list[Path], str, list[str]]:
    """A game of several components: its one PDF, or a page of it (--page)."""
    from generator.naming import output_stem

    stem = output_stem(game)
    if target.page is not None:
        from generator.whole.preview import preview_game_page

        out = target.output or Path("output") / f"{stem}-page-{target.page}.png"
        notes, summary = preview_game_page(game, target.page, out, target.dpi, target.opts), \
            f"page {target.page}"
    else:
        from generator.whole.build import build_game

        out = target.output or Path("output") / f"{stem}.pdf"
        result = build_game(game, out, target.opts)
        notes = result.notes
        summary = f"{plural(result.cards, 'piece')} in " \
                  f"{plural(len(game.components), 'component')} on {plural(result.pages, 'page')}"
    return [out], summary, [f"warning: {game.name}: {text}" for text in dict.fromkeys(notes)]


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
    from pnp_model.definition import find

    root = find(game)
    built = False

    def rebuild(why: str) -> None:
        nonlocal built
        built = _rebuild(root, target, report, why, built, options_final=why == "start") \
            or built

    watch_folder(root, outputs_filter(root, target), rebuild, stop_event,
                 started=lambda: report(f"watching {root} for changes (Ctrl-C to stop)", False))


def watch_folder(root: Path, keep: Callable[[object, str], bool],
                 rebuild: Callable[[str], None], stop_event=None,
                 started: Callable[[], None] | None = None) -> None:
    """`rebuild("start")`, then `rebuild(why)` after every save of a file `keep` keeps under
    `root` (`why` names the files), until `stop_event` is set; `started()` once the watcher
    runs. Shared by `pnp watch` and `pnp serve`.

    Only `root` and its own folders are watched, each alone, never a folder reached through a
    link: a link to /usr once registered a watch on each of its 15,781 folders (and a link to
    / used up the user's inotify limit for every program). A folder made while watching is
    watched from then on."""
    from watchfiles import watch as watch_files

    folders = _folders(root, keep)
    before = _snapshot(folders, keep)
    rebuild("start")
    starting = True
    while stop_event is None or not stop_event.is_set():
        for changes in watch_files(*folders, watch_filter=keep, debounce=DEBOUNCE_MS,
                                   step=STEP_MS, stop_event=stop_event, rust_timeout=250,
                                   yield_on_timeout=True, recursive=False):
            names = sorted({_relative(path, root) for _, path in changes
                            if Path(path).exists()})
            names = names or sorted({_relative(path, root) for _, path in changes})
            if starting:  # a save between the first build and the watcher's start is not lost
                starting = False
                if not names and _snapshot(folders, keep) != before:
                    names = ["a file saved while starting"]
                if started is not None:
                    started()
            if names:
                rebuild(", ".join(names[:3]) + (" ..." if len(names) > 3 else ""))
            now = _folders(root, keep) if changes else folders
            if now != folders:  # a folder made or removed: watch the new set
                folders = now
                break
        else:
            return  # stopped


def _folders(root: Path, keep: Callable[[object, str], bool]) -> list[Path]:
    """`root` and every folder under it that `keep` keeps, reached without following a link
    (os.walk lists a linked folder but does not enter it)."""
    from watchfiles import Change

    found = []
    for here, dirs, _ in os.walk(root.resolve()):
        found.append(Path(here))
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(here, d))
                         and keep(Change.added, os.path.join(here, d)))
    return found


def _snapshot(folders: list[Path], keep: Callable[[object, str], bool]
              ) -> dict[str, tuple[int, int]]:
    """Size and modification time of every watched file, to notice a save made before the
    watcher runs."""
    from watchfiles import Change

    found = {}
    for folder in folders:
        for p in folder.iterdir():
            if p.is_file() and keep(Change.modified, str(p)):
                st = p.stat()
                found[str(p)] = (st.st_mtime_ns, st.st_size)
    return found


def _relative(path: str, root: Path) -> str:
    p = Path(path).resolve()
    return str(p.relative_to(root.resolve())) if root.resolve() in p.parents else p.name


def at_option(error: PnpError) -> bool:
    """Whether an error names a command-line option (or the printer profile that set one): a
    mistake of the command, which no save in the game's folder is meant to fix."""
    return any(where.strip().startswith(("--", "printer profile "))
               for where in (error.where or "").split(","))


def _rebuild(root: Path, target: Target, report: Callable[[str, bool], None], why: str,
             built: bool, options_final: bool = False) -> bool:
    """Build and report; True when the output was written. `built`: whether an earlier
    rebuild succeeded, so an error line can say a good output is still there.
    `options_final`: an error at an option is raised, not reported (the first build: the
    command is wrong, and watching would wait forever for a save that cannot fix it)."""
    from pnp_shared.oneline import capped, error_lines

    kept = "kept the last good output" if built else "no good build yet"
    start = time.perf_counter()
    try:
        outs, summary, warnings = render_once(root, target)
    except PnpError as e:
        if options_final and at_option(e):
            raise
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
