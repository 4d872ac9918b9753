"""The friends page (the list with presence, requests, blocks, the friend link, who may watch,
challenges) and the ladder (ratings, the play-anyone queue). Thin views over webapp/social/; a
challenge's live notice comes over Socket.IO (docs/protocol.md ``challenge``, ``matched``)."""

from flask import Blueprint, abort, current_app, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from webapp.game import onlineclock, play
from webapp.social import challenges, friends, matchqueue, presence, profiles, ratings, watching
from webapp.store import get_db, get_user_by_name
from webapp.web.deckchoice import form_id, playable_decks
from webapp.web.lobby import CLOCK_CHOICES, runtime
from webapp.web.security import login_required

bp = Blueprint("friends", __name__)


def other_named(name):
    """The active user of this name (404 for none, a disabled account, or oneself)."""
    user = get_user_by_name(get_db(), name[:64])
    if user is None or user.get("disabled") or user["id"] == g.user["id"]:
        abort(404)
    return user


def clock_minutes():
    default = current_app.config["ONLINE_CLOCK_MINUTES"]
    return sorted(set(CLOCK_CHOICES) | {default}), default


def presence_rows(db, people):
    """Each friend with their presence: state, and the game's address when the user may watch it."""
    states = friends.presence_of(db, [p["id"] for p in people])
    out = []
    for p in people:
        state, game_id = states[p["id"]]
        watch = None
        if state == presence.PLAYING:
            try:
                row = play.load_row(db, game_id)
            except play.NotFound:
                row = None
            if row is not None and watching.may_watch(db, row, g.user["id"]):
                watch = url_for("play.board", game_id=game_id)
        out.append({"name": p["name"], "state": state, "watch": watch})
    return out


@bp.get("/friends")
@login_required
def index():
    db = get_db()
    me = g.user["id"]
    lists = friends.overview(db, me)
    choices, default = clock_minutes()
    rows = presence_rows(db, lists["friends"])
    return render_template("friends/index.html", people=rows, incoming=lists["incoming"], outgoing=lists["outgoing"],
                           blocked=lists["blocked"], decks=playable_decks(db, me), clock_choices=choices,
                           default_clock=default, challenges=challenges.open_ones(db, me),
                           friend_link=url_for("friends.link", token=friends.friend_token(db, me), _external=True),
                           watch=watching.setting(db, me), watch_choices=watching.CHOICES)


@bp.get("/friends/presence.json")
@login_required
def presence_json():
    """The friends' presence, for the friends page to refresh itself."""
    db = get_db()
    return jsonify(friends=presence_rows(db, friends.overview(db, g.user["id"])["friends"]))


def done(message, category="info"):
    flash(message, category)
    return redirect(request.form.get("next") if request.form.get("next") in ("/lobby", "/ladder") else
                    url_for("friends.index"))


def attempt(fn, *args, ok=None):
    try:
        result = fn(*args)
    except play.PlayError as exc:
        return done(exc.message, "error")
    return done(ok(result) if callable(ok) else ok)


def asked(result):
    return {"sent": gettext("Friend request sent."), "accepted": gettext("You are friends now."),
            "friends": gettext("You are friends already.")}[result]


@bp.post("/friends/add")
@login_required
def add():
    return attempt(friends.ask_by_name, get_db(), g.user["id"], request.form.get("name", "").strip(), ok=asked)


@bp.get("/friends/link/<token>")
@login_required
def link(token):
    """A friend link: whose it is, and a button to ask them (never added by just opening it)."""
    try:
        owner = friends.link_owner(get_db(), token)
    except play.NotFound as exc:
        return render_template("friends/link.html", problem=exc.message, owner=None, token=None), 404
    if owner["id"] == g.user["id"]:
        return render_template("friends/link.html", problem=gettext("This is your own friend link: send it to a friend."),
                               owner=None, token=None)
    return render_template("friends/link.html", problem=None, owner=owner, token=token)


@bp.post("/friends/link/<token>")
@login_required
def link_add(token):
    db = get_db()
    try:
        owner = friends.link_owner(db, token)
    except play.NotFound as exc:
        return done(exc.message, "error")
    return attempt(friends.ask, db, g.user["id"], owner["id"], ok=asked)


@bp.post("/friends/link/new")
@login_required
def new_link():
    friends.new_friend_token(get_db(), g.user["id"])
    return done(gettext("Your friend link is new: the old one no longer works."))


