"""Text columns lined up as a terminal draws them, not as Python counts characters.

Why: a name such as `José` typed as e + a combining accent is five code points in four cells,
and `美咲` is two code points in four cells; padding by len() pushed the columns after such a
name out of line. The rule is the one terminals follow (wcwidth): combining marks and
zero-width format characters take no cell, East Asian wide and fullwidth characters two.
"""

from __future__ import annotations

import unicodedata


def width(text: str) -> int:
    """The cells `text` takes on a terminal."""
    cells = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        cells += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return cells


def left(text: str, cells: int) -> str:
    """`text` padded with spaces to `cells` cells (as f"{text:<{cells}}" by characters)."""
    return text + " " * (cells - width(text))


def widest(texts, least: int = 0) -> int:
    """The cells of the widest text, at least `least`."""
    return max([least, *(width(t) for t in texts)])
