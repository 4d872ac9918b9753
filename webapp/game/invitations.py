"""How an online game comes to be, as stored (R18): an invitation with a code, the friend's ``join``
that starts it, a cancel, and a rematch offered and accepted. An online game is a ``games`` row with
``mode = "online"`` plus an ``online_games`` row (schema m003) holding its invitation code, its clocks
(webapp/game/onlineclock.py) and its rematch offer. An invitation is a game in status ``waiting`` with
seat 1 open and no state yet; the friend's join fills seat 1, rolls the dice (``Game.new(first=None)``,
R5.1) and makes it ``active``. What only a running server knows (presence, the clocks' ticker, claims)
is webapp/game/online.py's.
"""

import secrets

from flask_babel import gettext, ngettext  # the request's language; English outside a request

from webapp import store
from webapp.clock import now_ms
from webapp.engine import Game
from webapp.game import play
from webapp.game.gamecache import snapshot_text
from webapp.game.onlineclock import clock_new
from webapp.game.replay import new_game
from webapp.store import online as store_online

MODE = "online"


#: Invitation codes: 10 characters without look-alikes (no 0/O, 1/I/L): 31^10 ≈ 8·10^14 codes, about
#: 49 bits, so guessing one at the join rate limit (docs/security.md) takes longer than any
#: invitation stays open. Dashes and spaces in a typed code are ignored.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


CODE_LENGTH = 10


#: The seed an invitation is stored with until its game starts: the real one is drawn by ``join``
#: (docs/security.md), so nothing the inviter can read before then tells the deal.
NO_SEED = 0


class Full(play.Forbidden):
    """Both seats of the game are taken (the user may watch it)."""


def is_online(row):
    return row.get("mode") == MODE


def is_invitation(row):
    """An online game that never started: an open invitation, or one cancelled (or ended by the host)
    before a friend took the second seat. A game that started and was then ended is not one."""
    return is_online(row) and (row["status"] == "waiting" or (row["status"] == "aborted" and row["seats"][1] is None))


def before_start(db, row, seat):
    """The online mode's ``before_start`` (``play.before_start``): a join of an invitation that never
    started answers its status, and its inviter (seat 0) its code and link; None once it started."""
    if not is_invitation(row):
        return None
    answer = {"game": row["id"], "status": row["status"]}
    if seat == 0:
        stored = info(db, row["id"])
        answer.update(code=stored["code"], url=f"/join/{stored['code']}")
    return answer


def info(db, game_id):
    """The online_games row of a game as a dict (clock and rematch decoded), or None."""
    return store_online.get_online_game(db, game_id)


def write_clock(db, game_id, clock):
    store_online.set_clock(db, game_id, clock)


def normal_code(code):
    """An invitation code as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in str(code).upper() if ch not in " -")[:32]


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def insert_online(db, game_id, clock):
    """The game's online_games row with a fresh code (retried on the rare collision); return the code."""
    for _ in range(20):
        code = new_code()
        if not store_online.code_taken(db, code):
            store_online.add_online_game(db, game_id, code, clock)
            return code
    raise RuntimeError("no free invitation code after 20 tries")


def game_by_code(db, code):
    """The game id an invitation code names; NotFound otherwise."""
    game_id = store_online.game_id_by_code(db, normal_code(code))
    if game_id is None:
        raise play.NotFound(gettext("No game has this code: check it with your friend."))
    return game_id


def create_invitation(db, user, deck_id, clock_ms, config=None, max_open=None, rated=False):
    """A new invitation by ``user`` with one of their playable decks (under the host's ``config``,
    ``play.deck_for``); return (game id, code). ``rated``: the inviter's wish that the game count on
    the ladder (it does when the friend wishes it too, webapp/social/ratings.py)."""
    uid = play.user_id_of(user)
    if isinstance(clock_ms, bool) or not isinstance(clock_ms, int) or clock_ms <= 0:
        raise play.BadRequest(f"the clock is a positive number of milliseconds, got {clock_ms!r}")
    deck = play.deck_for(db, uid, deck_id, config)
    setup = {"mode": MODE, "decks": [play.deck_list(deck["cards"]), None], "deck_ids": [deck["id"], None],
             "seats": [{"user_id": uid}, None], "first": None,
             "leader_mode": "simultaneous", "clock_ms": clock_ms, "rated": [bool(rated), False]}
    # No seed yet: it is drawn when the friend joins (``join``), so the inviter cannot learn it.
    with store.transaction(db):  # the count and the insert in one write transaction: races cannot pass the cap
        if max_open is not None:
            open_now = store_online.count_open_invitations(db, uid)
            if open_now >= max_open:
                raise play.Forbidden(ngettext("You have %(num)s open invitation: cancel it first.",
                                              "You have %(num)s open invitations: cancel one first.", open_now))
        game_id = store.create_game(db, MODE, NO_SEED, setup, state=None, status="waiting")
        code = insert_online(db, game_id, clock_new(clock_ms))
    return game_id, code


