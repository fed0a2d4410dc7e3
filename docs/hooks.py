"""mkdocs hooks: the gallery is built from the bundled templates on every `mkdocs build`, and
both command groups load their lazily registered commands before mkdocs-click reads them, one
page per command (docs/cli_pages.py), and the tutorials' and guides' examples run to show what
they make beside them (docs/results.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cli_pages  # noqa: E402  (docs/cli_pages.py, beside this file)
import gallery  # noqa: E402  (docs/gallery.py, beside this file)
import results  # noqa: E402  (docs/results.py, beside this file)

_built: list[gallery.Built] = []
_results: dict[str, list[str]] = {}  # page -> what replaces each of its result markers
MARKER = "<!-- gallery -->"
COMMANDS = "<!-- commands -->"
CLI = "reference/cli.md"


def on_config(config, **kwargs):
    """mkdocs-click documents the commands a group already holds when it holds any, so the
    commands each CLI imports only when they run (export, verify, serve, simulate...) would be
    missing from the reference: load them all first."""
    from generator.cli import main as pnp
    from referee.cli import main as referee

    for group in (pnp, referee):
        group.load_all()
    _nest_commands(config["nav"] or [])
    return config


def _nest_commands(nav: list) -> bool:
    """The nav's "Command line" entry becomes a section: the overview, then a page per
    command of each program."""
    for i, item in enumerate(nav):
        if not isinstance(item, dict):
            continue
        ((title, value),) = item.items()
        if value == CLI:
            nav[i] = {title: [CLI, *cli_pages.nav()]}
            return True
        if isinstance(value, list) and _nest_commands(value):
            return True
    return False


def on_files(files, config, **kwargs):
    from mkdocs.structure.files import File

    for path, text in cli_pages.pages().items():
        files.append(File.generated(config, path, content=text))
    return files


def on_pre_build(config, **kwargs):
    _built[:] = gallery.build_gallery()
    _results.clear()
    for page in results.pages_with_results():
        _results[page.relative_to(results.DOCS).as_posix()] = results.build(page)


def on_page_markdown(markdown, page, **kwargs):
    if page.file.src_uri == "gallery.md":
        return markdown.replace(MARKER, gallery.markdown(_built))
    if page.file.src_uri == CLI:
        return markdown.replace(COMMANDS, cli_pages.index())
    if page.file.src_uri in _results:
        return results.replace(markdown, _results[page.file.src_uri])
    return markdown
