"""Puzzles: a set position (the engine's scenario format), a goal the server judges, and the words
around it (docs/puzzles.md). Files ``cards/puzzles/*.toml``, one puzzle each.

This module loads and checks the puzzle files (every problem names the file and the field; a
puzzle is refused unless its own solution meets its goal and doing nothing does not), starts a
puzzle's game (mode ``"puzzle"``: the player in seat 0 against a CPU, from the puzzle's position),
ends it the moment its goal is met or missed (``judge``, the mode's verdict after each action), and
records each player's tries and solves (``store.puzzles``).

It registers the puzzle mode with the play service (``modes.register_mode``, at the end of the file).
"""

import contextlib
import functools
import json
import logging
import os
import re

from flask_babel import gettext

from webapp import store
from webapp.ai import PLAYERS, SEARCHING
from webapp.cards.decks import open_record, ordered_records
from webapp.engine import Game, IllegalAction, load_pool
from webapp.game import gamecache, modes, play, puzzlegoal, puzzlesolver
from webapp.game.replay import scenario_cards

log = logging.getLogger(__name__)

PUZZLE_KEYS = {"id", "order", "difficulty", "title", "teaches", "hint", "explanation", "goal", "scenario",
               "solution", "wrong", "cpu"}
REQUIRED = PUZZLE_KEYS - {"wrong", "cpu"}
DIFFICULTY = ("easy", "normal", "hard")
ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
RULE_ID = re.compile(r"^R\d{1,2}(\.\d{1,2}[a-z]?)?$")
LANGS = ("en", "ja")
#: After this many missed tries a puzzle's solution is shown (as it is after a solve).
TRIES_BEFORE_SOLUTION = 3
REASON = "puzzle"  # the result reason of a puzzle game ended by its goal


class PuzzleDataError(ValueError):
    """A puzzle file is malformed; the message names the file, the puzzle and the field."""


class Puzzle:
    """One puzzle, checked. ``start`` is its first position (a Game, never changed: copy it)."""

    __slots__ = ("id", "order", "difficulty", "title", "teaches", "hint", "explanation", "goal", "scenario",
                 "solution", "wrong", "cpu", "source", "start")

    def __init__(self, data, start, source):
        self.id, self.order, self.source = data["id"], data["order"], source
        self.difficulty = data["difficulty"]
        self.title, self.teaches = data["title"], data["teaches"]
        self.hint, self.explanation = data["hint"], data["explanation"]
        self.goal, self.scenario = data["goal"], data["scenario"]
        self.solution = data["solution"]
        self.wrong = data.get("wrong", [])
        self.cpu = data.get("cpu", "baseline")
        self.start = start

    def __repr__(self):
        return f"Puzzle({self.id!r}, order={self.order})"

    def goal_text(self, lang="en"):
        return goal_text(self.goal, lang)

    def seed(self):
        return self.scenario["seed"]


