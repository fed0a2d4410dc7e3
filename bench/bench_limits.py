"""Benchmark: the worst inputs each size limit lets through, and the hostile ones it refuses.

Run: python bench/bench_limits.py [--quick]. Every case is one `pnp` process; its wall time and
its own peak memory (os.wait4's rusage of that child alone) are printed with its last line, and
the run ends with the verdict: every case within 500 MB and 30 s of CPU (issue 28), or the ones
that are not. CPU, not wall time: on this shared 2-core machine (load 9-11 while measured) a
case's wall time was up to 7 times its CPU time, the neighbours' work, not the input's.
The limits are pnp_shared/limits.py; docs/reference/limits.md lists them.

Cases, refused: the hostile inputs of issue 12 and issue 28 (a 1,000,000-card deck, a 5 gigapixel
preview, a 5,000-digit integer, a 140 KB CSV header, an .xlsx with an external entity, a 1 MB
workbook inflating to 1 GiB, a 9 MB SVG of 300,000 circles, a 500,000-segment path, a cell of
20,000 inline icons, a 20 MB title, art outside the game's folder) and of issue 36 (an SVG <use>
bomb, a game.toml key of 5,000 dotted parts). Accepted, at the limits:
20,000 cards, an SVG of 5,000 elements, one of 200,000 numbers and one expanding 1,093 <use>, a
workbook of 500,000 cells,
a 10 MB card list of 5,000-character cells, a 25-megapixel PNG as art and a 10-megapixel one
as a symbol, 200 icons in a text.
--quick leaves out the slowest accepted cases (the 10 MB card list and 20,000 cards).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import line  # noqa: E402
from pnp_shared import limits  # noqa: E402

MEMORY_MB, SECONDS = 500, 30.0
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{}</svg>'
GAME = """[game]
title = "{title}"

[deck]
source = "csv"
file = "{file}"
size = "{size}"

[[face]]
type = "rect"
fill = "{{color}}"

