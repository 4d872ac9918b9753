"""Replaying a stored game: its setup and its actions, in order, give back every state it passed
through (docs/storage.md). The one loop that does it; the play service's ``rebuild`` (the state at a
version), the online replay page (every step's public view and log) and a story chapter's goal (a
land held at any moment) read its steps.
"""

import copy
from collections import Counter
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
    """The game a setup starts (also a replay's first step): a scenario (story), a new deal, or
    (``from``: a practice game started from a step of another game, webapp/game/fork.py) the other
    game's start with its actions up to that step applied."""
    if setup.get("from"):
        game = new_game(setup["from"]["setup"])
        for a in setup["from"]["actions"]:
            game.apply(a["player"], a["action"])
        return game
    if setup.get("scenario"):
        return Game.from_scenario(setup["scenario"])
    return Game.new(*setup["decks"], seed=setup["seed"], first=setup["first"],
                    leader_mode=setup.get("leader_mode", "simultaneous"))


def scenario_with_decks(scenario, decks, rng):
    """A copy of ``scenario`` where a player without a ``deck`` gets as draw pile the rest of their
    cards (``decks[p]``, a list of card ids), one copy fewer of each card already placed (hand, units,
    discard), shuffled by ``rng`` (a ``random.Random``). The one filling of a position's draw piles:
    a story chapter's start (``storychapters.fill_start``) and a test's position (``webapp/game/positions.py``)."""
    scenario = copy.deepcopy(scenario)
    players = scenario.get("players")
    if not isinstance(players, list):
        return scenario
    for p, pl in enumerate(players[:2]):
        if not isinstance(pl, dict) or "deck" in pl or decks[p] is None:
            continue
        left = Counter(decks[p])
        for zone in ("hand", "discard", "units"):
            for item in pl.get(zone, []) if isinstance(pl.get(zone), list) else []:
                card = item if isinstance(item, str) else item.get("card") if isinstance(item, dict) else None
                if left[card] > 0:
                    left[card] -= 1
        pile = sorted(left.elements())
        rng.shuffle(pile)
        pl["deck"] = pile
    return scenario


def scenario_cards(scenario, p):
    """Every card id player ``p`` has in a scenario (hand, units, discard, draw pile), sorted: the
    setup's ``decks`` of a game that starts from a position."""
    pl = scenario["players"][p]
    return sorted((item if isinstance(item, str) else item["card"])
                  for zone in ("hand", "units", "discard", "deck") for item in pl.get(zone, []))


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
