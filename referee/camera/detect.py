"""Markers in a photo: every ArUco 4x4 code OpenCV finds, with its corners refined to a
fraction of a pixel (the homography that places tiles is only as good as these corners)."""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path
from typing import Any

from referee.camera import opencv
from referee.engine import RefereeError

DICTIONARY = "DICT_4X4_1000"  # the one printed by pnp (generator/markers/codes.txt)
# Markers are searched in a copy at most this many pixels across (a 12 MP photo's markers are
# still ~40 px there) and their corners then refined in the full photo: the search's cost
# grows with the pixels, the corners' precision with the photo's own resolution.
SEARCH_SIDE = 2400
MAX_PIXELS = 60_000_000  # a larger image is not a phone photo; refuse before decoding it


def load(path: Path, colour: bool = False) -> Any:
    """The photo as a grey array (what markers are read from; half the decoding of colour),
    or BGR for an overlay; an unreadable file is a one-line error."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RefereeError(f"cannot read {path}: {e.strerror or e}", "PHOTO") from None
    return decode(data, str(path), "PHOTO", colour)


def decode(data: bytes, name: str, where: str, colour: bool = False) -> Any:
    """`data` decoded, once its header says it is a JPEG, PNG or WebP of at most MAX_PIXELS
    (referee/camera/header.py: a decompression bomb is refused before any pixel is made)."""
    from referee.camera import header

    header.check(data, MAX_PIXELS, name, where)
    cv2 = opencv()
    import numpy as np

    image = cv2.imdecode(np.frombuffer(data, np.uint8),
                         cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise RefereeError(f"{name} is not an image the referee reads (a damaged file?)", where)
    if image.shape[0] * image.shape[1] > MAX_PIXELS:  # a second frame larger than the first
        raise RefereeError(f"{name} is larger than {MAX_PIXELS // 1_000_000} megapixels", where)
    return image


def markers(image: Any, ids: Container[int]) -> list[dict[str, Any]]:
    """[{"id": marker id, "corners": [[x, y] * 4]}] for the markers with an id in `ids` (the
    game's range: another game's stray card is no card of this one)."""
    cv2 = opencv()
    import numpy as np

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    scale = min(1.0, SEARCH_SIDE / max(grey.shape))
    small = grey if scale == 1 else cv2.resize(grey, None, fx=scale, fy=scale,
                                               interpolation=cv2.INTER_AREA)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY)), params)
    corners, found, _ = detector.detectMarkers(small)
    if found is None:
        return []
    out = []
    for c, i in zip(corners, found.ravel(), strict=True):
        if int(i) not in ids:
            continue
        pts = (c.reshape(4, 2) + 0.5) / scale - 0.5  # pixel centres, back in the photo
        if scale < 1:  # the corners found in the smaller copy, sharpened in the photo itself
            side = float(np.linalg.norm(pts[0] - pts[1]))
            win = max(2, min(8, round(side / 12)))
            pts = cv2.cornerSubPix(grey, np.ascontiguousarray(pts, np.float32), (win, win),
                                   (-1, -1), (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT,
                                              20, 0.05))
        out.append({"id": int(i), "corners": np.asarray(pts).reshape(4, 2).tolist()})
    return out
