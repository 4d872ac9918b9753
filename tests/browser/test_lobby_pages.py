"""The pages around an online game (R18) in real browsers: the lobby, the inviter's invitation page,
the join page and a finished game's replay (docs/protocol.md, "HTTP pages").

Three browser contexts (alice, bob, carol) register through the pages and drive Debian's chromium
against the real server (tests/browserkit.py's ``Server``). Alice invites; bob joins with the lobby's
"join with a code" form (the code typed sloppily) and the loaner deck; alice's invitation page moves
to the board by itself on `started`. They play a few rounds through the board's controls and bob
resigns; both lobbies list the game with its replay link, a second game is listed as in progress,
and carol sees their game to watch once she has played alice. The replay is stepped through with its
buttons, its range input and the keyboard. A wrong code and a cancelled invitation are checked apart.

Screenshots (full page) of the lobby, the invitation page, the join page and the replay go to
shots_dir() as lobby-<page>-desktop.png and lobby-<page>-phone.png.
"""

import random
import re

import pytest

from tests import stillpage
from tests.browserkit import PHONE, Server, drive, new_player, no_sideways_scroll, wait_for_board
from tests.conftest import shots_dir
from tests.onlinekit import invite, on_board, pick_loaner

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()
# Nobody may claim (nor the server end) a game whose players went to another page: the test leaves
# boards for the lobby and expects the games still in progress there.
CONFIG = """CPU_DELAY = 0
ONLINE_CLAIM_AFTER = 3600
ONLINE_AUTO_AFTER = 7200
"""
PLAY_ACTIONS = 20        # the first game is played this far (stored actions) before bob resigns: units on the lands
MAX_DECISIONS = 2000     # only stops a runaway loop


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("lobby"), CONFIG)
    yield srv
    srv.stop()


# ---------------------------------------------------------------- helpers


