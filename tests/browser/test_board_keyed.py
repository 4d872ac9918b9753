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

The regions drawn keyed last (docs/decisions/0144):

- the settings dialog (static/js/play-settings.js): its controls are the same elements after a change
  (drawn again with the new choice checked) and after the dialog is opened again while on screen (the
  account's copy arriving draws it the same way), and the kept Done closes it;
- the log drawer (static/js/play-log.js) and the replay page's summary line (static/js/play-replay.js):
  a replay's jump back to an earlier step draws the drawer again from the step's history, and the lines
  it shared with the step before (the first among them) are the same elements, as are the summary's
  two parts; the first line is still the same element after a step forward (new lines added);
- an online game's side bars (static/js/play-online.js), at tests/browser/positions/online-start.json:
  in alice's window, her clock, her emote button, bob's name and bob's discard button are the same
  elements after bob's emote (a bubble by his name), after the clocks ticked, and after bob chose his
  leaders (a new state from the server).
"""

import pytest

from tests.browserkit import (DESKTOP, BoardPlayer, Server, at_take_back, march_then_resign, new_player, register, replay_at,
                              start_at, wait_for_board)

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
        _, player = at_take_back(page, server, "keyed")
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


#: The settings dialog's kept controls: name → selector.
KEPT_IN_SETTINGS = {
    "fast": "dialog[open] [data-testid=set-anim-fast]",
    "instant": "dialog[open] [data-testid=set-anim-instant]",
    "sound": "dialog[open] [data-testid=set-sound]",
    "volume": "dialog[open] [data-testid=set-volume]",
    "done": "dialog[open] [data-testid=settings-done]",
    "x": "dialog[open] .pl-dialog-x",
}


def test_settings_controls_survive_updates_of_the_dialog(browser, server):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    try:
        _, player = at_take_back(page, server, "keyedsettings")
        page.locator(".pl-status [data-testid=settings]").click()
        page.locator("dialog[open].pl-settings").wait_for()
        page.evaluate(KEEP, KEPT_IN_SETTINGS)
        assert page.evaluate(LOST, KEPT_IN_SETTINGS) == []
        assert not page.locator(KEPT_IN_SETTINGS["instant"]).is_checked()

        # a change: applied at once, the dialog drawn again with it
        page.locator(KEPT_IN_SETTINGS["instant"]).check()
        page.wait_for_function("() => document.getElementById('board').dataset.anim === 'instant'")
        assert page.evaluate(LOST, KEPT_IN_SETTINGS) == []
        assert page.evaluate("() => window.__kept['instant'].checked && !window.__kept['fast'].checked")

        # the dialog opened again while on screen: an update of it, not a new one
        player.board("b.settings.open();")
        assert page.locator("dialog[open]").count() == 1
        assert page.evaluate(LOST, KEPT_IN_SETTINGS) == []
        page.evaluate("() => window.__kept['done'].click()")
        page.locator("dialog[open]").wait_for(state="detached")
        assert not player.errors, player.errors
    finally:
        ctx.close()


def test_log_lines_and_replay_summary_survive_steps(browser, server):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    try:
        page.goto(server.url + "/")  # a page of the site, for localStorage: the board's fast speed
        page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")
        game, player = at_take_back(page, server, "keyedlog")
        march_then_resign(player, "me-orc", "L3")

        page.goto(f"{server.url}/games/{game}/replay")
        data = page.evaluate(f"() => fetch('/games/{game}/replay.json').then((r) => r.json())")
        last = len(data["steps"]) - 1
        assert last >= 2, len(data["steps"])

        replay_at(page, last, last)
        # the summary holds the step's two parts and nothing else (the page's "Loading…" is gone)
        assert page.locator("#replay-summary").evaluate("(e) => [...e.childNodes].map((n) => n.className || n.nodeName)") \
            == ["replay-summary-main", "replay-summary-counts"]
        kept = {"first log line": ".pl-log-list li", "summary": "#replay-summary .replay-summary-main",
                "summary counts": "#replay-summary .replay-summary-counts"}
        page.evaluate(KEEP, kept)
        lines = page.locator(".pl-log-list li").count()
        first = page.locator(".pl-log-list li").first.inner_text()
        # a jump back: the drawer drawn again from the step's history (fewer lines), the first kept
        replay_at(page, last - 1, last)
        assert page.locator(".pl-log-list li").count() < lines
        assert page.evaluate(LOST, kept) == []
        # one step forward (animated as live): new lines added, the first still the same element
        page.click("#replay-next")
        page.wait_for_function(f"() => window.brigadeBoard.version === {last} && window.brigadeBoard.idle", timeout=30000)
        assert page.locator(".pl-log-list li").count() == lines
        assert page.evaluate(LOST, kept) == []
        assert page.locator(".pl-log-list li").first.inner_text() == first
        assert not player.errors, player.errors
    finally:
        ctx.close()


#: alice's side bars in an online game: name → selector.
KEPT_BY_THE_NAMES = {
    "own clock": ".pl-side-me [data-clock]",
    "emote button": ".pl-side-me [data-testid=emote-toggle]",
    "foe's name": ".pl-side-foe .pl-side-who",
    "foe's discard": ".pl-side-foe [data-key^='discard:']",
}


def test_online_side_bars_survive_emotes_ticks_and_states(browser, server):
    alice = new_player(browser, server, "keyedalice", seed=1)
    bob = new_player(browser, server, "keyedbob", seed=2)
    try:
        game = start_at(alice.page, server, "online-start", mode="online", seed=25, opponent=bob.name, clock_ms=30 * 60_000)
        bob.page.goto(f"{server.url}/play/{game}")
        for pl in (alice, bob):
            wait_for_board(pl.page)
            pl.dismiss_tips()
        page = alice.page
        page.wait_for_selector(".pl-side-me [data-clock]")
        page.evaluate(KEEP, KEPT_BY_THE_NAMES)
        assert page.evaluate(LOST, KEPT_BY_THE_NAMES) == []
        shown = page.locator(".pl-side-me [data-clock] b").inner_text()

        # bob's emote: a bubble by his name
        bob.page.click("[data-testid=emote-toggle]")
        bob.page.click(".pl-emote[data-emote=greet]")
        page.wait_for_selector("[data-testid=emote-bubble][data-seat='1']")
        assert page.evaluate(LOST, KEPT_BY_THE_NAMES) == []

        # the clocks tick (both run while the leaders are chosen)
        page.wait_for_function(f"() => document.querySelector('.pl-side-me [data-clock] b').textContent !== {shown!r}")
        assert page.evaluate(LOST, KEPT_BY_THE_NAMES) == []

        # a new state: bob has chosen his leaders
        version = alice.state()["version"]
        bob.choose_leaders()
        page.wait_for_function(f"() => window.brigadeBoard.version > {version} && window.brigadeBoard.idle")
        assert page.locator("[data-testid=foe-chosen]").count() == 1
        assert page.evaluate(LOST, KEPT_BY_THE_NAMES) == []
        assert not alice.errors, alice.errors
        assert not bob.errors, bob.errors
    finally:
        alice.ctx.close()
        bob.ctx.close()
