"""Online games with REAL python-socketio clients against a real server (`python -m webapp` in a
subprocess): a full game between two users, leader choices hidden until both chose, a clock
running out, disconnect/reconnect/resume (also across a server restart), claims, resign, rematch,
a spectator, a third user (R18, issue 6)."""

import json
import re
import threading

import pytest
import requests
import socketio

from tests.play.helpers import assert_no_leak
from tests.play.test_real_server import Server
from webapp.game import play
from webapp.tools.bot import Bot, csrf_of, log_in
from webapp.store import load_game

from .conftest import PASSWORD
from tests.online.helpers import close_all, closing_clients

pytestmark = pytest.mark.slow

#: R18.4's grace periods as they are (the tests move the server's clock past them: ``Server.advance``, so a
#: slow join on a loaded machine never runs one out); a quick ticker; clocks of any length.
GRACE = {"ONLINE_CLAIM_AFTER": 60, "ONLINE_AUTO_AFTER": 120, "ONLINE_TICK": 0.1, "ONLINE_CLOCK_MIN_MINUTES": 0,
         "RATE_LIMIT": 20}
DECK = re.compile(r'name="deck"\s+value="(\d+)"')


class OnlineServer(Server):
    """The play tests' server with the online settings in its instance config."""

    def configure(self, cpu_delay):
        super().configure(cpu_delay)
        with open(self.instance / "config.py", "a") as f:
            for key, value in dict(GRACE, TESTING=True).items():  # TESTING: the clock may be moved (advance)
                f.write(f"{key} = {value!r}\n")


@pytest.fixture(scope="module", params=["threading", "gevent"])
def server(request, tmp_path_factory):
    """The server in each of its two ways of serving (BRIGADE_SERVER, docs/deploy.md): every test here
    runs against both."""
    srv = OnlineServer(tmp_path_factory.mktemp("online") / "instance", server=request.param)
    srv.start()
    yield srv
    srv.stop()


NAMES = iter(range(10**6))


def user(server, prefix):
    """A requests session logged in as a newly registered user."""
    http = requests.Session()
    http.name = f"{prefix}{next(NAMES)}"
    log_in(http, server.url, http.name, PASSWORD, register=True)
    return http


def let_anyone_watch(server, *sessions):
    """The players let anyone with a game's link watch their games (the default is friends only:
    docs/security.md "Watching"), through the friends page's form."""
    for http in sessions:
        page = http.get(f"{server.url}/friends", timeout=10).text
        answer = http.post(f"{server.url}/friends/watch", data={"csrf_token": csrf_of(page), "watch": "link"}, timeout=10)
        assert answer.status_code == 200, answer.status_code


def invite(server, http, clock="15"):
    """Create an invitation through the lobby's form; return (game id, code)."""
    page = http.get(f"{server.url}/lobby", timeout=10).text
    answer = http.post(f"{server.url}/lobby/invite", data={"csrf_token": csrf_of(page), "deck": DECK.findall(page)[0],
                                                           "clock": clock}, timeout=10)
    game_id = int(re.search(r"/lobby/invite/(\d+)$", answer.url).group(1))
    code = re.search(r'id="invite-code">(\w+)<', answer.text).group(1)
    return game_id, code


def join(server, http, code):
    """Open the link, pick the first deck, join; return the answer (a redirect to the board, followed)."""
    page = http.get(f"{server.url}/join/{code}", timeout=10)
    decks = DECK.findall(page.text)
    if not decks:
        return page
    return http.post(f"{server.url}/join/{code}", data={"csrf_token": csrf_of(page.text), "deck": decks[0]},
                     timeout=10)


def pair(server, clock="15"):
    """Two users and the game one invited the other to: (game id, inviter http, friend http)."""
    a, b = user(server, "ann"), user(server, "ben")
    game_id, code = invite(server, a, clock)
    assert join(server, b, code).url.endswith(f"/play/{game_id}")
    return game_id, a, b


