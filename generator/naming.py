"""File names derived from a definition: slugs, never paths.

A shared definition must not choose where pnp writes: `name = "../../x"`, an absolute path or a
NUL would otherwise reach the file system. Only `-o` writes elsewhere than output/.
"""

from __future__ import annotations

import os
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


def name_slug(text: str) -> str:
    """slug() for a game's name, keeping a name in another script: "日本語" and "🎲🎲" became ""
    and then both "game", the second build overwriting the first. Latin names are slugged as
    ever (é becomes e); a name with letters, digits or symbols ASCII cannot spell keeps them,
    lowercased, in at most 120 bytes (file names allow 255)."""
    text = unicodedata.normalize("NFKC", str(text))
    if all(ord(c) < 128 for c in unicodedata.normalize("NFKD", text) if _kept(c)):
        return slug(text, "")
    s = re.sub(r"-+", "-", "".join(c.lower() if _kept(c) else "-" for c in text)).strip("-")
    while len(s.encode()) > 120:
        s = s[:-1]
    return s.strip("-")


def _kept(c: str) -> bool:
    """A letter, a digit or a symbol such as an emoji: never a separator, a quote or a slash."""
    category = unicodedata.category(c)
    return category[0] in "LN" or category == "So"


def output_stem(deck: Deck) -> str:
    """The stem of every file named after a deck or a game: its name, else its folder's."""
    return name_slug(deck.name) or name_slug(deck.root.resolve().name) or "game"


def output_path(output: str | Path | None, stem: str, count: int) -> Path:
    """Where a game's PDF goes: output/<stem>.pdf; with -o, a path ending .pdf is the file (one
    game), an existing folder or a path ending / is the folder; any other suffix is refused
    (`-o out.png` made a folder out.png, `-o ''` wrote into the current folder)."""
    if output is None:
        return Path("output") / f"{stem}.pdf"
    text = str(output)
    if not text.strip():
        raise PnpError("-o is empty: give a .pdf file or a folder", "--output")
    path = Path(text)
    folder = text.endswith(("/", os.sep)) or path.is_dir()
    if not folder and path.suffix.lower() == ".pdf":
        if count > 1:
            raise PnpError(f"{count} games make {count} PDFs: give a folder, not a .pdf file",
                           "--output")
        return path
    if not folder and path.suffix:
        raise PnpError(f"{text} is neither a .pdf file nor a folder: end a file's name with "
                       ".pdf, a new folder's with /", "--output")
    return path / f"{stem}.pdf"
