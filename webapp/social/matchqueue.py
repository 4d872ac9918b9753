"""The ladder's "play anyone who is online" queue: pairs players by rating, starts a rated game.

A player joins with a deck and a clock. If someone online is waiting whose rating is close enough
the two are paired at once: the game starts through the invitation path (the one who waited longer
invites with their deck and clock, the newcomer joins), rated for both, and the one who waited hears
``matched`` through the notifier (docs/protocol.md). Otherwise the player waits in ``match_queue``.

Close enough widens while people wait: ``BASE_GAP`` rating points, plus ``GAP_PER_SECOND`` for each
second the one waiting longer has waited, so a lone high or low player still finds a game. The
closest rating within the gap wins. A place lasts QUEUE_SECONDS; a waiting player who went offline
(webapp/social/presence.py) or is blocked by the newcomer (either way) is passed over. The pairing
and the start are one write transaction, so one waiting player is never paired twice.
"""

from flask_babel import gettext

from webapp import clock, store
from webapp.game import online, play
from webapp.social import challenges, friends, presence, ratings
from webapp.store import social as store_social

BASE_GAP, GAP_PER_SECOND = 150.0, 5.0


def gap(waited_ms):
    return BASE_GAP + GAP_PER_SECOND * max(0, waited_ms) / 1000


def pick(entries, me, rating, now, online_ids, blocked):
    """The entry to pair ``me`` (of ``rating``) with among the waiting ``entries``, or None."""
    best = None
    for e in entries:
        if e["user_id"] == me or e["user_id"] not in online_ids or e["user_id"] in blocked:
            continue
        distance = abs(e["rating"] - rating)
        if distance <= gap(now - e["since_ms"]) and (best is None or distance < abs(best["rating"] - rating)):
            best = e
    return best


def join(db, runtime, user, deck_id, clock_ms, config=None):
    """Queue the user (or pair them at once): ("matched", game row) or ("waiting", None)."""
    me = play.user_id_of(user)
    play.deck_for(db, me, deck_id, config)
    rating = ratings.rating_of(db, me)["rating"]
    now = clock.now_ms()
    lasts = int(float(challenges.setting(config, "QUEUE_SECONDS")) * 1000)
    with store.transaction(db):
        entries = [e for e in store_social.queue_entries(db) if now - e["since_ms"] < lasts]
        others = [e["user_id"] for e in entries if e["user_id"] != me]
        here = {u for u, (state, _) in friends.presence_of(db, others).items() if state == presence.ONLINE}
        blocked = {u for u in others if friends.blocked(db, me, u)}
        other = pick(entries, me, rating, now, here, blocked)
        if other is None:
            store_social.queue_put(db, me, deck_id, clock_ms, rating, now)
            return "waiting", None
        store_social.queue_drop(db, other["user_id"])
        store_social.queue_drop(db, me)
        _, code = online.create_invitation(db, other["user_id"], other["deck_id"], other["clock_ms"], config,
                                           rated=True)
        row = online.join(db, code, me, deck_id, config, rated=True)
    runtime.started(db, row)
    runtime.notifier.to_user(other["user_id"], "matched", {"game": row["id"], "url": f"/play/{row['id']}"})
    return "matched", row


def leave(db, user_id):
    if not store_social.queue_drop(db, user_id):
        raise play.NotFound(gettext("You are not waiting for a game."))


def waiting_since(db, user_id):
    """When the user joined the queue (ms), or None."""
    return store_social.queued(db, user_id)