[[face]]
type = "text"
text = "{text}"
x = "50%"
y = "20mm"
w = "55mm"
align = "center"
{extra}"""
IMAGE = '\n[[face]]\ntype = "image"\nfile = "{}"\nw = "20mm"\nh = "20mm"\n'


def game(root: Path, rows: int = 3, qty: int = 1, *, size: str = "poker", title: str = "T",
         text: str = "{name}", extra: str = "", cards: str | None = None,
         file: str = "cards.csv") -> Path:
    root.mkdir()
    (root / "game.toml").write_text(GAME.format(size=size, title=title, text=text, extra=extra,
                                                file=file))
    (root / "cards.csv").write_text(cards if cards is not None else "name,color,qty\n" + "".join(
        f"card {i},#{(i * 40503) % 0xFFFFFF:06x},{qty}\n" for i in range(rows)))
    return root


def workbook(path: Path, rows: int, cols: int, edit=None, pad: int = 0) -> None:
    """An .xlsx of rows × cols text cells (name, color, then x), its sheet written as raw XML
    (openpyxl takes minutes for 500,000 cells); `pad` spaces of comment inflate it."""
    import io

    import openpyxl

    skeleton = io.BytesIO()
    openpyxl.Workbook().save(skeleton)
    header = ["name", "color"] + [f"x{c}" for c in range(2, cols)]
    cells = "".join(
        f'<row r="{r}">' + "".join(
            f'<c r="{_col(c)}{r}" t="inlineStr"><is><t>'
            f'{header[c] if r == 1 else f"v{r}" if c == 0 else "red" if c == 1 else "x"}'
            "</t></is></c>" for c in range(cols)) + "</row>" for r in range(1, rows + 1))
    head = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.'
            f'openxmlformats.org/spreadsheetml/2006/main"><sheetData>{cells}</sheetData>')
    if edit:
        head = edit(head)
    with zipfile.ZipFile(skeleton) as source, zipfile.ZipFile(path, "w",
                                                               zipfile.ZIP_DEFLATED) as z:
        for name in source.namelist():
            if name != "xl/worksheets/sheet1.xml":
                z.writestr(name, source.read(name))
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(head.encode())
            if pad:  # a comment of `pad` spaces, streamed
                part.write(b"<!--")
                for _ in range(pad // (1 << 20)):
                    part.write(b" " * (1 << 20))
                part.write(b"-->")
            part.write(b"</worksheet>")


def _col(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def entity(sheet: str) -> str:
    return sheet.replace("<worksheet", '<!DOCTYPE worksheet [<!ENTITY e SYSTEM '
                         '"file:///etc/passwd">]><worksheet', 1).replace("<t>v2</t>", "<t>&e;</t>")


def png(path: Path, pixels: int) -> None:
    from PIL import Image

    side = int(pixels ** 0.5)  # with transparency: the most memory a pixel takes
    Image.new("RGBA", (side, pixels // side), (255, 255, 255, 128)).save(path)


def cases(tmp: Path, quick: bool) -> list[tuple[str, list[str], str]]:
    """(label, pnp arguments, "refused" or "accepted")."""
    out: list[tuple[str, list[str], str]] = []

    def add(label, root, expect, *extra):
        out.append((label, ["build", str(root), "-o", str(tmp / f"{root.name}.pdf"), *extra],
                    expect))

    add("1,000,000 cards", game(tmp / "million", 100, 10_000), "refused")
    big = game(tmp / "preview", size="3000x3000mm")
    out.append(("3000 mm card preview at 600 dpi", ["preview", str(big), "--card", "1", "--dpi",
                                                    "600", "-o", str(tmp / "big.png")], "refused"))
    add("integer of 5,000 digits", game(tmp / "digits", extra=f"\n[verify]\nx = {'9' * 5000}\n"),
        "refused")
    add("CSV header of 140 KB", game(tmp / "header", cards="name,color," + "x" * 140_000
                                     + "\nA,red\n"), "refused")
    root = game(tmp / "entity", file="cards.xlsx")
    workbook(root / "cards.xlsx", 3, 2, entity)
    add(".xlsx declaring an external entity", root, "refused")
    root = game(tmp / "inflate", file="cards.xlsx")
    workbook(root / "cards.xlsx", 3, 2, pad=1 << 30)
    add(f"{(root / 'cards.xlsx').stat().st_size / 1e6:.1f} MB .xlsx inflating to 1 GiB", root,
        "refused")
    root = game(tmp / "circles", extra=IMAGE.format("art.svg"))
    (root / "art.svg").write_text(SVG.format("".join(
        f'<circle cx="{i % 100}" cy="{i // 3000}" r="1"/>' for i in range(300_000))))
    add(f"{(root / 'art.svg').stat().st_size / 1e6:.1f} MB SVG of 300,000 circles", root,
        "refused")
    root = game(tmp / "path", extra=IMAGE.format("art.svg"))
    (root / "art.svg").write_text(SVG.format('<path d="M0 0' + "".join(
        f" L{i % 100} {i * 7 % 100}" for i in range(500_000)) + '"/>'))
    add("path of 500,000 segments", root, "refused")
    icons = '\n[icons]\nic = { shape = "heart" }\n'
    add("a cell of 20,000 inline icons", game(
        tmp / "icons", text="{name} {rules}", extra=icons,
        cards="name,color,rules\nA,red," + ":ic:" * 20_000 + "\n"), "refused")
    add("a 20 MB title", game(tmp / "title", title="T" * 20_000_000), "refused")
    secret = tmp / "secret.png"
    png(secret, 64)
    add("art outside the game's folder", game(tmp / "outside", extra=IMAGE.format(secret)),
        "refused")

    root = game(tmp / "svg-elements", extra=IMAGE.format("art.svg"))
    (root / "art.svg").write_text(SVG.format("".join(
        f'<circle cx="{i % 100}" cy="{i // 100}" r="1"/>'
        for i in range(limits.MAX_SVG_ELEMENTS - 2))))
    add(f"SVG of {limits.MAX_SVG_ELEMENTS:,} elements (the limit)", root, "accepted")
    root = game(tmp / "svg-numbers", extra=IMAGE.format("art.svg"))
    (root / "art.svg").write_text(SVG.format('<path d="M0 0' + "".join(
        f" L{i % 100} {i * 7 % 100}" for i in range(limits.MAX_SVG_NUMBERS // 2 - 10)) + '"/>'))
    add(f"path of {limits.MAX_SVG_NUMBERS:,} numbers (the limit)", root, "accepted")
    for label, levels, each, expect in (("<use> bomb: 10 levels of 10 nested uses", 10, 10,
                                         "refused"),
                                        ("SVG expanding 1,093 <use> (7 levels of 3)", 7, 3, "accepted")):
        root = game(tmp / f"uses-{levels}", extra=IMAGE.format("art.svg"))
        groups = ['<g id="a0"><rect x="1" y="1" width="5" height="5"/></g>'] + [
            f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * each + "</g>" for i in range(1, levels)]
        (root / "art.svg").write_text(SVG.format(
            "<defs>" + "".join(groups) + f'</defs><use href="#a{levels - 1}"/>'))
        add(label, root, expect)
    root = game(tmp / "dotted")
    (root / "game.toml").write_text("[" + ".".join(f"k{i}" for i in range(5000)) + "]\nx = 1\n"
                                    + (root / "game.toml").read_text())
    add("game.toml key of 5,000 dotted parts", root, "refused")
    root = game(tmp / "pixels", extra=IMAGE.format("art.png"))
    png(root / "art.png", limits.MAX_ART_PIXELS)
    add(f"PNG of {limits.MAX_ART_PIXELS / 1e6:.0f} megapixels (the limit)", root, "accepted")
    add(f"{limits.MAX_INLINE_ICONS} inline icons in a text (the limit)", game(
        tmp / "icons-ok", text="{name} {rules}", extra=icons,
        cards="name,color,rules\nA,red," + ":ic:" * limits.MAX_INLINE_ICONS + "\n"), "accepted")
    root = game(tmp / "sheet", file="cards.xlsx")
    workbook(root / "cards.xlsx", limits.MAX_SHEET_CELLS // 20, 20)
    add(f"workbook of {limits.MAX_SHEET_CELLS:,} cells (read, then too many cards)", root,
        "refused")
    root = tmp / "symbols"
    (root / "art").mkdir(parents=True)
    png(root / "art" / "s0.png", limits.MAX_SYMBOL_PIXELS)
    for i in range(1, 7):
        png(root / "art" / f"s{i}.png", 10_000)
    (root / "game.toml").write_text(
        '[deck]\nsource = "plane"\nshape = "circle"\nsize = "60x60mm"\noptions = { order = 2, '
        'symbols = "folder:art" }\n[[face]]\ntype = "symbols"\n')
    add(f"symbol PNG of {limits.MAX_SYMBOL_PIXELS / 1e6:.0f} megapixels (the limit)", root,
        "accepted")
    if not quick:
        cell = "word " * (limits.MAX_CELL_CHARS // 5)
        rows = limits.MAX_TABLE_BYTES // (len(cell) + 20)
        add(f"10 MB card list: {rows:,} cards of {limits.MAX_CELL_CHARS:,} characters", game(
            tmp / "cells", text="{rules}", cards="name,color,rules\n" + "".join(
                f"c{i},red,{cell}\n" for i in range(rows))), "accepted")
        add(f"{limits.MAX_CARDS:,} cards (the limit)", game(tmp / "cards", 100, 200), "accepted")
    return out


def run(args: list[str]) -> tuple[float, float, float, int, str]:
    """Wall and CPU seconds, this child's peak RSS in MB, its exit code and its last line (on
    a shared machine the CPU time is the steadier figure)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as memo:  # no build memo of an earlier run is reused
        child = subprocess.Popen([sys.executable, "-m", "generator", *args], text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 env={**os.environ, "PNP_CACHE": memo})
        output = child.stdout.read() if child.stdout else ""
        _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    lines = output.strip().splitlines() or [""]
    last = next((x for x in lines if x.startswith("error: ")), lines[-1])
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024, child.returncode, last[:100]


