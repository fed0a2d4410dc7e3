"""File names derived from a definition: slugs, never paths.

A shared definition must not choose where pnp writes: `name = "../../x"`, an absolute path or a
NUL would otherwise reach the file system. Only `-o` writes elsewhere than output/.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from pnp_model.components import Deck
from pnp_model.errors import PnpError


def slug(text: str, fallback: str = "card") -> str:
    """A file-name-safe lowercase slug: letters, digits and single dashes (é becomes e)."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    s = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    return s[:60].strip("-") or fallback


def output_stem(deck: Deck) -> str:
    """The stem of every file named after a deck: its game name, else its folder, as a slug."""
    return slug(deck.name, "") or slug(deck.root.resolve().name, "game")


def output_path(output: Path | None, stem: str, count: int) -> Path:
    """Where a game's PDF goes: output/<stem>.pdf, or -o as a file (one game) or a folder."""
    if output is None:
        return Path("output") / f"{stem}.pdf"
    if count > 1 and output.suffix.lower() == ".pdf" and not output.is_dir():
        raise PnpError(f"{count} games make {count} PDFs: give a folder, not a .pdf file",
                       "--output")
    if count > 1 or output.is_dir() or output.suffix.lower() != ".pdf":
        return output / f"{stem}.pdf"
    return output
