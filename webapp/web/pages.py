"""Site-wide pages: the landing page and the health check."""

from flask import Blueprint, jsonify, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    """Show the landing page with the size of the card pool."""
    from flask import current_app

    from webapp.accounts import registration_mode

    return render_template("index.html", card_count=card_count(),
                           registration_open=registration_mode(current_app.config) != "closed")


@bp.get("/healthz")
def healthz():
    """Answer a load balancer's or a deploy script's liveness check."""
    return jsonify(ok=True)


def card_count():
    """Return how many cards the engine's pool holds, or None while there is no engine."""
    try:
        from webapp.engine import load_pool
    except ImportError:
        return None
    return len(load_pool())
