"""Challenges between friends: "play me now" with a deck and a clock, to a friend who is online.

The friend hears of it at once (the notifier's ``to_user``: a ``challenge`` event on every socket of
theirs, docs/protocol.md) and finds it on their friends page and in the lobby. Accepting starts the
online game through the invitation path (``invitations.create_invitation`` for the challenger with the
chosen deck and clock, ``invitations.join`` for the friend), so its caps and checks are the invitations':
the challenger's open invitations (ONLINE_MAX_INVITATIONS) and both decks' checks. The challenge,
the invitation and the join are one write transaction: two accepts (two tabs) start one game.

A challenge lasts CHALLENGE_SECONDS; one user has at most CHALLENGE_MAX_OPEN open (one per friend)
and sends at most CHALLENGE_LIMIT per CHALLENGE_WINDOW. Only friends (webapp/social/friends.py) who
blocked neither way may challenge each other; the friend must be online (webapp/social/presence.py).
"""

from flask_babel import gettext

from webapp import clock, store
from webapp.config import DEFAULTS
from webapp.game import invitations, online, play
from webapp.social import friends, presence
from webapp.store import social as store_social


def setting(config, key):
    return (config or {}).get(key, DEFAULTS[key])


def notice(c, status, url=None, now=None):
    """The ``challenge`` event's payload (docs/protocol.md): nothing but what both sides know."""
    now = clock.now_ms() if now is None else now
    return {"challenge": c["id"], "status": status, "from": c["from_name"], "to": c["to_name"],
            "clock_minutes": c["clock_ms"] / 60_000, "rated": bool(c["rated"]),
            "expires_in_ms": max(0, c["expires_ms"] - now) if status == "open" else 0, "url": url}


def check_pair(db, me, other_id):
    if other_id == me:
        raise play.BadRequest(gettext("That is you."))
    if not friends.are_friends(db, me, other_id) or friends.blocked(db, me, other_id):
        raise play.Forbidden(gettext("You can challenge the players on your friends list."))


def send(db, notifier, user, to_id, deck_id, clock_ms, rated=False, config=None):
    """Challenge the friend ``to_id``; return the challenge's id. Refused: not a friend (or blocked),
    not online, a deck the user may not play, over the limits (RateLimited)."""
    me = play.user_id_of(user)
    check_pair(db, me, to_id)
    name = store.get_user(db, to_id)["name"]
    if friends.presence_of(db, [to_id])[to_id][0] != presence.ONLINE:
        raise play.Illegal(gettext("%(name)s is not free to play right now.", name=name))
    play.deck_for(db, me, deck_id, config)
    now = clock.now_ms()
    limit, window = int(setting(config, "CHALLENGE_LIMIT")), float(setting(config, "CHALLENGE_WINDOW"))
    with store.transaction(db):  # the counts and the insert together: racing requests cannot pass the caps
        if store_social.count_open_challenges_from(db, me, now, to_id):
            raise online.RateLimited(gettext("You challenged %(name)s already: wait for the answer.", name=name))
        if store_social.count_open_challenges_from(db, me, now) >= int(setting(config, "CHALLENGE_MAX_OPEN")):
            raise online.RateLimited(gettext("You have challenges waiting for answers: wait for one first."))
        if store_social.count_challenges_since(db, me, now - int(window * 1000)) >= limit:
            raise online.RateLimited(gettext("You sent many challenges in a short time: wait a few minutes."))
        challenge_id = store_social.add_challenge(db, me, to_id, deck_id, clock_ms, rated, now,
                                                  now + int(float(setting(config, "CHALLENGE_SECONDS")) * 1000))
    notifier.to_user(to_id, "challenge", notice(store_social.get_challenge(db, challenge_id), "open", now=now))
    return challenge_id


def mine(db, challenge_id, user_id, side):
    """The challenge if ``user_id`` is on its ``side`` ("to_id" or "from_id"); NotFound otherwise (the
    same for somebody else's challenge as for none)."""
    c = store_social.get_challenge(db, challenge_id) if isinstance(challenge_id, int) else None
    if c is None or c[side] != user_id:
        raise play.NotFound(gettext("There is no such challenge."))
    return c


def closed():
    return play.Illegal(gettext("This challenge is no longer open."))


def accept(db, runtime, user, challenge_id, deck_id, rated=False, config=None):
    """Accept a challenge with one's deck; start the game and tell both; return the game's row."""
    me = play.user_id_of(user)
    c = mine(db, challenge_id, me, "to_id")
    check_pair(db, me, c["from_id"])
    play.deck_for(db, me, deck_id, config)
    now = clock.now_ms()
    with store.transaction(db):
        if not store_social.settle_challenge(db, c["id"], "accepted", now):
            raise closed()
        game_id, code = invitations.create_invitation(db, c["from_id"], c["deck_id"], c["clock_ms"], config,
                                                      max_open=(config or {}).get("ONLINE_MAX_INVITATIONS"), rated=c["rated"])
        row = invitations.join(db, code, me, deck_id, config, rated=rated)
        store_social.settle_game(db, c["id"], game_id)
    runtime.started(db, row)
    url = f"/play/{row['id']}"
    for uid in (c["from_id"], me):
        runtime.notifier.to_user(uid, "challenge", notice(c, "accepted", url, now))
    return row


def decline(db, runtime, user, challenge_id):
    me = play.user_id_of(user)
    c = mine(db, challenge_id, me, "to_id")
    if not store_social.settle_challenge(db, c["id"], "declined", clock.now_ms()):
        raise closed()
    for uid in (c["from_id"], me):
        runtime.notifier.to_user(uid, "challenge", notice(c, "declined"))


def cancel(db, runtime, user, challenge_id):
    me = play.user_id_of(user)
    c = mine(db, challenge_id, me, "from_id")
    if not store_social.settle_challenge(db, c["id"], "cancelled", clock.now_ms()):
        raise closed()
    for uid in (c["to_id"], me):
        runtime.notifier.to_user(uid, "challenge", notice(c, "cancelled"))


def open_ones(db, user_id):
    """{"to_me": [...], "from_me": [...]} of the user's open challenges, each with ``expires_in_ms``,
    leaving out those whose other side the user blocked or was blocked by."""
    now = clock.now_ms()
    found = store_social.open_challenges(db, user_id, now)
    out = {}
    for side, other in (("to_me", "from_id"), ("from_me", "to_id")):
        out[side] = [dict(c, expires_in_ms=c["expires_ms"] - now, clock_minutes=c["clock_ms"] / 60_000)
                     for c in found[side] if not friends.blocked(db, user_id, c[other])]
    return out
