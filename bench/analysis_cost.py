"""What an after-game analysis costs: one whole game's analysis through the real worker pool.

    python bench/analysis_cost.py [--seed 4] [--seconds 0.3] [--games 1]

Plays a game to its end with the baseline on both sides (random decks, `--seed`), then analyses it
for seat 0 as the server does (webapp/ai/analysis.py through workers.estimate / workers.advise at
`--seconds` per estimate and per search, the server's webapp/game/aftergame.py SECONDS by default),
in a pool of one worker. Prints the game's rounds, the positions valued, the wall time and the
worker's CPU time (user+sys of the worker process, read when it exits).
"""

import argparse
import os
import random
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import BaselinePlayer, analysis, workers  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402
from webapp.game import aftergame  # noqa: E402
from webapp.game.replay import Step  # noqa: E402


def game_steps(seed, pool):
    rng = random.Random(seed)
    g = Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=seed, first=None, pool=pool)
    players = [BaselinePlayer(seed=seed, pool=pool), BaselinePlayer(seed=seed + 1, pool=pool)]
    out = [Step(0, None, None, [], g.copy())]
    while g.result is None:
        p = min(g.waiting_for())
        a = players[p].choose(g.copy(), p)
        g.apply(p, a)
        out.append(Step(len(out), p, a, [], g.copy()))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=aftergame.SECONDS)
    ap.add_argument("--games", type=int, default=1)
    args = ap.parse_args()
    pool = load_pool()
    workers.configure(1)
    for k in range(args.games):
        steps = game_steps(args.seed + k, pool)
        rounds = steps[-1].game.state.round
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        got = analysis.analyse(iter(steps), 0,
                               lambda g, s: workers.estimate(g, s, args.seconds, owner=("analysis", 0)),
                               lambda g, s: workers.advise(g, s, args.seconds, owner=("analysis", 0)))
        wall = time.perf_counter() - t0
        workers.shutdown()  # the worker exits: its CPU time is counted in RUSAGE_CHILDREN
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"game seed {args.seed + k}: {rounds} rounds ({steps[-1].game.result['reason']}), "
              f"{len(got['turns'])} positions valued and {sum(1 for s in got['swings'] if s['cpu'])} CPU moves "
              f"searched at {args.seconds:g} s: wall {wall:.1f} s, the worker's CPU {cpu:.1f} s "
              f"(its start included); load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main()
