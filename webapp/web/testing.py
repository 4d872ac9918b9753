"""Tests only: start a game at a position. Registered by ``create_app`` only when ``TESTING`` is on.

``POST /testing/start`` (logged in; JSON body; the CSRF token in ``X-CSRF-Token`` as every POST)
starts a CPU, story or online game for the user from a scenario (docs/engine.md, "Scenario
format") through ``webapp.game.positions.start`` and answers ``{"game": id, "url": "/play/<id>"}``.
The body::

    {"mode": "cpu" | "story" | "online", "scenario": {...} (or none: the page's deal, from the seed), "seed": 7,
     "cpu": "random" | "baseline" | ..., "difficulty": "easy" | "normal" | "hard", "seconds": 0.2,
     "chapter": "<story chapter id>", "cleared": ["<chapter id>", ...],   (story)
     "opponent": "<the other account's name>", "clock_ms": 900000, "rated": true}   (online: seat 1, human; rated: for the ladder)

Bad data gets 400 with ``{"error": "..."}`` and writes nothing. On a normal server (``TESTING``
off) the path does not exist: 404 (tests/web/test_testing_start.py). tests/browserkit.py's
``start_at`` calls it from a page and opens the board; docs/testing.md says how tests use it.
"""

from flask import Blueprint, current_app, g, jsonify, request, url_for

from webapp import store
from webapp.game import play, positions, storychapters
from webapp.store import get_db
from webapp.web.security import login_required

bp = Blueprint("testing", __name__, url_prefix="/testing")

FIELDS = {"mode", "scenario", "seed", "cpu", "difficulty", "seconds", "chapter", "cleared", "opponent", "clock_ms",
          "rated"}


def refused(message, status=400):
    return jsonify({"error": message}), status


@bp.post("/start")
@login_required
def start():
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return refused("send a JSON object: {mode, scenario, seed, ...}")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        return refused(f"unknown field(s): {', '.join(unknown)} (known: {', '.join(sorted(FIELDS))})")
    mode = body.get("mode", "cpu")
    db = get_db()
    users = [g.user]
    if mode == "online":
        name = body.get("opponent")
        other = store.get_user_by_name(db, name) if isinstance(name, str) else None
        if other is None:
            return refused(f"an online game needs 'opponent', the name of another account, not {name!r}")
        users.append(other)
    elif "opponent" in body or "clock_ms" in body or "rated" in body:
        return refused("'opponent', 'clock_ms' and 'rated' are for online games")
    cleared = body.get("cleared", [])
    if cleared and mode != "story":
        return refused("'cleared' is for story games")
    known = {c.id for c in storychapters.chapters()}
    if not isinstance(cleared, list) or not all(isinstance(c, str) and c in known for c in cleared):
        return refused(f"'cleared' lists story chapter ids (known: {', '.join(sorted(known))}), not {cleared!r}")
    try:
        with store.transaction(db):  # the chapters cleared before and the game: together or not at all
            for chapter_id in cleared:
                store.record_clear(db, g.user["id"], chapter_id)
            game_id = positions.start(db, mode, users, body.get("scenario"), seed=body.get("seed", 0),
                                      cpu_name=body.get("cpu", current_app.config.get("CPU_PLAYER")),
                                      difficulty=body.get("difficulty"), seconds=body.get("seconds"),
                                      chapter_id=body.get("chapter"), clock_ms=body.get("clock_ms"),
                                      config=current_app.config, rated=body.get("rated") is True)
    except play.PlayError as exc:  # BadRequest (the data), NotFound (the chapter): nothing was written
        return refused(exc.message)
    if mode == "online":
        current_app.extensions["brigade_online"].started(db, play.load_row(db, game_id))
    return jsonify({"game": game_id, "url": url_for("play.board", game_id=game_id)})


def init_app(app):
    """Register the blueprint: the factory calls it only when ``app.config["TESTING"]`` is on."""
    app.register_blueprint(bp)
