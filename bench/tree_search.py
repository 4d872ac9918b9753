"""An experiment, not a CPU the game plays: information-set Monte Carlo tree search over both seats' moves.

    python bench/tree_search.py [--games 120] [--budget 0.2] [--opponent-budget 0.04]
                                [--opponent tree|hard] [--inner 5] [--seed 1] [--jobs 2]

docs/decisions/0152 found that the Hard CPU (webapp/ai/search.py, flat UCB over ten root candidates with
two-turn baseline rollouts) stops gaining with time: its imagined lines let the baseline answer for
the opponent, and more of them only choose among moves those lines cannot tell apart. This player
searches the replies too. Each iteration draws an imagined world (`Game.determinize`, as the Hard CPU
does); from the root it walks a tree of actions keyed by their content, in which each node's children
are the candidates of whoever acts there in that world (the Hard CPU's candidate list, five at inner
nodes), chosen by UCB1 over how often each was available; it adds one node, plays on with the baseline
to the same two-turn horizon and scores the line as the Hard CPU does, and the opponent's nodes choose
for the opponent. The more iterations, the deeper the tree: where the flat search's strength stops,
this one's should keep growing.

Prints, like `bench/hard_vs_baseline.py --paired` (whose game loop, interval and pairs it uses), the
tree player's score against the tree player at ``--opponent-budget`` (does it grow with time?) or
against the Hard CPU at that budget (is it as strong?).
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hard_vs_baseline as hvb  # noqa: E402
from webapp.ai import SearchPlayer  # noqa: E402
from webapp.ai.search import Search, SearchResult, key, mover, outcome, ranked  # noqa: E402
from webapp.engine import choices  # noqa: E402

INNER = 5  # candidates at a node below the root (--inner; 1 makes the tree the flat search's rollouts)


class Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self):
        self.children = {}
        self.visits = 0
        self.total = 0.0  # the root seat's value, summed
        self.avail = 0


class TreeSearch(Search):
    def __init__(self, player_obj, game, player):
        super().__init__(player_obj, game, player)
        if self.result is None:
            self.root = Node()
            self.root_keys = [key(a) for a in self.cands]
            for k in self.root_keys:
                self.root.children[k] = Node()

    def options(self, world, q, node):
        if node is self.root:
            return self.cands, self.root_keys
        legal = [a for a in world.legal_actions(q) if a["type"] != "resign"]
        if len(legal) == 1 and not choices.is_compact(legal[0]):
            cands = legal
        else:
            sp = self.sp
            cap, sp.max_candidates = sp.max_candidates, sp.inner
            try:
                cands = sp.candidates(world, q, legal)
            finally:
                sp.max_candidates = cap
        return cands, [key(a) for a in cands]

    def iterate(self, deadline):
        sp, player = self.sp, self.player
        world = self.game.determinize(player, sp.rng)
        node, path = self.root, [self.root]
        active, turns = self.root_active, 0
        while world.result is None and turns < sp.horizon_turns:
            # the root is the seat's own decision (in a simultaneous step too); below it, as the rollouts
            q = player if node is self.root else mover(world)
            cands, keys = self.options(world, q, node)
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            new = next((i for i, k in enumerate(keys) if k not in node.children or node.children[k].visits == 0), None)
            if new is not None:
                child = node.children.setdefault(keys[new], Node())
                if child.avail == 0:
                    child.avail = 1
                i = new
            else:
                i = pick(node, keys, q == player, sp.explore)
            world.apply_listed(q, cands[i])
            node = node.children[keys[i]]
            path.append(node)
            if world.state.active != active:
                active = world.state.active
                turns += 1
            if new is not None:
                break
        if world.result is None and turns < sp.horizon_turns:  # the baseline for the turns left
            value = sp.rollout(world, player, active, deadline, turns=sp.horizon_turns - turns)
        else:
            value = outcome(world, player)
        for n in path:
            n.visits += 1
            n.total += value

    def finish(self):
        visits = [self.root.children[k].visits for k in self.root_keys]
        totals = [self.root.children[k].total for k in self.root_keys]
        best = ranked(visits, totals)[0]
        win = totals[best] / visits[best] if visits[best] else None
        self.result = self.sp.last = SearchResult(self.cands[best], win, visits, self.it, self.cands, self.spent)
        return self.result


def pick(node, keys, mine, explore):
    """UCB1 over the children available now (``keys``), each with its availability count in the log's
    place: the value for whoever acts (the root seat's, or one minus it for the opponent)."""
    def ucb(i):
        ch = node.children[keys[i]]
        mean = ch.total / ch.visits
        return (mean if mine else 1.0 - mean) + explore * math.sqrt(math.log(max(ch.avail, 1)) / ch.visits)
    return max(range(len(keys)), key=ucb)


class TreePlayer(SearchPlayer):
    name = "tree"
    inner = INNER

    def begin(self, game, player):
        return TreeSearch(self, game, player)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--opponent-budget", type=float, default=0.04)
    ap.add_argument("--opponent", choices=("tree", "hard"), default="tree")
    ap.add_argument("--inner", type=int, default=INNER, help="candidates at a node below the root")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    TreePlayer.inner = args.inner
    hvb.against("tree", TreePlayer, args, same=args.opponent == "tree")


if __name__ == "__main__":
    main()
