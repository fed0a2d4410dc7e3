"""PDF pages to PNG files at an exact pixel size and dpi, on one or more cores.

pdfium sizes a render as ceil(points × scale); the scale is taken a hair under dpi/72 so that a
page of exactly N pixels' worth of points renders as N pixels, not N + 1.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from pnp_model.errors import PnpError
from pnp_shared.files import write_atomic
from pnp_shared.limits import MAX_PIXELS

_doc = None  # the PDF, opened once per worker process


def pixels(length_pt: float, dpi: int) -> int:
    """The rounding rule: a length in points is round(length / 72 × dpi) pixels."""
    return max(1, round(length_pt / 72 * dpi))


def image_size(width_pt: float, height_pt: float, dpi: int, what: str) -> tuple[int, int]:
    """Pixels of an image of that size at dpi; past MAX_PIXELS, a one-line error with the figure."""
    px, py = pixels(width_pt, dpi), pixels(height_pt, dpi)
    if px * py > MAX_PIXELS:
        raise PnpError(f"{what} would be {px:,}×{py:,} pixels ({px * py / 1e6:,.0f} megapixels, "
                       f"over the limit of {MAX_PIXELS / 1e6:.0f}); lower --dpi", "--dpi")
    return px, py


def _open(pdf: bytes) -> None:
    global _doc
    import pypdfium2 as pdfium

    _doc = pdfium.PdfDocument(pdf)


def _one(index: int, path: str, dpi: int, size: tuple[int, int], clear: bool) -> int:
    image = render_page(_doc, index, dpi, size, clear)
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi))
    write_atomic(Path(path), buf.getvalue())
    return index


def render_page(doc, index: int, dpi: int, size: tuple[int, int], clear: bool):
    """One page as a PIL image of exactly `size` pixels: RGBA on clear, else RGB on white."""
    fill = (255, 255, 255, 0 if clear else 255)
    image = doc[index].render(scale=dpi / 72 * (1 - 1e-9), fill_color=fill).to_pil()
    image = image.convert("RGBA" if clear else "RGB")
    if image.size != size:  # a page not sized in whole pixels: pad or crop at the far edges
        from PIL import Image

        canvas = Image.new(image.mode, size, fill if clear else fill[:3])
        canvas.paste(image, (0, 0))
        image = canvas
    return image


def rasterize(pdf: bytes, tasks: list[tuple[int, str]], dpi: int, size: tuple[int, int],
              clear: bool, workers: int = 1, progress: Callable[[int], None] | None = None) -> None:
    """Write page `index` of `pdf` to `path` for each task; PNG bytes do not depend on workers."""
    if workers <= 1 or len(tasks) < 4:
        _open(pdf)
        for index, path in tasks:
            _one(index, path, dpi, size, clear)
            if progress:
                progress(1)
        return
    with ProcessPoolExecutor(workers, initializer=_open, initargs=(pdf,)) as pool:
        futures = [pool.submit(_one, i, p, dpi, size, clear) for i, p in tasks]
        for f in as_completed(futures):
            f.result()
            if progress:
                progress(1)