def puzzle_dir():
    """``cards/puzzles`` beside the card pool (``$BRIGADE_PUZZLES`` overrides it)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get("BRIGADE_PUZZLES") or os.path.join(root, "cards", "puzzles")


def check_text(value, fail, field):
    if not isinstance(value, dict) or set(value) != set(LANGS) or \
            not all(isinstance(value[k], str) and value[k].strip() for k in LANGS):
        fail(field, "expected { en = \"...\", ja = \"...\" }, both non-empty")


def check_line(line, fail, field):
    if not isinstance(line, list) or not all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in line):
        fail(field, "expected a list of actions ({ type = \"march\", units = [...], to = \"L3\" }, docs/engine.md)")


def idle_line(game):
    """What a player who does nothing sends now: let everything through, add nobody, keep the standing
    formation, attack only when nothing else is left, end the turn."""
    legal = [a for a in game.legal_actions(0) if not puzzlesolver.choices.is_compact(a)]
    for kind in ("pass", "quick_summon", "formation", "end_turn", "attack"):
        for a in legal:
            if a["type"] == kind:
                return a
    return None


def play_idle(start, goal, seed, cpu="baseline", limit=200):
    """The verdict of doing nothing from ``start`` (``idle_line`` at every decision)."""
    game, version = start.copy(), 0
    v, version = puzzlesolver.cpu_answers(game, goal, start, seed, version, cpu)
    while v is None and limit > 0:
        action = idle_line(game)
        if action is None:
            return None
        events = game.apply(0, action)
        version += 1
        limit -= 1
        v = puzzlegoal.verdict(goal, start, game, events)
        if v is None:
            v, version = puzzlesolver.cpu_answers(game, goal, start, seed, version, cpu)
    return v


def parse_puzzle(data, pool, source="<data>", prove=True):
    """Check one puzzle's table and return a Puzzle; PuzzleDataError naming the field otherwise.

    With ``prove`` the puzzle's ``solution`` must meet its goal against its CPU, and neither doing
    nothing nor any of its ``wrong`` lines may."""
    pid, fail = open_record(data, "puzzle", PUZZLE_KEYS, source, PuzzleDataError)
    for k in sorted(REQUIRED):
        if k not in data:
            fail(k, "missing")
    if not isinstance(pid, str) or not ID.match(pid):
        fail("id", "expected an id of lower-case letters, digits and '-'")
    order = data["order"]
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        fail("order", f"expected a whole number of 1 or more, got {order!r}")
    if data["difficulty"] not in DIFFICULTY:
        fail("difficulty", f"expected one of {', '.join(DIFFICULTY)}, got {data['difficulty']!r}")
    for f in ("title", "hint", "explanation"):
        check_text(data[f], fail, f)
    teaches = data["teaches"]
    if not isinstance(teaches, dict) or set(teaches) - {"rules", "en", "ja"}:
        fail("teaches", "expected { rules = [\"R8.5\", ...], en = \"...\", ja = \"...\" }")
    rules = teaches.get("rules")
    if not isinstance(rules, list) or not rules or not all(isinstance(r, str) and RULE_ID.match(r) for r in rules):
        fail("teaches.rules", f"expected a list of rule ids such as \"R8.5\", got {rules!r}")
    check_text({k: teaches.get(k) for k in LANGS}, fail, "teaches")
    cpu = data.get("cpu", "baseline")
    if cpu not in PLAYERS or cpu in SEARCHING:
        fail("cpu", f"expected a CPU that answers at once: one of "
                    f"{', '.join(sorted(set(PLAYERS) - SEARCHING))}, got {cpu!r}")
    try:
        goal = puzzlegoal.check(data["goal"])
    except puzzlegoal.GoalError as exc:
        fail("goal", str(exc))
    scenario = data["scenario"]
    if not isinstance(scenario, dict):
        fail("scenario", "expected a scenario table (docs/engine.md, \"Scenario format\")")
    for key in ("seed", "lands"):
        if key not in scenario:
            fail(f"scenario.{key}", "missing: a puzzle is the same position every time")
    players = scenario.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, dict) and "deck" in p
                                                                       for p in players):
        fail("scenario.players", "expected two players, each with a 'deck' (its draw pile, top first; [] for none)")
    if scenario.get("leader_mode", "sequential") != "sequential":
        fail("scenario.leader_mode", "a puzzle's CPU chooses after the player: 'sequential'")
    try:
        start = Game.from_scenario(dict(scenario, leader_mode="sequential"), pool)
    except (ValueError, TypeError, KeyError) as exc:
        fail("scenario", f"not a legal position: {exc}")
    try:
        puzzlegoal.check_start(goal, start)
    except puzzlegoal.GoalError as exc:
        fail("goal", str(exc))
    check_line(data["solution"], fail, "solution")
    wrong = data.get("wrong", [])
    if not isinstance(wrong, list):
        fail("wrong", "expected a list of lines")
    for i, entry in enumerate(wrong):
        if not isinstance(entry, dict) or set(entry) != {"line"}:
            fail(f"wrong[{i}]", "expected { line = [actions] }")
        check_line(entry["line"], fail, f"wrong[{i}].line")
    wrong = [entry["line"] for entry in wrong]
    if prove:
        seed = scenario["seed"]
        try:
            got = puzzlesolver.play_line(start, goal, data["solution"], seed, cpu)
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            fail("solution", f"an action is refused: {exc}")
        if got.verdict != "met":
            fail("solution", f"does not meet the goal (verdict {got.verdict!r} after {len(got.played)} actions)")
        if len(got.played) != len(data["solution"]):
            fail("solution", f"meets the goal after its first {len(got.played)} actions: drop the rest")
        if play_idle(start, goal, seed, cpu) == "met":
            fail("goal", "doing nothing meets it: that is no puzzle")
        for i, line in enumerate(wrong):
            try:
                v = puzzlesolver.play_line(start, goal, line, seed, cpu).verdict
            except IllegalAction:
                v = None  # the rules stop the wrong line there (R8.7 and the like): not met
            except (ValueError, KeyError, TypeError) as exc:
                fail(f"wrong[{i}]", f"an action is malformed: {exc}")
            if v == "met":
                fail(f"wrong[{i}]", "this wrong line meets the goal")
    data = dict(data, goal=goal, cpu=cpu)
    return Puzzle(data, start, source)


def load_puzzles(path=None, pool=None, prove=True):
    """Every puzzle in ``path`` (default ``cards/puzzles``), sorted by ``order``; PuzzleDataError on bad data."""
    path = path or puzzle_dir()
    pool = load_pool() if pool is None else pool
    return ordered_records(path, lambda data, full: parse_puzzle(data, pool, full, prove), "puzzle", PuzzleDataError)


@functools.lru_cache(maxsize=4)
def _cached(path):
    return tuple(load_puzzles(path, prove=False))  # proven by the tests (tests/puzzles), checked here


def puzzles():
    """The puzzles in order (read once per process)."""
    return list(_cached(puzzle_dir()))


def puzzle(puzzle_id):
    """The puzzle with this id; play.NotFound otherwise."""
    for p in puzzles():
        if p.id == puzzle_id:
            return p
    raise play.NotFound(gettext("There is no such puzzle."))


# ---------------------------------------------------------------- words


def goal_text(goal, lang="en"):
    """The goal in the player's words."""
    kind = goal["type"]
    ja = lang == "ja"
    if kind == "win_battle":
        land = goal.get("land")
        if land:
            where = ("相手の本陣" if land == "H1" else f"土地{land}") if ja else ("the enemy base" if land == "H1" else land)
            return f"このターンに{where}での戦闘に勝つ" if ja else f"Win a battle on {where} this turn"
        return "このターンに戦闘で勝つ（攻撃を成功させる）" if ja else "Win a battle this turn (an attack that succeeds)"
    if kind == "take_lands":
        n = goal["count"]
        if ja:
            return f"このターンに土地を{n}つ取る"
        return f"Take {n} lands this turn" if n > 1 else "Take a land this turn"
    if kind == "win_game":
        return "このターンにゲームに勝つ" if ja else "Win the game this turn"
    r = goal["round"]
    if r > puzzlegoal.LAST_ROUND:
        return "12巡目の終わりまで負けずに残る" if ja else "Survive to the end of round 12"
    return f"{r}巡目の開始まで負けずに残る" if ja else f"Survive until round {r} begins"


