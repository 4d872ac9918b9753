"""The pages pass their Content-Security-Policy in a real browser (issue 12): Debian's chromium
(Playwright) visits the main pages, a board against the CPU (played for a few moves), an
invitation, a replay and the error page, and hears no ``securitypolicyviolation`` event and no
CSP message in the console."""

import re

import pytest

from tests.browserkit import DESKTOP, BoardPlayer, Server, register, wait_for_board
from tests.conftest import shots_dir
from webapp.game import play
from webapp.store import connect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sourceFile || "") + ":" + e.lineNumber));
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("csp"), "CPU_DELAY = 0\n")
    yield server
    server.stop()


def test_no_page_raises_a_csp_violation(browser, server):
    context = browser.new_context(**DESKTOP)
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.set_default_timeout(20_000)
    problems = []
    page.on("console", lambda m: ("Content Security Policy" in m.text or "Refused to" in m.text)
            and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    visited = []

    def check(label):
        page.wait_for_load_state()
        visited.append(label)
        problems.extend(f"{label}: {v}" for v in page.evaluate("window.__csp || []"))

    register(page, server.url, "cspcheck")
    for path in ("/", "/collection", "/packs", "/decks", "/decks/new", "/play", "/lobby", "/story",
                 "/story/first-muster", "/no/such/page"):
        page.goto(server.url + path)
        check(path)
    page.goto(server.url + "/no/such/page")
    page.screenshot(path=str(shots_dir() / "security-404-desktop.png"))

    page.goto(server.url + "/collection")
    page.locator(".coll-card .coll-link").first.click()  # the card's dialog (fetched HTML)
    page.locator("#coll-dialog .coll-detail").wait_for()
    check("card dialog")

    page.goto(server.url + "/play")
    page.locator("label.play-deck", has_text="Prince").locator("input[name=deck]").check()
    page.click("text=Start the battle")
    page.wait_for_url(re.compile(r"/play/\d+$"))
    wait_for_board(page)
    player = BoardPlayer(page)
    for _ in range(6):
        if not player.step():
            break
    check("board")
    game = int(page.url.rsplit("/", 1)[1])

    page.goto(server.url + "/lobby")
    page.locator("label.lobby-deck", has_text="Prince").locator("input[name=deck]").check()
    page.click("text=Create the invitation")
    page.wait_for_url(re.compile(r"/lobby/invite/\d+$"))
    check("invitation")

    # End the CPU game (a resignation written straight into the server's database), then its replay.
    db = connect(server.db_path)
    row = play.load_row(db, game)
    play.act(db, game, row["seats"][0], {"type": "resign"}, row["version"])
    db.close()
    page.goto(f"{server.url}/games/{game}/replay")
    page.wait_for_selector("#replay-summary:not(:has-text('Loading'))")
    check("replay")
    context.close()
    print("visited:", ", ".join(visited))
    assert not problems, problems
