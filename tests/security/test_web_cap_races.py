"""Issue 26 N3, written as the attack: the caps on games alone and on open invitations were checked
before the transaction that creates the game, so parallel requests (the threading server runs them
at once) passed them (11 CPU games of 5, 22 invitations of 10); and "Rematch" (`POST /play/<id>/again`)
skipped the cap altogether and worked on a game still in progress (36 active games of 5). Each cap is
now checked inside the write transaction that stores the game."""

import threading

import pytest

from tests.security.conftest import client_of, post, text
from webapp import create_app
from webapp.game import play
from webapp.store import connect
from webapp.store import online as store_online

CAP = 3
THREADS = 10


@pytest.fixture
def app(instance):
    from tests.security.conftest import CONFIG
    app = create_app(dict(CONFIG, INSTANCE_PATH=instance, MAX_ACTIVE_GAMES=CAP, ONLINE_MAX_INVITATIONS=CAP))
    yield app
    app.extensions["brigade_online"].stop()


def count(app, how, user_id):
    db = connect(app.config["DATABASE"])
    try:
        return how(db, user_id)
    finally:
        db.close()


def at_once(app, user, url, data):
    """``THREADS`` logged-in clients of ``user`` post ``url`` together (a barrier lets them go at
    once); their status codes."""
    clients = [client_of(app, user) for _ in range(THREADS)]
    go = threading.Barrier(THREADS)
    codes = []

    def send(client):
        go.wait()
        codes.append(post(client, url, data).status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return codes


def test_n3_parallel_cpu_games_stop_at_the_cap(app, make_user, loaner):
    alice = make_user("alice")
    codes = at_once(app, alice, "/play/cpu", {"deck": str(loaner)})
    assert len(codes) == THREADS and set(codes) == {302}  # every refusal is a redirect with a message
    assert count(app, play.active_solo_games, alice["id"]) == CAP


def test_n3_parallel_invitations_stop_at_the_cap(app, make_user, loaner):
    alice = make_user("alice")
    codes = at_once(app, alice, "/lobby/invite", {"deck": str(loaner), "clock": "10"})
    assert len(codes) == THREADS and set(codes) == {302}
    assert count(app, store_online.count_open_invitations, alice["id"]) == CAP


def test_n3_rematch_needs_a_finished_game_and_keeps_the_cap(app, make_user, loaner, db):
    alice = make_user("alice")
    client = client_of(app, alice)
    first = play.create_cpu_game(db, alice, loaner)
    refused = post(client, f"/play/{first}/again")
    assert refused.status_code == 409 and "still being played" in text(refused)
    assert count(app, play.active_solo_games, alice["id"]) == 1
    for _ in range(CAP - 1):
        play.create_cpu_game(db, alice, loaner)
    play.act(db, first, alice["id"], {"type": "resign"}, play.load_row(db, first)["version"])
    assert count(app, play.active_solo_games, alice["id"]) == CAP - 1
    again = post(client, f"/play/{first}/again")  # one place is free: the rematch takes it
    assert again.status_code == 302 and "/play/" in again.headers["Location"]
    assert count(app, play.active_solo_games, alice["id"]) == CAP
    over = post(client, f"/play/{first}/again", follow_redirects=True)
    assert "You have 3 battles against the CPU in progress" in text(over)
    assert count(app, play.active_solo_games, alice["id"]) == CAP


def test_n3_parallel_rematches_stop_at_the_cap(app, make_user, loaner, db):
    alice = make_user("alice")
    first = play.create_cpu_game(db, alice, loaner)
    play.act(db, first, alice["id"], {"type": "resign"}, play.load_row(db, first)["version"])
    at_once(app, alice, f"/play/{first}/again", {})
    assert count(app, play.active_solo_games, alice["id"]) == CAP


def test_n3_the_service_checks_the_cap_in_its_own_transaction(app, make_user, loaner):
    """Below the web: threads with their own connections to the one file call create_cpu_game."""
    alice = make_user("alice")
    path = app.config["DATABASE"]
    go = threading.Barrier(THREADS)
    refused = []

    def create():
        db = connect(path)
        try:
            go.wait()
            play.create_cpu_game(db, alice, loaner, limit=CAP)
        except play.Forbidden:
            refused.append(1)
        finally:
            db.close()

    threads = [threading.Thread(target=create) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert count(app, play.active_solo_games, alice["id"]) == CAP and len(refused) == THREADS - CAP
