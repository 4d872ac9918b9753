"""Play pages: choose a deck, start a CPU game, the board page (live over Socket.IO), a finished game's replay.

Thin views over ``webapp.game.play``; the game itself is played over Socket.IO (docs/protocol.md).
"""

from flask import (Blueprint, abort, current_app, flash, g, jsonify, redirect, render_template, request,
                   url_for)
from flask_babel import gettext

from webapp.decks.packs import source_label
from webapp.game import boardsettings, cpumoves, cpuseats, fairplay, play, quests, storychapters, storyprogress
from webapp.social import watching
from webapp import i18n, store
from webapp.accounts import wait_text
from webapp.ai import DIFFICULTY_LABELS, workers
from webapp.store import get_db
from webapp.store.marks import get_mark
from webapp.web import cardfiles
from webapp.web.deckchoice import form_id, playable_decks
from webapp.web.lobby import spend_replay_budget
from webapp.web.pages import quest_entry
from webapp.web.security import login_required, spent

bp = Blueprint("play", __name__)


def game_row(db, game_id, seated=False):
    """(row, the user's seat) of a game; 404 when there is no such game, 403 when ``seated`` and the
    user holds no seat in it."""
    try:
        row = play.load_row(db, game_id)
    except play.NotFound:
        abort(404)
    seat = play.seat_of(row, g.user["id"])
    if seated and seat is None:
        abort(403)
    return row, seat


@bp.record_once
def configure_cpu(state):
    """The host's CPU_WORKERS (webapp/config.py): the Hard CPU's worker processes."""
    workers.configure(state.app.config.get("CPU_WORKERS"))


@bp.get("/play")
@login_required
def index():
    """Choose a deck for a game against the CPU; resume a game in progress."""
    db = get_db()
    decks = playable_decks(db, g.user["id"])
    play.abandon_stale(db, g.user["id"], abandon_days())
    games = [dict(r, label=game_label(r)) for r in store.list_games(db, g.user["id"], status="active")]
    return render_template("play/index.html", decks=decks, games=games, difficulties=DIFFICULTY_LABELS,
                           difficulty=request.args.get("difficulty") if request.args.get("difficulty")
                           in DIFFICULTY_LABELS else "normal")


def abandon_days():
    """The ABANDON_AFTER_DAYS setting (docs/deploy.md): days without an action before a CPU or story
    game in progress is resigned for its player."""
    return current_app.config["ABANDON_AFTER_DAYS"]


def cpu_setting():
    """The ``CPU_PLAYER`` setting (unset: the baseline CPU). A test-only way to a weak CPU ("random")."""
    return current_app.config.get("CPU_PLAYER")


def hard_seconds():
    """The CPU_HARD_SECONDS setting: the Hard CPU's thinking time per decision, kept in each game's setup."""
    return float(current_app.config.get("CPU_HARD_SECONDS") or 0) or None


def game_label(row):
    """A game in progress as its player reads it: "Against the CPU", "Story: The Prince's Muster", "Online"."""
    if row["mode"] == "story":
        try:
            ch = storychapters.chapter_of(row)
            return gettext("Story, chapter %(n)s: %(title)s", n=ch.order,
                           title=ch.title.get(i18n.current()) or ch.title["en"])
        except play.NotFound:
            return gettext("Story")
    return {"cpu": gettext("Against the CPU"), "online": gettext("Online")}.get(row["mode"], row["mode"])


@bp.post("/play/<int:game_id>/abandon")
@login_required
def abandon(game_id):
    """Give up a CPU or story game in progress (it ends as a resignation) and go back to the list."""
    try:
        play.abandon(get_db(), game_id, g.user["id"])
    except play.NotFound:
        abort(404)
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for("play.index"))
    flash(gettext("Game %(n)s abandoned: it counts as a resignation.", n=game_id), "info")
    return redirect(request.form.get("next") if request.form.get("next") in ("/play", "/story") else url_for("play.index"))


@bp.post("/play/<int:game_id>/again")
@login_required
def again(game_id):
    """A finished CPU game's "Rematch": a new game against the CPU with the same deck."""
    db = get_db()
    row, seat = game_row(db, game_id, seated=True)
    if row["mode"] != "cpu":
        abort(403)
    if row["status"] == "active":  # a rematch follows a finished game: never a second game beside this one
        abort(409, description=gettext("The game is still being played."))
    deck_id = (row["setup"].get("deck_ids") or [None])[seat]
    if solo_budget_spent():
        return redirect(url_for("play.index"))
    try:
        new_id = play.create_cpu_game(db, g.user, deck_id, config=current_app.config, cpu_name=cpu_setting(),
                                      difficulty=cpuseats.cpu_difficulty(row), seconds=hard_seconds(),
                                      limit=current_app.config.get("MAX_ACTIVE_GAMES"))
    except play.PlayError as exc:
        flash(gettext("%(reason)s Choose another deck.", reason=exc.message), "error")
        return redirect(url_for("play.index"))
    return redirect(url_for("play.board", game_id=new_id))