class Client:
    """A real python-socketio client logged in with a requests session; records every event."""

    EVENTS = ("state", "error", "presence", "emote", "rematch", "started", "invitation")

    def __init__(self, server, http, transport="websocket"):
        self.got = []
        self.cond = threading.Condition()
        self.sio = socketio.Client(reconnection=False)
        for name in self.EVENTS:
            self.sio.on(name, lambda payload, name=name: self.record(name, payload))
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.get_dict().items())
        self.sio.connect(server.url, headers={"Cookie": cookie}, transports=[transport], wait_timeout=10)

    def record(self, name, payload):
        with self.cond:
            self.got.append((name, payload))
            self.cond.notify_all()

    def wait(self, predicate, timeout=10.0):
        with self.cond:
            assert self.cond.wait_for(lambda: predicate(self), timeout=timeout), f"timed out; last: {self.got[-3:]}"

    def states(self, game=None):
        with self.cond:
            return [p for n, p in self.got if n == "state" and (game is None or p["game"] == game)]

    def of(self, name):
        with self.cond:
            return [p for n, p in self.got if n == name]

    def latest(self, game):
        mine = self.states(game)
        return max(mine, key=lambda p: p["version"]) if mine else None

    def join(self, game):
        before = len(self.states(game))
        self.sio.emit("join", {"game": game})
        self.wait(lambda c: len(c.states(game)) > before)
        return self.states(game)[-1]

    def act(self, game, action, version):
        self.sio.emit("action", {"game": game, "action": action, "version": version})
        self.wait(lambda c: (c.latest(game) or {}).get("version", -1) > version or c.of("error"))

    def close(self):
        if self.sio.connected:
            self.sio.disconnect()


@pytest.fixture
def clients():
    yield from closing_clients(Client)


def final_of(client, game, timeout=10.0):
    client.wait(lambda c: (c.latest(game) or {}).get("status") == "finished", timeout=timeout)
    return client.latest(game)


# ---------------------------------------------------------------- a whole game


def test_a_full_game_between_two_users_with_bots(server):
    game_id, a, b = pair(server)
    bots = [Bot(server.url, http.cookies.get_dict(), game_id, policy, seed=seed, timeout=60)
            for http, policy, seed in ((a, "baseline", 1), (b, "random", 2))]
    results = [None, None]

    def run(i):
        results[i] = bots[i].run()
    threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert all(r is not None and r["status"] == "finished" for r in results), results
    assert results[0]["result"] == results[1]["result"] and results[0]["seat"] == 0 and results[1]["seat"] == 1
    print("\nreal server, two bots:", json.dumps(results[0]["latency_ms"]), json.dumps(results[1]["latency_ms"]))
    db = server.db()
    try:
        row = load_game(db, game_id)
        assert row["status"] == "finished" and row["result"] == results[0]["result"]
        assert play.rebuild(db, game_id).to_json() == row["state"]
    finally:
        db.close()
    replay = a.get(f"{server.url}/games/{game_id}/replay.json", timeout=30).json()
    assert replay["steps"][-1]["view"]["result"] == row["result"] and len(replay["steps"]) == row["version"] + 1


def test_leader_choices_are_never_revealed_before_both_chose(server, clients):
    game_id, a, b = pair(server)
    let_anyone_watch(server, a, b)
    watcher_http = user(server, "cy")
    ca, cb, cw = clients(server, a), clients(server, b), clients(server, watcher_http)
    sa, sb, sw = ca.join(game_id), cb.join(game_id), cw.join(game_id)
    assert sa["view"]["opening"]["dice"] == sb["view"]["opening"]["dice"] == sw["view"]["opening"]["dice"]
    assert sa["waiting_for"] == [0, 1]
    choice = sa["legal_actions"][0]
    ca.act(game_id, choice, 0)
    cb.wait(lambda c: c.latest(game_id)["version"] == 1)
    cw.wait(lambda c: c.latest(game_id)["version"] == 1)
    cb.join(game_id), cw.join(game_id)  # answered in order: whatever the server sent them before has come
    # Every payload bob and the spectator got before bob chose: nothing names alice's leaders.
    for client in (cb, cw):
        with client.cond:
            seen = list(client.got)
        assert seen
        for name, payload in seen:
            text = json.dumps(payload)
            assert not any(f'"{cid}"' in text for cid in choice["cards"]), (name, text[:400])
    assert cb.latest(game_id)["view"]["players"][0]["leaders_chosen"] is True
    theirs = cb.latest(game_id)["legal_actions"][0]
    cb.act(game_id, theirs, 1)
    ca.wait(lambda c: c.latest(game_id)["version"] == 2)
    assert ca.latest(game_id)["view"]["leaders"] == [choice["cards"], theirs["cards"]]
    db = server.db()
    try:
        assert assert_no_leak(db, game_id, ca.states() + cb.states() + cw.states()) >= 8
    finally:
        db.close()


# ---------------------------------------------------------------- clocks


def test_a_clock_running_out_loses_the_game(server, clients):
    game_id, a, b = pair(server, clock="1")  # 60 s each
    ca, cb = clients(server, a), clients(server, b)
    state = ca.join(game_id)
    cb.join(game_id)
    assert state["online"]["clock"]["limit_ms"] == 60_000 and state["online"]["clock"]["running"] == [True, True]
    ca.act(game_id, state["legal_actions"][0], 0)  # alice chose in time; bob never does
    server.advance(60)
    final = final_of(cb, game_id)
    assert final["view"]["result"] == {"winner": 0, "reason": "timeout"}
    assert final["online"]["clock"]["left_ms"][1] == 0 and final["online"]["clock"]["left_ms"][0] > 0
    assert final_of(ca, game_id)["view"]["result"]["reason"] == "timeout"


