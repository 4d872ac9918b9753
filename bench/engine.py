"""Engine speed: random legal games, the cost of legal_actions + apply, and of copying a state.

    python bench/engine.py [--games N] [--seed S]

Prints games/s, actions/s (legal_actions and apply counted together, as a player's loop does),
the median cost of one legal_actions + apply, and a mid-game state copy against copy.deepcopy.
"""

import argparse
import copy
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.engine import load_pool  # noqa: E402
from webapp.engine.randomplay import random_game  # noqa: E402


def calibrate():
    """Seconds for a fixed pure-Python loop: this machine's speed right now (it varies on shared hosts)."""
    t0 = time.perf_counter()
    total = 0
    for i in range(5_000_000):
        total += i
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pool = load_pool()
    before = calibrate()
    costs = []
    actions = 0
    mid_states = []
    t_all = time.perf_counter()
    for i in range(args.games):
        game, rng = random_game(args.seed + i, pool)
        n = 0
        while game.result is None:
            t0 = time.perf_counter()
            player = rng.choice(sorted(game.waiting_for()))
            legal = game.legal_actions(player)
            choices = [a for a in legal if a["type"] != "resign"]
            game.apply(player, rng.choice(choices))
            costs.append(time.perf_counter() - t0)
            n += 1
            if n == 60 and len(mid_states) < 50:
                mid_states.append(game.copy())
        actions += n
        if (i + 1) % max(1, args.games // 10) == 0:
            print(f"  {i + 1}/{args.games} games", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t_all
    after = calibrate()
    print(f"machine: reference loop {before:.3f} s before, {after:.3f} s after "
          f"(compare runs only at similar figures: a busy host slows everything)")
    print(f"games: {args.games} in {elapsed:.2f} s = {args.games / elapsed:.1f} games/s")
    print(f"actions: {actions} = {actions / elapsed:,.0f} actions/s (legal_actions + apply, whole loop)")
    print(f"per action: median {statistics.median(costs) * 1e6:.1f} µs, "
          f"p99 {sorted(costs)[int(len(costs) * 0.99)] * 1e6:.1f} µs")
    reps = 2000
    t0 = time.perf_counter()
    for _ in range(reps):
        for g in mid_states:
            g.copy()
    t_copy = (time.perf_counter() - t0) / (reps * len(mid_states))
    t0 = time.perf_counter()
    for _ in range(reps):
        for g in mid_states:
            g.state.copy()
    t_state = (time.perf_counter() - t0) / (reps * len(mid_states))
    t0 = time.perf_counter()
    for _ in range(20):
        for g in mid_states:
            copy.deepcopy(g.state)
    t_deep = (time.perf_counter() - t0) / (20 * len(mid_states))
    t0 = time.perf_counter()
    for _ in range(20):
        for g in mid_states:  # the fairer figure: what changes only, the shared card data left out
            copy.deepcopy(g.state, {id(g.state.static): g.state.static})
    t_dyn = (time.perf_counter() - t0) / (20 * len(mid_states))
    print(f"Game.copy (mid-game, {len(mid_states)} states): {t_copy * 1e6:.2f} µs "
          f"(shares the state: apply never changes a published state)")
    print(f"State.copy, the copy apply makes of what changes: {t_state * 1e6:.2f} µs")
    print(f"  copy.deepcopy of the same state: {t_deep * 1e6:.1f} µs (Game.copy 1/{t_deep / t_copy:.0f}, "
          f"State.copy 1/{t_deep / t_state:.0f}); without its shared card data: {t_dyn * 1e6:.1f} µs "
          f"(Game.copy 1/{t_dyn / t_copy:.0f}, State.copy 1/{t_dyn / t_state:.0f})")


if __name__ == "__main__":
    main()
