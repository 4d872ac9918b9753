"""A rematch of an online game started at a position (webapp/game/online.py ``rematch_game``): from a
game's first decision (the leader choice) the other player goes first, as in any rematch (R18); from
a later position it starts at the same position again."""

from webapp.engine import Game
from webapp.game import invitations, play, positions
from webapp.store import connect

LEADERS = {
    "phase": "leaders", "round": 1, "first": 0, "active": 0, "leader_mode": "simultaneous",
    "lands": {"L1": "road", "L2": "rearworld", "L3": "road", "L4": "swamp", "L5": "road", "L6": "rearworld"},
    "players": [{"hand": ["orc-lord", "flame-warden", "blaze-knight", "salamander", "fireball", "stone-skin"]},
                {"hand": ["orc", "orc-shaman", "ember-drake", "goblin-raider", "war-cry", "dwarf-forgehand"]}],
}
MAIN = {
    "round": 3, "active": 0, "first": 0,
    "lands": {"L1": "road", "L2": "road", "L3": "rearworld", "L4": "road", "L5": "swamp", "L6": "rearworld"},
    "players": [{"hand": ["orc"], "units": [{"card": "orc-lord", "land": "H0", "leader": True}]},
                {"hand": ["orc"], "units": [{"card": "orc-shaman", "land": "H1", "leader": True}]}],
}


def rematch_of(app, alice, bob, scenario):
    """The first of (the game at ``scenario``, its rematch) as Game objects."""
    db = connect(app.config["DATABASE"])
    try:
        game_id = positions.start(db, "online", [alice["id"], bob["id"]], scenario, seed=3)
        new_id = invitations.rematch_game(db, play.load_row(db, game_id))
        return [Game.from_json(play.load_row(db, g)["state"]) for g in (game_id, new_id)]
    finally:
        db.conn.close()


def test_a_rematch_from_the_leader_choice_lets_the_other_player_go_first(app, alice, bob):
    old, new = rematch_of(app, alice, bob, LEADERS)
    assert (old.state.first, new.state.first) == (0, 1)
    assert new.state.phase == "leaders"


def test_a_rematch_from_a_later_position_starts_there_again(app, alice, bob):
    old, new = rematch_of(app, alice, bob, MAIN)
    assert new.state.first == old.state.first == 0 and new.state.active == 0 and new.state.round == 3
