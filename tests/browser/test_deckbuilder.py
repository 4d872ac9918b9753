"""The deckbuilder as a card table in a real browser (issue 13), at desktop (1280×800) and phone
(390×844) size: a click (or tap) on a card adds it and its badge counts the copies, a click in the
deck list takes one out, the card shows large on hover, long-press and keyboard focus, the keyboard
adds and removes, and **Fill for me** completes the deck keeping the chosen cards.

Screenshots: docs/screenshots/deckbuilder-<what>-<size>.png (looked at, committed).
"""

import re

import pytest
from playwright.sync_api import expect

from tests import browserkit as kit
from tests import stillpage
from tests.browserkit import SIZES, Server, no_sideways_scroll, watched_page
from tests.conftest import shots_dir
from webapp.decks.check import check_deck
from webapp.engine import load_pool
from webapp.decks.packs import STARTER
from webapp.store import add_cards, connect, get_deck, get_user_by_name, list_decks

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = shots_dir()
POOL = load_pool()
#: Cards given on top of the starter, so the player owns more than a deck: a fire and earth side.
EXTRA = {"orc": 3, "salamander": 2, "flame-warden": 2, "fireball": 2, "goblin-raider": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("deckbuilder"))
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
    return stillpage.shoot(page, SHOTS / f"deckbuilder-{name}-{size}.png", full_page=full_page)


def card(page, cid):
    return page.locator(f"#pool-list .pool-card[data-id='{cid}']")


def badge(page, cid):
    b = card(page, cid).locator("[data-badge]")
    return b.inner_text() if b.is_visible() else ""


def count(page):
    return int(page.locator("#deck-count").inner_text())


def tap(page, locator, size, force=False):
    if size == "phone":
        locator.tap(force=force)
    else:
        locator.click(force=force)


