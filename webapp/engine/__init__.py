"""The rules engine of Brigade: pure Python, deterministic, no I/O but reading cards/ (R1–R17).

``__all__`` is the whole of what code outside the engine imports (tests/test_import_graph.py refuses
an import past it): the game, its errors and the card pool; ``choices`` (the compact choices of legal
actions, docs/engine.md) and ``codec`` (a state's snapshots) as whole modules; the board's lands and
distances, the card data's elements, rarities and amounts, the deck size, and which instances a seat
has seen.
"""

from . import choices, codec
from .board import ADJACENT, DISTANCE, LANDS
from .carddefs import ELEMENTS, RARITIES, Amount, CardDataError, load_pool, parse_card
from .errors import IllegalAction
from .game import DECK_SIZE, Game
from .views import seen_instances

__all__ = ["Game", "IllegalAction", "CardDataError", "load_pool", "parse_card", "choices", "codec",
           "ADJACENT", "DISTANCE", "LANDS", "ELEMENTS", "RARITIES", "Amount", "DECK_SIZE", "seen_instances"]
