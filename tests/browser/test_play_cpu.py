"""A whole game against the CPU in a real browser (issue 5): the board page, the battle screen, the end.

Debian's chromium (Playwright, never a downloaded browser) drives the real server, ``python -m webapp``,
started as a subprocess on a free port with its own instance folder and database and a short
``CPU_DELAY``. The test registers through the page, starts a CPU game with the Prince's Brigade
loaner deck, chooses leaders, marches into battles and plays them through (quick summon, formation,
abilities, counters, attacks), ends turns until the game is over, and saves what it saw as
docs/screenshots/play-*.png for people to look at.

Every click goes through the page's own controls, which offer only the server's ``legal_actions``;
the test never sends an action itself. The server and the player (``BoardPlayer``) are
tests/browserkit.py's.
"""

import os
import random

import pytest

from tests.browserkit import DESKTOP, PHONE, BoardPlayer as Player, Server, register
from tests.conftest import shots_dir

SHOTS = shots_dir()
MAX_DECISIONS = 2500     # a game is ~60-120 of the player's decisions; this only stops a runaway loop
EXTRA_GAMES = 3          # more games, cut short, while the player has not attacked or seen a chain

pytestmark = [pytest.mark.browser, pytest.mark.slow]


# ---------------------------------------------------------------- the server and the browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m webapp`` with a fresh instance folder and database; the CPU moves almost at once."""
    srv = Server(tmp_path_factory.mktemp("play-server"), "CPU_DELAY = 0.05\n")
    yield srv
    srv.stop()


