"""File names derived from a definition: slugs, never paths.

A shared definition must not choose where pnp writes: `name = "../../x"`, an absolute path or a
NUL would otherwise reach the file system. Only `-o` writes elsewhere than output/.
"""

from __future__ import annotations

import re
import unicodedata

from pnp_model.components import Deck


def slug(text: str, fallback: str = "card") -> str:
    """A file-name-safe lowercase slug: letters, digits and single dashes (é becomes e)."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    s = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    return s[:60].strip("-") or fallback


def output_stem(deck: Deck) -> str:
    """The stem of every file named after a deck: its game name, else its folder, as a slug."""
    return slug(deck.name, "") or slug(deck.root.resolve().name, "game")
