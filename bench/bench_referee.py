"""Benchmark: wall and CPU time of referee commands on a long match, interpreter start included.

The issue's budget is 150 ms per command. Builds a Tripple Domino match by seeded random legal
play, then times each command as a user runs it: a fresh `referee` process. Prints the median
and worst wall time of N runs, the median CPU time of the child (user + system, from
getrusage: on a shared machine wall time also counts waiting for a core), and the median minus
a bare `python -c pass` as the referee's own share; a command is flagged OVER when its CPU
time exceeds the budget. The floor every command pays, `python -c "import click"`, is printed
beside `python -c pass`. The first command after the build runs without any snapshot (cold)
and is shown apart. Commands that change the match are taken back after each run (BEFORE and
AFTER below), so every run finds the match as the first one did. The commands that print the
whole record run after a move; their first run has no record memo yet (their worst time).
`show`, `score` and `log` are timed again after a move, as at a table, where the newest
snapshot is a few moves behind.

`--matches 2000` times `matches` and `standings` on that many small matches instead (budget
0.5 s); `--concurrent [ROUNDS]` starts 7 `check`s and a `play` at once, 30 times, and says
whether all succeeded.

Children run with bytecode caching on (in a temporary PYTHONPYCACHEPREFIX, so the tree stays
clean), as an installed package does, even when PYTHONDONTWRITEBYTECODE is set here.

    python bench/bench_referee.py [--runs 15] [--events 300] [--fast-build]
    python bench/bench_referee.py --events 20000 --fast-build --concurrent
    python bench/bench_referee.py --matches 2000
    python bench/bench_referee.py --events 20000 --fast-build --keep /tmp/m20k.sqlite3 --runs 5
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's referee, not an installed copy

import machine  # noqa: E402

from referee import session  # noqa: E402
from referee.games.tripple_domino import GAME, Place  # noqa: E402
from referee.record import Store  # noqa: E402

COMMANDS = [
    ["show"], ["score"], ["log"], ["check", "draw"], ["play", "draw"], ["undo"],
    ["replay", "--to", "150"], ["position"], ["matches"], ["standings"], ["verify"], ["games"],
    ["--help"],
    ["moves"], ["ask", "where", "0-3-5"], ["show", "--full"],  # the table's helpers (issue 16)
    ["redo"], ["adjust", "ana", "+5", "--reason", "bench"], ["end", "--abandoned"],
    ["rule", "tripple-domino", "D3"], ["use", "1"], ["new", "tripple-domino", "--players", "a,b"],
    ["shell"], ["verify", "--all"], ["verify", "--full"], ["export", "--match", "1"],
    ["log", "--all"], ["log", "--json"], ["log", "--script"], ["score", "--json"],
]
# What runs (untimed) before and after a timed command so that every run finds the match as
# the first one did: a command that changes the match is taken back, one that needs an undo
# gets one.
BEFORE = {"redo": [["undo"]]}
AFTER = {"play": [["undo"]], "undo": [["play", "draw"]], "adjust": [["undo"]], "end": [["undo"]],
         "new": [["use", "1"]]}
# How a table uses the commands that read a match: after each move (the newest snapshot is then
# a few moves behind, and the commands fold those).
AFTER_A_MOVE = [["show"], ["score"], ["log"]]
# The commands that print the whole record are timed as a table uses them, after a move: the
# record memo (referee/record_memo.py) then renders that one event. The move is taken back
# after, and the record printed again untimed (the undo makes the memo render it all once).
for whole in (["log", "--all"], ["log", "--json"], ["log", "--script"], ["export", "--match", "1"]):
    BEFORE[" ".join(whole)] = [["play", "draw"]]
    AFTER[" ".join(whole)] = [["undo"], whole]


def around(table: dict[str, list[list[str]]], args: list[str]) -> list[list[str]]:
    """What runs before (or after) a command: its own entry, else its first word's."""
    return table.get(" ".join(args), table.get(args[0], []))


def build(db: Path, events: int, seed: int = 7) -> int:
    """A match with `events` events from seeded random legal play; returns the event count."""
    rng = random.Random(seed)
    store = Store(db)
    names = ["ana", "bob", "cara"]
    session.new_match(store, "tripple-domino", names, {"target": "100000"})
    pool = sorted(GAME_TILES())
    count = 1
    while count < events:
        text = _next_text(session.load(store).state, names, pool, rng)
        if text is None:
            break
        played = session.play(store, text)
        assert played.event is not None, (text, played.verdict, played.error)
        count = played.event.seq
    store.close()
    return count


def GAME_TILES():  # noqa: N802 - reads like the constant it stands for
    from referee.games.tripple_domino import tiles

    return tiles()


def program(root: Path = ROOT) -> str:
    """A checkout's referee run as the `referee` program is: by that name it may skip what a
    process importing the CLI needs (pnp_shared/program.py), as an installed `referee` does."""
    return (f"import sys; sys.argv[0] = 'referee'; sys.path.insert(0, {str(root)!r}); "
            "from referee.cli import main; main()")


