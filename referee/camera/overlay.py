"""The overlay of `referee look --overlay`: the photo with each tile read outlined and named,
and each marker not read crossed out; drawn with OpenCV (the referee never imports Pillow)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.camera import opencv
from referee.engine import RefereeError

READ = (60, 180, 60)  # BGR
NOT_READ = (40, 40, 220)
SHARED = (0, 140, 255)  # the symbol two cards share: orange, apart from both


def write(image: Any, read: list[dict[str, Any]], not_seen: list[dict[str, Any]],
          out: Path, circles=()) -> None:
    data = encode(image, read, not_seen, out.suffix or ".png", circles=circles)
    if data is None:
        raise RefereeError(f"cannot write an image named {out.name}: use .png or .jpg",
                           "--overlay")
    from pnp_shared import files

    try:
        files.write_atomic(out, data)
    except OSError as e:
        raise RefereeError(f"cannot write {out}: {e.strerror or e}", "--overlay") from None


def encode(image: Any, read: list[dict[str, Any]], not_seen: list[dict[str, Any]],
           suffix: str, longest: int | None = None, crop: bool = False,
           circles=()) -> bytes | None:
    """The overlay as the bytes of a `suffix` image (.png, .jpg), at most `longest` pixels
    across (a phone's screen needs no 12 MP picture), and with `crop` only the part around
    the cards found (a board filling a tenth of the photo stays legible on a phone); None for
    a suffix OpenCV cannot write. circles: (x, y, radius) to ring (a shared symbol)."""
    cv2 = opencv()
    import numpy as np

    width = max(2, round(max(image.shape[:2]) / 600))
    x0, y0, x1, y1 = _box(image, [p for card in (*read, *not_seen) for p in card["corners"]]
                          if crop else [])
    part = image[y0:y1, x0:x1]  # cut first: drawing on a copy of 12 MP costs more
    canvas = part.copy() if part.ndim == 3 else cv2.cvtColor(part, cv2.COLOR_GRAY2BGR)
    shift = np.array([x0, y0])
    for card in read:
        outline = np.asarray(card["corners"]) - shift
        cv2.polylines(canvas, [np.round(outline).astype(np.int32)], True, READ, width,
                      cv2.LINE_AA)
        side = card.get("side") or float(np.linalg.norm(outline[0] - outline[1]))
        _label(cv2, canvas, card.get("position") or str(card["id"]),
               np.asarray(card["center"]) - shift, side, READ)
    for card in not_seen:
        if not card["corners"]:
            continue
        c = np.round(np.asarray(card["corners"]) - shift).astype(np.int32)
        cv2.polylines(canvas, [c], True, NOT_READ, width, cv2.LINE_AA)
        cv2.line(canvas, tuple(map(int, c[0])), tuple(map(int, c[2])), NOT_READ, width)
        cv2.line(canvas, tuple(map(int, c[1])), tuple(map(int, c[3])), NOT_READ, width)
    for x, y, r in circles:
        cv2.circle(canvas, (round(x - x0), round(y - y0)), round(r * 1.15), SHARED, width * 2,
                   cv2.LINE_AA)
    scale = 1.0 if longest is None else min(1.0, longest / max(canvas.shape[:2]))
    if scale < 1:
        canvas = cv2.resize(canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    try:
        ok, data = cv2.imencode(suffix, canvas)
    except cv2.error:
        return None
    return data.tobytes() if ok else None


def _box(image: Any, points: list) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the part of the image around `points`, a fifth of their span (at
    least 40 px) wider on every side; the whole image when there are none."""
    h, w = image.shape[:2]
    if not points:
        return 0, 0, w, h
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pad = max(40.0, 0.2 * max(max(xs) - min(xs), max(ys) - min(ys)))
    return (max(0, int(min(xs) - pad)), max(0, int(min(ys) - pad)),
            min(w, int(max(xs) + pad) + 1), min(h, int(max(ys) + pad) + 1))


def _label(cv2, canvas, text: str, at, side: float, colour) -> None:
    """The tile's position line across its middle, as wide as half the tile's side (a long
    line, such as a card's place and type, up to 0.85 of it: legible on a phone)."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, _), _ = cv2.getTextSize(text, font, 1, 1)
    scale = (0.5 if len(text) <= 12 else min(0.85, 0.045 * len(text))) * side / w
    thick = max(1, round(scale * 1.5))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    x, y = int(at[0] - w / 2), int(at[1] + side * 0.17)  # below the marker
    cv2.putText(canvas, text, (x, y), font, scale, (255, 255, 255), thick + 2, cv2.LINE_AA)
    cv2.putText(canvas, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)
