"""Symbol-deck cards found in a photo by local features: SIFT, a ratio test per card, and a
RANSAC homography per card that must be well supported to count.

Why per card: every symbol is printed on several cards, so a photo's feature on a symbol is as
close to each of them; the ratio test (best match clearly better than the next) is only
meaningful among one card's own features, where each symbol appears once. A card is reported
only when its homography has enough inliers, spread over several of its symbols (one shared
symbol alone fits a homography too), and maps the card to a plausible convex shape; anything
less is "not seen", never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.camera import opencv
from referee.camera.pack import Face

RATIO = 0.8  # Lowe's ratio test, within one card's features
NEIGHBOURS = 16  # photo feature -> this many nearest reference features (all cards)
MIN_INLIERS = 14
MIN_SYMBOLS = 4  # inliers on at least this many distinct symbols of the card
RANSAC_PX = 0.02  # RANSAC reprojection threshold, of the card's diameter in the photo
REFERENCE_PX = 360  # reference renders searched this wide (280: 1 s less once, a 393 px card missed)
NFEATURES = 700  # per reference render
MASK_ALPHA = 200  # a render's pixel is the card's where its alpha is above this,
MASK_ERODE = 7  # and this many pixels in from its rim (the rim's features are every card's)
# everything a render's features depend on besides its bytes and OpenCV: the disk cache's key
PARAMETERS = {"detector": "sift", "nfeatures": NFEATURES, "width": REFERENCE_PX,
              "alpha": MASK_ALPHA, "erode": MASK_ERODE, "grey": "over white, INTER_AREA"}
PHOTO_PIXELS = 2_000_000  # the photo is searched at most this large (time)


@dataclass
class Reference:
    faces: list[Face]
    scale: float  # reference pixels per render pixel
    points: Any  # (N, 2) keypoints, reference pixels
    shape: Any  # (N, 2) each keypoint's size and angle (degrees)
    card: Any  # (N,) index into faces
    symbol: Any  # (N,) index of the symbol under the keypoint, -1 for none
    index: Any  # the FLANN matcher over all descriptors


def reference(faces: list[Face], cache: Path | None = None) -> Reference:
    """SIFT features of every face's render, each tagged with its card and the symbol it lies
    on; with `cache` (the pack's folder) each render's features are kept on disk and read back
    while its bytes, the parameters and OpenCV stay the same (referee/camera/feature_cache.py).
    """
    cv2 = opencv()
    import numpy as np

    from referee.camera import feature_cache

    store = feature_cache.Store(cache, cv2.__version__, PARAMETERS) if cache else None
    sift = None
    kept: set[str] = set()
    pts, shapes, cards, syms, descs = [], [], [], [], []
    scale = 1.0
    for n, face in enumerate(faces):
        data = _bytes(face)
        scale = REFERENCE_PX / face.size[0]
        key = store.key(data, face.size) if store else ""
        kept.add(key)
        got = store.get(key) if store else None
        if got is None:
            sift = sift or cv2.SIFT_create(nfeatures=NFEATURES)
            got = _detect(cv2, np, sift, face, data, scale)
            if store:
                store.put(key, *got)
        p, shape, d = got
        if not len(d):
            continue
        centres = np.float32([[s.x, s.y] for s in face.symbols]) * scale
        radii = np.float32([s.r for s in face.symbols]) * scale
        if len(centres):
            dist = np.linalg.norm(p[:, None, :] - centres[None], axis=2) / radii[None]
            near = dist.argmin(axis=1)
            sym = np.where(dist[np.arange(len(p)), near] <= 1.1, near, -1)
        else:
            sym = np.full(len(p), -1)
        pts.append(p)
        shapes.append(shape)
        cards.append(np.full(len(p), n))
        syms.append(sym)
        descs.append(d)
    if store:
        store.keep_only(kept)
    if not descs:
        from referee.engine import RefereeError

        raise RefereeError("the pack's renders show nothing to recognise", "--pack")
    matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 48})
    matcher.add([np.concatenate(descs)])
    matcher.train()
    return Reference(faces, scale, np.concatenate(pts), np.concatenate(shapes),
                     np.concatenate(cards), np.concatenate(syms), matcher)


def _detect(cv2, np, sift, face: Face, data: bytes, scale: float):
    """(points, each one's size and angle, descriptors) of one render, float32, at
    reference pixels: what the cache keeps."""
    img, alpha = _render(cv2, np, face, data)
    img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    mask = cv2.resize(alpha, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_AREA)
    mask = cv2.erode((mask > MASK_ALPHA).astype(np.uint8) * 255,
                     np.ones((MASK_ERODE, MASK_ERODE), np.uint8))
    kps, d = sift.detectAndCompute(img, mask)
    if d is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32), np.zeros(
            (0, 128), np.float32)
    return (np.float32([k.pt for k in kps]), np.float32([[k.size, k.angle] for k in kps]),
            np.asarray(d, np.float32))


def find(ref: Reference, image: Any) -> list[dict[str, Any]]:
    """[{"face": Face, "h": reference->photo homography (render pixels), "inliers": n}] for
    each card well seen, at most once each, none overlapping another."""
    cv2 = opencv()
    import numpy as np

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    shrink = min(1.0, (PHOTO_PIXELS / (grey.shape[0] * grey.shape[1])) ** 0.5)
    small = grey if shrink == 1 else cv2.resize(grey, None, fx=shrink, fy=shrink,
                                                interpolation=cv2.INTER_AREA)
    kps, desc = cv2.SIFT_create().detectAndCompute(small, None)
    if desc is None or len(kps) < MIN_INLIERS:
        return []
    photo = np.float32([k.pt for k in kps])
    photo_shape = np.float32([[k.size, k.angle] for k in kps])
    q, r = _per_card_ratio(np, ref, desc)
    found = []
    for n in np.unique(ref.card[r]):
        sel = np.nonzero(ref.card[r] == n)[0]
        if len(sel) < MIN_INLIERS:
            continue
        sel = sel[_agreeing(np, ref, n, ref.points[r[sel]], ref.shape[r[sel]],
                            photo[q[sel]], photo_shape[q[sel]])]
        if len(sel) < MIN_INLIERS:
            continue
        got = _fit(cv2, np, ref, n, ref.points[r[sel]], photo[q[sel]], ref.symbol[r[sel]])
        if got is not None:
            h, inliers = got
            # reference pixels -> photo pixels, as render pixels -> photo pixels
            to_photo = np.diag([1 / shrink, 1 / shrink, 1]) @ h @ np.diag([ref.scale,
                                                                            ref.scale, 1])
            found.append({"face": ref.faces[n], "h": to_photo, "inliers": inliers})
    return _apart(found)


def _per_card_ratio(np, ref: Reference, desc):
    """(photo feature, reference feature) pairs that pass the ratio test among the reference
    card's own features: the best of a card is compared with that card's next best among the
    NEIGHBOURS nearest (else with the farthest of them, a bound that only refuses more)."""
    k = min(NEIGHBOURS, len(ref.card))
    knn = ref.index.knnMatch(desc, k=k)
    idx = np.array([[m.trainIdx for m in row] + [row[-1].trainIdx] * (k - len(row))
                    for row in knn])
    dist = np.array([[m.distance for m in row] + [row[-1].distance] * (k - len(row))
                     for row in knn])
    card = ref.card[idx]
    rows = np.arange(len(card))
    q_all, r_all = [], []
    for j in range(k - 1):
        first = np.ones(len(card), bool) if j == 0 else ~(card[:, :j] == card[:, j:j + 1]).any(1)
        later = card[:, j + 1:] == card[:, j:j + 1]
        second = np.where(later.any(1), dist[rows, j + 1 + later.argmax(1)], dist[:, -1])
        ok = first & (dist[:, j] < RATIO * second)
        q_all.append(np.nonzero(ok)[0])
        r_all.append(idx[ok, j])
    return np.concatenate(q_all), np.concatenate(r_all)


def _agreeing(np, ref: Reference, n: int, src, src_shape, dst, dst_shape):
    """The matches whose keypoints (scale, turn) put card n's centre in the same place of the
    photo (Lowe's Hough vote): a card's own matches agree, those of a symbol it shares with
    other cards on the table point all over it. RANSAC then works on few outliers."""
    w, h = ref.faces[n].size
    centre = np.float32([w, h]) * ref.scale / 2
    zoom = dst_shape[:, 0] / src_shape[:, 0]
    turn = np.radians(dst_shape[:, 1] - src_shape[:, 1])
    v = centre - src
    rot = np.stack([v[:, 0] * np.cos(turn) - v[:, 1] * np.sin(turn),
                    v[:, 0] * np.sin(turn) + v[:, 1] * np.cos(turn)], axis=1)
    votes = dst + zoom[:, None] * rot
    across = zoom * REFERENCE_PX  # the card's width in the photo, as each match sees it
    near = np.linalg.norm(votes[:, None] - votes[None], axis=2) < 0.2 * across[:, None]
    best = near.sum(axis=1).argmax()
    return np.nonzero(np.linalg.norm(votes - votes[best], axis=1) < 0.3 * across[best])[0]


def _fit(cv2, np, ref: Reference, n: int, src, dst, syms):
    """(homography, inliers) when it is well supported and the card's shape plausible."""
    # the card's diameter in the photo, guessed from the matches' spread, sets the threshold
    spread = np.ptp(dst, axis=0).max() / max(1.0, np.ptp(src, axis=0).max()) * REFERENCE_PX
    h, mask = cv2.findHomography(src, dst, cv2.RANSAC, max(2.0, RANSAC_PX * spread),
                                 maxIters=500, confidence=0.995)
    if h is None:
        return None
    inl = mask.ravel().astype(bool)
    if inl.sum() < MIN_INLIERS or len(set(syms[inl].tolist()) - {-1}) < MIN_SYMBOLS:
        return None
    w, hh = ref.faces[n].size
    if not _plausible(cv2, np, h, REFERENCE_PX, REFERENCE_PX * hh / w):
        return None
    return h, int(inl.sum())


def _bytes(face: Face) -> bytes:
    try:
        return face.image.read_bytes()
    except OSError:
        raise _not_render(face) from None


def _not_render(face: Face) -> Exception:
    from referee.engine import RefereeError

    return RefereeError(f"{face.image.name} is missing or not the pack's render of card "
                        f"{face.id}", "--pack")


def _render(cv2, np, face: Face, data: bytes):
    """(the render in grey over white, its alpha: where the card is)."""
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or (img.shape[1], img.shape[0]) != tuple(face.size):
        raise _not_render(face)
    alpha = img[:, :, 3] if img.shape[2] == 4 else np.full(img.shape[:2], 255, np.uint8)
    a = alpha[..., None] / 255.0
    colour = (img[:, :, :3] * a + 255 * (1 - a)).astype(np.uint8)
    return cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), alpha


def _plausible(cv2, np, h, s: float, t: float) -> bool:
    """The card's box lands as a convex quadrilateral, not folded, no side 2.5 times another,
    at least 40 photo pixels across (a tilt to 60° and a card seen from its side still pass)."""
    box = cv2.perspectiveTransform(np.float32([[[0, 0], [s, 0], [s, t], [0, t]]]), h)[0]
    if not cv2.isContourConvex(box.astype(np.float32)):
        return False
    sides = np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1)
    return sides.min() >= 40 and sides.max() <= 2.5 * sides.min()


def _apart(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where two cards claim the same place, the better supported one (a card lies once)."""
    import numpy as np

    found.sort(key=lambda f: -f["inliers"])
    kept: list[dict[str, Any]] = []
    for f in found:
        c = centre(f)
        r = radius(f)
        if all(np.linalg.norm(np.subtract(c, centre(g))) > 0.5 * (r + radius(g)) for g in kept):
            kept.append(f)
    return kept


def project(f: dict[str, Any], pts) -> Any:
    """Render pixels of face f -> photo pixels."""
    cv2 = opencv()
    import numpy as np

    return cv2.perspectiveTransform(np.float32([pts]), f["h"])[0]


def size(f: dict[str, Any]) -> tuple[float, float]:
    """The render's width and height in render pixels (what the homography maps from)."""
    return f["face"].size


def centre(f: dict[str, Any]) -> list[float]:
    w, h = size(f)
    return project(f, [[w / 2, h / 2]])[0].tolist()


def radius(f: dict[str, Any]) -> float:
    import numpy as np

    w, h = size(f)
    ring = project(f, [[w / 2, 0], [w, h / 2], [w / 2, h], [0, h / 2]])
    return float(np.mean(np.linalg.norm(ring - np.asarray(centre(f)), axis=1)))
