"""Games: setup + actions + snapshot, optimistic concurrency, and rebuilding a game from its rows."""

import json
import random
import threading

import pytest

from webapp.engine import Game, choices
from webapp.store import (GameNotFound, StaleVersion, append_action, connect, create_game, end_game, list_actions,
                          list_games, load_game)

DECK = ["orc"] * 30


def setup_for(user0, user1=None):
    return {"decks": [DECK, DECK], "first": 0, "settings": {"turn_seconds": 60},
            "seats": [{"user_id": user0}, {"user_id": user1} if user1 else {"cpu": "normal"}]}


@pytest.fixture
def game_id(db, alice, bob):
    return create_game(db, "versus", 1234, setup_for(alice["id"], bob["id"]), state='{"round": 0}')


def test_create_and_load_a_game(db, alice, bob, game_id):
    game = load_game(db, game_id)
    assert (game["mode"], game["seed"], game["status"], game["version"]) == ("versus", 1234, "active", 0)
    assert game["setup"] == setup_for(alice["id"], bob["id"])
    assert game["seats"] == [alice["id"], bob["id"]]
    assert game["state"] == '{"round": 0}' and game["result"] is None


def test_a_cpu_seat_has_no_user(db, alice):
    game_id = create_game(db, "cpu", 1, setup_for(alice["id"]))
    assert load_game(db, game_id)["seats"] == [alice["id"], None]


def test_bad_setups_and_seeds_are_refused(db, alice):
    with pytest.raises(ValueError, match="seats"):
        create_game(db, "cpu", 1, {"decks": [DECK, DECK]})
    with pytest.raises(ValueError, match="2\\*\\*63"):
        create_game(db, "cpu", 2**64 - 1, setup_for(alice["id"]))


def test_append_action_stores_the_action_and_the_state_together(db, game_id):
    assert append_action(db, game_id, 0, 0, {"type": "end_turn"}, '{"round": 1}') == 1
    assert append_action(db, game_id, 1, 1, {"type": "resign"}, '{"round": 2}', status="finished",
                         result={"winner": 0, "reason": "resign"}) == 2
    game = load_game(db, game_id)
    assert (game["version"], game["state"], game["status"]) == (2, '{"round": 2}', "finished")
    assert game["result"] == {"winner": 0, "reason": "resign"}
    assert [(a["seq"], a["player"], a["action"]) for a in list_actions(db, game_id)] == [
        (1, 0, {"type": "end_turn"}), (2, 1, {"type": "resign"})]
    assert [a["seq"] for a in list_actions(db, game_id, after=1)] == [2]


def test_two_writers_with_the_same_version_one_wins_the_other_is_stale(db_path, db, game_id):
    other = connect(db_path)
    try:
        assert load_game(db, game_id)["version"] == load_game(other, game_id)["version"] == 0
        append_action(db, game_id, 0, 0, {"type": "end_turn"}, '{"by": "first"}')
        with pytest.raises(StaleVersion, match=f"game {game_id}: expected version 0, but it is at 1") as err:
            append_action(other, game_id, 0, 1, {"type": "pass"}, '{"by": "second"}')
        assert (err.value.expected, err.value.actual) == (0, 1)
    finally:
        other.close()
    game = load_game(db, game_id)
    assert (game["version"], game["state"]) == (1, '{"by": "first"}')
    assert [a["action"] for a in list_actions(db, game_id)] == [{"type": "end_turn"}]


def test_racing_writers_in_threads_exactly_one_wins(db_path, game_id):
    outcomes, barrier = [], threading.Barrier(6)

    def write(n):
        try:
            with connect(db_path) as db:
                barrier.wait(timeout=10)
                append_action(db, game_id, 0, n % 2, {"type": "pass", "n": n}, json.dumps({"by": n}))
                outcomes.append(("won", n))
        except StaleVersion:
            outcomes.append(("stale", n))
        except Exception as exc:  # reported below
            outcomes.append(("error", repr(exc)))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(kind for kind, _ in outcomes) == ["stale"] * 5 + ["won"]
    winner = next(n for kind, n in outcomes if kind == "won")
    with connect(db_path) as db:
        assert load_game(db, game_id)["state"] == json.dumps({"by": winner})
        assert [a["action"]["n"] for a in list_actions(db, game_id)] == [winner]


