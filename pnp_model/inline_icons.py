"""The [icons] table: names that card text shows inline as `:name:`, sized to the line.

Pure Python (no reportlab), read with the definition so a misspelt file, shape or icon is an
error at load, naming the table entry. Three kinds:

    coin  = "art/coin.png"                       # an image in the game folder (PNG, JPG, SVG)
    heart = { shape = "heart", color = "red" }   # a built-in vector shape
    bolt  = { icon = "bolt", color = "#e0a100" } # a Font Awesome Free solid icon

A table entry may add `scale` (the icon's height in font sizes, default 1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp_model.art_folders import inside
from pnp_model.components import IMAGE_SUFFIXES
from pnp_model.errors import PnpError

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
KINDS = ("file", "shape", "icon")
MAX_SCALE = 5.0


@dataclass(frozen=True)
class InlineIcon:
    kind: str  # file | shape | icon
    value: str  # a path relative to the game folder, a shape name or a Font Awesome name
    color: str | None = None  # a resolved colour for shapes and icons (None: the text's)
    scale: float = 1.0


def read(table: dict[str, Any], root: Path, fname: str, color: Callable[[str, str], str],
         shape: Callable[[str, str], str]) -> dict[str, InlineIcon]:
    """Validate the [icons] table; `color` and `shape` resolve the definition's names."""
    from pnp_model.problems import guard

    out: dict[str, InlineIcon] = {}
    for name, spec in table.items():
        with guard():  # every entry's mistake is named in the same run
            out[str(name)] = _entry(str(name), spec, root, f"{fname} [icons].{name}", color,
                                    shape)
    return out


def _entry(name: str, spec: Any, root: Path, where: str, color: Callable[[str, str], str],
           shape: Callable[[str, str], str]) -> InlineIcon:
    """One entry checked: a file that exists, a known shape or icon, a colour, a scale."""
    if not NAME.fullmatch(name):
        raise PnpError(f"icon name {name!r} must start with a letter and hold only letters, "
                       "digits, - and _ (it is written :name: in text)", where)
    if isinstance(spec, str):
        spec = {"file": spec}
    if not isinstance(spec, dict):
        raise PnpError("an icon is a file name or a table such as { shape = \"heart\" }",
                       where)
    unknown = set(spec) - {*KINDS, "color", "scale"}
    kinds = [k for k in KINDS if k in spec]
    if unknown or len(kinds) != 1:
        raise PnpError("give exactly one of file, shape or icon (and optionally color, "
                       f"scale), not {', '.join(sorted(spec)) or 'nothing'}", where)
    kind, value = kinds[0], str(spec[kinds[0]])
    if kind == "file":
        if not value.lower().endswith(IMAGE_SUFFIXES):
            raise PnpError(f"icon file {value!r} is not a PNG, JPG or SVG file", where)
        if not inside(root, value, where, "icon file").is_file():
            raise PnpError(f"missing icon file {value!r}", where)
    elif kind == "shape":
        value = shape(value, where)
    elif not _is_icon(value):
        raise PnpError(f"no Font Awesome Free solid icon is named {value!r} (see "
                       "fontawesome.com/icons)", where)
    scale = spec.get("scale", 1.0)
    if isinstance(scale, bool) or not isinstance(scale, int | float) or \
            not 0 < scale <= MAX_SCALE:
        raise PnpError(f"scale must be a number above 0 and at most {MAX_SCALE:g}, "
                       f"not {scale!r}", where)
    tint = color(str(spec["color"]), f"{where}.color") if "color" in spec else None
    return InlineIcon(kind, value, tint, float(scale))


def _is_icon(name: str) -> bool:
    from pnp_model.designs import icons

    return icons.codepoint(name) is not None