def shoot(page, name, full_page=False, tips=False):
    """docs/screenshots/play-<name>.png, after the page has settled (Eringe's tips put away unless `tips`)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => window.brigadeBoard.idle")
    if not tips:
        page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
    if full_page:
        page.evaluate("() => window.scrollTo(0, 0)")  # the side column is sticky: shoot from the top
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"play-{name}.png"), full_page=full_page)


def start_cpu_game(page, url):
    page.goto(url + "/play")
    page.locator("label.play-deck", has_text="Prince").locator("input[name=deck]").check()
    page.click("text=Start the battle")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.view", timeout=20000)
    return page.url


# ---------------------------------------------------------------- the test


def phone_look(browser, ctx, board_url):
    """The same board at phone size: no sideways scrolling, touch targets of 40 px at least."""
    phone = browser.new_context(**PHONE, storage_state=ctx.storage_state())
    try:
        p2 = phone.new_page()
        p2.goto(board_url)
        p2.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
        p2.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
        p2.wait_for_timeout(400)
        widths = p2.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] + 1, f"the phone page scrolls sideways: {widths}"
        small = p2.evaluate("""() => [...document.querySelectorAll('.pl-btn, .pl-unit, .pl-hcard-face, .pl-count-btn')]
            .filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect())
            .filter((r) => r.width < 39.5 || r.height < 39.5).length""")
        assert small == 0, f"{small} touch targets smaller than 40 px on the phone"
        p2.screenshot(path=str(SHOTS / "play-board-phone.png"), full_page=True)
    finally:
        phone.close()


def test_a_whole_game_against_the_cpu(server, browser):
    """Log in, start a CPU game with the loaner deck, choose leaders, march into battles and play them
    through, end turns until the game is over; then more games, cut short by resigning, until the
    player has attacked and a battle has shown a chain of counters (each as a natural game allows)."""
    url = server.url
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    register(page, url, f"marcher{os.getpid() % 10000}")
    start_cpu_game(page, url)
    page.evaluate("() => { localStorage.setItem('brigade.anim', 'fast'); localStorage.removeItem('brigade.tips.seen'); }")
    page.reload()
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
    me = Player(page, random.Random(5))

    # R5.4: the leader choice, with Eringe's first tip over it.
    page.wait_for_selector("[data-testid=leaders] .pl-leader-card")
    assert page.locator(".pl-tip[data-tip=leaders]").is_visible()
    me.controls(".pl-leader-card")[0].click()
    assert page.locator("[data-testid=leaders-ok]").is_enabled()
    shoot(page, "leaders-desktop", tips=True)

    shots = set()
    attacks = 0
    keyboard_checked = False
    games = 0
    results = []
    while True:
        games += 1
        while me.step():
            me.idle()
            st = me.state()
            if st["result"]:
                continue
            if not keyboard_checked and st["phase"] == "main" and st["mine"] and me.controls(".pl-unit.pl-can"):
                # Keyboard: Enter selects a unit, Escape clears; End turn asks first while marches are left (R6.5).
                uid = me.controls(".pl-unit.pl-can")[0].get_attribute("data-unit")
                unit = page.locator(f".pl-unit[data-unit='{uid}']")
                unit.focus()
                page.keyboard.press("Enter")
                assert unit.get_attribute("aria-pressed") == "true"
                assert page.evaluate("() => document.activeElement.dataset.unit") == uid  # focus survives the redraw
                assert page.locator(".pl-march-here").count() >= 1
                page.keyboard.press("Escape")
                assert page.locator(".pl-unit.pl-sel").count() == 0
                page.locator("[data-key=end-turn]").click()
                page.wait_for_selector(".pl-confirm[open]")
                page.keyboard.press("Escape")
                assert page.locator(".pl-confirm[open]").count() == 0
                assert me.state()["mine"]
                keyboard_checked = True
            if "board" not in shots and st["phase"] == "main" and st["mine"] and st["round"] >= 3 \
                    and page.locator(".pl-unit").count() >= 6 and me.controls(".pl-unit.pl-can"):
                me.controls(".pl-unit.pl-can")[0].click()
                shoot(page, "board-desktop", full_page=True)
                phone_look(browser, ctx, page.url)
                page.keyboard.press("Escape")
                shots.add("board")
            if st["phase"] == "battle" and st["mine"] and st["battle"]:
                chain = st["battle"]["chain"]
                if chain >= 2 and "chain" not in shots:
                    shoot(page, "battle-chain-desktop", full_page=True)
                    shots.add("chain")
                elif chain == 0 and st["battle"]["step"] == "fight" and "battle" not in shots:
                    shoot(page, "battle-desktop", full_page=True)
                    shots.add("battle")
            done = me.board("return b.tally;")["battles"][0] + attacks >= 1 and "chain" in shots and "board" in shots
            if games > 1 and done and not st["result"]:
                page.locator("button", has_text="Resign").click()
                page.locator("[data-testid=confirm-ok]").click()
        assert not me.errors, me.errors
        tally = me.board("return b.tally;")
        attacks += tally["battles"][0]
        end = page.locator(".pl-end[open]")
        assert end.is_visible()
        title = page.locator("[data-testid=end-title]").inner_text()
        assert title in ("Victory!", "Defeat", "A draw"), title
        results.append((title, me.board("return b.view.result;"), tally))
        if games == 1:
            shoot(page, "end-desktop")  # the end screen of a game played to its end (R1.1 or R16)
            # Eringe's tips came at the first-time moments, and the browser remembers them.
            page.locator(".pl-end button", has_text="Look at the board").click()
            me.dismiss_tips()
            seen = set(page.evaluate("() => JSON.parse(localStorage.getItem('brigade.tips.seen') || '[]')"))
            assert {"leaders", "battle"} <= seen, seen
            if tally["spells"]:
                assert "spell" in seen, seen
            if tally["failed"][0]:
                assert "failed" in seen, seen  # after the player's first failed attack
        if (attacks and "chain" in shots and "board" in shots) or games > EXTRA_GAMES:
            break
        start_cpu_game(page, url)
        me = Player(page, random.Random(games))

    assert results[0][1]["reason"] in ("leaders", "judgment", "draw"), results[0]   # the first game ended by the rules
    assert attacks >= 1, results                  # the player marched into a battle and played it through
    assert "board" in shots, results
    print("games:", results, "screenshots:", sorted(shots))
    if "chain" not in shots:
        print("no battle of these games showed a chain of two declarations at the player's decision")
    ctx.close()
