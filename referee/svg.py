"""SVG pieces the games' pictures share (referee/games/<game>/picture.py): one document shape,
one escaping of text, a triangle, a hexagon, a card.

Why here and this small: a picture is public text that a page, a file (`show --svg`) and a
test read alike, so every game escapes names the same way and styles by class from one sheet;
each game keeps its own layout. Standard library only: pictures are drawn by the referee.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]

STYLE = """
text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:#222}
.note{fill:#666}
.free{fill:none;stroke:#999;stroke-dasharray:4 4;stroke-width:1.5}
.free-label{fill:#888}
.latest{stroke:#d1495b;stroke-width:5}
"""


def esc(text: object) -> str:
    """Text safe inside an element or a quoted attribute (names come from users)."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def num(x: float) -> str:
    """A coordinate, short: 12, 12.5, -3.25."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def document(body: Iterable[str], box: tuple[float, float, float, float], title: str,
             style: str = "") -> str:
    """A whole SVG picture of `body` within box (min x, min y, width, height), with a margin."""
    x, y, w, h = box
    pad = 12
    view = f"{num(x - pad)} {num(y - pad)} {num(w + 2 * pad)} {num(h + 2 * pad)}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}" width="{num(w + 2 * pad)}" '
            f'height="{num(h + 2 * pad)}" role="img" aria-label="{esc(title)}">'
            f"<title>{esc(title)}</title><style>{style}{STYLE}</style>"
            + "".join(body) + "</svg>\n")


def bounds(points: Iterable[Point]) -> tuple[float, float, float, float]:
    """(min x, min y, width, height) around points; a small box when there are none."""
    pts = list(points) or [(0.0, 0.0), (200.0, 40.0)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def attrs(cls: str = "", **more: object) -> str:
    """ class="..." and other attributes (trailing underscores dropped, _ written as -)."""
    out = f' class="{esc(cls)}"' if cls else ""
    for key, value in more.items():
        if value is not None:
            out += f' {key.rstrip("_").replace("_", "-")}="{esc(value)}"'
    return out


def polygon(points: Sequence[Point], cls: str = "", **more: object) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f'<polygon points="{pts}"{attrs(cls, **more)}/>'


def triangle(a: Point, b: Point, c: Point, cls: str = "", **more: object) -> str:
    return polygon((a, b, c), cls, **more)


def hexagon_points(cx: float, cy: float, r: float) -> list[Point]:
    """A pointy-top hexagon's corners (r: centre to corner)."""
    return [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30)))
            for k in range(6)]


def card(x: float, y: float, w: float, h: float, cls: str = "", r: float = 6,
         **more: object) -> str:
    """A card or tile: a rectangle with rounded corners."""
    return (f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="{num(r)}"'
            f"{attrs(cls, **more)}/>")


def text(x: float, y: float, words: object, size: float = 14, cls: str = "",
         anchor: str = "middle", **more: object) -> str:
    """Text centred on (x, y) by default (vertically on its middle)."""
    return _text(x, y, esc(words), size, cls, anchor, **more)


def _text(x: float, y: float, inner: str, size: float, cls: str, anchor: str,
          **more: object) -> str:
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}" '
            f'dominant-baseline="central"{attrs(cls, **more)}>{inner}</text>')


NAME_MOST = 20  # characters of a player's name a picture writes whole (a longer one is cut)


def short(words: object) -> tuple[str, str]:
    """A name as a picture writes it beside a column, escaped: whole up to NAME_MOST
    characters, else cut with "…" and all of it in a tooltip (the second part, "" if none).
    A long name was written over the numbers or tiles next to it."""
    whole = str(words)
    if len(whole) <= NAME_MOST:
        return esc(whole), ""
    return esc(whole[:NAME_MOST - 1] + "…"), f"<title>{esc(whole)}</title>"


def name(x: float, y: float, words: object, size: float, cls: str = "", **more: object) -> str:
    """A player's name starting at (x, y), cut as `short` cuts it."""
    shown, tip = short(words)
    return _text(x, y, tip + shown, size, cls, "start", **more)


def name_width(names: Iterable[str], size: float) -> float:
    """How wide a column of these names is at `size`, bold (a long one as `short` cuts it)."""
    return 0.7 * size * min(NAME_MOST, max(map(len, names), default=0))


def group(parts: Iterable[str], cls: str = "", **more: object) -> str:
    return f"<g{attrs(cls, **more)}>" + "".join(parts) + "</g>"


def message(words: str) -> str:
    """A picture with only a line of text (an empty table, no row dealt yet)."""
    return document([text(0, 20, words, 16, "note", anchor="start")], (0, 0, 8.5 * len(words), 40),
                    words)


def write_file(path: str, picture: str) -> None:
    """Write a picture atomically (a temporary file beside it, then renamed): an interrupted
    write never leaves half a picture where the old one was."""
    import os
    import tempfile
    from pathlib import Path

    from referee.engine import RefereeError

    target = Path(path)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(picture)
        os.replace(temp, target)
    except OSError as e:
        raise RefereeError(f"cannot write {path}: {e.strerror or e}", "--svg") from None
