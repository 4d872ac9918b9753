"""Puzzles made from a moment of one's own finished game (webapp/game/replaypuzzles.py), written as
the attacks too: only the game's players may make one, only once the game is over, and the shared
position holds nothing its maker could not see (R18.6): no opponent hand, no draw pile order."""

import json

import pytest

from tests.web.conftest import log_in, post
from webapp import store
from webapp.game import cpumoves, play, positions, replaypuzzles

LANDS = {"L1": "road", "L2": "road", "L3": "road", "L4": "rearworld", "L5": "rearworld", "L6": "swamp"}
SECRET = "rearworld-dragon-light"  # in the opponent's hand: the maker never saw it


def position(active=0):
    me = {"hand": [{"card": "fireball", "id": "my-fireball"}], "deck": ["orc", "orc"],
          "units": [{"card": "prism-golem", "land": "H0", "leader": True, "id": "me"},
                    {"card": "minotaur-brute", "land": "L1", "id": "brute"}, {"card": "orc", "land": "L2", "id": "orc"}]}
    foe = {"hand": [{"card": SECRET, "id": "secret"}], "deck": ["stone-giant", "imp"],
           "units": [{"card": "rune-golem", "land": "H1", "leader": True, "id": "foe"},
                     {"card": "labyrinth-minotaur", "land": "L3", "id": "minotaur"}]}
    if active == 1:  # the same position from the other side of the map
        for side in (me, foe):
            for u in side["units"]:
                u["land"] = replaypuzzles.MIRROR[u["land"]]
    players = [me, foe] if active == 0 else [foe, me]
    return {"seed": 3, "round": 4, "first": 0, "active": active, "lands": LANDS, "dice": [6, 1], "players": players}


def finished_game(db, users, mode="cpu", active=0):
    game_id = positions.start(db, mode, users, position(active), seed=3, cpu_name="baseline")
    row = play.load_row(db, game_id)
    play.end(db, game_id, 0, "resign")
    return game_id, row


def test_a_player_makes_a_puzzle_that_shows_only_what_they_saw(app, db, alice):
    game_id, _ = finished_game(db, [alice])
    code = replaypuzzles.make(db, alice["id"], game_id, 0, {"type": "win_battle"})
    got = replaypuzzles.shared(db, code)
    text = json.dumps(got["scenario"])
    assert SECRET not in text and "secret" not in text  # the opponent's hand stays hidden
    assert got["scenario"]["players"][1]["hand"] == [] and got["scenario"]["players"][0]["deck"] == []
    assert got["scenario"]["players"][1]["deck"] == []  # no draw pile, no order
    assert [c["card"] for c in got["scenario"]["players"][0]["hand"]] == ["fireball"]  # the maker's own hand
    assert got["line"]


def test_the_maker_in_seat_1_sees_the_map_turned_round(app, db, alice, bob):
    game_id, _ = finished_game(db, [bob, alice], mode="online", active=1)
    code = replaypuzzles.make(db, alice["id"], game_id, 0, {"type": "win_battle"})
    sc = replaypuzzles.shared(db, code)["scenario"]
    mine = {u["card"]: u["land"] for u in sc["players"][0]["units"]}
    assert mine == {"prism-golem": "H0", "minotaur-brute": "L1", "orc": "L2"}  # H1, L5, L6 seen from seat 1
    assert {u["card"]: u["land"] for u in sc["players"][1]["units"]}["rune-golem"] == "H1"
    assert SECRET not in json.dumps(sc)


def test_a_stranger_may_not_make_one(app, db, alice, bob):
    game_id, _ = finished_game(db, [alice])
    with pytest.raises(play.Forbidden):
        replaypuzzles.make(db, bob["id"], game_id, 0, {"type": "win_battle"})
    assert db.execute("SELECT count(*) FROM shared_puzzles").fetchone()[0] == 0


def test_not_from_a_game_in_progress(app, db, alice):
    """The solver must never help a game being played."""
    game_id = positions.start(db, "cpu", [alice], position(), seed=3, cpu_name="baseline")
    with pytest.raises(play.Illegal):
        replaypuzzles.make(db, alice["id"], game_id, 0, {"type": "win_battle"})


def test_goals_that_cannot_be_met_and_bad_input_store_nothing(app, db, alice):
    game_id, _ = finished_game(db, [alice])
    with pytest.raises(play.Illegal, match="cannot be met"):
        replaypuzzles.make(db, alice["id"], game_id, 0, {"type": "take_lands", "count": 7})
    for goal in ({"type": "everything"}, {"type": "take_lands", "count": 0}, "win"):
        with pytest.raises(play.BadRequest):
            replaypuzzles.make(db, alice["id"], game_id, 0, goal)
    with pytest.raises(play.BadRequest):
        replaypuzzles.make(db, alice["id"], game_id, 99, {"type": "win_battle"})
    assert db.execute("SELECT count(*) FROM shared_puzzles").fetchone()[0] == 0


def test_a_friend_plays_the_shared_puzzle_by_its_link(app, db, alice, bob):
    game_id, _ = finished_game(db, [alice])
    maker = app.test_client()
    log_in(maker, alice)
    r = post(maker, "/puzzles/from-replay", {"game": str(game_id), "version": "0", "goal": "win_battle"})
    assert r.status_code == 302 and "/puzzles/shared/" in r.headers["Location"]
    link = r.headers["Location"]
    page = maker.get(link).get_data(as_text=True)
    assert 'data-testid="shared-link"' in page and "your hand included" in page
    friend = app.test_client()
    log_in(friend, bob)
    assert friend.get(link).status_code == 200
    r = post(friend, link + "/start")
    new_id = int(r.headers["Location"].rsplit("/", 1)[1])
    row = play.load_row(db, new_id)
    assert row["mode"] == "puzzle" and row["seats"][0] == bob["id"]
    got = replaypuzzles.shared(db, link.rsplit("/", 1)[1])
    for action in got["line"]:
        cpumoves.cpu_turns(db, new_id)
        row = play.load_row(db, new_id)
        if row["status"] != "active":
            break
        play.act(db, new_id, bob["id"], action, row["version"])
    assert play.load_row(db, new_id)["result"]["winner"] == 0
    info = friend.get(f"/puzzles/game/{new_id}.json").get_json()
    assert info["kind"] == "puzzle" and info["status"]["met"]
    assert store.list_packs(db, bob["id"]) == []
