"""Play from here (webapp/game/fork.py, POST /games/<id>/fork): a practice CPU game from a step of a
finished game against the CPU, the hidden parts as they were; refused, with the answer a game that
does not exist gets, for a game still going, for anyone who did not play it, and for a game between
people (it would deal the friend's hidden deck into view)."""

import re

import pytest

from tests.ai.test_analysis import play_a_few_turns, seeded_game
from tests.web.conftest import log_in, post
from webapp import store
from webapp.ai import workers
from webapp.game import cpumoves, cpuseats, fork, play
from webapp.game.replay import steps


@pytest.fixture(autouse=True)
def fresh_pool():
    workers.shutdown()
    yield
    workers.shutdown()


def games(db):
    return db.execute("SELECT count(*) FROM games").fetchone()[0]


def test_play_from_here_is_refused_for_a_game_the_player_may_not_see_whole(app, db, alice, loaner, make_user):
    client, game_id = seeded_game(app, db, alice, loaner)
    play_a_few_turns(db, game_id, alice["id"], rounds=2)
    before = games(db)
    during = post(client, f"/games/{game_id}/fork", {"version": "3", "difficulty": "hard"})
    nothing = post(client, "/games/999999/fork", {"version": "3", "difficulty": "hard"})
    assert during.status_code == nothing.status_code == 404  # still being played: as if there were none
    play.end(db, game_id, 1, "resign")
    stranger = app.test_client()
    log_in(stranger, make_user("carol"))
    assert post(stranger, f"/games/{game_id}/fork", {"version": "3"}).status_code == 404
    try:
        fork.fork(db, game_id, make_user("dave")["id"], 3)
        raise AssertionError("a stranger forked the game")
    except play.NotFound as exc:
        assert "p0c" not in exc.message
    db.execute("UPDATE games SET mode = 'online' WHERE id = ?", [game_id])  # a game between people
    db.commit()
    assert post(client, f"/games/{game_id}/fork", {"version": "3"}).status_code == 404
    assert games(db) == before


def test_a_practice_game_starts_where_the_old_one_stood_with_its_hidden_parts(app, db, alice, loaner):
    client, game_id = seeded_game(app, db, alice, loaner)
    play_a_few_turns(db, game_id, alice["id"], rounds=3)
    play.end(db, game_id, 1, "resign")
    row = play.load_row(db, game_id)
    actions = store.list_actions(db, game_id)
    at = next(a["seq"] for a in actions if a["seq"] > 6 and a["player"] == 0)
    old = [s for s in steps(row["setup"], actions, upto=at)][-1].game.to_json()  # the whole state, hidden parts too
    answer = post(client, f"/games/{game_id}/fork", {"version": str(at), "difficulty": "hard"})
    assert answer.status_code == 302
    new_id = int(re.search(r"/play/(\d+)$", answer.headers["Location"]).group(1))
    new_row, new_game = play.load(db, new_id)
    assert new_game.to_json() == old and new_row["status"] == "active" and new_row["mode"] == "cpu"
    assert play.seat_of(new_row, alice["id"]) == 0 and cpuseats.cpu_difficulty(new_row) == "hard"
    assert new_row["setup"]["fork"] == {"game": game_id, "version": at}
    # the practice game plays on, and rebuilds from its own setup
    cpumoves.cpu_turns(db, new_id)
    row2, g2 = play.load(db, new_id)
    rebuilt = [s for s in steps(row2["setup"], store.list_actions(db, new_id))][-1].game
    assert rebuilt.to_json() == g2.to_json()
    # the step past the end is refused with words, nothing made
    before = games(db)
    late = post(client, f"/games/{game_id}/fork", {"version": str(row["version"] + 5)})
    assert late.status_code == 302 and games(db) == before
