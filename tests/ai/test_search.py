"""The searching CPU (hard) and the easy CPU: legal moves always, and no peeking at hidden information."""

import random

import pytest

from tests.engine.test_determinize import hidden_twin
from tests.lanes import lanes
from webapp.ai import DIFFICULTIES, PLAYERS, EasyPlayer, SearchPlayer
from webapp.ai.search import evaluate, outcome
from webapp.engine import Game, load_pool
from webapp.engine.randomplay import random_action, random_deck, random_game

POOL = load_pool()


@pytest.mark.parametrize("seed", range(3))
def test_the_hard_cpu_always_plays_a_legal_move(seed):
    """Whole games, the Hard CPU (eight lines a decision, so the same game on any machine and load) on
    one side, the baseline or a random player on the other, simultaneous leader choice included."""
    rng = random.Random(seed)
    g = Game.new(random_deck(rng, POOL), random_deck(rng, POOL), seed=seed, pool=POOL)
    hard = seed % 2
    players = {hard: SearchPlayer(seed=seed, pool=POOL, iterations=8),
               1 - hard: PLAYERS["baseline"](seed=seed) if seed else PLAYERS["random"](seed=seed)}
    moves = 0
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        a = players[p].choose(g.copy(), p)
        assert a["type"] != "resign" and g.is_legal(p, a), a
        g.apply(p, a)
        moves += p == hard
    assert moves > 10 and g.result["reason"] in ("leaders", "judgment", "draw")


def test_the_hard_cpu_chooses_leaders_while_the_opponent_choice_is_hidden():
    g, _ = random_game(4, POOL, first=0)
    g.apply(0, next(a for a in g.legal_actions(0) if a["type"] == "choose_leaders"))
    assert g.waiting_for() == {1}
    a = SearchPlayer(seed=1, pool=POOL, iterations=20).choose(g, 1)
    assert a["type"] == "choose_leaders" and g.is_legal(1, a)


def positions(seeds=range(3), every=9):
    for seed in seeds:
        game, rng = random_game(100 + seed, POOL)
        step = 0
        while game.result is None and step < 250:
            if step % every == 4:
                for p in sorted(game.waiting_for()):
                    if len(game.legal_actions(p)) > 2:
                        yield seed, step, game.copy(), p
            game.apply(*random_action(game, rng))
            step += 1


@lanes(fast=1, full=3)  # random games: one in the fast lane, three in the whole run
def test_the_hard_cpu_cannot_tell_games_that_differ_only_in_what_it_cannot_see(examples):
    """Replace the opponent's hand and deck by other cards, reshuffle both piles and change the RNG:
    with one seed and a fixed number of iterations the search makes the same decision, with the
    same statistics (it never read what changed)."""
    checked = differ = 0
    for seed, step, game, p in positions(seeds=range(examples)):
        twin = hidden_twin(game, p, seed * 31 + step)
        differ += twin.to_json() != game.to_json()
        a = SearchPlayer(seed=step, pool=POOL, iterations=12)
        b = SearchPlayer(seed=step, pool=POOL, iterations=12)
        ra, rb = a.search(game, p), b.search(twin, p)
        assert (ra.action, ra.visits, ra.win) == (rb.action, rb.visits, rb.win), (seed, step, p)
        checked += 1
    assert checked >= 10 * examples // 3 and differ == checked


def test_the_search_sees_the_real_game_only_through_its_seat():
    """Structural: the search reads the real game only by legal_actions/view/determinize of its own
    seat and whose turn it is; anything else raises here."""

    class Guard:
        def __init__(self, game, p):
            self._game, self._p = game, p

        def legal_actions(self, p):
            assert p == self._p
            return self._game.legal_actions(p)

        def view(self, p):
            assert p == self._p
            return self._game.view(p)

        def determinize(self, p, rng, guess=None):
            assert p == self._p
            return self._game.determinize(p, rng, guess)

        @property
        def state(self):
            class Public:
                active = self._game.state.active  # whose turn: shown by view()["active"]
            return Public

    for _seed, _step, game, p in positions(seeds=range(2), every=13):
        a = SearchPlayer(seed=1, pool=POOL, iterations=8).choose(Guard(game, p), p)
        assert game.is_legal(p, a)


def test_the_evaluation_scores_results_and_boards():
    """A won game scores 1, a lost one 0, a board where the seat is ahead above ½."""
    game, rng = random_game(7, POOL)
    while game.state.round < 4 and game.result is None:
        game.apply(*random_action(game, rng))
    p = game.state.active
    mine, theirs = evaluate(game, p)
    assert mine >= 0 and theirs >= 0
    assert (outcome(game, p) > 0.5) == (mine > theirs) or mine == theirs
    over = game.copy()
    over.set_result(p, "resign")
    assert outcome(over, p) == 1.0 and outcome(over, 1 - p) == 0.0


def test_the_easy_cpu_slips_but_stays_legal():
    rng = random.Random(3)
    g = Game.new(random_deck(rng, POOL), random_deck(rng, POOL), seed=3, pool=POOL)
    easy, base = EasyPlayer(seed=3, pool=POOL, slip=0.5), PLAYERS["baseline"](seed=3)
    differs = 0
    while g.result is None:
        p = min(g.waiting_for())
        a = easy.choose(g, p)
        assert g.is_legal(p, a) and a["type"] not in ("resign", "discard")
        differs += a != base.choose(g, p)
        g.apply(p, a)
    assert differs > 5


def test_difficulties_name_players():
    assert set(DIFFICULTIES) == {"easy", "normal", "hard"}
    assert all(name in PLAYERS for name in DIFFICULTIES.values())
    assert PLAYERS[DIFFICULTIES["hard"]] is SearchPlayer
