"""Coda deduction: which tiles the hidden tiles can still be, given everything public.

Tiles are small integers so the order rule is plain integer order: number n of colour c is
2n + c (black 0, white 1), so black stands left of white on equal numbers; the two dashes are
24 (black) and 25 (white) and stand anywhere. A row is a list of domains (sets of tiles), one
per tile left to right; a revealed tile has a domain of one. Loose domains (a drawn tile in a
hand) take a tile but stand in no row. Every tile exists once.

The search is exact: a row filter (dynamic programming over the last number to the left and
the first to the right) plus "a known tile is nowhere else", then backtracking on the smallest
domain. Game positions are small (26 tiles), so answers come in milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence

BLACK_DASH, WHITE_DASH = 24, 25
LOW, HIGH = -1, 24  # sentinels: nothing to the left / to the right

Domains = list[set[int]]


def is_dash(tile: int) -> bool:
    return tile >= BLACK_DASH


def _row_filter(row: Domains) -> bool:
    """Keep in each domain only tiles that fit some ascending arrangement of the row."""
    fwd = [{LOW}]
    for dom in row:
        nxt = set()
        for k in fwd[-1]:
            for t in dom:
                if is_dash(t):
                    nxt.add(k)
                elif t > k:
                    nxt.add(t)
        fwd.append(nxt)
    bwd = [{HIGH}]
    for dom in reversed(row):
        nxt = set()
        for k in bwd[-1]:
            for t in dom:
                if is_dash(t):
                    nxt.add(k)
                elif t < k:
                    nxt.add(t)
        bwd.append(nxt)
    bwd.reverse()  # bwd[i]: possible first number from slot i on
    changed = False
    for i, dom in enumerate(row):
        keep = set()
        for t in dom:
            if is_dash(t):
                if any(a < b for a in fwd[i] for b in bwd[i + 1]):
                    keep.add(t)
            elif any(a < t for a in fwd[i]) and any(t < b for b in bwd[i + 1]):
                keep.add(t)
        if keep != dom:
            row[i] = keep
            changed = True
    return changed


def _propagate(rows: list[Domains], loose: Domains) -> bool:
    """Filter to a fixpoint; False when some tile has nowhere left to be."""
    while True:
        changed = False
        for row in rows:
            changed |= _row_filter(row)
        every = [d for row in rows for d in row] + loose
        if any(not d for d in every):
            return False
        known: set[int] = set()
        for d in every:
            if len(d) == 1:
                (t,) = d
                if t in known:
                    return False
                known.add(t)
        for d in every:
            if len(d) > 1 and known & d:
                d.difference_update(known)
                changed = True
        if not changed:
            return _matching(every)


def _matching(domains: Sequence[set[int]]) -> bool:
    """Whether every tile position can get a tile of its own (Hall's condition, by matching)."""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for t in domains[i]:
            if t in seen:
                continue
            seen.add(t)
            if t not in owner or place(owner[t], seen):
                owner[t] = i
                return True
        return False

    return all(place(i, set()) for i in sorted(range(len(domains)), key=lambda i: len(domains[i])))


def solve(rows: Sequence[Sequence[set[int]]], loose: Sequence[set[int]] = ()):
    """One arrangement of every tile that fits all the constraints, or None.

    Returns (rows of tiles, loose tiles)."""
    r = [[set(d) for d in row] for row in rows]
    lo = [set(d) for d in loose]
    if not _propagate(r, lo):
        return None
    every = [d for row in r for d in row] + lo
    open_ = [d for d in every if len(d) > 1]
    if not open_:
        return [[next(iter(d)) for d in row] for row in r], [next(iter(d)) for d in lo]
    pick = min(open_, key=len)
    where = every.index(pick)
    for t in sorted(pick):
        rr = [[set(d) for d in row] for row in r]
        ll = [set(d) for d in lo]
        flat = [d for row in rr for d in row] + ll
        flat[where].intersection_update({t})
        found = solve(rr, ll)
        if found is not None:
            return found
    return None


def possible(rows: Sequence[Sequence[set[int]]], loose: Sequence[set[int]] = ()) -> list[list[set[int]]]:
    """For every tile of every row, the set of tiles it can still be (exact)."""
    base = [[set(d) for d in row] for row in rows]
    lo = [set(d) for d in loose]
    if not _propagate(base, lo):
        return [[set() for _ in row] for row in rows]
    seen: list[list[set[int]]] = [[set() for _ in row] for row in rows]
    for ri, row in enumerate(base):
        for si, dom in enumerate(row):
            for t in sorted(dom):
                if t in seen[ri][si]:
                    continue
                trial = [[set(d) for d in r] for r in base]
                trial[ri][si] = {t}
                found = solve(trial, lo)
                if found is None:
                    continue
                for rj, tiles in enumerate(found[0]):
                    for sj, x in enumerate(tiles):
                        seen[rj][sj].add(x)
    return seen
