"""Security headers on every response, and pages that pass their Content-Security-Policy: no
inline script, no inline event handler, no javascript: URL (issue 12, Low). The old server sent
none of these headers."""

import re

import pytest

from tests.security.conftest import client_of, text
from webapp.game import invitations, play

HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


@pytest.fixture
def pages(app, db, alice, bob, loaner, started):
    """Every kind of page a player sees, by address."""
    cpu = play.create_cpu_game(db, alice, loaner)
    waiting, code = invitations.create_invitation(db, alice, loaner, 60_000)
    finished = started()
    row = play.load_row(db, finished)
    play.apply(db, row, 1, {"type": "resign"}, row["version"])
    return ["/", "/login", "/register", "/collection", "/collection/card/imp", "/packs", "/decks", "/decks/new",
            "/decks/loaner/princes-brigade", "/play", f"/play/{cpu}", "/lobby", f"/lobby/invite/{waiting}",
            f"/join/{code}", f"/games/{finished}/replay", "/story", "/story/first-muster", "/no/such/page",
            "/collection/art/en/imp.svg", "/static/css/brigade.css", "/static/js/play.js", "/healthz",
            f"/play/{finished}/replay.json"]


def check_headers(response):
    for key, value in HEADERS.items():
        assert response.headers.get(key) == value, (key, response.request.path)
    csp = response.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


def test_every_response_carries_the_headers(app, alice, pages):
    visitor, player = app.test_client(), client_of(app, alice)
    for url in pages:
        for client in (visitor, player):
            check_headers(client.get(url))


SCRIPT = re.compile(r"<script\b([^>]*)>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def test_no_page_holds_a_script_the_policy_would_block(app, alice, pages):
    player = client_of(app, alice)
    for url in pages:
        response = player.get(url, follow_redirects=True)
        if response.mimetype != "text/html":
            continue
        page = text(response)
        for attrs in SCRIPT.findall(page):
            assert "src=" in attrs or 'type="application/json"' in attrs, (url, attrs)
        assert not HANDLER.search(page), (url, HANDLER.search(page).group(0))
        assert "javascript:" not in page.lower(), url
