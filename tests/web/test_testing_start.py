"""The testing-only start path (webapp/web/testing.py): a CPU, story or online game at a position.

It exists only when TESTING is on; bad data gets a clear 400 and writes nothing; the game it stores
starts at the position, is rebuilt from its setup like a story chapter's, and is seeded."""

import pytest

from webapp import create_app, store
from webapp.engine import Game, load_pool
from webapp.game import cpuseats, invitations, play, storychapters
from webapp.game.replay import new_game
from webapp.store import connect
from tests.web.conftest import log_in

POSITION = {
    "round": 3, "active": 0, "first": 0,
    "lands": {"L1": "road", "L2": "road", "L3": "rearworld", "L4": "road", "L5": "swamp", "L6": "rearworld"},
    "players": [
        {"hand": ["orc", "fireball"],
         "units": [{"card": "orc-lord", "land": "H0", "leader": True}, {"card": "blaze-knight", "land": "L2"}]},
        {"hand": ["orc"], "units": [{"card": "orc-shaman", "land": "H1", "leader": True}]}],
}


def start(client, token, **body):
    return client.post("/testing/start", json=body, headers={"X-CSRF-Token": token})


def games(app):
    db = connect(app.config["DATABASE"])
    try:
        return [dict(r) for r in db.query("SELECT id, mode, seed, setup FROM games ORDER BY id")]
    finally:
        db.conn.close()


def row_of(app, game_id):
    db = connect(app.config["DATABASE"])
    try:
        return play.load_row(db, game_id)
    finally:
        db.conn.close()


def test_a_normal_server_has_no_testing_path(tmp_path, seeded_database, make_user):
    import shutil
    folder = tmp_path / "plain"
    folder.mkdir()
    shutil.copyfile(seeded_database, folder / "brigade.db")
    app = create_app({"INSTANCE_PATH": folder})  # TESTING off: a host's server
    assert not app.testing
    client = app.test_client()
    db = connect(app.config["DATABASE"])
    user = store.users.create_user(db, "carol", "x")
    db.conn.close()
    token = log_in(client, user)
    assert start(client, token, mode="cpu", scenario=POSITION).status_code == 404
    assert client.get("/testing/start").status_code == 404
    assert games(app) == []
    assert "testing" not in app.blueprints


def test_a_cpu_game_starts_at_the_position_with_a_seeded_cpu(app, client, alice):
    token = log_in(client, alice)
    r = start(client, token, mode="cpu", scenario=POSITION, seed=11, cpu="random")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["url"] == f"/play/{body['game']}"
    row = row_of(app, body["game"])
    assert row["mode"] == "cpu" and row["seed"] == 11 and row["seats"][0] == alice["id"]
    assert row["setup"]["seats"][1] == {"cpu": "random"}
    game = Game.from_json(row["state"])
    assert game.state.round == 3 and game.waiting_for() == {0}
    hand = sorted(game.view(0)["players"][0]["hand"], key=lambda c: c["card"])
    assert [c["card"] for c in hand] == ["fireball", "orc"]
    # the loaner's other 26 cards are the draw pile; the setup rebuilds this very game
    assert game.view(0)["players"][0]["deck_count"] == 30 - 4
    assert new_game(row["setup"]).to_json() == game.to_json()
    # seeded: the same call stores the same start
    again = row_of(app, start(client, token, mode="cpu", scenario=POSITION, seed=11, cpu="random").get_json()["game"])
    assert again["state"] == row["state"]
    assert client.get(body["url"]).status_code == 200  # the board page opens


def test_a_story_game_plays_the_chapter_from_the_position(app, client, alice):
    token = log_in(client, alice)
    ch = storychapters.chapters()[0]
    pool = load_pool()
    leader = next(c for c in ch.deck.card_ids() if pool[c].kind == "monster")
    scenario = {"round": 2, "players": [
        {"hand": ["orc"], "units": [{"card": "orc-lord", "land": "H0", "leader": True}]},
        {"units": [{"card": leader, "land": "H1", "leader": True}]}]}
    r = start(client, token, mode="story", chapter=ch.id, scenario=scenario, seed=3)
    assert r.status_code == 200, r.get_json()
    row = row_of(app, r.get_json()["game"])
    assert row["mode"] == "story" and row["setup"]["story"] == ch.id
    assert row["setup"]["seats"][1]["cpu"] == cpuseats.cpu_seat(None, ch.difficulty)["cpu"]


