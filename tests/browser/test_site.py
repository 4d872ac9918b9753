"""The site in a real browser (issue 4): register, browse and filter the collection, open a card,
open the welcome pack, see the Prince's Brigade loaner deck, build a valid 30-card deck.

Each test drives Debian's chromium (Playwright, never a downloaded browser) against the real server,
``python -m webapp``, started as a subprocess on a free port with its own instance folder and
database. Every page is visited at desktop (1280×800) and phone (390×844) size, and the screenshots
are saved as docs/screenshots/site-<page>-<size>.png for people to look at.

The server is tests/browserkit.py's; the fixtures live in this file (tests/browser/ is shared with the
play-page tests).
"""

import contextlib
import itertools
import os
import re
import tomllib

import pytest
from playwright.sync_api import expect

from tests import browserkit as kit
from tests import stillpage
from tests.browserkit import PASSWORD, ROOT, SIZES, Server, no_sideways_scroll, watched_page
from tests.conftest import shots_dir

from webapp.decks.stats import deck_stats, pool_levels
from webapp.engine import load_pool
from webapp.decks.packs import STARTER
from webapp.web.collection import normalize, search_text

SHOTS = shots_dir()

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_names = itertools.count(1)


# ---------------------------------------------------------------- the server and the browser


@pytest.fixture(scope="module")
def earn_server(tmp_path_factory):
    """The server as a host runs it by default: a new account gets the starter collection and a pack."""
    server = Server(tmp_path_factory.mktemp("earn"))
    yield server
    server.stop()
    assert server.proc.returncode is not None


@pytest.fixture(scope="module")
def all_server(tmp_path_factory):
    """The server with instance/config.py ``COLLECTION = "all"``: everyone owns every card."""
    server = Server(tmp_path_factory.mktemp("all"), 'COLLECTION = "all"\n')
    yield server
    server.stop()
    assert server.proc.returncode is not None


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


@pytest.fixture
def page(browser, size):
    """A page in a fresh context (no cookies) at desktop or phone size; a script error fails the test."""
    with watched_page(browser, SIZES[size], timeout=15_000) as page:
        yield page


@pytest.fixture(scope="module")
def pool():
    return load_pool()


# ---------------------------------------------------------------- helpers


def new_name(size):
    return f"{size}{os.getpid() % 10000}x{next(_names)}"


def shoot(page, name, size, full_page=True):
    """Save docs/screenshots/site-<name>-<size>.png (after the fonts are in and the page is still)."""
    return stillpage.shoot(page, SHOTS / f"site-{name}-{size}.png", full_page=full_page)


def register(page, base, name):
    """Register ``name`` through the form (tests/browserkit.py) and land on the front page, logged in."""
    kit.register(page, base, name)
    page.wait_for_url(base + "/")
    assert page.locator(".flash-success").inner_text() == f"Welcome to Brigade, {name}!"
    assert page.locator(".site-user-name").inner_text() == name


def visible_cards(page):
    """The ids of the collection cards shown now."""
    return set(page.eval_on_selector_all("#coll-grid .coll-card:not([hidden])", "els => els.map(e => e.dataset.id)"))


def shown_count(page):
    return int(page.locator("#coll-count [data-shown]").inner_text())


def open_filters(page):
    """On a phone the filters fold away under their summary: unfold them."""
    if not page.locator("#coll-more").evaluate("d => d.open"):
        page.click("#coll-more summary")
    assert page.locator("#coll-more select[name=element]").is_visible()


def search(page, text):
    page.fill("input[name=q]", text)


