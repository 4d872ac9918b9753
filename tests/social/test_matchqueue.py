"""The ladder's "play anyone who is online" queue: pairs by rating (the gap widening with the wait, and
looked at again as time passes by the hub's queue ticker), passes over players who went offline or
blocked each other, starts a rated game, tells the ones who waited; its pages' routes."""

import pytest

from tests.online.helpers import events, got, wait_until
from tests.web.conftest import post
from webapp.game import play
from webapp.social import friends, matchqueue, ratings
from webapp.store import social as store_social
from webapp.store.collection import add_cards
from webapp.store.decks import get_loaner, save_deck

CLOCK = 10 * 60_000
FAR = (400 - matchqueue.BASE_GAP) / matchqueue.GAP_PER_SECOND  # seconds until 400 points apart are close enough


@pytest.fixture
def woken(app, monkeypatch):
    """The times the hub was asked to watch the queue; its ticker does not run (the tests sweep)."""
    calls = []
    monkeypatch.setattr(app.extensions["brigade_online"].notifier.queue_ticker, "watch", lambda: calls.append(1))
    return calls


@pytest.fixture
def runtime(app, woken):
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
    clock.advance(FAR + 1)
    matchqueue.leave(db, bob["id"])
    assert matchqueue.join(db, runtime, bob, loaner, CLOCK, app.config)[0] == "matched"


def waiting_far_apart(app, db, runtime, alice, bob, loaner, connect_as, started):
    """alice (1900) and bob (1500) both online and waiting, 400 points apart: (alice's socket, bob's)."""
    rate(db, alice, 1900.0, started())
    socks = connect_as(alice), connect_as(bob)
    for user in (alice, bob):
        assert matchqueue.join(db, runtime, user, loaner, CLOCK, app.config) == ("waiting", None)
    for sock in socks:
        got(sock)
    return socks


def test_two_waiting_players_are_paired_as_the_wait_widens_the_gap_with_nobody_joining(
        app, db, runtime, woken, alice, bob, loaner, connect_as, clock, started):
    a_sock, b_sock = waiting_far_apart(app, db, runtime, alice, bob, loaner, connect_as, started)
    assert woken == [1, 1]  # each wait asked for the queue's ticker
    assert matchqueue.sweep(db, runtime, app.config) == []  # too far apart yet
    clock.advance(FAR - 1)
    assert matchqueue.sweep(db, runtime, app.config) == []
    clock.advance(2)
    [row] = matchqueue.sweep(db, runtime, app.config)
    assert row["status"] == "active" and row["seats"] == [alice["id"], bob["id"]] and ratings.is_rated(row)
    assert store_social.queue_entries(db) == []
    for sock in (a_sock, b_sock):  # both waited: both are told
        assert events(got(sock), "matched") == [{"game": row["id"], "url": f"/play/{row['id']}"}]
    assert matchqueue.sweep(db, runtime, app.config) == []  # never paired twice


def test_the_sweep_passes_over_blocked_and_offline_players_and_drops_lapsed_places_and_gone_decks(
        app, db, runtime, alice, bob, carol, loaner, connect_as, clock, started):
    a_sock, _ = waiting_far_apart(app, db, runtime, alice, bob, loaner, connect_as, started)
    friends.block(db, bob["id"], alice["id"])
    clock.advance(FAR + 1)
    assert matchqueue.sweep(db, runtime, app.config) == []  # blocked, either way
    friends.unblock(db, bob["id"], alice["id"])
    a_sock.disconnect()
    assert matchqueue.sweep(db, runtime, app.config) == []  # alice is away: her place is kept
    assert len(store_social.queue_entries(db)) == 2
    cards = get_loaner(db, "princes-brigade")["cards"]
    add_cards(db, carol["id"], cards)
    deck = save_deck(db, carol["id"], "Carol's", cards)
    rate(db, carol, 1000.0, started())  # 500 below bob, 900 below alice
    connect_as(carol)
    assert matchqueue.join(db, runtime, carol, deck, CLOCK, app.config)[0] == "waiting"
    db.execute("DELETE FROM decks WHERE id = ?", [deck])
    clock.advance(app.config["QUEUE_SECONDS"] - FAR)  # alice's and bob's places lapse, carol's lasts
    assert matchqueue.sweep(db, runtime, app.config) == []
    assert store_social.queue_entries(db) == []  # lapsed, and carol's deck is gone


