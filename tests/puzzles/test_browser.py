"""A puzzle solved in a real browser: the list, the puzzle's page (its hint opened), Start, the board
at the puzzle's fixed position (The Long Ride: the Dullahan Outrider's Far March, R8.3), the march
made by clicks, the end screen saying the puzzle is solved, and the puzzle's page with the solution
open. At 1280×800 and 390×844, in both languages for the pages.

Debian's chromium through Playwright against ``python -m webapp`` (tests/browserkit.py's Server,
``CPU_DELAY = 0``). Screenshots go to docs/screenshots/puzzles-<page>-<size>.png.
"""

import os

import pytest

from tests import stillpage
from tests.browserkit import SIZES, Server, no_sideways_scroll, register, wait_for_board, watched_page
from tests.conftest import shots_dir

SHOTS = shots_dir()
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("puzzles"), "CPU_DELAY = 0\n")
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
    return stillpage.shoot(page, SHOTS / f"puzzles-{name}-{size}.png", full_page=full_page)


def test_solve_the_long_ride_in_the_browser(server, page, size):
    register(page, server.url, f"pz{size[:2]}{os.getpid() % 10000}")
    page.goto(server.url + "/puzzles")
    assert page.locator(".pz-item").count() >= 20
    no_sideways_scroll(page)
    shoot(page, "list", size)

    page.click(".pz-item[data-puzzle='the-long-ride'] a")
    page.click("[data-testid=puzzle-hint] summary")
    assert page.locator("[data-testid=puzzle-hint] p").is_visible()
    assert page.locator("[data-testid=puzzle-solution-locked]").is_visible()
    no_sideways_scroll(page)
    shoot(page, "page", size)

    page.click("[data-testid=puzzle-start]")
    wait_for_board(page)
    page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
    bar = page.locator("[data-testid=story-goal-bar]")
    bar.wait_for()
    assert "Puzzle 20" in bar.inner_text() and "Win the game this turn" in bar.inner_text()
    shoot(page, "board", size, full_page=False)

    page.click(".pl-unit[data-unit='outrider']")
    page.click("[data-key='go:L6']")
    page.wait_for_function("() => window.brigadeBoard.view && window.brigadeBoard.view.result")
    assert page.evaluate("() => window.brigadeBoard.view.result")["winner"] == 0  # the last leader fell (R1.1)
    page.wait_for_selector("[data-testid=end-title]")
    assert "Puzzle solved" in page.locator(".pl-end").inner_text()
    assert page.locator("[data-testid=story-goal-bar]").get_attribute("data-state") == "met"
    shoot(page, "solved", size, full_page=False)

    page.goto(server.url + "/puzzles/the-long-ride")
    assert page.locator("[data-testid=puzzle-solved]").is_visible()
    assert page.locator("[data-testid=puzzle-solution]").is_visible()
    assert "Dullahan Outrider" in page.locator("[data-testid=puzzle-solution]").inner_text()
    shoot(page, "page-solved", size)

    page.click("[data-testid=lang-ja]")
    page.wait_for_load_state()
    assert "遠駆け" in page.content() and "解答" in page.locator("#solution-title").inner_text()
    assert "デュラハンの先駆け" in page.locator("[data-testid=puzzle-solution]").inner_text()
    no_sideways_scroll(page)
    shoot(page, "page-ja", size)
