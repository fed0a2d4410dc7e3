"""What a tutorial's or guide's example makes, shown beside it: on every build the page's ```sh
examples run in order in a scratch folder (as a reader would type them, and as
tests/test_docs.py runs them), and after an example followed by a marker line

    <!-- result: output/mygame.pdf -->          the PDF's first page (or `... page 2`)
    <!-- result: output/mygame-card-4.png -->   a picture the example wrote (`... width 900`:
                                                 900 px wide; else 360, a wide one 720)
    <!-- result: output -->                     what the example printed

that file is rendered into docs/results/ (git-ignored) and the marker becomes its picture, or
the printed text. A picture is the real output of the command on the page, so it cannot drift
from the code; an example that fails fails the build. Pictures are written only when their
bytes change (`mkdocs serve` watches docs/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import gallery  # docs/gallery.py: the same rendering of a PDF page

DOCS = Path(__file__).resolve().parent
OUT = DOCS / "results"
DPI = 60  # a sheet at 60 dpi is ~500 px wide: legible as a picture of the page, not of the text
MARKER = re.compile(r"^<!-- result: (.+?) -->$", re.M)
FENCE = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


def _slug(src_uri: str) -> str:
    return src_uri.removesuffix(".md").replace("/", "-")


def _steps(text: str) -> list[tuple[str, list[str]]]:
    """Each example of the page, with the result markers that follow it (before the next)."""
    fences = list(FENCE.finditer(text))
    steps = []
    for i, fence in enumerate(fences):
        end = fences[i + 1].start() if i + 1 < len(fences) else len(text)
        steps.append((fence.group(1), MARKER.findall(text, fence.end(), end)))
    while steps and not steps[-1][1]:  # the examples after the last result are not needed
        steps.pop()
    return steps


def pages_with_results() -> list[Path]:
    return [p for p in sorted(DOCS.rglob("*.md")) if MARKER.search(p.read_text("utf-8"))]


def build(page: Path) -> list[str]:
    """Run the page's examples and make each marker's result: the markdown replacing each
    marker, in order."""
    slug = _slug(page.relative_to(DOCS).as_posix())
    steps = _steps(page.read_text("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        work, kept = Path(tmp, "work"), Path(tmp, "kept")
        work.mkdir()
        kept.mkdir()
        script = ["set -e -o pipefail"]
        for i, (example, markers) in enumerate(steps):
            script.append(f'{{\n{example}}} > "{kept}/{i}.out"')
            for k, spec in enumerate(markers):
                source = spec.split()[0]
                if source != "output":
                    script.append(f'cp "{source}" "{kept}/{i}-{k}{Path(source).suffix}"')
        bindir = str(Path(sys.executable).parent)
        env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
               "REFEREE_DB": str(work / "referee.sqlite3"), "NO_MKDOCS_2_WARNING": "1",
               # a page's `pnp printer save` never changes the reader's own printers
               "PNP_CONFIG": str(work / "pnp-config")}
        env.pop("VIRTUAL_ENV", None)
        done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work, env=env,
                              capture_output=True, text=True, timeout=900,
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise RuntimeError(f"an example of {page.name} failed while making its results "
                               f"(exit {done.returncode}): {done.stderr[-2000:]}")
        made = []
        for i, (_, markers) in enumerate(steps):
            for k, spec in enumerate(markers):
                made.append(_result(spec, kept, i, k, f"{slug}-{i}-{k}", page))
        return made


def _result(spec: str, kept: Path, i: int, k: int, name: str, page: Path) -> str:
    words = spec.split()
    if words[0] == "output":
        printed = (kept / f"{i}.out").read_text("utf-8").rstrip()
        return f"```text\n{printed}\n```"
    source = kept / f"{i}-{k}{Path(words[0]).suffix}"
    if source.suffix == ".pdf":
        number = int(words[2]) if len(words) > 2 and words[1] == "page" else 1
        data = gallery.render(source, DPI, index=number - 1)
    else:  # `... width 900`: a plot's small text needs more than a card's picture
        data = _shrunk(source, int(words[2]) if len(words) > 2 and words[1] == "width" else None)
    gallery.write_if_changed(OUT / f"{name}.png", data)
    link = os.path.relpath(OUT / f"{name}.png", page.parent).replace(os.sep, "/")
    return f"![what it made: {spec}]({link}){{ .result }}"


def _shrunk(path: Path, width: int | None = None) -> bytes:
    """A card stays card-sized; a wide picture (a plot, a landscape sheet) gets twice the width
    unless the marker says, or its labels would be too small to read."""
    from PIL import Image

    with Image.open(path) as im:
        im = im.convert("RGB")
        width = width or (720 if im.width > im.height else 360)
        if im.width > width:
            im = im.resize((width, round(im.height * width / im.width)), Image.LANCZOS)
        return gallery.png(im)


def replace(markdown: str, made: list[str]) -> str:
    """The page's markers replaced, in order, by what build() made for them."""
    parts = iter(made)
    return MARKER.sub(lambda m: next(parts), markdown)