def test_both_clocks_out_during_the_leader_choice_is_a_draw(server, clients):
    game_id, a, b = pair(server, clock="1")
    ca = clients(server, a)
    ca.join(game_id)
    server.advance(60)
    assert final_of(ca, game_id)["view"]["result"] == {"winner": None, "reason": "timeout"}


# ---------------------------------------------------------------- disconnects


def test_disconnect_reconnect_resume_then_claim(server, clients):
    game_id, a, b = pair(server)
    ca, cb = clients(server, a), clients(server, b)
    ca.join(game_id)
    sb = cb.join(game_id)
    ca.act(game_id, ca.latest(game_id)["legal_actions"][0], 0)
    cb.act(game_id, sb["legal_actions"][0], 1)
    ca.wait(lambda c: c.latest(game_id)["version"] == 2)
    first = ca.latest(game_id)["view"]["first"]
    mover, other = (ca, cb) if first == 0 else (cb, ca)
    mover_http = a if first == 0 else b
    before = mover.latest(game_id)
    assert before["waiting_for"] == [first]

    threading.Thread(target=mover.close).start()  # the player whose move it is goes away: the other sees it at once
    other.wait(lambda c: c.of("presence") and not c.of("presence")[-1]["presence"][first]["connected"])
    shown = other.of("presence")[-1]["presence"][first]
    assert 0 < shown["claim_in_ms"] <= GRACE["ONLINE_CLAIM_AFTER"] * 1000 < shown["auto_in_ms"] <= GRACE["ONLINE_AUTO_AFTER"] * 1000

    back = clients(server, mover_http)  # another tab / device
    resumed = back.join(game_id)
    assert (resumed["version"], resumed["legal_actions"], resumed["view"]) == (
        before["version"], before["legal_actions"], before["view"])
    other.wait(lambda c: c.of("presence")[-1]["presence"][first]["connected"])
    state = resumed
    for _ in range(50):  # end the turn where that is legal (the main step), else the first legal action
        action = {"type": "end_turn"} if {"type": "end_turn"} in state["legal_actions"] else state["legal_actions"][0]
        back.act(game_id, action, state["version"])
        assert back.latest(game_id)["version"] == state["version"] + 1
        state = back.latest(game_id)
        if state["waiting_for"] != [first]:
            break

    # Now the other player's move: they leave, and after the claim period the mover claims.
    assert state["waiting_for"] == [1 - first]
    seen = len(back.of("presence"))
    threading.Thread(target=other.close).start()  # a client's disconnect() may take seconds to return
    back.wait(lambda c: len(c.of("presence")) > seen and not c.of("presence")[-1]["presence"][1 - first]["connected"])
    back.sio.emit("claim", {"game": game_id})  # at once: too early
    back.wait(lambda c: c.of("error"))
    assert back.of("error")[-1]["code"] == "illegal" and "you may claim in" in back.of("error")[-1]["message"]
    server.advance(GRACE["ONLINE_CLAIM_AFTER"])
    back.sio.emit("claim", {"game": game_id})
    final = final_of(back, game_id)
    assert final["view"]["result"] == {"winner": first, "reason": "disconnect"}


def test_the_win_is_claimed_automatically_and_not_when_both_are_away(server, clients):
    # A game nobody is connected to: a spectator sees its player go.
    nobody, a, b = pair(server)
    let_anyone_watch(server, a, b)
    ca, cw = clients(server, a), clients(server, user(server, "cy"))
    ca.join(nobody), cw.join(nobody)
    ca.close()
    cw.wait(lambda c: c.of("presence") and not c.of("presence")[-1]["presence"][0]["connected"])
    # A game whose player leaves on their move.
    game_id, a, b = pair(server)
    ca, cb = clients(server, a), clients(server, b)
    ca.join(game_id)
    cb.join(game_id)
    ca.act(game_id, ca.latest(game_id)["legal_actions"][0], 0)  # waits for bob now
    cb.close()
    ca.wait(lambda c: c.of("presence") and not c.of("presence")[-1]["presence"][1]["connected"])
    server.advance(GRACE["ONLINE_AUTO_AFTER"])
    final = final_of(ca, game_id)
    assert final["view"]["result"] == {"winner": 0, "reason": "disconnect"}
    # The ticker's look that ended it judged the other game at the same time: nobody claims there.
    db = server.db()
    try:
        assert load_game(db, nobody)["status"] == "active"
    finally:
        db.close()


