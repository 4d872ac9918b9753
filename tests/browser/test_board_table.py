"""The board as a game table (issue 14): one screen at 1280×800 and 390×844, in every phase.

CPU games in Debian's chromium against the real server (tests/browserkit.py), each started where it
is checked through the testing start path (``start_at``, tests/browser/positions/): the leader choice,
and a main step beside the enemy (table-battle.json) whose march leads through the quick summon and
the formation to the player's attack window (the initiative dice are forced), the CPU's player and
seed fixed. At each size the test plays through the page's own controls (``BoardPlayer``) and checks
the geometry: the map (or the battle), the player's hand and the move panel are on screen; in battle
(``battle_geometry``) every party card, the land, the dice, the chain and every control of the
decision bar lie wholly inside the window, nothing overlaps a party card (element boxes compared, and
the card is what the page shows at its centre) and the page does not scroll. A second test checks the
battle at each of the player's decisions in that battle; a third replays such a game on the replay
page, which draws the live board; a fourth checks the card preview, the settings and auto-pass (the
CPU acting first in the battle: table-foe-first.json). It saves docs/screenshots/table-<phase>-<size>.png
for people to look at.
"""

import re

import pytest

from tests import stillpage
from tests.browserkit import SIZES, BoardPlayer, Server, register, replay_at, start_at
from tests.conftest import shots_dir
from tests.stillpage import animations_done, board_still

SHOTS = shots_dir()
CPU = {"cpu": "baseline", "seed": 6}  # the CPU's player and the game's seed: the same game every run
BATTLE_DECISIONS = 60                 # the march, one battle and its aftermath take far fewer: a runaway stop

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
    """table-<name>-<size>.png of the board, idle, with no tip and no card preview over it."""
    board_still(page)
    stillpage.shoot(page, SHOTS / f"table-{name}-{size}.png")


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


def in_battle_decisions(player, check, until=None):
    """Step the player from a main step beside the enemy through the battle its march starts: call
    ``check(state)`` at each of the player's decisions in that battle (the page idle, before the
    decision); stop when ``until(state)`` says so, or once the battle is over. The states checked."""
    checked, fought = [], False
    for _ in range(BATTLE_DECISIONS):
        player.idle()
        player.dismiss_tips()
        st = player.state()
        if st["phase"] == "battle":
            fought = True
        elif fought or st["result"]:
            return checked
        if st["mine"] and st["phase"] == "battle":
            check(st)
            checked.append(st)
        if until is not None and until(st):
            return checked
        assert player.step(st), f"the game ended before its first battle did: {st}"
    raise AssertionError(f"the battle did not end within {BATTLE_DECISIONS} decisions: {checked}")


def kind_of(st):
    """Which decision of a battle ``st`` is: quick_summon, formation, window (the player's own) or
    answer (to a declaration)."""
    return next((t for t in ("quick_summon", "formation") if t in st["types"]), "answer" if st["battle"]["chain"] else "window")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_table_fits_the_window(browser, server, size):
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        register(page, server.url, f"table-{size}")
        page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")  # the still board is checked
        start_at(page, server, "leader-choice", **CPU)
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
        assert not player.errors, player.errors

        # the main step, beside the enemy: the player may march
        start_at(page, server, "table-battle", **CPU)
        player = BoardPlayer(page)
        player.idle()
        player.dismiss_tips()
        st = player.state()
        assert st["mine"] and st["phase"] == "main" and "march" in st["types"], st
        assert_on_screen(page, [".pl-map", ".pl-hand", ".pl-panel", "[data-key=end-turn]", ".pl-hcard"], "main step")
        h, inner = page_scroll(page)
        assert h <= inner + 1, f"the board page scrolls in the main step at {size}: {h} > {inner}"
        shoot(page, "main", size)
        assert serious_axe(page, f"main step, {size}") == []

        # the march into L4 starts a battle; the dice give the player the first window, with Attack
        def at_the_window(st):
            return st["mine"] and st["phase"] == "battle" and bool(player.controls("[data-testid=attack]"))

        in_battle_decisions(player, lambda st: None, until=at_the_window)
        assert at_the_window(player.state()), f"the battle gave the player no attack window: {player.state()}"
        assert_on_screen(page, [".pl-party-foe", ".pl-party-me", "[data-testid=attack]", ".pl-dice", ".pl-hand"], "battle")
        assert_battle_fits(page, f"battle, {size}")
        shoot(page, "battle", size)
        assert serious_axe(page, f"battle, {size}") == []
        assert not player.errors, player.errors
    finally:
        ctx.close()


