"""SQLite storage through sqlite-utils: connections, schema migrations, seeding and queries (docs/storage.md).

Every query function takes the Database first (``get_db()`` in a request, ``connect(path)``
elsewhere); those that act for a user take the acting user's id and check it.
"""

from .collection import add_cards, get_collection, owned_count, remove_cards
from .db import WRITERS_WAITING, connect, default_path, now, transaction
from .decks import copy_deck, delete_deck, get_deck, get_loaner, list_decks, rename_deck, save_deck
from .errors import (BadCounts, BadName, DeckNameTaken, DeckNotFound, GameNotFound, NameTaken, NotYourDeck,
                     PackNotFound, SchemaTooNew, StaleVersion, StoreError, TooManyDecks, UserNotFound)
from .games import (append_action, count_active_games, create_game, deck_ids_played, end_game, has_online_game,
                    last_action, list_actions, list_games, load_game, stale_games, take_back_action)
from .pool import Pool, close_db, get_db, pool_of
from .packs import count_win_packs_between, grant_pack, has_opened_pack, has_pack_from, list_packs, open_pack
from .puzzles import get_puzzle_progress, puzzle_finished, puzzle_started
from .schema import LATEST, MIGRATIONS, migrate
from .seed import seed, seed_from_files
from .settings import all_settings, get_setting, set_setting
from .setup import init_app, prepare
from .story import claim_reward, get_progress, record_clear
from .users import create_user, get_user, get_user_by_name, record_login, set_password_hash, user_count

__all__ = [
    "connect", "default_path", "get_db", "close_db", "Pool", "pool_of", "init_app", "prepare", "transaction", "now",
    "WRITERS_WAITING",
    "migrate", "MIGRATIONS", "LATEST", "seed", "seed_from_files",
    "create_user", "get_user", "get_user_by_name", "set_password_hash", "record_login", "user_count",
    "add_cards", "remove_cards", "get_collection", "owned_count",
    "list_decks", "get_deck", "get_loaner", "save_deck", "rename_deck", "copy_deck", "delete_deck",
    "create_game", "append_action", "end_game", "load_game", "list_actions", "list_games",
    "last_action", "take_back_action",
    "count_active_games", "deck_ids_played", "has_online_game", "stale_games",
    "grant_pack", "count_win_packs_between", "list_packs", "open_pack", "has_opened_pack", "has_pack_from",
    "get_progress", "record_clear", "claim_reward",
    "get_puzzle_progress", "puzzle_started", "puzzle_finished",
    "get_setting", "set_setting", "all_settings",
    "StoreError", "SchemaTooNew", "BadName", "NameTaken", "UserNotFound", "DeckNotFound", "NotYourDeck",
    "DeckNameTaken", "TooManyDecks", "BadCounts", "GameNotFound", "StaleVersion", "PackNotFound",
]
