"""Game.is_legal(player, action) (ARCHITECTURE.md, engine contract): True exactly where apply() would
accept the action, by the same check, and it changes nothing -- not the state, not the RNG."""

import pytest

from webapp.engine import IllegalAction, choices, load_pool
from webapp.engine.randomplay import random_action, random_game

from .helpers import card, scenario, unit
from .oracle import old_legal_actions

POOL = load_pool()


def agrees(g, player, action):
    """is_legal's answer, after checking it against apply() on a copy and that it changed nothing."""
    before = g.to_json()
    answer = g.is_legal(player, action)
    assert g.to_json() == before
    try:
        g.copy().apply(player, action)
        accepted = True
    except IllegalAction:
        accepted = False
    assert answer is accepted, (player, action)
    return answer


def test_is_legal_for_listed_and_unlisted_actions_of_the_main_step():
    """Listed actions are legal; a discard of several hand cards is legal though only single cards
    are listed (R6.7); the other player, an unknown id and a malformed action are not."""
    g = scenario({"hand": ["orc", "orc", "fireball"], "units": [unit("orc", "H0", "a0", leader=True)]})
    for a in g.legal_actions(0):  # a compact entry is not itself an action: its choices are
        if choices.is_compact(a):
            assert not agrees(g, 0, a)
        else:
            assert agrees(g, 0, a)
    for a in old_legal_actions(g, 0):
        assert agrees(g, 0, a)
    hand = [h["id"] for h in g.view(0)["players"][0]["hand"]]
    assert agrees(g, 0, {"type": "discard", "cards": hand[:2]})
    assert not agrees(g, 0, {"type": "discard", "cards": [hand[0], hand[0]]})
    assert not agrees(g, 1, {"type": "end_turn"})
    assert agrees(g, 1, {"type": "resign"})
    assert not agrees(g, 0, {"type": "summon", "card": "nope"})
    for junk in (None, "end_turn", {"type": "fly"}, {"type": "end_turn", "extra": 1}, {"type": "march"}):
        assert not agrees(g, 0, junk)
    assert not g.is_legal(2, {"type": "end_turn"})
    assert not g.is_legal("0", {"type": "end_turn"})


def test_is_legal_in_a_battle_draws_nothing_from_the_rng():
    """In a battle (formation, declarations) is_legal answers like apply and leaves the state, the
    RNG state and the forced dice as they were: the battle then plays out exactly as without it."""
    cards = {"pinger": card(abilities=[{"timing": "normal",
                                        "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
             "tank": card(life=10)}

    def start():
        g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("pinger", "L3", "a1"),
                                unit("tank", "L3", "a2")]},
                     {"units": [unit("orc", "H1", "b0", leader=True), unit("tank", "L5", "b1")]},
                     cards=cards)
        g.apply(0, {"type": "march", "units": ["a1", "a2"], "to": "L5"})
        return g

    g, twin = start(), start()
    assert agrees(g, 0, {"type": "formation", "order": ["a2", "a1"]})
    assert not agrees(g, 0, {"type": "formation", "order": ["a2"]})
    assert not agrees(g, 0, {"type": "attack"})
    ev = g.apply(0, {"type": "formation", "order": ["a1", "a2"]})
    assert ev == twin.apply(0, {"type": "formation", "order": ["a1", "a2"]})
    assert g.to_json() == twin.to_json()


def test_is_legal_after_the_game_is_over():
    """Nothing is legal once the game is over, not even resign (apply refuses it too)."""
    g, _ = random_game(5, POOL)
    g.apply(0, {"type": "resign"})
    assert not agrees(g, 1, {"type": "resign"})
    assert not agrees(g, 0, {"type": "end_turn"})


@pytest.mark.parametrize("seed", range(6))
def test_is_legal_agrees_with_apply_through_whole_games(seed):
    """Through random games: every listed action (compact entries expanded by samples) is legal, and
    twisted ones answer as apply does."""
    g, rng = random_game(seed, POOL)
    while g.result is None:
        for p in (0, 1):
            legal = choices.concrete(g.legal_actions(p), rng)
            for a in rng.sample(legal, min(3, len(legal))):
                assert agrees(g, p, a)
                if "units" in a and a["units"]:
                    agrees(g, p, dict(a, units=a["units"][::-1]))
                    agrees(g, p, dict(a, units=a["units"][:-1]))
                if "cards" in a and a["cards"]:
                    agrees(g, p, dict(a, cards=a["cards"][:-1]))
        p, a = random_action(g, rng)
        g.apply(p, a)


def refusal(g, player, action):
    """None if apply() accepts the action (on a copy), else its words and rule."""
    try:
        g.copy().apply(player, action)
    except IllegalAction as e:
        return str(e), e.rule
    return None


@pytest.mark.parametrize("seed", range(12))
def test_a_listed_state_checks_as_a_fresh_one(seed):
    """apply() lets through an action found in the legal list it just made (an entry, or a choice of a
    compact entry) without checking it again: every action, listed or altered, gets the same answer and
    the same refusal with the list made first as from a game that never listed (a compact entry sent as
    it is, or a listed `choice` as a bool or a float, included)."""
    import random

    from webapp.engine import Game

    g, rng = random_game(seed, POOL)
    alter = random.Random(seed)
    names = list(g.state.static.names)
    steps = 0
    while g.result is None and steps < 150:
        player, action = random_action(g, rng)
        tries = [action, {**action, "extra": 1}, {**action, "choice": True}]
        tries += [e for e in g.legal_actions(player) if choices.is_compact(e)]  # never an action as it is
        tries += [{**e, "choice": float(e["choice"])} for e in g.legal_actions(player) if "choice" in e]
        for key in ("units", "cards", "order"):
            if key in action:
                tries += [{**action, key: action[key] + [alter.choice(names)]}, {**action, key: action[key][:-1]},
                          {**action, key: action[key] + action[key][:1]}]
        for key in ("card", "unit"):
            if key in action:
                tries.append({**action, key: alter.choice(names)})
        if "to" in action:
            tries.append({**action, "to": alter.choice(["H0", "L1", "L3", "L6", "H1"])})
        for who in (player, 1 - player):
            for a in tries:
                fresh = Game(g.state)  # no list made yet
                g.legal_actions(who)
                assert refusal(g, who, a) == refusal(fresh, who, a), (who, a)
                assert g.is_legal(who, a) is fresh.is_legal(who, a)
        g.apply(player, action)
        steps += 1
