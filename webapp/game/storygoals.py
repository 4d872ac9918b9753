"""Judging a story game's goal (docs/story.md): ``judge`` gives a ``Verdict`` (met or not, final or
not, the round it was met in) from the game as it stands, or from its stored actions replayed."""

from typing import NamedTuple

from webapp.engine import LANDS
from webapp.game import storychapters
from webapp.game.replay import steps as replay_steps


class Verdict(NamedTuple):
    """Whether the chapter's goal is met, whether that can still change, and when it was met."""

    met: bool
    final: bool       # the verdict cannot change any more (met, or no longer possible)
    round: int | None  # the round it was met in
    reason: str        # a short English explanation


def judge(row, game, actions=None):
    """Judge a story game's goal (docs/story.md).

    ``win``: met when the game is over and the human (seat 0) won — by leaders or by the round-12
    judgment (R1.1, R16) — within ``by_round`` if the goal has one.
    ``take_land``: met as soon as the human holds the land (R4.5) at a moment when the round is at
    most ``by_round``. Given the game's stored ``actions`` it replays the record and checks after
    every action (so a land taken and lost again still counts); without them it looks at ``game``
    as it stands. The verdict is final once met, once the game is over, or once the round has
    passed ``by_round``.
    """
    goal = storychapters.chapter_of(row).goal
    state = game.state
    if goal["type"] == "win":
        result = game.result
        if result is None:
            return Verdict(False, False, None, "the battle goes on")
        limit = goal.get("by_round")
        if result.get("winner") != 0:
            return Verdict(False, True, None, "draw" if result.get("winner") is None else "lost")
        if limit is not None and state.round > limit:
            return Verdict(False, True, None, f"won in round {state.round}, after round {limit}")
        return Verdict(True, True, state.round, f"won ({result.get('reason')}) in round {state.round}")
    land, limit = LANDS.index(goal["land"]), goal["by_round"]
    states = (step.game for step in replay_steps(row["setup"], actions)) if actions is not None else (game,)
    for g in states:
        s = g.state
        if s.round > limit:
            break
        if s.owners[land] == 0:
            return Verdict(True, True, s.round, f"took {goal['land']} in round {s.round}")
        if s.result is not None and s.result.get("winner") == 0:
            # the last enemy leader fell first: the battle that did it stops there (R1.6), so the
            # land may never change hands, but a won battle is more than the goal asked for
            return Verdict(True, True, s.round, f"won ({s.result.get('reason')}) in round {s.round}")
    over = game.result is not None or state.round > limit
    return Verdict(False, over, None, f"{goal['land']} not taken by round {limit}" if over else "the battle goes on")
