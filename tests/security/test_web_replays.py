"""Replays are for those who could have watched, once the game is over, and cost the server once
(issue 12, Medium). The attack on the old server: any logged-in user fetched any finished game's
replay.json by walking the sequential ids; four clients cycling replays (110 ms to build, a
32-entry cache, no budget) slowed everyone's games.

Who may see a public replay (docs/security.md): the game's players; for an online game, also their
friends (users who played an online game with either player), the people the lobby lets watch it
live. CPU and story games are their player's alone. Only finished games have replays.
"""

import pytest

from tests.security.conftest import client_of
from webapp import create_app
from webapp.game import invitations, play
from webapp.web import lobby


def finish(db, game_id, loser=1):
    row = play.load_row(db, game_id)
    play.apply(db, row, loser, {"type": "resign"}, row["version"])


def test_a_stranger_walking_the_game_ids_gets_no_replay(app, db, alice, bob, carol, loaner, started):
    cpu = play.create_cpu_game(db, alice, loaner)
    finish(db, cpu, loser=0)
    online_game = started()
    finish(db, online_game)
    stranger = client_of(app, carol, "203.0.113.7")
    for gid in range(1, online_game + 2):
        for url in (f"/games/{gid}/replay.json", f"/games/{gid}/replay"):
            assert stranger.get(url).status_code == 404
        assert stranger.get(f"/play/{gid}/replay.json").status_code in (403, 404)
    # The players get theirs.
    assert client_of(app, alice).get(f"/games/{online_game}/replay.json").status_code == 200
    assert client_of(app, bob).get(f"/games/{online_game}/replay.json").status_code == 200
    assert client_of(app, alice).get(f"/games/{cpu}/replay.json").status_code == 200


def test_friends_may_replay_an_online_game_but_never_a_cpu_game(app, db, alice, bob, carol, loaner, started):
    game_id = started()          # alice vs bob
    cpu = play.create_cpu_game(db, bob, loaner)
    finish(db, cpu, loser=0)
    _, code = invitations.create_invitation(db, carol, loaner, 60_000)
    invitations.join(db, code, bob, loaner)  # carol and bob have played: friends
    friend = client_of(app, carol)
    assert friend.get(f"/games/{game_id}/replay.json").status_code == 409  # not over yet
    finish(db, game_id)
    assert friend.get(f"/games/{game_id}/replay.json").status_code == 200
    assert friend.get(f"/games/{cpu}/replay.json").status_code == 404
    assert friend.get(f"/play/{game_id}/replay.json").status_code == 403  # setup and seed: players only


def test_a_replay_is_built_once_per_game_and_version(app, db, alice, bob, started):
    game_id = started()
    finish(db, game_id)
    client = client_of(app, alice)
    builds = lobby.REPLAYS.builds
    first = client.get(f"/games/{game_id}/replay.json")
    for _ in range(5):
        again = client.get(f"/games/{game_id}/replay.json")
        assert again.get_data() == first.get_data()
    client_of(app, bob).get(f"/games/{game_id}/replay.json")
    assert lobby.REPLAYS.builds == builds + 1


def test_the_replay_cache_holds_a_bounded_number_of_bytes():
    cache = lobby.ReplayCache(size=100, max_bytes=1000)
    for n in range(50):
        cache.get(("db", n, 1), lambda: b"x" * 300)
    assert sum(map(len, cache.entries.values())) <= 1000 and len(cache.entries) == 3


@pytest.fixture
def tight_app(tmp_path):
    from tests.security.conftest import CONFIG
    app = create_app(dict(CONFIG, INSTANCE_PATH=tmp_path / "instance", REPLAY_LIMIT=3, REPLAY_WINDOW=60))
    yield app
    app.extensions["brigade_online"].stop()


def test_each_user_has_a_replay_budget(tight_app, make_user, loaner):
    from webapp.store import connect
    db = connect(tight_app.config["DATABASE"])
    alice, bob = make_user("alice"), make_user("bob")
    _, code = invitations.create_invitation(db, alice, loaner, 60_000)
    game_id = invitations.join(db, code, bob, loaner)["id"]
    finish(db, game_id)
    greedy = client_of(tight_app, alice)
    for _ in range(3):
        assert greedy.get(f"/games/{game_id}/replay.json").status_code == 200
    for url in (f"/games/{game_id}/replay.json", f"/play/{game_id}/replay.json"):
        refused = greedy.get(url)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert "Try again in" in refused.get_json()["error"]
    # Someone else's budget is their own.
    assert client_of(tight_app, bob).get(f"/games/{game_id}/replay.json").status_code == 200
    db.close()
