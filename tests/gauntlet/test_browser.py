"""The gauntlet draft in a real browser: Start, three picks by clicks, a reload shows the same draft
(the picks and the offer), at 1280×800 and 390×844. Screenshots: docs/screenshots/gauntlet-<size>.png
(with BRIGADE_SCREENSHOTS set)."""

import os

import pytest

from tests.browserkit import SIZES, Server, page_errors, register
from tests.conftest import shots_dir

SHOTS = shots_dir()
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("gauntlet"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


@pytest.mark.parametrize("size", list(SIZES))
def test_draft_three_picks_and_reload(server, browser, size):
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = page_errors(page)
    try:
        register(page, server.url, f"ga{size[:2]}{os.getpid() % 10000}")
        page.goto(server.url + "/puzzles")
        page.click("[data-testid=gauntlet-link]")
        page.click("[data-testid=gauntlet-start]")
        page.wait_for_load_state()
        picked = []
        for n in range(3):
            assert page.locator("[data-testid=gauntlet-count]").inner_text() == f"{n} / 30"
            buttons = page.locator("[data-testid=gauntlet-pick]")
            assert buttons.count() == 3
            picked.append(buttons.nth(n % 3).get_attribute("value"))
            buttons.nth(n % 3).click()
            page.wait_for_load_state()
        offer = [page.locator("[data-testid=gauntlet-pick]").nth(i).get_attribute("value") for i in range(3)]
        page.reload()
        assert page.locator("[data-testid=gauntlet-count]").inner_text() == "3 / 30"
        assert [page.locator("[data-testid=gauntlet-pick]").nth(i).get_attribute("value") for i in range(3)] == offer
        page.click("details.st-box summary")
        assert page.locator(".pz-drafted").count() == 3
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(SHOTS / f"gauntlet-{size}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
