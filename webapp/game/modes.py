"""The kinds of game and what each adds to the play service (``Mode``). A mode's own module registers
it (``register_mode``: story, puzzles, the gauntlet, online games), so the play service imports no
mode: a mode builds on play, never the other way round. "cpu" games add nothing."""

from collections.abc import Callable
from typing import NamedTuple


class Mode(NamedTuple):
    """What a kind of game adds to the play service."""

    opponent_name: Callable  # (row, lang): the CPU seat's name, or None
    reward_source: Callable  # (row): the ``packs.source`` of the reward packs a game may grant, or None
    game_over: Callable      # (db, row): after a game of the mode ended (its record, its reward); never raises
    judge: Callable | None = None  # (row, game, events): after an action, (winner, reason) to end the game with, or None
    victory_pack: bool = True      # a won game of the mode pays the Victory pack (``reward_winner``)
    act: Callable | None = None    # (db, row, seat, action, version): a player's action, in place of ``play.apply``
                                   # (online games: their clocks, R18.3), returning Played
    before_start: Callable | None = None  # (db, row, seat): what a ``join`` of a game that never started answers
                                          # in place of a board (an online game's invitation), or None


#: {mode: Mode} of the modes that add something.
MODES = {}


def register_mode(name, mode):
    """Add what games of mode ``name`` add (``Mode``); the mode's module does it when imported."""
    MODES[name] = mode


def mode_of(row):
    """The Mode of a game row, or None (a "cpu" game, or a mode not registered)."""
    return MODES.get(row.get("mode"))
