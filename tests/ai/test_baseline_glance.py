"""The baseline decides alike from `Game.glance` (the search's imagined lines) and from the whole view."""

import random

import pytest

from webapp.ai import BaselinePlayer
from webapp.engine import load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


@pytest.mark.parametrize("seed", range(4))
def test_a_glance_gives_the_views_choice(seed):
    game, rng = random_game(40 + seed, POOL)
    by_view, by_glance = BaselinePlayer(seed=seed, pool=POOL), BaselinePlayer(seed=seed, pool=POOL)
    checked = 0
    while game.result is None:
        p = min(game.waiting_for())
        worlds = [game] + [game.determinize(p, random.Random(checked))] * (game.state.version % 4 == 0)
        for world in worlds:  # the real game and, now and then, an imagined one (where glances are read)
            assert by_glance.choose(world, p, glance=True) == by_view.choose(world, p)
            checked += 1
        game.apply(*random_action(game, rng))
    assert checked > 40
