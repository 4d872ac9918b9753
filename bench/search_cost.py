"""The Hard CPU's CPU time per search iteration, at a fixed number of iterations (the same decisions).

    python bench/search_cost.py [--iterations 80] [--root DIR]

Eleven seeded positions from random games (advanced 20, 25, ... random actions); at each, a search of
`--iterations` iterations (webapp/ai/search.py) for the seat to move. Prints the CPU time per iteration:
the inverse of the iterations a time budget buys (`bench/hard_vs_baseline.py` prints those). `--root`
runs another checkout's code (e.g. a `git archive` of an older ref) with this loop, so old and new can be
run alternately in the same hour ([decisions/0111](../docs/decisions/0111-compare-benches-on-a-shared-vm.md)).
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=80)
    ap.add_argument("--root", default=HERE, help="the checkout whose engine and CPU players to run")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    from webapp.ai import SearchPlayer
    from webapp.engine import load_pool
    from webapp.engine.randomplay import random_action, random_game

    pool = load_pool()
    positions = []
    for seed in range(12):
        game, rng = random_game(100 + seed, pool)
        for _ in range(20 + 5 * seed):
            if game.result is not None:
                break
            game.apply(*random_action(game, rng))
        if game.result is None:
            positions.append(game)
    iterations = 0
    cpu = time.process_time()
    for i, game in enumerate(positions):
        player = SearchPlayer(seed=i, pool=pool, iterations=args.iterations)
        iterations += player.search(game, min(game.waiting_for())).iterations
    cpu = time.process_time() - cpu
    print(f"{iterations} iterations at {len(positions)} positions in {cpu:.2f} CPU s = "
          f"{cpu / iterations * 1e3:.2f} ms per iteration ({args.root}; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