BATTLE_GEOMETRY = """() => {
    const box = (e) => {
        const r = e.getBoundingClientRect();
        return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height};
    };
    const shown = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
    const name = (e) => e.dataset.testid || e.dataset.key || e.dataset.unit || e.className || e.tagName;
    const battle = document.querySelector("[data-testid=battle]");
    if (!shown(battle)) return null;
    const bar = battle.querySelector("[data-testid=battle-bar]");
    const cards = [...battle.querySelectorAll(".pl-party .pl-bunit")].map((e) => {
        const b = box(e);
        const at = document.elementFromPoint(b.l + b.w / 2, b.t + b.h / 2);
        return {name: e.dataset.unit, side: e.closest(".pl-party").dataset.side, box: b, top: !!at && e.contains(at),
                on: at ? name(at.closest("[data-testid], [data-key], [data-unit]") || at) : null};
    });
    const parts = {};
    for (const [k, sel] of Object.entries({foe: ".pl-party-foe", me: ".pl-party-me", land: ".pl-bhead h2", dice: ".pl-dice",
                                           chain: ".pl-chain-wrap", bar: "[data-testid=battle-bar]", field: ".pl-bfield"})) {
        const e = battle.querySelector(sel);
        parts[k] = shown(e) ? box(e) : null;
    }
    // what lies over the board on purpose: Eringe's tips, the card preview (the pointer passes through it)
    const overlays = [...document.querySelectorAll(".pl-tip, .pl-preview, .pl-toast, dialog[open]")].filter(shown)
        .map((e) => ({name: name(e), box: box(e)}));
    // what is cut: a part whose content is taller than its box (each clips what does not fit)
    const cut = [".pl-party-foe", ".pl-party-me", ".pl-party-foe .pl-prow", ".pl-party-me .pl-prow", ".pl-dice", ".pl-chain-wrap",
                 ".pl-bhead"].filter((sel) => {
        const e = battle.querySelector(sel);
        return shown(e) && e.scrollHeight > e.clientHeight + 1;
    });
    const controls = [...bar.querySelectorAll("button, input")].filter((e) => shown(e) && !e.disabled)
        .map((e) => ({name: name(e), box: box(e)}));
    return {w: innerWidth, h: innerHeight, me: window.brigadeBoard.me, scroll: document.documentElement.scrollHeight,
            cards, parts, controls, overlays, cut,
            bar: bar ? Object.assign(box(bar), {scrollTop: bar.scrollTop, scrollH: bar.scrollHeight, clientH: bar.clientHeight}) : null,
            prompt: bar ? bar.innerText.slice(0, 80) : ""};
}"""


def overlap(a, b):
    """The area two boxes share (px²)."""
    return max(0.0, min(a["r"], b["r"]) - max(a["l"], b["l"])) * max(0.0, min(a["b"], b["b"]) - max(a["t"], b["t"]))


def inside(a, outer, slack=1.0):
    return a["l"] >= outer["l"] - slack and a["t"] >= outer["t"] - slack and a["r"] <= outer["r"] + slack and a["b"] <= outer["b"] + slack


