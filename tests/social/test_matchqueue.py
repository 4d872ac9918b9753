"""The ladder's "play anyone who is online" queue: pairs by rating (the gap widening with the wait),
passes over players who went offline or blocked each other, starts a rated game, tells the one who waited."""

import pytest

from tests.online.helpers import events, got
from webapp.social import friends, matchqueue, ratings
from webapp.store import social as store_social

CLOCK = 10 * 60_000


@pytest.fixture
def runtime(app):
    return app.extensions["brigade_online"]


def rate(db, user, value, game_id):
    store_social.put_rating(db, user["id"], game_id, value, 60.0, 0.06)


def test_two_online_players_near_in_rating_are_paired_into_a_rated_game(app, db, runtime, alice, bob, loaner,
                                                                        connect_as):
    a_sock = connect_as(alice)
    connect_as(bob)
    got(a_sock)
    assert matchqueue.join(db, runtime, alice, loaner, CLOCK, app.config) == ("waiting", None)
    outcome, row = matchqueue.join(db, runtime, bob, loaner, CLOCK, app.config)
    assert outcome == "matched" and row["status"] == "active"
    assert row["seats"] == [alice["id"], bob["id"]] and ratings.is_rated(row) and row["setup"]["clock_ms"] == CLOCK
    assert events(got(a_sock), "matched") == [{"game": row["id"], "url": f"/play/{row['id']}"}]
    assert store_social.queue_entries(db) == []


def test_far_ratings_wait_until_the_gap_has_widened(app, db, runtime, alice, bob, loaner, connect_as, clock, started):
    game_id = started()
    rate(db, alice, 1900.0, game_id)
    connect_as(alice), connect_as(bob)
    matchqueue.join(db, runtime, alice, loaner, CLOCK, app.config)
    assert matchqueue.join(db, runtime, bob, loaner, CLOCK, app.config)[0] == "waiting"  # 400 apart
    assert {e["user_id"] for e in store_social.queue_entries(db)} == {alice["id"], bob["id"]}
    clock.advance((400 - matchqueue.BASE_GAP) / matchqueue.GAP_PER_SECOND + 1)
    matchqueue.leave(db, bob["id"])
    assert matchqueue.join(db, runtime, bob, loaner, CLOCK, app.config)[0] == "matched"


def test_a_player_who_went_offline_or_blocked_is_passed_over(app, db, runtime, alice, bob, carol, loaner, connect_as):
    a_sock = connect_as(alice)
    connect_as(bob), connect_as(carol)
    matchqueue.join(db, runtime, alice, loaner, CLOCK, app.config)
    friends.block(db, alice["id"], bob["id"])
    assert matchqueue.join(db, runtime, bob, loaner, CLOCK, app.config)[0] == "waiting"
    matchqueue.leave(db, bob["id"])
    a_sock.disconnect()
    assert matchqueue.join(db, runtime, carol, loaner, CLOCK, app.config)[0] == "waiting"  # alice is gone
    assert {e["user_id"] for e in store_social.queue_entries(db)} == {alice["id"], carol["id"]}


def test_a_place_in_the_queue_lapses(app, db, runtime, alice, bob, loaner, connect_as, clock):
    connect_as(alice), connect_as(bob)
    matchqueue.join(db, runtime, alice, loaner, CLOCK, app.config)
    clock.advance(app.config["QUEUE_SECONDS"] + 1)
    assert matchqueue.join(db, runtime, bob, loaner, CLOCK, app.config)[0] == "waiting"
