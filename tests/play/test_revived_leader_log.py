"""R5.5 (rules revision 3) in the log and the replay: a destroyed leader's card that comes back is an
ordinary monster there too. The game of tests/engine/test_r05_revived_leader.py (player 1's leader bl
killed, summoned back from the discard pile by each pool card that can, killed again) is stored as
its actions and stepped through the one replay loop (webapp/game/replay.py), each step's log told as
the online replay tells it (``publicreplay.replay``: the public view and ``gamelog.describe`` for a
spectator), in English and Japanese."""

import copy

import pytest

from tests.engine.test_r05_revived_leader import REVIVERS, position, revived, second_death
from webapp.engine import Game
from webapp.game import gamelog, replay, seatstate

NAMES = ["Alice", "Bob"]
# the log names a scenario's own card by its id (the replay has no pool of them)
FALLS = {"en": ("martyr is destroyed", ": a leader falls"), "ja": ("martyrが破棄されました", "旅団長が倒れました")}


class Recorder:
    """A game that keeps each applied action as the store lists them (``seq``, ``player``, ``action``)."""

    def __init__(self, game):
        self.game, self.actions = game, []

    def apply(self, player, action):
        events = self.game.apply(player, action)
        self.actions.append({"seq": len(self.actions) + 1, "player": player, "action": copy.deepcopy(action)})
        return events

    def __getattr__(self, name):  # waiting_for, view, legal_actions, is_legal, state, result
        return getattr(self.game, name)


def replayed(reviver, lang):
    """[(events, log sentences, spectator view)] of each step of the stored game."""
    rec = Recorder(Game.from_scenario(position(reviver)))
    revived(reviver, rec)
    second_death(rec)
    out = []
    for step in replay.steps({"scenario": position(reviver)}, rec.actions):
        log = gamelog.describe(step.events, seatstate.instances(step.game), NAMES, None, lang=lang)
        out.append((step.events, log, step.game.view(None)))
    assert out[-1][2] == rec.game.view(None)  # the replay reached the very same position
    return out


def bl_deaths(steps, lang):
    """The log sentences of the steps in which bl is destroyed, in order."""
    name, _ = FALLS[lang]
    found = []
    for events, log, _view in steps:
        if any(e["type"] == "destroyed" and e["unit"] == "bl" for e in events):
            found.append([line for line in log if name in line])
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_the_log_and_the_replay_call_the_revived_unit_an_ordinary_monster(reviver, lang):
    """R5.5: the first destruction of bl is told as a leader's fall; the unit that came back is
    shown without the leader mark in every later step of the replay, and its destruction is told
    as an ordinary monster's."""
    steps = replayed(reviver, lang)
    _, falls = FALLS[lang]
    first, second = bl_deaths(steps, lang)
    assert len(first) == 1 and falls in first[0]
    assert len(second) == 1 and falls not in second[0]
    back = next(i for i, (events, _log, _v) in enumerate(steps)
                if any(e["type"] == "summoned" and e["unit"] == "bl" for e in events))
    assert not any(falls in line or "leader" in line.lower() for line in steps[back][1])
    before = [u for u in steps[0][2]["units"] if u["id"] == "bl"]
    assert before and before[0]["leader"] is True
    for _events, _log, view in steps[back:]:
        for u in view["units"]:
            if u["id"] == "bl":
                assert u["leader"] is False
        assert [u["id"] for u in view["units"] if u["owner"] == 1 and u["leader"]] == ["b0"]
