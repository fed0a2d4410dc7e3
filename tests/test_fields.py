"""Finite fields: the arithmetic every plane is built on must be a real field for every q."""

import itertools

import pytest

from pnp_model.designs.fields import field, prime_power

SMALL = [2, 3, 4, 5, 7, 8, 9, 11, 13, 16]


@pytest.mark.parametrize("q, expected", [(2, (2, 1)), (9, (3, 2)), (27, (3, 3)), (32, (2, 5)),
                                         (121, (11, 2)), (6, None), (12, None), (1, None),
                                         (0, None), (100, None)])
def test_prime_power_recognises_orders(q, expected):
    assert prime_power(q) == expected


@pytest.mark.parametrize("q", SMALL)
def test_small_fields_satisfy_every_axiom_exhaustively(q):
    F = field(q)
    els = range(q)
    for a, b in itertools.product(els, els):
        assert F.add(a, b) == F.add(b, a)
        assert F.mul(a, b) == F.mul(b, a)
        assert F.sub(F.add(a, b), b) == a
        if b:
            assert F.mul(F.div(a, b), b) == a
    for a, b, c in itertools.product(els, els, els):
        assert F.add(F.add(a, b), c) == F.add(a, F.add(b, c))
        assert F.mul(F.mul(a, b), c) == F.mul(a, F.mul(b, c))
        assert F.mul(a, F.add(b, c)) == F.add(F.mul(a, b), F.mul(a, c))


@pytest.mark.parametrize("q", [25, 27, 49, 64, 81, 125, 243, 256, 343, 1331])
def test_larger_fields_have_a_cyclic_group_and_distribute(q):
    F = field(q)
    assert sorted(F.exp[: q - 1]) == list(range(1, q))  # x generates every non-zero element
    sample = range(0, q, max(1, q // 17))
    for a, b, c in itertools.product(sample, sample, [1, 2, q - 1]):
        assert F.mul(a, F.add(b, c)) == F.add(F.mul(a, b), F.mul(a, c))
        assert F.add(a, F.neg[a]) == 0
        if a:
            assert F.mul(a, F.inv[a]) == 1


def test_same_order_gives_the_same_field():
    assert field(81) is field(81)
    from pnp_model.designs.fields import GF

    assert GF(81).modulus == field(81).modulus


def test_not_a_prime_power_is_refused():
    with pytest.raises(ValueError, match="not a prime power"):
        field(6)


def test_division_by_zero_raises():
    with pytest.raises(ZeroDivisionError):
        field(9).div(3, 0)