def main() -> None:
    """Write the cases' files, then measure them from a fresh process: Linux counts the memory
    a child had before exec (this one's, having written 1 GiB of workbook) in its peak."""
    import json

    if sys.argv[1:2] == ["--measure"]:
        measure(json.loads(Path(sys.argv[2]).read_text()))
        return
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "cases.json"
        listed.write_text(json.dumps(cases(Path(tmp), "--quick" in sys.argv)))
        subprocess.run([sys.executable, __file__, "--measure", str(listed)], check=True)


def measure(listed: list) -> None:
    """Run each case and print its figures, then the verdict."""
    print(line("before"))
    over = []
    for label, args, expect in listed:
        wall, cpu, peak, code, last = run(args)
        got = "refused" if code == 2 else "accepted" if code == 0 else f"exit {code}"
        ok = cpu <= SECONDS and peak <= MEMORY_MB and got == expect
        print(f"{'ok  ' if ok else 'OVER'} {label:<58} {wall:6.2f} s (cpu {cpu:5.2f} s) "
              f"{peak:6.0f} MB  {got:<8} {last}", flush=True)
        if not ok:
            over.append(label)
    print(line("after"))
    print(f"every case within {MEMORY_MB} MB and {SECONDS:.0f} s, as expected" if not over
          else f"{len(over)} case(s) over {MEMORY_MB} MB or {SECONDS:.0f} s, or not as expected: "
          + "; ".join(over))

if __name__ == "__main__":
    main()
