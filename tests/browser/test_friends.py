"""Two friends in real browsers: they add each other, one challenges, they chat, the game ends, ratings and profiles move.

alice (desktop) adds bob by name on the friends page; bob (a phone) accepts. With bob's friends page
open he shows "online" to alice, who challenges him from the list (deck, clock, rated); bob's page hears
the challenge live and shows it with its accept form; accepting takes both to the new game's board. bob
resigns at once: a game cut short before round 5 changes no rating (the ladder stays empty), while the
profiles count the game. Then a rated game from a fixed position in round 5 (online-battle.json, through
the testing start path), where they say a word each in the board's chat before bob resigns it
too: both ratings move, and both profiles show them and the chart. Screenshots (friends-*.png in
shots_dir()) of the friends page, the live challenge on the phone,
the ladder and a profile on the phone.
"""

import random

import pytest
from playwright.sync_api import expect

from tests import stillpage
from tests.browser.test_chat import lines, open_chat, say, wait_for_lines
from tests.browserkit import PHONE, Server, new_player, no_sideways_scroll, position, start_at, wait_for_board
from tests.conftest import shots_dir

SHOTS = shots_dir()
CONFIG = """CPU_DELAY = 0
ONLINE_CLOCK_MIN_MINUTES = 0
"""

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("friends"), CONFIG)
    yield srv
    srv.stop()


@pytest.fixture
def pair(server, browser):
    tag = random.Random().randrange(10**6)
    made = [new_player(browser, server, f"alice{tag}", seed=1), new_player(browser, server, f"bob{tag}", size=PHONE, seed=2)]
    yield made
    for pl in made:
        pl.ctx.close()


def shoot(page, name, full_page=True):
    page.evaluate("() => window.scrollTo(0, 0)")
    stillpage.shoot(page, SHOTS / f"friends-{name}.png", full_page=full_page)


def resign(player):
    player.dismiss_tips()
    player.page.locator("button", has_text="Resign").click()
    player.page.locator("[data-testid=confirm-ok]").click()
    player.page.wait_for_selector(".pl-end[open]")


def rating_text(page, server, name):
    page.goto(f"{server.url}/players/{name}")
    return page.locator("[data-testid=rating]").inner_text()


def test_two_friends_add_each_other_challenge_play_and_their_ratings_move(server, pair):
    alice, bob = pair
    a, b = alice.page, bob.page
    # ------------------------------------------------ alice asks bob by name; bob accepts
    a.goto(f"{server.url}/friends")
    a.fill("[data-testid=friend-name]", bob.name)
    a.click("[data-testid=add-friend]")
    a.wait_for_selector("[data-testid=outgoing]")
    b.goto(f"{server.url}/friends")
    assert alice.name in b.locator("[data-testid=incoming]").inner_text()
    b.click("[data-testid=accept-request]")
    b.wait_for_selector(f".friends-person[data-name='{alice.name}']")
    no_sideways_scroll(b)

    # ------------------------------------------------ bob's page is open: alice sees him online, challenges him
    a.goto(f"{server.url}/friends")
    person = a.locator(f".friends-person[data-name='{bob.name}']")
    assert person.locator("[data-testid=presence]").inner_text() == "online"
    shoot(a, "list")
    person.locator("[data-testid=challenge-box] summary").click()
    person.locator("select[name=clock]").select_option("10")
    person.locator("[data-testid=send-challenge]").click()
    a.wait_for_selector("[data-testid=challenge-from-me]")
    b.wait_for_selector("[data-testid=challenge-to-me]", timeout=20_000)  # heard live; the page shows it
    assert f"{alice.name} challenges you" in b.locator("[data-testid=challenge-to-me]").inner_text()
    shoot(b, "challenge-phone")
    no_sideways_scroll(b)
    b.click("[data-testid=accept-challenge]")
    for pl in (alice, bob):
        pl.page.wait_for_url("**/play/*", timeout=20_000)
        wait_for_board(pl.page)
    game = int(b.url.rsplit("/", 1)[1])
    assert a.url.endswith(f"/play/{game}")
    listed = a.evaluate("() => fetch('/friends/presence.json').then((r) => r.json())")["friends"]
    assert listed == [{"name": bob.name, "state": "playing", "watch": f"/play/{game}"}]  # bob sits at his seat

    # ------------------------------------------------ bob resigns in round 1: no rating moves
    resign(bob)
    a.wait_for_selector(".pl-end[open]")
    a.goto(f"{server.url}/ladder")
    assert "Nobody has played a rated game yet." in a.locator("#ladder").inner_text()
    assert "after 0 rated games" in rating_text(a, server, alice.name)
    assert "1 won of 1" in a.locator("[data-testid=record]").inner_text()  # the profile counts the game

    # ------------------------------------------------ a rated game at round 5, resigned by bob: ratings move
    scenario = dict(position("online-battle"), round=5)
    rated = start_at(a, server, scenario, mode="online", seed=9, opponent=bob.name, clock_ms=600_000, rated=True)
    b.goto(f"{server.url}/play/{rated}")
    wait_for_board(b)
    # ------------------------------------------------ a word on the board before bob resigns (the chat's own test: test_chat.py)
    open_chat(a)
    say(a, "Nice challenge!")
    b.get_by_test_id("chat-unread").wait_for(state="visible")
    open_chat(b)
    wait_for_lines(b, 1)
    assert lines(b)[-1].endswith("Nice challenge!"), lines(b)
    say(b, "Thanks, gg")
    wait_for_lines(a, 2)
    assert lines(a)[-1].endswith("Thanks, gg"), lines(a)
    for page in (a, b):  # the panel closed again, clear of the board's buttons
        page.get_by_test_id("chat-toggle").click()
        page.get_by_test_id("chat").wait_for(state="hidden")
    resign(bob)
    a.wait_for_selector(".pl-end[open]")
    a_rating, b_rating = rating_text(a, server, alice.name), rating_text(b, server, bob.name)
    assert "after 1 rated games" in a_rating and "after 1 rated games" in b_rating
    a_value = int(a_rating.split()[1])
    b_value = int(b_rating.split()[1])
    assert a_value > 1500 > b_value, (a_rating, b_rating)
    assert b.locator("[data-testid=rating-chart] circle").count() == 2
    assert "0 won of 2" in b.locator("[data-testid=record]").inner_text()
    assert b.locator("[data-testid=cards] tbody tr").count() > 0  # his own per-card figures
    no_sideways_scroll(b)
    shoot(b, "profile-phone")
    a.goto(f"{server.url}/ladder")
    rows = a.locator("[data-testid=ladder] tbody tr")
    assert rows.count() == 2 and alice.name in rows.nth(0).inner_text() and bob.name in rows.nth(1).inner_text()
    shoot(a, "ladder")
    a.goto(f"{server.url}/players/{bob.name}")  # another's profile: no decks, no cards
    assert a.locator("[data-testid=cards]").count() == 0 and a.locator("[data-testid=by-deck]").count() == 0

    # ------------------------------------------------ the friends page in Japanese on the phone
    a.goto(f"{server.url}/friends")  # a page with a socket: alice is online (a profile page opens none)
    b.goto(f"{server.url}/friends")
    b.click("[data-testid=lang-ja]")
    b.wait_for_selector("html[lang=ja]")
    assert "フレンド一覧" in b.locator("h1").inner_text()
    expect(b.locator(f".friends-person[data-name='{alice.name}'] [data-testid=presence]")).to_have_text(
        "オンライン", timeout=30_000)  # the page asks /friends/presence.json again every 15 s
    no_sideways_scroll(b)
    shoot(b, "list-ja-phone")
