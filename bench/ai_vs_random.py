"""The baseline CPU against a random player: win rate over N games and the time per decision.

    python bench/ai_vs_random.py [--games 200]
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import BaselinePlayer, RandomPlayer  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pool = load_pool()
    wins = draws = 0
    think = []
    t0 = time.perf_counter()
    for i in range(args.games):
        rng = random.Random(args.seed + i)
        cpu_seat = i % 2
        players = {cpu_seat: BaselinePlayer(seed=i, pool=pool), 1 - cpu_seat: RandomPlayer(seed=i)}
        g = Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=args.seed + i, first=None, pool=pool)
        while g.result is None:
            p = rng.choice(sorted(g.waiting_for()))
            t = time.perf_counter()
            a = players[p].choose(g, p)
            if p == cpu_seat:
                think.append(time.perf_counter() - t)
            g.apply(p, a)
        w = g.result["winner"]
        wins += w == cpu_seat
        draws += w is None
        if (i + 1) % max(1, args.games // 10) == 0:
            print(f"  {i + 1}/{args.games}: baseline won {wins}", file=sys.stderr, flush=True)
    print(f"baseline vs random: {wins}/{args.games} won ({100 * wins / args.games:.1f}%), {draws} draws, "
          f"{time.perf_counter() - t0:.1f} s")
    print(f"baseline decision time: median {statistics.median(think) * 1e3:.2f} ms, "
          f"max {max(think) * 1e3:.1f} ms over {len(think)} decisions")


if __name__ == "__main__":
    main()
