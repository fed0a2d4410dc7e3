"""`referee serve --seats`: the API the seat pages use, spoken to over HTTP as a phone (or a
script) would: only a seat's token writes, only for its own player, only from the page's own
origin, within a size and a pace; a move is judged and recorded as `referee play` records it;
two phones sending for one turn record one move; undo from a phone needs the other seats."""

from __future__ import annotations

import http.client
import json
import re
import threading
from urllib.parse import urlsplit

import pytest

from tests.test_table_page import Served, env, referee, serve  # noqa: F401  (fixtures)


class Seated:
    """A `referee serve --seats` and the seat links it printed (player -> token)."""

    def __init__(self, served: Served):
        self.base, self.stop = served.base, served.stop
        self.tokens: dict[str, str] = {}
        for line in served.process.stdout:
            found = re.match(r"(\S+)'s seat: (\S+)", line)
            if found:
                self.tokens[found.group(1)] = found.group(2).split("seat=")[1]
            if line.startswith("Each link is"):
                break
        split = urlsplit(self.base)
        self.host, self.port = split.hostname, split.port

    def call(self, method: str, path: str, body: bytes | dict | None = None,
             seat: str | None = None, headers: dict | None = None) -> tuple[int, dict]:
        """One request; `seat` sends that player's token as a Bearer token."""
        sent = {"host": f"{self.host}:{self.port}", **(headers or {})}
        if seat is not None:
            sent["authorization"] = f"Bearer {self.tokens[seat]}"
        if isinstance(body, dict):
            body = json.dumps(body).encode()
        c = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            c.request(method, path, body=body, headers=sent)
            r = c.getresponse()
            data = r.read()
            # the server core's own refusals (a foreign Host or Origin) answer in plain text
            if not r.getheader("content-type", "").startswith("application/json"):
                return r.status, {"text": data.decode()}
            return r.status, json.loads(data or b"null")
        finally:
            c.close()

    def move(self, seat: str | None, text: str, **more) -> tuple[int, dict]:
        return self.call("POST", "/api/move", {"move": text, **more}, seat=seat)


@pytest.fixture
def seated(serve):  # noqa: F811  (started and stopped as the table page's tests do)
    return lambda *args: Seated(serve("--seats", *args))


@pytest.fixture
def domino(env):  # noqa: F811
    """A Tripple Domino match of ana and bob, opened: bob to play."""
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    return env