def expect_cards(page, expected):
    """Wait until the grid shows exactly ``expected`` (the filters apply on the next animation frame)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    expected = sorted(set(expected))
    # the same ids shown and counted (a count alone may be the same before and after a change); on a
    # timeout the asserts below say what differs
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("""want => {
            const ids = [...document.querySelectorAll('#coll-grid .coll-card:not([hidden])')].map(e => e.dataset.id);
            const shown = Number(document.querySelector('#coll-count [data-shown]').textContent);
            return shown === want.length && JSON.stringify(ids.sort()) === JSON.stringify(want);
        }""", arg=expected, timeout=5_000)
    expected = set(expected)
    assert visible_cards(page) == expected
    assert shown_count(page) == len(expected)
    assert page.locator("#coll-empty").is_hidden() == bool(expected)


# ---------------------------------------------------------------- register


def test_register(page, earn_server, size):
    """The form refuses two different passwords with a message by the field, then makes the account."""
    base, name = earn_server.url, new_name(size)
    page.goto(base + "/register")
    assert page.title() == "Register · Brigade"
    for field in ("#name", "#password", "#confirm"):
        assert page.locator(field).is_visible()
    no_sideways_scroll(page)
    shoot(page, "register", size)

    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD + "!")
    page.click("button:has-text('Create my account')")
    assert page.locator("#confirm-error").inner_text() == "The two passwords differ."
    assert page.locator("#confirm").get_attribute("aria-invalid") == "true"
    assert page.locator("#name").input_value() == name  # kept for the second try
    assert page.locator(".site-user-name").count() == 0  # not logged in

    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("button:has-text('Create my account')")
    page.wait_for_url(base + "/")
    assert page.locator(".flash-success").inner_text() == f"Welcome to Brigade, {name}!"
    assert page.locator(".site-user-name").inner_text() == name
    # The name is taken now, for anyone, in any case.
    other = page.context.browser.new_context(**SIZES[size]).new_page()
    try:
        other.goto(base + "/register")
        other.fill("#name", name.upper())
        other.fill("#password", PASSWORD)
        other.fill("#confirm", PASSWORD)
        other.click("button:has-text('Create my account')")
        assert other.locator("#name-error").is_visible()
        assert other.locator(".site-user-name").count() == 0
    finally:
        other.context.close()


@pytest.mark.parametrize("size", ["phone"])
def test_longest_name_fits_a_phone(page, earn_server, size):
    """A name of the longest allowed length still leaves every page within a phone's width."""
    register(page, earn_server.url, "W" * 32)
    for path in ("/", "/collection", "/decks"):
        page.goto(earn_server.url + path)
        no_sideways_scroll(page)


# ---------------------------------------------------------------- the collection


