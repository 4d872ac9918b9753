"""Same seeds, same games: a fingerprint of the engine's and the CPU players' behaviour, to compare two trees.

    python bench/fingerprint.py ROOT [random] [baseline] [search] [search2]

Runs ROOT's engine and CPU players (a checkout or worktree; its `webapp` comes first on the path) and
prints one hash per part: `random`, 200 random games (both seats' legal lists, both seats' and a
spectator's views, the state's JSON and the events at every step, the result); `baseline`, 20 games of
the baseline against itself (its moves, events, the mover's view); `search`, six searches at 30
iterations (move, visits, value, candidates, statistics); `search2`, eight more at 60 iterations and the
baseline's moves along five determinized worlds at each of 40 positions (through `glance` where the tree
has it). Run it on the old and the new tree: a behaviour-preserving change prints the same hashes
([decisions/0151](../docs/decisions/0151-the-baseline-decides-from-a-glance.md)). About a minute.
"""

import hashlib
import json
import random
import sys


def dump(x):
    return json.dumps(x, sort_keys=True, default=repr).encode()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    parts = sys.argv[2:] or ["random", "baseline", "search", "search2"]
    from webapp.ai import BaselinePlayer, SearchPlayer
    from webapp.engine import load_pool
    from webapp.engine.randomplay import random_action, random_game

    def position(seed, steps):
        """A random game of ``seed`` after at most ``steps`` random actions (it may have ended)."""
        game, rng = random_game(seed, pool)
        for _ in range(steps):
            if game.result is not None:
                break
            game.apply(*random_action(game, rng))
        return game, rng

    pool = load_pool()
    if "random" in parts:
        h = hashlib.sha256()
        for seed in range(200):
            game, rng = random_game(seed, pool)
            while game.result is None:
                for p in (0, 1):
                    h.update(dump(game.legal_actions(p)))
                    h.update(dump(game.view(p)))
                h.update(dump(game.view(None)))
                h.update(game.to_json().encode())
                player, action = random_action(game, rng)
                h.update(dump(game.apply(player, action)))
            h.update(dump(game.result))
        print("random", h.hexdigest()[:16], flush=True)
    if "baseline" in parts:
        h = hashlib.sha256()
        for seed in range(20):
            game, _rng = random_game(1000 + seed, pool)
            cpus = [BaselinePlayer(seed=seed, pool=pool), BaselinePlayer(seed=seed + 50, pool=pool)]
            steps = 0
            while game.result is None and steps < 3000:
                p = min(game.waiting_for())
                a = cpus[p].choose(game, p)
                h.update(dump(a))
                h.update(dump(game.apply(p, a)))
                h.update(dump(game.view(p)))
                steps += 1
            h.update(dump(game.result))
        print("baseline", h.hexdigest()[:16], flush=True)
    if "search" in parts:
        h = hashlib.sha256()
        for seed in range(6):
            game, rng = position(300 + seed, 15 + 7 * seed)
            if game.result is not None:
                continue
            r = SearchPlayer(seed=seed, pool=pool, iterations=30).search(game, min(game.waiting_for()))
            h.update(dump([r.action, r.visits, r.win, r.iterations, r.candidates, r.stats]))
        print("search", h.hexdigest()[:16], flush=True)
    if "search2" in parts:
        h = hashlib.sha256()
        searches = 0
        for seed in range(40):
            game, rng = position(700 + seed, 10 + 3 * seed)
            if game.result is not None:
                continue
            p = min(game.waiting_for())
            if seed % 3 == 0:
                r = SearchPlayer(seed=seed, pool=pool, iterations=60).search(game, p)
                h.update(dump([r.action, r.visits, r.win, r.candidates, r.stats]))
                searches += 1
            cpu = BaselinePlayer(seed=seed, pool=pool)
            glance = "glance" in cpu.choose.__code__.co_varnames
            worlds = random.Random(seed)
            for _world in range(5):
                w = game.determinize(p, worlds)
                steps = 0
                while w.result is None and steps < 40:
                    q = min(w.waiting_for())
                    a = cpu.choose(w, q, glance=True) if glance else cpu.choose(w, q)
                    h.update(dump(a))
                    w.apply_listed(q, a)
                    steps += 1
        print("search2", searches, "searches", h.hexdigest()[:16], flush=True)


if __name__ == "__main__":
    main()
