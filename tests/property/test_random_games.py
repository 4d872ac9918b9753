"""Property tests: random legal games from Game.new, invariants checked after every action."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lanes import check, lanes

from webapp.engine import IllegalAction, choices, load_pool
from webapp.engine.game import SHAPES
from webapp.engine.randomplay import play_random, random_action, random_game

from .invariants import check_accounting, check_all, check_capacity, check_hands

POOL = load_pool()
HIDDEN = re.compile(r"\bR\d+\.\d+|\b[pP]\d+c\d+\b")  # rule numbers, instance ids
SEEDS = st.integers(min_value=0, max_value=2 ** 32)


def every_action_keeps_the_invariants(seed):
    game, steps = play_random(seed, POOL, on_step=lambda g, p, a, ev: check_all(g, ev))
    assert game.result is not None and game.state.round <= 12  # R1.4
    assert steps > 0


@lanes(fast=5, full=60)
def test_every_action_keeps_the_invariants(examples):
    """Capacity (R4.4), hand ≤ 6 (R6.6), 30 cards accounted for, JSON round-trip, no hidden info (R18.6)."""
    check(every_action_keeps_the_invariants, examples, seed=SEEDS)


@lanes(fast=100, full=2000)
def test_thousands_of_games_end_by_round_12_with_cards_accounted_for(examples):
    """R1.4, R16: 2,000 random games (200 in the fast lane), each ends with a result by round 12;
    cheap invariants each step."""
    reasons = {}

    def cheap(g, p, a, ev):
        check_capacity(g)
        check_hands(g)
        check_accounting(g)

    for seed in range(examples):
        game, _ = play_random(seed, POOL, on_step=cheap)
        assert game.result["reason"] in ("leaders", "judgment", "draw")
        assert game.state.round <= 12
        reasons[game.result["reason"]] = reasons.get(game.result["reason"], 0) + 1
    assert reasons.get("leaders", 0) > 0 and reasons.get("judgment", 0) > 0


def same_choice(a, b):
    """Whether two actions are the same choice (list order is free in march units, discard cards)."""
    if a.get("type") != b.get("type") or a.keys() != b.keys():
        return False
    return all(sorted(a[k]) == sorted(b[k]) if k in ("units", "cards") and a["type"] in ("march", "discard")
               else a[k] == b[k] for k in a)


def junk_actions(g, rng, player):
    """Actions that must be refused: malformed, unknown, or a legal one twisted."""
    legal = choices.concrete(g.legal_actions(player), rng)
    s = g.state
    # cards in a draw pile are never a legal card, unit or target
    names = [s.static.names[c] for c in s.deck[0] + s.deck[1]] or ["p9c9"]
    out = [None, "attack", 3, [], {}, {"type": "fly"}, {"type": "march"}, {"type": "end_turn", "extra": 1},
           {"type": "summon", "card": 7}, {"type": "summon", "card": "nope"},
           {"type": "march", "units": "p0c1", "to": "L1"}, {"type": "march", "units": ["p0c1"], "to": "Z9"},
           {"type": "ability", "unit": rng.choice(names), "targets": [rng.choice(names)], "choice": "x"},
           {"type": rng.choice(sorted(SHAPES)), "card": rng.choice(names)}]
    for a in rng.sample(legal, min(3, len(legal))):
        twisted = dict(a)
        if "units" in a and a["units"]:
            twisted["units"] = a["units"] + [rng.choice(names)]
        elif "cards" in a:
            twisted["cards"] = a["cards"] + ["p9c9"]
        elif "targets" in a:
            twisted["targets"] = ["p9c9"]
        else:
            twisted["bogus"] = True
        if not any(same_choice(twisted, b) for b in legal):
            out.append(twisted)
    return out


@lanes(fast=3, full=60)
def test_legal_actions_are_accepted_and_anything_else_refused(examples):
    """Every listed action applies (on a copy) and is_legal says so; junk raises IllegalAction, is_legal
    says False, and neither changes anything (the RNG included: the JSON holds its state)."""
    check(legal_actions_are_accepted_and_anything_else_refused, examples, seed=SEEDS)


def legal_actions_are_accepted_and_anything_else_refused(seed):
    game, rng = random_game(seed, POOL)
    while game.result is None:
        for p in (0, 1):
            legal = choices.concrete(game.legal_actions(p), rng)  # compact entries: samples of their choices
            before = game.to_json()
            for a in rng.sample(legal, min(4, len(legal))):
                assert game.is_legal(p, a)  # the same check as apply, changing nothing
                assert game.to_json() == before
                game.copy().apply(p, a)  # accepted
            if p not in game.waiting_for():
                assert [a["type"] for a in game.legal_actions(p)] == ["resign"]
            for a in junk_actions(game, rng, p):
                assert not game.is_legal(p, a)
                with pytest.raises(IllegalAction) as caught:
                    game.apply(p, a)
                assert not HIDDEN.search(str(caught.value)), str(caught.value)  # plain words only
                assert game.to_json() == before
        with pytest.raises(IllegalAction):
            game.apply(2, {"type": "end_turn"})
        player, action = random_action(game, rng)
        game.apply(player, action)
    before = game.to_json()
    with pytest.raises(IllegalAction, match="over"):
        game.apply(0, {"type": "end_turn"})
    assert game.to_json() == before


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_same_seed_and_actions_give_identical_json(seed):
    """Determinism: replaying the same actions on a new game from the same seed is byte-identical."""
    game, rng = random_game(seed, POOL)
    actions = []
    while game.result is None:
        p, a = random_action(game, rng)
        actions.append((p, a))
        game.apply(p, a)
    replay, _ = random_game(seed, POOL)
    for p, a in actions:
        replay.apply(p, a)
    assert replay.to_json() == game.to_json()


@lanes(fast=8, full=25)
def test_a_copy_is_independent_of_its_original(examples):
    """Game.copy() for search: playing on the copy never changes the original."""
    check(a_copy_is_independent_of_its_original, examples, seed=SEEDS)


def a_copy_is_independent_of_its_original(seed):
    game, rng = random_game(seed, POOL)
    while game.result is None:
        before = game.to_json()
        trial = game.copy()
        trial_rng = random.Random(rng.random())
        for _ in range(5):
            if trial.result is not None:
                break
            p, a = random_action(trial, trial_rng)
            trial.apply(p, a)
        assert game.to_json() == before
        p, a = random_action(game, rng)
        game.apply(p, a)


def test_resign_and_server_results():
    """R1.3, R18.5: resign at any time; the server may end a game by timeout or disconnect."""
    game, _ = random_game(3, POOL)
    assert game.apply(1, {"type": "resign"})[-1] == {"type": "game_over", "winner": 0, "reason": "resign"}
    assert game.waiting_for() == set() and game.legal_actions(0) == []
    other, _ = random_game(4, POOL)
    other.set_result(1, "timeout")
    assert other.result == {"winner": 1, "reason": "timeout"}
    with pytest.raises(IllegalAction):
        other.set_result(0, "disconnect")
