"""Inks read back from the output: total ink per pixel from Ghostscript's CMYK render of a PDF,
and CMYK pixels seen as sRGB through the press profile the PDF declares."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

PROFILE = Path(__file__).parents[1] / "generator" / "ink" / "swop-tr003.icc"


def total_ink(pdf: Path, dpi: int = 50) -> list[np.ndarray]:
    """Each page's total ink (C + M + Y + K, percent) per pixel, as Ghostscript separates it
    (its tiff32nc device keeps DeviceCMYK values as they are)."""
    if not shutil.which("gs"):
        pytest.skip("Ghostscript (gs) is not installed")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc",
                        f"-r{dpi}", f"-sOutputFile={folder}/page-%03d.tif", str(pdf)],
                       check=True, timeout=300)
        from PIL import Image

        pages = []
        for tif in sorted(Path(folder).glob("page-*.tif")):
            with Image.open(tif) as im:
                pages.append(np.asarray(im, dtype=np.float32).sum(axis=2) / 2.55)
        return pages


def as_srgb(image, profile: bytes | None = None):
    """A CMYK PIL image as the press prints it, in sRGB (relative colorimetric, black point
    compensated both ways, as the conversion to CMYK was)."""
    import io

    from PIL import ImageCms

    press = ImageCms.getOpenProfile(io.BytesIO(profile) if profile else str(PROFILE))
    return ImageCms.profileToProfile(image, press, ImageCms.createProfile("sRGB"),
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                     outputMode="RGB", flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
