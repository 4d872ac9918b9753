"""Clocks (R18.3) as stored: pure functions, and their survival of a restart of the app."""

import pytest

from webapp import create_app
from webapp.game import invitations, onlineclock, play
from webapp.store import load_game

from .conftest import CONFIG
from .helpers import wait_until


def test_a_new_clock_runs_for_the_seats_the_game_waits_for():
    c = onlineclock.clock_new(60_000, {0, 1}, now=1000)
    assert c == {"limit_ms": 60_000, "left": [60_000, 60_000], "from": [1000, 1000], "version": 0}
    assert onlineclock.clock_left(c, 11_000) == [50_000, 50_000]


def test_moving_charges_only_the_seats_that_stop_waiting():
    c = onlineclock.clock_new(60_000, {0, 1}, now=0)
    c = onlineclock.clock_moved(c, {1}, 4000, 1)             # seat 0 chose its leaders after 4 s
    assert c["left"] == [56_000, 60_000] and c["from"] == [None, 0] and c["version"] == 1
    c = onlineclock.clock_moved(c, {0}, 10_000, 2)           # seat 1 after 10 s (its wait began at 0)
    assert c["left"] == [56_000, 50_000] and c["from"] == [10_000, None]
    assert onlineclock.clock_left(c, 12_500) == [53_500, 50_000]
    c = onlineclock.clock_moved(c, {0}, 13_000, 3)           # seat 0 acts again and keeps the move: runs on
    assert c["from"] == [10_000, None] and onlineclock.clock_left(c, 13_000) == [53_000, 50_000]
    done = onlineclock.clock_moved(c, set(), 20_000, 4)      # game over: every clock stops
    assert done["left"] == [46_000, 50_000] and done["from"] == [None, None]


def test_timeouts_and_the_draw_of_both_out_during_the_leader_choice():
    both = onlineclock.clock_new(1000, {0, 1}, now=0)
    assert onlineclock.timed_out(both, 999) is None
    assert onlineclock.timed_out(both, 1000) == (None, "timeout")
    one = onlineclock.clock_moved(both, {1}, 200, 1)
    assert onlineclock.timed_out(one, 1000) == (0, "timeout")
    assert onlineclock.public_clock(one, 5000) == {"limit_ms": 1000, "left_ms": [800, 0], "running": [False, True]}


@pytest.mark.parametrize("minutes, ms", [("15", 900_000), ("0.5", 30_000), (" 60 ", 3_600_000)])
def test_clock_minutes_from_the_form(minutes, ms):
    assert onlineclock.clock_ms_from_minutes(minutes, {"ONLINE_CLOCK_MIN_MINUTES": 0.5}) == ms


@pytest.mark.parametrize("minutes", ["", "x", "0", "-1", "61", "inf", "nan", None])
def test_bad_clock_minutes_are_refused(minutes):
    with pytest.raises(play.BadRequest):
        onlineclock.clock_ms_from_minutes(minutes, {"ONLINE_CLOCK_MIN_MINUTES": 1})


def test_clocks_survive_a_restart_and_the_ticker_ends_the_game_after_it(tmp_path, db, invite, loaner, alice, bob,
                                                                       app, clock):
    game_id, code = invite(alice, clock_ms=60_000)
    invitations.join(db, code, bob, loaner)
    app.extensions["brigade_online"].stop()  # the first server "dies" before the clocks run out
    again = create_app(dict(CONFIG, DATABASE=app.config["DATABASE"], INSTANCE_PATH=tmp_path / "again"))
    try:
        assert game_id in again.extensions["brigade_online"].tracks  # found at start
        clock.advance(60)
        wait_until(lambda: load_game(db, game_id)["status"] == "finished", timeout=5)
        assert load_game(db, game_id)["result"] == {"winner": None, "reason": "timeout"}
        assert invitations.info(db, game_id)["clock"]["left"] == [0, 0]
    finally:
        again.extensions["brigade_online"].stop()
