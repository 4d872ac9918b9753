"""Errors the store raises; each message names the row it is about."""


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class SchemaTooNew(StoreError):
    """The database was migrated by a newer Brigade than this one."""


class DatabaseNotWritable(StoreError):
    """The server cannot write its database file: the file, its folder or its disk is read-only."""

    def __init__(self, path, reason):
        self.path = str(path)
        super().__init__(
            f"Brigade cannot write its database {self.path} ({reason}). The file, its folder (SQLite keeps "
            "its -wal and -shm files beside it) or the disk is read-only: fix the permissions or the mount "
            "so that the server's user can write both, then start again. Nothing was changed.")


class BadName(StoreError, ValueError):
    """A user or deck name is empty."""


class NameTaken(StoreError):
    """Another user already has this name (names are compared case-insensitively)."""


class UserNotFound(StoreError, LookupError):
    """No user has this id or name."""


class DeckNotFound(StoreError, LookupError):
    """No deck has this id."""


class NotYourDeck(StoreError, PermissionError):
    """The deck belongs to another user, or is a loaner deck that nobody may change."""


class DeckNameTaken(StoreError):
    """The user already has a deck of this name."""


class TooManyDecks(StoreError):
    """The user already has as many decks as the host allows (MAX_DECKS)."""

    def __init__(self, user_id, limit):
        super().__init__(f"user {user_id!r} already has {limit} decks, the most allowed")
        self.limit = limit


class BadCounts(StoreError, ValueError):
    """A card count map names an unknown card or holds a count that is not a positive integer."""


class GameNotFound(StoreError, LookupError):
    """No game has this id."""


class StaleVersion(StoreError):
    """The game moved on since the caller read it: reload it and check the action again."""

    def __init__(self, game_id, expected, actual):
        super().__init__(f"game {game_id}: expected version {expected}, but it is at {actual}")
        self.game_id, self.expected, self.actual = game_id, expected, actual


class PackNotFound(StoreError, LookupError):
    """The user has no unopened pack with this id."""
