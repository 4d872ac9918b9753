"""The board's keyed regions (static/js/play-view.js, docs/decisions/0129): an element survives an update
it was not part of. A CPU game at tests/browser/positions/table-take-back.json (the player's main step:
an Orc on L1 that may march to the empty L3, the CPU's Gnome Miner on L4, monsters in hand), in
Debian's chromium against the real server, at 1280×800.

The hand's cards (keyed by card instance), the map's tokens and lands (unit and land ids), the move
panel's controls, the sides' and the status bar's buttons are the same elements before and after a selection (a redraw
on the page) and after a march (a new state from the server); the token under the pointer stays
under it, and a handle taken before an update still clicks after it.

A dialog (play.js's openDialog, drawn with play-view.js too): a card's details opened again while on
screen (an update of the dialog) keep their image, close buttons and discard button, and the kept
Close still closes it.

The battle screen (static/js/play-battle.js, docs/decisions/0139), at
tests/browser/positions/battle-narration.json (the player's Fire Spirit marches into the CPU's Storm
Giant; the four preparation steps pass by themselves): in the player's window, the parties' members
(keyed by unit id), the steps, the dice, the narration and its first line, the Attack button and the
Cast Fireball button are the same elements before and after the hint's answer is drawn in the bar (a
redraw on the page), and the members, steps, dice and narration after Fireball is cast, let through
and resolved (new states from the server, each animated); the player's monster, a handle taken before
all of it, still opens its details.
"""

import pytest

from tests.browserkit import DESKTOP, BoardPlayer, Server, register, start_at

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The elements the test keeps: name → selector (each matches one element at the start).
KEPT = {
    "foe token": ".pl-unit[data-unit='cpu-miner']",
    "foe's land": ".pl-land[data-land='L4']",
    "leader token": ".pl-unit[data-unit='me-lord']",
    "first hand card": ".pl-hcard-face",
    "first summon button": ".pl-hcard [data-key^='hs:']",
    "end turn": "[data-key='end-turn']",
    "foe's discard": ".pl-side-foe [data-key^='discard:']",
    "resign": ".pl-status [data-key='resign']",
    "log": ".pl-status [data-testid='log-toggle']",
    "settings": ".pl-status [data-testid='settings']",
}
KEEP = """(kept) => { window.__kept = {};
    for (const [name, sel] of Object.entries(kept)) window.__kept[name] = document.querySelector(sel); }"""
