"""Fonts that get embedded: the Bitstream Vera family shipped inside reportlab, plus any TTF
a definition names by path. Standard PDF fonts are never used, so every PDF carries its fonts."""

from __future__ import annotations

from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.errors import PnpError

_VERA = Path(reportlab.__file__).parent / "fonts"
BUILTIN = {"sans": "Vera.ttf", "sans-bold": "VeraBd.ttf", "sans-italic": "VeraIt.ttf",
           "sans-bold-italic": "VeraBI.ttf"}


def font(name: str | None, root: Path | None = None, where: str = "") -> str:
    """The registered reportlab font name for a definition's font value (default: sans)."""
    key = (name or "sans").strip()
    if key in BUILTIN:
        return _register(key, _VERA / BUILTIN[key])
    if key.lower().endswith((".ttf", ".otf")) and root is not None:
        path = root / key
        if not path.is_file():
            raise PnpError(f"font file {key!r} not found", where)
        return _register(f"user-{path.stem}", path, where)
    raise PnpError(f"unknown font {key!r} (use {', '.join(BUILTIN)} or a .ttf file)", where)


def _register(name: str, path: Path, where: str = "") -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception as e:  # reportlab raises plain errors for unreadable fonts
            raise PnpError(f"cannot use font {path.name}: not a TrueType (.ttf) font file "
                           f"({_one_line(e)})", where) from None
    return name


def _one_line(e: Exception) -> str:
    return " ".join(str(e).split())