def test_the_hubs_queue_ticker_pairs_them_as_time_passes(app, db, alice, bob, loaner, connect_as, clock, started):
    runtime = app.extensions["brigade_online"]
    app.config["QUEUE_TICK"] = 0.05
    a_sock, b_sock = waiting_far_apart(app, db, runtime, alice, bob, loaner, connect_as, started)
    clock.advance(FAR + 1)
    wait_until(lambda: not matchqueue.waiting(db))
    [game] = wait_until(lambda: events(got(a_sock), "matched"))
    assert events(got(b_sock), "matched") == [game]
    assert ratings.is_rated(play.load_row(db, game["game"]))
    wait_until(lambda: not runtime.notifier.queue_ticker.ticking)  # nobody waits: the ticker stopped


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


# ---------------------------------------------------------------- the routes of /ladder


def test_joining_and_leaving_the_queue_from_the_ladder_page(app, db, woken, alice, bob, loaner, client_of,
                                                            connect_as):
    connect_as(alice)
    a, b = client_of(alice), client_of(bob)
    answer = post(a, "/ladder/queue", {"deck": loaner, "clock": "10"}, follow_redirects=True)
    assert answer.request.path == "/ladder" and 'data-testid="queued"' in answer.get_data(as_text=True)
    assert [e["user_id"] for e in store_social.queue_entries(db)] == [alice["id"]] and woken == [1]
    answer = post(b, "/ladder/queue", {"deck": loaner, "clock": "10"})  # close enough: straight to the game
    [row] = db.query("SELECT id FROM games WHERE mode = 'online' AND status = 'active'")
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/play/{row['id']}")
    assert store_social.queue_entries(db) == []
    post(a, "/ladder/queue", {"deck": loaner, "clock": "10"})
    page = post(a, "/ladder/queue/leave", follow_redirects=True).get_data(as_text=True)
    assert store_social.queue_entries(db) == [] and 'data-testid="queue"' in page
    page = post(a, "/ladder/queue/leave", follow_redirects=True).get_data(as_text=True)
    assert "You are not waiting for a game." in page


@pytest.mark.parametrize("form, message", [
    ({"clock": "10"}, "Choose a deck to play with."),
    ({"deck": "abc", "clock": "10"}, "Choose a deck to play with."),
    ({"deck": "999999", "clock": "10"}, "There is no such deck."),
    ({"deck": "bobs", "clock": "10"}, "That deck is not yours."),
    ({"deck": "loaner", "clock": "x"}, None),
    ({"deck": "loaner", "clock": "-5"}, None),
])
def test_bad_queue_forms_are_refused_with_a_message_and_queue_nobody(app, db, woken, alice, bob, loaner, client_of,
                                                                      form, message):
    cards = get_loaner(db, "princes-brigade")["cards"]
    add_cards(db, bob["id"], cards)
    ids = {"loaner": str(loaner), "bobs": str(save_deck(db, bob["id"], "Bob's", cards))}
    form = {k: ids.get(v, v) for k, v in form.items()}
    answer = post(client_of(alice), "/ladder/queue", form, follow_redirects=True)
    page = answer.get_data(as_text=True)
    assert answer.request.path == "/ladder" and "flash-error" in page
    if message:
        assert message in page
    assert store_social.queue_entries(db) == [] and woken == []


def test_visitors_are_sent_to_log_in_and_queue_nobody(app, db, woken, loaner):
    visitor = app.test_client()
    for url in ("/ladder/queue", "/ladder/queue/leave"):
        answer = post(visitor, url, {"deck": loaner, "clock": "10"})
        assert answer.status_code == 302 and "/login" in answer.headers["Location"]
    assert store_social.queue_entries(db) == []
