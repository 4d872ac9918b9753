"""The difficulty chosen on the page is the CPU that plays, and a Hard CPU game goes on with its worker pool."""

import re

import pytest

from tests.web.conftest import log_in
from webapp.game import cpumoves, cpuseats, play
from webapp.ai import workers
from webapp.store import load_game


@pytest.fixture(autouse=True)
def fresh_pool():
    workers.shutdown()
    yield
    workers.shutdown()


def start(app, user, loaner, **fields):
    client = app.test_client()
    token = log_in(client, user)
    answer = client.post("/play/cpu", data={"deck": str(loaner), "csrf_token": token, **fields})
    assert answer.status_code == 302
    m = re.search(r"/play/(\d+)$", answer.headers["Location"])
    return client, (int(m.group(1)) if m else None)


def test_the_page_offers_the_three_levels_normal_first(app, alice, loaner):
    client = app.test_client()
    log_in(client, alice)
    page = client.get("/play").get_data(as_text=True)
    assert re.findall(r'<input type="radio" name="difficulty" value="(\w+)"', page) == ["easy", "normal", "hard"]
    assert re.findall(r'name="difficulty" value="(\w+)" checked', page) == ["normal"]
    for line in ("Slips now and then.", "Plays by rules of thumb.", "Thinks ahead before each move."):
        assert line in page  # each level says how it plays
    # /play?difficulty=hard (a link that names a level) checks that one instead
    page = client.get("/play?difficulty=hard").get_data(as_text=True)
    assert re.findall(r'name="difficulty" value="(\w+)" checked', page) == ["hard"]


@pytest.mark.parametrize("difficulty, player", [("easy", "easy"), ("normal", "baseline"), ("hard", "hard")])
def test_the_difficulty_chosen_is_the_cpu_stored_for_the_game(app, db, alice, loaner, difficulty, player):
    _, game_id = start(app, alice, loaner, difficulty=difficulty)
    seat = load_game(db, game_id)["setup"]["seats"][1]
    assert seat["cpu"] == player
    assert ("seconds" in seat) == (player == "hard")
    assert cpuseats.cpu_difficulty(load_game(db, game_id)) == difficulty


def test_no_difficulty_is_the_baseline_and_a_wrong_one_is_refused(app, db, alice, loaner):
    _, game_id = start(app, alice, loaner)
    assert load_game(db, game_id)["setup"]["seats"][1] == {"cpu": "baseline"}
    client, game_id = start(app, alice, loaner, difficulty="brutal")
    assert game_id is None
    assert "Choose a difficulty" in client.get("/play").get_data(as_text=True)


def test_the_hosts_thinking_time_is_kept_in_the_setup(app, db, alice, loaner):
    app.config["CPU_HARD_SECONDS"] = 0.05
    _, game_id = start(app, alice, loaner, difficulty="hard")
    assert load_game(db, game_id)["setup"]["seats"][1] == {"cpu": "hard", "seconds": 0.05}


def test_a_hard_game_is_played_by_the_search_in_a_worker(app, db, alice, loaner, monkeypatch):
    """The CPU's moves in a Hard game come from the worker pool (with its win estimate), and the
    rematch keeps the level."""
    app.config["CPU_HARD_SECONDS"] = 0.05
    client, game_id = start(app, alice, loaner, difficulty="hard")
    seen = []
    real = workers.think

    def spy(game, player, name, seed=None, seconds=None, owner=None):
        t = real(game, player, name, seed, seconds, owner=owner)
        seen.append((name, seconds, t))
        assert owner == ("user", alice["id"])  # the game's person takes the turn in the pool's line
        return t

    monkeypatch.setattr(workers, "think", spy)
    row, game = play.load(db, game_id)
    legal = [a for a in game.legal_actions(0) if a["type"] == "choose_leaders"]
    play.act(db, game_id, alice["id"], legal[0], row["version"])
    played = cpumoves.cpu_turns(db, game_id, limit=3)
    assert played and seen and all(name == "hard" and seconds == 0.05 for name, seconds, _t in seen)
    assert any(t.win is not None and not t.fallback for _n, _s, t in seen)
    play.abandon(db, game_id, alice["id"])
    token = log_in(client, alice)
    again = client.post(f"/play/{game_id}/again", data={"csrf_token": token})
    new_id = int(re.search(r"/play/(\d+)$", again.headers["Location"]).group(1))
    assert load_game(db, new_id)["setup"]["seats"][1]["cpu"] == "hard"


def test_the_hint_suggests_a_legal_move_for_the_players_seat_only_in_solo_games(app, db, alice, loaner,
                                                                                 make_user):
    app.config["CPU_HARD_SECONDS"] = 0.05
    _, game_id = start(app, alice, loaner, difficulty="normal")
    hint = cpumoves.hint(db, game_id, alice["id"], seconds=0.05)
    _, game = play.load(db, game_id)
    assert hint["action"]["type"] == "choose_leaders" and game.is_legal(0, hint["action"])
    assert hint["sentence"].startswith("Choose ") and "as your leaders" in hint["sentence"]
    assert not re.search(r"p[01]c\d+", hint["sentence"])
    row, _ = play.load(db, game_id)
    play.act(db, game_id, alice["id"], hint["action"], row["version"])
    with pytest.raises(play.Illegal, match="not your move"):  # the CPU's leader choice is next
        cpumoves.hint(db, game_id, alice["id"])
    stranger = make_user("carol")
    with pytest.raises(play.Forbidden):
        cpumoves.hint(db, game_id, stranger["id"])
    db.execute("UPDATE games SET mode = 'online' WHERE id = ?", [game_id])
    db.commit()
    with pytest.raises(play.Forbidden, match="not between people"):
        cpumoves.hint(db, game_id, alice["id"])
