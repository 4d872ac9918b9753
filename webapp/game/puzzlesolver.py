"""Playing a puzzle's line and searching for one: the proof that a puzzle can be solved.

A puzzle game is the player (seat 0) against a CPU (seat 1) that answers exactly as it does in the
stored game: the CPU's seed for each decision is the game's seed and version (``cpuseats.cpu_seed``),
so a line of the player's actions gives the same game here as on the board.

``play_line`` plays the player's actions with the CPU between them and returns the goal's verdict;
``solve`` is a small depth-first search over the player's legal actions (compact entries expanded
into every set or order they stand for, docs/engine.md "Compact entries") for a line that meets
the goal, within a budget of positions.
"""

import itertools
import json
import random
from typing import NamedTuple

from webapp.ai import workers
from webapp.engine import IllegalAction
from webapp.engine import choices
from webapp.game import puzzlegoal

PLAYER, CPU = 0, 1
#: The player's kinds of action the search tries (a discard or a resignation never solves a puzzle).
SEARCHED = ("summon", "march", "march_ability", "end_turn", "quick_summon", "formation", "ability", "spell",
            "attack", "pass", "destroy_over_capacity", "choose_leaders")


class Line(NamedTuple):
    """What playing a line gave: the verdict ("met", "missed" or None: still open), the actions the
    player played (the line, up to the verdict), and the game after them."""

    verdict: str | None
    played: list
    game: object
    version: int


def cpu_seed(seed, version):
    """The seed of the CPU's decision at ``version`` of a game of ``seed`` (as ``cpuseats.cpu_seed``)."""
    return random.Random(f"{seed}:{version}").getrandbits(64)


def cpu_answers(game, goal, start, seed, version, cpu="baseline"):
    """Let the CPU play while the game waits for it; return (verdict or None, version)."""
    while game.result is None and CPU in game.waiting_for():
        action = workers.think(game, CPU, cpu, cpu_seed(seed, version)).action
        events = game.apply(CPU, action)
        version += 1
        v = puzzlegoal.verdict(goal, start, game, events)
        if v is not None:
            return v, version
    return None, version


def play_line(start, goal, line, seed, cpu="baseline"):
    """Play ``line`` (the player's actions) from the puzzle's ``start`` (a Game, left unchanged) with the
    CPU answering; stop at the verdict. IllegalAction if an action of the line is refused."""
    game = start.copy()
    version = 0
    played = []
    v, version = cpu_answers(game, goal, start, seed, version, cpu)
    for action in line:
        if v is not None:
            break
        if PLAYER not in game.waiting_for():
            raise IllegalAction(f"the line goes on after the game stopped waiting for the player: {action!r}")
        events = game.apply(PLAYER, action)
        version += 1
        played.append(action)
        v = puzzlegoal.verdict(goal, start, game, events)
        if v is None:
            v, version = cpu_answers(game, goal, start, seed, version, cpu)
    return Line(v, played, game, version)


def concrete(game, player=PLAYER, kinds=SEARCHED):
    """Every action the player may take now, the compact entries expanded (each set or order they stand
    for that the engine accepts), without resign and discards."""
    out = []
    for entry in game.legal_actions(player):
        if entry["type"] not in kinds:
            continue
        if not choices.is_compact(entry):
            out.append(entry)
            continue
        ids = list(entry["from"])
        if entry["choose"] == "order":
            options = itertools.permutations(ids)
        else:
            options = (c for n in range(1, len(ids) + 1) for c in itertools.combinations(ids, n))
        for pick in options:
            action = choices.fill(entry, list(pick))
            if game.is_legal(player, action):
                out.append(action)
    return out


def solve(start, goal, seed, cpu="baseline", max_depth=10, max_nodes=4000):
    """A shortest line of the player's actions that meets ``goal`` from ``start`` against the CPU
    (iterative deepening), or None when none is found within ``max_depth`` actions and ``max_nodes``
    positions in all. Returns (line, nodes)."""
    seen = {}
    nodes = 0

    def key(game):
        return json.dumps(game.view(PLAYER), sort_keys=True)  # what the player sees decides their options

    def search(game, version, depth):
        nonlocal nodes
        for action in concrete(game):
            if nodes >= max_nodes:
                return None
            nodes += 1
            g = game.copy()
            events = g.apply(PLAYER, action)
            v = puzzlegoal.verdict(goal, start, g, events)
            ver = version + 1
            if v is None:
                v, ver = cpu_answers(g, goal, start, seed, ver, cpu)
            if v == "met":
                return [action]
            if v == "missed" or depth <= 1 or PLAYER not in g.waiting_for():
                continue
            k = (key(g), ver)
            if seen.get(k, 0) >= depth:
                continue  # met before with as many actions left or more
            seen[k] = depth
            rest = search(g, ver, depth - 1)
            if rest is not None:
                return [action] + rest
        return None

    game = start.copy()
    v, version = cpu_answers(game, goal, start, seed, 0, cpu)
    if v == "met":
        return [], nodes
    if v == "missed":
        return None, nodes
    for depth in range(1, max_depth + 1):
        seen.clear()
        line = search(game, version, depth)
        if line is not None or nodes >= max_nodes:
            return line, nodes
    return None, nodes
