"""The Hard CPU (webapp/ai/search.py) against the baseline, a flat Monte Carlo player, or itself at another budget.

    python bench/hard_vs_baseline.py [--games 200] [--budget 1.0] [--opponent baseline|flat|hard]
                                     [--flat-budget 0.2] [--seed 1] [--jobs 1] [--paired]

Random decks from the pool (webapp.engine.randomplay.random_deck), a new pair each game; the Hard
CPU takes seat 0 in even games and seat 1 in odd ones; who goes first is the engine's dice (R5.1);
the leader choice is simultaneous. Everything runs in this one process (one core), or with ``--jobs N``
one game at a time in each of N processes (the same games, printed in order): the budget is
the Hard CPU's thinking time per decision. Prints the Hard CPU's win rate with a 95% Wilson
interval (a draw counts as half a win) and its decision time median/p99/max over the decisions
where it had a choice. `flat` is determinized flat Monte Carlo: every candidate tried in turn,
each playout played to the end of the game with the baseline. `hard` is the same Hard CPU at
``--flat-budget`` seconds a decision: whether the search gets stronger with time (issue 28: Hard at
1 s against Hard at 0.2 s).

`--clock cpu` (the default) measures the budgets in CPU time of this process's thread
(time.thread_time): "1 s per decision on one core" whatever else the machine runs, so a run on a
busy shared host gives each decision the work it would get on an idle core. `--clock wall` uses
wall time, as a served game does. Both decision times are printed.

`--horizon H` and `--opponent-horizon H` set the two Hard CPUs' rollout horizons in turns (default 2,
the game's): an experiment on what the search's strength depends on.

`--paired` deals each pair of games alike (game i is dealt from seed ``seed + i // 2``: the same decks,
the same dice) and swaps the seats within the pair, so a strong deal or the first turn favours both
players once. It prints, besides the games' interval, the mean of the pairs' scores with a 95%
interval from their spread (a normal approximation over the pairs), which is narrower than the games'
when the deal decides much of a game.
"""

import argparse
import functools
import math
import multiprocessing
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.ai import BaselinePlayer, SearchPlayer  # noqa: E402
from webapp.engine import Game, load_pool  # noqa: E402
from webapp.engine.randomplay import random_deck  # noqa: E402


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def flat_player(seed, pool, budget, clock):
    """Determinized flat Monte Carlo: round-robin over the candidates, playouts to the game's end."""
    return SearchPlayer(seed=seed, pool=pool, budget=budget, explore=1e9, horizon_turns=10_000,
                        max_rollout_actions=100_000, clock=clock)


