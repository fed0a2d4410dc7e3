"""The compiled kernel of silhouette packing (generator/layout/cells.c) answers as the Python
code does: the same places on any board, so a deck is laid out the same with or without it
(an install without a C compiler runs the Python code and must print the same cards)."""

import random
import shutil
import sys
import sysconfig
from pathlib import Path

import pytest
from PIL import Image

from generator.layout import cell_board, silhouettes
from generator.layout.packing import Region
from generator.render.art import clean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402

KERNEL = cell_board.KERNEL


def test_the_kernel_is_built_where_a_c_compiler_is():
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(compiler):
        pytest.skip(f"no C compiler ({compiler}): this install runs the Python code")
    assert KERNEL is not None, "setup.py did not build _pnp_cells although a C compiler is here"


@pytest.fixture
def python_only(monkeypatch):
    def run(fn, *args):
        monkeypatch.setattr(cell_board, "KERNEL", None)
        try:
            return fn(*args)
        finally:
            monkeypatch.setattr(cell_board, "KERNEL", KERNEL)
    return run


def blob(rng: random.Random, w: int, h: int) -> Image.Image:
    """A footprint's mask: random ink spanning its whole w x h box, holes and gaps included."""
    ink = {(r, c) for r in range(h) for c in range(w) if rng.random() < rng.choice((0.3, 0.8))}
    ink |= {(0, rng.randrange(w)), (h - 1, rng.randrange(w)), (rng.randrange(h), 0),
            (rng.randrange(h), w - 1)}
    mask = Image.new("L", (w, h))
    mask.putdata([255 if (r, c) in ink else 0 for r in range(h) for c in range(w)])
    return mask


@pytest.mark.skipif(KERNEL is None, reason="the kernel is not built here")
@pytest.mark.parametrize("n", [32, 96, 128])  # 96: rows of 12 bytes, not whole 64-bit words
def test_every_search_answers_as_the_python_code(n, python_only):
    rng = random.Random(n)
    for trial in range(120):
        density = rng.choice((0.0, 0.02, 0.1, 0.3))  # 0: no crowding anywhere (any legal place)
        edge = trial % 3 != 0  # the packer's boards are blocked at the edge; these may not be
        blocked = sum(1 << (i * n + j) for i in range(n) for j in range(n)
                      if (edge and (i in (0, n - 1) or j in (0, n - 1))) or rng.random() < density)
        w, h = rng.randint(1, n // 2), rng.randint(1, n // 2)
        if trial % 17 == 0:
            w = n + 1  # wider than the board: nowhere
        mask = blob(rng, w, h)
        fp, _ = cell_board.footprint_and_box(mask.im)
        seed = rng.random()
        got = cell_board.Board(n, blocked).best(fp, w, h, random.Random(seed))
        want = python_only(cell_board.Board(n, blocked).best, fp, w, h, random.Random(seed))
        assert got == want, (trial, w, h, density)
        places = [(rng.randint(0, n - h + 1), rng.randint(0, n - w + 1)) for _ in range(9)]
        fit = cell_board.Board(n, blocked).first_fit(fp, w, h, places)
        assert fit == python_only(cell_board.Board(n, blocked).first_fit, fp, w, h, places)


@pytest.mark.skipif(KERNEL is None, reason="the kernel is not built here")
@pytest.mark.parametrize("n", [32, 96, 128])
def test_placing_marks_the_cells_the_python_code_marks(n, python_only):
    """place() and cells(): the footprint and the cells next to it, as bytes with the kernel
    and as an integer without; union() of boards, both ways."""
    rng = random.Random(n + 1)
    for _ in range(60):
        w, h = rng.randint(1, n // 2), rng.randint(1, n // 2)
        fp, _ = cell_board.footprint_and_box(blob(rng, w, h).im)
        i, j = rng.randint(1, n - h - 1), rng.randint(1, n - w - 1)
        blocked = sum(1 << rng.randrange(n * n) for _ in range(40))
        board = cell_board.Board(n, blocked.to_bytes(n * n // 8, "little"))
        board.place(fp, i, j)
        plain = python_only(cell_board.Board, n, blocked)
        python_only(plain.place, fp, i, j)
        assert board.blocked == plain.blocked, (w, h, i, j)
        parts = [cell_board.Board(n, 0).cells(fp, rng.randint(1, n - h - 1),
                                              rng.randint(1, n - w - 1)) for _ in range(3)]
        want = python_only(cell_board.union, blocked, [int.from_bytes(p, "little") for p in parts])
        got = cell_board.union(blocked.to_bytes(n * n // 8, "little"), parts)
        assert int.from_bytes(got, "little") == want


@pytest.fixture(scope="module")
def shapes(tmp_path_factory):
    root = art_deck.make_deck(tmp_path_factory.mktemp("kernel") / "deck", order=5)
    return [clean(p).silhouette for p in sorted((root / "art").iterdir())]


@pytest.mark.skipif(KERNEL is None, reason="the kernel is not built here")
@pytest.mark.parametrize("sides", [0, 6])
def test_cards_are_laid_out_the_same_with_and_without_the_kernel(shapes, sides, python_only):
    region = Region(120.0, sides)
    sizes = silhouettes.Sizes(spread=1.6)
    for card in range(6):
        symbols = [shapes[(card * 5 + k) % len(shapes)] for k in range(6)]
        args = (symbols, region, f"kernel:{card}", sizes)
        assert silhouettes.pack_silhouettes(*args) == python_only(silhouettes.pack_silhouettes,
                                                                  *args), card
