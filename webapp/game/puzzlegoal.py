"""A puzzle's goal: its kinds, their checking, and the verdict after each action (docs/puzzles.md).

The player is seat 0. A goal is judged from the engine's state and the events of each action, as
the action happens, so a puzzle game ends the moment its verdict is known (met: the player wins the
puzzle; missed: it is lost). The kinds:

- ``win_battle``: win a battle as the attacker (R8.8, R14.1) this turn; ``land`` may name the land.
- ``take_lands``: hold ``count`` more lands than at the start, this turn (R4.5, R4.6, R8.6).
- ``win_game``: win the game this turn, by leaders (R1.1) or by the round-12 judgment (R16.1).
- ``survive``: still be in the game when round ``round`` begins (R1.1, R1.4), or win before it.

"This turn" is the player's turn the puzzle starts in: the goal is missed when that turn ends
without it. A won game meets every goal (the battle that felled the last enemy leader stops at once,
R1.6, so it may never end as a battle).
"""

from webapp.engine import LANDS

KINDS = {"win_battle": {"type", "land"}, "take_lands": {"type", "count"}, "win_game": {"type"},
         "survive": {"type", "round"}}
LAST_ROUND = 12  # R1.4
PLAYER = 0


class GoalError(ValueError):
    """A goal is malformed; the message names the field."""


def check(goal):
    """Return ``goal`` if it is a well-formed goal, else raise GoalError naming the field."""
    if not isinstance(goal, dict):
        raise GoalError("goal: expected a table with a 'type'")
    kind = goal.get("type")
    if kind not in KINDS:
        raise GoalError(f"goal.type: expected one of {', '.join(KINDS)}, got {kind!r}")
    for key in goal:
        if key not in KINDS[kind]:
            raise GoalError(f"goal.{key}: unknown key for a {kind!r} goal (known: {', '.join(sorted(KINDS[kind]))})")
    if kind == "win_battle" and "land" in goal and (goal["land"] not in LANDS or goal["land"] == "H0"):
        raise GoalError(f"goal.land: expected one of {', '.join(LANDS[1:])}, got {goal['land']!r}")
    if kind == "take_lands":
        n = goal.get("count")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(LANDS) - 1:
            raise GoalError(f"goal.count: expected a number of lands from 1 to {len(LANDS) - 1}, got {n!r}")
    if kind == "survive":
        r = goal.get("round")
        if not isinstance(r, int) or isinstance(r, bool) or not 3 <= r <= LAST_ROUND + 1:
            raise GoalError(f"goal.round: expected a round from 3 to {LAST_ROUND + 1} (13: to the end), got {r!r}")
    return goal


def check_start(goal, game):
    """GoalError when the goal cannot be a puzzle in this start position (already met, or past)."""
    s = game.state
    if game.result is not None or game.waiting_for() != {PLAYER}:
        raise GoalError("scenario: the position must wait for the player (seat 0) to move")
    if goal["type"] == "survive" and s.round >= goal["round"]:
        raise GoalError(f"goal.round: the position is already in round {s.round}")
    if goal["type"] == "win_battle" and goal.get("land") and s.owners[LANDS.index(goal["land"])] == PLAYER:
        raise GoalError(f"goal.land: the player already holds {goal['land']}")


def lands_of(game, player=PLAYER):
    """The lands ``player`` holds (R4.5), as a set of names."""
    return {LANDS[i] for i, o in enumerate(game.state.owners) if o == player}


def verdict(goal, start, game, events):
    """After an action: "met", "missed" or None (still open). ``start`` is the puzzle's first position
    (a Game), ``game`` the game after the action, ``events`` what the action produced."""
    result = game.result
    if result is not None:
        if result.get("winner") == PLAYER:
            return "met"
        if goal["type"] == "survive" and result.get("winner") is None and game.state.round >= LAST_ROUND \
                and goal["round"] > LAST_ROUND:
            return "met"  # a judged draw at the very end: still standing (R16.1 (3))
        return "missed"
    kind = goal["type"]
    if kind == "win_battle":
        for e in events:
            if e.get("type") == "battle_ended" and e.get("attacker") == PLAYER and e.get("success") \
                    and goal.get("land") in (None, e.get("land")):
                return "met"
    elif kind == "take_lands":
        if len(lands_of(game) - lands_of(start)) >= goal["count"]:
            return "met"
    elif kind == "survive":
        if game.state.round >= goal["round"]:
            return "met"
        return None
    if any(e.get("type") == "turn_ended" and e.get("player") == PLAYER for e in events):
        return "missed"  # the puzzle's turn is over
    return None
