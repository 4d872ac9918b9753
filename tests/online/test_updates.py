"""Updates (docs/protocol.md "Updates"): a socket that joins with ``updates`` gets each new version as
the changes since the state the server sent before; the opponent never gets the mover's legal
actions nor another seat's view; a client that missed a version, or connects again, gets a whole
state. The differences themselves (``webapp.sockets.updates``) are checked on random games, and the
browser's copy of ``patch`` (static/js/play-transport.js) against the same operations in node."""

import json
import subprocess
import threading

import orjson
import pytest

from tests.play.helpers import Truth, assert_no_leak
from webapp.engine.randomplay import random_action, random_game
from webapp.sockets.updates import apply_update, diff, patch

from .helpers import Seat, states
from .test_real_server import Client, OnlineServer, let_anyone_watch, pair, user
from tests.online.helpers import closing_clients

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
RESIGN = [{"type": "resign"}]


def encoded(value):
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def view_pairs(games=12, steps=250):
    """(old view, new view) of both seats and the spectator after every action of random games."""
    for seed in range(games):
        game, rng = random_game(seed)
        before = {seat: game.view(seat) for seat in (0, 1, None)}
        for _ in range(steps):
            if game.result is not None:
                break
            game.apply(*random_action(game, rng))
            for seat in (0, 1, None):
                after = game.view(seat)
                yield before[seat], after
                before[seat] = after


# ---------------------------------------------------------------- the differences


def test_patching_the_old_view_with_its_differences_gives_the_new_one_exactly():
    pairs = smaller = 0
    for old, new in view_pairs():
        kept = encoded(old)
        ops = diff(old, new)
        assert encoded(patch(old, ops)) == encoded(new)  # same values, same key order
        assert encoded(old) == kept  # patch works on a copy
        pairs += 1
        smaller += len(encoded(ops)) < len(encoded(new))
    assert pairs > 2000 and smaller > 0.95 * pairs


def test_units_are_matched_by_id_and_objects_whose_keys_move_are_sent_whole():
    a, b, c = ({"id": x, "life": 2} for x in ("p0c1", "p0c2", "p1c3"))
    old = {"units": [a, b, c], "battle": {"x": 1, "y": 2}}
    new = {"units": [c, dict(a, life=1)], "battle": {"y": 3, "x": 1}}
    ops = diff(old, new)
    assert [["units"], None, [2, 0]] in ops and [["units", 1, "life"], 1] in ops
    assert [["battle"], {"y": 3, "x": 1}] in ops
    assert encoded(patch(old, ops)) == encoded(new)
    assert diff(new, new) == []
    with pytest.raises(ValueError):
        patch(old, [[["nowhere", "deep"], 1]])
    with pytest.raises(ValueError):
        patch(old, [[["units", 7], 1]])


def test_an_update_applies_only_to_the_state_it_was_built_on():
    held = {"game": 3, "version": 5, "seat": 0, "view": {"a": 1}, "legal_actions": RESIGN, "players": ["x"]}
    update = {"game": 3, "version": 6, "base": 5, "seat": 0, "view": [[["a"], 2]], "events": [], "log": []}
    new = apply_update(held, update)
    assert new["version"] == 6 and new["view"] == {"a": 2} and new["legal_actions"] == RESIGN
    assert new["players"] == ["x"] and "base" not in new and held["view"] == {"a": 1}
    for other in (dict(update, base=4), dict(update, game=4)):
        with pytest.raises(ValueError):
            apply_update(held, other)
    with pytest.raises(ValueError):
        apply_update(None, update)


