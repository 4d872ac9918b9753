"""CPU players, built only on the engine's public API (legal_actions, view and the card pool).

A player is an object with `choose(game, player) -> action`; `PLAYERS` names them for the CLI,
the benchmarks and the server (a searching player can be added beside the baseline).
"""

from .baseline import BaselinePlayer
from .randomplayer import RandomPlayer

PLAYERS = {"baseline": BaselinePlayer, "random": RandomPlayer}

__all__ = ["BaselinePlayer", "RandomPlayer", "PLAYERS"]
