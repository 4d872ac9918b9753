"""The live path of the table: a friend joining by code opens the inviter's board by a push, and a
game the server ends (the host from /admin, a game clock running out) shows its end on both boards at
once, with the reason, live and after a reload (docs/admin.md: "a reload shows it ended").

Two players in Debian's chromium against the real server (tests/browserkit.py): the inviter in
English at 1280×800, the friend in Japanese at 390×844; the host in English. The inviter's page
records the Socket.IO frames it hears and the pages it asks for, so the test sees the board open on
the ``started`` push (not on a reload of the invitation page). Screenshots:
table2-host-end-<who>.png, table2-timeout-<who>.png.
"""

import re
import subprocess
import sys
import time

import pytest

from tests import stillpage
from tests.browserkit import DESKTOP, PASSWORD, PHONE, ROOT, Server, new_player, wait_for_board
from tests.conftest import shots_dir
from tests.onlinekit import advance_clock, invite, on_board

SHOTS = shots_dir()
HOST_REASON = "server maintenance tonight"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def to_japanese(player):
    page = player.page
    page.goto(player.base + "/")
    page.click("[data-testid=lang-ja]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ja"


def join_by_code(player, code):
    """The lobby's "join with a code" form, then the first deck offered (the loaner), in any language."""
    page = player.page
    page.goto(player.base + "/lobby")
    page.fill("input[name=code]", code)
    page.locator("input[name=code]").press("Enter")
    page.wait_for_url(re.compile(r"/join/"))
    page.locator("label.lobby-deck input[name=deck]").first.check()
    page.locator("form button[type=submit].button").last.click()


def listen(page):
    """The Socket.IO event names the page hears and the paths it asks for, as they come."""
    heard = {"events": [], "paths": []}

    def frame(payload):
        m = re.match(r'^42\["([a-z_]+)"', payload if isinstance(payload, str) else "")
        if m:
            heard["events"].append(m.group(1))

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.on("request", lambda r: heard["paths"].append(re.sub(r"^https?://[^/]+", "", r.url)))
    return heard


def host_page(browser, server):
    made = subprocess.run(
        [sys.executable, "-m", "webapp", "admin", "--db", str(server.db_path), "create-host", "Hostie",
         "--url", server.url], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"BRIGADE_INSTANCE_PATH": str(server.instance), "PATH": "/usr/bin:/bin"})
    assert made.returncode == 0, made.stderr
    link = re.search(r"(http://\S+/reset/\S+)", made.stdout).group(1)
    host = browser.new_context(**DESKTOP).new_page()
    host.goto(link)
    host.fill("#password", PASSWORD)
    host.fill("#confirm", PASSWORD)
    host.click("form.auth-form button[type=submit]")
    host.wait_for_url(re.compile(r"/login$"))
    host.fill("#name", "Hostie")
    host.fill("#password", PASSWORD)
    host.click("form.auth-form button[type=submit]")
    host.wait_for_load_state()
    return host


def end_shown(page, words):
    """The board shows the game's end (its end screen, or its panel once the screen is closed) with ``words``."""
    try:
        page.wait_for_function("""(words) => {
            const b = window.brigadeBoard;
            if (!b || !b.view || !b.view.result) return false;
            const text = document.getElementById("board").innerText;
            return words.every((w) => text.includes(w));
        }""", arg=words, timeout=30_000)
    except Exception as exc:
        if "Timeout" not in type(exc).__name__:
            raise
        seen = page.evaluate("() => [window.brigadeBoard && window.brigadeBoard.view && window.brigadeBoard.view.result, "
                             "document.getElementById('board').innerText.slice(0, 600)]")
        raise AssertionError(f"the board did not show the end with {words}: {seen}") from None
    status = page.locator("[data-testid=whose]").inner_text()
    assert status in ("The game is over", "ゲーム終了"), status
    assert "Your move" not in page.locator(".pl-status").inner_text()


def test_joining_by_code_opens_the_inviters_board_by_push_and_server_ends_reach_both_boards(browser, tmp_path):
    server = Server(tmp_path, "CPU_DELAY = 0\n")
    players = []
    try:
        inviter = new_player(browser, server, "Ina", DESKTOP)
        friend = new_player(browser, server, "Fumi", PHONE)
        players += [inviter, friend]
        to_japanese(friend)
        heard = listen(inviter.page)

        # the invitation, and the friend joining with its code from the lobby
        game, code, _ = invite(inviter)
        began = time.monotonic()
        join_by_code(friend, code)
        on_board(inviter, game)
        opened = time.monotonic() - began
        on_board(friend, game)
        print(f"the friend's Join click to the inviter's board drawn: {opened:.2f} s (wall, a loaded machine)")
        assert "started" in heard["events"], heard["events"]  # the server's push opened it ...
        assert heard["paths"].count(f"/lobby/invite/{game}") == 1, heard["paths"]  # ... not a reload

        # the host ends it from /admin: both boards show it at once, with the host's words
        host = host_page(browser, server)
        host.goto(server.url + "/admin/games")
        row = host.locator("tr", has=host.locator(f"#reason-{game}"))
        row.locator("input[name=reason]").fill(HOST_REASON)
        row.locator("button", has_text="End").click()
        host.wait_for_load_state()
        assert "ended" in host.inner_text(".flashes")
        end_shown(inviter.page, ["The host ended this game", HOST_REASON])
        end_shown(friend.page, ["管理者がこの対戦を終了しました", HOST_REASON])
        for who, p in (("inviter", inviter.page), ("friend", friend.page)):
            stillpage.shoot(p, SHOTS / f"table2-host-end-{who}.png")
        # ... and after a reload (not an empty "Connecting…")
        for p, words in ((inviter.page, ["The host ended this game", HOST_REASON]),
                         (friend.page, ["管理者がこの対戦を終了しました", HOST_REASON])):
            p.reload()
            wait_for_board(p)
            end_shown(p, words)
        assert not inviter.errors and not friend.errors, inviter.errors + friend.errors

        # the game clocks run out during the leader choice (R18.3, both choose at once): the server's ticker
    # ends it, and both boards show it at once
        game2, code2, _ = invite(inviter, clock="1")
        join_by_code(friend, code2)
        on_board(inviter, game2)
        on_board(friend, game2)
        advance_clock(inviter.page, server, 120)
        end_shown(inviter.page, ["Both clocks ran out"])
        end_shown(friend.page, ["両者の持ち時間が尽きました"])
        for who, p in (("inviter", inviter.page), ("friend", friend.page)):
            stillpage.shoot(p, SHOTS / f"table2-timeout-{who}.png")
            p.reload()
            wait_for_board(p)
        end_shown(inviter.page, ["Both clocks ran out"])
        end_shown(friend.page, ["両者の持ち時間が尽きました"])
        assert not inviter.errors and not friend.errors, inviter.errors + friend.errors
    finally:
        for p in players:
            p.ctx.close()
        server.stop()
