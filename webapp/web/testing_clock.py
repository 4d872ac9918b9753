"""Tests only: move a running server's clock forward (docs/testing.md "Time: one clock, advanced, never slept").

A test's server in another process (``python -m webapp`` in tests/online/test_real_server.py and
tests/play/test_real_server.py) cannot be time-travelled from the test, so grace periods, clocks and
rate windows would be waited out in wall time. With the app's ``TESTING`` key on (the test writes it
into the server's instance config), ``POST /testing/clock`` with ``advance=<seconds>`` (form field,
CSRF token as every form) calls ``webapp.clock.advance`` in the server and answers the offset now in
force as JSON. Without ``TESTING`` the blueprint is not registered: the path is a 404 like any unknown
one (tests/web/test_testing_clock.py).
"""

from flask import Blueprint, abort, current_app, jsonify, request

from webapp import clock

bp = Blueprint("testing_clock", __name__)


def init_app(app):
    """Register the route, only in testing mode."""
    if app.config.get("TESTING"):
        app.register_blueprint(bp)


@bp.post("/testing/clock")
def advance():
    if not current_app.config.get("TESTING"):  # registered only then; a second lock on the door
        abort(404)
    text = request.form.get("advance", "")
    try:
        seconds = float(text)
        return jsonify(offset=clock.advance(seconds))
    except ValueError as exc:
        return jsonify(error=f"advance: {exc}" if text else "advance: the seconds to move the clock by are missing"), 400
