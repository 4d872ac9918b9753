"""Puzzles made from a moment of one's own finished game, shared by link (docs/puzzles.md, "From a replay").

Only a player of the game may make one, and only once the game is over (a puzzle's solver must never
help a game in progress). The position is built from the maker's view at that step alone
(``Game.view(seat)``: the board, the lands, both discard piles, the maker's own hand) and nothing
else: the opponent's hand and both draw piles, which the maker never saw, are left out (empty), so
a shared puzzle reveals nothing of the game its maker could not see. What it does show to whoever
opens the link is the maker's own hand at that moment: the page says so before sharing. The maker
is seat 0 of the puzzle (a maker who was seat 1 sees the map turned round, ``MIRROR``). The goal is
one of the puzzle goals, and the solver must find a way to meet it before the puzzle is stored.
"""

import random
import secrets

from flask_babel import gettext

from webapp import store
from webapp.engine import Game, load_pool
from webapp.game import gamecache, play, puzzlegoal, puzzles, puzzlesolver
from webapp.game.replay import steps
from webapp.store import puzzles as puzzle_store

#: The lands as seat 1 sees them from its side: its base becomes H0, the map turned round (R4.2).
MIRROR = {"H0": "H1", "L1": "L5", "L2": "L6", "L3": "L3", "L4": "L4", "L5": "L1", "L6": "L2", "H1": "H0"}
#: The positions the solver may look at before it gives up on a goal (a request's worth of CPU).
SOLVER_NODES = 4000
GOAL_TYPES = ("win_battle", "take_lands", "win_game", "survive")


def moment(db, user_id, game_id, version):
    """(row, seat, game at ``version``) of a finished game of the user's; PlayError otherwise."""
    row = play.load_row(db, game_id)
    seat = play.seat_of(row, user_id)
    if seat is None:
        raise play.Forbidden(gettext("Only the players of a game may make a puzzle from it."))
    if row["status"] != "finished":
        raise play.Illegal(gettext("A puzzle can be made from a game once it is over."))
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= row["version"]:
        raise play.BadRequest(gettext("Choose a step of the replay."))
    game = None
    for step in steps(row["setup"], store.list_actions(db, game_id), upto=version):
        game = step.game
    s = game.state
    if game.result is not None or s.phase != "main" or game.waiting_for() != {seat}:
        raise play.Illegal(gettext("Choose a moment when it is your move outside a battle: a puzzle starts "
                                   "in your main step."))
    return row, seat, game.copy()


def scenario_from_view(game, seat, seed):
    """The scenario of the position as ``seat`` saw it, with ``seat`` as player 0: only what
    ``game.view(seat)`` holds (docs/engine.md, "Scenario format")."""
    view = game.view(seat)
    pool = load_pool()
    where = (lambda land: MIRROR[land]) if seat == 1 else (lambda land: land)
    players = [{"hand": [], "deck": [], "discard": [], "units": []} for _ in (0, 1)]
    for u in view["units"]:
        p = 0 if u["owner"] == seat else 1
        card = pool[u["card"]]
        allowed = 2 if "double_march" in (card.data.get("keywords") or []) else 1
        entry = {"card": u["card"], "land": where(u["land"]), "id": f"{'a' if p == 0 else 'b'}{len(players[p]['units']) + 1}"}
        if u["leader"]:
            entry["leader"] = True
        if u["exhausted"]:
            entry["exhausted"] = True
        marched = max(0, allowed - u.get("marches_left", allowed))
        if marched and not u["exhausted"]:
            entry["marched"] = marched
        players[p]["units"].append(entry)
    for q in (0, 1):
        p = 0 if q == seat else 1
        players[p]["discard"] = list(view["players"][q]["discard"])
    players[0]["hand"] = [{"card": c["card"], "id": f"h{i + 1}"} for i, c in enumerate(view["players"][seat]["hand"])]
    lands = {where(name): info["kind"] for name, info in view["lands"].items() if name not in ("H0", "H1")}
    owners = {where(name): (None if info["owner"] is None else 0 if info["owner"] == seat else 1)
              for name, info in view["lands"].items()}
    first = 0 if view["first"] == seat else 1
    return {"seed": seed, "round": view["round"], "first": first, "active": 0, "lands": lands, "owners": owners,
            "players": players, "leader_mode": "sequential"}


def check_goal(raw):
    """A goal from the form: {type, count?, round?} checked as a puzzle goal; BadRequest otherwise."""
    if not isinstance(raw, dict) or raw.get("type") not in GOAL_TYPES:
        raise play.BadRequest(gettext("Choose a goal from the list."))
    goal = {"type": raw["type"]}
    if raw["type"] == "take_lands":
        goal["count"] = raw.get("count")
    if raw["type"] == "survive":
        goal["round"] = raw.get("round")
    try:
        return puzzlegoal.check(goal)
    except puzzlegoal.GoalError:
        raise play.BadRequest(gettext("Choose a goal from the list.")) from None


def make(db, user_id, game_id, version, goal, nodes=SOLVER_NODES):
    """Store a puzzle made from step ``version`` of the user's finished game with ``goal``, once the
    solver found a way to meet it; return its share code. PlayError (Forbidden, Illegal, BadRequest)
    with words for the player otherwise, and nothing stored."""
    goal = check_goal(goal)
    row, seat, game = moment(db, user_id, game_id, version)
    seed = random.Random(f"puzzle:{row['seed']}:{version}").getrandbits(62)
    scenario = scenario_from_view(game, seat, seed)
    try:
        start = Game.from_scenario(scenario)
        puzzlegoal.check_start(goal, start)
    except (ValueError, puzzlegoal.GoalError):
        raise play.Illegal(gettext("This goal is already met, or past, at that moment: choose another.")) from None
    line, _nodes = puzzlesolver.solve(start, goal, seed, max_depth=8, max_nodes=nodes)
    if line is None:
        raise play.Illegal(gettext("The goal cannot be met from that moment (no way was found): choose another "
                                   "goal or moment."))
    if puzzles.play_idle(start, goal, seed) == "met":
        raise play.Illegal(gettext("Doing nothing meets that goal: choose a harder one."))
    code = secrets.token_urlsafe(9)
    with store.transaction(db):
        puzzle_store.share_puzzle(db, code, user_id, game_id, version, goal, scenario, line)
    return code


def shared(db, code):
    """The shared puzzle with this code (a dict), or play.NotFound."""
    got = puzzle_store.get_shared(db, code) if isinstance(code, str) and len(code) <= 40 else None
    if got is None:
        raise play.NotFound(gettext("There is no such puzzle."))
    return got


def start_shared(db, user, code):
    """A game of the shared puzzle for whoever opened its link; return the game id."""
    got = shared(db, code)
    uid = play.user_id_of(user)
    scenario = got["scenario"]
    setup = {"mode": "puzzle", "shared": code, "goal": got["goal"], "seed": scenario["seed"],
             "first": scenario["first"], "leader_mode": "sequential", "scenario": scenario,
             "deck_ids": [None, None], "decks": [puzzles.scenario_cards(scenario, p) for p in (0, 1)],
             "seats": [{"user_id": uid}, {"cpu": "baseline"}]}
    game = Game.from_scenario(scenario)
    with store.transaction(db):
        return store.create_game(db, "puzzle", scenario["seed"], setup, state=gamecache.snapshot_text(game))
