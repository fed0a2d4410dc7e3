"""Finite fields GF(p^k) for every prime power q = p^k, in pure Python.

Elements are the ints 0..q-1: the base-p digits of an int are the coefficients of a polynomial
of degree < k (digit i is the coefficient of x^i). Multiplication is modulo a primitive
polynomial of degree k, the first one found in a fixed search order, so the same q always gives
the same field and the same numbering. Because x generates the multiplicative group, log and
antilog tables make multiplication and inversion O(1) table look-ups; addition uses a table
(or XOR for p = 2, or % p when k = 1), so building a plane never does polynomial arithmetic.
"""

from __future__ import annotations

from functools import cache

ADD_TABLE_LIMIT = 1024  # above this q, add digit by digit instead of keeping a q*q table


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with p prime and p**k == q, or None when q is not a prime power."""
    if q < 2:
        return None
    p = next((d for d in range(2, int(q**0.5) + 1) if q % d == 0), q)
    k = 0
    while q % p == 0:
        q //= p
        k += 1
    return (p, k) if q == 1 else None


def _digits(n: int, p: int, k: int) -> list[int]:
    out = []
    for _ in range(k):
        n, d = divmod(n, p)
        out.append(d)
    return out


def _number(digits: list[int], p: int) -> int:
    n = 0
    for d in reversed(digits):
        n = n * p + d
    return n


def _powers_of_x(low: list[int], p: int, k: int, q: int) -> list[int] | None:
    """x^0..x^(q-2) modulo x^k + low(x) as ints, or None if x does not have order q-1.

    When x has order exactly q-1 its powers are q-1 distinct non-zero residues, so every
    non-zero residue is a unit and the quotient ring is the field GF(q).
    """
    cur = [1] + [0] * (k - 1)
    out = []
    for i in range(q - 1):
        n = _number(cur, p)
        if i and n == 1:
            return None
        out.append(n)
        # multiply by x: shift up, then replace x^k by -low(x)
        top = cur[-1]
        cur = [0] + cur[:-1]
        if top:
            cur = [(c - top * lc) % p for c, lc in zip(cur, low, strict=True)]
    return out if _number(cur, p) == 1 else None


class GF:
    """The field with q elements; build it with field(q) so tables are shared."""

    def __init__(self, q: int):
        pk = prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        self.q, (self.p, self.k) = q, pk
        self.modulus, exp = self._primitive()
        # exp is doubled so exp[log a + log b] never needs a modulo
        self.exp = exp + exp
        self.log = [0] * q
        for i, v in enumerate(exp):
            self.log[v] = i
        self.neg = [_number([(-d) % self.p for d in _digits(a, self.p, self.k)], self.p)
                    for a in range(q)]
        self.inv = [0] + [exp[(-self.log[a]) % (q - 1)] for a in range(1, q)]
        self._add_table: list[int] | None = None
        if self.k > 1 and self.p != 2 and q <= ADD_TABLE_LIMIT:
            self._add_table = [self._add_digits(a, b) for a in range(q) for b in range(q)]

    def _primitive(self) -> tuple[tuple[int, ...], list[int]]:
        """The first monic x^k + low(x) (low counted up from 1) whose root x is primitive."""
        p, k, q = self.p, self.k, self.q
        if k == 1:
            g = next(g for g in range(1, p) if _order(g, p) == p - 1) if p > 2 else 1
            exp = [1]
            for _ in range(p - 2):
                exp.append(exp[-1] * g % p)
            return (g,), exp
        for n in range(1, q):
            low = _digits(n, p, k)
            if low[0] == 0:
                continue
            exp = _powers_of_x(low, p, k, q)
            if exp is not None:
                return tuple(low), exp
        raise AssertionError(f"no primitive polynomial of degree {k} over GF({p})")  # never

    def _add_digits(self, a: int, b: int) -> int:
        p = self.p
        n, mult = 0, 1
        while a or b:
            n += ((a % p + b % p) % p) * mult
            a, b, mult = a // p, b // p, mult * p
        return n

    def add(self, a: int, b: int) -> int:
        if self.k == 1:
            return (a + b) % self.p
        if self.p == 2:
            return a ^ b
        if self._add_table is not None:
            return self._add_table[a * self.q + b]
        return self._add_digits(a, b)

    def sub(self, a: int, b: int) -> int:
        return self.add(a, self.neg[b])

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self.exp[self.log[a] + self.log[b]]

    def div(self, a: int, b: int) -> int:
        if b == 0:
            raise ZeroDivisionError(f"division by zero in GF({self.q})")
        if a == 0:
            return 0
        return self.exp[self.log[a] - self.log[b] + self.q - 1]

    def __repr__(self) -> str:
        return f"GF({self.p}^{self.k})" if self.k > 1 else f"GF({self.p})"


def _order(g: int, p: int) -> int:
    n, x = 1, g % p
    while x != 1:
        x = x * g % p
        n += 1
    return n


@cache
def field(q: int) -> GF:
    """The field GF(q), built once per q. ValueError if q is not a prime power."""
    return GF(q)
