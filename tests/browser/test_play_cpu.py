"""A game against the CPU in a real browser (issue 5), each moment started at its own position (issue 25).

Debian's chromium (Playwright, never a downloaded browser) drives the real server, ``python -m webapp``,
started as a subprocess on a free port with its own instance folder and database and a short
``CPU_DELAY``. Each test registers through the page and opens the board at a position of
tests/browser/positions/ (``start_at``: the test-only start path, docs/testing.md), against the
baseline CPU with a fixed seed, so it meets the same game every run:

* ``leader-choice``: the leader choice (R5.4) with Eringe's first tip over it, two leaders chosen and
  confirmed, the CPU choosing after (R5.7), and the main step reached;
* ``chain-of-two``: the player's Orc marches into the CPU's Gnome Miner; the player's attack is answered
  by the CPU's Stone Skin, so the battle shows a chain of two declarations at the player's decision
  (it must: the test fails otherwise); the player answers with their own Stone Skin, the attack fails,
  and Eringe's tips of the battle, the spell, the chain and the failed attack have come;
* ``last-leader``: a busy board at round 5 (the keyboard: Enter, Escape, End turn's question while
  marches are left, R6.5; the board at desktop and phone size), then a march into the CPU's base,
  a formation, the attack window (the battle screen), and the attack that takes the CPU's last
  leader: the end screen, "Victory!", a game won by leaders (R1.1).

Every click goes through the page's own controls, which offer only the server's ``legal_actions``;
the test never sends an action itself. Whole games played to their end are the deep journeys
(tests/browser/test_first_hour.py, tests/browser/test_board_ja.py). Screenshots:
docs/screenshots/play-*.png.
"""

import pytest

from tests.browserkit import DESKTOP, PHONE, BoardPlayer as Player, Server, no_sideways_scroll, register, start_at
from tests.conftest import shots_dir
from tests.stillpage import animations_done

SHOTS = shots_dir()
CPU = "baseline"  # its answers are rules of thumb: it counters an attack when it can (webapp/ai/baseline.py)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m webapp`` with a fresh instance folder and database; the CPU moves almost at once."""
    srv = Server(tmp_path_factory.mktemp("play-server"), "CPU_DELAY = 0.05\n")
    yield srv
    srv.stop()


@pytest.fixture
def page(browser, server, request):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    register(page, server.url, request.node.name.split("[")[0][-20:])
    page.evaluate("() => { localStorage.setItem('brigade.anim', 'fast'); localStorage.removeItem('brigade.tips.seen'); }")
    yield page
    ctx.close()


TIPS_GONE = "() => window.brigadeBoard.idle && [...document.querySelectorAll('.pl-tip')].every((e) => !e.offsetParent)"


def put_tips_away(page):
    page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
    page.wait_for_function(TIPS_GONE)


def shoot(page, name, full_page=False, tips=False):
    """docs/screenshots/play-<name>.png, once the board is idle (Eringe's tips put away unless `tips`)."""
    page.wait_for_function("() => window.brigadeBoard.idle")
    if not tips:
        put_tips_away(page)
    if full_page:
        page.evaluate("() => window.scrollTo(0, 0)")  # the side column is sticky: shoot from the top
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(SHOTS / f"play-{name}.png"), full_page=full_page, animations="disabled")


def tips_seen(page):
    return set(page.evaluate("() => JSON.parse(localStorage.getItem('brigade.tips.seen') || '[]')"))


def wait_for_my_decision(page, what="true"):
    """The board idle, waiting for this page's seat, and ``what`` (a JS expression over ``v``, the view) holds."""
    page.wait_for_function(f"""() => {{ const b = window.brigadeBoard, v = b.view;
        return b.idle && !v.result && (v.waiting_for || []).includes(b.me) && ({what}); }}""", timeout=30000)


