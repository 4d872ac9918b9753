"""The site in Japanese through its own header switch (issue 15), at desktop (1280×800) and phone
(390×844) size: home, collection, deckbuilder and lobby read Japanese, including the texts the
pages' scripts write (static/js/i18n.js with static/i18n/ja.json), the choice follows the account
to a fresh browser, and the switch leads back to English.

Screenshots: i18n-<page>-ja-<size>.png in the screenshots folder (looked at for overflow and breaks).
"""

import re

import pytest

from tests import browserkit as kit
from tests import stillpage
from tests.browserkit import SIZES, Server, no_sideways_scroll, page_errors
from tests.conftest import shots_dir
from webapp.store import add_cards, connect, get_user_by_name

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()
EXTRA = {"orc": 3, "salamander": 2, "flame-warden": 2, "fireball": 2, "goblin-raider": 2}
#: Japanese text each page shows (from the catalogs), and English it must not show any more.
PAGES = {
    "home": ("/", ["できること", "はじめの一歩", "コレクション"], ["What you can do", "Your first steps"]),
    "collection": ("/collection", ["あなたのカード", "絞り込み", "枚を表示"], ["Your cards", "Filters", "Showing"]),
    "deckbuilder": ("/decks/new", ["デッキ名", "おまかせで埋める", "デッキを保存"], ["Deck name", "Fill for me", "Save deck"]),
    "lobby": ("/lobby", ["友だちと対戦", "友だちを招待", "コードで参加"], ["Battle a friend", "Invite a friend"]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("i18n"))
    yield server
    server.stop()


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


@pytest.fixture
def context(browser, size):
    context = browser.new_context(**SIZES[size], locale="en-GB")
    yield context
    context.close()


def watch(page):
    page.set_default_timeout(15_000)
    return page_errors(page)

#: The collection's grid shows some cards, and only goblins (by id or by their kana reading).
GOBLINS_ONLY = """() => {
    const shown = [...document.querySelectorAll('#coll-grid .coll-card:not([hidden])')];
    return shown.length > 0 && shown.every((c) => (c.dataset.id || '').includes('goblin')
                                                || (c.dataset.search || '').includes('ごぶりん'));
}"""


def shoot(page, name, size):
    return stillpage.shoot(page, SHOTS / f"i18n-{name}-ja-{size}.png")


def main_text(page):
    return page.locator("main").inner_text() + "\n" + page.locator("header.site-header").inner_text()


def test_japanese_through_the_header_switch(context, server, size, browser):
    page = context.new_page()
    errors = watch(page)
    name = f"nihongo{size}"
    kit.register(page, server.url, name)
    db = connect(server.db_path)
    try:
        add_cards(db, get_user_by_name(db, name)["id"], EXTRA)
    finally:
        db.conn.close()
    page.goto(server.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert "What you can do" in main_text(page)

    page.click("[data-testid=lang-ja]")  # the header's switch: the other language in its own words
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.url.rstrip("/") == server.url  # back on the page it was used on

    for key, (path, japanese, english) in PAGES.items():
        page.goto(server.url + path)
        page.wait_for_function("() => window.BrigadeI18n")
        page.evaluate("() => window.BrigadeI18n.ready")
        text = main_text(page)
        assert page.locator("html").get_attribute("lang") == "ja"
        for words in japanese:
            assert words in text, (key, words)
        for words in english:
            assert words not in text, (key, words)
        no_sideways_scroll(page)
        shoot(page, key, size)

    # the scripts write Japanese too: the collection's live search folds half-width katakana
    page.goto(server.url + "/collection")
    page.evaluate("() => window.BrigadeI18n.ready")
    page.fill("#coll-filters input[name=q]", "ｺﾞﾌﾞﾘﾝ")
    page.wait_for_function(GOBLINS_ONLY)  # the filter applies on the next animation frame
    shown = page.locator("#coll-grid .coll-card:not([hidden])")
    assert shown.count() >= 1
    assert all("goblin" in (shown.nth(i).get_attribute("data-id") or "") or
               "ごぶりん" in shown.nth(i).get_attribute("data-search") for i in range(shown.count()))
    # … and the deckbuilder's live messages and its card faces
    page.goto(server.url + "/decks/new")
    page.wait_for_selector("#pool-list .card-add:not([disabled])")
    img = page.locator("#pool-list .pool-card[data-id='orc'] .card-add img")
    assert re.search(r"/art/ja/orc-[0-9a-f]{12}\.svg$", img.get_attribute("src"))
    add = page.locator("#pool-list .pool-card[data-id='orc'] .card-add")
    add.tap() if size == "phone" else add.click()
    assert page.locator("#deck-status").inner_text().strip() == "まだ対戦に使えません"
    assert "レベル1" in page.locator("[data-text='levels-summary']").inner_text()
    assert "デッキはちょうど30枚です" in page.locator("#deck-problems").inner_text()
    shoot(page, "deckbuilder-live", size)

    # the choice is the account's: a fresh browser logging in reads Japanese at once
    other = browser.new_context(**SIZES[size], locale="en-GB")
    try:
        fresh = other.new_page()
        fresh.goto(server.url + "/login")
        assert fresh.locator("html").get_attribute("lang") == "en"
        fresh.fill("#name", name)
        fresh.fill("#password", kit.PASSWORD)
        fresh.click("form.auth-form button[type=submit]")
        fresh.wait_for_load_state()
        assert fresh.locator("html").get_attribute("lang") == "ja"
        assert "おかえりなさい" in fresh.locator("main").inner_text()
    finally:
        other.close()

    # and back to English with the same switch
    page.goto(server.url + "/lobby")
    page.click("[data-testid=lang-en]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert "Battle a friend" in main_text(page)
    assert not errors, f"errors in the page's console: {errors}"


def test_accept_language_chooses_for_a_visitor(browser):
    """A visitor whose browser asks for Japanese first reads Japanese without choosing."""
    server = None
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        server = Server(folder)
        try:
            context = browser.new_context(**SIZES["desktop"], locale="ja-JP")
            page = context.new_page()
            page.goto(server.url + "/")
            assert page.locator("html").get_attribute("lang") == "ja"
            assert "ログイン" in page.locator("header.site-header").inner_text()
            context.close()
        finally:
            server.stop()


def test_one_switch_on_the_board_changes_page_and_card_language(context, server, size):
    """The board settings' Language switch: the page reloads in the other language and the card faces
    follow; the card language alone can still be set apart afterwards."""
    page = context.new_page()
    errors = watch(page)
    kit.register(page, server.url, f"board{size}")
    page.goto(server.url + "/play")
    page.locator("label.play-deck", has_text="Prince").locator("input[name=deck]").check()
    page.click("form.play-deck-form button[type=submit]")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
    page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#board").get_attribute("data-lang") == "en"

    page.click("[data-testid=settings]")
    assert page.locator("#pl-set-title").inner_text() == "Settings"
    # click, not check(): the switch reloads the page, and check() reads the radio's state after its click,
    # which under load is after the reload began (then it waits for the radio in the new page's closed
    # settings dialog until it times out)
    with page.expect_navigation():
        page.click("[data-testid=set-ui-ja]")
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.locator("#board").get_attribute("data-lang") == "ja"  # the card faces followed
    page.evaluate("() => { for (const b of document.querySelectorAll('[data-testid=tip-ok]')) b.click(); }")
    page.click("[data-testid=settings]")
    assert page.locator("#pl-set-title").inner_text() == "設定"
    assert "アニメーションの速さ" in page.locator("dialog.pl-settings").inner_text()
    assert page.locator("[data-testid=set-lang-ja]").is_checked()
    shoot(page, "board-settings", size)
    page.click("[data-testid=settings-done]")
    # the game log speaks the player's language: choose leaders, the CPU answers
    player = kit.BoardPlayer(page)
    player.dismiss_tips()
    player.choose_leaders()
    page.wait_for_function("() => document.querySelectorAll('.pl-log-list li').length >= 2", timeout=20000)
    log = page.locator(".pl-log-list").inner_text()
    assert "旅団長" in log and "chooses leaders" not in log, log
    page.click("[data-testid=settings]")
    # the card language apart: English faces on a Japanese page
    page.check("[data-testid=set-lang-en]")
    page.wait_for_function("() => (window.brigadeBoard.settings.saved || 0) >= 1", timeout=10000)
    page.click("[data-testid=settings-done]")
    page.reload()
    page.wait_for_function("() => window.brigadeBoard && window.brigadeBoard.idle", timeout=20000)
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.evaluate("() => window.brigadeBoard.settings.get('lang')") == "en"
    assert not errors, f"errors in the page's console: {errors}"