def shoot(page, name, size):
    """lobby-<name>-<size>.png of the whole page."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0")
    stillpage.shoot(page, SHOTS / f"lobby-{name}-{size}.png", full_page=True)


def shoot_both(player, name, prepare=None):
    """The page ``player`` shows, at desktop size (that page) and phone size (the same address opened
    in a phone context with the player's cookies); ``prepare(page)`` readies each before the shot.
    Neither may scroll sideways."""
    page = player.page
    if prepare:
        prepare(page)
    no_sideways_scroll(page)
    shoot(page, name, "desktop")
    phone = player.ctx.browser.new_context(**PHONE, storage_state=player.ctx.storage_state())
    try:
        pp = phone.new_page()
        pp.set_default_timeout(30_000)
        errors = []
        pp.on("pageerror", lambda e: errors.append(str(e)))
        pp.goto(page.url)
        if prepare:
            prepare(pp)
        no_sideways_scroll(pp)
        shoot(pp, name, "phone")
        assert not errors, errors
    finally:
        phone.close()


def resign(player):
    player.dismiss_tips()
    player.page.locator("button", has_text="Resign").click()
    player.page.locator("[data-testid=confirm-ok]").click()


def section(page, title):
    """The lobby's section headed ``title``."""
    return page.locator("section", has=page.locator("h2", has_text=title))


def rows(page, title):
    """The entries of a lobby list, as text."""
    return [t.strip() for t in section(page, title).locator("li.lobby-game").all_inner_texts()]


def lobby(player):
    player.page.goto(player.base + "/lobby")
    assert player.page.locator("h1").inner_text() == "Battle a friend"
    return player.page


# ---------------------------------------------------------------- the tests


def test_invite_join_play_and_replay(server, browser):
    url = server.url
    tag = random.Random().randrange(10**6)
    alice = new_player(browser, server, f"alice{tag}", seed=1)
    bob = new_player(browser, server, f"bob{tag}", seed=2)
    carol = new_player(browser, server, f"carol{tag}", seed=3)
    everyone = [alice, bob, carol]
    try:
        # ------------------------------------------------ an empty lobby
        page = lobby(alice)
        assert "None right now." in section(page, "Games in progress").inner_text()
        assert "When someone you have played" in section(page, "Friends' games").inner_text()
        assert section(page, "Recent games").count() == 0 and section(page, "Your invitations").count() == 0
        assert page.locator("select[name=clock]").input_value() == "15"

        # ------------------------------------------------ alice invites: the link and the 10-character code
        game, code, link = invite(alice, clock="30")
        assert re.fullmatch(r"[A-Z2-9]{10}", code), code
        assert link == f"{url}/join/{code}", (link, code)
        assert "30 minute clock" in alice.page.locator(".lobby-lede").inner_text()
        assert alice.page.locator("#invite-status").inner_text() == "Waiting for your friend…"
        shoot_both(alice, "invitation")
        alice.ctx.grant_permissions(["clipboard-read", "clipboard-write"])
        alice.page.click("#copy-link")
        alice.page.wait_for_function("() => document.getElementById('copy-link').textContent === 'Copied'")
        assert alice.page.evaluate("() => navigator.clipboard.readText()") == link
        page = lobby(alice)  # the invitation is listed; its page comes back from the list
        assert any(f"Code {code}" in r and "30 min clock" in r for r in rows(page, "Your invitations")), \
            rows(page, "Your invitations")
        frames = []  # what the invitation page's socket receives

        def listen(ws):
            ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else ""))

        page.on("websocket", listen)
        page.click(f"text=Code {code}")
        page.wait_for_url(re.compile(rf"/lobby/invite/{game}$"))
        page.wait_for_function("() => document.getElementById('invite-status').textContent === 'Waiting for your friend…'")

        # ------------------------------------------------ bob types the code sloppily into the lobby's form
        page = lobby(bob)
        sloppy = f" {code[:3].lower()}-{code[3:].lower()} "
        page.fill("input[name=code]", sloppy)
        page.click("section:has(#join-title) button[type=submit]")
        page.wait_for_url(re.compile(rf"/join/{code}$"))
        assert page.locator("h1").inner_text() == f"alice{tag} invites you"
        assert "30 minute clock" in page.locator(".lobby-lede").inner_text()
        shoot_both(bob, "join")
        pick_loaner(page)
        page.click("text=Join the battle")
        on_board(bob, game)
        on_board(alice, game)  # nobody touched alice's page: it went to the board on `started`
        alice.page.remove_listener("websocket", listen)
        started = [f for f in frames if f.startswith('42["started"')]
        assert started and f'"url":"/play/{game}"' in started[0].replace(" ", ""), frames
        assert alice.board("return b.seat;") == 0 and bob.board("return b.seat;") == 1

        # ------------------------------------------------ a few rounds, then bob resigns (R18.5)
        players = [alice, bob]
        outcome = drive(players, lambda pl, st: st["mine"] and st["phase"] == "main"
                        and st["version"] >= PLAY_ACTIONS, limit=MAX_DECISIONS)
        assert outcome == "until", [pl.state() for pl in players]
        bob.idle()
        resign(bob)
        for pl in players:
            pl.page.wait_for_selector(".pl-end[open]")
        assert "You resigned." in bob.page.locator(".pl-end-reason").inner_text()
        for pl in players:
            assert not pl.errors, pl.errors

        # ------------------------------------------------ both lobbies: the game under recent games, with its replay
        for pl, other, outcome in ((alice, bob, "Won"), (bob, alice, "Lost")):
            page = lobby(pl)
            recent = rows(page, "Recent games")
            assert recent and f"You vs {other.name}" in recent[0] and f"{outcome} (resignation)" in recent[0], recent
            href = section(page, "Recent games").locator("a", has_text="Replay").first.get_attribute("href")
            assert href == f"/games/{game}/replay", href
            assert "None right now." in section(page, "Games in progress").inner_text()

        # ------------------------------------------------ a second game, by bob's link: in progress for both
        second, _, link2 = invite(bob)
        alice.page.goto(link2)
        pick_loaner(alice.page)
        alice.page.click("text=Join the battle")
        on_board(alice, second)
        on_board(bob, second)
        for pl, other in ((alice, bob), (bob, alice)):
            page = lobby(pl)
            playing = rows(page, "Games in progress")
            assert len(playing) == 1 and f"You vs {other.name}" in playing[0] and "15 min clock" in playing[0], playing
            resume = section(page, "Games in progress").locator("a", has_text="Resume")
            assert resume.get_attribute("href") == f"/play/{second}"
            assert section(page, "Your invitations").count() == 0  # bob's invitation became the game
            assert "When someone you have played" in section(page, "Friends' games").inner_text()  # their own game is not "to watch"
        section(page, "Games in progress").locator("a", has_text="Resume").click()  # bob's lobby, back to the board
        on_board(bob, second)

        # ------------------------------------------------ friends' games: carol sees none until she has played alice
        page = lobby(carol)
        assert "When someone you have played" in section(page, "Friends' games").inner_text()
        assert page.locator(f"a[href='/play/{second}']").count() == 0
        third, code3, _ = invite(carol)
        alice.page.goto(url + "/join/" + code3.lower())
        pick_loaner(alice.page)
        alice.page.click("text=Join the battle")
        on_board(alice, third)
        on_board(carol, third)
        resign(carol)
        carol.page.wait_for_selector(".pl-end[open]")
        page = lobby(carol)
        watch = rows(page, "Friends' games")
        assert len(watch) == 1 and f"bob{tag} vs alice{tag}" in watch[0], watch  # bob invited: seat 0
        assert section(page, "Friends' games").locator("a", has_text="Watch").get_attribute("href") == f"/play/{second}"
        assert any(f"You vs alice{tag}" in r and "Lost (resignation)" in r for r in rows(page, "Recent games"))
        section(page, "Friends' games").locator("a", has_text="Watch").click()
        carol.page.wait_for_url(re.compile(rf"/play/{second}$"))
        wait_for_board(carol.page, timeout=30)
        assert carol.board("return b.seat;") is None  # a spectator

        # ------------------------------------------------ alice's lobby with every list filled
        fourth, _, link4 = invite(carol)  # carol and bob: a game of alice's friends to watch
        bob.page.goto(link4)
        pick_loaner(bob.page)
        bob.page.click("text=Join the battle")
        on_board(bob, fourth)
        _, open_code, _ = invite(alice, clock="5")
        page = lobby(alice)
        assert any(f"Code {open_code}" in r and "5 min clock" in r for r in rows(page, "Your invitations"))
        assert any(f"You vs bob{tag}" in r for r in rows(page, "Games in progress"))
        watch = rows(page, "Friends' games")
        assert len(watch) == 1 and f"carol{tag} vs bob{tag}" in watch[0], watch
        recent = rows(page, "Recent games")
        assert len(recent) == 2 and f"You vs carol{tag}" in recent[0] and "Won (resignation)" in recent[0], recent
        assert f"You vs bob{tag}" in recent[1] and "Won (resignation)" in recent[1], recent
        shoot_both(alice, "index")

        # ------------------------------------------------ the replay, from the lobby's link
        section(page, "Recent games").locator(f"a[href='/games/{game}/replay']").click()
        page.wait_for_url(re.compile(rf"/games/{game}/replay$"))
        assert page.locator("h1").inner_text() == f"alice{tag} vs bob{tag}"
        check_replay(alice, game, tag)

        for pl in everyone:
            assert not pl.errors, pl.errors
    finally:
        for pl in everyone:
            pl.ctx.close()


