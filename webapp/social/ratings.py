"""The ladder's ratings: Glicko-2 (the ``glicko2`` library, docs/decisions/0122-ratings-glicko2.md) over the
server's rated online games.

A game is **rated** when both players chose "rated" for it (``setup["rated"] == [True, True]``: the
inviter or challenger when making it, the friend when joining or accepting; a game from the
"anyone online" queue is rated for both). When a rated game between two accounts ends, both ratings
move, once (``rating_history`` has one line per player and game). What counts is the line the Victory
packs use (``webapp.game.fairplay.played_out``): a game decided by the rules always; a resignation, a
timeout or an abandoned seat (the claim or automatic claim of an absent player) only from round
``fairplay.FULL_ROUND`` on. So a pair cannot trade points by resigning at once, and a player cannot
save their rating by leaving a lost game early: an early exit changes nobody's rating, a late one
counts as a loss.

Every player starts at 1500 with a deviation of 350 (Glicko-2's own start); the ladder shows the
rating and the deviation, and lists only players with at least one rated game.

This module registers the "online" mode's end-of-game step with the play service
(``modes.register_mode``), as the story registers its own.
"""

import logging

import glicko2
import orjson

from webapp import store
from webapp.game import fairplay, online
from webapp.store import social as store_social

log = logging.getLogger(__name__)

START = {"rating": 1500.0, "rd": 350.0, "vol": 0.06, "games": 0}


def rating_of(db, user_id):
    """{"rating", "rd", "vol", "games"} of a user (the start values before their first rated game)."""
    return store_social.get_rating(db, user_id) or dict(START)


def is_rated(row):
    setup = row.get("setup") or {}
    return (row.get("mode") == "online" and setup.get("rated") == [True, True]
            and None not in row["seats"] and row["seats"][0] != row["seats"][1])


def round_of(row):
    """The round a stored game reached, read from its snapshot (0 without one)."""
    state = row.get("state")
    if not state:
        return 0
    try:
        return int(orjson.loads(state).get("round") or 0)
    except (orjson.JSONDecodeError, TypeError, ValueError, AttributeError):
        return 0


def counts(row):
    """Whether the finished game ``row`` moves ratings: rated, and played out (``fairplay.played_out``)."""
    return (row.get("status") == "finished" and is_rated(row)
            and fairplay.played_out(row.get("result"), round_of(row)))


def updated(before, opponent, score):
    """Glicko-2 after one game: ``before`` and ``opponent`` {"rating", "rd", "vol"}, ``score`` 1, 0.5 or 0."""
    player = glicko2.Player(rating=before["rating"], rd=before["rd"], vol=before["vol"])
    player.update_player([opponent["rating"]], [opponent["rd"]], [score])
    return {"rating": player.getRating(), "rd": player.getRd(), "vol": player.vol}


def record(db, row):
    """Move both players' ratings after the finished game ``row`` if it counts (``counts``); once per
    game. Return {user id: new rating dict}, or None when nothing moved."""
    if not counts(row):
        return None
    winner = (row.get("result") or {}).get("winner")
    seats = row["seats"]
    with store.transaction(db):
        if store_social.rated_game_counted(db, row["id"]):
            return None
        before = [rating_of(db, seats[0]), rating_of(db, seats[1])]
        out = {}
        for seat in (0, 1):
            score = 0.5 if winner not in (0, 1) else 1.0 if winner == seat else 0.0
            new = updated(before[seat], before[1 - seat], score)
            store_social.put_rating(db, seats[seat], row["id"], new["rating"], new["rd"], new["vol"])
            out[seats[seat]] = new
    return out


def game_over(db, row):
    """The online mode's end of a game (``modes.Mode.game_over``): the ratings; never raises."""
    try:
        record(db, row)
    except Exception:  # a rating must never stop the game's end
        log.exception("the ratings of game %s were not updated", row.get("id"))


def ladder(db, limit=100):
    """The ladder: [{"rank", "id", "name", "rating", "rd", "games"}], best first."""
    return [dict(r, rank=i + 1) for i, r in enumerate(store_social.ladder(db, limit))]


def history(db, user_id):
    return store_social.rating_history(db, user_id)


online.when_over(game_over)
