"""--plot: histograms of scores and game length and the win rate per seat, as one PNG; with
--against, the differences the change made and the cards it moved.

matplotlib is an optional extra (`pip install 'pnp-toolkit[plot]'`): the referee never needs
it to judge a move, so it is imported only here, and only when a plot is asked for.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from referee.engine import RefereeError


def require() -> None:
    """Fail early, as one line, when the plot extra is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise RefereeError("--plot needs matplotlib: pip install 'pnp-toolkit[plot]'",
                           "--plot") from None


def write(records, summary: dict[str, Any], path: Path) -> None:
    """Three panels: every seat's final score, game length in turns, win rate per seat with
    its 95 % interval and the even-game line. Written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    scores = [s for r in records for s in r.scores]
    axes[0].hist(scores, bins=30, color="#1f77b4")
    axes[0].set(title="final scores (every seat)", xlabel="points", ylabel="players")
    axes[1].hist([r.turns for r in records], bins=30, color="#ff7f0e")
    axes[1].set(title="game length", xlabel="turns", ylabel="games")
    seats = summary["seats"]
    xs = [s["seat"] for s in seats]
    rates = [100 * s["rate"] for s in seats]
    err = [[max(0.0, 100 * (s["rate"] - s["ci95"][0])) for s in seats],  # 1.0 - 0.99999...
           [max(0.0, 100 * (s["ci95"][1] - s["rate"])) for s in seats]]
    axes[2].bar(xs, rates, yerr=err, capsize=6, color="#2ca02c")
    axes[2].axhline(100 * summary["first_seat"]["fair"], color="black", linestyle="--",
                    linewidth=1, label="even game")
    axes[2].set(title="win rate per seat (95% CI)", xlabel="seat", ylabel="% of games",
                xticks=xs, ylim=(0, 100))
    axes[2].legend()
    fig.suptitle(f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
                 f"{summary['bot']} bot")
    _save(fig, path)


def write_change(result: dict[str, Any], cards: list[dict[str, Any]], title: str,
                 path: Path, top: int = 8) -> None:
    """`--against --plot`: what the change did, at a glance. Left, each seat's difference
    (new - old) in wins and in score with its 95 % interval against the zero line; right, the
    new deck's cards furthest from the rest either way, outliers in red. Written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["differences"]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, figure, unit in ((axes[0], "wins", "percentage points"),
                             (axes[1], "score", "points")):
        mine = [r for r in rows if r["figure"] == figure]
        _bars(ax, [f"seat {r['seat']}" for r in mine], [r["mean"] for r in mine],
              [r["ci95"] for r in mine], [r["significant"] for r in mine])
        ax.set(title=f"{figure}: new - old (95% CI)", ylabel=unit)
    shown = sorted(cards, key=lambda r: -abs(r["difference"]))[:top]
    shown.sort(key=lambda r: -r["difference"])
    _bars(axes[2], [r["card"] for r in shown], [100 * r["difference"] for r in shown],
          [[100 * x for x in r["difference_ci95"]] for r in shown],
          [r["outlier"] for r in shown])
    axes[2].set(title="cards: win rate played - not (95% CI)", ylabel="percentage points")
    axes[2].tick_params(axis="x", labelrotation=45)
    fig.suptitle(f"{title}: {result['games']} games each, the same seeds (red: beyond noise)")
    _save(fig, path)


def _bars(ax, labels, means, spans, marked) -> None:
    """Bars with their intervals; the ones beyond noise in red."""
    xs = range(len(labels))
    err = [[max(0.0, m - lo) for m, (lo, _) in zip(means, spans, strict=True)],
           [max(0.0, hi - m) for m, (_, hi) in zip(means, spans, strict=True)]]
    ax.bar(xs, means, yerr=err, capsize=5,
           color=["#d62728" if m else "#7f7f7f" for m in marked])
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xticks(list(xs), labels)


def _save(fig, path: Path) -> None:
    """The figure as a PNG, written atomically (a temp file, then os.replace)."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.png")
    try:
        fig.savefig(tmp, dpi=80)
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise RefereeError(f"cannot write {path}: {e.strerror or e}", "--plot") from None
    finally:
        plt.close(fig)
