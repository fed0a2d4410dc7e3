"""Markers in a photo: every ArUco 4x4 code OpenCV finds, with its corners refined to a
fraction of a pixel (the homography that places tiles is only as good as these corners)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.camera import opencv
from referee.engine import RefereeError

DICTIONARY = "DICT_4X4_1000"  # the one printed by pnp (generator/markers/codes.txt)
MAX_PIXELS = 60_000_000  # a larger image is not a phone photo; refuse before decoding it


def load(path: Path) -> Any:
    """The photo as a BGR array; an unreadable file is a one-line error."""
    cv2 = opencv()
    import numpy as np

    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as e:
        raise RefereeError(f"cannot read {path}: {e.strerror or e}", "PHOTO") from None
    header = cv2.imdecode(data, cv2.IMREAD_REDUCED_GRAYSCALE_8) if data.size else None
    if header is None:
        raise RefereeError(f"{path} is not an image OpenCV can read (JPEG, PNG, WebP...)",
                           "PHOTO")
    if header.shape[0] * header.shape[1] * 64 > MAX_PIXELS:
        raise RefereeError(f"{path} is larger than {MAX_PIXELS // 1_000_000} megapixels",
                           "PHOTO")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def markers(image: Any, ids: range) -> list[dict[str, Any]]:
    """[{"id": marker id, "corners": [[x, y] * 4]}] for the markers with an id in `ids` (the
    game's range: another game's stray card is no card of this one)."""
    cv2 = opencv()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY)), params)
    corners, found, _ = detector.detectMarkers(grey)
    if found is None:
        return []
    return [{"id": int(i), "corners": c.reshape(4, 2).tolist()}
            for c, i in zip(corners, found.ravel(), strict=True) if int(i) in ids]
