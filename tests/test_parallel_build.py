"""A big icon deck's layouts and icon outlines are computed on every core: same PDF bytes."""

import multiprocessing
import os

import pytest

from generator import parallel
from generator.build import build
from generator.layout import packing
from generator.render import glyph_circles
from pnp_model.definition import load

pytestmark = pytest.mark.skipif(parallel.cores() < 2 or not hasattr(os, "fork"),
                                reason="needs fork and two cores")


@pytest.fixture(autouse=True)
def idle_machine(monkeypatch):
    """Fork as on an idle machine, whatever else runs on this one."""
    monkeypatch.setattr(parallel, "busy", lambda: False)


def big_deck(tmp_path):
    """Order 17: 307 cards of 18 icons, 307 icons (both parts that fork: > 16 icons a card,
    > 200 icons)."""
    root = tmp_path / "big"
    root.mkdir()
    (root / "game.toml").write_text('[deck]\nsource = "plane"\nshape = "circle"\n'
                                    'size = "95x95mm"\noptions = { order = 17 }\n'
                                    '[[face]]\ntype = "symbols"\n')
    return load(str(root))


def fresh_build(deck, out):
    packing._pool.cache_clear()
    glyph_circles._GLYPH_CIRCLES.clear()
    build(deck, out)
    return out.read_bytes()


def test_a_big_icon_deck_is_the_same_bytes_forked_or_not(tmp_path, monkeypatch):
    deck = big_deck(tmp_path)
    forks = []
    real = os.fork

    def counting():
        pid = real()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counting)
    # the machine's load decides whether a build forks (parallel.busy); this test asks for the
    # forked build whatever else the test run keeps busy, so that its bytes can be compared
    monkeypatch.setattr(parallel, "busy", lambda: False)
    forked = fresh_build(deck, tmp_path / "forked.pdf")
    assert len(forks) == 2 * (parallel.cores() - 1)  # the base layouts, the icons' circles
    # one process, each icon's circle found when its form is drawn
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    monkeypatch.setattr(glyph_circles, "MANY_ICONS", 10**9)
    alone = fresh_build(deck, tmp_path / "alone.pdf")
    assert len(forks) == 2 * (parallel.cores() - 1)
    assert forked == alone


def failing(x):
    if x == 3:
        raise ValueError("three")
    return x


def test_an_error_in_a_child_is_raised_in_the_parent():
    with pytest.raises(ValueError, match="three"):
        parallel.fork_map(failing, [0, 1, 2, 3])
    assert parallel.fork_map(failing, [0, 1, 2]) == [0, 1, 2]


def dies(x):
    if x == 1 and os.getpid() != PARENT:
        os._exit(9)  # a child killed halfway
    return x * 10


PARENT = os.getpid()


def test_the_share_of_a_child_that_died_is_done_by_the_parent():
    assert parallel.fork_map(dies, [0, 1, 2, 3]) == [0, 10, 20, 30]


def double(x):
    return 2 * x


def _in_a_daemon(queue):
    try:
        queue.put(parallel.fork_map(double, [1, 2, 3]))
    except Exception as e:  # noqa: BLE001  (reported to the test, which fails on it)
        queue.put(repr(e))


def test_work_inside_a_daemonic_worker_runs_there_instead_of_failing():
    # `pnp build --all` builds each game in a daemonic pool worker, which may not fork again
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    worker = ctx.Process(target=_in_a_daemon, args=(queue,), daemon=True)
    worker.start()
    assert queue.get(timeout=30) == [2, 4, 6]
    worker.join()
