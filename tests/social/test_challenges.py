"""Challenges between friends through the real socket handlers (Flask-SocketIO's test client): the
live notice, accept starting the online game, decline; and the attacks: spam, strangers, blocked
users, an offline friend, someone else's challenge, a late or repeated accept."""

import pytest

from tests.online.helpers import events, got
from tests.web.conftest import post
from webapp.game import online, play
from webapp.social import challenges, friends
from webapp.store import social as store_social

CLOCK = 5 * 60_000


@pytest.fixture
def runtime(app):
    return app.extensions["brigade_online"]


@pytest.fixture
def pair(app, alice, bob, befriend, connect_as):
    """alice and bob are friends, each with an open socket (both online)."""
    befriend(alice, bob)
    sockets = connect_as(alice), connect_as(bob)
    for s in sockets:
        got(s)
    return sockets


def send(db, runtime, user, to, loaner, **kw):
    return challenges.send(db, runtime.notifier, user, to["id"], loaner, CLOCK, config=runtime.app.config, **kw)


def test_a_challenge_reaches_the_friend_live_and_accepting_starts_the_game(app, db, runtime, alice, bob, carol,
                                                                          loaner, pair, connect_as):
    a_sock, b_sock = pair
    c_sock = connect_as(carol)
    got(c_sock)
    challenge_id = send(db, runtime, alice, bob, loaner, rated=True)
    notice = events(got(b_sock), "challenge")
    assert notice == [{"challenge": challenge_id, "status": "open", "from": "alice", "to": "bob", "clock_minutes": 5.0,
                       "rated": True, "expires_in_ms": 120_000, "url": None}]
    assert events(got(c_sock), "challenge") == []  # nobody else hears of it
    assert [c["id"] for c in challenges.open_ones(db, bob["id"])["to_me"]] == [challenge_id]  # the lobby's entry

    row = challenges.accept(db, runtime, bob, challenge_id, loaner, rated=True, config=app.config)
    assert row["status"] == "active" and row["seats"] == [alice["id"], bob["id"]]
    assert row["setup"]["clock_ms"] == CLOCK and row["setup"]["rated"] == [True, True]
    for sock in (a_sock, b_sock):
        answer = events(got(sock), "challenge")
        assert answer[-1]["status"] == "accepted" and answer[-1]["url"] == f"/play/{row['id']}"
    assert challenges.open_ones(db, bob["id"])["to_me"] == []
    with pytest.raises(play.Illegal):  # a second accept (another tab) starts no second game
        challenges.accept(db, runtime, bob, challenge_id, loaner, config=app.config)


def test_a_declined_challenge_tells_the_challenger(app, db, runtime, alice, bob, loaner, pair):
    a_sock, _ = pair
    challenge_id = send(db, runtime, alice, bob, loaner)
    challenges.decline(db, runtime, bob, challenge_id)
    assert events(got(a_sock), "challenge")[-1]["status"] == "declined"
    with pytest.raises(play.Illegal):
        challenges.accept(db, runtime, bob, challenge_id, loaner, config=app.config)


def test_attack_a_stranger_or_a_blocked_friend_cannot_challenge(app, db, runtime, alice, bob, carol, loaner, pair,
                                                                connect_as):
    _, b_sock = pair
    c_sock = connect_as(carol)
    with pytest.raises(play.Forbidden):
        send(db, runtime, carol, bob, loaner)  # not friends
    friends.block(db, bob["id"], alice["id"])
    with pytest.raises(play.Forbidden):
        send(db, runtime, alice, bob, loaner)
    assert events(got(b_sock), "challenge") == [] and events(got(c_sock), "challenge") == []


def test_attack_a_block_voids_the_open_challenge(app, db, runtime, alice, bob, loaner, pair):
    challenge_id = send(db, runtime, alice, bob, loaner)
    friends.block(db, bob["id"], alice["id"])
    assert challenges.open_ones(db, bob["id"])["to_me"] == []
    with pytest.raises(play.PlayError):
        challenges.accept(db, runtime, bob, challenge_id, loaner, config=app.config)


