"""Where a drawn text lands on its card: past the safe area, or on another text.

A text element without a width has no box to overflow, yet a long name runs off the card or
under the cost beside it. So every drawn text is measured as drawn (its lines' widths placed
by `align`, its first baseline up to the font's ascent, its last down to the descent) and
checked: against the safe area (the trim less the definition's `safe`, 3 mm by default) and
against the texts drawn before it on the same card. Each problem is a build warning naming
the card, the element and the millimetres, so `build --strict` fails on it and `serve` shows it.
Text on a filled shape or an image is the design (a name on its band), so only text on text
is a collision. Rotated text and round or hexagonal cards are not checked (no box to compare).
"""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import getAscentDescent

from generator.render.registry import Ctx
from pnp_model.components import Element
from pnp_model.units import MM

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, card trim origin, y up
SLACK = 0.1 * MM  # rounding of font metrics: less than this is not a problem a user sees


def ink_box(font: str, size: float, lines: list[tuple[float, float]], first_baseline: float,
            leading: float) -> Box:
    """The box of lines given as (left, width), the first on first_baseline."""
    ascent, descent = getAscentDescent(font, size)
    x0 = min(left for left, _ in lines)
    x1 = max(left + width for left, width in lines)
    return x0, first_baseline - (len(lines) - 1) * leading + descent, x1, first_baseline + ascent


def placed(x: float, width: float, align: str | None) -> float:
    """The left of a line of this width anchored at x by align."""
    return {"center": x - width / 2, "right": x - width}.get(align or "left", x)


def check(ctx: Ctx, el: Element, box: Box, safe: bool = True) -> None:
    """Warn when the drawn box crosses the safe area (unless `safe` is False: already said)
    or another text on this card; then remember the box for the texts drawn after it."""
    from generator.notes import note

    if el.get("rotate"):
        return
    card = ctx.card
    first = card.get("copy", "1") == "1"  # copies repeat the first copy's warnings
    who = f"card #{card.id} ({card.name}), {el.where}"
    if first and safe and ctx.deck.shape == "rect":
        over = _past_safe(box, ctx.width, ctx.height, ctx.deck.print.safe)
        if over:
            side, by = max(over.items(), key=lambda kv: kv[1])
            note(f"safe:{el.where}:{card.id}",
                 f"{who}: text runs {by / MM:.1f} mm past the safe area at the {side} (safe "
                 f"zone {ctx.deck.print.safe / MM:g} mm inside the trim): give it a w to wrap "
                 "or shrink in, or shorten it")
    for where, other in ctx.texts if first else ():
        dx = min(box[2], other[2]) - max(box[0], other[0])
        dy = min(box[3], other[3]) - max(box[1], other[1])
        if dx > SLACK and dy > SLACK:
            note(f"overlap:{el.where}:{where}:{card.id}",
                 f"{who}: text overlaps the text of {where} by {dx / MM:.1f} × {dy / MM:.1f} mm")
    ctx.texts.append((el.where, box))


def _past_safe(box: Box, width: float, height: float, safe: float) -> dict[str, float]:
    """How far the box reaches past each edge of the safe area, for the edges it crosses."""
    x0, y0, x1, y1 = box
    over = {"left": safe - x0, "right": x1 - (width - safe),
            "bottom": safe - y0, "top": y1 - (height - safe)}
    return {side: by for side, by in over.items() if by > SLACK}
