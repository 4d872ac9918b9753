"""Each story chapter at its CPU level, with the Hard CPU in the player's seat.

    python bench/story_levels.py [--seeds 10] [--budget 0.3] [--chapters first-muster,...]

For every chapter (docs/story.md) and seed: the chapter's game as `story.start_chapter` sets it up
(the Prince's Brigade for the player, the chapter's deck, its custom start if any), seat 0 played by
the searching CPU (`SearchPlayer`, `--budget` seconds per decision), seat 1 by the chapter's level
(`difficulty`: easy, normal = baseline, hard = the searching CPU at the same budget). The goal is
judged after every action as the server judges it (`storygoals.judge`). Prints per chapter the clear rate
with its 95% Wilson interval and the rounds the clears took; one process, one core.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.hard_vs_baseline import wilson  # noqa: E402
from webapp.decks.collection import LOANER  # noqa: E402
from webapp.game import play, storychapters, storygoals  # noqa: E402
from webapp.game.replay import new_game  # noqa: E402
from webapp.ai import DIFFICULTIES, PLAYERS, SEARCHING, SearchPlayer  # noqa: E402
from webapp.cards.decks import load_decks  # noqa: E402
from webapp.engine import load_pool  # noqa: E402


def setup_for(ch, loaner_cards, seed):
    """The setup `story.start_chapter` stores, without a database."""
    decks = [play.deck_list(loaner_cards), play.deck_list(ch.deck.counts)]
    setup = {"story": ch.id, "decks": decks, "mode": "story", "seed": seed, "first": 0,
             "leader_mode": "sequential"}
    if ch.start is not None:
        setup["scenario"] = storychapters.fill_start(ch.start, decks, seed)
    return setup


def opponent(ch, seed, pool, budget):
    name = DIFFICULTIES[ch.difficulty]
    if name in SEARCHING:
        return PLAYERS[name](seed=seed, pool=pool, budget=budget)
    return PLAYERS[name](seed=seed, pool=pool)


def play_chapter(ch, loaner_cards, seed, pool, budget):
    """(cleared, round or None, actions) of one game."""
    setup = setup_for(ch, loaner_cards, seed)
    row = {"mode": "story", "setup": setup}
    game = new_game(setup)
    players = {0: SearchPlayer(seed=seed, pool=pool, budget=budget), 1: opponent(ch, seed + 1, pool, budget)}
    actions = 0
    while True:
        verdict = storygoals.judge(row, game)
        if verdict.final:
            return verdict.met, verdict.round, actions
        p = min(game.waiting_for())
        game.apply(p, players[p].choose(game.copy(), p))
        actions += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=float, default=0.3, help="searching CPU seconds per decision")
    ap.add_argument("--chapters", default="", help="chapter ids, comma-separated (default: all)")
    args = ap.parse_args()
    pool = load_pool()
    loaner_cards = load_decks(pool)[LOANER].counts
    wanted = [c for c in args.chapters.split(",") if c]
    chapters = [c for c in storychapters.chapters() if not wanted or c.id in wanted]
    print(f"story chapters, Hard CPU ({args.budget:g} s/decision) in the player's seat, {args.seeds} seeds each")
    for ch in chapters:
        t0 = time.perf_counter()
        cleared, rounds = 0, []
        for seed in range(args.seeds):
            met, rnd, n = play_chapter(ch, loaner_cards, seed, pool, args.budget)
            cleared += met
            if met:
                rounds.append(rnd)
            print(f"  {ch.order:2} {ch.id}: seed {seed} {'cleared' if met else 'not cleared'} ({n} actions)",
                  file=sys.stderr, flush=True)
        lo, hi = wilson(cleared, args.seeds)
        print(f"{ch.order:2} {ch.id:22} level {ch.difficulty:6}  cleared {cleared}/{args.seeds} "
              f"({100 * cleared / args.seeds:.0f}%, 95% interval {100 * lo:.0f}–{100 * hi:.0f}%)"
              f"{f', median round {statistics.median(rounds):g}' if rounds else ''}, {time.perf_counter() - t0:.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