def replay_state(page):
    return page.evaluate("""() => ({
        step: document.getElementById('replay-step').textContent,
        range: Number(document.getElementById('replay-range').value),
        max: Number(document.getElementById('replay-range').max),
        summary: document.getElementById('replay-summary').textContent,
        log: [...document.querySelectorAll('#replay-log li')].map((li) => li.textContent),
        lands: document.querySelectorAll('#board .pl-land[data-land]').length,
        units: document.querySelectorAll('#board .pl-map .pl-unit').length,
        art: [...document.querySelectorAll('#board .pl-map .pl-unit img')]
            .map((i) => ({src: i.getAttribute('src'), done: i.complete, w: i.naturalWidth})),
    })""")


def check_replay(player, game, tag):
    page = player.page
    page.wait_for_function("() => document.getElementById('replay-step').textContent.startsWith('Step ')")
    data = page.evaluate(f"() => fetch('/games/{game}/replay.json').then((r) => r.text())")
    assert '"hand"' not in data and '"seed"' not in data  # the spectator's view only
    last = replay_state(page)["max"]
    assert last > PLAY_ACTIONS, last  # a few rounds were played

    def at(i):
        # the replay draws the live board (static/js/play-replay.js): wait until it shows step i
        page.wait_for_function(f"() => window.brigadeBoard && window.brigadeBoard.version === {i} && window.brigadeBoard.idle",
                               timeout=30000)
        st = replay_state(page)
        assert st["step"] == f"Step {i} of {last}" and st["range"] == i, (i, st)
        assert st["lands"] == 8, st  # two bases and six lands
        return st

    start = at(0)
    assert start["log"] == ["The game begins."] and start["units"] == 0
    assert start["summary"].startswith(f"Round 1: choosing leaders · alice{tag} and bob{tag} to move"), start["summary"]
    assert f"Cards in hand: alice{tag} " in start["summary"]  # how many, as the board shows a spectator
    page.click("#replay-next")
    one = at(1)
    assert one["log"] != start["log"]
    page.click("#replay-prev")
    assert at(0)["log"] == start["log"]
    page.click("#replay-last")
    end = at(last)
    assert f"alice{tag} wins (resignation)" in end["summary"], end["summary"]
    assert any(f"bob{tag}" in line and "resign" in line for line in end["log"]), end["log"]
    page.click("#replay-first")
    at(0)

    # the range input, then the keyboard (arrows step when the range does not have the focus)
    middle = last // 2
    page.fill("#replay-range", str(middle))
    mid = at(middle)
    assert mid["units"] > 0 and mid["log"], mid
    # every unit drawn with its card's art file, as on the board (static/js/play-cards.js)
    page.wait_for_function("() => [...document.querySelectorAll('#board .pl-map .pl-unit img')].every((i) => i.complete)")
    art = replay_state(page)["art"]
    assert len(art) == mid["units"], art
    assert all(re.search(r"/art/en/[a-z0-9-]+-[0-9a-f]{12}\.svg$", a["src"]) and a["w"] > 0 for a in art), art
    page.click("#replay-next")
    page.keyboard.press("ArrowLeft")
    assert at(middle)["log"] == mid["log"]
    page.keyboard.press("ArrowRight")
    at(middle + 1)
    page.keyboard.press("ArrowLeft")
    at(middle)
    page.keyboard.press("End")
    at(last)
    page.keyboard.press("Home")
    at(0)

    # a spectator's page: no hand of either player (the board's hand area is not shown at all)
    assert page.locator(".pl-hcard").count() == 0 and not page.locator(".pl-hand").is_visible()
    headings = page.locator("h1, h2, h3").all_inner_texts()
    assert not any("hand" in h.lower() for h in headings), headings
    assert page.locator("#board .pl-map").inner_text().count(f"alice{tag}") >= 1  # bases and lands name their owners

    def to_middle(p):
        p.wait_for_function("() => document.getElementById('replay-step').textContent.startsWith('Step ')")
        p.fill("#replay-range", str(middle))
        p.wait_for_function(f"() => document.getElementById('replay-step').textContent === 'Step {middle} of {last}'"
                            f" && window.brigadeBoard && window.brigadeBoard.version === {middle} && window.brigadeBoard.idle")
        p.evaluate("() => document.activeElement && document.activeElement.blur()")

    shoot_both(player, "replay", prepare=to_middle)


