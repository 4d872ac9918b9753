"""The puzzle goal checker (webapp/game/puzzlegoal.py), by rule id, on small positions."""

import pytest

from webapp.engine import Game
from webapp.game import puzzlegoal

LANDS = {"L1": "road", "L2": "road", "L3": "road", "L4": "rearworld", "L5": "rearworld", "L6": "swamp"}


def position(mine, theirs, **extra):
    data = {"seed": 7, "round": 5, "lands": LANDS, "dice": [6, 1, 6, 1],
            "players": [{"deck": [], "units": [{"card": "prism-golem", "land": "H0", "leader": True, "id": "me"}] + mine},
                        {"deck": [], "units": [{"card": "rune-golem", "land": "H1", "leader": True, "id": "foe"}] + theirs}]}
    data.update(extra)
    return Game.from_scenario(data)


def run(goal, game, *actions):
    start = game.copy()
    verdict = None
    for a in actions:
        events = game.apply(0, a)
        verdict = puzzlegoal.verdict(goal, start, game, events)
        if verdict:
            break
    return verdict


def test_r14_1_win_battle_met_by_a_successful_attack():
    """R8.8, R14.1: the defending party wiped out and an attacker standing: the battle is won."""
    g = position([{"card": "crimson-dragon", "land": "L1", "id": "d"}], [{"card": "orc", "land": "L3", "id": "o"}])
    assert run({"type": "win_battle"}, g, {"type": "march", "units": ["d"], "to": "L3"}) == "met"


def test_r8_8_a_failed_attack_is_no_won_battle_and_the_turn_end_misses():
    """R8.8: a failed attack does not meet "win a battle"; ending the turn without one misses it."""
    g = position([{"card": "orc", "land": "L1", "id": "o"}], [{"card": "stone-giant", "land": "L3", "id": "s"}])
    goal = {"type": "win_battle"}
    start = g.copy()
    events = g.apply(0, {"type": "march", "units": ["o"], "to": "L3"})
    assert any(e["type"] == "battle_ended" and not e["success"] for e in events)
    assert puzzlegoal.verdict(goal, start, g, events) is None
    assert puzzlegoal.verdict(goal, start, g, g.apply(0, {"type": "end_turn"})) == "missed"


def test_r14_1_win_battle_on_a_named_land_only():
    g = position([{"card": "crimson-dragon", "land": "L1", "id": "d"}], [{"card": "orc", "land": "L3", "id": "o"}])
    assert run({"type": "win_battle", "land": "L4"}, g, {"type": "march", "units": ["d"], "to": "L3"}) is None


def test_r4_5_take_lands_counts_lands_new_since_the_start():
    """R4.5: entering an empty land takes it; the goal counts lands held now and not at the start."""
    g = position([{"card": "blaze-knight", "land": "L1", "id": "k"}], [], owners={"L1": 0})
    goal = {"type": "take_lands", "count": 2}
    assert run(goal, g.copy(), {"type": "march", "units": ["k"], "to": "L3"}, {"type": "end_turn"}) == "missed"
    assert run(goal, g, {"type": "march", "units": ["k"], "to": "L3"},
               {"type": "march", "units": ["k"], "to": "L5"}) == "met"


def test_r1_1_win_game_met_when_the_last_enemy_leader_falls():
    """R1.1 (and R1.6: the battle stops there, so no battle_ended is needed)."""
    g = position([{"card": "crimson-dragon", "land": "L5", "id": "d"}], [], owners={"L5": 0})
    assert run({"type": "win_game"}, g, {"type": "march", "units": ["d"], "to": "H1"}) == "met"


def test_r16_1_win_game_by_the_judgment_at_the_end_of_round_12():
    """R16.1, R1.4: the second player ends round 12 with more lands: the judgment gives the game."""
    g = position([{"card": "orc", "land": "L1", "id": "o"}], [], round=12, first=1, active=0, owners={"L1": 0})
    assert run({"type": "win_game"}, g, {"type": "march", "units": ["o"], "to": "L3"}, {"type": "end_turn"}) == "met"
    g = position([], [{"card": "orc", "land": "L5", "id": "x"}], round=12, first=1, active=0)
    assert run({"type": "win_game"}, g, {"type": "end_turn"}) == "missed"


def test_r1_4_survive_is_met_when_the_round_begins():
    """R1.4: surviving until round N means the game is still on when round N begins."""
    g = position([], [], round=4)
    start = g.copy()
    goal = {"type": "survive", "round": 5}
    assert puzzlegoal.verdict(goal, start, g, g.apply(0, {"type": "end_turn"})) is None  # the enemy's turn
    assert puzzlegoal.verdict(goal, start, g, g.apply(1, {"type": "end_turn"})) == "met"


def test_r1_1_survive_is_missed_when_the_game_is_lost():
    g = position([], [{"card": "crimson-dragon", "land": "L1", "id": "d"}], round=4)
    start = g.copy()
    goal = {"type": "survive", "round": 6}
    g.apply(0, {"type": "end_turn"})
    events = g.apply(1, {"type": "march", "units": ["d"], "to": "H0"})
    assert g.result == {"winner": 1, "reason": "leaders"}
    assert puzzlegoal.verdict(goal, start, g, events) == "missed"


@pytest.mark.parametrize("goal, problem", [
    ({"type": "win"}, "goal.type"),
    ({"type": "take_lands"}, "goal.count"),
    ({"type": "take_lands", "count": 0}, "goal.count"),
    ({"type": "survive", "round": 14}, "goal.round"),
    ({"type": "win_battle", "land": "H0"}, "goal.land"),
    ({"type": "win_game", "by_round": 3}, "goal.by_round"),
    ("win", "goal"),
])
def test_bad_goals_are_refused_naming_the_field(goal, problem):
    with pytest.raises(puzzlegoal.GoalError, match=problem.replace(".", r"\.")):
        puzzlegoal.check(goal)


def test_a_goal_already_met_or_past_in_the_start_is_refused():
    with pytest.raises(puzzlegoal.GoalError, match="already in round"):
        puzzlegoal.check_start({"type": "survive", "round": 5}, position([], [], round=5))
