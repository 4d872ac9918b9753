"""A cap on games against the CPU and story battles in progress per user (issue 12, Low). The
attack on the old server: 200 CPU games in 10 s, all "active" for ever."""

import pytest

from tests.security.conftest import client_of, post, text
from webapp import create_app
from webapp.game import play
from webapp.store import connect


@pytest.fixture
def app(instance):
    from tests.security.conftest import CONFIG
    app = create_app(dict(CONFIG, INSTANCE_PATH=instance, MAX_ACTIVE_GAMES=3))
    yield app
    app.extensions["brigade_online"].stop()


def active(app, user_id):
    db = connect(app.config["DATABASE"])
    try:
        return play.active_solo_games(db, user_id)
    finally:
        db.close()


def test_starting_cpu_games_stops_at_the_cap_with_a_clear_message(app, make_user, loaner):
    alice = make_user("alice")
    client = client_of(app, alice)
    for _ in range(10):
        post(client, "/play/cpu", {"deck": str(loaner)})
    assert active(app, alice["id"]) == 3
    refused = post(client, "/play/cpu", {"deck": str(loaner)}, follow_redirects=True)
    assert "You have 3 battles against the CPU in progress" in text(refused) and "resign" in text(refused)
    # Another user's games are their own.
    bob = make_user("bob")
    post(client_of(app, bob), "/play/cpu", {"deck": str(loaner)})
    assert active(app, bob["id"]) == 1


def test_story_battles_count_and_starting_a_chapter_over_is_allowed(app, make_user, loaner, db):
    alice = make_user("alice")
    client = client_of(app, alice)
    post(client, "/story/first-muster/start", {"deck": str(loaner)})
    assert active(app, alice["id"]) == 1
    for _ in range(2):
        play.create_cpu_game(db, alice, loaner)
    assert active(app, alice["id"]) == 3
    over = post(client, "/story/first-muster/start", {"deck": str(loaner), "restart": "1"})  # replaces the chapter's battle
    assert over.status_code == 302 and "/play/" in over.headers["Location"]
    assert active(app, alice["id"]) == 3
    post(client, "/play/cpu", {"deck": str(loaner)})
    assert active(app, alice["id"]) == 3
