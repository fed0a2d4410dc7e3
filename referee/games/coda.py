"""Coda (Da Vinci Code): rules.md §3.

The referee holds public information only: the colour of every tile in every row (backs show
it), the tiles revealed so far, each guess with its announced answer, and the draws by colour.
From those it checks C1–C4 and decides consistency disputes: which tiles a hidden tile can
still be (order rule + everything revealed + earlier answers), and whether an answer is
possible at all. Nothing secret is stored, so `show --as` has nothing to hide.

Sealed game (optional): a player types their tiles privately (`referee play "seal ana"
--secret`); the log keeps one salted hash per tile. The passphrase given at the end (`unseal`)
lets the referee recover the sealed tiles and report every false answer given during the round.

Tiles are numbers 2n + colour (see _coda_deduce), so the order rule is integer order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from referee.engine import (
    IllegalMove,
    InvalidMove,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    Sample,
    ScoreItem,
    Violation,
    find_player,
    totals,
)
from referee.games import _coda_deduce as deduce
from referee.games._coda_model import (
    COLOUR_WORDS,
    COLOURS,
    DASH_WORDS,
    POSITION,
    Asked,
    Deal,
    Draw,
    Expose,
    Guess,
    Place,
    Seal,
    Slot,
    State,
    Stop,
    Tally,
    Unseal,
    colour_of,
    seal_hash,
    tile_name,
    tile_of,
    tile_set,
    tile_short,
    value_word,
)

RULES = {
    r.id: r
    for r in (
        RuleRef("C1", "every row obeys the order rule: ascending left to right, black left of "
                      "white on equal numbers (dashes stay where placed)"),
        RuleRef("C2", "only hidden tiles of opponents still in the game can be targeted"),
        RuleRef("C3", "a player whose tiles are all revealed is out: no drawing, no guessing"),
        RuleRef("C4", "\"dash\" may be named only in the advanced game"),
        RuleRef("C-setup", "each player takes 4 tiles (3 with four players) and stands them in "
                           "a row; the youngest (listed first) starts, play passes left"),
        RuleRef("C-turn", "a turn: draw a tile (unless the pool is empty), then guess at least "
                          "once; after a hit guess again or stop (the drawn tile goes hidden "
                          "into its place); after a miss the drawn tile goes revealed into its "
                          "place (pool empty: reveal one of your own hidden tiles)"),
        RuleRef("C-pool", "26 tiles: black 0-11, white 0-11 and a dash of each colour (dashes "
                          "only in the advanced game); every tile exists once"),
        RuleRef("C-end", "the last player with a hidden tile wins the round; the winner "
                         "reveals their hidden tiles to score them"),
        RuleRef("C-seal", "a sealed tile is committed by a salted hash; the owner's passphrase "
                          "opens it at the end and every answer is checked against it"),
    )
}

def _v(rule: str, reason: str) -> Violation:
    return Violation(RULES[rule], reason)


class Coda(Rules):
    name = "coda"
    title = "Coda"
    min_players = 2
    max_players = 4
    options = (
        Option("game", "basic", "basic (no dashes) or advanced (two dashes, 'dash' guesses)",
               ("basic", "advanced")),
        Option("rounds", "1", "1 for a single game, 3 for the tournament scoring", ("1", "3")),
        Option("sealed", "no", "yes: every hidden tile must be sealed (salted hash) when it "
               "enters a row, checked against the answers at the end", ("no", "yes")),
    )
    rules = RULES
    notation = ("row ana black white white black; draw white; guess ben 2 7 hit|miss; "
                "stop at 3; place 9 at 3; reveal 2 9; tally 3 7 11; seal ana (--secret); "
                "unseal ana PASSPHRASE")
    sample = Sample(("ana", "ben", "cy"), (
        "row ana black black white white", "row ben black white black white",
        "row cy white black white black", "draw black", "guess ben 1 0 hit", "guess cy 2 5 hit",
        "guess cy 3 5 hit", "guess ben 2 3 miss", "place 4 at 3", "draw white"))

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        game = options.get("game", "basic")
        rounds = options.get("rounds", "1")
        sealed = options.get("sealed", "no")
        if game not in ("basic", "advanced") or rounds not in ("1", "3") or sealed not in (
                "no", "yes"):
            raise RefereeError("coda options: game=basic|advanced, rounds=1|3, sealed=no|yes")
        state = State(tuple(players), game == "advanced", int(rounds), sealed == "yes")
        return self._new_round(state, 1)

    def _new_round(self, state: State, round_no: int) -> State:
        n = len(state.players)
        tiles = [t for t in tile_set() if state.advanced or not deduce.is_dash(t)]
        pool = (sum(colour_of(t) == 0 for t in tiles), sum(colour_of(t) == 1 for t in tiles))
        return replace(state, round=round_no, phase="deal", rows=((),) * n,
                       dealt=(False,) * n, pool=pool, current=0, drawn=None, hits=0,
                       next_id=1, asked=(), winner=None, opened=())

    # parsing

    def parse(self, state: State, text: str, player: str | None = None):
        words = text.replace(",", " ").replace("=", " ").replace("?", " ").split()
        if not words:
            raise InvalidMove("empty move")
        verb, args = words[0].lower(), words[1:]
        args = [a for a in args if a.lower() not in ("at", "as", "is")]
        if verb == "row":
            who = self._player(state, args[:1])
            colours = tuple(self._colour(w) for w in args[1:])
            if not colours:
                raise InvalidMove("expected the colours of the row left to right: "
                                  "row ana black white white black")
            return Deal(who, colours)
        if verb == "draw":
            if len(args) != 1:
                raise InvalidMove("expected the colour of the drawn tile: draw black")
            return Draw(self._colour(args[0]), player)
        if verb == "guess":
            if len(args) != 4 or args[3].lower() not in ("hit", "miss") or not POSITION.match(args[1]):
                raise InvalidMove("expected target, position, number and the answer: "
                                  "guess ben 2 7 hit (or miss)")
            return Guess(self._player(state, args[:1]), int(args[1]), self._value(args[2]),
                         args[3].lower() == "hit", player)
        if verb == "stop":
            if not args:
                return Stop(None, "", player)
            if not POSITION.match(args[0]) or len(args) > 3 or (len(args) > 1 and (
                    args[1].lower() != "sealed" or len(args) != 3)):
                raise InvalidMove("expected where the drawn tile goes: stop at 3")
            return Stop(int(args[0]), args[2] if len(args) == 3 else "", player)
        if verb == "place":
            if len(args) != 2 or not POSITION.match(args[1]):
                raise InvalidMove("expected the drawn tile's number and where it goes: "
                                  "place 9 at 3")
            return Place(self._value(args[0]), int(args[1]), player)
        if verb == "reveal":
            if len(args) != 2 or not POSITION.match(args[0]):
                raise InvalidMove("expected which of your tiles and its number: reveal 2 9")
            return Expose(int(args[0]), self._value(args[1]), player)
        if verb == "tally":
            if not args:
                raise InvalidMove("expected your hidden tiles left to right: tally 3 7 11")
            return Tally(tuple(self._value(a) for a in args), player)
        if verb == "seal":
            who = self._player(state, args[:1])
            if not args[1:]:
                raise InvalidMove(f"seal your tiles privately: referee play 'seal {who}' "
                                  "--secret")
            return Seal(who, tuple(a.lower() for a in args[1:]))
        if verb == "unseal":
            if len(args) != 2:
                raise InvalidMove("expected the player and their passphrase: unseal ana WORD")
            return Unseal(self._player(state, args[:1]), args[1])
        raise InvalidMove(f"cannot read {text!r}: expected row, draw, guess, stop, place, "
                          "reveal, tally, seal or unseal (e.g. guess ben 2 7 miss)")

    def _player(self, state: State, words: Sequence[str]) -> str:
        if not words:
            raise InvalidMove(f"expected a player ({', '.join(state.players)}), not nothing")
        return find_player(state.players, words[0])

    def _colour(self, word: str) -> int:
        c = COLOUR_WORDS.get(word.lower())
        if c is None:
            why = (": a dash is a black or a white tile, type the colour its back shows"
                   if word.lower() in DASH_WORDS else "")
            raise InvalidMove(f"expected a colour, black or white (b/w), not {word!r}{why}")
        return c

    def _value(self, word: str) -> str:
        w = word.lower()
        if w in DASH_WORDS:
            return "dash"
        if w.isdigit() and 0 <= int(w) <= 11:
            return str(int(w))
        raise InvalidMove(f"expected a number 0-11 or 'dash', not {word!r}")

    def format(self, state: State, move) -> str:
        match move:
            case Deal():
                return f"row {move.player} " + " ".join(COLOURS[c] for c in move.colours)
            case Draw():
                return f"draw {COLOURS[move.colour]}"
            case Guess():
                answer = "hit" if move.hit else "miss"
                return f"guess {move.target} {move.position} {move.value} {answer}"
            case Stop():
                if move.position is None:
                    return "stop"
                return f"stop at {move.position}" + (f" sealed {move.seal}" if move.seal else "")
            case Place():
                return f"place {move.value} at {move.position}"
            case Expose():
                return f"reveal {move.position} {move.value}"
            case Tally():
                return "tally " + " ".join(move.values)
            case Seal():
                return f"seal {move.player} " + " ".join(move.hashes)
            case Unseal():
                return f"unseal {move.player} {move.passphrase}"
        raise TypeError(move)

    # checking

    def violations(self, state: State, move) -> list[Violation]:
        if state.phase == "over" and not isinstance(move, Unseal):
            return [_v("C-end", "the game is over (only `unseal` is still possible)")]
        if isinstance(move, Deal):
            return self._deal_problems(state, move)
        if isinstance(move, Seal):
            return self._seal_problems(state, move)
        if isinstance(move, Unseal):
            return self._unseal_problems(state, move)
        if state.phase in ("deal", "closed"):
            missing = [p for p, d in zip(state.players, state.dealt, strict=True) if not d]
            if state.phase == "closed":
                return [_v("C-setup", f"round {state.round} is over: deal round "
                                      f"{state.round + 1} first (row <player> <colours>)")]
            if missing:
                return [_v("C-setup", f"the rows come first: {', '.join(missing)} to deal")]
            unsealed = [p for p in state.players if any(not s.seal for s in state.row(p))]
            return [_v("C-seal", f"sealed game: {', '.join(unsealed)} must seal their tiles "
                                 "first (referee play 'seal NAME' --secret)")]
        if state.phase == "tally" or isinstance(move, Tally):
            if state.phase != "tally":
                return [_v("C-turn", "the round is not over: only its winner tallies")]
            if not isinstance(move, Tally):
                return [_v("C-end", f"{state.winner} won the round: {state.winner} reveals "
                                    "the hidden tiles (tally N N ...)")]
            return self._tally_problems(state, move)
        return self._turn_problems(state, move)

    def _deal_problems(self, state: State, move: Deal) -> list[Violation]:
        if state.phase not in ("deal", "closed"):
            return [_v("C-setup", "the rows are already dealt")]
        i = state.players.index(move.player)
        if state.phase == "deal" and state.dealt[i]:
            return [_v("C-setup", f"{move.player}'s row is already on the table")]
        out = []
        want = 3 if len(state.players) == 4 else 4
        if len(move.colours) != want:
            out.append(_v("C-setup", f"with {len(state.players)} players each takes {want} "
                                     f"tiles, not {len(move.colours)}"))
        pool = self._new_round(state, state.round).pool if state.phase == "closed" else state.pool
        for c in (0, 1):
            n = move.colours.count(c)
            if n > pool[c]:
                out.append(_v("C-pool", f"the pool has {pool[c]} {COLOURS[c]} tile(s) left, "
                                        f"not {n}"))
        return out

    def _turn_problems(self, state: State, move) -> list[Violation]:
        me = state.to_play
        if move.player is not None and move.player != me:
            if move.player in state.players and state.hidden(move.player) == 0:
                return [_v("C3", f"{move.player} is out (every tile revealed)")]
            return [_v("C-turn", f"it is {me}'s turn, not {move.player}'s")]
        phase = state.phase
        expect = {
            "draw": "draw a tile first (draw black|white)",
            "guess": "guess (guess NAME POSITION NUMBER hit|miss)"
                     + (" or stop" if state.hits else ""),
            "stop": "stop: the round is won, put the drawn tile in its place (stop at N)",
            "place": "put the drawn tile revealed into its place (place NUMBER at N)",
            "expose": "the pool is empty: reveal one of your hidden tiles (reveal POSITION NUMBER)",
            "tally": f"{state.winner} reveals their hidden tiles (tally N N ...)",
        }[phase]
        allowed = {"draw": Draw, "guess": (Guess, Stop), "stop": Stop, "place": Place,
                   "expose": Expose, "tally": Tally}[phase]
        if not isinstance(move, allowed) or (phase == "guess" and isinstance(move, Stop)
                                             and not state.hits):
            return [_v("C-turn", f"{me} must now {expect}")]
        if isinstance(move, Draw):
            c = move.colour
            if state.pool[c] == 0:
                return [_v("C-pool", f"no {COLOURS[c]} tile is left in the pool "
                                     f"({state.pool[1 - c]} {COLOURS[1 - c]})")]
            return []
        if isinstance(move, Guess):
            return self._guess_problems(state, move)
        if isinstance(move, Stop):
            return self._stop_problems(state, move)
        if isinstance(move, Place):
            return self._place_problems(state, move)
        return self._expose_problems(state, move)

    def _named(self, state: State, colour: int, value: str, out: list[Violation]) -> int:
        if value == "dash" and not state.advanced:
            out.append(_v("C4", "this is the basic game: there are no dashes"))
        return tile_of(colour, value)

    def _guess_problems(self, state: State, move: Guess) -> list[Violation]:
        me, out = state.to_play, []
        row = state.row(move.target)
        if move.target == me:
            return [_v("C2", "a player guesses an opponent's tile, not their own")]
        if state.hidden(move.target) == 0:
            return [_v("C2", f"{move.target} is out: every tile is revealed")]
        if not 1 <= move.position <= len(row):
            return [_v("C2", f"{move.target} has tiles 1-{len(row)}, no tile {move.position}")]
        slot = row[move.position - 1]
        if slot.tile is not None:
            return [_v("C2", f"{move.target}'s tile {move.position} is already revealed "
                             f"({tile_name(slot.tile)})")]
        tile = self._named(state, slot.colour, move.value, out)
        if out:
            return out
        where = f"{move.target}'s tile {move.position} ({COLOURS[slot.colour]})"
        if move.hit and not self._can_be(state, slot.id, {tile}, answers=True) and not (
                self._can_be(state, slot.id, {tile}, answers=False)):
            can = self._can_text(state, slot.id)
            out.append(_v("C1", f"a hit is impossible: {where} cannot be {tile_name(tile)} "
                                f"given the revealed tiles ({can})"))
        if not move.hit:
            # judged with the earlier answers, unless those already contradict each other
            answers = self._fits(state, answers=True)
            others = self._domain(state, slot, answers) - {tile}
            if not self._can_be(state, slot.id, others, answers=answers):
                basis = "the order rule, the revealed tiles" + (" and earlier answers"
                                                                if answers else "")
                out.append(_v("C1", f"a miss is impossible: {where} can only be "
                                    f"{tile_name(tile)} given {basis}"))
        return out

    def _stop_problems(self, state: State, move: Stop) -> list[Violation]:
        me = state.to_play
        if state.drawn is None:
            if move.position is not None:
                return [_v("C-turn", "no tile was drawn (the pool is empty): just `stop`")]
            return []
        if move.position is None:
            return [_v("C-turn", f"where does {me}'s drawn {COLOURS[state.drawn]} tile go? "
                                 "stop at N")]
        if state.sealed and not move.seal:
            return [_v("C-seal", "sealed game: place the drawn tile with its seal: "
                                 f"referee play 'stop at {move.position}' --secret")]
        return self._insert_problems(state, move.position, None)

    def _place_problems(self, state: State, move: Place) -> list[Violation]:
        out: list[Violation] = []
        tile = self._named(state, state.drawn, move.value, out)
        if out:
            return out
        for p in state.players:
            for i, s in enumerate(state.row(p), start=1):
                if s.tile == tile:
                    return [_v("C-pool", f"{tile_name(tile)} is already revealed "
                                         f"({p}'s tile {i})")]
        return self._insert_problems(state, move.position, tile)

    def _insert_problems(self, state: State, position: int, tile: int | None) -> list[Violation]:
        me = state.to_play
        row = state.row(me)
        if not 1 <= position <= len(row) + 1:
            return [_v("C1", f"{me}'s row has {len(row)} tiles: the new one goes at 1-"
                             f"{len(row) + 1}, not {position}")]
        trial = self._inserted(state, position, tile)
        if not self._fits(trial, answers=False):
            what = tile_name(tile) if tile is not None else f"a hidden {COLOURS[state.drawn]} tile"
            return [_v("C1", f"{what} cannot stand at {position} in {me}'s row: "
                             f"{self._neighbours(trial.row(me), position)}")]
        return []

    def _neighbours(self, row: Sequence[Slot], position: int) -> str:
        left = [s.tile for s in row[: position - 1] if s.tile is not None
                and not deduce.is_dash(s.tile)]
        right = [s.tile for s in row[position:] if s.tile is not None
                 and not deduce.is_dash(s.tile)]
        parts = []
        if left:
            parts.append(f"{tile_name(left[-1])} stands to its left")
        if right:
            parts.append(f"{tile_name(right[0])} to its right")
        return " and ".join(parts) or "no arrangement of the hidden tiles fits the order rule"

    def _expose_problems(self, state: State, move: Expose) -> list[Violation]:
        me, out = state.to_play, []
        row = state.row(me)
        if not 1 <= move.position <= len(row) or row[move.position - 1].tile is not None:
            hidden = [str(i) for i, s in enumerate(row, start=1) if s.tile is None]
            return [_v("C-turn", f"{me} reveals one of their own hidden tiles "
                                 f"({', '.join(hidden)}), not {move.position}")]
        slot = row[move.position - 1]
        tile = self._named(state, slot.colour, move.value, out)
        if not out and not self._can_be(state, slot.id, {tile}, answers=False):
            out.append(_v("C1", f"{me}'s tile {move.position} cannot be {tile_name(tile)}: "
                                f"{self._can_text(state, slot.id)}"))
        return out

    def _tally_problems(self, state: State, move: Tally) -> list[Violation]:
        if move.player is not None and move.player != state.winner:
            return [_v("C-end", f"{state.winner} won the round and tallies, not {move.player}")]
        row = state.row(state.winner)
        hidden = [s for s in row if s.tile is None]
        if len(move.values) != len(hidden):
            return [_v("C-end", f"{state.winner} has {len(hidden)} hidden tile(s) to reveal, "
                                f"not {len(move.values)}")]
        out: list[Violation] = []
        fixed = {s.id: self._named(state, s.colour, v, out) for s, v in zip(hidden, move.values,
                                                                            strict=True)}
        if out:
            return out
        if not self._fits(state, answers=False, fixed=fixed):
            shown = " ".join(tile_short(t) for t in fixed.values())
            out.append(_v("C1", f"{state.winner}'s hidden tiles cannot be {shown}: that breaks "
                                "the order rule or repeats a revealed tile"))
        return out

    def _seal_problems(self, state: State, move: Seal) -> list[Violation]:
        hidden = [s for s in state.row(move.player) if s.tile is None]
        if state.phase in ("closed", "over"):
            return [_v("C-seal", "the round is over: nothing left to seal")]
        if not state.dealt[state.players.index(move.player)]:
            return [_v("C-seal", f"{move.player}'s row is not dealt yet")]
        if len(move.hashes) != len(hidden) or not all(re.fullmatch(r"[0-9a-f]{16}", h)
                                                      for h in move.hashes):
            return [_v("C-seal", f"{move.player} has {len(hidden)} hidden tile(s): one 16-digit "
                                 "hash each (use --secret to make them)")]
        return []

    def _unseal_problems(self, state: State, move: Unseal) -> list[Violation]:
        row = state.row(move.player)
        sealed = [s for s in row if s.seal]
        if not sealed:
            return [_v("C-seal", f"{move.player} sealed no tile this round")]
        if state.phase not in ("tally", "closed", "over") and state.hidden(move.player):
            return [_v("C-seal", f"{move.player}'s tiles are still hidden: unseal at the end")]
        if state.phase == "tally" and move.player == state.winner:
            return [_v("C-seal", f"{move.player} tallies first, then unseals")]
        if not any(self._opened(state, move.player, move.passphrase, s) is not None
                   for s in sealed):
            return [_v("C-seal", f"the passphrase opens none of {move.player}'s seals")]
        return []

    # deduction

    def _domain(self, state: State, slot: Slot, answers: bool = True) -> set[int]:
        if slot.tile is not None:
            return {slot.tile}
        tiles = {t for t in tile_set() if colour_of(t) == slot.colour
                 and (state.advanced or not deduce.is_dash(t))}
        return tiles - set(slot.misses) if answers else tiles

    def _problem(self, state: State, answers: bool, fixed: Mapping[int, set[int]] | None = None):
        rows = []
        for p in state.players:
            rows.append([set(fixed[s.id]) & self._domain(state, s, answers)
                         if fixed and s.id in fixed else self._domain(state, s, answers)
                         for s in state.row(p)])
        loose = []
        if state.drawn is not None:
            loose.append({t for t in tile_set() if colour_of(t) == state.drawn
                          and (state.advanced or not deduce.is_dash(t))})
        return rows, loose

    def _fits(self, state: State, answers: bool, fixed: Mapping[int, int] | None = None) -> bool:
        sets = {k: {v} for k, v in (fixed or {}).items()}
        return deduce.feasible(*self._problem(state, answers, sets))

    def _can_be(self, state: State, slot_id: int, tiles: set[int], answers: bool) -> bool:
        if not tiles:
            return False
        return deduce.feasible(*self._problem(state, answers, {slot_id: tiles}))

    def candidates(self, state: State, player: str, position: int) -> list[int]:
        """Every tile a player's tile (1-based position) can still be, from public info."""
        row = state.row(player)
        if not 1 <= position <= len(row):
            raise RefereeError(f"{player} has tiles 1-{len(row)}, no tile {position}")
        rows, loose = self._problem(state, answers=True)
        found = deduce.possible(rows, loose)
        return sorted(found[state.players.index(player)][position - 1])

    def _can_text(self, state: State, slot_id: int) -> str:
        for p in state.players:
            for i, s in enumerate(state.row(p), start=1):
                if s.id == slot_id:
                    can = self.candidates(state, p, i)
                    return ("it can be " + ", ".join(value_word(t) for t in can) if can
                            else "no tile fits it any more: an earlier answer was false")
        return ""

    def _inserted(self, state: State, position: int, tile: int | None) -> State:
        me = state.current
        slot = Slot(state.next_id, state.drawn, tile)
        rows = list(state.rows)
        row = list(rows[me])
        row.insert(position - 1, slot)
        rows[me] = tuple(row)
        return replace(state, rows=tuple(rows), drawn=None, next_id=state.next_id + 1)

    def query(self, state: State, text: str) -> str:
        """Decide a dispute from public information: `possible ben 2` lists what ben's tile 2
        can be; `possible ben 2 7` says whether it can be 7; `possible ben 2 7 miss` whether a
        miss on 7 is possible."""
        words = text.replace("?", " ").split()
        if words and words[0].lower() in ("possible", "can", "could"):
            words = words[1:]
        if len(words) < 2 or not POSITION.match(words[1]):
            raise InvalidMove("expected: possible ben 2 [7 [hit|miss]]")
        who = self._player(state, words[:1])
        pos = int(words[1])
        can = self.candidates(state, who, pos)
        slot = state.row(who)[pos - 1]
        where = f"{who}'s tile {pos} ({COLOURS[slot.colour]}" + (
            f", revealed {value_word(slot.tile)})" if slot.tile is not None else ", hidden)")
        listed = ", ".join(value_word(t) for t in can) or "nothing (an earlier answer was false)"
        if len(words) == 2:
            return f"{where} can be: {listed}"
        tile = tile_of(slot.colour, self._value(words[2]))
        answer = words[3].lower() if len(words) > 3 else "hit"
        if answer not in ("hit", "miss"):
            raise InvalidMove("the answer is hit or miss: possible ben 2 7 miss")
        ok = tile in can if answer == "hit" else bool(set(can) - {tile})
        verdict = "possible" if ok else "impossible"
        return f"a {answer} on {value_word(tile)} is {verdict}: {where} can be: {listed}"

    # sealing (the CLI's --secret hook)

    def secret_prompt(self, state: State, text: str) -> str:
        if text.split()[:1] == ["stop"]:
            return "the drawn tile's number (or dash) and your passphrase, e.g. 7 kiwi"
        return "your hidden tiles left to right (numbers or dash) and a passphrase, e.g. 3 7 kiwi"

    def secret_move(self, state: State, text: str, secret: str, player: str | None = None) -> str:
        """The public move for a privately typed secret: hashes in place of the tiles."""
        words = secret.split()
        if len(words) < 2:
            raise InvalidMove("type the tile numbers then a passphrase (nothing is shown)")
        *values, phrase = words
        if len(phrase) < 4 or phrase.isdigit():
            raise InvalidMove("the passphrase comes last and is a word of 4+ letters, not a "
                              "number (so nobody can guess the seals)")
        verb = text.split()[0].lower() if text.split() else ""
        if verb not in ("stop", "seal"):
            raise InvalidMove("--secret works with `seal NAME` and `stop at N`")
        if verb == "stop":
            move = self.parse(state, text, player)
            if move.position is None or len(values) != 1 or state.drawn is None:
                raise InvalidMove("type the drawn tile's number then your passphrase")
            tile = tile_of(state.drawn, self._value(values[0]))
            trial = self._inserted(state, move.position, None)
            slot = trial.row(state.to_play)[move.position - 1]
            if not self._fits(trial, answers=False, fixed={slot.id: tile}):
                raise IllegalMove([_v("C1", f"that tile cannot stand at {move.position}")])
            h = seal_hash(phrase, state.to_play, state.round, slot.id, tile)
            return f"stop at {move.position} sealed {h}"
        who = self._player(state, text.split()[1:2])
        hidden = [s for s in state.row(who) if s.tile is None]
        if len(values) != len(hidden):
            raise InvalidMove(f"{who} has {len(hidden)} hidden tile(s): type {len(hidden)} "
                              "numbers, then the passphrase")
        fixed = {s.id: tile_of(s.colour, self._value(v)) for s, v in zip(hidden, values,
                                                                        strict=True)}
        if not self._fits(state, answers=False, fixed=fixed):
            raise IllegalMove([_v("C1", "those tiles break the order rule or repeat a revealed "
                                        "tile (colours must match the row)")])
        hashes = [seal_hash(phrase, who, state.round, s.id, fixed[s.id]) for s in hidden]
        return f"seal {who} " + " ".join(hashes)

    def _opened(self, state: State, player: str, phrase: str, slot: Slot) -> int | None:
        for t in tile_set():
            if seal_hash(phrase, player, state.round, slot.id, t) == slot.seal:
                return t
        return None

    # transitions

    def transition(self, state: State, move) -> tuple[State, list[str]]:
        notes: list[str] = []
        score: list[ScoreItem] = []
        me = state.to_play
        if isinstance(move, Deal):
            state = self._deal(state, move, notes)
        elif isinstance(move, Seal):
            state = self._seal(state, move, notes)
        elif isinstance(move, Unseal):
            state = self._unseal(state, move, notes)
        elif isinstance(move, Draw):
            pool = list(state.pool)
            pool[move.colour] -= 1
            state = replace(state, pool=tuple(pool), drawn=move.colour, phase="guess")
        elif isinstance(move, Guess):
            state = self._guess(state, move, score, notes)
        elif isinstance(move, Stop):
            if move.position is not None:
                state = self._inserted(state, move.position, None)
                if move.seal:
                    state = self._set_slot(state, me, move.position, seal=move.seal)
            state = self._end_turn(state, notes)
        elif isinstance(move, Place):
            tile = tile_of(state.drawn, move.value)
            state = self._inserted(state, move.position, tile)
            state = self._end_turn(state, notes)
        elif isinstance(move, Expose):
            slot = state.row(me)[move.position - 1]
            tile = tile_of(slot.colour, move.value)
            self._hindsight(state, slot, tile, notes)
            state = self._set_slot(state, me, move.position, tile=tile)
            if state.hidden(me) == 0:
                notes.append(f"{me} is out: every tile revealed")
            state = self._end_turn(state, notes)
        elif isinstance(move, Tally):
            state = self._tally(state, move, score, notes)
        return state, notes

    def _deal(self, state: State, move: Deal, notes: list[str]) -> State:
        if state.phase == "closed":
            state = self._new_round(state, state.round + 1)
            notes.append(f"round {state.round} begins")
        i = state.players.index(move.player)
        rows = list(state.rows)
        ids = range(state.next_id, state.next_id + len(move.colours))
        rows[i] = tuple(Slot(k, c) for k, c in zip(ids, move.colours, strict=True))
        pool = tuple(state.pool[c] - move.colours.count(c) for c in (0, 1))
        dealt = tuple(d or j == i for j, d in enumerate(state.dealt))
        state = replace(state, rows=tuple(rows), pool=pool, dealt=dealt,
                        next_id=state.next_id + len(move.colours))
        return self._maybe_start(state, notes)

    def _maybe_start(self, state: State, notes: list[str]) -> State:
        if state.phase != "deal" or not all(state.dealt):
            return state
        if state.sealed and any(not s.seal for r in state.rows for s in r):
            return state
        notes.append(f"every row is dealt: {state.players[0]} starts")
        return replace(state, phase="draw" if sum(state.pool) else "guess", current=0)

    def _seal(self, state: State, move: Seal, notes: list[str]) -> State:
        i = state.players.index(move.player)
        hashes = iter(move.hashes)
        row = tuple(replace(s, seal=next(hashes)) if s.tile is None else s for s in state.rows[i])
        rows = list(state.rows)
        rows[i] = row
        notes.append(f"{move.player}'s {len(move.hashes)} hidden tile(s) sealed")
        return self._maybe_start(replace(state, rows=tuple(rows)), notes)

    def _unseal(self, state: State, move: Unseal, notes: list[str]) -> State:
        found = []
        positions = {s.id: i for i, s in enumerate(state.row(move.player), start=1)}
        for s in state.row(move.player):
            if not s.seal:
                continue
            sealed = self._opened(state, move.player, move.passphrase, s)
            pos = positions[s.id]
            if sealed is None:
                found.append(f"{move.player}'s tile {pos}: the seal does not open with this "
                             "passphrase")
                continue
            if s.tile is not None and s.tile != sealed:
                found.append(f"{move.player}'s tile {pos} was sealed as {tile_name(sealed)} "
                             f"but shown as {tile_name(s.tile)}")
            for a in state.asked:
                if a.target == move.player and a.slot == s.id and a.hit != (a.tile == sealed):
                    said = "hit" if a.hit else "miss"
                    found.append(f"false answer: {move.player} said {said} to {a.guesser}'s "
                                 f"guess {value_word(a.tile)} on tile {pos} (guess {a.seq}), "
                                 f"sealed {tile_name(sealed)}")
        if not found:
            notes.append(f"{move.player}'s seals open and every answer was true")
        notes.extend(found)
        return replace(state, reports=state.reports + tuple(found),
                       opened=state.opened + (move.player,))

    def _set_slot(self, state: State, player: str, position: int, **changes) -> State:
        i = state.players.index(player)
        row = list(state.rows[i])
        row[position - 1] = replace(row[position - 1], **changes)
        rows = list(state.rows)
        rows[i] = tuple(row)
        return replace(state, rows=tuple(rows))

    def _guess(self, state: State, move: Guess, score: list[ScoreItem], notes: list[str]) -> State:
        me, r = state.to_play, state.round
        slot = state.row(move.target)[move.position - 1]
        tile = tile_of(slot.colour, move.value)
        asked = Asked(me, move.target, slot.id, move.position, tile, move.hit,
                      len(state.asked) + 1)
        state = replace(state, asked=state.asked + (asked,))
        if not move.hit:
            state = self._set_slot(state, move.target, move.position,
                                   misses=slot.misses + (tile,))
            if state.drawn is not None:
                return replace(state, phase="place")
            return replace(state, phase="expose")
        self._hindsight(state, slot, tile, notes)
        state = self._set_slot(state, move.target, move.position, tile=tile)
        score.append(ScoreItem(me, 1, f"correct guess: {move.target}'s tile {move.position} "
                                      f"is {tile_name(tile)}", r))
        if state.hidden(move.target) == 0:
            notes.append(f"{move.target} is out: every tile revealed")
            score.append(ScoreItem(me, 3, f"revealed {move.target}'s last hidden tile", r))
        state = replace(state, hits=state.hits + 1, ledger=state.ledger + tuple(score))
        if len(state.alive()) == 1:
            state = replace(state, winner=me)
            notes.append(f"{me} wins round {r}: the last player with hidden tiles")
            if state.drawn is None:
                return replace(state, phase="tally")
            return replace(state, phase="stop")
        return replace(state, phase="guess")

    def _hindsight(self, state: State, slot: Slot, tile: int, notes: list[str]) -> None:
        """A revealed tile that contradicts earlier answers: say which answers were false."""
        if self._can_be(state, slot.id, {tile}, answers=True):
            return
        same = [a for a in state.asked if a.slot == slot.id and a.tile == tile and not a.hit]
        if same:
            for a in same:
                notes.append(f"false answer found: {a.target} said miss to {a.guesser}'s guess "
                             f"{value_word(a.tile)} (guess {a.seq}) on this tile")
        else:
            notes.append(f"false answer found: {tile_name(tile)} contradicts an earlier 'miss' "
                         "in this round")

    def _end_turn(self, state: State, notes: list[str]) -> State:
        state = replace(state, drawn=None, hits=0)
        alive = state.alive()
        if len(alive) == 1:
            if state.winner is None:
                notes.append(f"{alive[0]} wins round {state.round}: the last player with "
                             "hidden tiles")
            return replace(state, winner=alive[0], phase="tally")
        n = len(state.players)
        nxt = state.current
        for _ in range(n):
            nxt = (nxt + 1) % n
            if state.hidden(state.players[nxt]):
                break
        phase = "draw" if sum(state.pool) else "guess"
        return replace(state, current=nxt, phase=phase)

    def _tally(self, state: State, move: Tally, score: list[ScoreItem],
               notes: list[str]) -> State:
        win, r = state.winner, state.round
        hidden = [(i, s) for i, s in enumerate(state.row(win), start=1) if s.tile is None]
        for (i, s), v in zip(hidden, move.values, strict=True):
            tile = tile_of(s.colour, v)
            self._hindsight(state, s, tile, notes)
            state = self._set_slot(state, win, i, tile=tile)
        values = [0 if v == "dash" else int(v) for v in move.values]
        score.append(ScoreItem(win, 5, f"won round {r}", r))
        score.append(ScoreItem(win, sum(values), "tiles still hidden: "
                                                 + "+".join(str(v) for v in values), r))
        phase = "over" if r >= state.rounds else "closed"
        if phase == "closed":
            notes.append(f"round {r} is over: deal round {r + 1} (row <player> <colours>)")
        return replace(state, ledger=state.ledger + tuple(score), phase=phase,
                       round_winners=state.round_winners + (win,))

    # reading the state

    def to_move(self, state: State) -> str | None:
        if state.phase in ("draw", "guess", "stop", "place", "expose"):
            return state.to_play
        if state.phase == "tally":
            return state.winner
        return None

    def legal_moves(self, state: State) -> list:
        """The moves of the player to act that the judge accepts (draws, guesses with either
        answer the tiles allow, stops, places, reveals); none while rows are dealt, sealed or
        tallied, where only the table knows the tiles."""
        me = self.to_move(state)
        if me is None or state.phase == "tally":
            return []
        values = [str(v) for v in range(12)] + ["dash"]
        others = [p for p in state.alive() if p != me]
        mine = range(1, len(state.row(me)) + 2)
        candidates = {
            "draw": [Draw(c, me) for c in (0, 1)],
            "guess": [Guess(t, k, v, hit, me) for t in others for k in range(1, len(state.row(t)) + 1)
                      for v in values for hit in (True, False)],
            "stop": [Stop(None, "", me)] + [Stop(k, "", me) for k in mine],
            "place": [Place(v, k, me) for v in values for k in mine],
            "expose": [Expose(k, v, me) for k in mine for v in values],
        }.get(state.phase, [])
        return self.accepted(state, candidates)

    def ledger(self, state: State) -> tuple[ScoreItem, ...]:
        return state.ledger

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        if state.rounds == 1:
            return Outcome((state.round_winners[-1],), "the last player with hidden tiles")
        tot = totals(state.ledger, state.players)
        best = max(tot.values())
        winners = tuple(p for p in state.players if tot[p] == best)
        scores = ", ".join(f"{p} {v}" for p, v in tot.items())
        shared = "shared win, " if len(winners) > 1 else ""
        return Outcome(winners, f"{shared}highest total after {state.rounds} rounds {best} "
                                f"({scores})")

    def show(self, state: State) -> str:
        """Public information only: the same text whoever looks (the referee knows no secret)."""
        kind = "advanced" if state.advanced else "basic"
        head = f"Coda, {kind} game, round {state.round} of {state.rounds}"
        lines = [head + (", sealed" if state.sealed else "")]
        width = max(len(p) for p in state.players)
        for p, row, dealt in zip(state.players, state.rows, state.dealt, strict=True):
            if not dealt:
                lines.append(f"  {p:<{width}}  (no row yet)")
                continue
            tiles = "  ".join(f"{i}:{tile_short(s.tile) if s.tile is not None else 'bw'[s.colour] + '?'}"
                              for i, s in enumerate(row, start=1))
            n = sum(s.tile is None for s in row)
            status = f"{n} hidden"
            if p == state.winner:
                status = "wins the round" + (f", {n} hidden" if n else "")
            elif n == 0:
                status = "out"
            sealed = ", sealed" if any(s.seal for s in row) else ""
            lines.append(f"  {p:<{width}}  {tiles}   ({status}{sealed})")
        lines.append(f"pool: {state.pool[0]} black, {state.pool[1]} white")
        if state.drawn is not None:
            lines.append(f"{state.to_play} holds a drawn {COLOURS[state.drawn]} tile")
        if state.asked:
            a = state.asked[-1]
            lines.append(f"last guess: {a.guesser} said {a.target}'s tile {a.position} is "
                         f"{value_word(a.tile)}: {'hit' if a.hit else 'miss'} (every guess: "
                         "referee log)")
        lines.append("now: " + self._now(state))
        for rep in state.reports:
            lines.append("found: " + rep)
        tot = totals(state.ledger, state.players)
        lines.append("scores: " + ", ".join(f"{p} {v}" for p, v in tot.items()))
        return "\n".join(lines)

    def _now(self, state: State) -> str:
        me = state.to_play
        if state.phase == "deal":
            missing = [p for p, d in zip(state.players, state.dealt, strict=True) if not d]
            if missing:
                want = 3 if len(state.players) == 4 else 4
                return (f"deal {want} tiles each and type each row's colours left to right: "
                        + "; ".join(f"row {p} ..." for p in missing))
            unsealed = [p for p in state.players if any(not s.seal for s in state.row(p))]
            return f"sealed game: {', '.join(unsealed)} seal their tiles (seal NAME --secret)"
        return {
            "draw": f"{me} draws a tile (draw black|white)",
            "guess": f"{me} guesses (guess NAME POSITION NUMBER hit|miss)"
                     + (" or stops (stop at N)" if state.hits else ""),
            "stop": f"{me} puts the drawn tile in its place (stop at N)",
            "place": f"{me} puts the drawn tile revealed in its place (place NUMBER at N)",
            "expose": f"{me} reveals one of their hidden tiles (reveal POSITION NUMBER)",
            "tally": f"{state.winner} won the round: reveal the hidden tiles (tally N N ...)",
            "closed": f"round {state.round} is over: deal round {state.round + 1} "
                      "(row NAME colours ...)",
            "over": "game over: "
                    + (", ".join(self.outcome(state).winners) if self.outcome(state) else ""),
        }[state.phase]


GAME = Coda()
