"""CPU players, built only on the engine's public API (legal_actions, view, determinize, the card pool).

A player is an object with `choose(game, player) -> action`; `PLAYERS` names them for the CLI,
the benchmarks and the server. The difficulty levels a player chooses from are `DIFFICULTIES`:
easy (the baseline with deliberate slips), normal (the baseline), hard (the searching CPU, which
thinks for a time budget; the server runs it in worker processes, `webapp.ai.workers`).

``__all__`` is what code outside the CPU players imports (tests/test_import_graph.py refuses an import
past it): the players and levels, the search's default budget, and two modules offered whole: the worker
pool (`workers`) and the after-game analysis (`analysis`).
"""

from . import analysis, workers
from .players import DIFFICULTIES, DIFFICULTY_LABELS, PLAYERS, SEARCHING, BaselinePlayer, EasyPlayer, RandomPlayer, SearchPlayer
from .search import DEFAULT_BUDGET

__all__ = ["DIFFICULTIES", "DIFFICULTY_LABELS", "PLAYERS", "SEARCHING", "BaselinePlayer", "EasyPlayer",
           "RandomPlayer", "SearchPlayer", "DEFAULT_BUDGET", "analysis", "workers"]
