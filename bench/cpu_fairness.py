"""Does one user's pile of Hard games starve another user's Hard CPU? The worker pool's line, measured.

    python bench/cpu_fairness.py [--workers 1] [--budget 0.5] [--moves 20] [--heavy 5] [--lines user|none]
                                 [--background 0]

The real pool (webapp/ai/workers.py, worker processes): first bob's Hard CPU plays `--moves` moves
alone, one after another (each a position of a random game at its main step); then the same moves
while alice's `--heavy` Hard games think flat out beside them (each a thread asking for move after
move, as her CPU games would), and `--background` after-game analyses run at low priority. Prints
bob's move time (wall: what he waits) median/p99/max alone and under load, the ratio of the p99s,
and the moves the baseline played for each user (fallbacks). `--lines none` gives every move a line
of its own (no per-user turns), to compare with what the per-user line buys.
"""

import argparse
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import fairqueue, workers  # noqa: E402
from webapp.engine import load_pool  # noqa: E402
from webapp.engine.randomplay import random_action, random_game  # noqa: E402

POOL = load_pool()


def positions(n, seed):
    out = []
    s = seed
    while len(out) < n:
        game, rng = random_game(s, POOL)
        s += 1
        while game.result is None and game.state.round < 9:
            if game.state.phase == "main" and game.state.round >= 2 and len(game.legal_actions(game.state.active)) > 3 \
                    and rng.random() < 0.15:
                out.append((game.copy(), game.state.active))
                if len(out) >= n:
                    break
            game.apply(*random_action(game, rng))
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bob_moves(moves, budget, owner):
    times, fallbacks = [], 0
    for i, (game, p) in enumerate(moves):
        t = time.perf_counter()
        got = workers.think(game, p, "hard", seed=i, seconds=budget, owner=owner)
        times.append(time.perf_counter() - t)
        fallbacks += got.fallback
    return times, fallbacks


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--budget", type=float, default=0.5)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--heavy", type=int, default=5)
    ap.add_argument("--background", type=int, default=0)
    ap.add_argument("--lines", choices=("user", "none"), default="user")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    workers.configure(args.workers)
    per_user = args.lines == "user"
    bob = ("user", "bob") if per_user else None
    moves = positions(args.moves, args.seed)
    theirs = positions(8, args.seed + 1000)
    workers.think(*moves[0], "hard", seed=0, seconds=0.05)  # a started worker (not counted)

    alone, fb_alone = bob_moves(moves, args.budget, bob)
    stop = threading.Event()
    heavy = {"moves": 0, "fallbacks": 0}
    lock = threading.Lock()

    def alice(k, priority=fairqueue.LIVE, who=("user", "alice")):
        i = 0
        while not stop.is_set():
            game, p = theirs[(k + i) % len(theirs)]
            got = workers.think(game, p, "hard", seed=1000 * k + i, seconds=args.budget,
                                owner=who if per_user else None, priority=priority)
            with lock:
                heavy["moves"] += 1
                heavy["fallbacks"] += got.fallback
            i += 1

    threads = [threading.Thread(target=alice, args=(k,), daemon=True) for k in range(args.heavy)]
    threads += [threading.Thread(target=alice, args=(100 + k, fairqueue.BACKGROUND, ("analysis", k)), daemon=True)
                for k in range(args.background)]
    for t in threads:
        t.start()
    time.sleep(2 * args.budget)  # her games are all thinking before bob's first move (a bench may wait)
    cpu0 = time.process_time()
    loaded, fb_loaded = bob_moves(moves, args.budget, bob)
    stop.set()
    for t in threads:
        t.join()
    workers.shutdown()

    def line(name, xs):
        return (f"{name}: median {statistics.median(xs) * 1e3:.0f} ms, p99 {pct(xs, 0.99) * 1e3:.0f} ms, "
                f"max {max(xs) * 1e3:.0f} ms")

    print(f"pool of {args.workers} worker(s), {args.budget:g} s a move, lines per {'user' if per_user else 'move'}; "
          f"{args.moves} moves of bob's Hard CPU; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(line("bob alone", alone) + f"; fallbacks {fb_alone}")
    print(line(f"bob beside alice's {args.heavy} Hard games" + (f" and {args.background} analyses" if args.background else ""),
               loaded) + f"; fallbacks {fb_loaded}")
    print(f"p99 under load / p99 alone: {pct(loaded, 0.99) / pct(alone, 0.99):.2f}; alice's games meanwhile: "
          f"{heavy['moves']} moves, {heavy['fallbacks']} fallbacks; this process's CPU {time.process_time() - cpu0:.1f} s")


if __name__ == "__main__":
    main()
