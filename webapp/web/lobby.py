"""Playing friends online (R18): the lobby, invitations with a link and a short code, joining with a
deck, and finished games' replays. Thin views over ``webapp.game.online``; the game itself is played on
the board page over Socket.IO (docs/protocol.md).
"""

import collections
import json
import threading

from flask import (Blueprint, abort, current_app, flash, g, redirect, render_template, request,
                   url_for)
from flask_babel import gettext

from webapp.game import boardsettings, invitations, onlineclock, onlinelobby, play, publicreplay, seatnames
from webapp.social import challenges, watching
from webapp import i18n
from webapp.accounts import wait_text
from webapp.store import get_db
from webapp.web import cardfiles
from webapp.web.deckchoice import form_id, playable_decks
from webapp.web.security import login_required, spent

bp = Blueprint("lobby", __name__)

#: The clocks the invite form offers, in minutes (R18.3: 15 unless chosen).
CLOCK_CHOICES = (1, 3, 5, 10, 15, 20, 30, 60)


def runtime():
    """The app's webapp.game.online.Online (presence, ticker, socket events)."""
    return current_app.extensions["brigade_online"]


def join_link(code):
    return url_for("lobby.join", code=code, _external=True)


@bp.get("/lobby")
@login_required
def index():
    """Your open invitations, games in progress, recent games and friends' games to watch; a new invitation."""
    db = get_db()
    lists = onlinelobby.lobby(db, g.user["id"])
    lists["watch"] = watching.watchable(db, g.user["id"])  # friends and past opponents, as the players allow
    decks = playable_decks(db, g.user["id"])
    default = current_app.config["ONLINE_CLOCK_MINUTES"]
    choices = sorted(set(CLOCK_CHOICES) | {default})
    return render_template("lobby/index.html", decks=decks, clock_choices=choices,
                           default_clock=default, join_link=join_link, challenges=challenges.open_ones(db, g.user["id"]),
                           **lists)


@bp.post("/lobby/invite")
@login_required
def invite():
    """Create an invitation with the chosen deck and clock; show its link and code."""
    chosen = form_id(request.form.get("deck", ""))
    if chosen is None:
        flash(gettext("Choose a deck to play with."), "error")
        return redirect(url_for("lobby.index"))
    db = get_db()
    try:
        clock_ms = onlineclock.clock_ms_from_minutes(
            request.form.get("clock", current_app.config["ONLINE_CLOCK_MINUTES"]), current_app.config)
        game_id, _ = invitations.create_invitation(db, g.user, chosen, clock_ms, current_app.config,
                                                   max_open=current_app.config.get("ONLINE_MAX_INVITATIONS"),
                                                   rated=request.form.get("rated") == "1")
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for("lobby.index"))
    return redirect(url_for("lobby.invitation", game_id=game_id))


def own_invitation(game_id):
    """(row, stored online info) of an online game; 404 unless it exists."""
    db = get_db()
    try:
        row = play.load_row(db, game_id)
    except play.NotFound:
        abort(404)
    stored = invitations.info(db, game_id)
    if not invitations.is_online(row) or stored is None:
        abort(404)
    return row, stored


@bp.get("/lobby/invite/<int:game_id>")
@login_required
def invitation(game_id):
    """The inviter's page while the friend has not joined: the link, the code; on to the board once they have.

    Only the inviter ever sees it (its code is the key to the open seat): the friend who joined goes
    on to the board, anybody else gets a 404, the same as for a game that does not exist."""
    row, stored = own_invitation(game_id)
    seat = play.seat_of(row, g.user["id"])
    if seat is None:
        abort(404)
    if row["status"] == "active" or row["status"] == "finished":
        return redirect(url_for("play.board", game_id=game_id))
    if seat != 0:
        abort(404)
    if row["status"] == "aborted":
        flash(gettext("That invitation was cancelled."), "info")
        return redirect(url_for("lobby.index"))
    return render_template("lobby/invitation.html", row=row, code=stored["code"],
                           link=join_link(stored["code"]), clock_minutes=row["setup"]["clock_ms"] / 60_000)


@bp.post("/lobby/invite/<int:game_id>/cancel")
@login_required
def cancel(game_id):
    row, _ = own_invitation(game_id)
    if row["seats"][0] != g.user["id"]:
        abort(404)
    try:
        invitations.cancel(get_db(), game_id, g.user["id"])
    except play.PlayError as exc:
        flash(exc.message, "error")
    else:
        runtime().cancelled(game_id)  # other open pages of it hear it
        flash(gettext("Invitation cancelled."), "info")
    return redirect(url_for("lobby.index"))


@bp.get("/join")
@login_required
def join_by_code():
    """The lobby's "join with a code" form."""
    code = invitations.normal_code(request.args.get("code", ""))
    if not code:
        flash(gettext("Type the code your friend gave you."), "error")
        return redirect(url_for("lobby.index"))
    return redirect(url_for("lobby.join", code=code))


