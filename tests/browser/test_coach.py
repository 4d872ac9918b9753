"""The CPU as a coach in a real browser: the hint says why (the reasons and the next best move), and after
the game the end screen and the replay draw the analysis (a progress bar while it runs, then the graph),
and the replay starts a practice game from one of its steps ("play from here").

The game opens at tests/browser/positions/last-leader.json (the player can march on the CPU's last
leader) against the baseline CPU with a fixed seed (``start_at``), on desktop and on a phone, in English
and in Japanese."""

import re

import pytest

from tests.browser.test_board_ja import switch_to_japanese
from tests.browserkit import SIZES, BoardPlayer, Server, drive, register, start_at
from tests.conftest import shots_dir

SHOTS = shots_dir()

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("coach-server"), "CPU_DELAY = 0.05\nCPU_HARD_SECONDS = 0.2\nCPU_WORKERS = 1\n")
    yield srv
    srv.stop()


@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("en", "phone"), ("ja", "desktop")])
def test_the_hint_says_why_and_the_game_ends_with_its_analysis(browser, server, lang, size):
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    size = f"{lang}-{size}"
    try:
        register(page, server.url, f"coach{size[0]}{size[3]}")
        if lang == "ja":
            switch_to_japanese(page, server.url)
        game = start_at(page, server, "last-leader", cpu="baseline", seed=3)
        player = BoardPlayer(page)
        player.dismiss_tips()
        page.click("[data-testid=hint]")
        page.wait_for_selector("[data-testid=hint-text]", timeout=30000)
        words = page.locator("[data-testid=hint-box]").first.inner_text()
        assert page.locator("[data-testid=hint-why] li, [data-testid=hint-next]").count() >= 1, words
        assert not re.search(r"p[01]c\d+|R\d+\.\d+", words), words
        if lang == "ja":
            assert "進軍" in words or "召喚" in words, words
            assert not re.search(r"\b(March|Summon|Next best|attacks|chance)\b", words), words
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"coach-hint-{size}.png"))
        page.locator("[data-testid=hint-do]").first.click()
        assert drive([player]) == "over"
        page.wait_for_selector("[data-testid=end-analysis] [data-testid=analysis-graph]", timeout=90000)
        assert page.locator("[data-testid=analysis-swing]").count() >= 1
        if lang == "ja":
            analysed = page.locator("[data-testid=end-analysis]").inner_text()
            assert "分析" in analysed and not re.search(r"\b(March|Round|The CPU|You played)\b", analysed), analysed
        page.locator("[data-testid=end-analysis]").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"coach-end-{size}.png"))
        page.goto(f"{server.url}/games/{game}/replay")
        page.wait_for_function("() => document.getElementById('replay-step').textContent.length > 0")
        page.evaluate("() => { const r = document.getElementById('replay-range'); r.value = r.max; r.dispatchEvent(new Event('input')); }")
        page.click("[data-testid=replay-coach-open]")
        page.wait_for_selector("[data-testid=replay-analysis] [data-testid=analysis-graph]", timeout=30000)
        page.screenshot(path=str(SHOTS / f"coach-replay-{size}.png"))
        # play from here: back to the start of the replay, a practice game against the Hard CPU
        page.keyboard.press("Escape")  # the dialog closes; back to the start of the replay
        page.evaluate("() => { const r = document.getElementById('replay-range'); r.value = '0'; r.dispatchEvent(new Event('input')); }")
        assert page.locator("#replay-fork-version").input_value() == "0"
        page.click("[data-testid=replay-coach-open]")
        page.select_option("[data-testid=replay-fork-difficulty]", "hard")
        page.click("[data-testid=replay-fork]")
        page.wait_for_url(re.compile(r"/play/\d+$"))
        page.wait_for_selector("[data-testid=hint]", timeout=30000)
        assert page.evaluate("() => window.brigadeBoard.view.round") == 5  # where the old game began
        page.screenshot(path=str(SHOTS / f"coach-fork-{size}.png"))
        assert not player.errors, player.errors
    finally:
        ctx.close()
