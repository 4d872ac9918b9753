"""R18: the engine's side of online games (the server's side is tested with the server)."""

import json

import pytest

from webapp.engine import Game, IllegalAction, load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


def advance(g, rng, steps):
    """Play up to `steps` random legal actions (fewer if the game ends)."""
    for _ in range(steps):
        if g.result is not None:
            return
        p, a = random_action(g, rng)
        g.apply(p, a)


def test_r18_1_each_player_brings_their_own_deck():
    """R18.1: each player picks a deck; the game takes two independent 30-card lists."""
    monsters = sorted(c for c, d in POOL.items() if d.kind == "monster")
    deck0 = [monsters[0]] * 30
    deck1 = [monsters[1]] * 30
    g = Game.new(deck0, deck1, seed=5, first=0)
    assert {g.state.static.cards[c].id for c in g.state.hand[0]} == {monsters[0]}
    assert {g.state.static.cards[c].id for c in g.state.hand[1]} == {monsters[1]}


def test_r18_2_dice_decide_the_first_player_and_leaders_are_chosen_together():
    """R18.2 (R5.1, R5.7): first=None rolls dice (rerolling ties); both choose leaders at once."""
    g, _ = random_game(11, POOL)
    rolls = g.view(None)["opening"]["dice"]
    assert all(a == b for a, b in rolls[:-1]) and rolls[-1][0] != rolls[-1][1]
    assert g.state.first == (0 if rolls[-1][0] > rolls[-1][1] else 1)
    assert g.waiting_for() == {0, 1}


def test_r18_3_a_clock_running_out_ends_the_game_for_the_server():
    """R18.3: the server ends a game by timeout; the engine records it and refuses further actions."""
    g, _ = random_game(12, POOL)
    events = g.set_result(0, "timeout")
    assert events == [{"type": "game_over", "winner": 0, "reason": "timeout"}]
    assert g.result == {"winner": 0, "reason": "timeout"} and g.waiting_for() == set()
    with pytest.raises(IllegalAction, match="over"):
        g.apply(1, {"type": "resign"})


def test_r18_3_both_clocks_out_during_the_leader_choice_is_a_draw():
    """R18.3/R18.4: both out of time during the simultaneous leader choice: a draw."""
    g, _ = random_game(13, POOL)
    g.set_result(None, "timeout")
    assert g.result == {"winner": None, "reason": "timeout"}


def test_r18_4_a_reconnecting_player_resumes_from_the_exact_state():
    """R18.4: the stored game rebuilt from JSON shows the same view and the same choices."""
    g, rng = random_game(14, POOL)
    advance(g, rng, 40)
    back = Game.from_json(g.to_json())
    for p in (0, 1):
        assert back.view(p) == g.view(p)
        assert back.legal_actions(p) == g.legal_actions(p)


def test_r18_4_disconnect_claim_is_recorded_with_its_reason():
    """R18.4: a win claimed after 60 s away is a result with reason disconnect."""
    g, _ = random_game(15, POOL)
    g.set_result(1, "disconnect")
    assert g.result == {"winner": 1, "reason": "disconnect"}


@pytest.mark.parametrize("winner, reason", [(2, "timeout"), (0, "bored"), ("0", "resign")])
def test_r18_4_bad_results_are_refused(winner, reason):
    """R18.4: only known winners and reasons."""
    g, _ = random_game(16, POOL)
    before = g.to_json()
    with pytest.raises(ValueError):
        g.set_result(winner, reason)
    assert g.to_json() == before


def test_r18_5_either_player_may_resign_at_any_time():
    """R18.5: resign is legal for both players, even the one not waited for."""
    g, rng = random_game(17, POOL)
    advance(g, rng, 30)
    assert g.result is None
    idle = 1 - next(iter(g.waiting_for()))
    assert {"type": "resign"} in g.legal_actions(idle)
    g.apply(idle, {"type": "resign"})
    assert g.result == {"winner": 1 - idle, "reason": "resign"}


def test_r18_6_views_never_carry_hidden_information():
    """R18.6: no opponent hand, no deck order, no seed or RNG state in any view."""
    g, rng = random_game(18, POOL)
    advance(g, rng, 30)
    s = g.state
    for viewer in (0, 1, None):
        text = json.dumps(g.view(viewer))
        for p in (0, 1):
            for c in s.deck[p]:
                assert f'"{s.static.names[c]}"' not in text
            if p != viewer:
                for c in s.hand[p]:
                    assert f'"{s.static.names[c]}"' not in text
        assert str(s.rng) not in text


def test_r18_6_an_illegal_choice_from_a_client_changes_nothing():
    """R18.6: every choice is checked against the legal actions of the current state."""
    g, _ = random_game(19, POOL)
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "choose_leaders", "cards": ["p1c0"]})
    assert g.to_json() == before
