"""A deck of the user's art cleaned and laid out on two cores: same results, errors as before."""

import os
import sys
from pathlib import Path

import pytest

from generator import parallel
from generator.build import build
from generator.render import symbol_prep
from pnp_model.definition import load

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this OS")


def square_or_fail(x):
    if x == 3:
        raise ValueError("three")
    return x * x, os.getpid()


@pytest.fixture
def two_cores(monkeypatch):
    """generator.parallel as on a quiet 2-core machine, whatever this one is doing."""
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "can_fork", lambda: True)


def slow_square_or_fail(x):
    import time

    time.sleep(0.05)
    return square_or_fail(x)


@needs_fork
def test_split_shares_the_items_with_a_helper_process_in_order(two_cores):
    got = symbol_prep.split(slow_square_or_fail, list(range(6)))
    assert [g and g[0] for g in got] == [0, 1, 4, None, 16, 25]  # 3 raised: left to the caller
    me = os.getpid()
    helper = {g[1] for g in got if g} - {me}
    assert len(helper) == 1  # the helper took some items, this process the others


PARENT = os.getpid()


def slow_in_a_helper(x):
    """A helper process the machine runs 30 times slower than this one."""
    import time

    time.sleep(0.3 if os.getpid() != PARENT else 0.01)
    return os.getpid()


@needs_fork
def test_a_slowed_helper_takes_fewer_items_instead_of_holding_up_the_build(two_cores):
    """A fixed half each would leave this process waiting 4 x 0.3 s for the helper."""
    got = symbol_prep.split(slow_in_a_helper, list(range(8)))
    assert sum(pid != PARENT for pid in got) <= 2


def test_without_a_spare_core_everything_is_done_here(monkeypatch):
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    got = symbol_prep.split(square_or_fail, list(range(4)))
    assert [g and g[1] for g in got] == [os.getpid()] * 3 + [None]


@needs_fork
def test_the_pdf_is_the_same_whether_a_helper_process_does_half(tmp_path, monkeypatch,
                                                                 two_cores):
    root = art_deck.make_deck(tmp_path / "deck", order=3)
    forks = []
    real_fork = os.fork

    def counted_fork():
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(os, "fork", counted_fork)
    build(load(root), tmp_path / "two.pdf")
    assert len(forks) == 2  # the art, then the layouts
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    monkeypatch.setenv("PNP_CACHE", str(tmp_path / "fresh"))  # computed again, not remembered
    build(load(root), tmp_path / "one.pdf")
    assert len(forks) == 2
    assert (tmp_path / "two.pdf").read_bytes() == (tmp_path / "one.pdf").read_bytes()


def test_a_helper_sends_back_the_encoded_streams_not_the_pixels(tmp_path, monkeypatch):
    """What a helper process computes crosses a pipe pickled: the encoded streams (deflated)
    and the outline are what drawing uses, so the cleaned pixels stay behind. They were 95 %
    of the bytes, ~60 kB a symbol, pickled and unpickled on the build's critical path."""
    import pickle

    monkeypatch.setattr(parallel, "can_fork", lambda: False)  # the results a helper would send
    root = art_deck.make_deck(tmp_path / "deck", order=3)
    paths = sorted((root / "art").iterdir())
    sent = symbol_prep._clean_all(paths, keep=False)
    assert all(enc is not None for _, enc in sent)
    assert len(pickle.dumps(sent)) < 8_000 * len(paths)


def test_a_damaged_symbol_is_still_one_error_line_naming_it(tmp_path):
    import subprocess

    root = art_deck.make_deck(tmp_path / "deck", order=2)
    (root / "art" / "symbol004.png").write_bytes(b"not a png")
    r = subprocess.run([sys.executable, "-m", "generator", "build", str(root), "-o",
                        str(tmp_path / "out.pdf")], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("error:") == 1 and "symbol004.png" in r.stderr
    assert not (tmp_path / "out.pdf").exists()