def battle_problems(g, controls=True):
    """What is wrong with the battle screen's geometry ``g`` (BATTLE_GEOMETRY): [] when nothing is.
    ``controls``: the player decides now (a replay or a spectator has no control to offer)."""
    out = []
    view = {"l": 0, "t": 0, "r": g["w"], "b": g["h"]}
    if g["scroll"] > g["h"] + 1:
        out.append(f"the page scrolls: {g['scroll']} px > {g['h']} px")
    parts = g["parts"]
    for k in ("foe", "me", "land", "dice", "chain", "bar"):
        if not parts[k]:
            out.append(f"{k} is not shown")
        elif not inside(parts[k], view):
            out.append(f"{k} is not wholly inside the window: {parts[k]}")
    if not g["cards"]:
        out.append("no party card is shown")
    for c in g["cards"]:
        party = parts["me" if c["side"] == str(g["me"]) else "foe"]
        boxes = [view] + [b for b in (parts["field"], party) if b]
        if not all(inside(c["box"], b) for b in boxes):
            out.append(f"party card {c['name']} (side {c['side']}) is not wholly in view: {c['box']}")
        if not c["top"]:
            out.append(f"party card {c['name']} (side {c['side']}) is covered by {c['on']}")
        for k in ("bar", "dice", "chain"):
            if parts[k] and overlap(c["box"], parts[k]) > 0:
                out.append(f"{k} overlaps party card {c['name']} (side {c['side']})")
        for o in g["overlays"]:
            if overlap(c["box"], o["box"]) > 0:
                out.append(f"{o['name']} lies over party card {c['name']} (side {c['side']})")
    for a, b in (("foe", "me"), ("foe", "bar"), ("me", "bar"), ("dice", "bar"), ("chain", "bar"), ("foe", "dice"), ("me", "chain")):
        if parts[a] and parts[b] and overlap(parts[a], parts[b]) > 0:
            out.append(f"{a} and {b} overlap")
    out += [f"{sel} is cut: its content does not fit its box" for sel in g["cut"]]
    if controls and not g["controls"]:
        out.append("the decision bar offers no control")
    for c in g["controls"]:
        if not inside(c["box"], view) or (g["bar"] and not inside(c["box"], g["bar"])):
            out.append(f"control {c['name']} is not wholly in view without scrolling: {c['box']} (bar {g['bar']})")
    return out


def assert_battle_fits(page, what, controls=True):
    """The battle screen shows both parties, the land, the dice, the chain and every control of the
    decision bar inside the window, nothing over a party card, and the page does not scroll. (The
    pointer is moved off the board first: a card under it shows its preview, on purpose.)"""
    page.mouse.move(1, 1)
    page.wait_for_function("() => { const p = document.querySelector('[data-testid=preview]'); return !p || p.hidden; }", timeout=5000)
    animations_done(page)  # a die still growing back from its roll's scale(1.35) overflows its box for a moment
    g = page.evaluate(BATTLE_GEOMETRY)
    assert g is not None, f"{what}: the battle screen is not shown"
    bad = battle_problems(g, controls)
    if bad:
        page.screenshot(path=str(SHOTS / f"table-failed-{what.replace(' ', '-').replace(',', '')}.png"))
    assert not bad, f"{what} ({g['w']}×{g['h']}, bar says {g['prompt']!r}): {bad}"
    return g


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_battle_screen_covers_nothing(browser, server, size):
    """At each of the player's decisions in a battle (quick summon, formation, the attack window, an
    answer to a declaration), at 1280×800 and 390×844: every party card wholly on screen and nothing
    over it, the land, dice and chain on screen, every control of the decision bar on screen without
    scrolling (the bar's own scrolling included), and no page scroll. The battle is the one a march
    from table-battle.json starts (the player's monsters beside the CPU's, fire spells and a Quick
    Salamander in hand)."""
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    try:
        register(page, server.url, f"battle-{size}")
        page.evaluate("() => localStorage.setItem('brigade.anim', 'fast')")  # the still board is checked
        start_at(page, server, "table-battle", **CPU)
        player = BoardPlayer(page)
        shot = []

        def check(st):
            kind = kind_of(st)
            g = assert_battle_fits(page, f"battle {kind} {size}")
            st["checked"] = (kind, len(g["cards"]), len(g["controls"]))
            if kind == "window" and player.controls("[data-testid=attack]") and not shot:
                shoot(page, "battle-spells", size)
                shot.append(kind)

        checked = [st["checked"] for st in in_battle_decisions(player, check)]
        print(f"battle decisions checked at {size}: {checked}")
        assert shot, f"no attack window came up: {checked}"
        assert {"quick_summon", "formation", "window"} <= {k for k, _, _ in checked}, checked
        assert not player.errors, player.errors
    finally:
        ctx.close()


