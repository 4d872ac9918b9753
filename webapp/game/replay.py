"""Replaying a stored game: its setup and its actions, in order, give back every state it passed
through (docs/storage.md). The one loop that does it; the play service's ``rebuild`` (the state at a
version), the online replay page (every step's public view and log) and a story chapter's goal (a
land held at any moment) read its steps.
"""

from typing import NamedTuple

from webapp.engine import Game


class Step(NamedTuple):
    """One step of a replay: the setup's start (version 0, no action) or one stored action."""

    version: int         # 0 for the start, else the action's ``seq``
    player: int | None   # the seat that acted (None at the start)
    action: dict | None  # the action as stored (None at the start)
    events: list         # what applying it produced ([] at the start)
    game: Game           # the game after this step


def new_game(setup):
    """The game a setup starts (also a replay's first step): a scenario (story) or a new deal."""
    if setup.get("scenario"):
        return Game.from_scenario(setup["scenario"])
    return Game.new(*setup["decks"], seed=setup["seed"], first=setup["first"],
                    leader_mode=setup.get("leader_mode", "simultaneous"))


def steps(setup, actions, upto=None):
    """Yield the Step of the setup's start, then of each stored action (``store.list_actions`` rows, in
    ``seq`` order) up to version ``upto`` (every one if None).

    Every step holds the same Game, changed by the next step: a caller that keeps a step's state
    copies or encodes it before asking for the next one."""
    game = new_game(setup)
    yield Step(0, None, None, [], game)
    for a in actions:
        if upto is not None and a["seq"] > upto:
            break
        events = game.apply(a["player"], a["action"])
        yield Step(a["seq"], a["player"], a["action"], events, game)
