"""Random legal decks and games: for property tests, benchmarks and load runs."""

import random

from .carddefs import load_pool
from .choices import random_action_of
from .game import DECK_SIZE, Game


def random_deck(rng, pool, monsters_at_least=20):
    """30 card ids from the pool, mostly monsters (R2.1 needs at least one)."""
    monsters = sorted(c for c, d in pool.items() if d.kind == "monster")
    every = sorted(pool)
    deck = [rng.choice(monsters) for _ in range(monsters_at_least)]
    deck += [rng.choice(every) for _ in range(DECK_SIZE - monsters_at_least)]
    rng.shuffle(deck)
    return deck


def random_game(seed, pool=None, first=None):
    """A new game between two random decks, seeded."""
    pool = load_pool() if pool is None else pool
    rng = random.Random(seed)
    return Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=seed, first=first, pool=pool), rng


def random_action(game, rng):
    """(player, action): a uniformly random entry of the legal list, never resigning; a compact
    entry (a march toward one land, a quick summon, a formation) gives a random choice of its own."""
    player = rng.choice(sorted(game.waiting_for()))
    actions = [a for a in game.legal_actions(player) if a["type"] != "resign"]
    return player, random_action_of(rng.choice(actions), rng)


def play_random(seed, pool=None, on_step=None, max_steps=5000):
    """Play one random game to its end; `on_step(game, player, action, events)` after each action."""
    game, rng = random_game(seed, pool)
    steps = 0
    while game.result is None:
        player, action = random_action(game, rng)
        events = game.apply(player, action)
        steps += 1
        if on_step is not None:
            on_step(game, player, action, events)
        if steps > max_steps:
            raise RuntimeError(f"game {seed} did not end after {max_steps} actions")
    return game, steps
