"""A player that picks uniformly among the legal actions (never resigning); a compact entry (a march
toward one land, a quick summon, a formation) then gives a random choice of its own."""

import random

from webapp.engine import choices


class RandomPlayer:
    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, game, player):
        entry = self.rng.choice([a for a in game.legal_actions(player) if a["type"] != "resign"])
        return choices.random_action_of(entry, self.rng)
