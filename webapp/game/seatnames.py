"""Who sits at a game, in words: each seat's display name (``seat_names``), the name a mode gives its
CPU (``opponent_name``: a story chapter's "Goblin Scouts"), and the language a seat's player reads the
game in (``seat_lang``, ``user_lang``)."""

from webapp import store
from webapp.game.modes import mode_of
from webapp.i18n import LANGS, MARK
from webapp.i18n import user_lang as last_read
from webapp.store.marks import get_mark

CPU_NAME = "CPU"


def seat_names(db, row, lang="en"):
    """The display name of each seat: the user's name, or "CPU" (a story's opponent, in ``lang``)."""
    names = []
    for seat, s in enumerate(row["setup"].get("seats", [])):
        uid = row["seats"][seat]
        if uid is not None:
            try:
                names.append(store.get_user(db, uid)["name"])
            except store.UserNotFound:
                names.append(f"Player {seat + 1}")
        elif isinstance(s, dict) and s.get("cpu"):
            names.append(opponent_name(row, lang) or CPU_NAME)
        else:
            names.append(f"Player {seat + 1}")
    return names


def opponent_name(row, lang="en"):
    """The name its mode gives a game's CPU (a story game's is the chapter's opponent, "Goblin
    Scouts"); None for other games."""
    mode = mode_of(row)
    return mode.opponent_name(row, lang) if mode is not None else None


def seat_lang(row, seat, marks=None):
    """The language of the game log for a seat: its player's (``user_lang``); English for a CPU's seat
    or none. ``marks`` as in ``user_lang``."""
    user_id = (row.get("seats") or [None, None])[seat] if seat in (0, 1) else None
    return user_lang(user_id, marks)


def user_lang(user_id, marks=None):
    """The language a user reads the game in: the language they last read a page in (webapp/i18n.py
    ``user_lang``), else the account's ``locale`` mark, else English (also for no user). ``marks``, a
    dict the caller keeps (the socket server, one per game in progress), remembers the mark's answer
    per user, so a game's actions read it once, not twice each (a page read since, in this process,
    still wins at once: ``last_read`` is looked at first)."""
    if user_id is None:
        return "en"
    if (read := last_read(user_id)) in LANGS:
        return read
    if marks is not None and user_id in marks:
        return marks[user_id]
    try:
        mark = get_mark(store.get_db(), user_id, MARK)
    except RuntimeError:  # no app context (a background task): English
        return "en"
    lang = mark if mark in LANGS else "en"
    if marks is not None:
        marks[user_id] = lang
    return lang
