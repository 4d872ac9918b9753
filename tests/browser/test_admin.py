"""The host's admin area in a real browser (docs/admin.md): the first host made with
``python -m webapp admin create-host``, an invitation code, a friend registering with it, the host
handing the friend a password-reset link, and the host ending the friend's stuck game.

Screenshots (full page) go to shots_dir() as admin-<page>.png.
"""

import re
import sqlite3
import subprocess
import sys

import pytest

from tests import stillpage
from tests.browserkit import DESKTOP, PASSWORD, PHONE, ROOT, Server, no_sideways_scroll
from tests.conftest import shots_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()
NEW_PASSWORD = "quiet lanterns over the harbour"


def shoot(page, name):
    page.evaluate("() => window.scrollTo(0, 0)")
    return stillpage.shoot(page, SHOTS / f"admin-{name}.png", full_page=True)


def set_password(page, url, password):
    page.goto(url)
    page.fill("#password", password)
    page.fill("#confirm", password)
    page.click("form.auth-form button[type=submit]")
    page.wait_for_load_state()
    assert page.url.endswith("/login"), page.content()[:2000]


def log_in(page, url, name, password):
    page.goto(url + "/login")
    page.fill("#name", name)
    page.fill("#password", password)
    page.click("form.auth-form button[type=submit]")
    page.wait_for_load_state()
    assert "/login" not in page.url, page.content()[:2000]


def test_a_host_invites_a_friend_resets_their_password_and_ends_their_game(browser, tmp_path):
    server = Server(tmp_path, "CPU_DELAY = 0\n")
    try:
        run(browser, server)
    finally:
        server.stop()


def run(browser, server):
    made = subprocess.run(
        [sys.executable, "-m", "webapp", "admin", "--db", str(server.db_path), "create-host", "Hostie",
         "--url", server.url], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"BRIGADE_INSTANCE_PATH": str(server.instance), "PATH": "/usr/bin:/bin"})
    assert made.returncode == 0, made.stderr
    link = re.search(r"(http://\S+/reset/\S+)", made.stdout).group(1)

    host = browser.new_context(**DESKTOP).new_page()
    set_password(host, link, NEW_PASSWORD)
    log_in(host, server.url, "Hostie", NEW_PASSWORD)
    host.click(".site-user a[href='/admin/']")
    host.wait_for_url(re.compile(r".*/admin/$"))

    # invite mode and a code for two friends
    host.select_option("#mode", "invite")
    host.click("form[action$='/admin/registration'] button")
    host.fill("#uses", "2")
    host.fill("#days", "3")
    host.fill("#note", "for Fern")
    host.click("form[action$='/admin/invitations'] button")
    code = re.search(r"New invitation code ([A-Z0-9]{10})", host.inner_text(".flashes")).group(1)

    # the friend registers with it
    friend_ctx = browser.new_context(**PHONE)
    friend = friend_ctx.new_page()
    friend.goto(server.url + "/register")
    friend.fill("#invite_code", code.lower())
    friend.fill("#name", "Fern")
    friend.fill("#password", PASSWORD)
    friend.fill("#confirm", PASSWORD)
    friend.click("form.auth-form button[type=submit]")
    friend.wait_for_load_state()
    assert "/register" not in friend.url, friend.content()[:2000]
    # and starts a game against the CPU
    friend.goto(server.url + "/play")
    friend.click("form.play-deck-form button[type=submit]")
    friend.wait_for_url(re.compile(r".*/play/\d+$"))
    game_id = int(friend.url.rsplit("/", 1)[1])

    host.goto(server.url + "/admin/invitations")
    row = host.locator("tr", has_text=code)
    assert "Fern" in row.inner_text() and "for Fern" in row.inner_text()
    shoot(host, "invitations")

    # Fern forgot the password: the host makes a reset link and hands it over
    host.goto(server.url + "/admin/users?q=fer")
    host.click("table a:text-is('Fern')")
    host.click("text=Make a password-reset link")
    reset = host.input_value("#reset-link")
    shoot(host, "user")
    stranger = browser.new_context(**PHONE).new_page()
    set_password(stranger, reset, NEW_PASSWORD + " too")
    shoot(stranger, "reset-done")
    friend.goto(server.url + "/decks")
    assert "/login" in friend.url  # the reset ended the old session
    log_in(friend, server.url, "Fern", NEW_PASSWORD + " too")
    stranger.goto(reset)
    assert "does not work" in stranger.inner_text("main")  # single use

    # the friend's game is stuck: the host ends it with a reason
    host.goto(server.url + "/admin/games")
    game_row = host.locator("tr", has=host.locator(f"#reason-{game_id}"))
    game_row.locator("input[name=reason]").fill("stuck after the server update")
    game_row.locator("button", has_text="End").click()
    host.wait_for_load_state()
    assert "ended" in host.inner_text(".flashes")
    assert "stuck after the server update" in host.inner_text("main")
    shoot(host, "games")
    host.goto(server.url + "/admin/")
    no_sideways_scroll(host)
    shoot(host, "overview")
    host.goto(server.url + "/admin/audit")
    audit = host.inner_text("main")
    for action in ("create host", "registration mode", "new invitation code", "reset link", "end game"):
        assert action in audit, action
    shoot(host, "audit")
    host.set_viewport_size(PHONE["viewport"])
    host.goto(server.url + "/admin/games?status=all")
    no_sideways_scroll(host)
    shoot(host, "games-phone")
    friend.goto(server.url + "/admin/")
    assert "Not for you" in friend.inner_text("main")

    db = sqlite3.connect(server.db_path)
    assert db.execute("SELECT status FROM games WHERE id = ?", [game_id]).fetchone() == ("aborted",)
    db.close()
