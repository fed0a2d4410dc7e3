"""What a PDF page draws, read back from its content stream: enough geometry for print tests.

A small interpreter of the operators reportlab writes (q Q cm re m l c h W n f S B rg RG k K
and text), tracking the current transformation matrix, so tests measure the output itself
rather than the layout code's numbers.
"""

from __future__ import annotations

import base64
import re
import zlib
from dataclasses import dataclass, field

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point is transformed by m, then by n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass
class Fill:
    """A filled path: its fill colour and its points in page coordinates."""

    color: tuple[float, ...]
    points: list[tuple[float, float]]
    depth: int  # graphics-state depth when filled


@dataclass
class PageDrawing:
    fills: list[Fill] = field(default_factory=list)
    strokes: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)
    stroke_depths: list[int] = field(default_factory=list)
    stroke_paths: list[list[tuple[float, float]]] = field(default_factory=list)  # ends of m l c re
    fonts: list[str] = field(default_factory=list)


def streams(pdf: bytes) -> list[bytes]:
    """Every stream of the file decoded (ASCII85 and Flate, as reportlab writes them)."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        s = m.group(1).strip()
        try:
            if s.endswith(b"~>"):
                s = base64.a85decode(s[:-2].replace(b"\n", b"").replace(b"\r", b""))
            out.append(zlib.decompress(s))
        except (ValueError, zlib.error):
            out.append(s)
    return out


def page_streams(pdf: bytes) -> list[bytes]:
    """The content stream of each page, in page order (reportlab writes one per page); form
    XObjects (SVG art, symbols) and images are streams too, but not pages."""
    import pypdfium2 as pdfium

    n = len(pdfium.PdfDocument(pdf))
    own = [m.group(1) for m in re.finditer(rb"\d+ 0 obj\s*<<(.*?)>>\s*stream\r?\n", pdf, re.S)]
    contents = [s for s, head in zip(streams(pdf), own, strict=True)
                if b"/Subtype /Form" not in head and re.search(rb"(^|\s)(re|cm|BT)\s", s)]
    return contents[:n]


_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9a-fA-F\s]*>|/[^\s/\[\]()<>]+|\[|\]|[^\s\[\]()<>/]+")


def drawing(content: bytes) -> PageDrawing:
    """Fills and stroked segments of one page content stream, in page coordinates."""
    out = PageDrawing()
    ctm, stack, stack_colors = IDENTITY, [], []
    fill_color: tuple[float, ...] = (0,)
    path: list[tuple[float, float]] = []
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    current = None
    nums: list[float] = []
    in_text = False
    for tok in _TOKEN.findall(content):
        try:
            nums.append(float(tok))
            continue
        except ValueError:
            pass
        op = tok.decode("latin-1")
        if op == "BT":
            in_text = True
        elif op == "ET":
            in_text = False
        elif op == "Tf" or (in_text and op.startswith("/")):
            if op.startswith("/"):
                out.fonts.append(op[1:])
                continue
        elif in_text:
            pass
        elif op == "q":
            stack.append(ctm)
            stack_colors.append(fill_color)
        elif op == "Q":
            ctm = stack.pop()
            fill_color = stack_colors.pop()
        elif op == "cm" and len(nums) >= 6:
            ctm = mul(tuple(nums[-6:]), ctm)
        elif op in ("rg", "k", "g") and nums:
            fill_color = tuple(nums[-{"rg": 3, "k": 4, "g": 1}[op]:])
        elif op == "re" and len(nums) >= 4:
            x, y, w, h = nums[-4:]
            corners = [apply(ctm, *p) for p in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
            path += corners
            segments += list(zip(corners, corners[1:] + corners[:1], strict=True))
        elif op == "m" and len(nums) >= 2:
            current = apply(ctm, *nums[-2:])
            path.append(current)
        elif op == "l" and len(nums) >= 2:
            p = apply(ctm, *nums[-2:])
            if current is not None:
                segments.append((current, p))
            current = p
            path.append(p)
        elif op == "c" and len(nums) >= 6:
            current = apply(ctm, *nums[-2:])
            path.append(current)
        elif op in ("f", "f*", "B", "B*", "b", "b*"):
            out.fills.append(Fill(fill_color, path, len(stack)))
            path, segments, current = [], [], None
        elif op == "S" or op == "s":
            out.stroke_paths.append(path)
            out.strokes += segments
            out.stroke_depths += [len(stack)] * len(segments)
            path, segments, current = [], [], None
        elif op == "n":
            path, segments, current = [], [], None
        nums = []
    return out


def centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def smallest_placed_form_mm(pdf) -> float:
    """The smallest symbol on any page, in mm: each symbol is a form placed by a turning
    matrix; pdfium gives the placed box, and its longer side over (|cos| + |sin|) of the turn
    is a lower bound of the ink's longer side (the findability of a deck's smallest icon)."""
    import math

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    smallest = math.inf
    for page in doc:
        for obj in page.get_objects(max_depth=0):
            if obj.type == raw.FPDF_PAGEOBJ_FORM:
                left, bottom, right, top = obj.get_bounds()
                m = obj.get_matrix()
                side = max(right - left, top - bottom) * math.hypot(m.a, m.b) / (
                    abs(m.a) + abs(m.b))
                smallest = min(smallest, side / 72 * 25.4)
    doc.close()
    return smallest
