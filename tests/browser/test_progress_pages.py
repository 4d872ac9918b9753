"""Crafting, daily quests and deck lists as text in a real browser, at desktop (1280×800) and phone
(390×844) size, in English and Japanese: the card detail crafts and disenchants, the home page shows
the day's quests and claims one, a pasted list imports and offers to craft what it lacks.

Screenshots: progress-<what>-<size>.png in the screenshots folder (looked at)."""

import pytest
from playwright.sync_api import expect

from tests import browserkit as kit
from tests import stillpage
from tests.browserkit import SIZES, Server, no_sideways_scroll, watched_page
from tests.conftest import shots_dir
from webapp.game import quests
from webapp.store import add_cards, connect, get_collection, get_user_by_name
from webapp.store import quests as store_quests
from webapp.store import shards as store_shards

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("progress"))
    yield server
    server.stop()


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


@pytest.fixture
def page(browser, size):
    with watched_page(browser, SIZES[size], timeout=15_000) as page:
        yield page


def shoot(page, name, size, full_page=False):
    return stillpage.shoot(page, SHOTS / f"progress-{name}-{size}.png", full_page=full_page)


def player(server, page, name, shards=0, cards=None):
    kit.register(page, server.url, name)
    db = connect(str(server.db_path))
    try:
        user = get_user_by_name(db, name)
        if shards:
            store_shards.exchange(db, user["id"], shards, "reward", {"source": "test"})
        if cards:
            add_cards(db, user["id"], cards)
        return user
    finally:
        db.close()


def test_craft_and_disenchant_from_the_card_detail(server, page, size):
    user = player(server, page, f"crafter-{size}", shards=100, cards={"orc": 4})
    page.goto(server.url + "/collection/card/orc")
    expect(page.locator(".coll-craft")).to_contain_text("100")
    no_sideways_scroll(page)
    shoot(page, "card-detail", size)
    page.click(".coll-disenchant-button")
    expect(page.locator(".flash-success")).to_contain_text("+20")
    page.click(".coll-craft-button")
    expect(page.locator(".flash-success")).to_contain_text("Crafted Orc")
    shoot(page, "card-crafted", size)
    db = connect(str(server.db_path))
    try:  # 4 owned, the 4 spare ones disenchanted (+20 shards), one crafted (40 shards)
        assert get_collection(db, user["id"])["orc"] == 1
        assert store_shards.get_balance(db, user["id"]) == 100 + 20 - 40
    finally:
        db.close()


def test_the_days_quests_on_the_home_page_in_both_languages(server, page, size):
    user = player(server, page, f"quester-{size}")
    db = connect(str(server.db_path))
    try:
        day = quests.today()
        db.execute("DELETE FROM daily_quests WHERE user_id = ?", [user["id"]])  # dealt at registration's home page
        store_quests.deal(db, user["id"], day, ["spells-5", "play-3", "win-2"])
        db.execute("UPDATE daily_quests SET progress = 5 WHERE user_id = ? AND day = ? AND slot = 0", [user["id"], day])
    finally:
        db.close()
    page.goto(server.url + "/")
    expect(page.locator("#quests [data-testid=quest]")).to_have_count(3)
    no_sideways_scroll(page)
    page.locator("#quests").scroll_into_view_if_needed()
    shoot(page, "home-quests", size)
    page.click("#quests form[action$='/0/claim'] button")
    expect(page.locator(".flash-success")).to_contain_text("50 shards")
    page.click("#quests form[action$='/1/reroll'] button")
    expect(page.locator(".flash-success")).to_contain_text("New quest")
    with page.expect_navigation():  # the header's switch (inside the menu on a phone)
        page.evaluate("() => document.querySelector('[data-testid=lang-ja]').click()")
    expect(page.locator("#quests h2")).to_have_text("今日のクエスト")
    no_sideways_scroll(page)
    page.locator("#quests").scroll_into_view_if_needed()
    shoot(page, "home-quests-ja", size)


def test_a_pasted_japanese_list_imports_and_offers_crafting(server, page, size):
    player(server, page, f"paster-{size}", shards=500, cards={"orc": 2})
    page.goto(server.url + "/decks")
    page.fill("#import-code", "4 オーク\n1 ファイアボール\n")
    page.fill("#import-name", "貼りつけ")
    no_sideways_scroll(page)
    shoot(page, "import-list", size)
    page.click(".import-form button[type=submit]")
    expect(page.locator(".builder-lacking")).to_be_visible()
    no_sideways_scroll(page)
    shoot(page, "builder-lacking", size)
    page.click(".builder-lacking button")
    expect(page.locator(".flash-success")).to_contain_text("Crafted 3 cards")
    expect(page.locator("#export-list")).to_have_value("4 Orc\n1 Fireball\n")


def test_the_end_screen_lists_the_quest_a_resigned_game_advanced(server, page, size):
    """A game resigned in round 5 (played out: webapp/game/fairplay.py) advances "Finish 3 battles"."""
    user = player(server, page, f"ender-{size}")
    db = connect(str(server.db_path))
    try:
        day = quests.today()
        db.execute("DELETE FROM daily_quests WHERE user_id = ?", [user["id"]])
        store_quests.deal(db, user["id"], day, ["play-3", "win-2", "spells-5"])
    finally:
        db.close()
    page.goto(server.url + "/")
    kit.start_at(page, server, "last-leader", cpu="random", seed=3)
    page.click("[data-key=resign]")
    page.click("[data-testid=confirm-ok]")
    page.wait_for_selector(".pl-end[open]", timeout=20000)
    quest_line = page.locator("[data-testid=end-quest]")
    expect(quest_line).to_have_count(1)
    expect(quest_line).to_contain_text("Finish 3 battles")
    expect(quest_line).to_contain_text("1 of 3 done")
    shoot(page, "end-screen", size)