# ---------------------------------------------------------------- games


def start_puzzle(db, user, puzzle_id):
    """Create the puzzle's game (mode ``"puzzle"``) for the user and return its id. A game of this puzzle
    the user still has in progress ends first, counted as a try (``retry``)."""
    uid = play.user_id_of(user)
    pz = puzzle(puzzle_id)
    scenario = dict(pz.scenario, leader_mode="sequential")
    seed = pz.seed()
    setup = {"mode": "puzzle", "puzzle": pz.id, "seed": seed, "first": scenario.get("first", 0),
             "leader_mode": "sequential", "scenario": scenario, "deck_ids": [None, None],
             "decks": [scenario_cards(scenario, p) for p in (0, 1)],
             "seats": [{"user_id": uid}, {"cpu": pz.cpu}]}
    for old in puzzle_games(db, uid, pz.id, "active"):
        with contextlib.suppress(play.PlayError, store.StaleVersion):
            play.end(db, old["id"], 1, REASON)
    game = Game.from_scenario(scenario)
    with store.transaction(db):
        game_id = store.create_game(db, "puzzle", seed, setup, state=gamecache.snapshot_text(game))
        store.puzzle_started(db, uid, pz.id)
    return game_id


def puzzle_games(db, user_id, puzzle_id, status=None):
    """The user's games of this puzzle, most recently changed first."""
    return [r for r in store.list_games(db, user_id, status)
            if r["mode"] == "puzzle" and r["setup"].get("puzzle") == puzzle_id and r["seats"][0] == user_id]


