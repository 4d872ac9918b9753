"""The CPU's seats of a game: which player and thinking time a setup gives the CPU (``cpu_seat``), which
seats of a stored game the CPU plays (``cpu_seats``) and which it must move now (``cpu_to_move``), the
seed of its random choices (``cpu_seed``) and its place in the worker pool's line (``pool_owner``).
The moves themselves are webapp/game/cpumoves.py's."""

import random

from webapp.ai import DIFFICULTIES, PLAYERS, SEARCHING
from webapp.ai import DEFAULT_BUDGET
from webapp.game.playerrors import BadRequest

CPU_PLAYER = "baseline"


def cpu_player(name=None):
    """The CPU's player by name: the baseline unless the host's ``CPU_PLAYER`` setting names another
    one of ``webapp.ai.PLAYERS`` (the browser tests' first hour sets "random", a weak CPU)."""
    if name is None:
        return CPU_PLAYER
    if name not in PLAYERS:
        raise BadRequest(f"no CPU player is called {name!r}")
    return name


def cpu_seat(cpu_name=None, difficulty=None, seconds=None):
    """The setup's CPU seat: ``{"cpu": player name}``, and for a searching player its thinking time
    per decision, ``"seconds"`` (the host's CPU_HARD_SECONDS; the search's default if None). A
    ``cpu_name`` (the host's CPU_PLAYER, for tests) wins over ``difficulty``; neither: the baseline."""
    if cpu_name is None and difficulty is not None:
        if difficulty not in DIFFICULTIES:
            raise BadRequest(f"the difficulty is one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
        cpu_name = DIFFICULTIES[difficulty]
    seat = {"cpu": cpu_player(cpu_name)}
    if seat["cpu"] in SEARCHING:
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds <= 60):
            raise BadRequest(f"the CPU's thinking time is a number of seconds up to 60, not {seconds!r}")
        seat["seconds"] = float(seconds) if seconds is not None else DEFAULT_BUDGET
    return seat


def cpu_difficulty(row):
    """The difficulty ("easy", "normal", "hard") of a game's CPU seat, or None (another player)."""
    names = {v: k for k, v in DIFFICULTIES.items()}
    for name in cpu_seats(row).values():
        return names.get(name)
    return None


def cpu_seats(row):
    """{seat: player name} of the seats the CPU plays."""
    return {seat: s["cpu"] for seat, s in enumerate(row["setup"].get("seats", []))
            if isinstance(s, dict) and s.get("cpu")}


def cpu_to_move(row, game):
    """The CPU seat the game waits for, or None."""
    if row["status"] != "active":
        return None
    waiting = game.waiting_for()
    for seat in sorted(cpu_seats(row)):
        if seat in waiting:
            return seat
    return None


def cpu_seed(row):
    """The CPU's random choices depend on the game and its version only (a rebuild replays them)."""
    return random.Random(f"{row['seed']}:{row['version']}").getrandbits(64)


def pool_owner(row):
    """Whose turn a CPU move takes in the worker pool's line (webapp/ai/fairqueue.py): the game's
    person, so one user's many games share one place; a game without one is its own."""
    uid = next((u for u in row.get("seats", []) if u is not None), None)
    return ("user", uid) if uid is not None else ("game", row["id"])
