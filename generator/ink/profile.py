"""The press CMYK output is made for, as an ICC profile, and littleCMS's transform into it.

The profile is SWOP coated #3 (ANSI CGATS TR 003, the US web-offset printing condition on
grade 3 coated paper), built with ArgyllCMS's colprof from the TR 003 characterization data
that Debian's icc-profiles-free ships under the zlib licence (`scripts`: see make_profile.sh
beside this file); CGATS lets profiles derived from the data be distributed freely, naming
TR 003 as the source. So the inks a PDF asks for are those that print the sRGB colours on that
press (relative colorimetric, black point compensated), and a PDF/X file can embed the very
profile it was converted with as its output intent, instead of naming a condition it was not
made for.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

PROFILE = Path(__file__).with_name("swop-tr003.icc")
CONDITION = "CGATS TR 003"  # the characterization, registered at the ICC
CONDITION_INFO = "SWOP Coated #3 (ANSI CGATS TR 003), profile made with ArgyllCMS, ink limit 300 %"


def icc_bytes() -> bytes:
    return PROFILE.read_bytes()


@lru_cache(maxsize=1)
def _transform():
    from PIL import ImageCms

    return ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)), "RGB", "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def to_cmyk_image(image):
    """An RGB PIL image as CMYK inks on the press."""
    from PIL import ImageCms

    return ImageCms.applyTransform(image, _transform())


@lru_cache(maxsize=4096)
def rgb_inks(r: int, g: int, b: int) -> tuple[float, float, float, float]:
    """An sRGB colour (0..255 each) as C, M, Y, K fractions on the press (colours repeat:
    one transform each)."""
    from PIL import Image

    px = to_cmyk_image(Image.new("RGB", (1, 1), (r, g, b))).getpixel((0, 0))
    return tuple(v / 255 for v in px)
