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


def serious_axe(page, what):
    """axe-core's serious and critical findings on the page (axe-playwright-python)."""
    from axe_playwright_python.sync_playwright import Axe
    found = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4]) for v in found if v["impact"] in ("serious", "critical")]
    print(f"axe on the board ({what}): {len(found)} findings, {len(bad)} serious or critical: {[v['id'] for v in found]}")
    return bad


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
        for _ in range(3 * LIMIT):  # a game may end before the player attacks: then another game
            if all(shots.values()):
                break
            # Look at the board before the player's next decision: after one, the page still shows
            # the state just acted on, with its buttons already disabled.
            player.idle()
            player.dismiss_tips()
            st = player.state()
            if st["mine"] and not st["result"]:
                check_phase(page, player, st, shots, size)
            if not player.step():
                start_cpu_game(page, server.url)
                player = BoardPlayer(page)
        assert all(shots.values()), f"the game never reached {shots}"
        assert not player.errors, player.errors
    finally:
        ctx.close()


def check_phase(page, player, st, shots, size):
    """At the player's decision: the main step's and the battle's geometry, axe and screenshot, once each."""
    if st["phase"] == "main" and not shots["main"] and "march" in st["types"]:
        assert_on_screen(page, [".pl-map", ".pl-hand", ".pl-panel", "[data-key=end-turn]", ".pl-hcard"], "main step")
        h, inner = page_scroll(page)
        assert h <= inner + 1, f"the board page scrolls in the main step at {size}: {h} > {inner}"
        shoot(page, "main", size)
        shots["main"] = True
        assert serious_axe(page, f"main step, {size}") == []
    if st["phase"] == "battle" and not shots["battle"] and player.controls("[data-testid=attack]"):
        assert_on_screen(page, [".pl-party-foe", ".pl-party-me", "[data-testid=attack]", ".pl-dice", ".pl-hand"], "battle")
        shoot(page, "battle", size)
        shots["battle"] = True
        assert serious_axe(page, f"battle, {size}") == []