def test_an_offline_friend_cannot_be_challenged(app, db, runtime, alice, bob, loaner, befriend):
    befriend(alice, bob)
    with pytest.raises(play.Illegal, match="not free to play"):
        send(db, runtime, alice, bob, loaner)


def test_attack_challenge_spam_hits_the_limits(app, db, runtime, alice, bob, loaner, pair, make_user, befriend,
                                               connect_as, clock):
    """One open challenge per friend; CHALLENGE_MAX_OPEN open at once; CHALLENGE_LIMIT per window."""
    send(db, runtime, alice, bob, loaner)
    with pytest.raises(online.RateLimited):
        send(db, runtime, alice, bob, loaner)
    others = [make_user(f"friend{i}") for i in range(12)]
    for other in others:
        befriend(alice, other)
        connect_as(other)
    for other in others[:app.config["CHALLENGE_MAX_OPEN"] - 1]:
        send(db, runtime, alice, other, loaner)
    with pytest.raises(online.RateLimited):
        send(db, runtime, alice, others[5], loaner)
    sent, batch = store_social.count_challenges_since(db, alice["id"], 0), app.config["CHALLENGE_MAX_OPEN"]
    targets = iter(others * 2)
    while sent < app.config["CHALLENGE_LIMIT"]:  # the open ones expire; the window still counts them
        clock.advance(app.config["CHALLENGE_SECONDS"] + 1)
        for _ in range(min(batch, app.config["CHALLENGE_LIMIT"] - sent)):
            send(db, runtime, alice, next(targets), loaner)
            sent += 1
    clock.advance(app.config["CHALLENGE_SECONDS"] + 1)
    with pytest.raises(online.RateLimited, match="many challenges"):
        send(db, runtime, alice, others[0], loaner)
    assert store_social.count_challenges_since(db, alice["id"], 0) == app.config["CHALLENGE_LIMIT"]


def test_a_challenge_expires(app, db, runtime, alice, bob, loaner, pair, clock):
    challenge_id = send(db, runtime, alice, bob, loaner)
    clock.advance(app.config["CHALLENGE_SECONDS"] + 1)
    assert challenges.open_ones(db, bob["id"])["to_me"] == []
    with pytest.raises(play.Illegal, match="no longer open"):
        challenges.accept(db, runtime, bob, challenge_id, loaner, config=app.config)


def test_attack_someone_elses_challenge_reads_as_none(app, db, runtime, alice, bob, carol, loaner, pair):
    challenge_id = send(db, runtime, alice, bob, loaner)
    for fn in (lambda: challenges.accept(db, runtime, carol, challenge_id, loaner, config=app.config),
               lambda: challenges.decline(db, runtime, carol, challenge_id),
               lambda: challenges.cancel(db, runtime, bob, challenge_id)):  # only its sender withdraws it
        with pytest.raises(play.NotFound) as refused:
            fn()
        assert refused.value.message == "There is no such challenge."
    with pytest.raises(play.NotFound) as missing:
        challenges.decline(db, runtime, carol, challenge_id + 999)
    assert missing.value.message == "There is no such challenge."


def test_the_pages_challenge_and_accept(app, db, alice, bob, loaner, pair, client_of):
    a_sock, b_sock = pair
    answer = post(client_of(alice), "/friends/bob/challenge", {"deck": str(loaner), "clock": "5", "rated": "1"})
    assert answer.status_code == 302
    challenge_id = events(got(b_sock), "challenge")[0]["challenge"]
    page = client_of(bob).get("/lobby").get_data(as_text=True)
    assert "alice challenges you" in page
    answer = post(client_of(bob), f"/challenges/{challenge_id}/accept", {"deck": str(loaner), "rated": "1"})
    assert answer.status_code == 302 and answer.headers["Location"].startswith("/play/")
    assert events(got(a_sock), "challenge")[-1]["status"] == "accepted"
