"""Fonts that get embedded: the Bitstream Vera family shipped inside reportlab, plus any TTF
a definition names by path. Standard PDF fonts are never used, so every PDF carries its fonts."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp_model.errors import PnpError

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


# Bold and italic spans use these variants of a built-in font; a user's .ttf has no known
# variants and is used as it is.
VARIANTS = {"sans": ("sans", "sans-bold", "sans-italic", "sans-bold-italic")}
for _members in list(VARIANTS.values()):
    for _member in _members:
        VARIANTS[_member] = _members

# The fallback for characters the card's font lacks: DejaVu Sans, Vera's own extension (same
# design and metrics for the letters they share), covering Latin, Greek, Cyrillic, arrows, math
# operators, dingbats and common symbols (★ ⚡ ♥ → ①). matplotlib ships it as TrueType.
FALLBACK_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                  "DejaVuSans-BoldOblique.ttf")
_SYSTEM_DEJAVU = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"),
                  Path("/usr/share/fonts/dejavu"))


def styled(name: str, bold: bool, italic: bool) -> str:
    """The registered variant of a font for a bold and/or italic span (itself if it has none)."""
    members = VARIANTS.get(name)
    if members is None:
        return name
    key = members[2 * italic + bold]
    return _register(key, _VERA / BUILTIN[key])


def fallback(bold: bool = False, italic: bool = False) -> str | None:
    """The registered fallback font for the style, or None when no DejaVu Sans is installed."""
    folder = _fallback_folder()
    if folder is None:
        return None
    index = 2 * italic + bold
    return _register(f"fallback-{index}", folder / FALLBACK_FILES[index])


def has_glyph(name: str, char: str) -> bool:
    """Whether the registered font draws this character (not an empty box)."""
    return ord(char) in _cmap(name)


_CMAPS: dict[str, dict[int, int]] = {}


def _cmap(name: str) -> dict[int, int]:
    found = _CMAPS.get(name)
    if found is None:
        found = _CMAPS[name] = pdfmetrics.getFont(name).face.charToGlyph
    return found


@cache
def _fallback_folder() -> Path | None:
    """matplotlib's bundled DejaVu Sans (found without importing matplotlib), else a system
    copy (Debian's fonts-dejavu-core and the like)."""
    import importlib.util

    spec = importlib.util.find_spec("matplotlib")
    places = [Path(p) / "mpl-data" / "fonts" / "ttf"
              for p in (spec.submodule_search_locations or [])] if spec else []
    for folder in (*places, *_SYSTEM_DEJAVU):
        if all((folder / f).is_file() for f in FALLBACK_FILES):
            return folder
    return None
