"""The first page of a whole game's PDF: what is in it and how to print each part.

One line per component: its kind, how many pieces, their size, how many sheets, which pages,
and whether those pages print double-sided; a board split over sheets also says how they go
together.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.render.fonts import font
from pnp_model.units import MM

COLUMNS = (("component", 0), ("kind", 46), ("pieces", 66), ("size", 84), ("sheets", 120),
           ("pages", 138), ("print", 158))


def rows(parts) -> list[dict[str, str]]:
    """The contents as data: the page draws it, `pnp build --json` reports it."""
    nested = _nested(parts)
    out = []
    for p in parts:
        deck = p.component.deck
        on = nested.get(id(deck), {})
        own = sum(1 for page in p.sheet.pages if page.side == "front"  # a fold sheet: fronts
                  for pl in page.placements if pl.side != "back")
        pages = [f"{p.first_page}-{p.first_page + p.pages - 1}" if p.pages > 1 else
                 str(p.first_page)] if p.pages else []
        out.append({
            "component": p.component.name,
            "kind": p.component.kind,
            "pieces": "1" if p.component.kind == "board" else str(own + sum(on.values())),
            "size": f"{deck.width / MM:.4g}x{deck.height / MM:.4g} mm",
            "sheets": str(p.sheets),
            "pages": ", ".join(pages + [str(n) for n in sorted(on)]),
            "print": "fold-and-glue" if "fold" in p.sheet.info else
                     "double-sided" if p.double_sided else "one-sided",
            # a board on one sheet has nothing to glue: no bands to speak of
            **({"assembly": f"{p.sheet.info['board sheets']} sheets, glue over "
                            f"{p.sheet.info['overlap']} bands"}
               if p.sheet.info.get("board sheets", "1x1") != "1x1" else {}),
            **({"fold": f"not folded ({p.sheet.info['not folded']})"}
               if p.sheet.info.get("not folded") else {}),
            **({"shares": f"{sum(on.values())} nested in the free room of page"
                          f"{'s' if len(on) > 1 else ''} {', '.join(map(str, sorted(on)))}, "
                          "cut along their outlines"} if on else {}),
        })
    return out


def _nested(parts) -> dict[int, dict[int, int]]:
    """Pieces nested in other parts' room: deck id -> PDF page -> how many."""
    out: dict[int, dict[int, int]] = {}
    for host in parts:
        for n, guests in host.guests.items():
            for deck, _ in guests:
                pages = out.setdefault(id(deck), {})
                pages[host.first_page + n] = pages.get(host.first_page + n, 0) + 1
    return out


def draw_contents(c: Canvas, title: str, parts, flip: str, first_page: int = 1,
                  margin: float = 6 * MM) -> None:
    """The contents page on the canvas's current page (its size set by the caller); pages
    before it (the designer's own) are said first. On paper too narrow for its lines (A5),
    the whole page is drawn smaller, so that nothing runs past the printer margin."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    w, h = c._pagesize
    duplex = [r["pages"] for r in rows(parts) if r["print"] == "double-sided"]
    lines = [f"Print at 100 % (actual size). Pages {', '.join(duplex)} double-sided, flipped on "
             f"the {flip} edge; the others one-sided."
             if duplex else "Print at 100 % (actual size), one-sided."]
    folded = [r["pages"] for r in rows(parts) if r["print"] == "fold-and-glue"]
    if folded:
        lines.append(f"Page{'s' if len(folded) > 1 or '-' in folded[0] else ''} "
                     f"{', '.join(folded)}: fold each sheet on its dashed line, glue the "
                     "halves together, then cut.")
    if any(p.blank_before for p in parts):
        lines.append("A blank page before a double-sided part keeps its fronts on odd pages: "
                     "the whole file also prints double-sided as it is.")
    if first_page > 1:
        lines.insert(0, f"Pages 1-{first_page - 1}: the rules; this contents page is page "
                        f"{first_page}." if first_page > 2 else
                        f"Page 1: the rules; this contents page is page {first_page}.")
    table = rows(parts)
    sans, bold = font("sans"), font("sans-bold")
    wide = max([stringWidth(title, bold, 18)] + [stringWidth(t, sans, 9) for t in lines]
               + [dx * MM + stringWidth(r[name], sans, 9) for r in table for name, dx in COLUMNS]
               + [6 * MM + stringWidth(f"{k}: {r[k]}", sans, 9) for r in table
                  for k in ("assembly", "shares") if k in r])
    x0 = max(15 * MM, margin)
    k = min(1.0, (w - x0 - max(15 * MM, margin)) / wide)
    c.saveState()
    c.translate(x0, h - 25 * MM)
    c.scale(k, k)
    y = 0.0
    c.setFillColor(HexColor("#000000"))
    c.setFont(bold, 18)
    c.drawString(0, y, title)
    y -= 10 * MM
    c.setFont(sans, 9)
    for line in lines:
        c.drawString(0, y, line)
        y -= 5 * MM
    y -= 4 * MM
    c.setFont(bold, 9)
    for name, dx in COLUMNS:
        c.drawString(dx * MM, y, name)
    c.setLineWidth(0.4)
    c.line(0, y - 2 * MM, wide, y - 2 * MM)
    y -= 7 * MM
    c.setFont(sans, 9)
    for row in table:
        for name, dx in COLUMNS:
            c.drawString(dx * MM, y, row[name])
        y -= 5 * MM
        for extra in ("assembly", "shares", "fold"):
            if extra in row:
                c.drawString(6 * MM, y, f"{extra}: {row[extra]}")
                y -= 5 * MM
    c.restoreState()