def test_without_a_position_the_pages_game_is_dealt_from_the_seed(app, client, alice):
    token = log_in(client, alice)
    rows = [row_of(app, start(client, token, mode=mode, chapter=chapter, seed=9).get_json()["game"])
            for mode, chapter in (("story", "first-muster"), ("story", "first-muster"), ("cpu", None))]
    assert rows[0]["state"] == rows[1]["state"] and rows[0]["seed"] == 9  # the same deal twice
    assert rows[0]["setup"]["story"] == "first-muster" and "scenario" not in rows[0]["setup"]
    assert rows[2]["mode"] == "cpu" and rows[2]["seed"] == 9 and rows[2]["setup"]["seats"][1] == {"cpu": "baseline"}
    locked = start(client, token, mode="story", chapter="river-crossing", seed=9)
    assert locked.status_code == 400 and "locked" in locked.get_json()["error"]


def test_chapters_cleared_before_open_a_later_one(app, client, alice):
    """``cleared``: the chapters marked cleared for the user in the game's own transaction, so a test
    starts chapter 2 without playing chapter 1."""
    token = log_in(client, alice)
    r = start(client, token, mode="story", chapter="river-crossing", cleared=["first-muster"], seed=9)
    assert r.status_code == 200, r.get_json()
    assert row_of(app, r.get_json()["game"])["setup"]["story"] == "river-crossing"
    db = connect(app.config["DATABASE"])
    try:
        assert store.get_progress(db, alice["id"])["first-muster"]["cleared"]
    finally:
        db.conn.close()


def test_an_online_game_seats_two_accounts_with_clocks(app, client, alice, bob):
    token = log_in(client, alice)
    r = start(client, token, mode="online", opponent="bob", scenario=POSITION, seed=5, clock_ms=120_000)
    assert r.status_code == 200, r.get_json()
    game_id = r.get_json()["game"]
    row = row_of(app, game_id)
    assert row["mode"] == "online" and row["status"] == "active" and row["seats"] == [alice["id"], bob["id"]]
    db = connect(app.config["DATABASE"])
    try:
        info = invitations.info(db, game_id)
    finally:
        db.conn.close()
    assert info["clock"]["limit_ms"] == 120_000 and info["clock"]["from"][0] is not None


@pytest.mark.parametrize("body, words", [
    ({"mode": "cpu", "scenario": {"players": "none"}}, "not a legal position"),
    ({"mode": "cpu", "scenario": dict(POSITION, colour="red")}, "not a legal position"),
    ({"mode": "cpu", "scenario": {**POSITION, "players": [{"hand": ["no-such-card"], "units": []}, {}]}},
     "not a legal position"),
    ({"mode": "cpu", "scenario": [1, 2]}, "JSON object"),
    ({"mode": "online", "opponent": "bob"}, "JSON object"),
    ({"mode": "chess", "scenario": POSITION}, "mode"),
    ({"mode": "cpu", "scenario": POSITION, "seed": -1}, "seed"),
    ({"mode": "cpu", "scenario": POSITION, "cpu": "deep-blue"}, "no CPU player"),
    ({"mode": "cpu", "scenario": POSITION, "colour": "red"}, "unknown field"),
    ({"mode": "story", "scenario": POSITION, "chapter": "no-such-chapter"}, "no such story chapter"),
    ({"mode": "online", "scenario": POSITION, "opponent": "nobody"}, "opponent"),
    ({"mode": "online", "scenario": POSITION, "opponent": "alice"}, "two different players"),
    ({"mode": "online", "scenario": POSITION, "opponent": "bob", "clock_ms": 0}, "clock"),
    ({"mode": "cpu", "scenario": POSITION, "opponent": "bob"}, "online games"),
    ({"mode": "cpu", "scenario": POSITION, "cleared": ["first-muster"]}, "story games"),
    ({"mode": "story", "chapter": "river-crossing", "cleared": ["no-such-chapter"]}, "chapter ids"),
    ({"mode": "story", "chapter": "river-crossing", "cleared": "first-muster"}, "chapter ids"),
    ({"mode": "story", "chapter": "river-crossing", "cleared": ["first-muster"], "seed": -1}, "seed"),
])
def test_bad_data_gets_a_clear_400_and_changes_nothing(app, client, alice, bob, body, words):
    token = log_in(client, alice)
    before = games(app)
    r = start(client, token, **body)
    assert r.status_code == 400
    assert words in r.get_json()["error"]
    assert games(app) == before
    db = connect(app.config["DATABASE"])
    try:
        assert store.get_progress(db, alice["id"]) == {}  # no chapter marked cleared either
    finally:
        db.conn.close()


def test_the_path_needs_a_logged_in_user_and_the_csrf_token(app, client, alice):
    assert start(client, "", mode="cpu", scenario=POSITION).status_code in (302, 400)
    log_in(client, alice)
    assert start(client, "wrong", mode="cpu", scenario=POSITION).status_code == 400
    assert games(app) == []
