"""A big icon deck's layouts and icon outlines are computed on every core: same PDF bytes."""

import multiprocessing

import pytest

from generator import parallel
from generator.build import build
from generator.definition import load
from generator.layout import packing
from generator.render import glyph_circles

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two cores")


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
    real = multiprocessing.get_context

    def counting(method=None):
        forks.append(method)
        return real(method)

    monkeypatch.setattr(parallel.multiprocessing, "get_context", counting)
    forked = fresh_build(deck, tmp_path / "forked.pdf")
    assert forks == ["fork", "fork"]  # the base layouts, then the icons' circles
    # one process, each icon's circle found when its form is drawn
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    monkeypatch.setattr(glyph_circles, "MANY_ICONS", 10**9)
    alone = fresh_build(deck, tmp_path / "alone.pdf")
    assert len(forks) == 2
    assert forked == alone


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