PROGRAM = program()


def command(args: list[str]) -> list[str]:
    return [sys.executable, "-c", PROGRAM, *args]


def environment(folder: Path, db: Path) -> dict[str, str]:
    """What the children run with: database `db`, and the caches' MAC key
    (referee/record/key.py), the card memo's cache folder and the bytecode in `folder`, the
    run's own (other checkouts would rewrite the user's), with bytecode caching on, as an
    installed package has it, even when PYTHONDONTWRITEBYTECODE is set here."""
    env = {**os.environ, "REFEREE_DB": str(db), "REFEREE_KEY": str(folder / "referee.key"),
           "XDG_CACHE_HOME": str(folder / "cache"), "PYTHONPYCACHEPREFIX": str(folder / "pyc")}
    for name in ("PYTHONDONTWRITEBYTECODE", "REFEREE_CACHE"):
        env.pop(name, None)
    return env


def timed(args: list[str], env: dict[str, str]) -> float:
    return timed_cpu(args, env)[0]


def timed_cpu(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child: user + system) of a referee command."""
    return timed_cpu_of(command(args), env)


def timed_cpu_of(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def build_fast(db: Path, events: int, seed: int = 7) -> int:
    """The same kind of match as build(), appended straight to the store with the state kept in
    memory (build() goes through `play` for every move: the path users take, slower to make
    20,000 events). Every move is judged legal by the rules before it is appended."""
    from referee import engine
    from referee.games.tripple_domino import tiles

    rng = random.Random(seed)
    store = Store(db)
    names = ["ana", "bob", "cara"]
    opts = engine.check_options(GAME, {"target": "100000"})
    m = store.create_match("tripple-domino", names, opts)
    state = GAME.setup(tuple(names), opts)
    pool = sorted(tiles())
    count = 1
    with store.transaction():
        while count < events:
            text = _next_text(state, names, pool, rng)
            if text is None:
                break
            who = GAME.to_move(state)
            move = GAME.parse(state, text, who)
            verdict, after = GAME.judge(state, move)
            assert verdict.legal, text
            store.append(m.id, "move", {"text": GAME.format(state, move),
                                        "player": who or GAME.mover(move)})
            state, count = after, count + 1
    store.close()
    return count


def _next_text(state, names, pool, rng) -> str | None:
    if state.phase == "start":
        picks = rng.sample(pool, len(names))
        return "start " + " ".join(f"{p}={'-'.join(map(str, t))}"
                                   for p, t in zip(names, picks, strict=True))
    if state.phase == "end":
        free = [t for t in pool if t not in state.used]
        rng.shuffle(free)
        hands = []
        for k, p in enumerate(names):
            if p == state.out:
                continue
            n = state.hands[k]
            hands.append(f"{p}={','.join('-'.join(map(str, t)) for t in free[:n]) or '-'}")
            free = free[n:]
        return "end " + " ".join(hands)
    if state.phase == "over":
        return None
    moves = GAME.legal_moves(state)
    places = [m for m in moves if isinstance(m, Place) and not m.drawn]
    draws = [m for m in moves if not isinstance(m, Place)]
    drawn = [m for m in moves if isinstance(m, Place) and m.drawn]
    if places and rng.random() < 0.8 and not state.draws:
        move = rng.choice(places)
    elif drawn and rng.random() < 0.5:
        move = rng.choice(drawn)
    else:
        move = rng.choice(draws or moves)
    return GAME.format(state, move)


def build_many(db: Path, matches: int) -> None:
    """`matches` small matches (10 events each, 4 pairings), appended straight to the store."""
    store = Store(db)
    session.new_match(store, "tripple-domino", ["ana", "bob"], {})
    for text in ("start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0", "draw",
                 "draw 4-4-5 U-1,1", "draw", "draw", "draw", "pass"):
        session.play(store, text)
    script = store.events(1)[1:]
    pairs = [("ana", "bob"), ("cy", "dee"), ("ana", "cy"), ("bob", "dee")]
    with store.transaction():
        for i in range(2, matches + 1):
            a, b = pairs[i % 4]
            m = store.create_match("tripple-domino", (a, b), store.match(1).options)
            for e in script:
                data = dict(e.data)
                data["text"] = (data["text"].replace("ana", "\x01").replace("bob", "\x02")
                                .replace("\x01", a).replace("\x02", b))
                if data.get("player"):
                    data["player"] = {"ana": a, "bob": b}[data["player"]]
                store.append(m.id, e.kind, data)
    store.close()


def concurrent(env: dict[str, str], rounds: int, checks: int = 7) -> tuple[bool, str]:
    """`checks` concurrent `check draw` and one `play draw`, started together, `rounds` times
    (the play taken back after each): a race shows only now and then (a torn read was seen in
    about one round of 25 before it was fixed), so one round proves little."""
    failures, walls = [], []
    for _ in range(rounds):
        procs = [subprocess.Popen(command(["check", "draw"]), env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(checks)]
        procs.append(subprocess.Popen(command(["play", "draw"]), env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
        start = time.perf_counter()
        results = [(p.wait(), p.stdout.read(), p.stderr.read()) for p in procs]
        walls.append(time.perf_counter() - start)
        if not results[-1][1].startswith("ok (event"):
            failures.append(f"the play: {results[-1][2].strip()}")
        failures += [err.strip() for code, _, err in results[:-1] if code != 0]
        timed(["undo"], env)
    what = (f"{rounds} rounds, median {statistics.median(walls):.2f} s for all {checks + 1}"
            + (f"; {len(failures)} failures, first: {failures[0]}" if failures else ""))
    return not failures, what


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--fast-build", action="store_true",
                    help="Append the match's moves straight to the store (for 20,000 events).")
    ap.add_argument("--matches", type=int, default=0,
                    help="Time matches/standings on this many small matches instead.")
    ap.add_argument("--concurrent", type=int, nargs="?", const=30, default=0, metavar="ROUNDS",
                    help="Also run 7 checks and a play at once, ROUNDS times (30).")
    ap.add_argument("--keep", type=Path, metavar="FILE",
                    help="Build the database into FILE once and reuse it in later runs (each "
                         "run times a copy of it, so every run starts from the same database).")
    ap.add_argument("--only", nargs="+", metavar="COMMAND",
                    help="Time only these commands (first words, e.g. show log).")
    opts = ap.parse_args()
    print(machine.line("before"))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        env = environment(Path(tmp), db)
        os.environ["REFEREE_KEY"] = env["REFEREE_KEY"]  # the builds here, in this process
        started = time.perf_counter()
        made = opts.keep if opts.keep is not None else db
        if opts.keep is not None and opts.keep.exists():
            what = "database kept in"
        elif opts.matches:
            build_many(made, opts.matches)
            what = f"{opts.matches} matches built in {time.perf_counter() - started:.0f} s:"
        else:
            n = (build_fast if opts.fast_build else build)(made, opts.events)
            what = f"match of {n} events built in {time.perf_counter() - started:.0f} s:"
        if made != db:
            shutil.copyfile(made, db)
        print(what, made)
        if opts.matches:
            commands, budget = [["matches"], ["standings"]], 0.5
        else:
            commands, budget = COMMANDS, 0.150
        if opts.only:
            commands = [c for c in commands if c[0] in opts.only or " ".join(c) in opts.only]
        timed(["--help"], env)  # bytecode for the children
        wall, cpu = timed_cpu(commands[0], env)
        print(f"cold (no snapshot or summary yet): {' '.join(commands[0])} {wall * 1000:.0f} ms "
              f"wall, {cpu * 1000:.0f} ms CPU")
        base = floor("pass", env, opts.runs)
        floor("import click", env, opts.runs)
        print(f"{'command':<22} {'median':>8} {'worst':>8} {'CPU':>7} {'own':>7}   "
              f"(budget {budget * 1000:.0f} ms)")
        for args in commands:
            row(" ".join(args), args, around(BEFORE, args), around(AFTER, args), env, opts.runs,
                base, budget)
        for args in [] if opts.matches else AFTER_A_MOVE:
            if not opts.only or args[0] in opts.only:
                row(f"{args[0]}, after a move", args, [["play", "draw"]], [["undo"]], env,
                    opts.runs, base, budget)
        if opts.concurrent:
            ok, what = concurrent(env, opts.concurrent)
            print(f"7 concurrent checks and a play: {'all succeeded' if ok else 'FAILED'} "
                  f"({what})")
        print(machine.line("after"))


def row(label: str, args: list[str], befores: list[list[str]], afters: list[list[str]],
        env: dict[str, str], runs: int, base: float, budget: float) -> None:
    """Time a command `runs` times, each run between its untimed befores and afters; print
    its line."""
    times, cpus = [], []
    for _ in range(runs):
        for before in befores:
            timed(before, env)
        wall, cpu = timed_cpu(args, env)
        times.append(wall)
        cpus.append(cpu)
        for after in afters:
            timed(after, env)
    med, worst, c = statistics.median(times), max(times), statistics.median(cpus)
    flag = "" if c < budget else "  OVER"
    print(f"{label:<34} {med * 1000:>6.0f}ms {worst * 1000:>6.0f}ms "
          f"{c * 1000:>5.0f}ms {(med - base) * 1000:>5.0f}ms{flag}")


def floor(code: str, env: dict[str, str], runs: int) -> float:
    """Print the median wall and CPU time of `python -c CODE` (what every command pays before
    its own work: the interpreter, and click's imports); return the median wall time."""
    walls, cpus = zip(*(timed_cpu_of([sys.executable, "-c", code], env) for _ in range(runs)),
                      strict=True)
    med = statistics.median(walls)
    print(f"bare `python -c {code!r}`: {med * 1000:.0f} ms wall, "
          f"{statistics.median(cpus) * 1000:.0f} ms CPU")
    return med


if __name__ == "__main__":
    main()
