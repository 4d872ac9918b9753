"""An experiment: the Hard CPU's search, and past its first half second, its finalists tried against the
opponent's best replies.

    python bench/deep_search.py [--games 100] [--budget 1.0] [--opponent-budget 0.2] [--shallow 0.5]
                                [--finalists 3] [--replies 3] [--seed 1001] [--jobs 2]

docs/decisions/0152 found that the Hard CPU (webapp/ai/search.py) stops gaining with time, and blamed
its imagined lines: the baseline answers for the opponent, so more lines only choose among moves more
precisely against an opponent that plays the baseline. This player searches as the Hard CPU does for
its first ``--shallow`` seconds (so at the page's 0.5 s, and below, it is the Hard CPU). With the time
left it takes the ``--finalists`` most tried candidates and tries them again in shared imagined worlds
(one world a round, every finalist in a copy of it, the same dice and baseline draws): the baseline
finishes the seat's turn, then at the opponent's first decision of its own turn ``--replies`` of its
candidates are each played on to the same horizon, and the finalist's value in that world is its worst
(the opponent answers with the reply that hurts most). After eight such worlds the finalist with the
best average is played; with fewer, the Hard CPU's own choice.

Prints, like `bench/hard_vs_baseline.py --paired` (whose games it plays), its score against the Hard
CPU at ``--opponent-budget``: does the deeper look make 1 s beat 0.2 s?
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hard_vs_baseline as hvb  # noqa: E402
from webapp.ai import SearchPlayer  # noqa: E402
from webapp.ai.search import Search, mover, outcome, ranked  # noqa: E402

MIN_WORLDS = 8


class DeepSearch(Search):
    def __init__(self, player_obj, game, player):
        super().__init__(player_obj, game, player)
        self.finalists = None  # indexes into cands, once the shallow part is over
        self.deep = {}  # finalist -> total of its worst-reply values
        self.worlds = 0

    def iterate(self, deadline):
        sp = self.sp
        if sp.clock() - self.start < sp.shallow or len(self.cands) < 2:
            return super().iterate(deadline)
        if self.finalists is None:
            self.finalists = ranked(self.visits, self.totals)[: sp.finalists]
            self.deep = dict.fromkeys(self.finalists, 0.0)
        world = self.game.determinize(self.player, sp.rng)
        draws = sp.rng.getrandbits(64)
        for f in self.finalists:
            self.deep[f] += self.worst_reply(world.copy(), self.cands[f], draws)
        self.worlds += 1

    def worst_reply(self, line, action, draws):
        """The finalist `action` in `line`: the baseline to the end of the seat's turn, then the worst
        for the seat of the opponent's `replies` candidates at its first decision, each played on by
        the baseline to the horizon."""
        sp, player = self.sp, self.player
        enemy = 1 - player
        sp.baseline.rng.seed(draws)
        line.apply_listed(player, action)
        steps, legal = 0, None
        while line.result is None and steps < sp.max_rollout_actions:
            p = mover(line)
            if line.state.active == enemy and p == enemy:
                legal = [a for a in line.legal_actions(enemy) if a["type"] != "resign"]
                if len(legal) > 1 or legal[0]["type"] != "end_turn":
                    break
                legal = None
            line.apply_listed(p, sp.baseline.choose(line, p, glance=True))
            steps += 1
        if legal is None:  # the game or the lines' length ended first
            return outcome(line, player)
        rng, sp.rng = sp.rng, random.Random(draws)  # the same replies for every finalist in this world
        try:
            replies = sp.candidates(line, enemy, legal)[: sp.replies]
        finally:
            sp.rng = rng
        worst = 1.0
        for r in replies:
            branch = line.copy()
            sp.baseline.rng.seed(draws + 1)
            branch.apply_listed(enemy, r)
            worst = min(worst, sp.rollout(branch, player, enemy, turns=1))  # to the end of the opponent's turn
        return worst

    def finish(self):
        result = super().finish()
        if self.worlds >= MIN_WORLDS:
            rank = {f: i for i, f in enumerate(self.finalists)}  # a tie keeps the shallow search's order
            best = max(self.finalists, key=lambda f: (self.deep[f], -rank[f]))
            result.action = self.cands[best]
            result.win = self.deep[best] / self.worlds
        return result


class DeepPlayer(SearchPlayer):
    name = "deep"
    shallow, finalists, replies = 0.5, 3, 3

    def begin(self, game, player):
        return DeepSearch(self, game, player)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--opponent-budget", type=float, default=0.2)
    ap.add_argument("--shallow", type=float, default=DeepPlayer.shallow)
    ap.add_argument("--finalists", type=int, default=DeepPlayer.finalists)
    ap.add_argument("--replies", type=int, default=DeepPlayer.replies)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    DeepPlayer.shallow, DeepPlayer.finalists, DeepPlayer.replies = args.shallow, args.finalists, args.replies
    hvb.against("deep", DeepPlayer, args, same=False)


if __name__ == "__main__":
    main()
