"""The ArUco DICT_4X4_1000 bit patterns, read from codes.txt (written once by
bench/make_marker_codes.py with OpenCV, so the generator itself never needs it)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

BITS = 4  # data cells a side; the printed square is BITS + 2 cells with its black border
COUNT = 1000


@cache
def codes() -> tuple[int, ...]:
    """Each id's data bits, row by row from the top-left, most significant bit first."""
    text = (Path(__file__).with_name("codes.txt")).read_text()
    return tuple(int(line, 16) for line in text.splitlines() if line and line[0] != "#")


def cells(marker_id: int) -> list[list[bool]]:
    """The marker's (BITS + 2)² cells, True where black, border included."""
    bits = codes()[marker_id]
    side = BITS + 2
    grid = [[True] * side for _ in range(side)]
    for i in range(BITS * BITS):
        if bits >> (BITS * BITS - 1 - i) & 1:
            grid[1 + i // BITS][1 + i % BITS] = False  # a 1 bit is a white cell in ArUco
    return grid
