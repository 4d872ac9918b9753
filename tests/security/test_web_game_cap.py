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


def test_f15_starting_and_abandoning_in_a_loop_stops_at_the_hourly_limit(instance, make_user, loaner, clock):
    """Issue 26 F15, the attack: the cap counts games in progress, so start, abandon, start again made
    stored games without end. SOLO_GAME_LIMIT new CPU games and story battles a SOLO_GAME_WINDOW per
    user; past it the start is refused with a message and nothing is stored; the window's clock is
    advanced, not waited for."""
    from tests.security.conftest import CONFIG
    app = create_app(dict(CONFIG, INSTANCE_PATH=instance, MAX_ACTIVE_GAMES=3, SOLO_GAME_LIMIT=4, SOLO_GAME_WINDOW=3600))
    try:
        alice = make_user("alice")
        client = client_of(app, alice)
        db = connect(app.config["DATABASE"])
        started = []
        for _ in range(3):
            started.append(post(client, "/play/cpu", {"deck": str(loaner)}).headers["Location"].rsplit("/", 1)[1])
            post(client, f"/play/{started[-1]}/abandon")
        assert post(client, "/story/first-muster/start", {"deck": str(loaner)}).status_code == 302  # the 4th
        count = db.execute("SELECT count(*) FROM games WHERE seat0_user_id = ?", [alice["id"]]).fetchone()[0]
        refused = post(client, "/play/cpu", {"deck": str(loaner)}, follow_redirects=True)
        assert "You started many battles in a short time: start the next one in 60 minutes." in text(refused)
        again = post(client, f"/play/{started[0]}/again", follow_redirects=True)
        assert "You started many battles in a short time" in text(again)
        story = post(client, "/story/first-muster/start", {"deck": str(loaner), "restart": "1"}, follow_redirects=True)
        assert "You started many battles in a short time" in text(story)
        assert db.execute("SELECT count(*) FROM games WHERE seat0_user_id = ?", [alice["id"]]).fetchone()[0] == count
        clock.advance(3600)
        assert post(client, "/play/cpu", {"deck": str(loaner)}).headers["Location"].startswith("/play/")
        db.close()
    finally:
        app.extensions["brigade_online"].stop()