@pytest.mark.parametrize("way", ["threading", "gevent"])
def test_after_a_server_restart_both_resume_at_the_same_version_with_their_clocks(tmp_path, way):
    srv = OnlineServer(tmp_path / "instance", server=way)
    srv.start()
    try:
        game_id, a, b = pair(srv)
        ca, cb = Client(srv, a), Client(srv, b)
        ca.join(game_id)
        cb.join(game_id)
        ca.act(game_id, ca.latest(game_id)["legal_actions"][0], 0)
        cb.wait(lambda c: c.latest(game_id)["version"] == 1)
        before = cb.latest(game_id)
        srv.kill()
        close_all([ca, cb])
        srv.start()  # same database and secret: the session cookies still work
        ca, cb = Client(srv, a), Client(srv, b)
        after = cb.join(game_id)
        ca.join(game_id)
        assert (after["version"], after["legal_actions"]) == (before["version"], before["legal_actions"])
        left_before, left_after = before["online"]["clock"]["left_ms"], after["online"]["clock"]["left_ms"]
        assert left_after[0] == left_before[0]  # alice's clock stopped when she chose
        assert 0 < left_after[1] < left_before[1]  # bob's ran on (the restart included)
        assert after["online"]["clock"]["running"] == [False, True]
        cb.act(game_id, after["legal_actions"][0], after["version"])
        ca.wait(lambda c: c.latest(game_id)["version"] == 2)
        close_all([ca, cb])
    finally:
        srv.stop()


# ---------------------------------------------------------------- resign, rematch, watchers, a third user


def test_resign_then_a_rematch_with_the_first_player_swapped(server, clients):
    game_id, a, b = pair(server)
    ca, cb = clients(server, a), clients(server, b)
    first = ca.join(game_id)["view"]["first"]
    cb.join(game_id)
    cb.act(game_id, {"type": "resign"}, 0)
    assert final_of(ca, game_id)["view"]["result"] == {"winner": 0, "reason": "resign"}
    cb.sio.emit("rematch", {"game": game_id})
    ca.wait(lambda c: c.of("rematch"))
    assert ca.of("rematch")[-1] == {"game": game_id, "offered_by": 1, "new_game": None, "url": None}
    ca.sio.emit("rematch", {"game": game_id})
    cb.wait(lambda c: c.of("rematch") and c.of("rematch")[-1]["new_game"])
    new_id = cb.of("rematch")[-1]["new_game"]
    na, nb = ca.join(new_id), cb.join(new_id)
    assert na["view"]["first"] == nb["view"]["first"] == 1 - first and na["view"]["opening"].get("dice") is None
    assert (na["seat"], nb["seat"], na["status"]) == (0, 1, "active")
    assert na["online"]["rematch_of"] == game_id


def test_a_spectator_sees_no_hand_and_a_third_user_gets_no_seat(server, clients):
    game_id, a, b = pair(server)
    let_anyone_watch(server, a, b)
    carol = user(server, "cat")
    answer = join(server, carol, load_code(server, game_id))
    assert answer.status_code == 409 and f"/play/{game_id}" in answer.text
    cw = clients(server, carol)
    state = cw.join(game_id)
    assert state["seat"] is None and state["legal_actions"] == []
    assert all("hand" not in p for p in state["view"]["players"])
    cw.sio.emit("action", {"game": game_id, "action": {"type": "resign"}, "version": state["version"]})
    cw.sio.emit("claim", {"game": game_id})
    cw.sio.emit("emote", {"game": game_id, "emote": "wow"})
    cw.wait(lambda c: len(c.of("error")) == 3)
    assert [e["code"] for e in cw.of("error")] == ["forbidden"] * 3
    ca = clients(server, a)
    ca.join(game_id)
    ca.sio.emit("emote", {"game": game_id, "emote": "good_game"})
    ca.sio.emit("emote", {"game": game_id, "emote": "gg-ez"})
    cw.wait(lambda c: c.of("emote"))
    ca.wait(lambda c: c.of("error"))
    assert cw.of("emote") == [{"game": game_id, "seat": 0, "emote": "good_game"}]
    assert ca.of("error")[-1]["code"] == "bad_request"
    db = server.db()
    try:
        row = load_game(db, game_id)
        assert row["status"] == "active" and row["version"] == 0 and row["seats"][1] != carol
    finally:
        db.close()


def load_code(server, game_id):
    db = server.db()
    try:
        return db.execute("SELECT code FROM online_games WHERE game_id = ?", [game_id]).fetchone()[0]
    finally:
        db.close()