def replay_board(page):
    return page.evaluate("""() => {
        const b = window.brigadeBoard, battle = document.querySelector('[data-testid=battle]');
        return {lands: document.querySelectorAll('#board .pl-land[data-land]').length,
                units: [...document.querySelectorAll('#board .pl-map .pl-unit')].map((t) => t.dataset.unit).sort(),
                viewUnits: b.view.units.map((u) => u.id).sort(),
                art: [...document.querySelectorAll('#board .pl-map .pl-unit img')].map((i) => i.getAttribute('src')),
                battle: !!battle && !battle.hidden, badge: (document.querySelector('[data-testid=watching]') || {}).textContent,
                whose: document.querySelector('[data-testid=whose]').textContent,
                hands: document.querySelectorAll('.pl-hcard').length, handShown: !document.querySelector('.pl-hand').hidden,
                panel: [...document.querySelectorAll('#replay-log li')].map((li) => li.textContent),
                drawer: document.querySelectorAll('.pl-log-list li').length};
    }""")


def test_the_replay_is_the_live_board(browser, server):
    """A finished game's replay draws the live board (static/js/play.js) step by step: the lands, every
    unit of the step with its art, no hand, the step's log in the panel and all before it in the
    drawer; a step inside a battle opens the battle screen, which fits the window as in live play
    (1280×800 and 390×844); one step forward animates and lands on the next version."""
    ctx = browser.new_context(**SIZES["desktop"])
    page = ctx.new_page()
    try:
        register(page, server.url, "replayer")
        start_at(page, server, "table-battle", **CPU)
        player = BoardPlayer(page)
        ended = "() => { const t = window.brigadeBoard.tally; return t.won[0] + t.won[1] + t.failed[0] + t.failed[1]; }"
        in_battle_decisions(player, lambda st: None)  # the march from L2 into L4 and its battle, to its end
        assert page.evaluate(ended), "no battle was fought"
        player.idle()
        if not page.locator(".pl-end[open]").count():
            page.click("[data-key=resign]")
            page.click("[data-testid=confirm-ok]")
            page.wait_for_selector(".pl-end[open]", timeout=20000)
        game = page.evaluate("() => window.brigadeBoard.game")
        assert not player.errors, player.errors

        page.goto(f"{server.url}/games/{game}/replay")
        page.wait_for_function("() => document.getElementById('replay-step').textContent.startsWith('Step ')")
        data = page.evaluate(f"() => fetch('/games/{game}/replay.json').then((r) => r.json())")
        last = len(data["steps"]) - 1
        battles = [i for i, st in enumerate(data["steps"]) if st["view"].get("battle")]
        assert battles, "the replay has no step inside a battle"
        replay_at(page, 0, last)
        start = replay_board(page)
        assert start["lands"] == 8 and start["badge"] == "Replay", start
        assert start["hands"] == 0 and not start["handShown"], start
        assert start["units"] == start["viewUnits"] and start["units"], start  # the position starts with units
        assert all(re.search(r"/art/en/[a-z0-9-]+-[0-9a-f]{12}\.svg$", a) for a in start["art"]), start["art"]

        # one step forward is animated as it was live, and lands on the next version
        before = battles[0] - 1
        replay_at(page, before, last)
        page.click("#replay-next")
        page.wait_for_function(f"() => window.brigadeBoard.version === {before + 1} && window.brigadeBoard.idle", timeout=30000)
        step = replay_board(page)
        assert step["battle"] and step["panel"] == data["steps"][before + 1]["log"], step
        # a jump inside the battle: drawn at once, the battle screen as live (no controls: nobody decides)
        inside_battle = battles[len(battles) // 2]
        replay_at(page, inside_battle, last)
        st = replay_board(page)
        assert st["battle"] and st["units"] == st["viewUnits"], st
        assert st["drawer"] >= sum(len(s["log"]) or 1 for s in data["steps"][:inside_battle + 1]) - 1, st
        assert_battle_fits(page, "replay battle desktop", controls=False)
        shoot(page, "replay-battle", "desktop")
        # back to the map, then the end
        outside = next(i for i in range(inside_battle, last + 1) if not data["steps"][i]["view"].get("battle"))
        replay_at(page, outside, last)
        assert not replay_board(page)["battle"]
        shoot(page, "replay", "desktop")
        page.keyboard.press("End")
        page.wait_for_function(f"() => window.brigadeBoard.version === {last} && window.brigadeBoard.idle", timeout=20000)
        assert "wins (resignation)" in page.locator("#replay-summary").inner_text() or data["result"]["reason"] != "resign"
        assert page.locator(".pl-end[open]").count() == 0  # no end screen in a replay
        h, inner = page_scroll(page)
        assert h <= inner + 1, f"the replay page scrolls: {h} > {inner}"

        phone = browser.new_context(**SIZES["phone"], storage_state=ctx.storage_state())
        try:
            pp = phone.new_page()
            errors = []
            pp.on("pageerror", lambda e: errors.append(str(e)))
            pp.goto(f"{server.url}/games/{game}/replay")
            pp.wait_for_function("() => document.getElementById('replay-step').textContent.startsWith('Step ')")
            replay_at(pp, inside_battle, last)
            assert_battle_fits(pp, "replay battle phone", controls=False)
            shoot(pp, "replay-battle", "phone")
            replay_at(pp, outside, last)
            h, inner = page_scroll(pp)
            assert h <= inner + 1, f"the replay page scrolls on a phone: {h} > {inner}"
            shoot(pp, "replay", "phone")
            assert not errors, errors
        finally:
            phone.close()
    finally:
        ctx.close()


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
        version = st["version"]
        moved_on = f"() => window.brigadeBoard.version > {version} || (window.brigadeBoard.autoPassed || 0) > 0"
        if b and b["chain"] and "pass" in st["types"] and not {"quick_summon", "formation"} & set(st["types"]):
            # the note, unless the page has passed already (its grace is short at "fast" on a busy machine)
            self.page.wait_for_function(f"() => !!document.querySelector('[data-testid=autopass-note]') || ({moved_on})()",
                                        timeout=10000)
            if self.page.evaluate(moved_on):
                return
        if self.page.locator("[data-testid=autopass-note]").count():
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
        start_at(page, server, None, **CPU)  # the game the page would start, dealt from a fixed seed
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

        # auto-pass: the CPU acts first in the battle the player's march starts (table-foe-first.json:
        # the dice forced); its declaration is let through without a click
        start_at(page, server, "table-foe-first", **CPU)
        player = AutoPassWatcher(page)
        answers = []
        in_battle_decisions(player, lambda st: answers.append(kind_of(st)),
                            until=lambda st: page.evaluate("() => window.brigadeBoard.autoPassed || 0") > 0)
        passed = page.evaluate("() => window.brigadeBoard.autoPassed || 0")
        assert not player.errors, player.errors
        assert passed >= 1, f"the CPU's declaration was not auto-passed (the player's decisions: {answers})"
        assert player.seen["let_through"] == 0, "the test player clicked 'Let it through' itself"
    finally:
        ctx.close()
