"""Engine speed: random legal games, the cost of legal_actions + apply, and of copying a state.

    python bench/engine.py [--games N] [--seed S] [--speed-only]
    python bench/engine.py --compare REF [--rounds R] [--games N] [--listed]
    python bench/engine.py --instructions REF [--games N] [--listed]

Prints games/s, actions/s (legal_actions and apply counted together, as a player's loop does: a
random entry of the legal list, a random choice of it when it is a compact entry), the median cost
of one legal_actions + apply, and a mid-game state copy against copy.deepcopy. `--listed` applies the
moves through `Game.apply_listed` (the searches' path for moves the engine listed, without apply's
checks) where the engine has it, `apply` elsewhere: what a search's rollout pays per move.

`--compare REF` exports the git ref REF (`git archive` of webapp/, cards/ and bench/ into a
temporary folder, removed afterwards; no worktree is registered) and runs its own bench/engine.py
and this tree's in turn, R rounds each, alternating so both see the same load, each in a process of
its own on its own code; it prints each run's actions/s and the medians and their ratio. Each side
plays random legal games of its own engine: where the legal lists differ (compact entries), so do the
games.

`--instructions REF` counts instead of timing: it runs the same loop (default 30 games) on REF's engine
and this tree's under valgrind's callgrind (needs `valgrind`; about a minute a side), once with the games
and once with none (imports and the card pool), and prints the machine instructions per action and
their ratio. The count does not depend on the host's load, so two engines compare on a shared, busy
host; it is not time (caches, branch prediction), so quote it beside `--compare`'s ratios.
"""

