"""The CPU players by name and the difficulty levels a player chooses from (re-exported by ``webapp.ai``)."""

from .baseline import BaselinePlayer
from .easy import EasyPlayer
from .randomplayer import RandomPlayer
from .search import SearchPlayer

PLAYERS = {"baseline": BaselinePlayer, "random": RandomPlayer, "easy": EasyPlayer, "hard": SearchPlayer}

#: difficulty (as a page offers it) -> player name in PLAYERS; "normal" is the baseline
DIFFICULTIES = {"easy": "easy", "normal": "baseline", "hard": "hard"}
DIFFICULTY_LABELS = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}
SEARCHING = {"hard"}  # players that think for a time budget (run off the server's event loop)
