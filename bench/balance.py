"""Balance report: thousands of games between random legal decks, played by two baseline CPUs.

    python bench/balance.py [--games 3000] [--band 10] [--player baseline|hard] [--budget 0.05]
                            [--decks random|built]

For each card: how often it was in a deck, and the win rate of decks holding it minus 50 points
(draws count half). Cards outside ±band points are listed; docs/cards.md must give each a reason.

``--player hard`` puts the Hard CPU (webapp/ai/search.py, ``--budget`` seconds per decision) on
both sides instead of the baseline: a card a strong player wins with shows there, where the
baseline's rules of thumb may miss it. ``--decks built`` gives each side the deck the automatic
deckbuilder (webapp/decks/build.py) makes from a collection of 5 to 10 packs of the real odds, as
a player's deck would be, instead of 30 random legal cards.
"""

import argparse
import collections
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import BaselinePlayer, SearchPlayer  # noqa: E402
from webapp.decks import build as deckbuild, packs  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402


def built_deck(rng, pool):
    """The automatic deck from a collection of 5 to 10 packs (as bench/autodeck.py draws them)."""
    owned = collections.Counter()
    for _ in range(rng.randint(5, 10)):
        owned.update(packs.draw_pack(pool, rng))
    counts = deckbuild.build(dict(owned), pool)
    return [cid for cid, n in sorted(counts.items()) for _ in range(n)]


def make_player(kind, seed, pool, budget):
    if kind == "hard":
        return SearchPlayer(seed=seed, pool=pool, budget=budget)
    return BaselinePlayer(seed=seed, pool=pool)


def play(seed, pool, player="baseline", decks_kind="random", budget=0.05):
    rng = random.Random(seed)
    make_deck = built_deck if decks_kind == "built" else random_deck
    decks = [make_deck(rng, pool), make_deck(rng, pool)]
    players = [make_player(player, seed * 2 + p, pool, budget) for p in (0, 1)]
    g = Game.new(decks[0], decks[1], seed=seed, first=None, pool=pool)
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        g.apply(p, players[p].choose(g, p))
    return decks, g.result["winner"]


def report(games, seed, pool, band, player="baseline", decks_kind="random", budget=0.05):
    score = collections.defaultdict(float)
    seen = collections.Counter()
    t0 = time.perf_counter()
    for i in range(games):
        decks, winner = play(seed + i, pool, player, decks_kind, budget)
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
    ap.add_argument("--player", choices=("baseline", "hard"), default="baseline")
    ap.add_argument("--budget", type=float, default=0.05, help="Hard CPU seconds per decision")
    ap.add_argument("--decks", choices=("random", "built"), default="random")
    args = ap.parse_args()
    pool = load_pool()
    rows = report(args.games, args.seed, pool, args.band, args.player, args.decks, args.budget)
    who = f"hard ({args.budget:g} s/decision)" if args.player == "hard" else "baseline"
    print(f"{args.games} games, {who} vs {who}, {args.decks} decks; win-rate delta in points (band ±{args.band:g})")
    print(f"{'card':28} {'kind':8} {'decks':>6} {'delta':>7}")
    for delta, n, cid in rows:
        flag = "  <-- outside band" if abs(delta) > args.band else ""
        print(f"{cid:28} {pool[cid].kind:8} {n:6d} {delta:+7.1f}{flag}")
    outside = [c for d, _, c in rows if abs(d) > args.band]
    print(f"outside ±{args.band:g}: {len(outside)} cards: {', '.join(outside) or 'none'}")


if __name__ == "__main__":
    main()
