"""The first chapter in a real browser, for a new account: the map, Eringe's briefing, Start, the
board with Eringe's tip, resigned (a lost chapter records nothing), then the chapter dealt from a fixed
seed (the test-only start path, ``start_at``: docs/testing.md) and played to its end by the bot client
over Socket.IO with a fixed seed: it wins, every run; then the chapter's end page with the reward and
the pack-opening view.

Debian's chromium through Playwright against ``python -m webapp`` (tests/browserkit.py's Server) on a
free port with its own instance folder (``CPU_DELAY = 0``). Screenshots go to
docs/screenshots/story-<page>-<size>.png for people to look at.
"""

import os
import re

import pytest

from tests import stillpage
from tests.browserkit import SIZES, Server, no_sideways_scroll, register, start_at, watched_page
from tests.conftest import shots_dir

from webapp.game import storychapters
from webapp.tools.bot import Bot
from webapp.store import connect, get_progress, get_user_by_name, list_packs

SHOTS = shots_dir()
SEED = 1  # the chapter's deal and the CPU's choices; the bot plays with its own seed, 1: a win

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m webapp`` on a fresh instance folder whose config.py turns the CPU's pauses off."""
    srv = Server(tmp_path_factory.mktemp("story"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


@pytest.fixture
def page(browser, size):
    with watched_page(browser, SIZES[size], timeout=20_000) as page:
        yield page


def shoot(page, name, size, full_page=True):
    return stillpage.shoot(page, SHOTS / f"story-{name}-{size}.png", full_page=full_page)


def test_a_new_account_plays_the_first_chapter(server, page, size):
    base = server.url
    name = f"story{size}{os.getpid() % 10000}"
    register(page, base, name)

    # the map: chapter 1 open, the rest locked
    page.click("nav >> text=Story")
    page.wait_for_url(base + "/story")
    nodes = page.locator(".st-map .st-node")
    assert nodes.count() == len(storychapters.chapters())
    assert nodes.first.get_attribute("data-state") == "open"
    assert nodes.nth(1).get_attribute("data-state") == "locked"
    no_sideways_scroll(page)
    shoot(page, "map", size)

    # Eringe's briefing
    page.click(".st-list >> text=The Prince's Muster")
    page.wait_for_url(base + "/story/first-muster")
    assert "I am Eringe" in page.locator(".st-bubble").inner_text()
    assert page.locator("[data-testid=story-goal]").inner_text().startswith("Win")
    no_sideways_scroll(page)
    shoot(page, "briefing", size)
    page.click("text=日本語")
    assert "わたしはエリンゲ" in page.locator(".st-bubble").inner_text()
    shoot(page, "briefing-ja", size)
    page.click("text=English")

    # Start: the board, with Eringe's tip pointing at the leader choice
    page.click("[data-testid=story-start]")
    page.wait_for_url(re.compile(r"/play/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    tip = page.locator(".pl-tip")
    tip.wait_for(state="visible")
    assert "Eringe" in tip.inner_text()
    shoot(page, "board-tip", size, full_page=False)

    # resigned: a lost chapter records nothing
    page.locator("button", has_text="Resign").click()
    page.locator("[data-testid=confirm-ok]").click()
    page.locator(".pl-end[open]").wait_for()
    page.goto(f"{base}/story/first-muster/done?game={game_id}")
    assert "not reached" in page.locator("[data-testid=story-result]").inner_text()
    db = connect(server.db_path)
    try:
        user = get_user_by_name(db, name)
        assert not get_progress(db, user["id"])
        assert not [p for p in list_packs(db, user["id"]) if p["source"] == "story:1"]
    finally:
        db.close()

    # the chapter dealt from a fixed seed, played out by the bot client over Socket.IO with this
    # browser's session, from its own fixed seed: the same game every run, won
    game_id = start_at(page, server, None, mode="story", chapter="first-muster", cpu=None, seed=SEED)
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    summary = Bot(base, cookies, game_id, "baseline", seed=1, timeout=60).run()
    assert summary["status"] == "finished"
    assert (summary["result"] or {}).get("winner") == 0, summary
    db = connect(server.db_path)
    try:
        # the chapter's end (the done page records it: the safety net of on_game_over)
        page.goto(f"{base}/story/first-muster/done?game={game_id}")
        result = page.locator("[data-testid=story-result]").inner_text()
        progress = get_progress(db, user["id"]).get("first-muster") or {}
        story_packs = [p for p in list_packs(db, user["id"]) if p["source"] == "story:1"]
    finally:
        db.close()
    assert "Goal reached" in result
    assert progress.get("cleared") and progress.get("reward_granted") and len(story_packs) == 1
    assert "Well done!" in page.locator(".st-bubble").inner_text()
    no_sideways_scroll(page)
    shoot(page, "done", size)

    # the reward in the pack-opening view
    page.click("[data-testid=story-pack][data-source='story:1']")
    page.wait_for_url(re.compile(r"/packs/\d+$"))
    assert page.locator("text=Story pack (chapter 1)").count() >= 1
    page.click("button:has-text('Open this pack')")
    page.locator("#pack-reveal").wait_for(state="attached")
    shoot(page, "pack", size)

    # the map again: chapter 1 cleared, chapter 2 open
    page.goto(base + "/story")
    assert page.locator(".st-map .st-node").first.get_attribute("data-state") == "cleared"
    assert page.locator(".st-map .st-node").nth(1).get_attribute("data-state") == "open"
    shoot(page, "map-after", size)
