"""The Socket.IO rooms of a game (docs/protocol.md).

Every socket that joins game 12 is in ``game:12`` and in one room of its own kind: ``game:12:0`` or
``game:12:1`` for the seat its session user holds, ``game:12:watch`` for a spectator who reads English
(``game:12:watch-ja`` for one who reads Japanese: the log is in the spectator's language), or the same
name with ``+`` (``game:12:0+``) for a socket that joined asking for updates (docs/protocol.md
"Updates"). A ``state`` is built per seat and sent to that seat's rooms only, so each socket gets its
own view and nobody else's (R18.6); the rooms also carry over a message queue when several server
processes share the games (ARCHITECTURE.md "Server").
"""

from webapp.game import seatnames

#: The spectators' room kinds, one per language of the log ({kind: lang}).
WATCH = {"watch": "en", "watch-ja": "ja"}


def watch_kind(user_id):
    """The spectators' room kind of a user: by the language they read the game in (``seatnames.user_lang``)."""
    lang = seatnames.user_lang(user_id)
    return next((kind for kind, lang_of in WATCH.items() if lang_of == lang), "watch")


def room(game_id, seat=None, updates=False):
    """The room of a game, or of one seat's sockets in it (0, 1, or a ``WATCH`` kind): those that take full
    ``state``s, or with ``updates`` those that take ``update``s (docs/protocol.md "Updates")."""
    if seat is None:
        return f"game:{game_id}"
    return f"game:{game_id}:{seat}+" if updates else f"game:{game_id}:{seat}"


def rooms_of(game_id, kind):
    """Both rooms of one kind (a seat, or a ``WATCH`` kind): full states and updates."""
    return [room(game_id, kind), room(game_id, kind, updates=True)]