def test_the_browser_applies_the_operations_as_the_server_does(tmp_path, node):
    cases = [(old, diff(old, new), new) for k, (old, new) in enumerate(view_pairs(games=4, steps=120)) if k % 3 == 0]
    module = tmp_path / "play-transport.mjs"  # an ES module node loads as one
    module.write_text((ROOT / "static" / "js" / "play-transport.js").read_text())
    script = ("import(process.argv[1]).then((m) => {"
              "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "const out = cases.map(([old, ops]) => m.applyOps(old, ops));"
              "const held = {game: 1, version: 2, view: {a: 1}, legal_actions: []};"
              "out.push(m.applyUpdate(held, {game: 1, version: 3, base: 1, view: []}));"
              "out.push(m.applyUpdate(held, {game: 1, version: 3, base: 2, view: [[['a'], 5]]}));"
              "process.stdout.write(JSON.stringify(out)); })")
    done = subprocess.run([node, "-e", script, str(module)], input=encoded([[o, p] for o, p, _ in cases]),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    out = json.loads(done.stdout)
    assert len(cases) > 300
    for (_, _, new), got in zip(cases, out, strict=False):
        assert encoded(got) == encoded(new)
    assert out[-2] is None and out[-1]["view"] == {"a": 5} and out[-1]["version"] == 3 and "base" not in out[-1]


# ---------------------------------------------------------------- in process: what the server sends


class UpdatingSeat(Seat):
    """A test client's seat that joins asking for updates and keeps the whole state they make."""

    def __init__(self, client, game_id):
        super().__init__(client, game_id)
        self.held = None
        self.updates = []

    def join(self):
        self.client.emit("join", {"game": self.game_id, "updates": True})
        return self.latest()

    def pull(self):
        new = super().pull()
        for name, payload in new:
            if name == "state" and payload["game"] == self.game_id:
                if self.held is None or payload["version"] >= self.held["version"]:
                    self.held = payload
            elif name == "update":
                self.updates.append(payload)
                self.held = apply_update(self.held, payload)
        return new

    def latest(self):
        self.pull()
        return self.held


def test_the_server_sends_updates_to_those_who_asked_and_whole_states_to_the_others(
        app, started, connect_as, alice, bob, db):
    game_id = started()
    a, b = UpdatingSeat(connect_as(alice), game_id), Seat(connect_as(bob), game_id)
    a.join(), b.join()
    a.act(a.latest()["legal_actions"][0])
    b.act(b.latest()["legal_actions"][0])
    assert a.latest()["version"] == 2 and [p["version"] for p in a.updates] == [1, 2]
    assert [p["version"] for p in states(b.seen)] == [0, 1, 2]  # bob joined without: whole states
    assert assert_no_leak(db, game_id, states(a.seen) + [a.latest()]) >= 2

    # The server has no earlier state of the seat (dropped, as when a game's states are evicted): a whole state.
    hub = app.extensions["brigade_hub"]
    hub.states.drop_game(game_id)
    mover = a if a.latest()["seat"] in a.latest()["waiting_for"] else b
    seen = len(a.seen)
    mover.act(choice(mover.latest()))
    a.pull()
    assert [name for name, _ in a.seen[seen:]] == ["state"] and a.latest()["version"] == 3


def test_the_kept_state_of_a_seat_never_goes_back_to_an_older_version():
    """A join that read the row before an action was pushed builds the older version after the push
    built the newer one: the newer stays kept, so the next update is built on what the seat holds."""
    from webapp.sockets.statecache import StateCache

    cache = StateCache(10**6)
    cache.put((1, 0, 5, "t"), "version 5", 10)
    cache.put((1, 0, 4, "t"), "version 4", 10)
    assert cache.latest(1, 0) == ("version 5", 5, "t") and cache.bytes == 10
    cache.put((1, 0, 6, "t"), "version 6", 10)
    assert cache.latest(1, 0) == ("version 6", 6, "t")
    cache.put((1, 0, 1, "another game"), "a new game with the id", 10)
    assert cache.latest(1, 0) == ("a new game with the id", 1, "another game") and cache.bytes == 10


def test_a_bad_updates_flag_is_refused(started, connect_as, alice):
    game_id = started()
    client = connect_as(alice)
    client.emit("join", {"game": game_id, "updates": "yes"})
    got = client.get_received()
    assert [m["name"] for m in got] == ["error"] and got[0]["args"][0]["code"] == "bad_request"
    assert "true or false" in got[0]["args"][0]["message"]


# ---------------------------------------------------------------- real clients against a real server


@pytest.fixture(scope="module", params=["threading", "gevent"])
def server(request, tmp_path_factory):
    """A real server (``python -m webapp``) in each of its two ways of serving."""
    srv = OnlineServer(tmp_path_factory.mktemp("updates") / "instance", server=request.param)
    srv.start()
    yield srv
    srv.stop()


class UpdatingClient(Client):
    """A real python-socketio client that joins asking for updates and makes whole states of them as the
    browser does; ``drop`` makes it lose the next update (a message that never arrived). Like the
    browser (static/js/play-transport.js), it asks for a whole state once and not again while that
    answer is on its way: updates that arrive before it do not fit either."""

    EVENTS = Client.EVENTS + ("update",)

    def __init__(self, server, http):
        self.held = {}
        self.made = []       # the whole states it made from updates
        self.drop = 0
        self.dropped = []    # the versions of the updates it lost (``drop``)
        self.asked = 0       # joins it sent because an update did not fit
        self.waiting = False  # a join was sent for a whole state that has not come yet
        super().__init__(server, http)

    def record(self, name, payload):
        with self.cond:
            self.got.append((name, payload))
            game = payload.get("game") if isinstance(payload, dict) else None
            held = self.held.get(game)
            if name == "state" and (held is None or payload["version"] >= held["version"]):
                self.held[game] = payload
                self.waiting = False
            elif name == "update" and (held is None or payload["version"] > held["version"]):
                if self.drop:
                    self.drop -= 1
                    self.dropped.append(payload["version"])
                else:
                    try:
                        self.held[game] = apply_update(held, payload)
                        self.made.append(self.held[game])
                    except ValueError:
                        if self.waiting:
                            self.cond.notify_all()
                            return
                        self.asked += 1
                        self.waiting = True
                        threading.Thread(target=self.sio.emit, args=("join", {"game": game, "updates": True})).start()
            self.cond.notify_all()

    def latest(self, game):
        with self.cond:
            return self.held.get(game)

    def join(self, game):
        before = len(self.states(game))
        self.sio.emit("join", {"game": game, "updates": True})
        self.wait(lambda c: len(c.states(game)) > before)
        return self.states(game)[-1]

    def updates(self, game):
        with self.cond:
            return [p for n, p in self.got if n == "update" and p["game"] == game]


@pytest.fixture
def updating():
    yield from closing_clients(UpdatingClient)


def choice(state):
    """A legal action that moves the game on: end the turn when allowed, else the first listed."""
    legal = [a for a in state["legal_actions"] if a["type"] != "resign"]
    return {"type": "end_turn"} if {"type": "end_turn"} in legal else legal[0]


def play_some(clients, game_id, actions, watching=()):
    """The clients (one per seat) play ``actions`` actions from the states they hold; after each, they
    and the ``watching`` clients hold its state (a watcher that lost its update, ``drop``, is not
    waited for; one that asked for a whole state is, so the next action never races that answer)."""
    done = 0
    while done < actions:
        for c in clients:
            st = c.latest(game_id)
            if st["status"] == "active" and st["seat"] in st["waiting_for"]:
                version = st["version"]
                c.sio.emit("action", {"game": game_id, "action": choice(st), "version": version})
                for other in clients:
                    other.wait(lambda o, v=version: o.latest(game_id)["version"] > v)
                for other in watching:
                    other.wait(lambda o, v=version: o.latest(game_id)["version"] > v or any(d > v for d in o.dropped))
                done += 1
                break
        else:
            raise AssertionError("nobody could move")
        if clients[0].latest(game_id)["status"] != "active":
            return


@pytest.mark.slow
def test_real_clients_get_their_own_view_and_only_the_mover_gets_legal_actions(server, updating):
    game_id, a, b = pair(server)
    let_anyone_watch(server, a, b)
    ca, cb, cw = updating(server, a), updating(server, b), updating(server, user(server, "watcher"))
    for c in (ca, cb, cw):
        c.join(game_id)
    play_some([ca, cb], game_id, 14)
    final = ca.latest(game_id)["version"]
    cw.wait(lambda c: c.latest(game_id)["version"] == final)
    cb.wait(lambda c: c.latest(game_id)["version"] == final)

    db = server.db()
    try:
        for c, seat in ((ca, 0), (cb, 1), (cw, None)):
            truth = Truth(db, game_id)  # walks the versions forward: one per reader
            ups = c.updates(game_id)
            assert len(ups) >= 10 and not c.asked
            versions = [p["version"] for p in ups]
            assert versions == sorted(set(versions))  # one update per version
            for p in ups:
                assert p["seat"] == seat and p["base"] < p["version"]
                if "legal_actions" in p:
                    # a list is sent only to its own seat, and a full one only while that seat must act
                    assert seat is not None and (seat in p["waiting_for"] or p["legal_actions"] == RESIGN)
            for p in sorted(ups, key=lambda p: p["version"]):
                secret = truth.secret_ids(p["version"], seat)
                text = json.dumps(p)
                assert not [i for i in secret if f'"{i}"' in text], "an update names a hidden card"
        # the states made from updates are exactly the server's states of that seat
        assert assert_no_leak(db, game_id, ca.made + cb.made + cw.made) >= 30
    finally:
        db.close()
    assert not ca.of("error") and not cb.of("error")


@pytest.mark.slow
def test_a_real_client_that_missed_an_update_gets_a_whole_state_and_goes_on(server, updating):
    game_id, a, b = pair(server)
    let_anyone_watch(server, a, b)
    ca, cb, cw = updating(server, a), updating(server, b), updating(server, user(server, "watcher"))
    for c in (ca, cb, cw):
        c.join(game_id)
    play_some([ca, cb], game_id, 2)
    cw.wait(lambda c: c.latest(game_id)["version"] == ca.latest(game_id)["version"])
    cw.drop = 1  # the spectator's next update is lost: the one after it does not fit what it holds
    joined, before = len(cw.states(game_id)), cw.latest(game_id)["version"]
    play_some([ca, cb], game_id, 3, watching=[cw])
    final = ca.latest(game_id)["version"]
    try:
        cw.wait(lambda c: c.asked == 1 and len(c.states(game_id)) > joined and c.latest(game_id)["version"] == final)
    except AssertionError:
        print("the spectator: asked", cw.asked, "states", len(cw.states(game_id)), "joined at", joined,
              "holds", cw.latest(game_id)["version"], "final", final, "before", before,
              [(n, p.get("version"), p.get("base")) for n, p in cw.got if isinstance(p, dict)][-15:])
        raise
    resync = cw.states(game_id)[-1]
    assert resync["version"] >= before + 2 and resync["events"] == []  # a whole state, as a join answers
    play_some([ca, cb], game_id, 2)
    cw.wait(lambda c: c.latest(game_id)["version"] == ca.latest(game_id)["version"])
    assert cw.asked == 1 and cw.updates(game_id)[-1]["base"] >= resync["version"]
    fresh = cw.join(game_id)
    held = cw.latest(game_id)
    assert (held["version"], held["view"], held["legal_actions"]) == (fresh["version"], fresh["view"], [])


@pytest.mark.slow
def test_a_real_client_that_connects_again_resyncs_with_a_whole_state(server, updating):
    game_id, a, b = pair(server)
    ca, cb = updating(server, a), updating(server, b)
    ca.join(game_id), cb.join(game_id)
    play_some([ca, cb], game_id, 2)
    st = ca.latest(game_id)
    # the player not to move leaves; the other moves meanwhile
    (leaver, leaver_http, mover) = (cb, b, ca) if 0 in st["waiting_for"] else (ca, a, cb)
    seat = 1 if leaver is cb else 0
    leaver.close()
    st = mover.latest(game_id)
    mover.sio.emit("action", {"game": game_id, "action": choice(st), "version": st["version"]})
    mover.wait(lambda c: c.latest(game_id)["version"] > st["version"])
    again = updating(server, leaver_http)  # the page connects again
    state = again.join(game_id)
    assert state["version"] == mover.latest(game_id)["version"] and state["seat"] == seat
    play_some([again, mover] if seat == 0 else [mover, again], game_id, 3)
    assert again.updates(game_id) and not again.asked
    assert again.updates(game_id)[0]["base"] == state["version"]
    db = server.db()
    try:
        assert assert_no_leak(db, game_id, [state] + again.made) >= 3
    finally:
        db.close()