@bp.route("/join/<code>", methods=("GET", "POST"))
@login_required
def join(code):
    """The invitation's link: pick a deck and take the open seat; a full game offers to watch it."""
    db = get_db()
    code = invitations.normal_code(code)
    if wait := code_guesses_wait():
        return render_template("lobby/join.html", problem=f"Too many codes you tried named no game. Try again in "
                               f"{wait_text(wait)}.", row=None, code=None), 429, {"Retry-After": str(wait)}
    try:
        row = invitations.invitation(db, code)
    except play.NotFound as exc:
        missed_code()
        return render_template("lobby/join.html", problem=exc.message, row=None, code=code), 404
    uid = g.user["id"]
    names = seatnames.seat_names(db, row)
    if row["seats"][0] == uid and row["status"] == "waiting":
        return redirect(url_for("lobby.invitation", game_id=row["id"]))
    if play.seat_of(row, uid) is not None and row["status"] in ("active", "finished"):
        return redirect(url_for("play.board", game_id=row["id"]))
    if row["status"] != "waiting":
        problem = (gettext("This invitation was cancelled.") if row["status"] == "aborted"
                   else gettext("Both seats of this game are taken."))
        return render_template("lobby/join.html", problem=problem, row=row, code=code, names=names,
                               watch=row["status"] in ("active", "finished") and watching.may_watch(db, row, uid)), 409
    decks = playable_decks(db, uid)
    if request.method == "GET":
        return render_template("lobby/join.html", row=row, code=code, names=names, decks=decks,
                               clock_minutes=row["setup"]["clock_ms"] / 60_000)
    chosen = form_id(request.form.get("deck", ""))
    error = None
    if chosen is None:
        error = gettext("Choose a deck to play with.")
    else:
        try:
            row = invitations.join(db, code, g.user, chosen, current_app.config, rated=request.form.get("rated") == "1")
        except invitations.Full as exc:
            return render_template("lobby/join.html", problem=exc.message, row=row, code=code, names=names,
                                   watch=watching.may_watch(db, play.load_row(db, row["id"]), uid)), 409
        except play.PlayError as exc:
            error = exc.message
    if error:
        flash(error, "error")
        return redirect(url_for("lobby.join", code=code))
    runtime().started(db, row)
    return redirect(url_for("play.board", game_id=row["id"]))


def code_guesses_wait():
    """Seconds this user, or this address, must wait before trying another invitation code (0: none).

    Only codes that named no game count (``missed_code``), so a friend opening a real link again
    and again is never held up; a guesser runs out after JOIN_CODE_LIMIT misses a window."""
    limits = current_app.extensions["brigade_limits"]
    return max(limits["join_user"].wait(g.user["id"]), limits["join_address"].wait(request.remote_addr))


def missed_code():
    limits = current_app.extensions["brigade_limits"]
    limits["join_user"].hit(g.user["id"])
    limits["join_address"].hit(request.remote_addr)


def replay_row(game_id):
    """The row of a finished game whose replay this user may see (``watching.may_replay``); 404 for
    a game they may not see (the same as for one that does not exist), 409 while it is not over."""
    db = get_db()
    try:
        row = play.load_row(db, game_id)
    except play.NotFound:
        abort(404)
    if not watching.may_replay(db, row, g.user["id"]):
        abort(404)
    if row["status"] != "finished":
        abort(409, description=gettext("The game is not over: its replay is shown once it has ended."))
    return row


@bp.get("/games/<int:game_id>/replay")
@login_required
def replay(game_id):
    """A finished game, step by step (public view only); the steps come from replay.json."""
    row = replay_row(game_id)
    names = seatnames.seat_names(get_db(), row)
    # the card language: the player's board setting, else the page's language (as on the board)
    lang = boardsettings.load(get_db(), g.user["id"], i18n.current())["lang"]
    return render_template("lobby/replay.html", row=row, names=names, cards_url=cardfiles.pool_url(), lang=lang,
                           seat=play.seat_of(row, g.user["id"]))  # a player may make a puzzle from a step


@bp.get("/games/<int:game_id>/replay.json")
@login_required
def replay_json(game_id):
    """Every public state of a finished game, rebuilt from its setup and stored actions: built once
    per (game, final version) and kept (``REPLAYS``), within the user's replay budget."""
    row = replay_row(game_id)
    spend_replay_budget()
    lang = i18n.current()  # the log in the page's language: one kept body per language
    body = REPLAYS.get((current_app.config["DATABASE"], game_id, row["version"], lang),
                       lambda: json.dumps(publicreplay.replay(get_db(), game_id, lang), separators=(",", ":")).encode())
    return current_app.response_class(body, mimetype="application/json")


def spend_replay_budget():
    """Count one replay fetch against the user's REPLAY_LIMIT a REPLAY_WINDOW; when spent, a 429
    answer in JSON (both replay addresses are JSON): ``{"error": message, "retry_after": seconds}``."""
    wait = spent("replays", g.user["id"])
    if wait:
        message = gettext("You opened many replays in a short time. Try again in %(wait)s.", wait=wait_text(wait))
        abort(current_app.make_response(({"error": message, "retry_after": wait}, 429, {"Retry-After": str(wait)})))


class ReplayCache:
    """Replays as the JSON bytes sent, by (database, game, final version): a finished game never
    changes, so each is built once. At most ``size`` are kept, and at most ``max_bytes`` in all."""

    def __init__(self, size=32, max_bytes=32 * 1024 * 1024):
        self.size, self.max_bytes = size, max_bytes
        self.entries = collections.OrderedDict()
        self.lock = threading.Lock()
        self.builds = 0  # tests count them

    def get(self, key, build):
        with self.lock:
            body = self.entries.get(key)
            if body is not None:
                self.entries.move_to_end(key)
                return body
        body = build()
        with self.lock:
            self.builds += 1
            self.entries[key] = body
            while len(self.entries) > self.size or sum(map(len, self.entries.values())) > self.max_bytes:
                if len(self.entries) == 1:
                    break
                self.entries.popitem(last=False)
        return body


REPLAYS = ReplayCache()