def solo_budget_spent():
    """Count a new CPU game or story battle against the user's SOLO_GAME_LIMIT a SOLO_GAME_WINDOW
    (docs/security.md "Cost levers": each is a stored row for ever); when spent, flash why and return True."""
    wait = spent("solo_games", g.user["id"])
    if wait:
        flash(gettext("You started many battles in a short time: start the next one in %(wait)s.",
                      wait=wait_text(wait)), "error")
    return bool(wait)


@bp.get("/play/<int:game_id>/end.json")
@login_required
def end_info(game_id):
    """What a finished game's end screen shows its player: the packs this game earned (with their
    pages), and where to go next (docs/protocol.md, "End screen")."""
    db = get_db()
    row, seat = game_row(db, game_id, seated=True)
    if row["status"] == "active":
        abort(409, description=gettext("The game is still being played."))
    lang = i18n.current()
    nxt = []
    story_info = None
    if row["mode"] == "story":
        ch = storychapters.chapter_of(row)
        outcome = storyprogress.finish(db, g.user["id"], row)
        story_info = {"chapter": ch.order, "title": ch.title.get(lang) or ch.title["en"], "met": outcome.verdict.met,
                      "cleared": outcome.cleared, "goal": ch.goal_text(lang)}
        done = url_for("story.done", chapter_id=ch.id, game=game_id)
        if outcome.verdict.met:
            nxt.append({"kind": "done", "label": gettext("On to the chapter's end: Eringe's words and your reward"),
                        "url": done})
        else:
            nxt.append({"kind": "retry", "label": gettext("Try chapter %(n)s again", n=ch.order),
                        "url": url_for("story.chapter", chapter_id=ch.id)})
            nxt.append({"kind": "done", "label": gettext("The chapter's page"), "url": done})
        nxt.append({"kind": "map", "label": gettext("The chapter map"), "url": url_for("story.index")})
    elif row["mode"] == "puzzle":  # the puzzle's page: its retry, hint and (once open) solution
        pid, code = row["setup"].get("puzzle"), row["setup"].get("shared")
        nxt.append({"kind": "puzzle", "label": gettext("Back to the puzzle"),
                    "url": url_for("puzzles.shared_page", code=code) if code else url_for("puzzles.page", puzzle_id=pid)})
        nxt.append({"kind": "map", "label": gettext("All puzzles"), "url": url_for("puzzles.index")})
    elif row["mode"] == "gauntlet":  # the run goes on (or shows its end) on its page
        nxt.append({"kind": "gauntlet", "label": gettext("Back to the gauntlet"), "url": url_for("gauntlet.index")})
    elif row["mode"] == "cpu":
        nxt.append({"kind": "rematch", "label": gettext("Rematch with the same deck"),
                    "url": url_for(".again", game_id=game_id), "post": True})
        nxt.append({"kind": "play", "label": gettext("Choose another deck"), "url": url_for(".index")})
    else:
        nxt.append({"kind": "lobby", "label": gettext("Back to the lobby"), "url": url_for("lobby.index")})
    earned = play.earned_packs(db, row, g.user["id"])
    packs = [{"id": p["id"], "label": source_label(p["source"]), "opened": bool(p["opened_at"]),
              "url": url_for("collection.pack", pack_id=p["id"])} for p in earned]
    advanced = [dict(e, status=gettext("Done: claim it on the home page") if e["done"] and not e["claimed"] else
                     gettext("%(done)s of %(total)s done", done=e["progress"], total=e["target"]))
                for e in (quest_entry(q, i18n.current()) for q in quests.advanced_by(db, g.user["id"], game_id))]
    return jsonify(game=game_id, mode=row["mode"], result=row["result"], packs=packs, next=nxt, story=story_info,
                   quests={"title": gettext("Today's quests"), "url": url_for("pages.index") + "#quests",
                           "items": advanced} if advanced else None,
                   packs_url=url_for("collection.packs_page") if packs else None,
                   no_pack=no_pack_words(db, row, seat, earned))


def no_pack_words(db, row, seat, earned):
    """Why the seat's won game paid no Victory pack, in words (webapp/game/fairplay.py), or None."""
    if (row["result"] or {}).get("winner") != seat:
        return None
    _row, game = play.load(db, row["id"])
    why = fairplay.withheld(row, game, any(p["source"] == f"win:game:{row['id']}" for p in earned))
    if why == "cut_short":
        return gettext("No Victory pack: a game ended by resigning, a clock or a lost connection before round "
                       "%(n)s does not count.", n=fairplay.FULL_ROUND)
    if why == "pair":
        return gettext("No Victory pack: you two have won %(n)s packs from each other today, the most for one day.",
                       n=fairplay.PAIR_WINS_PER_DAY)
    return None


