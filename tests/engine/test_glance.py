"""`Game.glance`: the parts of the view a quick reader (the baseline CPU in a search's imagined lines)
decides from, with the view's values, in real and determinized games."""

import random

import pytest

from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


def same_as_view(game, p):
    g, v = game.glance(p), game.view(p)
    assert set(g) == {"phase", "lands", "units", "players", "battle"}
    assert g["phase"] == v["phase"] and g["lands"] == v["lands"] and g["units"] == v["units"]
    assert g["players"][p] == {"hand": v["players"][p]["hand"]} and g["players"][1 - p] == {}
    assert g["battle"] == ({"chain": v["battle"]["chain"]} if v["battle"] is not None else None)


@pytest.mark.parametrize("seed", range(6))
def test_a_glance_holds_what_the_view_shows(seed):
    game, rng = random_game(seed, POOL)
    battles = 0
    while game.result is None:
        for p in (0, 1):
            same_as_view(game, p)
        battles += game.state.battle is not None
        if game.state.version % 9 == 0:  # an imagined world's, made afresh
            p = min(game.waiting_for())
            same_as_view(game.determinize(p, random.Random(seed)), p)
        game.apply(*random_action(game, rng))
    assert battles


def test_a_glance_is_only_for_a_seat():
    game, _rng = random_game(1, POOL)
    with pytest.raises(ValueError):
        game.glance(None)