def invitation(db, code):
    """The game row an invitation code names (any status); NotFound."""
    return play.load_row(db, game_by_code(db, code))


def join(db, code, user, deck_id, config=None, now=None, rated=False):
    """Take seat 1 of the invitation with the user's deck and start the game; return its row.

    The game's seed is drawn now, not when the invitation was made, so nothing the inviter could
    read before (the invitation, its pages) foretells the deal. The dice decide who goes first
    (R5.1) and both players choose leaders at once (R5.7); both clocks start. Refused: Forbidden for
    one's own invitation or a cancelled one, Full when someone else took the seat first (nothing
    changes then). ``rated``: the friend's wish that the game count on the ladder.
    """
    uid = play.user_id_of(user)
    row = invitation(db, code)
    if row["status"] != "waiting":
        if play.seat_of(row, uid) is not None:
            return row
        if row["status"] == "aborted":
            raise play.Forbidden(gettext("This invitation was cancelled."), row["id"])
        raise Full(gettext("Both seats of this game are taken: you may watch it."), row["id"])
    if row["seats"][0] == uid:
        raise play.Forbidden(gettext("This is your own invitation: send its link or code to a friend."), row["id"])
    deck = play.deck_for(db, uid, deck_id, config)
    setup = dict(row["setup"])
    setup["decks"] = [setup["decks"][0], play.deck_list(deck["cards"])]
    setup["deck_ids"] = [setup["deck_ids"][0], deck["id"]]
    setup["seats"] = [setup["seats"][0], {"user_id": uid}]
    setup["rated"] = [bool((setup.get("rated") or [False])[0]), bool(rated)]
    setup["seed"] = secrets.randbelow(2**63)
    game = new_game(setup)
    now = now_ms() if now is None else now
    clock = clock_new(setup["clock_ms"], game.waiting_for(), now, row["version"])
    with store.transaction(db):
        if not store_online.take_second_seat(db, row["id"], uid, setup, snapshot_text(game)):
            raise Full(gettext("Someone else took the seat first: you may watch the game."), row["id"])
        write_clock(db, row["id"], clock)
    return play.load_row(db, row["id"])


def cancel(db, game_id, user_id):
    """The inviter withdraws an invitation nobody joined yet."""
    if not store_online.cancel_invitation(db, game_id, user_id):
        raise play.Forbidden(gettext("Only the inviter can cancel an invitation nobody joined yet."), game_id)


def rematch_game(db, row):
    """A new active game of the same two players and decks, the first player swapped; return its id."""
    setup = row["setup"]
    if any(uid is None for uid in row["seats"]):
        raise play.Illegal(gettext("A player of this game left Brigade: no rematch."), row["id"])
    first = Game.from_json(row["state"]).state.first
    new = dict(setup, seed=secrets.randbelow(2**63), first=1 - first, rematch_of=row["id"])
    scenario = setup.get("scenario")
    if scenario and scenario.get("phase") == "leaders":  # a game started at its first decision (tests): the other goes first
        new["scenario"] = dict(scenario, first=1 - first, active=1 - first)
    game = new_game(new)
    game_id = store.create_game(db, MODE, new["seed"], new, state=snapshot_text(game))
    insert_online(db, game_id, clock_new(new["clock_ms"], game.waiting_for()))
    return game_id


def offer_rematch(db, game_id, user_id):
    """Offer a rematch, or accept the opponent's offer; return the stored rematch dict
    ``{"offered_by": seat, "game": new game id or None}``."""
    row = play.load_row(db, game_id)
    if not is_online(row):
        raise play.Illegal(gettext("Rematches are for online games."), game_id)
    seat = play.player_seat(row, user_id)
    if row["status"] != "finished":
        raise play.Illegal(gettext("A rematch is offered once the game is over."), game_id)
    with store.transaction(db):
        offer = info(db, game_id)["rematch"]
        if offer.get("game") is None:
            if offer.get("offered_by") in (None, seat):
                offer = {"offered_by": seat, "game": None}
            else:
                offer = dict(offer, game=rematch_game(db, row))
            store_online.set_rematch(db, game_id, offer)
    return offer
