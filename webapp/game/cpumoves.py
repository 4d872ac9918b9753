"""The CPU's moves and the hint button: a CPU seat's decisions thought in the worker processes
(webapp/ai/workers.py) and played through the play service (``cpu_step``, ``cpu_turns``, which the
sockets layer's CPU runner calls), and what the Hard CPU would do in a player's place (``hint``)."""

import time

from flask_babel import gettext  # the request's language; English outside a request

from webapp.ai import workers
from webapp.game import hintwords, play
from webapp.game.cpuseats import cpu_seed, cpu_to_move, pool_owner
from webapp.hosting import metrics


def cpu_step(db, game_id):
    """Play one CPU decision if the game waits for the CPU; return Played, or None if it does not."""
    for _ in range(5):  # another writer may win the version race: look again
        row, game = play.load(db, game_id)
        seat = cpu_to_move(row, game)
        if seat is None:
            return None
        spec = row["setup"]["seats"][seat]
        action = thought(game, seat, spec["cpu"], cpu_seed(row), spec.get("seconds"), owner=pool_owner(row)).action
        try:
            return play.apply(db, row, seat, action, row["version"])
        except play.Stale:
            continue
    return None


def cpu_turns(db, game_id, on_action=None, delay=None, limit=10_000):
    """Play the CPU seat while the game waits for it; ``on_action(played)`` after each; return them all."""
    out = []
    while len(out) < limit:
        played = cpu_step(db, game_id)
        if played is None:
            break
        out.append(played)
        if on_action is not None:
            on_action(played)
        if delay:
            delay()
    return out


def thought(game, seat, name, seed, seconds, owner=None):
    """``workers.think``, its time counted in /metrics' ``brigade_cpu_move_seconds``."""
    begun = time.perf_counter()
    try:
        return workers.think(game, seat, name, seed, seconds, owner=owner)
    finally:
        metrics.observe_cpu_move(time.perf_counter() - begun)


def hint(db, game_id, user_id, seconds=None):
    """The hint button: what the Hard CPU would do in the user's place, as ``webapp.ai.workers.suggest``
    gives it (``action``, ``win``) with the ``version`` it is for and its words in the request's
    language (webapp/game/hintwords.py: ``sentence``, ``why``, a list of reasons, ``runner_up``),
    thought in a worker process from the user's seat's view only. For CPU and story games (Forbidden
    in online games between people, or without a seat), while the game waits for the user (Illegal
    otherwise); ``seconds`` the thinking time (the game's Hard budget, or the search's default)."""
    row, game = play.load(db, game_id)
    seat = play.player_seat(row, user_id)
    if row["mode"] not in play.SOLO_MODES:
        raise play.Forbidden(gettext("Hints are for games against the CPU, not between people."), game_id)
    if row["status"] != "active":
        raise play.Illegal(gettext("This game is over."), game_id)
    if seat not in game.waiting_for():
        raise play.Illegal(gettext("It is not your move: the CPU is thinking."), game_id)
    if seconds is None:
        seconds = next((s.get("seconds") for s in row["setup"].get("seats", [])
                        if isinstance(s, dict) and s.get("seconds")), None)
    begun = time.perf_counter()
    try:
        got = workers.suggest(game, seat, seconds, seed=cpu_seed(row), owner=("user", user_id))
        return dict(action=got["action"], win=got["win"], version=row["version"], **hintwords.words(game, seat, got))
    finally:
        metrics.observe_cpu_move(time.perf_counter() - begun)