def test_collection_filters_search_and_detail(page, earn_server, size, pool):
    """Every card is listed, the starter cards owned; element and English/Japanese text filters show
    exactly the matching cards; a click opens the card's detail."""
    base = earn_server.url
    register(page, base, new_name(size))
    page.click(".site-nav a:has-text('Collection')")
    page.wait_for_url(base + "/collection")
    everything = set(pool)
    expect_cards(page, everything)
    summary = page.locator(".coll-summary").inner_text()
    assert f"You own {sum(STARTER.values())} cards" in summary and f"{len(STARTER)} of {len(pool)} kinds" in summary
    owned = set(page.eval_on_selector_all(".coll-card:not(.is-missing)", "els => els.map(e => e.dataset.id)"))
    assert owned == set(STARTER)
    assert page.locator(".coll-card[data-id='sylph'] .coll-count-badge").inner_text().startswith("×2")

    open_filters(page)
    water = {cid for cid, c in pool.items() if c.element == "water"}
    page.select_option("select[name=element]", "water")
    expect_cards(page, water)
    assert "element=water" in page.url  # kept in the address for a reload or a link
    assert page.locator("[data-active]").inner_text() == "1"

    def matching(words, among):
        return {cid for cid in among if all(normalize(w) in search_text(pool[cid]) for w in words.split())}

    # English, combined with the element: the one water giant.
    search(page, "giant")
    assert matching("giant", water) == {"frost-giant"}
    expect_cards(page, {"frost-giant"})
    # The same in Japanese, and in full-width capitals (NFKC-folded, as the server does).
    search(page, "ジャイアント")
    expect_cards(page, {"frost-giant"})
    search(page, "ＧＩＡＮＴ")
    expect_cards(page, {"frost-giant"})

    # Across every element: the giants of all elements, in Japanese and in English.
    page.select_option("select[name=element]", "")
    search(page, "ジャイアント")
    giants = matching("ジャイアント", everything)
    assert {"fire-giant", "frost-giant", "stone-giant", "storm-giant"} <= giants
    expect_cards(page, giants)
    search(page, "giant")
    assert matching("giant", everything) >= giants
    expect_cards(page, matching("giant", everything))
    # Two words must both match: a Japanese one and an English one.
    search(page, "ジャイアント frost")
    expect_cards(page, {"frost-giant"})
    search(page, "シルフ")
    expect_cards(page, {"sylph"})
    search(page, "no such card anywhere")
    expect_cards(page, set())
    assert page.locator("#coll-empty").inner_text() == "No card matches these filters."

    # The screenshot: the water merfolk, owned ones in full and the rest dimmed.
    page.select_option("select[name=element]", "water")
    search(page, "マーフォーク")
    merfolk = matching("マーフォーク", water)
    assert matching("merfolk", water) == merfolk and len(merfolk) > 3
    expect_cards(page, merfolk)
    search(page, "merfolk")
    expect_cards(page, merfolk)
    dimmed = set(page.eval_on_selector_all(".coll-card.is-missing:not([hidden])", "els => els.map(e => e.dataset.id)"))
    assert dimmed == merfolk - set(STARTER) and dimmed and merfolk & set(STARTER)
    page.evaluate("window.scrollTo(0, 0)")
    no_sideways_scroll(page)
    shoot(page, "collection", size)

    # Card detail: a click opens the dialog with the big card, rules and flavour in both languages.
    page.click(".coll-card[data-id='merfolk-harpooner'] .coll-link")
    dialog = page.locator("#coll-dialog")
    dialog.locator(".coll-detail[data-card='merfolk-harpooner']").wait_for()
    assert dialog.evaluate("d => d.open")
    assert dialog.locator(".coll-detail-name").inner_text() == "Merfolk Harpooner"
    assert dialog.locator(".coll-owned").inner_text() == "You own ×2"
    harpooner = pool["merfolk-harpooner"].data["name"]
    assert dialog.locator("section.coll-text[lang=en] h3").inner_text().startswith(harpooner["en"])
    assert dialog.locator("section.coll-text[lang=ja] h3").inner_text().startswith(harpooner["ja"])
    assert dialog.locator("section.coll-text[lang=en] .coll-rules").first.inner_text().startswith("[Normal]")
    assert dialog.locator(".coll-detail-face svg").is_visible()
    expect(dialog.locator(".coll-dialog-body")).not_to_have_attribute("aria-busy", "true")  # its fragment is in
    no_sideways_scroll(page)
    shoot(page, "card", size, full_page=False)
    # The arrows step through the filtered cards only.
    seen = {"merfolk-harpooner"}
    for _ in range(len(merfolk) - 1):
        dialog.locator(".coll-nav[data-step='1']").click()
        page.wait_for_function("seen => !seen.includes(document.querySelector('#coll-dialog .coll-detail')"
                               "?.dataset.card ?? seen[0])", arg=sorted(seen))
        seen.add(dialog.locator(".coll-detail").get_attribute("data-card"))
    assert seen == merfolk
    dialog.locator(".coll-close").click()
    assert not dialog.evaluate("d => d.open")

    # Clear brings every card back; the detail page works on its own too.
    page.click(".coll-reset")
    expect_cards(page, everything)
    page.goto(base + "/collection/card/healing-rain?lang=ja")
    assert page.locator(".coll-detail-name").inner_text() == "癒しの雨"


# ---------------------------------------------------------------- packs and the loaner deck


