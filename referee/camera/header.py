"""What an uploaded file says it is, read from its first bytes before anything decodes it.

Why before: a decoder allocates the pixels the header announces. A 100 KB PNG can announce
30000 x 30000 pixels (a decompression bomb) and a file named photo.jpg can be anything, so an
upload is refused on its header alone — only JPEG, PNG and WebP, at most the pixels a phone
takes — and OpenCV never sees the rest. Pure Python: the refusal needs no OpenCV.
"""

from __future__ import annotations

import struct

from referee.engine import RefereeError

KINDS = "JPEG, PNG or WebP"
# JPEG markers that start a frame (SOF0-SOF15 but DHT, JPG and DAC): they carry the size
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def size(data: bytes) -> tuple[str, int, int] | None:
    """(kind, width, height) a JPEG, PNG or WebP file announces; None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return "PNG", w, h
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg(data)
    return None


def check(data: bytes, max_pixels: int, name: str, where: str) -> tuple[str, int, int]:
    """The size `size` reads, or a one-line error naming the file: not an image, or more
    pixels than a phone takes."""
    found = size(data)
    if found is None or found[1] <= 0 or found[2] <= 0:
        raise RefereeError(f"{name} is not an image the referee reads ({KINDS})", where)
    kind, w, h = found
    if w * h > max_pixels:
        raise RefereeError(f"{name} is a {kind} of {w} x {h} pixels, more than "
                           f"{max_pixels // 1_000_000} megapixels: no phone photo is that large",
                           where)
    return found


def _jpeg(data: bytes) -> tuple[str, int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if marker in _SOF:
            if i + 9 > len(data):
                return None
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return "JPEG", w, h
        if marker == 0xDA or length < 2:  # image data before any frame header: broken
            return None
        i += 2 + length
    return None


def _webp(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        w = 1 + int.from_bytes(data[24:27], "little")
        h = 1 + int.from_bytes(data[27:30], "little")
        return "WebP", w, h
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return "WebP", 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", data[26:30])
        return "WebP", w & 0x3FFF, h & 0x3FFF
    return None