def log(environment: dict) -> list[dict]:
    done = referee(environment, "log", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["events"]


def test_only_a_seat_writes_and_only_for_itself(domino, seated):
    s = seated()
    assert set(s.tokens) == {"ana", "bob"} and s.tokens["ana"] != s.tokens["bob"]
    before = len(log(domino))
    assert s.move(None, "4-5-5 D-1,0")[0] == 403  # no token
    status, _ = s.call("POST", "/api/move", {"move": "4-5-5 D-1,0"},
                       headers={"authorization": "Bearer not-a-seat"})
    assert status == 403
    # ana's token cannot act for bob, however the move says so
    assert s.move("ana", "4-5-5 D-1,0", by="bob")[0] == 403
    assert s.move("ana", "bob: 4-5-5 D-1,0")[0] == 403
    assert s.call("POST", "/api/undo", {}, seat="ana",
                  headers={"origin": "http://evil.example"})[0] == 403
    assert s.call("POST", "/api/move", {"move": "4-5-5 D-1,0"}, seat="bob",
                  headers={"origin": "http://evil.example"})[0] == 403
    assert s.call("POST", "/api/move", {"move": "4-5-5 D-1,0"}, seat="bob",
                  headers={"host": f"evil.example:{s.port}"})[0] == 400
    big = json.dumps({"move": "x" * 10_000}).encode()
    assert s.call("POST", "/api/move", big, seat="bob")[0] == 413
    assert len(log(domino)) == before  # none of these reached the record


def test_the_seat_cookie_counts_only_with_the_pages_own_origin(domino, seated):
    s = seated()
    cookie = {"cookie": f"referee_seat_{s.port}={s.tokens['bob']}"}
    own = {"origin": f"http://{s.host}:{s.port}"}
    assert s.call("POST", "/api/check", {"move": "4-5-5 D-1,0"}, headers=cookie)[0] == 403
    status, out = s.call("POST", "/api/check", {"move": "4-5-5 D-1,0"},
                         headers={**cookie, **own})
    assert status == 200 and out["legal"] and out["player"] == "bob"


def test_a_seats_move_answers_and_is_recorded_as_the_cli_does(domino, seated):
    s = seated()
    status, checked = s.call("POST", "/api/check", {"move": "4-5-5 D-1,0"}, seat="bob")
    cli = json.loads(referee(domino, "check", "--by", "bob", "--json", "4-5-5 D-1,0").stdout)
    assert status == 200 and {k: checked[k] for k in cli} == cli
    status, played = s.move("bob", "4-5-5 D-1,0")
    assert status == 200 and played["legal"] and played["event"] == 3
    assert played["to_move"] == "ana"
    # a move out of turn is judged by the rules, and kept as the CLI keeps a rejected move
    status, wrong = s.move("bob", "3-5-5 D0,0")
    assert status == 200 and not wrong["legal"]
    assert [v["rule"] for v in wrong["violations"]] == ["turn"]
    events = log(domino)
    assert (events[2]["kind"], events[2]["player"]) == ("move", "bob")
    assert (events[3]["kind"], events[3]["player"]) == ("rejected", "bob")


def test_two_phones_sending_for_one_turn_record_one_move(domino, seated):
    s = seated()
    answers: list[tuple[int, dict]] = []
    go = threading.Barrier(2)

    def send(text: str) -> None:
        go.wait()
        answers.append(s.move("bob", text, event=2))  # both pages showed event 2

    threads = [threading.Thread(target=send, args=(m,)) for m in ("4-5-5 D-1,0", "draw")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(a[0] for a in answers) == [200, 409]
    refused = next(a[1] for a in answers if a[0] == 409)
    assert "moved on" in refused["error"] and refused["event"] == 3
    assert [e["kind"] for e in log(domino)].count("move") == 2  # start + one of the two
    # a stale page (it showed event 2) is told, and nothing is recorded
    assert s.move("ana", "3-5-5 D0,0", event=2)[0] == 409
    assert len(log(domino)) == 3
    # an event no page could have shown is a bad request, not "the table moved on"
    for impossible in (1000, -5):
        status, said = s.move("ana", "3-5-5 D0,0", event=impossible)
        assert status == 400 and f"event {impossible} is not an event" in said["error"]
    assert len(log(domino)) == 3


def test_undo_from_a_phone_needs_the_other_seats(domino, seated):
    s = seated()
    assert s.move("bob", "4-5-5 D-1,0")[0] == 200
    status, asked = s.call("POST", "/api/undo", {}, seat="bob")
    assert status == 202 and asked["waiting_for"] == ["ana"]
    assert s.call("GET", "/api/state", seat="ana")[1]["undo"]["by"] == "bob"
    assert [e["kind"] for e in log(domino)][-1] == "move"  # nothing undone yet
    status, done = s.call("POST", "/api/undo", {}, seat="ana")
    assert status == 200 and done["undo"] == "done" and done["to_move"] == "bob"
    assert [e["kind"] for e in log(domino)][-1] == "undo"


def test_the_seat_links_outlive_a_restart_and_no_token_is_in_the_record(domino, seated,
                                                                        tmp_path):
    first = seated()
    tokens = first.tokens
    first.stop()
    again = seated()
    assert again.tokens == tokens
    assert again.move("bob", "4-5-5 D-1,0")[0] == 200
    data = (tmp_path / "m.sqlite3").read_bytes()
    assert not any(t.encode() in data for t in tokens.values())


def test_the_state_offers_the_seats_legal_moves_on_its_turn(domino, seated):
    s = seated()
    bob = s.call("GET", "/api/state", seat="bob")[1]
    ana = s.call("GET", "/api/state", seat="ana")[1]
    listed = referee(domino, "moves").stdout
    assert bob["seat"] == "bob" and bob["to_move"] == "bob"
    assert "4-5-5 D-1,0 as 5-4-5" in bob["moves"] and "4-5-5 D-1,0 as 5-4-5" in listed
    assert ana["moves"] == []  # not ana's turn


def test_a_seat_sending_faster_than_anyone_taps_is_slowed(domino, seated):
    s = seated()
    statuses = [s.call("POST", "/api/check", {"move": "draw"}, seat="bob")[0] for _ in range(40)]
    assert statuses[:20] == [200] * 20 and 429 in statuses
    assert s.call("POST", "/api/check", {"move": "draw"}, seat="ana")[0] == 200  # its own pace


def test_a_game_that_cannot_list_its_moves_still_says_whose_turn(env, seated):  # noqa: F811
    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    s = seated()
    state = s.call("GET", "/api/state", seat="bob")[1]
    shown = json.loads(referee(env, "show", "--json").stdout)
    assert state["moves"] == [] and "cannot be listed" in state["moves_note"]
    assert state["to_move"] == shown["to_move"] and state["to_move"] in ("ana", "bob")