def test_welcome_pack_and_loaner_deck(page, earn_server, size, pool):
    """A new account opens its welcome pack (27 cards then: fewer than 30), so the Prince's Brigade
    is listed as a loaner deck; its page shows its cards and charts."""
    base = earn_server.url
    register(page, base, new_name(size))
    starter = sum(STARTER.values())

    page.goto(base + "/collection")
    assert page.locator(".coll-packs-link .coll-badge").inner_text() == "1"
    page.click(".coll-packs-link")
    page.wait_for_url(base + "/packs")
    assert page.locator(".pack-sealed h3").inner_text() == "Welcome pack"
    page.click(".pack-sealed button:has-text('Open')")
    page.wait_for_url(re.compile(r"/packs/\d+$"))
    slots = page.locator("#pack-reveal .pack-slot")
    assert slots.count() == 6
    assert page.locator("#pack-reveal .pack-slot.is-down").count() == 6  # face down, one by one
    page.click("#pack-next")
    assert page.locator("#pack-reveal .pack-slot.is-down").count() == 5
    assert page.locator("#pack-status").inner_text().startswith("Card 1: ")
    page.click("#pack-all")
    page.wait_for_function("() => !document.querySelector('#pack-reveal .is-down')")
    assert page.locator("#pack-after").is_visible()
    page.click("#pack-after a:has-text('See your collection')")
    assert f"You own {starter + 6} cards" in page.locator(".coll-summary").inner_text()
    assert page.locator(".coll-packs-link .coll-badge").count() == 0

    # Decks: no deck of one's own yet, the loaner listed.
    page.click(".site-nav a:has-text('Decks')")
    page.wait_for_url(base + "/decks")
    assert f"You own {starter + 6} cards." in page.locator(".lede-small").inner_text()
    loaner = page.locator(".deck-card-loaner")
    assert loaner.count() == 1
    assert loaner.locator(".deck-card-name").inner_text() == "Prince's Brigade"
    assert loaner.locator(".badge-loaner").inner_text() == "Loaner"
    assert re.fullmatch(r"30 cards · you own \d+ of them", loaner.locator(".deck-card-size").inner_text())
    no_sideways_scroll(page)
    shoot(page, "decks", size)

    loaner.locator("a").click()
    page.wait_for_url(base + "/decks/loaner/princes-brigade")
    assert page.locator("h1").inner_text().startswith("Prince's Brigade")
    assert page.locator("h1 .name-ja").inner_text() == "王子の旅団"
    assert page.locator(".page-head .badge-loaner").is_visible()
    counts = [int(t.split("×")[0]) for t in page.locator(".loaner-card-line strong").all_inner_texts()]
    assert sum(counts) == 30
    assert page.locator(".loaner-card svg").count() == len(counts)
    assert page.locator(".loaner-card svg").first.is_visible()
    with open(ROOT / "cards" / "decks" / "princes-brigade.toml", "rb") as f:
        brigade = tomllib.load(f)["deck"]["cards"]
    assert sorted(counts) == sorted(brigade.values())
    stats = deck_stats(brigade, pool, pool_levels(pool))
    assert page.locator(".chart-ratio [data-text=ratio]").inner_text() == \
        f"{stats['monsters']} monsters · {stats['spells']} spells"
    kept = int(page.locator(".loaner-copy strong").inner_text())
    button = page.locator(".loaner-copy button.button-primary")  # beside it: copy and fill the gaps
    assert button.inner_text().startswith(f"Copy {kept} card")
    assert button.is_disabled() == (kept == 0)
    no_sideways_scroll(page)
    shoot(page, "loaner", size)


def test_builder_keeps_to_owned_cards(page, earn_server, size):
    """With the starter collection the + buttons stop at the copies owned, and the starter (21 cards) saves as a draft."""
    base = earn_server.url
    register(page, base, new_name(size))
    page.goto(base + "/decks/new")
    page.fill("#deck-name", "Starter cards")
    for cid, n in STARTER.items():
        plus = page.locator(f".pool-row[data-id='{cid}'] .step[data-step='1']")
        for _ in range(n):
            plus.click()
        assert plus.is_disabled(), f"{cid}: + still enabled at the {n} copies owned"
    total = sum(STARTER.values())
    assert page.locator("#deck-count").inner_text() == str(total)
    assert page.locator("#deck-status").inner_text() == "Not ready to play yet"
    problems = page.locator("#deck-problems .problem-invalid").all_inner_texts()
    assert problems == [f"A deck is exactly 30 cards: this one has {total}. Add {30 - total} cards."]
    page.click("button:has-text('Save deck')")
    page.wait_for_url(re.compile(r"/decks/\d+$"))
    assert page.locator(".flash-success").inner_text() == \
        f"Saved “Starter cards” as a draft ({total}/30 cards): not ready to play yet."
    page.goto(base + "/decks")
    mine = page.locator(".deck-card:not(.deck-card-loaner)")
    assert mine.locator(".deck-card-name").inner_text() == "Starter cards"
    assert mine.locator(".badge-draft").is_visible()


