"""Misclick safety on the board (issue 27): "Take back" in the main-step panel and its keys (U,
Ctrl+Z), and the "Confirm before summoning" setting. A CPU game at tests/browser/positions/
table-take-back.json (an Orc on L1 beside the empty L3), in Debian's chromium against the real
server, in English and Japanese at 1280×800.

Screenshots: table2-take-back-<moment>-<lang>-desktop.png in tests/conftest.py's shots_dir.
"""

import pytest

from tests import stillpage
from tests.browserkit import SIZES, BoardPlayer, Server, register, start_at
from tests.conftest import shots_dir
from tests.stillpage import board_still

SHOTS = shots_dir()
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("takeback-server"), "CPU_DELAY = 0\n")
    yield srv
    srv.stop()


def orc_land(player):
    """Where the Orc stands in the board's state and on the drawn map (the two must agree)."""
    return player.board("""const u = b.view.units.find((x) => x.id === "me-orc");
        const el = document.querySelector(".pl-unit[data-unit='me-orc']");
        const drawn = el && el.closest("[data-land]");
        return [u && u.land, drawn && drawn.dataset.land];""")


def march_to_l3(page, player):
    version = player.state()["version"]
    page.locator(".pl-unit[data-unit='me-orc']").click()
    page.locator("[data-key='go:L3']").click()
    page.wait_for_function(f"() => window.brigadeBoard.version > {version} && window.brigadeBoard.idle")
    assert orc_land(player) == ["L3", "L3"]
    return player.state()["version"]


def taken_back(page, player, after):
    page.wait_for_function(f"() => window.brigadeBoard.version > {after} && window.brigadeBoard.idle")
    assert orc_land(player) == ["L1", "L1"], "the Orc is not back on L1"
    assert page.locator("[data-testid=take-back]").is_disabled()  # nothing left to take back this turn


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_march_is_taken_back_by_the_button_and_by_the_keys(browser, server, lang):
    ctx = browser.new_context(**SIZES["desktop"])
    page = ctx.new_page()
    try:
        register(page, server.url, f"takeback{lang}")
        if lang == "ja":
            page.goto(server.url + "/")
            page.click("[data-testid=lang-ja]")
            page.wait_for_load_state()
        start_at(page, server, "table-take-back", cpu="baseline", seed=6)
        player = BoardPlayer(page)
        player.idle()
        player.dismiss_tips()
        button = page.locator("[data-testid=take-back]")
        assert button.inner_text().strip() == ("↶ 一手戻す" if lang == "ja" else "↶ Take back")
        assert button.is_disabled()  # nothing played yet

        # the button
        after = march_to_l3(page, player)
        assert button.is_enabled()
        board_still(page)
        stillpage.shoot(page, SHOTS / f"table2-take-back-marched-{lang}-desktop.png")
        button.click()
        taken_back(page, player, after)
        board_still(page)
        stillpage.shoot(page, SHOTS / f"table2-take-back-undone-{lang}-desktop.png")

        # the keys: U, and Ctrl+Z
        for key in ("u", "Control+z"):
            after = march_to_l3(page, player)
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            page.keyboard.press(key)
            taken_back(page, player, after)

        # the ? list names the keys
        page.keyboard.press("?")
        keys = page.locator("dialog[open] [data-testid=keys-table]").inner_text()
        assert "Ctrl+Z" in keys and ("直前の一手を戻す" if lang == "ja" else "Take back your last move") in keys, keys
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('dialog[open]')")

        # "Confirm before summoning": the Summon button asks first; "keep it" sends nothing
        page.locator("[data-testid=settings]").click()
        page.locator("[data-testid=set-confirmsummon]").check()
        page.locator("[data-testid=settings-done]").click()
        page.wait_for_function("() => window.brigadeBoard.settings.saved >= 1")
        hand = player.board("return b.view.players[b.me].hand.length;")
        version = player.state()["version"]
        page.locator(".pl-hcard [data-key^='hs:']").first.click()
        dialog = page.locator("dialog[open]")
        assert ("召喚しますか" if lang == "ja" else "Summon ") in dialog.locator("h2").inner_text()
        stillpage.shoot(page, SHOTS / f"table2-take-back-confirm-summon-{lang}-desktop.png")
        dialog.locator("button", has_text="手札に残す" if lang == "ja" else "Keep it in hand").click()
        page.wait_for_function("() => !document.querySelector('dialog[open]')")
        assert player.state()["version"] == version and not player.board("return b.sent;")
        page.locator(".pl-hcard [data-key^='hs:']").first.click()
        page.locator("dialog[open] [data-testid=confirm-ok]").click()
        page.wait_for_function(f"() => window.brigadeBoard.version > {version} && window.brigadeBoard.idle")
        assert player.board("return b.view.players[b.me].hand.length;") == hand - 1
        button.click()  # a summon is taken back too: the card is in hand again
        page.wait_for_function(f"() => window.brigadeBoard.version > {version + 1} && window.brigadeBoard.idle")
        assert player.board("return b.view.players[b.me].hand.length;") == hand
        assert not player.errors, player.errors
    finally:
        ctx.close()
