"""The ladder's "play anyone who is online" queue: pairs players by rating, starts a rated game.

A player joins with a deck and a clock. If someone online is waiting whose rating is close enough
the two are paired at once: the game starts through the invitation path (the one who waited longer
invites with their deck and clock, the newcomer joins), rated for both, and the one who waited hears
``matched`` through the notifier (docs/protocol.md). Otherwise the player waits in ``match_queue``
and the notifier is asked to watch the queue (``Notifier.watch_queue``).

Close enough widens while people wait: ``BASE_GAP`` rating points, plus ``GAP_PER_SECOND`` for each
second the one waiting longer has waited, so a lone high or low player still finds a game. The
closest rating within the gap wins. Since the gap widens with no one joining, the pairing is looked at
again as time passes: ``sweep`` pairs the waiting players the wait has brought close enough (both hear
``matched``); the sockets layer's queue ticker calls it every QUEUE_TICK seconds while ``waiting``
(docs/decisions/0087-hub-owns-background-tasks.md). A place lasts QUEUE_SECONDS; a waiting player who
went offline (webapp/social/presence.py) or is blocked by the other (either way) is passed over. Each
pairing and its start are one write transaction, so one waiting player is never paired twice.
"""

from flask_babel import gettext

from webapp import clock, store
from webapp.game import invitations, play
from webapp.social import challenges, friends, presence, ratings
from webapp.store import social as store_social

BASE_GAP, GAP_PER_SECOND = 150.0, 5.0


def gap(waited_ms):
    return BASE_GAP + GAP_PER_SECOND * max(0, waited_ms) / 1000


def pick(entries, me, rating, now, online_ids, blocked, since=None):
    """The entry to pair ``me`` (of ``rating``, waiting since ``since``; None: a newcomer) with among
    the waiting ``entries``, or None. The gap is that of whichever of the two waited longer."""
    since = now if since is None else since
    best = None
    for e in entries:
        if e["user_id"] == me or e["user_id"] not in online_ids or e["user_id"] in blocked:
            continue
        distance = abs(e["rating"] - rating)
        if (distance <= gap(now - min(e["since_ms"], since))
                and (best is None or distance < abs(best["rating"] - rating))):
            best = e
    return best


def lasts_ms(config):
    return int(float(challenges.setting(config, "QUEUE_SECONDS")) * 1000)


def online_among(db, user_ids):
    """The ids of ``user_ids`` who are online (not in a game, not away)."""
    return {u for u, (state, _) in friends.presence_of(db, user_ids).items() if state == presence.ONLINE}


def start(db, older, newer, config):
    """Take both out of the queue and start their rated game: ``older`` (the entry that waited longer)
    invites with its deck and clock, ``newer`` (an entry, or the newcomer's) joins. Returns the row."""
    store_social.queue_drop(db, older["user_id"])
    store_social.queue_drop(db, newer["user_id"])
    _, code = invitations.create_invitation(db, older["user_id"], older["deck_id"], older["clock_ms"], config, rated=True)
    return invitations.join(db, code, newer["user_id"], newer["deck_id"], config, rated=True)


def tell_matched(runtime, user_id, row):
    runtime.notifier.to_user(user_id, "matched", {"game": row["id"], "url": f"/play/{row['id']}"})


def join(db, runtime, user, deck_id, clock_ms, config=None):
    """Queue the user (or pair them at once): ("matched", game row) or ("waiting", None)."""
    me = play.user_id_of(user)
    play.deck_for(db, me, deck_id, config)
    rating = ratings.rating_of(db, me)["rating"]
    now = clock.now_ms()
    with store.transaction(db):
        entries = [e for e in store_social.queue_entries(db) if now - e["since_ms"] < lasts_ms(config)]
        others = [e["user_id"] for e in entries if e["user_id"] != me]
        blocked = {u for u in others if friends.blocked(db, me, u)}
        other = pick(entries, me, rating, now, online_among(db, others), blocked)
        if other is None:
            store_social.queue_put(db, me, deck_id, clock_ms, rating, now)
        else:
            row = start(db, other, {"user_id": me, "deck_id": deck_id}, config)
    if other is None:
        runtime.notifier.watch_queue()
        return "waiting", None
    runtime.started(db, row)
    tell_matched(runtime, other["user_id"], row)
    return "matched", row


def waiting(db):
    """Whether anyone waits in the queue (the queue ticker runs while so)."""
    return bool(store_social.queue_entries(db))


def sweep(db, runtime, config=None):
    """One look at the queue as time passed: drop the places that lapsed and the ones whose deck no
    longer plays, then pair, the longest waiting first, each online player with the closest rating the
    wait has brought within the gap. Both players hear ``matched``. Returns the started games' rows."""
    now = clock.now_ms()
    pairs = []
    with store.transaction(db):
        live = []
        for e in store_social.queue_entries(db):
            if now - e["since_ms"] >= lasts_ms(config):
                store_social.queue_drop(db, e["user_id"])
            else:
                live.append(e)
        here = online_among(db, [e["user_id"] for e in live])
        entries = []
        for e in live:
            if e["user_id"] not in here:
                continue  # away for now: kept while the place lasts
            try:
                play.deck_for(db, e["user_id"], e["deck_id"], config)
            except play.PlayError:
                store_social.queue_drop(db, e["user_id"])  # the deck was deleted or no longer plays
                continue
            entries.append(e)
        while entries:
            first = entries.pop(0)  # queue_entries come oldest first
            blocked = {e["user_id"] for e in entries if friends.blocked(db, first["user_id"], e["user_id"])}
            other = pick(entries, first["user_id"], first["rating"], now, here, blocked, since=first["since_ms"])
            if other is not None:
                entries.remove(other)
                pairs.append((first, other, start(db, first, other, config)))
    for first, other, row in pairs:
        runtime.started(db, row)
        tell_matched(runtime, first["user_id"], row)
        tell_matched(runtime, other["user_id"], row)
    return [row for _, _, row in pairs]


def leave(db, user_id):
    if not store_social.queue_drop(db, user_id):
        raise play.NotFound(gettext("You are not waiting for a game."))


def waiting_since(db, user_id):
    """When the user joined the queue (ms), or None."""
    return store_social.queued(db, user_id)
