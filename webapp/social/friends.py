"""The friends list: requests by name or by friend link, accepted or declined; removing and blocking.

A friendship is mutual: one asks (``ask``), the other accepts (``accept``; asking someone who already
asked you accepts at once) or declines. Either may end it (``remove``). Blocking (``block``) ends any
friendship and request between the two and keeps the blocked user out: their requests are kept but
never shown to the one who blocked them (so the blocked user learns nothing of the block), they can
neither challenge them nor see their presence (both need a friendship), and they may not watch the
blocker's games (webapp/social/watching.py).

Who counts as a friend for watching and replays is ``watching.py``'s: the friends list, plus the
people one has played online (what the lobby called friends before there was a list).
"""

import secrets

from flask_babel import gettext

from webapp import store
from webapp.game import play
from webapp.social import presence
from webapp.store import social as store_social

#: The friend requests one account may have waiting at once (a spammer's requests stop there).
MAX_PENDING = 30
#: The friend link's token: 128 bits, URL-safe.
TOKEN_BYTES = 16


def user_named(db, name, me):
    """The active user of this name (any letter case); NotFound for nobody, a disabled account or oneself."""
    other = store.get_user_by_name(db, str(name or "")[:64]) if str(name or "").strip() else None
    if other is None or other.get("disabled"):
        raise play.NotFound(gettext("No player has that name."))
    if other["id"] == me:
        raise play.BadRequest(gettext("That is you."))
    return other


def ask(db, me, other_id):
    """``me`` asks ``other_id`` to be friends: "sent", "accepted" (they had asked first) or "friends"
    (already). A request to someone who blocked ``me`` is kept and never shown: it reads "sent"."""
    if other_id == me:
        raise play.BadRequest(gettext("That is you."))
    with store.transaction(db):
        if store_social.are_friends(db, me, other_id):
            return "friends"
        if store_social.has_block(db, me, other_id):
            raise play.Forbidden(gettext("You blocked this player: unblock them first."))
        if store_social.has_request(db, other_id, me) and not store_social.has_block(db, other_id, me):
            store_social.add_friendship(db, me, other_id)
            return "accepted"
        if not store_social.has_request(db, me, other_id):
            if store_social.count_requests_from(db, me) >= MAX_PENDING:
                raise play.Forbidden(gettext("You have %(n)s friend requests waiting: wait for some answers first.",
                                             n=MAX_PENDING))
            store_social.add_request(db, me, other_id)
    return "sent"


def ask_by_name(db, me, name):
    return ask(db, me, user_named(db, name, me)["id"])


def friend_token(db, user_id):
    """The user's friend link token, made on first use."""
    token = store_social.settings_of(db, user_id)["friend_token"]
    if token is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        store_social.set_friend_token(db, user_id, token)
    return token


def new_friend_token(db, user_id):
    """A new friend link (the old one stops working)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    store_social.set_friend_token(db, user_id, token)
    return token


def link_owner(db, token):
    """The active user whose friend link this is; NotFound otherwise."""
    owner = store_social.user_by_friend_token(db, str(token or "")[:64])
    if owner is not None:
        try:
            user = store.get_user(db, owner)
        except store.UserNotFound:
            user = None
        if user is not None and not user.get("disabled"):
            return user
    raise play.NotFound(gettext("This friend link does not work (any more): ask your friend for a new one."))


def accept(db, me, from_id):
    """Accept ``from_id``'s request; NotFound when there is none (or it is hidden by a block)."""
    with store.transaction(db):
        if not store_social.has_request(db, from_id, me) or store_social.has_block(db, me, from_id):
            raise play.NotFound(gettext("There is no such friend request."))
        store_social.add_friendship(db, me, from_id)


def decline(db, me, from_id):
    if not store_social.drop_request(db, from_id, me):
        raise play.NotFound(gettext("There is no such friend request."))


def withdraw(db, me, to_id):
    """Take back one's own request."""
    if not store_social.drop_request(db, me, to_id):
        raise play.NotFound(gettext("There is no such friend request."))


def remove(db, me, other_id):
    """End the friendship (and any request) between the two; open challenges between them go too."""
    with store.transaction(db):
        store_social.remove_friendship(db, me, other_id)
        store_social.cancel_challenges_between(db, me, other_id)


def block(db, me, other_id):
    if other_id == me:
        raise play.BadRequest(gettext("That is you."))
    with store.transaction(db):
        store_social.remove_friendship(db, me, other_id)
        store_social.cancel_challenges_between(db, me, other_id)
        store_social.add_block(db, me, other_id)


def unblock(db, me, other_id):
    if not store_social.remove_block(db, me, other_id):
        raise play.NotFound(gettext("You have not blocked this player."))


def are_friends(db, a, b):
    """Whether the two are on each other's friends list."""
    return a is not None and b is not None and a != b and store_social.are_friends(db, a, b)


def blocked(db, a, b):
    """Whether either of the two blocked the other."""
    return store_social.blocked_between(db, a, b)


def presence_of(db, user_ids):
    """``presence.status`` with the games looked up: a socket still sitting at a game that has ended
    (its board left open) counts as "online", not "playing"."""
    out = presence.status(user_ids)
    for uid, (state, game_id) in out.items():
        if state == presence.PLAYING:
            try:
                over = play.load_row(db, game_id)["status"] != "active"
            except play.NotFound:
                over = True
            if over:
                out[uid] = (presence.ONLINE, None)
    return out


def overview(db, me):
    """What the friends page lists: ``friends`` [{"id", "name", "since"}], ``incoming`` requests (not those of
    blocked users), ``outgoing`` requests, ``blocked`` users."""
    hidden = {b["id"] for b in store_social.blocked_by(db, me)}
    return {"friends": store_social.friends_of(db, me),
            "incoming": [r for r in store_social.requests_to(db, me) if r["id"] not in hidden],
            "outgoing": store_social.requests_from(db, me),
            "blocked": store_social.blocked_by(db, me)}