def puzzle_of(row):
    """The puzzle a puzzle game row plays; play.NotFound if it is none."""
    setup = row.get("setup") or {}
    if row.get("mode") != "puzzle" or not setup.get("puzzle"):
        raise play.NotFound(gettext("This is not a puzzle game."))
    return puzzle(setup["puzzle"])


@functools.lru_cache(maxsize=64)
def _start_of(scenario_text):
    return Game.from_scenario(json.loads(scenario_text))


def start_of(row):
    """The first position of a puzzle game (from its stored setup), a Game not to be changed."""
    return _start_of(json.dumps(row["setup"]["scenario"], sort_keys=True))


def goal_of(row):
    """The goal a puzzle game is judged by: the puzzle's (the setup keeps its own copy for a game made from a replay)."""
    setup = row.get("setup") or {}
    if isinstance(setup.get("goal"), dict):
        return setup["goal"]
    return puzzle_of(row).goal


def judge(row, game, events):
    """The mode's verdict after an action: (winner, reason) to end the game with, or None.

    The goal met: the player (seat 0) wins; missed: the CPU does (``puzzlegoal.verdict``)."""
    try:
        v = puzzlegoal.verdict(goal_of(row), start_of(row), game, events)
    except play.NotFound:
        return None
    if v is None or game.result is not None:
        return None
    return (0, REASON) if v == "met" else (1, REASON)


def solved_by(row):
    """Whether a finished puzzle game met its goal (the player won it)."""
    return (row.get("result") or {}).get("winner") == 0


def on_game_over(db, row):
    """When a puzzle game ends: count the try, and the solve when the player won it. Never raises."""
    try:
        user_id = row["seats"][0] if row.get("seats") else None
        pid = (row.get("setup") or {}).get("puzzle")
        if user_id is None or not pid:
            return None
        with store.transaction(db):
            store.puzzle_finished(db, user_id, pid, solved_by(row), row["id"])
        return True
    except Exception:  # noqa: BLE001 - the action that ended the game is stored already
        log.exception("recording the puzzle result of game %s failed", row.get("id"))
        return None


def progress(db, user_id):
    """{puzzle id: {"tries", "misses", "solved", "game"}} of the user."""
    return store.get_puzzle_progress(db, user_id)


def solution_open(entry):
    """Whether the puzzle's solution may be shown: after a solve, or after TRIES_BEFORE_SOLUTION misses."""
    entry = entry or {}
    return bool(entry.get("solved")) or entry.get("misses", 0) >= TRIES_BEFORE_SOLUTION


def opponent_name(row, lang="en"):
    return "パズルの相手" if lang == "ja" else "Puzzle opponent"


modes.register_mode("puzzle", modes.Mode(opponent_name=opponent_name, reward_source=lambda row: None,
                                         game_over=on_game_over, judge=judge, victory_pack=False))
