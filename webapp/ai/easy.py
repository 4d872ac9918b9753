"""The easy CPU: the baseline, making human-like mistakes on purpose.

At each decision with a choice it slips with probability `slip` (0.3 by default): it takes
another move than the baseline's, like a beginner does: ends the turn early, marches somewhere
without a plan, lets a spell go by in a battle, misplays its formation. It still plays only legal
moves, never resigns, never discards on a whim, and picks its leaders like the baseline.
"""

import random

from webapp.engine import choices, load_pool

from .baseline import BaselinePlayer


class EasyPlayer:
    name = "easy"

    def __init__(self, seed=None, pool=None, slip=0.3):
        self.rng = random.Random(seed)
        self.slip = slip
        self.baseline = BaselinePlayer(seed=self.rng.getrandbits(32), pool=pool or load_pool())

    def choose(self, game, player):
        best = self.baseline.choose(game, player)
        if best["type"] == "choose_leaders" or self.rng.random() >= self.slip:
            return best
        others = [a for a in choices.concrete(game.legal_actions(player), self.rng, extra=1)
                  if a["type"] not in ("resign", "discard", "choose_leaders") and a != best]
        return self.rng.choice(others) if others else best
