"""The server's work after an action, in one process: both seats' views, legal actions, log and update.

    python bench/view_path.py [--games N] [--seed S] [--policy baseline|random] [--rounds R] [--profile]

Plays N games to their end (fixed seeds; the baseline CPU on both seats by default, as
bench/online_load.py does, or random legal actions), recording each position and its events, then
times, for every action, what the socket server builds for the two seats (webapp/sockets/handlers.py
``Hub.push``): ``Game.view(seat)``, ``Game.legal_actions(seat)``, the view's JSON (orjson, as
``Hub.parts``), ``play.state_for`` (its log, in English) and ``updates.diff`` against the seat's view
of the position before. It prints µs per action, in total and per part (the best of R rounds over
the same positions; CPU time of the process, as the host is shared). The timed code is whatever
``webapp`` imports: run it with ``PYTHONPATH=<a tree>`` to time another tree's code (which also plays
the games: the same seeds give the same games where the engines agree). ``--lang ja`` times the
Japanese log. ``--profile`` prints a cProfile of one round instead.
"""

import argparse
import cProfile
import gc
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if HERE not in sys.path and not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, HERE)

import orjson  # noqa: E402

from webapp.engine import load_pool  # noqa: E402
from webapp.engine.randomplay import random_action, random_game  # noqa: E402
from webapp.game import play  # noqa: E402
from webapp.sockets.updates import diff  # noqa: E402

NAMES = ["Alice", "Bob"]


def record(games, seed, policy, pool):
    """[(game copies after each action, events of that action)] of each game."""
    out = []
    for g in range(games):
        game, rng = random_game(seed + g, pool)
        players = None
        if policy != "random":
            from webapp.ai import PLAYERS
            players = [PLAYERS[policy](seed=seed + g + 1000 * p, pool=pool) for p in (0, 1)]
        steps = [(game.copy(), [])]
        while game.result is None and len(steps) < 2000:
            if players is None:
                player, action = random_action(game, rng)
            else:
                player = sorted(game.waiting_for())[0]
                action = players[player].choose(game, player)
            events = game.apply(player, action)
            steps.append((game.copy(), events))
        out.append(steps)
    return out


def fresh(game):
    """The game at the same state with empty caches (the server's game after an action has computed nothing)."""
    return type(game)(game.state)


def run(recorded, lang):
    """{part: seconds} over every action of every recorded game."""
    t = {"view": 0.0, "legal": 0.0, "json": 0.0, "state_for": 0.0, "diff": 0.0}
    clock = time.process_time  # CPU time: the machine is shared
    actions = 0
    for g, steps in enumerate(recorded):
        row = {"id": g + 1, "version": 0, "mode": "online", "status": "active", "seats": [1, 2],
               "setup": {"seats": [{"user": 1}, {"user": 2}]}}
        before = [None, None]
        for game, events in steps:
            game = fresh(game)
            row["version"] = game.version
            row["status"] = "active" if game.result is None else "finished"
            for seat in (0, 1):
                t0 = clock()
                tree = game.view(seat)
                t1 = clock()
                legal = game.legal_actions(seat)
                t2 = clock()
                view_json = orjson.dumps(tree, option=orjson.OPT_NON_STR_KEYS)
                legal_json = orjson.dumps(legal)
                t3 = clock()
                play.state_for(row, game, seat, events, NAMES, parts=(view_json, legal_json, sorted(game.waiting_for())),
                               lang=lang)
                t4 = clock()
                if before[seat] is not None:
                    diff(before[seat], tree)
                before[seat] = tree  # (freeing the seat's view before is timed with the diff: the server frees it too)
                t5 = clock()
                t["view"] += t1 - t0
                t["legal"] += t2 - t1
                t["json"] += t3 - t2
                t["state_for"] += t4 - t3
                t["diff"] += t5 - t4
            actions += 1
    return t, actions


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="baseline")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    pool = load_pool()
    recorded = record(args.games, args.seed, args.policy, pool)
    print(f"webapp from {os.path.dirname(os.path.dirname(play.__file__))}")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(recorded, args.lang)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(35)
        return
    best = None
    gc.collect()
    for _ in range(args.rounds):
        t, actions = run(recorded, args.lang)
        best = t if best is None else {k: min(v, t[k]) for k, v in best.items()}
    per = {k: v / actions * 1e6 for k, v in best.items()}
    print(f"{args.games} games ({args.policy}), {actions} actions, log in {args.lang}; µs per action, both seats "
          f"(best of {args.rounds} rounds):")
    print("  " + "  ".join(f"{k} {v:.1f}" for k, v in per.items()))
    mine = per["view"] + per["state_for"] + per["diff"]
    print(f"  view + state_for + diff {mine:.1f}; all {sum(per.values()):.1f}")


if __name__ == "__main__":
    main()
