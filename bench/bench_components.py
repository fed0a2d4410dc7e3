"""Why the referee keeps its cards memo (referee/components.py): what a command would pay without it.

Every referee command folds its match, so it needs each game's cards. Read through the model,
that is importing pnp_model.definition and loading the template; read from the memo, it is
one small JSON file. Each figure is the CPU time of a fresh process (median of --runs), so
the import is paid as a real command pays it.

    python bench/bench_components.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import machine

GAMES = {"tripple-domino": ("a", "b", "c"), "coda": ("color", "number"),
         "dobble-connect": ("color", "symbols"), "duplicon": ("type",), "decktet": ("name",)}

PROBE = """
import resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
start = cpu()
{body}
print((cpu() - start) * 1000)
"""

THROUGH_MODEL = "from pnp_model.definition import load\nload({game!r})"
THROUGH_MEMO = "from referee.components import cards\ncards({game!r}, {fields!r})"


def cpu_ms(body: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, "-c", PROBE.format(body=body)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(machine.line("before"))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "REFEREE_CACHE": cache}
        print(f"{'game':<16}{'model (ms CPU)':>16}{'memo (ms CPU)':>16}")
        for game, fields in GAMES.items():
            cpu_ms(THROUGH_MEMO.format(game=game, fields=fields), env)  # writes the memo
            model = [cpu_ms(THROUGH_MODEL.format(game=game), env) for _ in range(args.runs)]
            memo = [cpu_ms(THROUGH_MEMO.format(game=game, fields=fields), env)
                    for _ in range(args.runs)]
            print(f"{game:<16}{statistics.median(model):>16.1f}{statistics.median(memo):>16.1f}")
    print(machine.line("after"))


if __name__ == "__main__":
    main()
