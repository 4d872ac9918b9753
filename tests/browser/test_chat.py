"""Chat on the online board in real browsers (docs/protocol.md "Chat"), from a fixed position: alice
(a desktop, in English) and bob (a phone, in Japanese) play the online game of tests/browser/positions/online-battle.json; carol
watches on a phone. alice writes to bob, bob answers and then mutes her, carol writes in the
spectators' chat, which neither player sees; alice reports bob's line and, as the server's host (its
first account), finds it in /admin/chat. Every message is typed into the board's own chat panel
(static/js/play-chat.js). Screenshots go to shots_dir() as chat-*.png."""

import random

import pytest

from tests.browserkit import PHONE, Server, befriend, new_player, start_at, wait_for_board
from tests.conftest import shots_dir
from tests.onlinekit import board, on_board
from tests.stillpage import board_still, shoot

SHOTS = shots_dir()
CONFIG = "CPU_DELAY = 0\nONLINE_CLOCK_MIN_MINUTES = 0\n"

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("chat"), CONFIG)
    yield srv
    srv.stop()


@pytest.fixture
def table(server, browser):
    """alice (desktop, English) and bob (phone, Japanese) on the board of an online game at online-battle, carol watching it."""
    tag = random.Random().randrange(10**6)
    alice = new_player(browser, server, f"alice{tag}", seed=1)
    bob = new_player(browser, server, f"bob{tag}", size=PHONE, seed=2)
    carol = new_player(browser, server, f"carol{tag}", size=PHONE, seed=3)
    befriend(server, alice.name, carol.name)  # who may watch: the players' friends (docs/security.md "Watching")
    game = start_at(alice.page, server, "online-battle", mode="online", seed=7, opponent=bob.name, clock_ms=30 * 60_000)
    bob.page.goto(server.url + "/")  # bob reads Japanese
    bob.page.click("[data-testid=lang-ja]")
    bob.page.wait_for_load_state()
    bob.page.goto(f"{server.url}/play/{game}")
    on_board(bob, game)
    on_board(alice, game)
    carol.page.goto(f"{server.url}/play/{game}")
    wait_for_board(carol.page)
    for pl in (alice, bob, carol):
        pl.page.evaluate("() => localStorage.setItem('brigade.tips.seen', 'all')")
    yield game, alice, bob, carol
    for pl in (alice, bob, carol):
        pl.ctx.close()


def open_chat(page):
    page.get_by_test_id("chat-toggle").click()
    page.get_by_test_id("chat").wait_for(state="visible")


def say(page, text):
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def lines(page):
    return [li.inner_text().replace("⚑", "").strip() for li in page.get_by_test_id("chat-message").all()]


def wait_for_lines(page, n):
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=chat-message]').length >= {n}")


def picture(page, name):
    if page.evaluate("() => !!window.brigadeBoard"):
        board_still(page)
    return shoot(page, SHOTS / f"chat-{name}.png")


def test_two_players_chat_on_the_board_and_the_spectators_chat_apart(table):
    game, alice, bob, carol = table
    for pl in (alice, bob, carol):
        pl.page.get_by_test_id("chat-toggle").wait_for(state="visible")
    assert board(carol.page, "return b.seat;") is None

    open_chat(alice.page)
    assert alice.page.get_by_test_id("chat").get_attribute("data-channel") == "players"
    say(alice.page, "<b>Good luck</b> & have fun!")
    wait_for_lines(alice.page, 1)
    # bob's panel is closed: the toggle counts the new message; the text is shown as text, never as markup
    bob.page.get_by_test_id("chat-unread").wait_for(state="visible")
    assert bob.page.get_by_test_id("chat-unread").inner_text() == "1"
    picture(bob.page, "unread-phone")
    open_chat(bob.page)
    wait_for_lines(bob.page, 1)
    assert bob.page.locator(".pl-chat-text").first.inner_text() == "<b>Good luck</b> & have fun!"
    assert bob.page.locator("#pl-chat-title").inner_text() == "対戦相手とのチャット"
    assert bob.page.get_by_test_id("chat-send").inner_text() == "送信"
    assert bob.page.locator(".pl-chat-text b").count() == 0
    say(bob.page, "Thanks, you too")
    wait_for_lines(alice.page, 2)
    assert lines(alice.page)[-1].endswith("Thanks, you too")
    picture(alice.page, "players-desktop")
    picture(bob.page, "players-phone")

    # the spectators' chat: carol writes, the players see nothing of it
    open_chat(carol.page)
    assert carol.page.get_by_test_id("chat").get_attribute("data-channel") == "spectators"
    assert len(lines(carol.page)) == 0  # the players' lines are not hers to read
    say(carol.page, "What a start")
    wait_for_lines(carol.page, 1)
    picture(carol.page, "spectators-phone")

    # bob mutes alice: her next line does not reach him
    bob.page.get_by_test_id("chat-mute").click()
    bob.page.wait_for_function("() => document.querySelector('[data-testid=chat-mute]').getAttribute('aria-pressed') === 'true'")
    say(alice.page, "Are you still there?")
    wait_for_lines(alice.page, 3)
    say(bob.page, "Playing on")  # his own line comes back: everything before it has been sent to him
    wait_for_lines(bob.page, 3)
    assert [line.split("\n")[-1] for line in lines(bob.page)][-1].endswith("Playing on")
    assert not any("Are you still there?" in line for line in lines(bob.page))
    assert not any("What a start" in line for line in lines(alice.page) + lines(bob.page))

    # a report on a line of the opponent's is acknowledged on the board
    alice.page.locator("[data-testid=chat-message]:not(.pl-chat-mine) [data-testid=chat-report]").first.click()
    alice.page.locator(".pl-chat-reported").first.wait_for(state="visible")

    # alice registered first on this server, so she is its host: the report is in /admin/chat
    alice.page.goto(f"{alice.base}/admin/chat")
    row = alice.page.get_by_test_id("chat-reports").locator("tbody tr")
    assert row.count() == 1 and "Thanks, you too" in row.inner_text() and bob.name in row.inner_text()
    shoot(alice.page, SHOTS / "chat-admin.png")
    row.get_by_role("button", name="Dismiss").click()
    alice.page.get_by_text("No reported messages.").wait_for()
    for pl in (alice, bob, carol):
        assert not pl.errors, (pl.name, pl.errors)
