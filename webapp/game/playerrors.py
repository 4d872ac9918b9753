"""The play service's refusals (webapp/game/play.py re-exports them): each carries the protocol's
error ``code`` (docs/protocol.md) and the game it concerns."""


class PlayError(Exception):
    """Base of the play service's refusals; ``code`` is the protocol's error code."""

    code = "bad_request"

    def __init__(self, message, game=None):
        super().__init__(message)
        self.message = message
        self.game = game


class BadRequest(PlayError):
    """The request is malformed (wrong keys, types or sizes)."""

    code = "bad_request"


class NotFound(PlayError):
    """No such game (or deck)."""

    code = "not_found"


class Forbidden(PlayError):
    """Not your seat, not your game, or not your deck."""

    code = "forbidden"


class Stale(PlayError):
    """The action was computed on an older version of the game."""

    code = "stale"


class Illegal(PlayError):
    """The engine refused the action; the message says why."""

    code = "illegal"
