"""Which digits a number may be written with: 0-9 only (docs/reference/limits.md).

Why: Python's int() and float() read '٣' (Arabic-Indic) and '３' (fullwidth) as 3, so a qty or a
move would count what its reader may not see as a number, and the tools print every number
back in 0-9. A digit of another script is refused by name instead of read silently.
"""

from __future__ import annotations

import unicodedata


def foreign_digit(text: str) -> str | None:
    """The first decimal digit of `text` that is not 0-9 ('٣', '３'), or None; '²' is not
    one (int() refuses it, so every reader already says it is not a number)."""
    if text.isascii():
        return None
    for ch in text:
        if ch.isdecimal() and not ch.isascii():
            return ch
    return None


def digit_name(ch: str) -> str:
    """'٣' -> "'٣' (arabic-indic digit three)"."""
    return f"{ch!r} ({unicodedata.name(ch, f'U+{ord(ch):04X}').lower()})"
