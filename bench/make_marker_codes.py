"""Write generator/markers/codes.txt: the bit patterns of ArUco DICT_4X4_1000, read from
OpenCV's own marker images, so that printing markers needs no OpenCV. Run once (needs the
`camera` extra); the file is checked in.

    python bench/make_marker_codes.py
"""

from __future__ import annotations

from pathlib import Path

import cv2

OUT = Path(__file__).resolve().parents[1] / "generator" / "markers" / "codes.txt"


def main() -> None:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000)
    lines = ["# ArUco DICT_4X4_1000, one id a line: 16 data bits row by row, 1 = white "
             "(bench/make_marker_codes.py)"]
    for i in range(1000):
        img = cv2.aruco.generateImageMarker(d, i, 6)  # one pixel a cell, border included
        bits = 0
        for r in range(1, 5):
            for c in range(1, 5):
                bits = bits << 1 | (1 if img[r, c] > 127 else 0)
        lines.append(f"{bits:04x}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{OUT}: {len(lines) - 1} codes")


if __name__ == "__main__":
    main()
