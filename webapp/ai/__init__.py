"""CPU players, built only on the engine's public API (legal_actions, view, determinize, the card pool).

A player is an object with `choose(game, player) -> action`; `PLAYERS` names them for the CLI,
the benchmarks and the server. The difficulty levels a player chooses from are `DIFFICULTIES`:
easy (the baseline with deliberate slips), normal (the baseline), hard (the searching CPU, which
thinks for a time budget; the server runs it in worker processes, `webapp.ai.workers`).
"""

from .baseline import BaselinePlayer
from .easy import EasyPlayer
from .randomplayer import RandomPlayer
from .search import SearchPlayer

PLAYERS = {"baseline": BaselinePlayer, "random": RandomPlayer, "easy": EasyPlayer, "hard": SearchPlayer}

#: difficulty (as a page offers it) -> player name in PLAYERS; "normal" is the baseline
DIFFICULTIES = {"easy": "easy", "normal": "baseline", "hard": "hard"}
DIFFICULTY_LABELS = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}
SEARCHING = {"hard"}  # players that think for a time budget (run off the server's event loop)

__all__ = ["DIFFICULTIES", "DIFFICULTY_LABELS", "PLAYERS", "SEARCHING", "BaselinePlayer", "EasyPlayer",
           "RandomPlayer", "SearchPlayer"]
