"""The after-game analysis over HTTP: ``GET /games/<id>/analysis.json`` (webapp/game/aftergame.py).

For a player of a finished game only; the first read starts it, later reads tell its progress and
then give it in the page's language. 404 for a game in progress, one the user holds no seat in, or
none at all (one answer for all three)."""

from flask import Blueprint, g, jsonify
from flask_babel import gettext

from webapp import i18n
from webapp.game import aftergame, play
from webapp.store import get_db
from webapp.web.security import login_required

bp = Blueprint("analysis", __name__)


@bp.get("/games/<int:game_id>/analysis.json")
@login_required
def analysis_json(game_id):
    try:
        got = aftergame.read(get_db(), game_id, g.user["id"], lang=i18n.current())
    except play.NotFound:  # one answer for no such game, not yours, not over yet
        return jsonify(error=gettext("There is no analysis of this game (yet).")), 404
    return jsonify(got)
