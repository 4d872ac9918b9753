"""A puzzle made from a replay in a real browser: a CPU game started at a fixed position (the
test-only start path, docs/testing.md), given up, its replay at the first step, "Make a puzzle from
this moment" with the goal "win a battle", the share page with its link and notice, and the puzzle's
board. Screenshots: docs/screenshots/puzzles-replay-<page>.png (with BRIGADE_SCREENSHOTS set)."""

import os

import pytest

from tests.browserkit import DESKTOP, Server, page_errors, register, start_at, wait_for_board
from tests.conftest import shots_dir
from tests.puzzles.test_from_replay import SECRET, position

SHOTS = shots_dir()
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("replay-puzzle"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


def test_make_a_puzzle_from_a_replay_step(server, browser):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = page_errors(page)
    try:
        register(page, server.url, f"rp{os.getpid() % 10000}")
        game_id = start_at(page, server, position(), cpu="baseline", seed=3)
        answer = page.evaluate("""async (url) => {
            const token = document.getElementById("board").dataset.csrf;
            const r = await fetch(url, {method: "POST", body: new URLSearchParams({csrf_token: token})});
            return r.status;
        }""", f"{server.url}/play/{game_id}/abandon")
        assert answer in (200, 302)
        page.goto(f"{server.url}/games/{game_id}/replay")
        page.wait_for_function("() => Number(document.getElementById('replay-range').max) > 0")
        page.click("#replay-first")
        page.screenshot(path=str(SHOTS / "puzzles-replay-step.png"))
        link = page.locator("[data-testid=replay-puzzle]")
        box = link.bounding_box()
        assert box and box["x"] + box["width"] <= 1280, box  # inside the window
        link.click()
        page.wait_for_selector("[data-testid=replay-puzzle-form]")
        assert page.input_value("input[name=version]") == "0"
        assert "your hand included" in page.locator("[data-testid=replay-puzzle-notice]").inner_text()
        page.select_option("select[name=goal]", "win_battle")
        page.screenshot(path=str(SHOTS / "puzzles-replay-form.png"))
        page.click("[data-testid=replay-puzzle-make]")
        page.wait_for_selector("[data-testid=shared-link]")
        assert "/puzzles/shared/" in page.url and "your hand included" in page.content()
        assert SECRET not in page.content()
        page.screenshot(path=str(SHOTS / "puzzles-replay-shared.png"), full_page=True)
        page.click("[data-testid=puzzle-start]")
        wait_for_board(page)
        bar = page.locator("[data-testid=story-goal-bar]")
        bar.wait_for()
        assert "A puzzle from a replay" in bar.inner_text()
        units = page.evaluate("() => window.brigadeBoard.view.units.map((u) => u.card)")
        assert SECRET not in units and page.evaluate("() => window.brigadeBoard.view.players[1].hand_count") == 0
    finally:
        context.close()
    assert not errors, errors
