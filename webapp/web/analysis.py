"""The CPU as a coach over HTTP: the after-game analysis, ``GET /games/<id>/analysis.json``
(webapp/game/aftergame.py), and "play from here", ``POST /games/<id>/fork`` (webapp/game/fork.py).

For a player of a finished game only; the first read starts it, later reads tell its progress and
then give it in the page's language. 404 for a game in progress, one the user holds no seat in, or
none at all (one answer for all three)."""

from flask import Blueprint, abort, current_app, flash, g, jsonify, redirect, request, url_for
from flask_babel import gettext

from webapp import i18n
from webapp.game import aftergame, play
from webapp.game import fork as forks
from webapp.store import get_db
from webapp.web.play import hard_seconds, solo_budget_spent
from webapp.web.security import login_required

bp = Blueprint("analysis", __name__)


@bp.get("/games/<int:game_id>/analysis.json")
@login_required
def analysis_json(game_id):
    try:
        got = aftergame.read(get_db(), game_id, g.user["id"], lang=i18n.current(),
                             seconds=current_app.config.get("ANALYSIS_SECONDS"))
    except play.NotFound:  # one answer for no such game, not yours, not over yet
        return jsonify(error=gettext("There is no analysis of this game (yet).")), 404
    return jsonify(got)


@bp.post("/games/<int:game_id>/fork")
@login_required
def fork(game_id):
    """Play from here (webapp/game/fork.py): a practice CPU game from a step of a finished game the
    user played, at the chosen difficulty; 404 for anyone else or a game still going."""
    version = request.form.get("version", "")
    difficulty = request.form.get("difficulty", "normal")
    if solo_budget_spent():
        return redirect(url_for("lobby.replay", game_id=game_id))
    try:
        new_id = forks.fork(get_db(), game_id, g.user["id"], int(version) if version.isdigit() else -1,
                            difficulty=difficulty, seconds=hard_seconds(),
                            limit=current_app.config.get("MAX_ACTIVE_GAMES"))
    except play.NotFound:
        abort(404)
    except play.PlayError as exc:
        flash(exc.message, "error")
        return redirect(url_for("lobby.replay", game_id=game_id))
    return redirect(url_for("play.board", game_id=new_id))