@bp.post("/play/cpu")
@login_required
def new_cpu_game():
    """Create a game against the CPU with the chosen deck and difficulty and go to its board."""
    chosen = form_id(request.form.get("deck", ""))
    difficulty = request.form.get("difficulty") or None
    if difficulty is not None and difficulty not in DIFFICULTY_LABELS:
        flash(gettext("Choose a difficulty: Easy, Normal or Hard."), "error")
        return redirect(url_for("play.index"))
    if chosen is None:
        flash(gettext("Choose a deck to play with."), "error")
        return redirect(url_for("play.index"))
    if solo_budget_spent():
        return redirect(url_for("play.index"))
    try:
        game_id = play.create_cpu_game(get_db(), g.user, chosen, config=current_app.config, cpu_name=cpu_setting(),
                                       difficulty=difficulty, seconds=hard_seconds(),
                                       limit=current_app.config.get("MAX_ACTIVE_GAMES"))
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for("play.index"))
    return redirect(url_for("play.board", game_id=game_id))


@bp.get("/play/<int:game_id>")
@login_required
def board(game_id):
    """The board page; the seat comes from the session, a visitor without one watches."""
    row, seat = game_row(get_db(), game_id)
    if not watching.may_watch(get_db(), row, g.user["id"]):  # the players' choice: the same 404 as no game
        abort(404)
    # The card language: the player's board setting, else the page's language (webapp/i18n.py).
    lang = boardsettings.load(get_db(), g.user["id"], i18n.current())["lang"]
    return render_template("play/board.html", game_id=game_id, seat=seat, mode=row["mode"],
                           lang=lang, cards_url=cardfiles.pool_url(),
                           story=row["mode"] == "story" and seat == 0,
                           goal_url=url_for("puzzles.game_info", game_id=game_id) if row["mode"] == "puzzle" and seat == 0
                           else url_for("story.game_info", game_id=game_id) if row["mode"] == "story" and seat == 0 else None,
                           solo=row["mode"] in play.SOLO_MODES and seat is not None,
                           hint=row["mode"] in play.SOLO_MODES and seat is not None and row["status"] == "active")


@bp.post("/play/<int:game_id>/hint.json")
@login_required
def hint(game_id):
    """The board's "What would the CPU do?" in a CPU or story game: the Hard CPU's move in the player's
    place, with one sentence of why (docs/protocol.md, "Hint"). Each costs a search in a worker, so a
    user has HINT_LIMIT of them a HINT_WINDOW; answers are JSON, errors ``{"error": words}``."""
    db = get_db()
    game_row(db, game_id, seated=True)
    wait = spent("hints", g.user["id"])
    if wait:
        return jsonify(error=f"The CPU needs a breather: ask again in {wait_text(wait)}.", retry_after=wait), 429, \
            {"Retry-After": str(wait)}
    try:
        got = cpumoves.hint(db, game_id, g.user["id"], seconds=hard_seconds())
    except play.Forbidden:
        return jsonify(error="Hints are for games against the CPU."), 403
    except play.Illegal:
        return jsonify(error="It is not your move."), 409
    return jsonify(got)


@bp.get("/play/settings.json")
@login_required
def settings_json():
    """The logged-in player's board settings (webapp/game/boardsettings.py, docs/accounts.md)."""
    db = get_db()
    return jsonify(dict(boardsettings.load(db, g.user["id"], i18n.current()),
                        saved=get_mark(db, g.user["id"], boardsettings.MARK) is not None))


@bp.post("/play/settings.json")
@login_required
def settings_save():
    """Change some of the player's board settings: a JSON object of the settings to change."""
    try:
        new = boardsettings.save(get_db(), g.user["id"], request.get_json(silent=True), i18n.current())
    except boardsettings.BadSettings as e:
        return jsonify({"error": "bad_request", "message": str(e)}), 400
    return jsonify(new)


@bp.get("/play/<int:game_id>/replay.json")
@login_required
def replay(game_id):
    """A finished game's setup and actions, for its players (decks and seed are secret while it runs)."""
    db = get_db()
    row, _ = game_row(db, game_id, seated=True)
    # Only "finished": a waiting invitation, or one that was cancelled, has no replay either (its
    # seed is drawn when the game starts; docs/security.md).
    if row["status"] != "finished":
        abort(409, description=gettext("The game is not over: its replay is shown once it has ended."))
    spend_replay_budget()
    setup = row["setup"]
    return jsonify(game=game_id, mode=row["mode"], seed=row["seed"], result=row["result"],
                   version=row["version"], decks=setup["decks"], first=setup.get("first"),
                   leader_mode=setup.get("leader_mode"), seats=setup["seats"],
                   actions=[{"seq": a["seq"], "player": a["player"], "action": a["action"]}
                            for a in store.list_actions(db, game_id)])
