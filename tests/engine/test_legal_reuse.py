"""The legal lists made from what an earlier step kept (docs/engine.md, "API"): the board part of the
main step's list carried over a discard (R6.7), a battle's options found by `battle.advance` as it
stopped, a listed entry let through by apply. Each must equal the list made from scratch."""

import pytest

from webapp.engine import Game, load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


@pytest.mark.parametrize("seed", range(15))
def test_every_list_equals_the_one_made_from_scratch(seed):
    g, rng = random_game(seed, POOL)
    discards = battles = 0
    while g.result is None:
        for p in (0, 1):
            listed = g.legal_actions(p)
            fresh = Game(g.state.copy())  # a copy keeps nothing of what the steps before found
            assert fresh.state.battle is None or fresh.state.battle.listed is None
            assert listed == fresh.legal_actions(p)
        battles += g.state.battle is not None and g.state.battle.listed is not None
        player, action = random_action(g, rng)
        g.apply(player, action)
        discards += action["type"] == "discard" and g._board is not None and g._board[0] is g.state
    assert discards and battles  # both ways of reuse were met


def test_a_copy_of_the_game_reuses_the_board_part_too():
    g, rng = random_game(3, POOL)
    while g.result is None:
        player, action = random_action(g, rng)
        g.legal_actions(player)
        twin = g.copy()
        events = g.apply(player, action)
        assert twin.apply(player, action) == events
        for p in (0, 1):
            assert twin.legal_actions(p) == g.legal_actions(p) == Game(g.state.copy()).legal_actions(p)
