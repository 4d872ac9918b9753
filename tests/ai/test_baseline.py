"""The baseline CPU: legal choices only, from the public view, and clearly better than random."""

import random

from webapp.ai import BaselinePlayer, RandomPlayer
from webapp.engine import Game, load_pool
from webapp.engine.randomplay import random_deck

POOL = load_pool()


def play(seed, cpu_seat):
    rng = random.Random(seed)
    players = {cpu_seat: BaselinePlayer(seed=seed, pool=POOL), 1 - cpu_seat: RandomPlayer(seed=seed)}
    g = Game.new(random_deck(rng, POOL), random_deck(rng, POOL), seed=seed, first=None, pool=POOL)
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        a = players[p].choose(g, p)
        assert g.is_legal(p, a) and a["type"] != "resign" and "choose" not in a
        g.apply(p, a)
    return g.result


def test_baseline_beats_a_random_player_in_most_games():
    results = [play(seed, seed % 2) for seed in range(40)]
    wins = sum(r["winner"] == seed % 2 for seed, r in enumerate(results))
    assert wins >= 32, f"baseline won only {wins} of 40"


def test_baseline_chooses_leaders_with_room_left_in_the_base():
    """R5.4, R7.2: it prefers leaders that leave room to summon."""
    monsters = sorted(c for c, d in POOL.items() if d.kind == "monster")
    g = Game.new([monsters[0]] * 30, [monsters[1]] * 30, seed=3, first=0, pool=POOL, leader_mode="sequential")
    a = BaselinePlayer(pool=POOL).choose(g, 0)
    assert a["type"] == "choose_leaders" and 1 <= len(a["cards"]) <= 3
