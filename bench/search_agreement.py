"""Does a longer search settle on its move? Two searches of the same position at each budget.

    python bench/search_agreement.py [--positions 40] [--budgets 0.04,0.2,1.0] [--seed 1]

Positions from games of the baseline against itself (seeded, random decks), every seventh decision
with at least three candidates. At each, the Hard CPU searches twice per budget (CPU seconds, two
seeds) and the bench prints, per budget, how often the two searches played the same move and how
often that move was the baseline's own choice (the candidate list's first). If the agreement rises
with the budget while the games between budgets stay near even (`bench/hard_vs_baseline.py
--opponent hard`), the search converges on a move that more time does not make better: its limit is
the imagined lines' bias (the baseline playing both sides for two turns, the evaluation at their
end), not their number (docs/decisions/0152).
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import BaselinePlayer, SearchPlayer  # noqa: E402
from webapp.ai.search import key  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402


def positions(pool, count, seed):
    """(game, seat) at every seventh decision of baseline games where the seat has three candidates or more."""
    lister = SearchPlayer(seed=seed, pool=pool)
    for game_seed in range(seed, seed + 10_000):
        rng = random.Random(game_seed)
        g = Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=game_seed, first=None, pool=pool)
        players = [BaselinePlayer(seed=game_seed, pool=pool), BaselinePlayer(seed=game_seed + 1, pool=pool)]
        step = 0
        while g.result is None:
            p = rng.choice(sorted(g.waiting_for()))
            if step % 7 == 3:
                legal = [a for a in g.legal_actions(p) if a["type"] != "resign"]
                if len(lister.candidates(g, p, legal)) >= 3:
                    yield g.copy(), p
                    count -= 1
                    if count == 0:
                        return
            g.apply(p, players[p].choose(g.copy(), p))
            step += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--budgets", default="0.04,0.2,1.0", help="CPU seconds per search, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    budgets = [float(b) for b in args.budgets.split(",")]
    pool = load_pool()
    same = dict.fromkeys(budgets, 0)
    first = dict.fromkeys(budgets, 0)
    n = 0
    for i, (game, p) in enumerate(positions(pool, args.positions, args.seed)):
        n += 1
        for b in budgets:
            a, c = (SearchPlayer(seed=1000 * i + s, pool=pool, budget=b, clock=time.thread_time).search(game.copy(), p)
                    for s in (1, 2))
            same[b] += key(a.action) == key(c.action)
            first[b] += (key(a.action) == key(a.candidates[0])) + (key(c.action) == key(c.candidates[0]))
        print(f"  {n}/{args.positions} positions", file=sys.stderr, flush=True)
    for b in budgets:
        print(f"{b:g} s: the two searches played the same move at {same[b]} of {n} positions "
              f"({100 * same[b] / n:.0f}%); the baseline's own choice in {100 * first[b] / (2 * n):.0f}% of searches")


if __name__ == "__main__":
    main()