import argparse
import copy
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def engine_from(root):
    """(load_pool, random_game, random_action_of) of the engine under `root` (this tree by default).
    An engine from before the compact entries has no `choices`: its entries are all actions."""
    sys.path.insert(0, root)
    from webapp.engine import load_pool
    from webapp.engine.randomplay import random_game
    try:
        from webapp.engine.choices import random_action_of
    except ImportError:
        def random_action_of(entry, rng):
            return entry
    return load_pool, random_game, random_action_of


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
    ap.add_argument("--speed-only", action="store_true", help="only the games (no copy timings)")
    ap.add_argument("--compare", metavar="REF", help="a git ref to run side by side with this tree")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each side with --compare")
    ap.add_argument("--listed", action="store_true", help="apply through Game.apply_listed where the engine has it")
    ap.add_argument("--engine-root", default=HERE, help="the checkout whose engine to run (this tree's bench loop)")
    ap.add_argument("--instructions", metavar="REF", help="count instructions per action of REF and this tree")
    ap.add_argument("--loop-only", action="store_true", help=argparse.SUPPRESS)  # --instructions' runs
    args = ap.parse_args()
    if args.compare:
        compare(args)
        return
    if args.instructions:
        instructions(args)
        return
    load_pool, random_game, random_action_of = engine_from(args.engine_root)
    pool = load_pool()
    listed = args.listed and hasattr(random_game(0, pool)[0], "apply_listed")
    if args.loop_only:  # the games alone, no clocks: what --instructions counts
        actions = 0
        for i in range(args.games):
            game, rng = random_game(args.seed + i, pool)
            while game.result is None:
                player = rng.choice(sorted(game.waiting_for()))
                choices = [a for a in game.legal_actions(player) if a["type"] != "resign"]
                (game.apply_listed if listed else game.apply)(player, random_action_of(rng.choice(choices), rng))
                actions += 1
        print(f"actions: {actions}")
        return
    before = calibrate()
    costs = []
    actions = 0
    mid_states = []
    t_all = time.perf_counter()
    cpu_all = time.process_time()
    for i in range(args.games):
        game, rng = random_game(args.seed + i, pool)
        n = 0
        while game.result is None:
            t0 = time.perf_counter()
            player = rng.choice(sorted(game.waiting_for()))
            legal = game.legal_actions(player)
            choices = [a for a in legal if a["type"] != "resign"]
            (game.apply_listed if listed else game.apply)(player, random_action_of(rng.choice(choices), rng))
            costs.append(time.perf_counter() - t0)
            n += 1
            if n == 60 and len(mid_states) < 50:
                mid_states.append(game.copy())
        actions += n
        if (i + 1) % max(1, args.games // 10) == 0:
            print(f"  {i + 1}/{args.games} games", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t_all
    cpu = time.process_time() - cpu_all
    after = calibrate()
    print(f"machine: reference loop {before:.3f} s before, {after:.3f} s after "
          f"(compare runs only at similar figures: a busy host slows everything)")
    print(f"path: {'apply_listed' if listed else 'apply'}")
    print(f"games: {args.games} in {elapsed:.2f} s = {args.games / elapsed:.1f} games/s")
    print(f"actions: {actions} = {actions / elapsed:,.0f} actions/s (legal_actions + apply, whole loop)")
    print(f"cpu: {cpu:.2f} s of this process's CPU = {actions / cpu:,.0f} actions per CPU second "
          f"(steadier than wall time on a busy host)")
    print(f"per action: median {statistics.median(costs) * 1e6:.1f} µs, "
          f"p99 {sorted(costs)[int(len(costs) * 0.99)] * 1e6:.1f} µs")
    if args.speed_only:
        return
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


def export(ref):
    """A temporary folder holding webapp/ and cards/ of the git ref (the caller removes it)."""
    tmp = tempfile.mkdtemp(prefix="brigade-bench-")
    archive = subprocess.run(["git", "-C", HERE, "archive", "--format=tar", ref, "webapp", "cards"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
    return tmp


def instructions(args):
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    games = 30 if args.games == 300 else args.games  # the default of 300 would take ten minutes a side
    tmp = export(args.instructions)
    try:
        counts = {}
        for label, root in ((args.instructions, tmp), ("this tree", HERE)):
            figures = []
            for n in (games, 0):
                run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                                      os.path.abspath(__file__), "--loop-only", "--engine-root", root, "--games", str(n),
                                      "--seed", str(args.seed)] + (["--listed"] if args.listed else []),
                                     cwd=root, check=True, capture_output=True, text=True)
                figures.append((int(re.search(r"Collected : (\d+)", run.stderr).group(1)),
                                int(re.search(r"actions: (\d+)", run.stdout).group(1))))
            (total, actions), (setup, _) = figures
            counts[label] = (total - setup) / actions
            print(f"{label:>12}: {counts[label]:,.0f} instructions per action ({actions} actions, {games} games, "
                  f"{'apply_listed' if args.listed else 'apply'})", flush=True)
        old, new = counts[args.instructions], counts["this tree"]
        print(f"ratio: {args.instructions} / this tree = {old / new:.3f}x fewer instructions per action")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare(args):
    tmp = export(args.compare)
    try:
        sides = [(args.compare, tmp), ("this tree", HERE)]
        wall = {label: [] for label, _ in sides}
        cpu = {label: [] for label, _ in sides}
        print(f"load average before: {os.getloadavg()[0]:.2f} (1 min); the same bench loop (this file's) "
              f"drives each side's engine, in a process of its own, alternating")
        for r in range(args.rounds):
            for label, root in sides:
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "--speed-only", "--engine-root", root,
                                      "--games", str(args.games), "--seed", str(args.seed)]
                               + (["--listed"] if args.listed else []),
                                     cwd=root, check=True, capture_output=True, text=True).stdout
                w = float(re.search(r"= ([\d,]+) actions/s", out).group(1).replace(",", ""))
                c = float(re.search(r"= ([\d,]+) actions per CPU second", out).group(1).replace(",", ""))
                n = re.search(r"actions: (\d+)", out).group(1)
                path = re.search(r"path: (\w+)", out).group(1)
                loop = re.search(r"reference loop ([\d.]+) s before", out).group(1)
                wall[label].append(w)
                cpu[label].append(c)
                print(f"round {r + 1}: {label:>12}: {w:>8,.0f} actions/s wall, {c:>8,.0f} per CPU second "
                      f"({n} actions, {path}; reference loop {loop} s)", flush=True)
        print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")
        for what, figures in (("wall", wall), ("CPU", cpu)):
            old, new = (statistics.median(figures[label]) for label, _ in sides)
            print(f"median ({what}): {args.compare} {old:,.0f}, this tree {new:,.0f} actions/s: {new / old:.2f}x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