def phone_look(browser, ctx, board_url):
    """The same board at phone size: no sideways scrolling, touch targets of 40 px at least."""
    phone = browser.new_context(**PHONE, storage_state=ctx.storage_state())
    try:
        p2 = phone.new_page()
        p2.goto(board_url)
        p2.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
        put_tips_away(p2)
        animations_done(p2)
        no_sideways_scroll(p2)
        small = p2.evaluate("""() => [...document.querySelectorAll('.pl-btn, .pl-unit, .pl-hcard-face, .pl-count-btn')]
            .filter((e) => e.offsetParent).map((e) => [e.className, e.getBoundingClientRect()])
            .filter(([c, r]) => r.width < 39.5 || r.height < 39.5)
            .map(([c, r]) => `${c} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert not small, f"{len(small)} touch targets smaller than 40 px on the phone: {small}"
        p2.screenshot(path=str(SHOTS / "play-board-phone.png"), full_page=True, animations="disabled")
    finally:
        phone.close()


def march(page, me, units, to):
    """Select ``units`` (the first, then the others as they join it) and march them to ``to`` with the
    land's own button (the red one: into a battle)."""
    page.click(f".pl-unit[data-unit='{units[0]}']")
    for u in units[1:]:
        me.idle()
        page.click(f".pl-unit.pl-join[data-unit='{u}']")
    me.idle()
    page.locator(f".pl-land[data-land={to}] .pl-march-here.pl-btn-danger").click()


def test_the_leader_choice(server, page):
    """R5.4 at the leader choice, Eringe's first tip over it; two leaders chosen, the CPU after (R5.7)."""
    start_at(page, server, "leader-choice", cpu=CPU, seed=1)
    me = Player(page)
    page.wait_for_selector("[data-testid=leaders] .pl-leader-card")
    assert page.locator(".pl-tip[data-tip=leaders]").is_visible()
    me.controls(".pl-leader-card")[0].click()
    assert page.locator("[data-testid=leaders-ok]").is_enabled()
    shoot(page, "leaders-desktop", tips=True)
    me.dismiss_tips()
    me.choose_leaders()
    wait_for_my_decision(page, "v.phase === 'main'")
    mine = page.evaluate("() => window.brigadeBoard.view.units.filter((u) => u.owner === window.brigadeBoard.me && u.leader).length")
    assert mine >= 1
    assert "leaders" in tips_seen(page)
    assert not me.errors, me.errors


def test_a_chain_of_two_declarations(server, page):
    """The player's attack answered by the CPU's Counter: the battle shows two declarations at the player's
    decision; the player answers, the attack fails; the tips of those moments came."""
    start_at(page, server, "chain-of-two", cpu=CPU, seed=2)
    me = Player(page)
    me.dismiss_tips()
    march(page, me, ["me-orc"], "L5")
    wait_for_my_decision(page, "v.battle && v.battle.chain.length === 2")
    me.dismiss_tips()
    chain = page.locator(".pl-chain .pl-decl")
    assert chain.count() == 2, page.locator(".pl-chain").inner_text()
    kinds = page.evaluate("() => window.brigadeBoard.view.battle.chain.map((d) => [d.kind, d.player])")
    assert kinds == [["attack", 0], ["spell", 1]], kinds
    assert "Stone Skin" in chain.nth(1).inner_text()
    shoot(page, "battle-chain-desktop", full_page=True)
    st = me.state()
    assert st["battle"]["chain"] == 2 and "spell" in st["types"]
    me.decide(st)  # at a chain the player answers with a Counter of theirs: their own Stone Skin
    assert me.seen["countered"] == 1 and me.seen["max_chain"] == 2
    for _ in range(10):  # the chain resolves, the battle ends
        wait_for_my_decision(page)
        if me.state()["phase"] != "battle":
            break
        me.step()
    tally = me.board("return b.tally;")
    assert tally["battles"][0] == 1 and tally["failed"][0] == 1, tally
    assert tally["longestChain"] >= 3, tally
    me.dismiss_tips()
    assert {"battle", "spell", "chain", "failed"} <= tips_seen(page), tips_seen(page)
    assert not me.errors, me.errors


def test_the_board_a_battle_and_a_victory(server, page, browser):
    """The keyboard on a busy board, the board at phone size, a formation and the attack window, and the
    attack that takes the CPU's last leader: the end screen."""
    start_at(page, server, "last-leader", cpu=CPU, seed=3)
    me = Player(page)
    me.dismiss_tips()
    assert page.locator(".pl-unit").count() >= 6

    # Keyboard: Enter selects a unit, Escape clears; End turn asks first while marches are left (R6.5).
    uid = "me-warden"
    unit = page.locator(f".pl-unit[data-unit='{uid}']")
    assert "pl-can" in unit.get_attribute("class")
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

    # the board with a unit selected, at desktop and phone size
    page.click(".pl-unit[data-unit='me-dwarf']")
    shoot(page, "board-desktop", full_page=True)
    phone_look(browser, page.context, page.url)
    page.keyboard.press("Escape")

    # into the CPU's base: the formation (BoardPlayer moves a card and back, then confirms), the attack window
    march(page, me, ["me-dwarf", "me-orc"], "H1")
    wait_for_my_decision(page, "v.battle && v.battle.step === 'formation'")
    me.dismiss_tips()
    me.decide(me.state())
    assert me.seen["formation"] == 1
    wait_for_my_decision(page, "v.battle && v.battle.step === 'fight' && v.battle.chain.length === 0")
    me.dismiss_tips()
    assert page.locator("[data-testid=attack]").is_visible()
    assert me.controls(".pl-decl-btn"), "the Forgehand's [Normal] ability is not offered in the attack window"
    shoot(page, "battle-desktop", full_page=True)
    page.click("[data-testid=attack]")

    # the last leader falls: the end screen
    end = page.locator(".pl-end[open]")
    end.wait_for()
    assert page.locator("[data-testid=end-title]").inner_text() == "Victory!"
    assert me.board("return b.view.result;") == {"winner": 0, "reason": "leaders"}
    assert me.board("return b.tally;")["battles"][0] == 1
    shoot(page, "end-desktop")
    page.locator(".pl-end button", has_text="Look at the board").click()
    assert page.locator(".pl-end[open]").count() == 0
    assert "battle" in tips_seen(page)
    assert not me.errors, me.errors