def test_a_wrong_code_and_a_cancelled_invitation(server, browser):
    tag = random.Random().randrange(10**6)
    dave = new_player(browser, server, f"dave{tag}")
    try:
        page = lobby(dave)
        page.fill("input[name=code]", "wrong-000")  # 0 is not in the codes' alphabet: never a real code
        page.click("section:has(#join-title) button[type=submit]")
        page.wait_for_url(re.compile(r"/join/WRONG000$"))
        assert page.locator("[role=alert]").inner_text() == "No game has this code: check it with your friend."
        assert "WRONG000" in page.locator(".lobby-panel").inner_text()  # the code as it was understood
        assert page.locator("a", has_text="Back to the lobby").count() == 1
        status = page.evaluate("() => fetch(location.href).then((r) => r.status)")
        assert status == 404

        game, code, _ = invite(dave)
        page = lobby(dave)
        assert any(f"Code {code}" in r for r in rows(page, "Your invitations"))
        page.click(f"text=Code {code}")
        page.wait_for_url(re.compile(rf"/lobby/invite/{game}$"))
        page.click("text=Cancel the invitation")
        page.wait_for_url(re.compile(r"/lobby$"))
        assert "Invitation cancelled." in page.locator(".flashes").inner_text()
        assert section(page, "Your invitations").count() == 0
        assert f"Code {code}" not in page.content()
        page.goto(f"{server.url}/lobby/invite/{game}")  # its page is gone: back to the lobby
        page.wait_for_url(re.compile(r"/lobby$"))
        assert "That invitation was cancelled." in page.locator(".flashes").inner_text()
        assert not dave.errors, dave.errors

        erin = new_player(browser, server, f"erin{tag}")  # a friend who got the link too late
        try:
            erin.page.goto(f"{server.url}/join/{code}")
            assert erin.page.locator("[role=alert]").inner_text() == "This invitation was cancelled."
            assert erin.page.locator("input[name=deck]").count() == 0
            assert erin.page.locator("a", has_text="Watch").count() == 0
        finally:
            erin.ctx.close()
    finally:
        dave.ctx.close()
