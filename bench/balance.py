"""Balance report: thousands of games between random legal decks, played by two baseline CPUs.

    python bench/balance.py [--games 3000] [--band 10]

For each card: how often it was in a deck, and the win rate of decks holding it minus 50 points
(draws count half). Cards outside ±band points are listed; docs/cards.md must give each a reason.
"""

import argparse
import collections
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import BaselinePlayer  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402


def play(seed, pool):
    rng = random.Random(seed)
    decks = [random_deck(rng, pool), random_deck(rng, pool)]
    players = [BaselinePlayer(seed=seed * 2 + p, pool=pool) for p in (0, 1)]
    g = Game.new(decks[0], decks[1], seed=seed, first=None, pool=pool)
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        g.apply(p, players[p].choose(g, p))
    return decks, g.result["winner"]


def report(games, seed, pool, band):
    score = collections.defaultdict(float)
    seen = collections.Counter()
    t0 = time.perf_counter()
    for i in range(games):
        decks, winner = play(seed + i, pool)
        for p in (0, 1):
            points = 0.5 if winner is None else float(winner == p)
            for cid in set(decks[p]):
                seen[cid] += 1
                score[cid] += points
        if (i + 1) % max(1, games // 20) == 0:
            print(f"  {i + 1}/{games} games ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    rows = sorted(((100 * score[c] / seen[c] - 50, seen[c], c) for c in seen), reverse=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--band", type=float, default=10.0)
    args = ap.parse_args()
    pool = load_pool()
    rows = report(args.games, args.seed, pool, args.band)
    print(f"{args.games} games, baseline vs baseline, random decks; win-rate delta in points (band ±{args.band:g})")
    print(f"{'card':28} {'kind':8} {'decks':>6} {'delta':>7}")
    for delta, n, cid in rows:
        flag = "  <-- outside band" if abs(delta) > args.band else ""
        print(f"{cid:28} {pool[cid].kind:8} {n:6d} {delta:+7.1f}{flag}")
    outside = [c for d, _, c in rows if abs(d) > args.band]
    print(f"outside ±{args.band:g}: {len(outside)} cards: {', '.join(outside) or 'none'}")


if __name__ == "__main__":
    main()
