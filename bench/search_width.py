"""How often a longer think plays a move the page's ten-candidate list does not hold.

    python bench/search_width.py [--positions 30] [--budget 1.0] [--seed 1]

Positions from games of the baseline against itself (seeded, random decks), taken where the seat to
move has more than ten distinct candidate moves. At each, the Hard CPU searches for ``--budget``
seconds of CPU twice: once weighing the page's ten candidates, once as wide as its budget makes it
(`SearchPlayer.width`, twenty at 1 s). Prints, per position, the iterations and the candidate the wide
search played, and in all how often that move was outside the ten-candidate list of the same
position: what widening with the budget changes (docs/decisions/0152).
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


class TenWide(SearchPlayer):
    """The Hard CPU at any budget, weighing the page's ten candidates."""

    def width(self):
        return self.max_candidates


def positions(pool, count, seed):
    """(game, seat) where the seat has more than ten candidates, one every few moves of baseline games."""
    wide = SearchPlayer(seed=seed, pool=pool, max_candidates=1000)
    for game_seed in range(seed, seed + 10_000):
        rng = random.Random(game_seed)
        g = Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=game_seed, first=None, pool=pool)
        players = [BaselinePlayer(seed=game_seed, pool=pool), BaselinePlayer(seed=game_seed + 1, pool=pool)]
        step = 0
        while g.result is None:
            p = rng.choice(sorted(g.waiting_for()))
            if step % 7 == 3:
                legal = [a for a in g.legal_actions(p) if a["type"] != "resign"]
                if len(wide.candidates(g, p, legal)) > 10:
                    yield g.copy(), p
                    count -= 1
                    if count == 0:
                        return
            g.apply(p, players[p].choose(g.copy(), p))
            step += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--budget", type=float, default=1.0, help="CPU seconds per search")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pool = load_pool()
    outside = changed = n = 0
    for i, (game, p) in enumerate(positions(pool, args.positions, args.seed)):
        ten = TenWide(seed=i, pool=pool, budget=args.budget, clock=time.thread_time).search(game.copy(), p)
        wide = SearchPlayer(seed=i, pool=pool, budget=args.budget, clock=time.thread_time).search(game.copy(), p)
        listed = {key(a) for a in ten.candidates}
        past = key(wide.action) not in listed
        outside += past
        changed += key(wide.action) != key(ten.action)
        n += 1
        print(f"  position {i + 1}: {len(wide.candidates)} candidates, {wide.iterations} iterations "
              f"(ten: {ten.iterations}); played candidate {wide.candidates.index(wide.action) + 1}"
              f"{', not among the ten' if past else ''}", file=sys.stderr, flush=True)
    print(f"{n} positions with more than ten candidates, {args.budget:g} s of CPU a search: the wide search "
          f"played a move outside the ten-candidate list at {outside} ({100 * outside / n:.0f}%), "
          f"another move than the ten-wide search at {changed} ({100 * changed / n:.0f}%)")


if __name__ == "__main__":
    main()
