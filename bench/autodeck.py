"""The automatic deck against the loaner, beside a random valid deck against the loaner.

    python bench/autodeck.py [--games 300] [--seed 1] [--collection packs|new]

For each game a collection is drawn (``packs``: 5 to 10 packs of the real odds, 30 to 60 cards;
``new``: a new player's starter and two packs, 33 cards). From it two decks are made: the
automatic deck (webapp.decks.build.build) and a random valid deck (30 of the owned cards at random,
with a monster). Each plays the Prince's Brigade loaner deck once with the same seed, both sides
played by the baseline CPU, seats alternating from game to game. Prints both win rates (draws count
half) with 95 % Wilson intervals; docs/decks.md keeps the figures.
"""

import argparse
import math
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.decks import build as deckbuild, packs  # noqa: E402
from webapp.ai import BaselinePlayer  # noqa: E402
from webapp.cards.decks import load_decks  # noqa: E402
from webapp.decks.check import DECK_SIZE, check_deck  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402


def collection(rng, pool, kind):
    owned = Counter(packs.STARTER) if kind == "new" else Counter()
    for _ in range(2 if kind == "new" else rng.randint(5, 10)):
        owned.update(packs.draw_pack(pool, rng))
    return dict(owned)


def random_valid_deck(rng, owned, pool):
    """30 of the owned copies at random, drawn again until the deck holds a monster (R2.1)."""
    copies = sorted(c for cid, n in owned.items() for c in [cid] * n)
    while True:
        deck = dict(Counter(rng.sample(copies, DECK_SIZE)))
        if check_deck(deck, pool, owned).playable:
            return deck


def as_list(counts):
    return [cid for cid, n in sorted(counts.items()) for _ in range(n)]


def play(deck, loaner, seat, seed, pool):
    """The result for ``deck`` played from ``seat`` against the loaner: 1 win, 0.5 draw, 0 loss."""
    decks = [None, None]
    decks[seat], decks[1 - seat] = as_list(deck), as_list(loaner)
    players = [BaselinePlayer(seed=seed * 2 + p, pool=pool) for p in (0, 1)]
    rng = random.Random(seed)
    g = Game.new(decks[0], decks[1], seed=seed, first=None, pool=pool)
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        g.apply(p, players[p].choose(g, p))
    winner = g.result["winner"]
    return 0.5 if winner is None else float(winner == seat)


def wilson(points, n, z=1.96):
    """The 95 % Wilson interval of a rate of ``points`` in ``n`` games (draws as half points)."""
    if n == 0:
        return 0.0, 0.0
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per deck kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--collection", choices=("packs", "new"), default="packs")
    args = ap.parse_args()
    pool = load_pool()
    loaner = dict(load_decks(pool)["princes-brigade"].counts)
    score = {"auto": 0.0, "random": 0.0}
    paired = Counter()
    t0 = time.perf_counter()
    for i in range(args.games):
        seed = args.seed * 100003 + i
        rng = random.Random(seed)
        owned = collection(rng, pool, args.collection)
        decks = {"auto": deckbuild.build(owned, pool), "random": random_valid_deck(rng, owned, pool)}
        seat = i % 2
        results = {}
        for kind, deck in decks.items():
            assert check_deck(deck, pool, owned).playable, (kind, deck)
            results[kind] = play(deck, loaner, seat, seed, pool)
            score[kind] += results[kind]
        paired[(results["auto"] > results["random"]) - (results["auto"] < results["random"])] += 1
        if (i + 1) % max(1, args.games // 10) == 0:
            print(f"  {i + 1}/{args.games}: auto {score['auto']:g}, random {score['random']:g} "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    n = args.games
    print(f"{n} games per deck kind, baseline CPU on both sides, seats alternating, "
          f"collections: {args.collection}, seed {args.seed}")
    for kind, label in (("auto", "automatic deck"), ("random", "random valid deck")):
        lo, hi = wilson(score[kind], n)
        print(f"{label:18} vs loaner: {score[kind]:g}/{n} = {100 * score[kind] / n:.1f}% "
              f"(95% interval {100 * lo:.1f}–{100 * hi:.1f}%)")
    print(f"same collection and seed: auto did better in {paired[1]}, worse in {paired[-1]}, "
          f"the same in {paired[0]} games; {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
