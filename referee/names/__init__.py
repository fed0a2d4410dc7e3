"""Player names that look alike: `ana`, Cyrillic `аna`, fullwidth `ａna`, `a` + a combining accent.

Why: two players whose names look the same on a page or a log are one player to the table, so
a match refuses the second. Names are compared as Unicode's security report says (UTS #39,
"confusable detection"): after NFKC (fullwidth, ligatures, composed accents) and case folding,
by their skeleton, where each character is replaced by the prototype it is confused with. The
mapping is Unicode's confusables.txt (its two first fields, beside this file): no library on
PyPI gives the skeleton without a compiled ICU or a large binary, and the algorithm is three
lines (section 4 of the report).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from pathlib import Path

DATA = Path(__file__).with_name("confusables.txt")


@cache
def _prototypes() -> dict[str, str]:
    found = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            found[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return found


def skeleton(name: str) -> str:
    """UTS #39 skeleton of the name after NFKC: NFD, each character by its prototype, NFD
    again; then case folded, and again until it stays the same (`0` is confused with `O`,
    whose lower case `o` is the prototype of others). Equal skeletons look alike."""
    table = _prototypes()
    text = unicodedata.normalize("NFKC", name)
    for _ in range(4):  # two rounds settle every name; more only guards a data change
        folded = unicodedata.normalize("NFD", "".join(
            table.get(c, c) for c in unicodedata.normalize("NFD", text))).casefold()
        if folded == text:
            break
        text = folded
    return text


def _keys(name: str) -> tuple[str, str]:
    """What two names must not share: the skeleton, or the NFKC case-folded name (`I` and
    `i` are one name to the moves, though `I` is confused with `l`, not with `i`)."""
    return skeleton(name), unicodedata.normalize("NFKC", name).casefold()


def lookalikes(names: Sequence[str]) -> tuple[str, str] | None:
    """The first two names of the list that look alike, or None."""
    seen: dict[str, str] = {}
    for name in names:
        keys = _keys(name)
        for key in keys:
            if key in seen:
                return seen[key], name
        seen.update(dict.fromkeys(keys, name))
    return None