def login(page, url, name):
    from tests.browserkit import PASSWORD
    page.goto(url + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("form.auth-form button[type=submit]")
    page.wait_for_load_state()
    assert "/login" not in page.url


def min_font_px(page, selector):
    return page.evaluate("""(sel) => {
        const sizes = [];
        for (const root of document.querySelectorAll(sel)) {
            const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            while (walk.nextNode()) if (walk.currentNode.textContent.trim())
                sizes.push(parseFloat(getComputedStyle(walk.currentNode.parentElement).fontSize));
        }
        return sizes.length ? Math.min(...sizes) : 0;
    }""", selector)


def board_settings(page):
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.settings.loaded", timeout=20000)
    return page.evaluate("() => Object.assign({}, window.brigadeBoard.settings.values)")


class AutoPassWatcher(BoardPlayer):
    """A BoardPlayer that, when the battle screen says it is auto-passing, waits for the page to pass."""

    def battle_step(self, st):
        # the battle bar is drawn once the page is idle (after the animation of what just happened):
        # look for the auto-pass note only then, or the note is not there yet and the button is
        self.idle()
        b = st["battle"]
        if b and b["chain"] and "pass" in st["types"] and not {"quick_summon", "formation"} & set(st["types"]):
            self.page.wait_for_selector("[data-testid=autopass-note]", timeout=10000)
        if self.page.locator("[data-testid=autopass-note]").count():
            version = st["version"]
            # the page passes by itself (maybe already has): the board moves past this version
            self.page.wait_for_function(f"() => window.brigadeBoard.version > {version} || (window.brigadeBoard.autoPassed || 0) > 0",
                                        timeout=10000)
            return
        super().battle_step(st)


def test_card_preview_settings_and_auto_pass(browser, server):
    """Hover and long-press show a card large with text of 14 px at least; the settings persist across
    reloads and follow the account to another browser, not to another account; auto-pass lets an
    opponent's declaration through without a click."""
    ctx = browser.new_context(**SIZES["desktop"])
    page = ctx.new_page()
    try:
        register(page, server.url, "prefs-a")
        start_cpu_game(page, server.url)
        board_url = page.url
        player = BoardPlayer(page)
        player.dismiss_tips()
        # hover a hand card: the preview beside the pointer, readable
        page.hover(".pl-hcard-face")
        page.wait_for_selector("[data-testid=preview]:not([hidden])", timeout=5000)
        assert page.locator("[data-testid=preview] .pl-preview-name").inner_text()
        assert min_font_px(page, "[data-testid=preview] .pl-preview-body") >= 14
        assert on_screen(page, ["[data-testid=preview]"])["[data-testid=preview]"] > 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "table-preview-desktop.png"))
        page.mouse.move(2, 2)
        page.wait_for_selector("[data-testid=preview]", state="hidden", timeout=5000)

        # the settings: change four, reload, they are still there
        page.click("[data-testid=settings]")
        page.check("[data-testid=set-anim-fast]")
        page.check("[data-testid=set-autopass]")
        page.uncheck("[data-testid=set-sound]")
        page.check("[data-testid=set-lang-ja]")
        page.wait_for_function("() => (window.brigadeBoard.settings.saved || 0) >= 4", timeout=10000)
        page.screenshot(path=str(SHOTS / "table-settings-desktop.png"))
        page.click("[data-testid=settings-done]")
        want = {"anim": "fast", "autopass": True, "sound": False, "lang": "ja"}
        page.reload()
        got = board_settings(page)
        assert {k: got[k] for k in want} == want, got
        # the same account in a fresh browser (nothing in its localStorage) gets them from the server
        other = browser.new_context(**SIZES["phone"])
        try:
            p2 = other.new_page()
            login(p2, server.url, "prefs-a")
            p2.goto(board_url)
            got = board_settings(p2)
            assert {k: got[k] for k in want} == want, got
            # a long press on a card shows the preview on a touch screen too, text ≥ 14 px
            p2.wait_for_function("() => window.brigadeBoard.idle", timeout=20000)
            p2.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
            card = p2.locator(".pl-hcard-face").first
            box = card.bounding_box()
            opts = {"pointerType": "touch", "isPrimary": True, "clientX": box["x"] + 10, "clientY": box["y"] + 10, "bubbles": True}
            card.dispatch_event("pointerdown", opts)
            p2.wait_for_selector("[data-testid=preview]:not([hidden])", timeout=5000)
            assert min_font_px(p2, "[data-testid=preview] .pl-preview-body") >= 14
            p2.screenshot(path=str(SHOTS / "table-preview-phone.png"))
        finally:
            other.close()
        # another account keeps the defaults
        third = browser.new_context(**SIZES["desktop"])
        try:
            p3 = third.new_page()
            register(p3, server.url, "prefs-b")
            start_cpu_game(p3, server.url)
            got = board_settings(p3)
            assert got["anim"] == "normal" and got["autopass"] is False and got["lang"] == "en", got
        finally:
            third.close()

        # auto-pass: the first opponent declaration this player could answer is let through unclicked
        # (a game may end before one comes: then another game)
        page.goto(board_url)
        passed, clicked = 0, 0
        for game in range(4):
            if game:
                start_cpu_game(page, server.url)
            page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
            player = AutoPassWatcher(page)
            for _ in range(LIMIT):
                if page.evaluate("() => window.brigadeBoard.autoPassed || 0") or not player.step():
                    break
            passed += page.evaluate("() => window.brigadeBoard.autoPassed || 0")
            clicked += player.seen["let_through"]
            assert not player.errors, player.errors
            if passed:
                break
        assert passed >= 1, "no opponent's declaration came up to auto-pass in four games"
        assert clicked == 0, "the test player clicked 'Let it through' itself"
    finally:
        ctx.close()
