"""A cleaned symbol's image in the PDF: a JPEG as the file's own bytes, its background a soft mask.

A JPEG is embedded as it is (as issue 11 asks of every JPEG: re-encoding makes it larger and
lossier). A cleaned symbol needs transparency, which JPEG cannot carry, so the file goes in
whole with an /SMask image (the cleaned alpha at the file's size, deflated) and the symbol's
form clips it to the trimmed box. Pixel data is neither decoded for the PDF nor deflated:
decoded JPEG noise deflates badly, so this is both smaller and quicker than storing the
cleaned pixels. ReportLab embeds a JPEG as it is only without a mask, hence this module.
A PNG's cleaned pixels and mask are deflated here too (as ReportLab would), so that the helper
process of symbol_prep can do it for its half of the symbols.
"""

from __future__ import annotations

import io
import zlib
from dataclasses import dataclass
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfutils

JPEG_SUFFIXES = (".jpg", ".jpeg")
# zlib's level for a symbol's pixels and mask: 3 deflates several times faster than the default
# 6 for a slightly larger PDF (bench/bench_symbols.py)
DEFLATE = 3


def jpeg_as_is(path: Path, size: tuple[int, int]) -> bytes | None:
    """The file's bytes when it is a grey or RGB JPEG of that size (else None: stored as
    cleaned pixels)."""
    if path.suffix.lower() not in JPEG_SUFFIXES:
        return None
    data = path.read_bytes()
    try:
        width, height, components = pdfutils.readJPEGInfo(io.BytesIO(data))[:3]
    except Exception:  # not a JPEG after all, or one reportlab cannot read
        return None
    if (width, height) != size or components not in (1, 3):
        return None
    return data


@dataclass(frozen=True)
class Encoded:
    """What the PDF stores for a cleaned symbol: the image stream (the JPEG file as it is, or
    the pixels deflated), its filter and colour space, its size, and the deflated soft mask.
    Pure bytes, so the helper process of symbol_prep can make them."""

    data: bytes
    filter: str
    space: str
    size: tuple[int, int]
    mask: bytes


def encode(path: Path, art) -> Encoded | None:
    """The streams for a cleaned (RGBA) symbol; None for one kept as it was (ReportLab's)."""
    if art.image.mode != "RGBA":
        return None
    jpeg = jpeg_as_is(path, art.source_size)
    if jpeg is not None:
        space = "DeviceRGB" if _components(jpeg) == 3 else "DeviceGray"
        return Encoded(jpeg, "DCTDecode", space, art.source_size,
                       zlib.compress(art.full_alpha().tobytes(), DEFLATE))
    return Encoded(zlib.compress(art.image.convert("RGB").tobytes(), DEFLATE), "FlateDecode",
                   "DeviceRGB", art.image.size,
                   zlib.compress(art.image.getchannel("A").tobytes(), DEFLATE))


def draw(c, name: str, enc: Encoded, x: float, y: float) -> None:
    """Draw the encoded image with its soft mask, one unit per pixel, its bottom-left corner
    at (x, y); stored once in the document under `name`."""
    width, height = enc.size
    image = _xobject(name, enc.data, width, height, enc.space, (enc.filter,))
    mask = _xobject(name + "-alpha", enc.mask, width, height, "DeviceGray", ("FlateDecode",))
    mask._decode = [0, 1]
    doc = c._doc
    reg = doc.getXObjectName(name)
    if doc.idToObject.get(reg) is None:
        c._setXObjects(image)
        doc.Reference(image, reg)
        doc.addForm(name, image)
        c._setXObjects(mask)
        image.smask = doc.Reference(mask, doc.getXObjectName(mask.name))
    c._currentPageHasImages = 1
    c.saveState()
    c.translate(x, y)
    c.scale(width, height)
    c._code.append(f"/{reg} Do")
    c.restoreState()
    c._formsinuse.append(name)


def _components(data: bytes) -> int:
    return pdfutils.readJPEGInfo(io.BytesIO(data))[2]


def _xobject(name: str, stream: bytes, width: int, height: int, space: str, filters):
    """An image XObject with the given encoded stream (ASCII85 on top when ReportLab's
    configuration asks for it, as its own images do)."""
    obj = pdfdoc.PDFImageXObject(name)
    obj.width, obj.height, obj.bitsPerComponent, obj.colorSpace = width, height, 8, space
    obj.mask = None
    if rl_config.useA85:
        stream = pdfdoc.asciiBase85Encode(stream)
        filters = ("ASCII85Decode", *filters)
    obj.streamContent, obj._filters = stream, tuple(filters)
    return obj
