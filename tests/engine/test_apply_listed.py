"""Game.apply_listed: the searches' path for moves the engine itself listed (docs/engine.md). It gives
the same states and events as apply for every such move, and the public path, apply, still checks
every action exactly: an illegal one is refused there and changes nothing."""

import random

import pytest

from webapp.ai.baseline import BaselinePlayer
from webapp.engine import IllegalAction, choices, load_pool
from webapp.engine.randomplay import random_action, random_game

from .helpers import scenario, unit

POOL = load_pool()


@pytest.mark.parametrize("seed", range(6))
def test_listed_moves_give_what_apply_gives(seed):
    """Random legal games (compact entries filled at random) and baseline games: the same events and
    the same state after every move, through apply_listed as through apply."""
    checked, trusted = random_game(seed, POOL)[0], random_game(seed, POOL)[0]
    rng = random.Random(seed)
    baseline = BaselinePlayer(seed=seed, pool=POOL)
    steps = 0
    while checked.result is None:
        if steps % 2:
            player, action = random_action(checked, rng)
        else:
            player = min(checked.waiting_for())
            action = baseline.choose(checked, player)
        assert checked.apply(player, action) == trusted.apply_listed(player, action)
        assert checked.to_json() == trusted.to_json()
        steps += 1
    assert trusted.result == checked.result


def test_an_illegal_action_through_apply_is_refused_and_changes_nothing():
    """The public path checks exactly: a listed entry changed by its holder (another card, a land out
    of reach, a compact entry sent as it is, a choice given as True) is refused, the state untouched."""
    g = scenario({"hand": ["orc", "fireball"], "units": [unit("orc", "H0", "a0", leader=True)]})
    legal = g.legal_actions(0)
    summon = next(a for a in legal if a["type"] == "summon")
    march = next(a for a in legal if a["type"] == "march")
    fireball = next(h["id"] for h in g.view(0)["players"][0]["hand"] if h["card"] == "fireball")
    before = g.to_json()
    bad = [dict(summon, card=fireball),  # a spell is not summoned (R7.5)
           dict(summon, card="p1c0"),  # not a card of the asker's hand
           choices.fill(march, ["a0"]) | {"to": "H1"},  # the enemy base, out of reach (R8.1)
           march,  # a compact entry is never sent as it is
           {"type": "end_turn", "extra": 1},
           {"type": "ability", "unit": "a0", "choice": True}]
    for action in bad:
        with pytest.raises(IllegalAction):
            g.apply(0, action)
        assert g.to_json() == before
        assert not g.is_legal(0, action)
    g.apply(0, summon)  # and the listed entry as it was is accepted


def test_apply_listed_still_refuses_a_player_the_game_does_not_wait_for():
    """Whose move it is and whether the game is over are checked on the trusted path too."""
    g = scenario({"hand": ["orc"], "units": [unit("orc", "H0", "a0", leader=True)]})
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply_listed(1, {"type": "end_turn"})
    assert g.to_json() == before
    g.apply_listed(1, {"type": "resign"})
    with pytest.raises(IllegalAction):
        g.apply_listed(0, {"type": "end_turn"})