@pytest.mark.parametrize("size", ["phone"])
def test_deck_rows_fit_the_deck_panel_on_a_phone(page, earn_server, size):
    """Every row of the deck list stays inside the list, so the − and + buttons stay inside the panel."""
    register(page, earn_server.url, new_name(size))
    page.goto(earn_server.url + "/decks/new")
    for cid in ("merfolk-harpooner", "elf-windarcher", "sylph"):
        page.click(f".pool-row[data-id='{cid}'] .step[data-step='1']")
    sticking_out = page.evaluate("""() => {
        const list = document.querySelector('#deck-list').getBoundingClientRect();
        return [...document.querySelectorAll('#deck-list .deck-row')]
            .map(r => [r.dataset.id, Math.round(r.getBoundingClientRect().right - list.right)])
            .filter(([, out]) => out > 0);
    }""")
    assert not sticking_out, f"deck rows past the list's right edge (id, px): {sticking_out}"


# ---------------------------------------------------------------- a valid deck


#: 25 fire and earth monsters and 5 spells they can pay for: 30 cards, no warning.
DECK = {"flame-warden": 3, "blaze-knight": 3, "salamander": 3, "ember-drake": 3, "dwarf-forgehand": 3,
        "orc": 3, "goblin-raider": 3, "magma-golem": 2, "stone-giant": 2, "fireball": 3, "stone-skin": 2}


def chart_state(page):
    """What the builder's charts say now: the ratio line, the level bars' heights, the element legend."""
    return page.evaluate("""() => ({
        ratio: document.querySelector('#deck-form [data-text=ratio]').textContent.trim(),
        bars: [...document.querySelectorAll('#deck-form [data-bar=level]')].map(b => Number(b.getAttribute('height'))),
        levels: [...document.querySelectorAll('#deck-form [data-text=level]')].map(t => Number(t.textContent)),
        elements: [...document.querySelectorAll('#deck-form [data-text=element]:not([hidden])')].map(li => li.textContent.trim()),
        coverage: [...document.querySelectorAll('#deck-form [data-row=coverage]:not([hidden])')].map(li => li.dataset.key),
    })""")


