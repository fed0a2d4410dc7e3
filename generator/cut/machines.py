"""Registration marks of the cutting machines, as data: where each machine's camera looks.

Figures are the makers' published defaults (see docs/guides/cutting-machines.md for sources):
Silhouette Studio's Type 1 marks are a 5 mm filled square at the top-left and two L-shaped
corners, 20 mm arms, 0.5 mm thick, each 10 mm in from the paper edges; Cricut Design Space prints
its own Print Then Cut frame around an uploaded image, so the sheet only keeps the cards inside
its largest print-then-cut area (6.75 x 9.25 in); Brother's ScanNCut scans the printed sheet on
its mat and needs no marks: its 10 mm border is ours (no Brother figure was found to match; the
guide says so). `margin` is how far cards stay from the paper edge so the machine's marks and
the area it cannot read stay clear of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp_model.errors import PnpError
from pnp_model.units import INCH, MM

Rect = tuple[float, float, float, float]  # x, y, w, h of a filled black box, PDF points
# Art at least this far from every mark. silhouette-card-maker's letter layout leaves 2 mm
# between a card and its bottom-left L, and its guide has users cover that card while the
# sensor registers (it takes the card's edge for the mark): more room than that.
MARK_CLEARANCE = 5 * MM


@dataclass(frozen=True)
class Machine:
    name: str
    margin: float  # cards and crop marks stay this far from every paper edge
    area: tuple[float, float] | None = None  # the largest cut area the software accepts
    inset: float = 0.0  # marks' outer edges from the paper edges
    square: float = 0.0  # side of the filled top-left square
    arm: float = 0.0  # length of each arm of an L-shaped corner
    thickness: float = 0.0  # width of an arm

    def marks(self, paper_w: float, paper_h: float) -> tuple[Rect, ...]:
        """The filled boxes that draw the marks on a page of this paper."""
        if not self.square:
            return ()
        i, s, a, t = self.inset, self.square, self.arm, self.thickness
        return (
            (i, paper_h - i - s, s, s),  # top-left square
            (paper_w - i - a, paper_h - i - t, a, t),  # top-right L: horizontal arm
            (paper_w - i - t, paper_h - i - a, t, a),  # and its vertical arm
            (i, i, a, t),  # bottom-left L: horizontal arm
            (i, i, t, a),  # and its vertical arm
        )

    def clear_of_marks(self, boxes, paper_w: float, paper_h: float, round_: bool = False
                       ) -> bool:
        """Whether the art in every box (x0, y0, x1, y1; with round_, the circle inscribed in
        it) keeps MARK_CLEARANCE from every mark: the sensor takes a nearby edge for a mark."""
        for x0, y0, x1, y1 in boxes:
            for mx, my, mw, mh in self.marks(paper_w, paper_h):
                if round_:  # from the circle's centre to the mark, less its radius
                    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
                    dx, dy = max(mx - cx, 0, cx - mx - mw), max(my - cy, 0, cy - my - mh)
                    gap = math.hypot(dx, dy) - r
                else:
                    gap = max(mx - x1, x0 - (mx + mw), my - y1, y0 - (my + mh))
                if gap < MARK_CLEARANCE:
                    return False
        return True

    def margins(self, paper_w: float, paper_h: float) -> tuple[float, float]:
        """The (x, y) margins cards keep: the machine's own, or more where its cut area is
        smaller than the printable paper."""
        if self.area is None:
            return self.margin, self.margin
        w, h = self.area if paper_w <= paper_h else self.area[::-1]
        return max(self.margin, (paper_w - w) / 2), max(self.margin, (paper_h - h) / 2)


MACHINES = {
    "silhouette": Machine("silhouette", margin=10 * MM + 5 * MM + 1 * MM, inset=10 * MM,
                          square=5 * MM, arm=20 * MM, thickness=0.5 * MM),
    "cricut": Machine("cricut", margin=6 * MM, area=(6.75 * INCH, 9.25 * INCH)),
    "brother": Machine("brother", margin=10 * MM),
}


def machine(name: str) -> Machine:
    if name not in MACHINES:
        raise PnpError(f"unknown cutting machine {name!r} (known: {', '.join(MACHINES)})",
                       "--cutter")
    return MACHINES[name]
