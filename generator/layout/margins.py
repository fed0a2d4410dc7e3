"""The edge a home printer cannot print, per paper: the default printer margin.

Printers keep the paper's edge blank (their rollers hold it there); the figures below are the
widest edge the common home printers publish for each size, rounded up, so marks and cards
printed inside them print on most machines. A printer that needs more (or less) sets it with
--margin or a printer profile (`pnp printer save`), which wins over this table. Sources and
the reasoning per paper: docs/guides/paper.md#printer-margins.
"""

from __future__ import annotations

from pnp_model.units import MM

# millimetres; A4 and Letter keep the 6 mm every bundled layout was made with
PRINTER_MARGINS_MM = {"a4": 6.0, "letter": 6.0, "a5": 5.0, "a3": 5.0, "tabloid": 5.0,
                      "ledger": 5.0, "legal": 6.35}
OTHER_PAPER_MM = 6.35  # a WxH paper: often fed by hand, so the common safe 1/4 in
# home printers leave 3-7 mm; 50 mm still leaves a mini card's width (44.45 mm) across A5, the
# smallest paper the toolkit knows: a wider margin is a typo (500mm for 5mm), not a printer
MAX_MARGIN_MM = 50.0


def checked_margin(margin: float, where: str) -> float:
    """A margin (points) no paper could print with is refused where it was given (--margin, or
    a printer profile), so that a build never blames the paper or a flag the user did not type."""
    from pnp_model.errors import PnpError

    if margin > MAX_MARGIN_MM * MM + 1e-9:
        raise PnpError(f"a printer margin of {margin / MM:g} mm leaves no room to print: at most "
                       f"{MAX_MARGIN_MM:g} mm (home printers leave 3-7 mm; {MAX_MARGIN_MM:g} mm "
                       "leaves a mini card's width across A5, the smallest paper)", where)
    return margin


def printer_margin(paper: str | None) -> float:
    """The default printer margin for a paper name or WxH, in points."""
    key = (paper or "a4").strip().lower()
    return PRINTER_MARGINS_MM.get(key, OTHER_PAPER_MM) * MM