def test_build_a_valid_deck(page, all_server, size, pool):
    """With every card owned (COLLECTION = "all"): no loaner; 30 cards added with the + buttons turn
    the live message valid and move the charts; the saved deck is listed as ready."""
    base = all_server.url
    register(page, base, new_name(size))
    page.click(".site-nav a:has-text('Decks')")
    page.wait_for_url(base + "/decks")
    assert page.locator(".deck-card-loaner").count() == 0  # everything owned: no loaner (R2.3)
    page.click("a:has-text('New deck')")
    page.wait_for_url(base + "/decks/new")
    assert page.locator("#pool-list .pool-row").count() == len(pool)
    page.fill("#deck-name", "Fire and Earth")

    empty = chart_state(page)
    assert empty["ratio"] == "0 monsters · 0 spells" and not any(empty["bars"]) and not empty["elements"]
    assert page.locator("#deck-status").inner_text() == "Not ready to play yet"
    assert "this one has 0. Add 30 cards." in page.locator("#deck-problems").inner_text()

    added = 0
    for i, (cid, n) in enumerate(DECK.items()):
        if i == 0:  # find the first card with the builder's own search, as a player would
            page.fill("#f-text", pool[cid].data["name"]["ja"])
            assert page.locator("#pool-list .pool-row:not([hidden])").count() == 1
        plus = page.locator(f".pool-row[data-id='{cid}'] .step[data-step='1']")
        for _ in range(n):
            plus.click()
            added += 1
            if added < 30:
                assert page.locator("#deck-status").inner_text() == "Not ready to play yet"
                assert f"this one has {added}. Add {30 - added} card" in page.locator("#deck-problems").inner_text()
        if i == 0:
            page.fill("#f-text", "")
            assert page.locator("#pool-list .pool-row:not([hidden])").count() == len(pool)
        assert page.locator("#deck-count").inner_text() == str(added)
        assert page.locator(f"#deck-list .deck-row[data-id='{cid}'] .deck-row-count").inner_text() == str(n)

    # 30 cards: valid, nothing to fix, and every + is disabled (the deck is full).
    assert page.locator("#deck-status").inner_text() == "Ready to play"
    assert "is-ready" in page.locator("#deck-status").get_attribute("class")
    assert page.locator("#bar-status").inner_text() == "Ready"
    assert page.locator("#deck-problems li").count() == 0
    assert page.locator("#eringe").is_hidden()
    assert page.locator("#pool-list .step[data-step='1']:not([disabled])").count() == 0

    # The charts say what webapp.decks.stats says of the deck.
    stats = deck_stats(DECK, pool, pool_levels(pool))
    drawn = chart_state(page)
    assert drawn["ratio"] == f"{stats['monsters']} monsters · {stats['spells']} spells" == "25 monsters · 5 spells"
    assert drawn["levels"] == [row["count"] for row in stats["levels"]]
    assert [h > 0 for h in drawn["bars"]] == [row["count"] > 0 for row in stats["levels"]]
    assert max(drawn["bars"]) == 56  # the tallest bar fills the chart
    assert drawn["elements"] == ["Fire 20 (3 spells)", "Earth 10 (2 spells)"]
    assert drawn["coverage"] == ["fire", "earth"]
    assert page.locator("#deck-form .cov-row.cov-ok:not([hidden])").count() == 2

    no_sideways_scroll(page)
    page.evaluate("window.scrollTo(0, 0)")
    # Screen-sized shots (the Save bar sticks to the bottom of the screen): the deck and its
    # message, then its charts (below the list on a phone, inside the deck's sticky panel on a desktop).
    shoot(page, "builder", size, full_page=False)
    page.evaluate("document.querySelector('#deck-form .charts').scrollIntoView({block: 'center'})")
    shoot(page, "builder-charts", size, full_page=False)

    # One card too many is not possible with +, and taking one out makes it a draft again, live.
    page.locator("#deck-list .deck-row[data-id='orc'] .step[data-step='-1']").click()
    assert page.locator("#deck-status").inner_text() == "Not ready to play yet"
    assert chart_state(page)["elements"] == ["Fire 20 (3 spells)", "Earth 9 (2 spells)"]
    page.locator("#deck-list .deck-row[data-id='orc'] .step[data-step='1']").click()
    assert page.locator("#deck-status").inner_text() == "Ready to play"

    page.click("button:has-text('Save deck')")
    page.wait_for_url(re.compile(r"/decks/\d+$"))
    assert page.locator(".flash-success").inner_text() == "Saved “Fire and Earth”: ready to play."
    assert page.locator("h1").inner_text() == "Fire and Earth"
    saved = {cid: int(v) for cid, v in page.eval_on_selector_all(
        "#pool-list input.count", "els => els.filter(e => Number(e.value) > 0).map(e => [e.name.slice(5), e.value])")}
    assert saved == DECK
    assert page.locator("#export-code").input_value().startswith("BRG1-")

    page.click(".crumbs a:has-text('Decks')")
    page.wait_for_url(base + "/decks")
    deck = page.locator(".deck-card:not(.deck-card-loaner)")
    assert deck.count() == 1
    assert deck.locator(".deck-card-name").inner_text() == "Fire and Earth"
    assert deck.locator(".deck-card-size").inner_text() == "30/30 cards"
    assert deck.locator(".badge-ready").inner_text() == "Ready"
