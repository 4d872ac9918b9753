"""The board as a game table (issue 14): one screen at 1280×800 and 390×844, in every phase.

A CPU game in Debian's chromium against the real server (tests/browserkit.py). At each size the test
plays through the page's own controls (``BoardPlayer``) and, in the leader choice, the main step and a
battle window of the player's, checks the geometry: the map (or the battle), the player's hand and
the move panel are on screen; in battle both parties and the player's buttons are. It saves
docs/screenshots/table-<phase>-<size>.png for people to look at.
"""

import pytest

from tests.browserkit import SIZES, BoardPlayer, Server, register
from tests.conftest import shots_dir

SHOTS = shots_dir()
LIMIT = 1500

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("table-server"), "CPU_DELAY = 0.05\n")
    yield srv
    srv.stop()


def start_cpu_game(page, url):
    page.goto(url + "/play")
    page.locator("label.play-deck", has_text="Prince").locator("input[name=deck]").check()
    page.click("text=Start the battle")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)


def on_screen(page, selectors):
    """{selector: the visible part of its box in px² (0 when it is off screen or missing)}."""
    return page.evaluate("""(sels) => Object.fromEntries(sels.map((s) => {
        const e = [...document.querySelectorAll(s)].find((x) => x.offsetParent || x.getClientRects().length);
        if (!e) return [s, 0];
        const r = e.getBoundingClientRect();
        const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0), hh = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
        return [s, w > 0 && hh > 0 ? Math.round(w * hh) : 0];
    }))""", selectors)


def page_scroll(page):
    return page.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")


def shoot(page, name, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => window.brigadeBoard.idle")
    page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"table-{name}-{size}.png"), animations="disabled")


def assert_on_screen(page, selectors, what):
    seen = on_screen(page, selectors)
    off = [s for s, area in seen.items() if area <= 0]
    if off:
        page.screenshot(path=str(SHOTS / f"table-failed-{what.replace(' ', '-')}.png"))
    assert not off, f"{what}: off screen {off} (visible areas {seen})"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_table_fits_the_window(browser, server, size):
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        register(page, server.url, f"table-{size}")
        start_cpu_game(page, server.url)
        player = BoardPlayer(page)
        player.dismiss_tips()
        # the leader choice
        page.wait_for_selector("[data-testid=leaders-ok]")
        # (on a phone the leader choice takes the move panel's place)
        assert_on_screen(page, ["[data-testid=leaders]", ".pl-hand", "[data-testid=leaders-ok]"]
                         + ([".pl-panel"] if size == "desktop" else []), "leader choice")
        if size == "desktop":
            h, inner = page_scroll(page)
            assert h <= inner + 1, f"the board page scrolls at {size}: {h} > {inner}"
        shoot(page, "leaders", size)
        player.choose_leaders()
        shots = {"main": False, "battle": False}
        for _ in range(LIMIT):
            if all(shots.values()) or not player.step():
                break
            st = player.state()
            if not st["mine"] or st["result"]:
                continue
            if st["phase"] == "main" and not shots["main"] and "march" in st["types"]:
                player.idle()
                player.dismiss_tips()
                assert_on_screen(page, [".pl-map", ".pl-hand", ".pl-panel", "[data-key=end-turn]", ".pl-hcard"], "main step")
                h, inner = page_scroll(page)
                assert h <= inner + 1, f"the board page scrolls in the main step at {size}: {h} > {inner}"
                shoot(page, "main", size)
                shots["main"] = True
            if st["phase"] == "battle" and not shots["battle"] and player.controls("[data-testid=attack]"):
                player.idle()
                player.dismiss_tips()
                assert_on_screen(page, [".pl-party-foe", ".pl-party-me", "[data-testid=attack]", ".pl-dice", ".pl-hand"], "battle")
                shoot(page, "battle", size)
                shots["battle"] = True
        assert all(shots.values()), f"the game never reached {shots}"
        assert not player.errors, player.errors
    finally:
        ctx.close()