def pairs_interval(scores, z=1.96):
    """The mean of per-pair scores (each the average of a pair's two games) and its 95% interval."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, 0.0, 1.0
    half = z * statistics.stdev(scores) / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summary(args, wins, draws, games, score, think, iterations, t0, out=sys.stdout, wall=(), pairs=()):
    """Print the win rate with its 95% interval (and the pairs', with ``--paired``) and the decision
    times so far."""
    lo, hi = wilson(score, games)
    print(f"{args.name} ({args.budget:g} s/decision) vs {args.opponent}"
          f"{f' ({args.flat_budget:g} s/decision)' if args.opponent != 'baseline' else ''}: "
          f"{wins} won, {draws} drawn, {games - wins - draws} lost of {games} "
          f"({100 * score / games:.1f}%, 95% interval {100 * lo:.1f}–{100 * hi:.1f}%), "
          f"{time.perf_counter() - t0:.0f} s", file=out, flush=True)
    if pairs:
        mean, lo, hi = pairs_interval(pairs)
        print(f"pairs (each deal played from both seats): {len(pairs)}, mean score {100 * mean:.1f}% "
              f"(95% interval {100 * lo:.1f}–{100 * hi:.1f}%), {sum(1 for s in pairs if s == 0.5)} split",
              file=out, flush=True)
    if think:
        print(f"{args.name} decision time ({args.clock}) over {len(think)} decisions with a choice: median "
              f"{statistics.median(think) * 1e3:.0f} ms, p99 {pct(think, 0.99) * 1e3:.0f} ms, "
              f"max {max(think) * 1e3:.0f} ms; iterations per decision median {statistics.median(iterations):.0f}",
              file=out, flush=True)
    if wall and args.clock != "wall":
        print(f"{args.name} decision time (wall) median {statistics.median(wall) * 1e3:.0f} ms, p99 "
              f"{pct(wall, 0.99) * 1e3:.0f} ms, max {max(wall) * 1e3:.0f} ms; load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=out, flush=True)


def one_game(args, pool, clock, i):
    """Game ``i`` (seed ``args.seed + i``; the Hard CPU in seat ``i % 2``): the winner and why, the Hard
    CPU's seat, and its decision times (CPU and wall) and iterations where it had a choice."""
    seed = args.seed + (i // 2 if args.paired else i)
    rng = random.Random(seed)
    hard_seat = i % 2
    hard = SearchPlayer(seed=seed, pool=pool, budget=args.budget, clock=clock, horizon_turns=args.horizon)
    if args.opponent == "baseline":
        other = BaselinePlayer(seed=seed, pool=pool)
    elif args.opponent == "flat":
        other = flat_player(seed + 1, pool, args.flat_budget, clock)
    else:
        other = SearchPlayer(seed=seed + 1, pool=pool, budget=args.flat_budget, clock=clock,
                             horizon_turns=args.opponent_horizon)
    players = {hard_seat: hard, 1 - hard_seat: other}
    think, iterations, wall = [], [], []
    g = Game.new(random_deck(rng, pool), random_deck(rng, pool), seed=seed, first=None, pool=pool)
    while g.result is None:
        p = rng.choice(sorted(g.waiting_for()))
        t, c = time.perf_counter(), clock()
        a = players[p].choose(g.copy(), p)
        if p == hard_seat and hard.last is not None and hard.last.iterations:
            think.append(clock() - c)
            wall.append(time.perf_counter() - t)
            iterations.append(hard.last.iterations)
        g.apply(p, a)
    return g.result["winner"], g.result["reason"], hard_seat, think, iterations, wall


def games_in_order(args, pool, clock):
    """Every game's ``one_game`` result in game order: in this process, or with ``--jobs N`` in N
    worker processes (each game the same seed, seat and budget of its own CPU time as alone)."""
    return in_order(functools.partial(one_game, args, pool, clock), args.games, args.jobs)


def in_order(play, games, jobs):
    """``play(i)`` for i in range(games), yielded in order; ``jobs`` > 1 plays them in that many forked
    worker processes (the benches' games are independent: a seed each), which inherit ``play``."""
    if jobs <= 1:
        yield from map(play, range(games))
        return
    global _PLAY
    _PLAY = play
    with multiprocessing.get_context("fork").Pool(jobs) as workers:
        yield from workers.imap(_play, range(games))


_PLAY = None


def _play(i):
    return _PLAY(i)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--budget", type=float, default=1.0, help="Hard CPU seconds per decision")
    ap.add_argument("--opponent", choices=("baseline", "flat", "hard"), default="baseline")
    ap.add_argument("--flat-budget", type=float, default=0.2, help="the flat or hard opponent's seconds per decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, each in its own process (one per core)")
    ap.add_argument("--horizon", type=int, default=2, help="the Hard CPU's rollout horizon in turns")
    ap.add_argument("--opponent-horizon", type=int, default=2, help="the hard opponent's rollout horizon in turns")
    ap.add_argument("--paired", action="store_true", help="deal each pair of games alike, seats swapped")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="budgets in this thread's CPU time (default) or in wall time")
    ap.set_defaults(name="hard")
    run(ap.parse_args())


def against(name, player, args, same):
    """`run` with `player` (a SearchPlayer subclass: an experiment's search) in the Hard CPU's place, on
    paired deals and the CPU clock: against itself at ``args.opponent_budget`` (``same``) or against the
    Hard CPU at that budget. ``args``: budget, opponent_budget, seed, games, jobs."""
    global SearchPlayer
    hard, made = SearchPlayer, [0]

    def make(**options):
        """one_game makes its measured side first, then its opponent."""
        made[0] += 1
        return (player if same or made[0] % 2 == 1 else hard)(**options)

    SearchPlayer = make
    try:
        run(argparse.Namespace(name=name, budget=args.budget, flat_budget=args.opponent_budget,
                               opponent=name if same else "hard",
                               seed=args.seed, paired=True, horizon=2, opponent_horizon=2, games=args.games,
                               jobs=args.jobs, clock="cpu"))
    finally:
        SearchPlayer = hard


def run(args):
    """Play ``args.games`` games as ``args`` says and print each game's line (stderr), a summary every 25
    games (stderr) and the whole summary (stdout); ``args.name`` names the player measured (`against` runs
    this loop with an experiment's player in the Hard CPU's place)."""
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    pool = load_pool()
    score = 0.0
    wins = draws = 0
    think, iterations, wall = [], [], []
    pairs, first = [], None
    t0 = time.perf_counter()
    for i, (w, reason, hard_seat, think_i, iterations_i, wall_i) in enumerate(games_in_order(args, pool, clock)):
        think += think_i
        iterations += iterations_i
        wall += wall_i
        wins += w == hard_seat
        draws += w is None
        s = 1.0 if w == hard_seat else 0.5 if w is None else 0.0
        score += s
        if args.paired:
            if i % 2 == 0:
                first = s
            else:
                pairs.append((first + s) / 2)
        print(f"  game {i + 1}/{args.games}: {args.name} seat {hard_seat}, winner {w} ({reason}); "
              f"{args.name} {wins} won, {draws} drawn", file=sys.stderr, flush=True)
        if (i + 1) % 25 == 0 and i + 1 < args.games:
            print(f"after {i + 1} games:", file=sys.stderr)
            summary(args, wins, draws, i + 1, score, think, iterations, t0, out=sys.stderr, wall=wall, pairs=pairs)
    summary(args, wins, draws, i + 1, score, think, iterations, t0, wall=wall, pairs=pairs)


if __name__ == "__main__":
    main()
