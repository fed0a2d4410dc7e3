"""The gallery: every bundled template built by `pnp build`, and a picture of its first page and
of its first card rendered from the PDFs that build wrote, so the pictures cannot drift from
the code. mkdocs runs it on every build (docs/hooks.py); `python docs/gallery.py --readme`
also writes the README's picture of a built sheet (docs/img/sheet.png, committed).

Pictures are written only when their bytes change, so `mkdocs serve` (which watches docs/)
does not rebuild in a loop."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parent
GALLERY = DOCS / "gallery"          # git-ignored: made by every build
README_PICTURE = DOCS / "img" / "sheet.png"
PAGE_DPI = 60
CARD_DPI = 120


@dataclass(frozen=True)
class Built:
    game: str
    description: str
    cards: int
    pages: int
    paper: str
    layout: str   # "a 3x3 grid", or the rows of triangles and their straight cuts


def _pnp(*args: str) -> subprocess.Popen:
    """`pnp ARGS` as a process of the Python running mkdocs (whose environment has pnp)."""
    return subprocess.Popen([sys.executable, "-m", "generator", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen, what: str) -> str:
    out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {process.returncode}): {err.strip()}")
    return out


def render(pdf: Path, dpi: int, trim: bool = False, index: int = 0) -> bytes:
    """A page of `pdf` (the first unless told) as PNG bytes; with `trim`, cut to its TrimBox
    (one card). docs/results.py renders its pictures with it too."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[index]
        crop = (0, 0, 0, 0)
        if trim:
            left, bottom, right, top = page.get_trimbox()
            width, height = page.get_size()
            crop = (left, bottom, width - right, height - top)
        image = page.render(scale=dpi / 72, crop=crop).to_pil()
    finally:
        doc.close()
    return png(image)


def png(image) -> bytes:
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _first_trimmed(pdf: Path) -> int:
    """The first page that is one piece (its TrimBox inside the page): past the rules and the
    contents page of a whole game."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return next(i for i, page in enumerate(doc)
                    if tuple(page.get_trimbox()) != (0, 0, *page.get_size()))
    finally:
        doc.close()


def _contact(pdf: Path, dpi: int, per_row: int = 8) -> bytes:
    """Every page of `pdf` in rows, as PNG bytes: a whole game at a glance."""
    import pypdfium2 as pdfium
    from PIL import Image

    doc = pdfium.PdfDocument(str(pdf))
    try:
        pages = [p.render(scale=dpi / 72).to_pil().convert("RGB") for p in doc]
    finally:
        doc.close()
    w, h = max(p.width for p in pages) + 6, max(p.height for p in pages) + 6
    rows = (len(pages) + per_row - 1) // per_row
    sheet = Image.new("RGB", (w * min(per_row, len(pages)), h * rows), "#d0d0d0")
    for i, p in enumerate(pages):
        sheet.paste(p, ((i % per_row) * w + 3, (i // per_row) * h + 3))
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def write_if_changed(path: Path, data: bytes) -> None:
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def build_gallery(out: Path = GALLERY) -> list[Built]:
    """Build every bundled template twice (sheets, and one card a page for the card's picture)
    and write `<game>-page.png` and `<game>-card.png` into `out`."""
    with tempfile.TemporaryDirectory() as tmp:
        sheets, singles = Path(tmp, "sheets"), Path(tmp, "single")
        listing = _pnp("list", "--json")
        sheet_build = _pnp("build", "--all", "-o", str(sheets), "--json")
        single_build = _pnp("build", "--all", "--single", "-o", str(singles), "--json")
        described = {t["name"]: t.get("description", "") for t in json.loads(_finish(listing, "pnp list"))}
        built = json.loads(_finish(sheet_build, "pnp build --all"))
        _finish(single_build, "pnp build --all --single")
        gallery = []
        for entry in built:
            game = entry["game"]
            if "components" in entry:  # a whole game: every page of its one PDF, side by side
                write_if_changed(out / f"{game}-page.png", _contact(Path(entry["path"]), 24))
                write_if_changed(out / f"{game}-card.png",
                                 render(singles / f"{game}.pdf", 12, trim=True,
                                        index=_first_trimmed(singles / f"{game}.pdf")))
                gallery.append(Built(game, described.get(game, ""), entry["cards"],
                                     entry["pages"], entry["paper"], _layout(entry)))
                continue
            write_if_changed(out / f"{game}-page.png", render(Path(entry["path"]), PAGE_DPI))
            write_if_changed(out / f"{game}-card.png",
                             render(singles / f"{game}.pdf", CARD_DPI, trim=True))
            gallery.append(Built(game, described.get(game, ""), entry["cards"], entry["pages"],
                                 entry["paper"], _layout(entry)))
        return gallery


def _layout(entry: dict) -> str:
    if "components" in entry:
        return (f"{len(entry['components'])} components on {entry['sheets']} sheets: "
                + ", ".join(c["component"] for c in entry["components"]))
    if "grid" in entry:
        return f"{entry['orientation']}, a {entry['grid']} grid"
    return f"{entry['orientation']}, rows of tiles cut along {entry['cuts']} straight lines"


def markdown(gallery: list[Built], images: str = "gallery") -> str:
    """One section per template: what it is, its first card and its first sheet."""
    parts = []
    for b in gallery:
        parts.append(
            f"## {b.game}\n\n{b.description}\n\n"
            f"`pnp build {b.game}`: {b.cards} cards on {b.pages} pages "
            f"({b.paper.upper()} {b.layout}).\n\n"
            f"![{b.game}: card 1]({images}/{b.game}-card.png){{ .gallery-card }}\n"
            f"![{b.game}: page 1 of the built PDF]({images}/{b.game}-page.png){{ .gallery-page }}\n")
    return "\n".join(parts)


def write_readme_picture(game: str = "emberfall", dpi: int = 50) -> Path:
    """The README's picture: the first sheet of a bundled template, as built."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp, f"{game}.pdf")
        _finish(_pnp("build", game, "-o", str(pdf)), f"pnp build {game}")
        write_if_changed(README_PICTURE, render(pdf, dpi))
    return README_PICTURE


if __name__ == "__main__":
    if "--readme" in sys.argv[1:]:
        path = write_readme_picture()
        print(f"{path} ({path.stat().st_size:,} bytes)")
    else:
        for b in build_gallery():
            print(f"{b.game}: {GALLERY / (b.game + '-page.png')}")
