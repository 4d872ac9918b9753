"""Chat in online games (docs/protocol.md "Chat"): two channels per game, as Lichess has them.

- **players**: the two players of the game write and read it; nobody else reads it, spectators
  neither (not while the game runs, not after).
- **spectators**: those who watch (anyone logged in who is not a player) write and read it; the
  players never see it, so nobody at the table is helped from the stands.

A player may mute their opponent (``mute``): that user's messages are not sent to them any more, in
this game or the next, and are left out of what they read when the chat opens; the muted sender is
not told. Anyone may report a message they were shown (``report``); a host reads the reported
messages in /admin/chat and dismisses them (``dismiss``). Each user has a rate limit (``CHAT_LIMIT``
messages in ``CHAT_WINDOW`` seconds) and each message a length limit (``CHAT_MAX_LENGTH``). Text is
stored and sent as plain text, control and direction-override characters replaced: every reader
renders it as text, never as HTML (the board with ``textContent``, the admin page through Jinja's
escaping). The fixed emotes stay as they are (webapp/game/online.py).

Messages reach the live connections through the notifier (webapp/game/notify.py: ``to_seat`` for one
player's sockets, ``to_spectators``); the SQL is webapp/store/chat.py's.
"""

import re
import unicodedata

from flask_babel import gettext

from webapp.game import invitations, play
from webapp.game import online as online_games
from webapp.hosting.ratelimit import Window
from webapp.store import transaction
from webapp.store import chat as chat_store

PLAYERS, SPECTATORS = "players", "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
#: Game states whose chat is open (an invitation nobody took has nobody to talk to).
OPEN = ("active", "finished", "aborted")
#: Characters replaced by a space: C0 and C1 controls, zero-width spaces and marks that reorder or hide
#: text (bidirectional overrides and isolates, the byte-order mark). The zero-width joiner stays (emoji).
HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def clean(text):
    """The message as it is kept and shown: NFC, hidden characters replaced, runs of white space one
    space, no space at either end."""
    text = HIDDEN.sub(" ", unicodedata.normalize("NFC", text))
    return " ".join(text.split())


def channel_of(row, user_id):
    """The channel a user writes and reads in a game: the players', or the spectators'."""
    return PLAYERS if play.seat_of(row, user_id) is not None else SPECTATORS


def open_chat(db, game_id):
    """The game's row if its chat is open; else the refusal."""
    row = play.load_row(db, game_id)
    if not invitations.is_online(row):
        raise play.Forbidden(gettext("Chat is only in games between friends."), game_id)
    if row["status"] not in OPEN:
        raise play.Illegal(gettext("The chat opens when the game starts."), game_id)
    return row


def shown(message):
    """A message as readers are sent it: no user id, the sender's name and seat (None: a spectator)."""
    return {"game": message["game_id"], "channel": message["channel"], "id": message["id"],
            "seat": message["seat"], "name": message["name"] or "?", "text": message["text"]}


def opponent(row, seat):
    return row["seats"][1 - seat] if seat in (0, 1) else None


class Chat:
    """The chat of one app's online games; ``notifier`` reaches the live connections."""

    def __init__(self, app, notifier):
        self.app, self.notifier = app, notifier
        self.windows = {}  # (limit, seconds) -> Window of users' messages

    def limits(self):
        config = self.app.config
        return int(config["CHAT_MAX_LENGTH"]), int(config["CHAT_LIMIT"]), float(config["CHAT_WINDOW"])

    def window(self, limit, seconds):
        key = (limit, seconds)
        window = self.windows.get(key)
        if window is None:
            window = self.windows.setdefault(key, Window(limit, seconds))
        return window

    def post(self, db, game_id, user_id, text, channel=None):
        """Store a message of ``user_id`` in the game's chat and send it to its readers; return it as
        they get it. ``channel``, if given, must be the writer's own (players write to the players'
        channel, spectators to the spectators')."""
        row = open_chat(db, game_id)
        seat = play.seat_of(row, user_id)
        own = PLAYERS if seat is not None else SPECTATORS
        if channel is not None and channel != own:
            raise play.Forbidden(gettext("Only the players write in the players' chat.") if channel == PLAYERS
                                 else gettext("The players do not write in the spectators' chat."), game_id)
        text = clean(text)
        most, limit, seconds = self.limits()
        if not text:
            raise play.BadRequest(gettext("Write something first."), game_id)
        if len(text) > most:
            raise play.BadRequest(gettext("A message is at most %(limit)s characters.", limit=most), game_id)
        if limit < 1 or not self.window(limit, seconds).take(user_id):  # 0: no chat at all
            raise online_games.RateLimited(gettext("At most %(limit)s messages in %(window)s s.", limit=limit,
                                                   window=f"{seconds:g}"), game_id)
        with transaction(db):
            message = shown(chat_store.add_message(db, game_id, own, user_id, seat, text))
        if own == SPECTATORS:
            self.notifier.to_spectators(game_id, "chat", message)
            return message
        other = opponent(row, seat)
        self.notifier.to_seat(game_id, seat, "chat", message)
        if other is not None and not chat_store.has_muted(db, other, user_id):
            self.notifier.to_seat(game_id, 1 - seat, "chat", message)
        return message

    def history(self, db, game_id, user_id):
        """What a reader is sent when the chat opens: their channel's last messages (without those of
        the users they muted), whether they muted their opponent, and the length limit."""
        row = open_chat(db, game_id)
        channel = channel_of(row, user_id)
        muted = chat_store.muted_by(db, user_id)
        messages = chat_store.recent_messages(db, game_id, channel, int(self.app.config["CHAT_HISTORY"]),
                                              hidden_senders=muted - {user_id})
        seat = play.seat_of(row, user_id)
        other = opponent(row, seat)
        return {"game": game_id, "channel": channel, "messages": [shown(m) for m in messages],
                "muted": other is not None and other in muted, "max_length": self.limits()[0]}

    def mute(self, db, game_id, user_id, muted):
        """A player mutes (or unmutes) their opponent in this game: for this game and the next ones."""
        row = open_chat(db, game_id)
        seat = play.seat_of(row, user_id)
        if seat is None:
            raise play.Forbidden(gettext("Only the players mute their opponent."), game_id)
        other = opponent(row, seat)
        if other is None:
            raise play.Illegal(gettext("There is nobody to mute."), game_id)
        with transaction(db):
            chat_store.set_mute(db, user_id, other, muted)
        return {"game": game_id, "muted": bool(muted)}

    def report(self, db, game_id, user_id, message_id):
        """Report a message the user was shown (their channel of this game, not their own) to the host."""
        row = open_chat(db, game_id)
        message = chat_store.get_message(db, message_id)
        if message is None or message["game_id"] != game_id or message["channel"] != channel_of(row, user_id):
            # the same answer for a message of another game, of the other channel or of none: nothing leaks
            raise play.NotFound(gettext("That message is not in this chat."), game_id)
        if message["user_id"] == user_id:
            raise play.Illegal(gettext("You cannot report your own message."), game_id)
        with transaction(db):
            chat_store.add_report(db, message_id, user_id)
        return {"game": game_id, "message": message_id}


def reported(db, limit=200):
    """The messages with open reports, for the host (/admin/chat): newest report first."""
    return chat_store.reported_messages(db, limit)


def dismiss(db, message_id, host_id):
    """Close a message's open reports (the caller writes the audit line in the same transaction);
    how many were open."""
    return chat_store.resolve_reports(db, message_id, host_id)
