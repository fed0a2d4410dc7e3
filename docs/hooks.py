"""mkdocs hooks: the gallery is built from the bundled templates on every `mkdocs build`, and
both command groups load their lazily registered commands before mkdocs-click reads them."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gallery  # noqa: E402  (docs/gallery.py, beside this file)

_built: list[gallery.Built] = []
MARKER = "<!-- gallery -->"


def on_config(config, **kwargs):
    """mkdocs-click documents the commands a group already holds when it holds any, so the
    commands each CLI imports only when they run (export, verify, serve, simulate...) would be
    missing from the reference: load them all first."""
    from generator.cli import main as pnp
    from referee.cli import main as referee

    for group in (pnp, referee):
        group.load_all()
    return config


def on_pre_build(config, **kwargs):
    _built[:] = gallery.build_gallery()


def on_page_markdown(markdown, page, **kwargs):
    if page.file.src_uri == "gallery.md":
        return markdown.replace(MARKER, gallery.markdown(_built))
    return markdown
