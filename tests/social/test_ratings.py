"""The ladder's ratings (webapp/social/ratings.py, Glicko-2): rated games between two accounts move both
ratings once; resignations and timeouts count from round 5; an early exit (resign, abandon) moves
nothing; unrated games never count. Games are stored ones, started at a position and ended for real."""

import json
from pathlib import Path

import pytest

from webapp.game import invitations, play, positions
from webapp.social import ratings
from webapp.store import social as store_social

POSITION = json.loads((Path(__file__).parents[1] / "browser/positions/online-battle.json").read_text())


@pytest.fixture
def game(app, db):
    """game(a, b, round=5, rated=True) -> the id of a stored online game alice and bob play, at round ``round``."""
    def make(a, b, round=5, rated=True):
        scenario = dict(POSITION, round=round)
        scenario.pop("about", None)
        game_id = positions.start(db, "online", [a, b], scenario, seed=3, rated=rated)
        app.extensions["brigade_online"].track(db, play.load_row(db, game_id))
        return game_id
    return make


def resign(app, db, game_id, seat):
    row = play.load_row(db, game_id)
    return app.extensions["brigade_online"].act(db, row, seat, {"type": "resign"}, row["version"])


def test_glicko2_moves_the_winner_up_and_the_loser_down_by_the_same_at_the_start():
    start = dict(ratings.START)
    won, lost = ratings.updated(start, start, 1.0), ratings.updated(start, start, 0.0)
    assert round(won["rating"] - 1500, 1) == round(1500 - lost["rating"], 1) > 100  # a new player moves fast
    assert won["rd"] < 350 and lost["rd"] < 350
    assert ratings.updated(start, start, 0.5)["rating"] == pytest.approx(1500)


def test_a_rated_game_resigned_in_round_5_moves_both_ratings_once(app, db, alice, bob, game):
    game_id = game(alice, bob)
    played = resign(app, db, game_id, 1)  # bob resigns: alice wins
    assert played.row["result"] == {"winner": 0, "reason": "resign"}
    a, b = ratings.rating_of(db, alice["id"]), ratings.rating_of(db, bob["id"])
    assert a["rating"] > 1500 > b["rating"] and a["games"] == b["games"] == 1
    assert [h["game_id"] for h in ratings.history(db, alice["id"])] == [game_id]
    assert ratings.record(db, play.load_row(db, game_id)) is None  # once per game, whoever asks again
    assert ratings.rating_of(db, alice["id"]) == a
    assert [r["name"] for r in ratings.ladder(db)] == ["alice", "bob"]


def test_a_timeout_counts_from_round_5(app, db, alice, bob, game, clock):
    game_id = game(alice, bob)
    runtime = app.extensions["brigade_online"]
    clock.advance(16 * 60)  # alice's 15 minutes run out on her move
    runtime.tick(db)
    row = play.load_row(db, game_id)
    assert row["result"]["reason"] == "timeout" and row["result"]["winner"] == 1
    assert ratings.rating_of(db, bob["id"])["rating"] > 1500 > ratings.rating_of(db, alice["id"])["rating"]


def test_attack_resigning_early_to_trade_points_moves_nothing(app, db, alice, bob, game):
    """Two friends trade wins by resigning in round 2: the same line as the Victory packs (fairplay):
    nothing moves, however many times."""
    for seat in (0, 1, 0, 1):
        resign(app, db, game(alice, bob, round=2), seat)
    assert ratings.rating_of(db, alice["id"]) == ratings.START == ratings.rating_of(db, bob["id"])
    assert ratings.ladder(db) == []


def test_attack_abandoning_a_lost_game_early_saves_no_rating_but_a_late_abandon_loses(app, db, alice, bob, game,
                                                                                   clock):
    """bob, losing, leaves early: the automatic claim ends it as a disconnect, and in round 2 nothing moves
    (neither player gains from the exit). In round 5 the same exit counts as his loss."""
    runtime = app.extensions["brigade_online"]
    for round_, moved in ((2, False), (5, True)):
        game_id = game(alice, bob, round=round_)
        played = runtime.finish(db, game_id, 0, "disconnect")  # what the claim and the automatic claim do
        assert played.row["result"] == {"winner": 0, "reason": "disconnect"}
        assert (ratings.rating_of(db, bob["id"])["rating"] < 1500) is moved


def test_unrated_games_and_half_rated_ones_never_count(app, db, alice, bob, game, loaner):
    resign(app, db, game(alice, bob, rated=False), 1)
    _, code = invitations.create_invitation(db, alice, loaner, 60_000, rated=True)
    row = invitations.join(db, code, bob, loaner, rated=False)  # bob did not choose "rated"
    app.extensions["brigade_online"].track(db, row)
    assert row["setup"]["rated"] == [True, False]
    assert not ratings.is_rated(row)
    assert ratings.rating_of(db, alice["id"]) == ratings.START


def test_a_draw_moves_the_higher_rated_player_down(db, alice, bob, game, app):
    store_social.put_rating(db, alice["id"], game(alice, bob), 1700.0, 80.0, 0.06)
    row = dict(play.load_row(db, game(alice, bob)), status="finished", result={"winner": None, "reason": "judgment"})
    moved = ratings.record(db, row)
    assert moved[alice["id"]]["rating"] < 1700 and moved[bob["id"]]["rating"] > 1500