ACTIONS = {
    "accept": (friends.accept, lambda name: gettext("You and %(name)s are friends now.", name=name)),
    "decline": (friends.decline, lambda name: gettext("Request declined.")),
    "withdraw": (friends.withdraw, lambda name: gettext("Request withdrawn.")),
    "remove": (friends.remove, lambda name: gettext("%(name)s is no longer on your friends list.", name=name)),
    "block": (friends.block, lambda name: gettext("%(name)s is blocked.", name=name)),
    "unblock": (friends.unblock, lambda name: gettext("%(name)s is no longer blocked.", name=name)),
}


@bp.post("/friends/<name>/<action>")
@login_required
def act(name, action):
    if action not in ACTIONS:
        abort(404)
    other = other_named(name)
    fn, words = ACTIONS[action]
    return attempt(fn, get_db(), g.user["id"], other["id"], ok=lambda _: words(other["name"]))


@bp.post("/friends/watch")
@login_required
def watch_setting():
    try:
        watching.choose(get_db(), g.user["id"], request.form.get("watch", ""))
    except ValueError:
        return done(gettext("Choose who may watch your games."), "error")
    return done(gettext("Saved: who may watch your games."))


def form_game():
    """(deck id, clock ms, rated) from a challenge or queue form; PlayError for a bad one."""
    deck = form_id(request.form.get("deck", ""))
    if deck is None:
        raise play.BadRequest(gettext("Choose a deck to play with."))
    clock_ms = onlineclock.clock_ms_from_minutes(request.form.get("clock", current_app.config["ONLINE_CLOCK_MINUTES"]),
                                                 current_app.config)
    return deck, clock_ms, request.form.get("rated") == "1"


@bp.post("/friends/<name>/challenge")
@login_required
def challenge(name):
    other = other_named(name)
    db = get_db()
    try:
        deck, clock_ms, rated = form_game()
        challenges.send(db, runtime().notifier, g.user, other["id"], deck, clock_ms, rated, current_app.config)
    except play.PlayError as exc:
        return done(exc.message, "error")
    return done(gettext("Challenge sent to %(name)s.", name=other["name"]))


@bp.post("/challenges/<int:challenge_id>/accept")
@login_required
def accept_challenge(challenge_id):
    deck = form_id(request.form.get("deck", ""))
    if deck is None:
        return done(gettext("Choose a deck to play with."), "error")
    try:
        row = challenges.accept(get_db(), runtime(), g.user, challenge_id, deck, request.form.get("rated") == "1",
                                current_app.config)
    except play.PlayError as exc:
        return done(exc.message, "error")
    return redirect(url_for("play.board", game_id=row["id"]))


@bp.post("/challenges/<int:challenge_id>/<action>")
@login_required
def settle_challenge(challenge_id, action):
    fn = {"decline": challenges.decline, "cancel": challenges.cancel}.get(action)
    if fn is None:
        abort(404)
    return attempt(fn, get_db(), runtime(), g.user, challenge_id,
                   ok=gettext("Challenge declined.") if action == "decline" else gettext("Challenge withdrawn."))


# ---------------------------------------------------------------- the ladder


@bp.get("/ladder")
@login_required
def ladder():
    db = get_db()
    me = g.user["id"]
    choices, default = clock_minutes()
    return render_template("friends/ladder.html", rows=ratings.ladder(db), mine=ratings.rating_of(db, me),
                           queued=matchqueue.waiting_since(db, me) is not None, decks=playable_decks(db, me),
                           clock_choices=choices, default_clock=default)


@bp.post("/ladder/queue")
@login_required
def queue():
    db = get_db()
    try:
        deck, clock_ms, _ = form_game()
        outcome, row = matchqueue.join(db, runtime(), g.user, deck, clock_ms, current_app.config)
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for("friends.ladder"))
    if outcome == "matched":
        return redirect(url_for("play.board", game_id=row["id"]))
    flash(gettext("Waiting for an opponent: this page takes you to the game once one is found."), "info")
    return redirect(url_for("friends.ladder"))


@bp.post("/ladder/queue/leave")
@login_required
def leave_queue():
    try:
        matchqueue.leave(get_db(), g.user["id"])
    except play.PlayError as exc:
        flash(exc.message, "error")
    return redirect(url_for("friends.ladder"))


# ---------------------------------------------------------------- profiles


@bp.get("/players/<name>")
@login_required
def profile(name):
    """A player's profile: rating and its history, games, win rate by deck, per-card figures."""
    db = get_db()
    user = get_user_by_name(db, name[:64])
    if user is None or user.get("disabled"):
        abort(404)
    return render_template("friends/profile.html", player=user,
                           profile=profiles.profile(db, user["id"], viewer=g.user["id"]))