def test_unknown_games_are_reported(db):
    with pytest.raises(GameNotFound):
        load_game(db, 99)
    with pytest.raises(GameNotFound):
        append_action(db, 99, 0, 0, {"type": "pass"}, "{}")


def test_end_game_moves_the_version_without_an_action(db, game_id):
    assert end_game(db, game_id, 0, "aborted", {"winner": None, "reason": "disconnect"}) == 1
    with pytest.raises(StaleVersion):
        end_game(db, game_id, 0, "finished", {"winner": 0, "reason": "timeout"})
    game = load_game(db, game_id)
    assert (game["status"], game["version"], list_actions(db, game_id)) == ("aborted", 1, [])


def test_list_games_shows_a_users_games_newest_first(db, alice, bob, game_id):
    cpu_game = create_game(db, "cpu", 2, setup_for(alice["id"]))
    end_game(db, cpu_game, 0, "finished", {"winner": 0, "reason": "leaders"})
    assert [g["id"] for g in list_games(db, alice["id"])] == [cpu_game, game_id]
    assert [g["id"] for g in list_games(db, bob["id"])] == [game_id]
    assert [g["id"] for g in list_games(db, alice["id"], status="active")] == [game_id]


def test_a_stored_game_is_rebuilt_from_setup_and_actions(db, alice, bob):
    setup = setup_for(alice["id"], bob["id"])
    game = Game.new(*setup["decks"], seed=77, first=setup["first"])
    game_id = create_game(db, "versus", 77, setup, state=game.to_json())
    rng, version = random.Random(5), 0
    for _ in range(40):
        if game.result is not None:
            break
        player = min(game.waiting_for())
        action = choices.random_action_of(rng.choice(game.legal_actions(player)), rng)
        game.apply(player, action)
        version = append_action(db, game_id, version, player, action, game.to_json())

    stored = load_game(db, game_id)
    replay = Game.new(*stored["setup"]["decks"], seed=stored["seed"], first=stored["setup"]["first"])
    for row in list_actions(db, game_id):
        replay.apply(row["player"], row["action"])
    assert replay.to_json() == stored["state"] == game.to_json()


def test_a_held_snapshot_is_not_read_again_at_its_version_only(db, game_id):
    append_action(db, game_id, 0, 0, {"type": "end_turn"}, '{"round": 1}')
    whole = load_game(db, game_id)
    held = (whole["version"], whole["created"], whole["seed"])
    light = load_game(db, game_id, unless_held=held)
    assert "state" not in light and light == {k: v for k, v in whole.items() if k != "state"}
    for other in [(0, whole["created"], whole["seed"]), (1, "2000-01-01T00:00:00.000Z", whole["seed"]),
                  (1, whole["created"], whole["seed"] + 1)]:  # another version, or another game under this id
        assert load_game(db, game_id, unless_held=other) == whole
    append_action(db, game_id, 1, 1, {"type": "end_turn"}, '{"round": 2}')  # moved on since the snapshot was held
    assert load_game(db, game_id, unless_held=held)["state"] == '{"round": 2}'
    with pytest.raises(GameNotFound):
        load_game(db, game_id + 1, unless_held=held)


def test_actions_come_back_as_they_were_given(db, game_id):
    given = [{"type": "march", "units": ["u3", "u1"], "to": 2}, {"type": "x", "big": 2**70, "text": "é✓"},
             {2: "keys that are not strings", 1: "a"}]
    for version, action in enumerate(given):
        append_action(db, game_id, version, 0, action, '{"round": 1}')
    assert [a["action"] for a in list_actions(db, game_id)] == [json.loads(json.dumps(a)) for a in given]
    stored = [r[0] for r in db.execute("SELECT action FROM game_actions WHERE game_id = ? ORDER BY seq", [game_id])]
    assert stored[0] == '{"to":2,"type":"march","units":["u3","u1"]}'  # sorted keys, compact (orjson)
    assert stored[1:] == [json.dumps(a, sort_keys=True) for a in given[1:]]  # what orjson refuses: json's text
    at, updated = db.execute("SELECT a.at, g.updated FROM game_actions a JOIN games g ON g.id = a.game_id "
                             "WHERE a.game_id = ? AND a.seq = 3", [game_id]).fetchone()
    assert at == updated