#: the names of the kept elements no longer in the page, or replaced by another element
LOST = """(kept) => Object.entries(kept).filter(([name, sel]) => {
    const el = window.__kept[name];
    return !el || !el.isConnected || document.querySelector(sel) !== el; }).map(([name]) => name)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("keyed-server"), "CPU_DELAY = 0\nCPU_HARD_SECONDS = 0.1\n")
    yield srv
    srv.stop()


def test_elements_survive_updates_they_were_not_part_of(browser, server):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    try:
        register(page, server.url, "keyed")
        start_at(page, server, "table-take-back", cpu="baseline", seed=3)
        player = BoardPlayer(page)
        player.dismiss_tips()
        player.idle()
        page.evaluate(KEEP, KEPT)
        assert page.evaluate(LOST, KEPT) == []
        face = page.query_selector(KEPT["first hand card"])

        # a redraw on the page: the Orc selected, with the pointer resting on the foe's token
        page.hover(KEPT["foe token"])
        version = player.state()["version"]
        page.evaluate("() => window.brigadeBoard.toggle('me-orc')")
        assert page.locator(".pl-unit[data-unit='me-orc']").get_attribute("aria-pressed") == "true"
        assert page.locator("[data-key='go:L3']").count() == 1
        assert page.evaluate(LOST, KEPT) == []
        assert page.evaluate("() => window.__kept['foe token'].matches(':hover')")

        # a new state from the server: the Orc marches to L3
        page.locator("[data-key='go:L3']").click()
        page.wait_for_function(f"() => window.brigadeBoard.version > {version} && window.brigadeBoard.idle")
        assert player.board("return b.unit('me-orc').land;") == "L3"
        assert page.locator(".pl-land[data-land='L3'] .pl-unit[data-unit='me-orc']").count() == 1
        assert page.evaluate(LOST, KEPT) == []

        # a handle taken before both updates still works: the card's details open
        face.click(timeout=5000)
        page.locator("dialog[open]").wait_for()

        # the dialog drawn again while open (an update of it) keeps its elements
        in_dialog = {"card image": "dialog[open] .pl-card-big", "x": "dialog[open] .pl-dialog-x",
                     "close": "dialog[open] .pl-detail-info .pl-dialog-body > .pl-btn:last-child"}
        page.evaluate(KEEP, in_dialog)
        assert page.evaluate(LOST, in_dialog) == []
        card = player.board("return b.view.players[b.me].hand[0].id;")
        player.board(f"b.showHandCard({card!r});")
        assert page.locator("dialog[open]").count() == 1
        assert page.evaluate(LOST, in_dialog) == []
        page.evaluate("() => window.__kept['close'].click()")
        page.locator("dialog[open]").wait_for(state="detached")
        assert not player.errors, player.errors
    finally:
        ctx.close()


#: The battle screen's kept elements (the window of battle-narration.json): name → selector.
KEPT_IN_BATTLE = {
    "foe's member": ".pl-party-foe .pl-bunit",
    "own member": ".pl-party-me .pl-bunit",
    "steps": ".pl-battle .pl-steps",
    "own die": ".pl-dieset-me .pl-die",
    "narration": "[data-testid=battle-narration]",
    "first narration line": "[data-testid=battle-narration] li",
}
KEPT_IN_BAR = {"attack": "[data-testid=attack]", "cast fireball": ".pl-decl-btn[data-testid=spell]"}


def test_battle_screen_elements_survive_updates_they_were_not_part_of(browser, server):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    try:
        register(page, server.url, "keyedbattle")
        page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")
        start_at(page, server, "battle-narration", cpu="baseline", seed=6)
        player = BoardPlayer(page)
        player.idle()
        player.dismiss_tips()
        spirit = player.board("return b.view.units.find((u) => u.owner === b.me && u.land === 'L2').id;")
        page.locator(f".pl-unit[data-unit='{spirit}']").click()
        page.locator("[data-key='march:L4']").click()
        page.wait_for_function("() => window.brigadeBoard.idle && !!document.querySelector('[data-testid=attack]')")
        player.dismiss_tips()
        kept = dict(KEPT_IN_BATTLE, **KEPT_IN_BAR)
        page.evaluate(KEEP, kept)
        assert page.evaluate(LOST, kept) == []
        lines = page.locator("[data-testid=battle-narration] li").count()
        member = page.query_selector(KEPT_IN_BATTLE["own member"])

        # a redraw on the page: the hint's answer drawn in the battle bar (it grows: the screen's layout
        # moves, its elements stay)
        page.locator(".pl-battle [data-testid=hint]").click()
        page.locator(".pl-bbar [data-testid=hint-text]").wait_for()
        assert page.evaluate(LOST, kept) == []

        # new states from the server: Fireball cast, let through, resolved; the player's window again
        version = player.state()["version"]
        page.locator(KEPT_IN_BAR["cast fireball"]).click()
        page.wait_for_function(f"""() => {{ const b = window.brigadeBoard; return b.version > {version} && b.idle
            && b.view.battle && b.view.battle.chain.length === 0 && !!document.querySelector('[data-testid=attack]'); }}""")
        assert page.locator("[data-testid=battle-narration] li").count() > lines
        assert page.evaluate(LOST, KEPT_IN_BATTLE) == []

        # a handle taken before all these updates still works: the player's monster's details open
        member.click()
        page.locator("dialog[open]").wait_for()
        assert not player.errors, player.errors
    finally:
        ctx.close()
