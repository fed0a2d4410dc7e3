"""Intervals shared by the simulation's reports (referee/report.py, referee/card_rates.py)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion wins/n, as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At no wins (or every game won) the bound is exactly 0 (or 1); the subtraction leaves a
    # rounding error (5.55e-17 for 0 of 3) that --json printed as if it were a figure.
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    return lo, 1.0 if wins == n else min(1.0, centre + half)
