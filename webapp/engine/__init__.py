"""The rules engine of Brigade: pure Python, deterministic, no I/O but reading cards/ (R1–R17)."""

from .carddefs import CardDataError, load_pool, parse_card
from .errors import IllegalAction
from .game import Game

__all__ = ["Game", "IllegalAction", "CardDataError", "load_pool", "parse_card"]
