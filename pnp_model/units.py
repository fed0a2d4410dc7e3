"""Lengths as users write them ("63mm", "2.5in", "18pt", "poker") turned into PDF points.

Everything inside the code is in points (1/72 in); units only exist at the edges.
"""

from __future__ import annotations

import math
import re

from pnp_model.errors import PnpError
from pnp_model.input_limits import ascii_digits

MM = 72 / 25.4
INCH = 72.0
UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0, "px": 72 / 300}

# Card sizes in millimetres (width, height), portrait.
CARD_SIZES_MM = {
    "poker": (63.5, 88.9),
    "poker-eu": (63.0, 88.0),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),
    "mini": (44.45, 63.5),
    "euro": (59.0, 92.0),
    "square": (63.5, 63.5),
    "business": (50.8, 88.9),
    "tile": (20.0, 30.0),
}

# The largest page a PDF may have (200 in, 5080 mm): no printable length is longer.
MAX_LENGTH = 200 * INCH

# Paper sizes in millimetres (width, height), portrait; any other is WIDTHxHEIGHT ("300x200mm").
PAPER_SIZES_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0),
                  "a5": (148.0, 210.0), "legal": (215.9, 355.6), "tabloid": (279.4, 431.8),
                  "ledger": (279.4, 431.8)}  # ledger is tabloid turned: orientation turns it
US_PAPERS = ("letter", "legal", "tabloid", "ledger")  # US shops ask for 1/8 in of bleed

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-z]*)\s*$", re.IGNORECASE)


def length(text: str | int | float, where: str = "", percent_of: float | None = None) -> float:
    """Parse one length into points. Bare numbers are millimetres; "50%" needs percent_of.

    nan, inf and lengths past MAX_LENGTH are refused here, before they reach the drawing code.
    """
    if isinstance(text, bool):
        raise PnpError(f"expected a length such as '3mm', got {text!r}", where)
    if isinstance(text, int | float):
        return _printable(_as_float(text) * MM, text, where)
    s = str(text).strip()
    ascii_digits(s, "the length", where)
    if s.endswith("%"):
        if percent_of is None:
            raise PnpError(f"a percentage is not allowed here: {text!r}", where)
        try:
            return _printable(float(s[:-1]) / 100 * percent_of, text, where)
        except ValueError:
            raise PnpError(f"bad percentage {text!r}", where) from None
    m = _LENGTH.match(s)
    if not m:
        raise PnpError(f"bad length {text!r}: write a number and a unit, e.g. '3mm', '0.125in'", where)
    value, unit = float(m.group(1)), (m.group(2) or "mm").lower()
    if unit not in UNITS:
        raise PnpError(f"unknown unit {m.group(2)!r} in {text!r} (use mm, cm, in, pt)", where)
    return _printable(value * UNITS[unit], text, where)


def number(value: int | float, where: str = "", limit: float = 1e9) -> float:
    """A number from a definition as a float: nan, inf and anything beyond ±limit are refused."""
    result = _as_float(value)
    if not math.isfinite(result) or abs(result) > limit:
        raise PnpError(f"{_short(value)} is not a usable number here (at most {limit:g} either "
                       "way)", where)
    return result


def _as_float(value: int | float) -> float:
    try:
        return float(value)
    except OverflowError:  # an integer too large for a float
        return math.inf


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 20 else f"{text[:20]}..."


def _printable(points: float, text: object, where: str) -> float:
    """A length no longer than the largest PDF page (nan and inf are not lengths either)."""
    if not math.isfinite(points) or abs(points) > MAX_LENGTH * (1 + 1e-9):  # 5080mm is 200in
        raise PnpError(f"{_short(text)} is not a printable length: at most {to_mm(MAX_LENGTH):.0f} mm "
                       f"(200 in, the largest PDF page)", where)
    return points


def size(text: str, where: str = "", named: dict[str, tuple[float, float]] = CARD_SIZES_MM):
    """Parse a size: a name ("poker") or WIDTHxHEIGHT ("63x88mm", "2.5in x 3.5in"). Points."""
    s = str(text).strip().lower()
    if s in named:
        w, h = named[s]
        return w * MM, h * MM
    parts = re.split(r"\s*[x×]\s*", s)
    if len(parts) != 2 or not parts[0] or not parts[1]:
        names = ", ".join(sorted(named))
        raise PnpError(f"unknown size {text!r}: use one of {names}, or WIDTHxHEIGHT like 63x88mm", where)
    unit = re.sub(r"[\d.\s-]", "", parts[1])
    first = parts[0] if re.search(r"[a-z]", parts[0]) else parts[0] + unit
    return length(first, where), length(parts[1], where)


def paper(name: str, orientation: str = "portrait", where: str = "--paper") -> tuple[float, float]:
    """Paper size in points for a name or WIDTHxHEIGHT, in the requested orientation."""
    try:
        w, h = size(name, where, PAPER_SIZES_MM)
    except PnpError:
        raise PnpError(f"unknown paper {name!r}: use one of {', '.join(PAPER_SIZES_MM)}, or "
                       "WIDTHxHEIGHT such as 300x200mm or 11x17in", where) from None
    if min(w, h) < 50 * MM:
        raise PnpError(f"a paper of {w / MM:.0f}x{h / MM:.0f} mm is too small to print on "
                       "(at least 50 mm each way)", where)
    if orientation not in ("portrait", "landscape"):
        raise PnpError(f"orientation must be portrait or landscape, not {orientation!r}", where)
    w, h = min(w, h), max(w, h)
    return (h, w) if orientation == "landscape" else (w, h)


def to_mm(points: float) -> float:
    return points / MM
