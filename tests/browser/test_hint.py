"""The hint button of a CPU game in a real browser: "What would the CPU do?" answers with one sentence in
plain words, the cards it names glow on the board, "Do it" plays that move.

The game opens at the leader choice of tests/browser/positions/leader-choice.json with a fixed seed
(``start_at``, the test-only start path: docs/testing.md) against the baseline CPU. No hint in a game
between people: tests/ai/test_hint_route.py."""

import re

import pytest

from tests.browserkit import SIZES, BoardPlayer, Server, register, start_at
from tests.conftest import shots_dir

SHOTS = shots_dir()

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("hint-server"), "CPU_DELAY = 0.05\nCPU_HARD_SECONDS = 0.1\n")
    yield srv
    srv.stop()


def hint_and_play(page, player):
    """Ask for a hint at this version, check what the page shows, play it with "Do it"; the version moved on."""
    version = page.evaluate("() => window.brigadeBoard.version")
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=hint-text]", timeout=30000)
    sentence = page.locator("[data-testid=hint-text]").first.inner_text()
    assert sentence and not re.search(r"p[01]c\d+|R\d+\.\d+", sentence), sentence
    assert page.locator(".pl-hinted").count() >= 1, "the hint names cards but none glows"
    page.locator("[data-testid=hint-do]").first.click()
    page.wait_for_function(f"() => window.brigadeBoard.version > {version}", timeout=20000)
    player.idle()
    return sentence


def test_the_hint_names_a_move_shows_it_and_plays_it(browser, server):
    ctx = browser.new_context(**SIZES["desktop"])
    page = ctx.new_page()
    try:
        register(page, server.url, "hinter")
        start_at(page, server, "leader-choice", cpu="baseline", seed=6)
        player = BoardPlayer(page)
        player.dismiss_tips()
        # the leader choice: the hint picks leaders from the hand
        first = hint_and_play(page, player)
        assert first.startswith("Choose ") and "leaders" in first, first
        # the main step: the hint glows on the board, screenshot for people to look at
        page.wait_for_function("""() => { const b = window.brigadeBoard; return b.idle && b.view.phase === 'main'
            && (b.view.waiting_for || []).includes(b.me); }""", timeout=60000)
        player.dismiss_tips()
        page.click("[data-testid=hint]")
        page.wait_for_selector("[data-testid=hint-text]", timeout=30000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hint-main-desktop.png"))
        # "Hide" puts the button back; nothing was sent
        version = page.evaluate("() => window.brigadeBoard.version")
        page.click("[data-testid=hint-hide]")
        assert page.locator("[data-testid=hint]").count() == 1 and page.locator(".pl-hinted").count() == 0
        assert page.evaluate("() => window.brigadeBoard.version") == version
        hint_and_play(page, player)
        assert not player.errors, player.errors
    finally:
        ctx.close()
