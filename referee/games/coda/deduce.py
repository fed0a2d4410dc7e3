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
from functools import lru_cache

BLACK_DASH, WHITE_DASH = 24, 25
LOW, HIGH = -1, 24  # sentinels: nothing to the left / to the right
NONE_LEFT, NONE_RIGHT = 99, -99  # no arrangement at all: nothing fits

Domains = list[set[int]]


def is_dash(tile: int) -> bool:
    return tile >= BLACK_DASH


def _row_filter(row: Domains) -> bool:
    """Keep in each domain only tiles that fit some ascending arrangement of the row.

    Only two numbers per gap matter: the smallest number that can stand last to its left
    (lo) and the largest that can stand first to its right (hi); a number fits between."""
    n = len(row)
    lo = [LOW] * (n + 1)
    for i, dom in enumerate(row):
        prev = lo[i]
        best = min((t for t in dom if t < BLACK_DASH and t > prev), default=NONE_LEFT)
        if prev != NONE_LEFT and any(t >= BLACK_DASH for t in dom):
            best = min(best, prev)
        lo[i + 1] = best
    hi = [HIGH] * (n + 1)
    for i in range(n - 1, -1, -1):
        nxt = hi[i + 1]
        best = max((t for t in row[i] if t < BLACK_DASH and t < nxt), default=NONE_RIGHT)
        if nxt != NONE_RIGHT and any(t >= BLACK_DASH for t in row[i]):
            best = max(best, nxt)
        hi[i] = best
    changed = False
    for i, dom in enumerate(row):
        a, b = lo[i], hi[i + 1]
        keep = {t for t in dom if (a < t < b if t < BLACK_DASH else a < b)}
        if len(keep) != len(dom):
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
    quick = _greedy(r, lo)
    if quick is not None:
        return quick
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


def _greedy(rows: list[Domains], loose: Domains):
    """A fast try: each row left to right takes the smallest free tile that fits (a dash only
    when no number does). Often right; when it fails, the search decides."""
    used: set[int] = set()
    out = []
    for row in rows:
        last, tiles = LOW, []
        for dom in row:
            free = sorted(t for t in dom if t not in used)
            pick = next((t for t in free if t < BLACK_DASH and t > last), None)
            if pick is None:
                pick = next((t for t in free if t >= BLACK_DASH), None)
            if pick is None:
                return None
            if pick < BLACK_DASH:
                last = pick
            used.add(pick)
            tiles.append(pick)
        out.append(tiles)
    spare = []
    for dom in loose:
        pick = next((t for t in sorted(dom) if t not in used), None)
        if pick is None:
            return None
        used.add(pick)
        spare.append(pick)
    return out, spare


def feasible(rows: Sequence[Sequence[set[int]]], loose: Sequence[set[int]] = ()) -> bool:
    """Whether some arrangement fits; answers are remembered, since a move is judged by
    `check` and again by `apply`, and a fold replays the same questions."""
    key = (tuple(tuple(frozenset(d) for d in row) for row in rows),
           tuple(frozenset(d) for d in loose))
    return _feasible(key)


@lru_cache(maxsize=4096)
def _feasible(key) -> bool:
    rows, loose = key
    return solve([[set(d) for d in row] for row in rows], [set(d) for d in loose]) is not None


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


def sample(rows: Sequence[Sequence[set[int]]], loose: Sequence[set[int]], rng) -> tuple | None:
    """A random arrangement that fits every constraint, or None: each open tile, in random
    order, takes a random tile that leaves the rest solvable (a determinisation for search
    bots: any arrangement the public information allows, not always the same one)."""
    r = [[set(d) for d in row] for row in rows]
    lo = [set(d) for d in loose]
    if not _propagate(r, lo):
        return None
    n = sum(len(row) for row in r) + len(lo)
    order = list(range(n))
    rng.shuffle(order)
    for i in order:
        flat = [d for row in r for d in row] + lo
        if len(flat[i]) == 1:
            continue
        options = sorted(flat[i])
        rng.shuffle(options)
        for t in options:
            rr = [[set(d) for d in row] for row in r]
            ll = [set(d) for d in lo]
            ([d for row in rr for d in row] + ll)[i].intersection_update({t})
            if _propagate(rr, ll) and solve(rr, ll) is not None:
                r, lo = rr, ll
                break
        else:
            return None
    return [[next(iter(d)) for d in row] for row in r], [next(iter(d)) for d in lo]
