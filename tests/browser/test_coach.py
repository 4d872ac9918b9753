"""The CPU as a coach in a real browser: the hint says why (the reasons and the next best move), and after
the game the end screen and the replay draw the analysis (a progress bar while it runs, then the graph),
and the replay starts a practice game from one of its steps ("play from here").

The game opens at tests/browser/positions/last-leader.json (the player can march on the CPU's last
leader) against the baseline CPU with a fixed seed (``start_at``), on desktop and on a phone, in English
and in Japanese."""

import re

import pytest

from tests import stillpage
from tests.browser.test_board_ja import switch_to_japanese
from tests.browserkit import SIZES, BoardPlayer, Server, drive, register, replay_at, start_at, watched_page
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
    with watched_page(browser, SIZES[size], timeout=30_000) as page:
        size = f"{lang}-{size}"
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
        # the move and its "Do it" are in sight, not under the fold of a phone's scrolling panel (once
        # any tip the answer brought is put away)
        stillpage.put_away_tips(page)
        page.wait_for_function("""() => ['hint-text', 'hint-do'].every((id) => {
            const el = [...document.querySelectorAll(`[data-testid=${id}]`)].find((e) => e.offsetParent);
            const r = el.getBoundingClientRect();
            return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + 4));
        })""", timeout=5000)
        stillpage.shoot(page, SHOTS / f"coach-hint-{size}.png")
        page.locator("[data-testid=hint-do]").first.click()
        assert drive([player]) == "over"
        page.wait_for_selector("[data-testid=end-analysis] [data-testid=analysis-graph]", timeout=90000)
        # one turn, won by the move the hint found: the estimate before it is near 100 %, so whether a
        # swing of 5 points or more is marked depends on the estimate's lines (a whole game's swings:
        # test_board_ja.py). The page draws exactly the swings the server marked, none under 5 points,
        # and says when there is none.
        analysed = page.locator("[data-testid=end-analysis]").inner_text()
        data = page.evaluate("async (url) => (await fetch(url, {credentials: 'same-origin'})).json()",
                             f"{server.url}/games/{game}/analysis.json")
        assert data["status"] == "done" and all(abs(s["change"]) >= 0.05 for s in data["swings"]), data
        assert page.locator("[data-testid=analysis-swing]").count() == len(data["swings"]), analysed
        none = "5ポイント以上動いた手番はありませんでした" if lang == "ja" else "No turn moved it by 5 points"
        assert (none in analysed) == (not data["swings"]), analysed
        if lang == "ja":
            assert "分析" in analysed and not re.search(r"\b(March|Round|The CPU|You played)\b", analysed), analysed
        page.locator("[data-testid=end-analysis]").scroll_into_view_if_needed()
        stillpage.shoot(page, SHOTS / f"coach-end-{size}.png")
        page.goto(f"{server.url}/games/{game}/replay")
        replay_at(page)  # the last step, once the page has its steps
        page.click("[data-testid=replay-coach-open]")
        page.wait_for_selector("[data-testid=replay-analysis] [data-testid=analysis-graph]", timeout=30000)
        # at the last step the game is over: the page says so instead of offering a game that would be refused
        assert page.locator("[data-testid=replay-fork]").is_disabled()
        assert page.locator("[data-testid=replay-fork-note]").is_visible()
        stillpage.shoot(page, SHOTS / f"coach-replay-{size}.png")
        # play from here: back to the start of the replay, a practice game against the Hard CPU
        page.keyboard.press("Escape")  # the dialog closes
        replay_at(page, 0)
        assert page.locator("#replay-fork-version").input_value() == "0"
        page.click("[data-testid=replay-coach-open]")
        assert page.locator("[data-testid=replay-fork]").is_enabled()
        assert page.locator("[data-testid=replay-fork-note]").is_hidden()
        page.select_option("[data-testid=replay-fork-difficulty]", "hard")
        page.click("[data-testid=replay-fork]")
        page.wait_for_url(re.compile(r"/play/\d+$"))
        page.wait_for_selector("[data-testid=hint]", timeout=30000)
        assert page.evaluate("() => window.brigadeBoard.view.round") == 5  # where the old game began
        stillpage.shoot(page, SHOTS / f"coach-fork-{size}.png")
        assert not player.errors, player.errors
