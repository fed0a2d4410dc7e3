"""Colour literals a definition may write: #rrggbb, or cmyk(C,M,Y,K) in percent for print shops."""

from __future__ import annotations

import re

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_CMYK = re.compile(r"^cmyk\(\s*(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)\s*,"
                   r"\s*(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)\s*\)$")


def cmyk_percent(text: str) -> tuple[float, float, float, float] | None:
    """The four inks of a cmyk(...) literal as fractions, or None when it is not one."""
    m = _CMYK.match(text.strip().lower())
    if not m:
        return None
    inks = tuple(float(v) / 100 for v in m.groups())
    return inks if all(0 <= v <= 1 for v in inks) else None


def is_literal(text: str) -> bool:
    """#rrggbb or a valid cmyk(C,M,Y,K) with each ink 0..100."""
    return bool(_HEX.match(text)) or cmyk_percent(text) is not None