def test_card_table_add_badge_remove_preview_fill_and_save(page, server, size):
    name = f"table{size}"
    kit.register(page, server.url, name)
    db = connect(server.db_path)
    try:
        user = get_user_by_name(db, name)
        add_cards(db, user["id"], EXTRA)  # 21 + 11 = 32 cards, the welcome pack still sealed
    finally:
        db.conn.close()
    page.goto(server.url + "/decks/new")
    # every owned card is drawn as a card, with the collection's card art
    assert page.locator("#pool-list .pool-card").count() == len(set(STARTER) | set(EXTRA))
    img = card(page, "orc").locator(".card-add img")
    assert re.search(r"/art/en/orc-[0-9a-f]{12}\.svg$", img.get_attribute("src"))
    assert page.locator("#pool-how").is_visible()
    shoot(page, "empty", size)

    # click / tap a card: one copy in, its badge says 1, the deck list shows it
    tap(page, card(page, "orc").locator(".card-add"), size)
    assert badge(page, "orc") == "1" and count(page) == 1
    tap(page, card(page, "orc").locator(".card-add"), size)
    tap(page, card(page, "orc").locator(".card-add"), size)
    assert badge(page, "orc") == "3" and count(page) == 3
    # a fourth is refused: Alice owns three (the card says so to assistive tech), and the page says so
    assert card(page, "orc").locator(".card-add").get_attribute("aria-disabled") == "true"
    tap(page, card(page, "orc").locator(".card-add"), size, force=True)
    assert badge(page, "orc") == "3" and count(page) == 3
    assert page.locator("#builder-say").text_content() == "You own 3 copies of Orc: all are in the deck."
    assert page.locator("#deck-list .deck-row[data-id='orc'] .deck-row-count").inner_text() == "3"
    for cid in ("merfolk-spearman", "sylph", "fireball"):
        tap(page, card(page, cid).locator(".card-add"), size)
    assert count(page) == 6 and badge(page, "fireball") == "1"

    # click in the deck list: one copy out; the last copy out takes the row and the badge away
    tap(page, page.locator("#deck-list .deck-row[data-id='orc'] .deck-row-remove"), size)
    assert badge(page, "orc") == "2" and count(page) == 5
    tap(page, page.locator("#deck-list .deck-row[data-id='fireball'] .deck-row-remove"), size)
    assert badge(page, "fireball") == "" and page.locator("#deck-list .deck-row[data-id='fireball']").count() == 0
    assert count(page) == 4

    # the card large: hover on a desktop, long-press on a phone (which does not add it)
    preview = page.locator("#card-preview")
    assert preview.is_hidden()
    target = card(page, "storm-giant").locator(".card-add")
    target.scroll_into_view_if_needed()
    if size == "phone":
        box = target.bounding_box()
        cdp = page.context.new_cdp_session(page)
        point = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
        expect(preview).to_be_visible()  # after the press has lasted (static/js/decks.js: 450 ms)
        assert re.search(r"/art/en/storm-giant-[0-9a-f]{12}\.svg$", preview.locator("img").get_attribute("src"))
        assert preview.bounding_box()["width"] > box["width"] * 2
        shoot(page, "preview", size)
        assert re.search(r"/art/en/storm-giant-[0-9a-f]{12}\.svg$", preview.locator("img").get_attribute("src"))
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(preview).to_be_hidden()  # a while after the release
        # a click right after the release is not taken for an add (static/js/decks.js): wait until that is over
        page.wait_for_function("() => !document.getElementById('pool-list').dataset.pressRead")
        assert badge(page, "storm-giant") == "" and count(page) == 4  # reading is not adding
    else:
        target.hover()
        assert preview.is_visible()
        assert re.search(r"/art/en/storm-giant-[0-9a-f]{12}\.svg$", preview.locator("img").get_attribute("src"))
        assert preview.bounding_box()["width"] >= 300
        shoot(page, "preview", size)
        page.mouse.move(5, 5)
        assert preview.is_hidden()

    # by keyboard: focus a card (the preview shows), Enter adds, "-" takes one out
    page.locator("#f-text").focus()
    page.keyboard.press("Tab")  # element select
    page.locator("#pool-list .pool-card[data-id='merfolk-harpooner'] .card-add").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # a keyboard move onto the card: :focus-visible
    assert page.evaluate("document.activeElement.dataset.id") == "merfolk-harpooner"
    assert preview.is_visible()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert badge(page, "merfolk-harpooner") == "2" and count(page) == 6
    page.keyboard.press("-")
    assert badge(page, "merfolk-harpooner") == "1" and count(page) == 5
    page.keyboard.press("Escape")
    assert preview.is_hidden()

    # filters still narrow the table
    page.select_option("#f-kind", "spell")
    shown = page.eval_on_selector_all("#pool-list .pool-card:not([hidden])", "els => els.map(e => e.dataset.id)")
    assert shown and all(POOL[c].kind == "spell" for c in shown)
    page.select_option("#f-kind", "")

    # the count in the bar leads to the deck (below the cards on a phone)
    tap(page, page.locator(".builder-bar .bar-count"), size)
    page.wait_for_function("() => document.querySelector('#builder-deck').getBoundingClientRect().top < 200")
    page.evaluate("window.scrollTo(0, 0)")

    chosen = {"orc": 2, "merfolk-spearman": 1, "sylph": 1, "merfolk-harpooner": 1}
    page.fill("#deck-name", "Table deck")
    shoot(page, "chosen", size)
    no_sideways_scroll(page)

    # Fill for me: 30 cards, the chosen ones kept, nothing saved yet
    page.click("#fill-button")
    page.wait_for_url(re.compile(r"/decks/new/fill$"))
    assert "Nothing is saved yet" in page.locator("#builder-notice").inner_text()
    assert count(page) == 30
    assert page.locator("#deck-status").inner_text() == "Ready to play"
    for cid, n in chosen.items():
        assert int(badge(page, cid)) >= n
    assert page.locator("#deck-name").input_value() == "Table deck"
    no_sideways_scroll(page)
    shoot(page, "filled", size)
    page.evaluate("document.querySelector('#deck-form .charts').scrollIntoView({block: 'center'})")
    shoot(page, "filled-charts", size)

    page.click("button:has-text('Save deck')")
    page.wait_for_url(re.compile(r"/decks/\d+$"))
    assert page.locator(".flash-success").inner_text() == "Saved “Table deck”: ready to play."
    db = connect(server.db_path)
    try:
        (deck,) = [d for d in list_decks(db, user["id"]) if not d["loaner"]]
        cards = get_deck(db, user["id"], deck["id"])["cards"]
    finally:
        db.conn.close()
    assert sum(cards.values()) == 30 and all(cards[c] >= n for c, n in chosen.items())
    owned = dict(STARTER)
    for c, n in EXTRA.items():
        owned[c] = owned.get(c, 0) + n
    assert check_deck(cards, POOL, owned).playable


def test_home_first_steps_and_history_after_registering(page, server, size):
    """A new account's home page lists its first steps, the first one next; opening the welcome pack
    ticks it; the match history is reachable from the home page."""
    name = f"home{size}"
    kit.register(page, server.url, name)
    page.goto(server.url + "/")
    steps = page.locator(".step-item")
    assert steps.count() == 4
    assert page.locator(".steps-progress").inner_text() == "0 of 4 done"
    assert "is-next" in steps.nth(0).get_attribute("class")
    no_sideways_scroll(page)
    shoot(page, "home-steps", size)
    steps.nth(0).locator("h3 a").click()
    page.wait_for_url(server.url + "/packs")
    page.click(".pack-sealed button:has-text('Open')")
    page.wait_for_url(re.compile(r"/packs/\d+$"))
    page.goto(server.url + "/")
    assert page.locator(".steps-progress").inner_text() == "1 of 4 done"
    assert "is-done" in steps.nth(0).get_attribute("class") and "is-next" in steps.nth(1).get_attribute("class")
    page.click("a:has-text('Your match history')")
    page.wait_for_url(server.url + "/history")
    assert "No games yet" in page.locator(".deck-empty").inner_text()
    no_sideways_scroll(page)
