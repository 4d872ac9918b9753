"""Who may watch a live game, and see its replay once it is over (docs/security.md "Watching").

Each player chooses, on the friends page, who may watch their games: ``friends`` (the default),
``link`` (anyone logged in who has the game's address) or ``nobody``. A game follows the stricter of
its players' choices (nobody < friends < link), read when someone asks, so a player who changes
their mind mid-game shuts the door at once. Its players always may. The rule is the same for every
kind of game: an online game follows its two players, a game against the CPU (a CPU game, a story
battle, a puzzle) its one player.

"Friends" here are the people players expect: those on either player's friends list, and those who
have played an online game against either of them (the lobby's friends before there was a list; a
past opponent is someone one has shared a table with). Someone either player blocked never counts,
whatever the setting.

A refusal says no more than a game that does not exist would: the board page answers 404 and the
``join`` event the same ``not_found`` error as for a missing game id.
"""

from webapp.game import invitations, play
from webapp.store import social as store_social

FRIENDS, LINK, NOBODY = "friends", "link", "nobody"
#: The choices, most open last: a game follows the lowest of its players'.
CHOICES = (NOBODY, FRIENDS, LINK)


def setting(db, user_id):
    return store_social.settings_of(db, user_id)["watch"]


def choose(db, user_id, value):
    """Set who may watch the user's games; ValueError for anything but one of CHOICES."""
    if value not in CHOICES:
        raise ValueError(f"who may watch is one of {', '.join(CHOICES)}")
    store_social.set_watch(db, user_id, value)


def game_setting(db, seats):
    """The stricter of the players' choices for a game with these seats (user ids; None: no player)."""
    chosen = store_social.watch_settings(db, seats)
    return min((chosen[u] for u in seats if u is not None), key=CHOICES.index, default=FRIENDS)


def counts_as_friend(db, user_id, players):
    """Whether ``user_id`` is on a player's friends list or has played one of them online."""
    players = [p for p in players if p is not None and p != user_id]
    if any(store_social.are_friends(db, user_id, p) for p in players):
        return True
    return bool(store_social.played_online(db, user_id, players))


def may_watch(db, row, user_id):
    """Whether ``user_id`` may watch the game ``row``, online or against the CPU (its players always
    may; an invitation nobody joined yet, whose room hears only that it started: True)."""
    if user_id in row["seats"] or invitations.is_invitation(row):
        return True
    players = [u for u in row["seats"] if u is not None]
    if any(store_social.blocked_between(db, user_id, p) for p in players):
        return False
    chosen = game_setting(db, row["seats"])
    if chosen == NOBODY:
        return False
    return chosen == LINK or counts_as_friend(db, user_id, players)


def check(db, row, user_id):
    """``may_watch`` or NotFound with the words of a game that does not exist (``play.load_row``'s)."""
    if not may_watch(db, row, user_id):
        raise play.NotFound(f"no game has id {row['id']}", row["id"])


def may_replay(db, row, user_id):
    """Who may see a finished game's public replay: its players; for an online game, whoever may
    watch it (``may_watch``). CPU and story games are their player's alone."""
    if user_id is not None and user_id in row["seats"]:
        return True
    return invitations.is_online(row) and may_watch(db, row, user_id)


def watchable(db, user_id, limit=20):
    """The lobby's friends' games: online games in progress of the user's friends and past opponents
    that the user may watch, newest first."""
    out = []
    for game in store_social.watch_candidates(db, user_id, limit * 2):
        row = {"mode": invitations.MODE, "seats": game["seats"], "status": "active"}
        if may_watch(db, row, user_id):
            out.append({"id": game["id"], "names": game["names"], "clock_minutes": game["clock_ms"] / 60_000})
        if len(out) >= limit:
            break
    return out
