"""An experiment: the Hard CPU's search with every candidate tried in the same imagined worlds.

    python bench/crn_search.py [--games 120] [--budget 0.2] [--opponent-budget 0.04]
                               [--opponent paired|hard] [--drop 2.5] [--seed 1001] [--jobs 2]
    python bench/crn_search.py --spread 300 [--positions 40]

The flat search (webapp/ai/search.py) draws a new imagined world for every line, so two candidates'
averages differ by the luck of their worlds (the opponent's hand, the dice) as much as by the moves.
Here each iteration draws one world and tries every candidate still in the race in a copy of it, with
the same dice and the same baseline draws, so that what separates two candidates in that world is
their move alone (common random numbers). A candidate leaves the race once it is behind the leader by
more than ``--drop`` standard errors of their paired differences (after eight worlds), so that the
worlds left go to the moves that still compete: the more worlds, the finer the difference the search
can tell. The most promising candidate still in the race is played.

Prints, like `bench/hard_vs_baseline.py --paired`, its score against itself at ``--opponent-budget``
(does it grow with time?) or against the Hard CPU at that budget (is it as strong?).

`--spread N` prints instead how much the shared worlds narrow the comparison of two candidates: one
search of N lines at each of `bench/search_agreement.py`'s positions and, for every pair of candidates
over the worlds both were tried in, the spread of their world-by-world differences against the spread
their difference would have in worlds of their own (the square root of the sum of their variances);
the median and quartiles of that ratio over the pairs. (A ratio of 0: the two moves scored alike in
every world.)
"""

import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hard_vs_baseline as hvb  # noqa: E402
from search_agreement import positions  # noqa: E402
from webapp.ai import SearchPlayer  # noqa: E402
from webapp.ai.search import Search, SearchResult  # noqa: E402
from webapp.engine import load_pool  # noqa: E402

MIN_WORLDS = 8


class PairedSearch(Search):
    def __init__(self, player_obj, game, player):
        super().__init__(player_obj, game, player)
        if self.result is None:
            self.alive = list(range(len(self.cands)))
            self.values = [[] for _ in self.cands]  # per candidate, its value in each world it was tried in

    def iterate(self, deadline):
        sp, player = self.sp, self.player
        world = self.game.determinize(player, sp.rng)
        draws = sp.rng.getrandbits(64)
        for k in self.alive:
            w = world.copy()
            sp.baseline.rng.seed(draws)
            w.apply_listed(player, self.cands[k])
            value = sp.rollout(w, player, self.root_active)
            lost, fell, lead = sp.rollout_stats(w, player, self.leaders_before)
            self.values[k].append(value)
            self.visits[k] += 1
            self.totals[k] += value
            self.losses[k] += lost
            self.leader_falls[k] += fell
            self.leads[k] += lead
        self.it += len(self.alive) - 1  # ``it`` counts lines, one a candidate tried (Sliced.run counted one)
        if len(self.values[self.alive[0]]) >= MIN_WORLDS and len(self.alive) > 1:
            lead = self.leader()
            self.alive = [k for k in self.alive if k == lead or not self.behind(k, lead)]

    def leader(self):
        return max(self.alive, key=lambda k: (self.totals[k], -k))

    def behind(self, k, lead):
        """Whether candidate k is behind `lead` by more than `drop` standard errors of their paired
        differences over the worlds both were tried in (every world so far: both are still racing)."""
        d = [x - y for x, y in zip(self.values[k], self.values[lead], strict=True)]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        return mean < 0 and (var == 0 or mean + self.sp.drop * math.sqrt(var / n) < 0)

    def finish(self):
        best = self.leader() if self.values[0] else 0  # out of time before one world: the baseline's choice
        v = self.visits
        win = self.totals[best] / v[best] if v[best] else None
        self.result = self.sp.last = SearchResult(self.cands[best], win, v, self.it, self.cands, self.spent)
        return self.result


class PairedPlayer(SearchPlayer):
    name = "paired"
    drop = 2.5

    def begin(self, game, player):
        return PairedSearch(self, game, player)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--opponent-budget", type=float, default=0.04)
    ap.add_argument("--opponent", choices=("paired", "hard"), default="paired")
    ap.add_argument("--drop", type=float, default=PairedPlayer.drop)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--spread", type=int, default=0, help="lines a search: print the shared worlds' spread instead")
    ap.add_argument("--positions", type=int, default=40, help="positions for --spread")
    args = ap.parse_args()
    if args.spread:
        return spread(args)
    PairedPlayer.drop = args.drop
    hvb.against("paired", PairedPlayer, args, same=args.opponent == "paired")


def spread(args):
    pool = load_pool()
    ratios = []
    for i, (game, p) in enumerate(positions(pool, args.positions, 1)):
        s = PairedPlayer(seed=1000 * i + 1, pool=pool, iterations=args.spread).begin(game, p)
        while s.run() is None:
            pass
        tried = [v for v in s.values if v]
        for a in range(len(tried)):
            for b in range(a + 1, len(tried)):
                n = min(len(tried[a]), len(tried[b]))  # the worlds both were tried in: the first n
                x, y = tried[a][:n], tried[b][:n]
                alone = math.sqrt(statistics.variance(x) + statistics.variance(y))
                if alone > 0:
                    ratios.append(statistics.stdev([u - w for u, w in zip(x, y, strict=True)]) / alone)
    q = statistics.quantiles(ratios, n=4)
    print(f"{len(ratios)} pairs of candidates at {args.positions} positions, {args.spread} lines a search: the "
          f"spread of their difference in shared worlds is {statistics.median(ratios):.2f} of the spread in "
          f"worlds of their own (median; quartiles {q[0]:.2f}–{q[2]:.2f})")


if __name__ == "__main__":
    main()
