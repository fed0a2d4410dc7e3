"""The Tripple Domino lattice: cells, corners, neighbours, hexagons, and the board as text.

Vertex (x, y) of a triangular lattice; cell U(x,y) has corners (x,y), (x+1,y), (x,y+1) and
points up, D(x,y) has corners (x+1,y), (x,y+1), (x+1,y+1) and points down. The drawing puts
every number on its vertex (tiles that meet at a vertex agree on it, D3), labels every tile on
the table with its cell in capitals and its card id, and every free cell next to a tile with
its cell in lower case: players read the coordinates to type straight off the screen.
"""

from __future__ import annotations

from collections.abc import Mapping

Cell = tuple[str, int, int]  # ("U" | "D", x, y)
Vertex = tuple[int, int]


def corners(c: Cell) -> tuple[Vertex, Vertex, Vertex]:
    """The cell's vertices clockwise from its apex."""
    kind, x, y = c
    if kind == "U":
        return (x, y + 1), (x + 1, y), (x, y)
    return (x + 1, y), (x, y + 1), (x + 1, y + 1)


CORNER_NAMES = {"U": ("top", "bottom-right", "bottom-left"), "D": ("bottom", "top-left",
                                                                   "top-right")}


def edge_neighbours(c: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing an edge, each opposite the corner of the same index."""
    kind, x, y = c
    if kind == "U":  # opposite top: base; opposite bottom-right: left edge; bottom-left: right
        return ("D", x, y - 1), ("D", x - 1, y), ("D", x, y)
    return ("U", x, y + 1), ("U", x + 1, y), ("U", x, y)


def hexagon(v: Vertex) -> tuple[Cell, ...]:
    """The six cells around a vertex."""
    x, y = v
    return (("U", x, y), ("D", x - 1, y), ("U", x - 1, y), ("D", x - 1, y - 1),
            ("U", x, y - 1), ("D", x, y - 1))


# Lines per lattice row, and characters per lattice step across W = 2H (the edges then move
# one column per line). A triangle's widest inside line holds 2H - 3 characters, so at H = 6 a
# label up to 7 characters ("u-2,-11") has a space on both sides; a board reaching labels
# like "d-11,-10" is drawn one size larger (scale_for), so labels never touch an edge.
H = 6
W = 2 * H


def _label(cell: tuple[str, int, int]) -> str:
    return f"{cell[0]}{cell[1]},{cell[2]}"


def free_cells(board: Mapping) -> set[Cell]:
    """The empty cells sharing an edge with a tile: where the next tile can go (D2)."""
    return {c for cell in board for c in edge_neighbours(cell)} - set(board)


def scale_for(board: Mapping) -> int:
    """Lines per row for drawing this board: the smallest at which its longest label (its
    tiles' and free cells') keeps a space on both sides inside its triangle."""
    longest = max((len(_label(c)) for c in set(board) | free_cells(board)), default=0)
    return max(H, -(-(longest + 5) // 2))


def spot(v: Vertex, h: int = H) -> tuple[int, int]:
    """Where a vertex lands in a drawing at h lines per row: (line, column), up to the
    drawing's offset."""
    x, y = v
    return -h * y, 2 * h * x + h * y


def draw(board: Mapping, numbers: Mapping, tags: Mapping | None = None,
         window: set[Cell] | None = None, h: int | None = None) -> str:
    """The occupied cells and the free cells sharing an edge with them; with a window, only
    the cells in it (edges to tiles outside still drawn solid). h: lines per row (by default
    scale_for(board))."""
    H = h if h is not None else scale_for(board)  # noqa: N806 - the module's names, rescaled
    W = 2 * H  # noqa: N806
    free = free_cells(board)
    cells = set(board) | free
    if window is not None:
        cells &= window
    verts = {v for c in cells for v in corners(c)}
    ymax = max(y for _, y in verts)
    ymin = min(y for _, y in verts)
    left = min(W * x + (W // 2) * y for x, y in verts)
    right = max(W * x + (W // 2) * y for x, y in verts)
    rows = [[" "] * (right - left + 1) for _ in range(H * (ymax - ymin) + 1)]

    def pos(x: int, y: int) -> tuple[int, int]:
        return H * (ymax - y), W * x + (W // 2) * y - left

    def put(line: int, col: int, text: str) -> None:
        for k, ch in enumerate(text):
            if 0 <= line < len(rows) and 0 <= col + k < len(rows[line]):
                rows[line][col + k] = ch

    def solid(*sides) -> bool:
        return any(c in board for c in sides)

    for kind, x, y in sorted(cells):
        if kind != "U":
            continue
        line, col = pos(x, y)
        # base shared with D(x,y-1); left edge with D(x-1,y); right edge with D(x,y)
        base = solid(("U", x, y), ("D", x, y - 1))
        put(line, col + 1, "-" * (W - 1) if base else " ." * ((W - 1) // 2))
        for k in range(1, H):
            put(line - k, col + k, "/" if solid(("U", x, y), ("D", x - 1, y)) else ".")
            put(line - k, col + W - k, "\\" if solid(("U", x, y), ("D", x, y)) else ".")
    for kind, x, y in sorted(cells):
        if kind != "D":
            continue
        line, col = pos(x, y)
        top = solid(("D", x, y), ("U", x, y + 1))
        tl, _ = pos(x, y + 1)
        tcol = col + W // 2
        put(tl, tcol + 1, "-" * (W - 1) if top else " ." * ((W - 1) // 2))
        for k in range(1, H):
            put(line - k, col + W - k, "\\" if solid(("D", x, y), ("U", x, y)) else ".")
            put(line - k, col + W + k, "/" if solid(("D", x, y), ("U", x + 1, y)) else ".")
    for cell in cells:
        kind, x, y = cell
        line, col = pos(x, y)
        text = _label(cell) if cell in board else _label(cell).lower()
        tag = tags.get(cell, "") if tags is not None else ""
        if kind == "U":
            put(line - 1, col + W // 2 - len(text) // 2, text)
            put(line - 2, col + W // 2 - len(tag) // 2, tag)
        else:
            put(line - H + 1, col + W - len(text) // 2, text)
            put(line - H + 2, col + W - len(tag) // 2, tag)
    for v in verts:
        line, col = pos(*v)
        put(line, col, str(numbers[v]) if v in numbers else "+")
    text = "\n".join("".join(r).rstrip() for r in rows)
    return text


LEGEND = "CAPITALS: tiles on the table (#card id); lower case: free cells next to them"
