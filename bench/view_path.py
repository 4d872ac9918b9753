"""The server's work after an action, in one process: both seats' views, legal actions, log and update.

    python bench/view_path.py [--games N] [--seed S] [--policy baseline|random] [--rounds R] [--lang en|ja]
    python bench/view_path.py --against DIR [...]      # this tree's code against DIR's (e.g. /work/main)
    python bench/view_path.py --profile [...]

Plays N games to their end (fixed seeds; the baseline CPU on both seats by default, as
bench/online_load.py does, or random legal actions), recording each action and its events, then
times, for every action, what the socket server builds for the two seats (webapp/sockets/statepush.py
``StatePusher.push``): ``Game.view(seat)``, ``Game.legal_actions(seat)``, the view's JSON (orjson, as
``StatePusher.parts``), ``seatstate.state_for`` (its log, in ``--lang``) and ``updates.diff`` against the seat's
view of the position before (freeing that view is timed with the diff: the server frees it too). It
prints µs per action, in total and per part: the best of R rounds over the same positions, in CPU time
of the process (the host is shared).

``--against DIR`` loads DIR's webapp package too (a copy under another name, in a temporary folder
removed afterwards), replays the same actions in its engine, and alternates rounds of the two in this
one process, so both see the same load; it prints both and their ratio. ``--profile`` prints a
cProfile of one round of this tree's code instead.
"""

import argparse
import cProfile
import gc
import importlib
import os
import pstats
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import orjson  # noqa: E402

NAMES = ["Alice", "Bob"]
PARTS = ("view", "legal", "json", "state_for", "diff")


class Kit:
    """The functions timed, from one tree's package (``webapp`` or a renamed copy)."""

    def __init__(self, package):
        engine = importlib.import_module(f"{package}.engine")
        self.pool = engine.load_pool()
        self.randomplay = importlib.import_module(f"{package}.engine.randomplay")
        self.players = importlib.import_module(f"{package}.ai").PLAYERS
        self.play = importlib.import_module(f"{package}.game.play")
        try:  # what a seat sees has its own module since play.py was split by concern
            self.state_for = importlib.import_module(f"{package}.game.seatstate").state_for
        except ModuleNotFoundError:  # a reference tree from before the split
            self.state_for = self.play.state_for
        self.diff = importlib.import_module(f"{package}.sockets.updates").diff
        self.where = os.path.dirname(os.path.dirname(self.play.__file__))


def renamed_copy(root, name, into):
    """Copy ``root``/webapp to ``into``/``name`` with its own imports renamed; the data it reads beside
    the package (cards, translations, stories) linked in."""
    shutil.copytree(os.path.join(root, "webapp"), os.path.join(into, name),
                    ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    word = re.compile(r"\bwebapp\b(?=[. ])")
    for folder, _dirs, files in os.walk(os.path.join(into, name)):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(word.sub(name, text))
    for data in ("cards", "translations", "stories", "docs"):
        if os.path.exists(os.path.join(root, data)):
            os.symlink(os.path.join(root, data), os.path.join(into, data))


def record(kit, games, seed, policy):
    """The actions of each game: [[(player, action)]]."""
    out = []
    for g in range(games):
        game, rng = kit.randomplay.random_game(seed + g, kit.pool)
        players = None if policy == "random" else [kit.players[policy](seed=seed + g + 1000 * p, pool=kit.pool)
                                                    for p in (0, 1)]
        moves = []
        while game.result is None and len(moves) < 2000:
            if players is None:
                player, action = kit.randomplay.random_action(game, rng)
            else:
                player = sorted(game.waiting_for())[0]
                action = players[player].choose(game, player)
            game.apply(player, action)
            moves.append((player, action))
        out.append(moves)
    return out


def replay(kit, moves, seed):
    """[(game after each action, its events)] of each recorded game, in ``kit``'s engine."""
    out = []
    for g, game_moves in enumerate(moves):
        game, _ = kit.randomplay.random_game(seed + g, kit.pool)
        steps = [(game.copy(), [])]
        for player, action in game_moves:
            events = game.apply(player, action)
            steps.append((game.copy(), events))
        out.append(steps)
    return out


def run(kit, recorded, lang):
    """({part: seconds}, actions) over every action of every recorded game."""
    t = dict.fromkeys(PARTS, 0.0)
    clock = time.process_time  # CPU time: the machine is shared
    actions = 0
    state_for, diff = kit.state_for, kit.diff
    for g, steps in enumerate(recorded):
        row = {"id": g + 1, "version": 0, "mode": "online", "status": "active", "seats": [1, 2],
               "setup": {"seats": [{"user": 1}, {"user": 2}]}}
        before = [None, None]
        for game, events in steps:
            game = type(game)(game.state)  # no caches: the server's game after an action has computed nothing
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
                state_for(row, game, seat, events, NAMES, parts=(view_json, legal_json, sorted(game.waiting_for())),
                          lang=lang)
                t4 = clock()
                if before[seat] is not None:
                    diff(before[seat], tree)
                before[seat] = tree
                t5 = clock()
                t["view"] += t1 - t0
                t["legal"] += t2 - t1
                t["json"] += t3 - t2
                t["state_for"] += t4 - t3
                t["diff"] += t5 - t4
            actions += 1
    return t, actions


def line(per):
    mine = per["view"] + per["state_for"] + per["diff"]
    return "  ".join(f"{k} {per[k]:.1f}" for k in PARTS) + f"  | view+state_for+diff {mine:.1f}  all {sum(per.values()):.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="baseline")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--against", metavar="DIR", help="a tree (holding webapp/) to time side by side")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    tmp = None
    try:
        kits = {"this": Kit("webapp")}
        if args.against:
            tmp = tempfile.mkdtemp(prefix="view_path_")
            renamed_copy(args.against, "webapp_base", tmp)
            sys.path.insert(0, tmp)
            kits["base"] = Kit("webapp_base")
        moves = record(kits["this"], args.games, args.seed, args.policy)
        recorded = {name: replay(kit, moves, args.seed) for name, kit in kits.items()}
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            run(kits["this"], recorded["this"], args.lang)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(35)
            return
        best = {}
        actions = 0
        gc.collect()
        for _ in range(args.rounds):
            for name, kit in kits.items():
                t, actions = run(kit, recorded[name], args.lang)
                best[name] = t if name not in best else {k: min(v, t[k]) for k, v in best[name].items()}
        print(f"{args.games} games ({args.policy}), {actions} actions, log in {args.lang}; µs of CPU per action, "
              f"both seats (best of {args.rounds} rounds):")
        per = {name: {k: v / actions * 1e6 for k, v in t.items()} for name, t in best.items()}
        for name, kit in kits.items():
            print(f"{name:>5} ({kit.where}): {line(per[name])}")
        if "base" in per:
            ratio = {k: per["this"][k] / per["base"][k] for k in ("view", "state_for", "diff")}
            ours = sum(per["this"][k] for k in ratio) / sum(per["base"][k] for k in ratio)
            print("  this/base: " + "  ".join(f"{k} {v:.2f}" for k, v in ratio.items()) + f"  view+state_for+diff {ours:.2f}")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
