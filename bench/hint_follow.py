"""A player that always presses "Do it": it plays the hint's move at every decision, against Normal
(the baseline) and against Hard at the same budget.

    python bench/hint_follow.py [--games 200] [--opponent normal|hard|both] [--budget 0.5] [--seed 1]
                                [--clock cpu|wall] [--jobs 1]

The hint is the Hard CPU's search for the player's seat (webapp.ai.workers.suggest runs
`PLAYERS["hard"](seed, pool, budget)` in a worker; here the same player runs in this process, one
core). Random decks from the pool, a new pair each game; the follower takes seat 0 in even games and
seat 1 in odd ones; who goes first is the engine's dice (R5.1). Prints the follower's win rate with a
95 % Wilson interval (a draw counts as half) for each opponent, and how often the hint's move sent the
player's last leader alone beside enemy power at least its life (webapp/ai/reasons.py's
"leader_exposed" fact: the blunder a follower met in play). `--clock cpu` measures the budget in
this thread's CPU time (the same work on a loaded machine as on an idle core), `wall` as a served game.
`--jobs N` plays N games at once in worker processes (game i keeps its seed and seat); `--seed S
--games N` with S - 1 even plays games S..S+N-1 of a longer run, seats as there.
"""

import argparse
import functools
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hard_vs_baseline import in_order, wilson  # noqa: E402

from webapp.ai import PLAYERS, BaselinePlayer, reasons  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402


def hint_player(seed, pool, budget, clock):
    """The hint as the server makes it (the Hard CPU's search for the asking seat)."""
    return PLAYERS["hard"](seed=seed, pool=pool, budget=budget, clock=clock)


def one_game(opponent, budget, seed0, clock, pool, i):
    """Game ``i`` (seed ``seed0 + i``; the follower in seat ``i % 2``): the winner and why, the
    follower's seat, its marches and how many of them sent its last leader out alone."""
    seed = seed0 + i
    rng = random.Random(seed)
    me = i % 2
    follower = hint_player(seed, pool, budget, clock)
    other = (BaselinePlayer(seed=seed, pool=pool) if opponent == "normal"
             else PLAYERS["hard"](seed=seed + 7919, pool=pool, budget=budget, clock=clock))
    players = {me: follower, 1 - me: other}
    exposed = decisions = 0
    g = Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=seed, first=None, pool=pool)
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        a = players[p].choose(g.copy(), p)
        if p == me and a["type"] == "march":
            decisions += 1
            exposed += any(k == "leader_exposed" and f["last"] and f["alone"]
                           for k, f, _good in reasons.board_facts(g.view(p), p, a))
        g.apply(p, a)
    return g.result["winner"], g.result["reason"], me, decisions, exposed


def play(opponent, games, budget, seed0, clock, pool, jobs=1, out=sys.stderr):
    score = 0.0
    wins = draws = exposed = decisions = 0
    t0 = time.process_time()
    play_one = functools.partial(one_game, opponent, budget, seed0, clock, pool)
    for i, (w, reason, me, marches, alone) in enumerate(in_order(play_one, games, jobs)):
        decisions += marches
        exposed += alone
        wins += w == me
        draws += w is None
        score += 1.0 if w == me else 0.5 if w is None else 0.0
        print(f"  vs {opponent} game {i + 1}/{games}: follower seat {me}, winner {w} ({reason}); "
              f"{wins} won, {draws} drawn", file=out, flush=True)
    lo, hi = wilson(score, games)
    print(f"hint follower ({budget:g} s/decision, {clock.__name__}) vs {opponent}: {wins} won, {draws} drawn, "
          f"{games - wins - draws} lost of {games} ({100 * score / games:.1f}%, 95% interval "
          f"{100 * lo:.1f}–{100 * hi:.1f}%); last leader sent alone beside enemy power at least its life: "
          f"{exposed} of {decisions} marches; {time.process_time() - t0:.0f} s CPU of this process"
          f"{f' (and its {jobs} workers)' if jobs > 1 else ''}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--opponent", choices=("normal", "hard", "both"), default="both")
    ap.add_argument("--budget", type=float, default=0.5, help="the hint's (and Hard's) seconds per decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, each in its own process (one per core)")
    args = ap.parse_args()
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    pool = load_pool()
    for opponent in (("normal", "hard") if args.opponent == "both" else (args.opponent,)):
        play(opponent, args.games, args.budget, args.seed, clock, pool, args.jobs)


if __name__ == "__main__":
    main()
