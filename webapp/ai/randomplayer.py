"""A player that picks uniformly among the legal actions (never resigning)."""

import random


class RandomPlayer:
    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, game, player):
        return self.rng.choice([a for a in game.legal_actions(player) if a["type"] != "resign"])
