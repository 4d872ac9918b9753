"""The collection page, card details, card art and packs, through Flask's test client and the real SQLite file."""

import html
import re

import pytest
from markupsafe import escape

from webapp import create_app
from webapp.decks import collection, packs
from webapp.engine import load_pool
from webapp.store import connect, get_collection, grant_pack, list_packs
from webapp.store.users import create_user

from .conftest import log_in, post

POOL = load_pool()


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


@pytest.fixture
def starter(db, alice):
    """Alice with the starter collection and her welcome pack; returns the pack's id."""
    packs.grant_starter(db, alice["id"])
    return list_packs(db, alice["id"])[0]["id"]


def page(response):
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def tiles(text):
    """{card id: (attributes of its tile)} from the collection page."""
    found = {}
    for m in re.finditer(r'<li class="coll-card([^"]*)"([^>]*)>', text):
        attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', m.group(2)))
        attrs["missing"] = "is-missing" in m.group(1)
        attrs["hidden"] = re.search(r"\shidden[\s>]", m.group(2) + ">") is not None
        found[attrs["id"]] = attrs
    return found


def shown(text):
    return {cid for cid, t in tiles(text).items() if not t["hidden"]}


# ---------------------------------------------------------------- login

@pytest.mark.parametrize("url", ["/collection", "/collection/card/orc", "/packs", "/packs/1"])
def test_pages_need_a_login(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")


def test_opening_a_pack_needs_a_login(client, db, alice, starter):
    response = post(client, f"/packs/{starter}/open")
    assert response.status_code == 302
    assert list_packs(db, alice["id"])[0]["opened_at"] is None


# ---------------------------------------------------------------- the collection page

def test_every_card_of_the_pool_is_listed(alice_client, starter):
    found = tiles(page(alice_client.get("/collection")))
    assert set(found) == set(POOL)


def test_owned_cards_in_full_the_rest_dimmed_with_count_0(alice_client, starter):
    found = tiles(page(alice_client.get("/collection")))
    for cid, tile in found.items():
        assert tile["count"] == str(packs.STARTER.get(cid, 0))
        assert tile["missing"] is (cid not in packs.STARTER)


def test_the_summary_counts_what_the_user_owns(alice_client, starter):
    text = page(alice_client.get("/collection"))
    assert f"You own <strong>{sum(packs.STARTER.values())}</strong> cards" in text
    assert f"<strong>{len(packs.STARTER)}</strong> of {len(POOL)} kinds" in text


def test_a_new_user_without_cards_sees_every_card_dimmed(alice_client):
    found = tiles(page(alice_client.get("/collection")))
    assert all(t["missing"] and t["count"] == "0" for t in found.values())


def client_of(config, tmp_path):
    """A logged-in client of a new app with ``config`` added (its own instance folder)."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "other", **config})
    db = connect(app.config["DATABASE"])
    user = create_user(db, "carol", "hash")
    db.conn.close()
    client = app.test_client()
    log_in(client, user)
    return client


def test_collection_all_mode_shows_every_card_owned(tmp_path):
    client = client_of({"COLLECTION": "all"}, tmp_path)
    found = tiles(page(client.get("/collection")))
    assert all(not t["missing"] and t["count"] == str(collection.ALL_COUNT) for t in found.values())


def test_each_card_carries_its_filter_and_search_data(alice_client):
    orc = tiles(page(alice_client.get("/collection")))["orc"]
    assert orc["element"] == "earth" and orc["tribe"] == "Orc" and orc["level"] == "1"
    assert orc["rarity"] == "C" and orc["kind"] == "monster" and orc["set"] == "1"
    search = html.unescape(orc["search"])
    assert "orc" in search and "おーく" in search  # katakana folded to hiragana (webapp/decks/search.py)


def test_search_text_holds_rules_in_both_languages(alice_client):
    hexer = html.unescape(tiles(page(alice_client.get("/collection")))["fireball"]["search"])
    assert "damage" in hexer
    assert "だめーじ" in hexer  # ダメージ, katakana folded (webapp/decks/search.py)


@pytest.mark.parametrize("query, card", [
    ("element=fire", "salamander"), ("tribe=Orc", "orc"), ("level=3", "stone-giant"), ("rarity=SR", "demon-monarch"),
    ("kind=spell", "fireball"), ("keyword=haste", "goblin-raider"), ("keyword=quick", "flashfire-fairy"),
    ("set=2", "demon-monarch"), ("q=orc", "orc"), ("q=オーク", "orc"), ("q=strikes+DESTROY", "flashfire-fairy"),
])
def test_without_script_the_form_filters_on_the_server(alice_client, query, card):
    text = page(alice_client.get(f"/collection?{query}"))
    visible = shown(text)
    assert card in visible
    assert len(visible) < len(POOL)
    assert f"Showing <span data-shown>{len(visible)}</span>" in text


def test_filters_combine(alice_client):
    visible = shown(page(alice_client.get("/collection?element=fire&kind=spell")))
    assert visible == {cid for cid, c in POOL.items() if c.element == "fire" and c.kind == "spell"}


def test_owned_filter(alice_client, starter):
    assert shown(page(alice_client.get("/collection?owned=owned"))) == set(packs.STARTER)
    assert shown(page(alice_client.get("/collection?owned=missing"))) == set(POOL) - set(packs.STARTER)


def test_a_search_matching_nothing_says_so(alice_client):
    text = page(alice_client.get("/collection?q=zzzzzz"))
    assert shown(text) == set()
    assert re.search(r'id="coll-empty"\s*>', text)  # not hidden


@pytest.mark.parametrize("query, problem", [
    ("element=plasma", "No element is called &#39;plasma&#39;"),
    ("level=99", "No level is called &#39;99&#39;"),
    ("tribe=" + "x" * 500, "No tribe is called"),
])
def test_unknown_filter_values_are_named_and_left_out(alice_client, query, problem):
    text = page(alice_client.get(f"/collection?{query}"))
    assert problem in text
    assert shown(text) == set(POOL)


def test_odd_parameters_do_no_harm(alice_client):
    text = page(alice_client.get("/collection?endpoint=x&_external=1&element=fire"))
    assert 'href="/collection?element=fire&amp;lang=ja"' in text


def test_an_oversize_search_is_cut(alice_client):
    text = page(alice_client.get("/collection?q=" + "o" * 5000))
    assert "cut to its first 100 characters" in text


def test_language_toggle_changes_the_card_faces_and_is_remembered(alice_client):
    text = page(alice_client.get("/collection?lang=ja"))
    assert re.search(r"/art/ja/orc-[0-9a-f]{12}\.svg", text)
    assert 'alt="オーク' in text
    again = page(alice_client.get("/collection"))
    assert re.search(r"/art/ja/orc-[0-9a-f]{12}\.svg", again)
    back = page(alice_client.get("/collection?lang=en"))
    assert re.search(r"/art/en/orc-[0-9a-f]{12}\.svg", back) and 'alt="Orc' in back


def test_the_language_of_one_card_detail_is_not_remembered(alice_client):
    assert 'data-lang="ja"' in page(alice_client.get("/collection/card/orc?lang=ja&fragment=1"))
    assert re.search(r"/art/en/orc-[0-9a-f]{12}\.svg", page(alice_client.get("/collection")))


def test_an_unknown_language_falls_back_to_english(alice_client):
    assert re.search(r"/art/en/orc-[0-9a-f]{12}\.svg", page(alice_client.get("/collection?lang=xx")))


def test_the_page_loads_its_own_css_and_script(alice_client):
    text = page(alice_client.get("/collection"))
    assert "/static/css/collection.css" in text and "/static/js/collection.js" in text
    assert alice_client.get("/static/js/collection.js").status_code == 200
    assert alice_client.get("/static/css/collection.css").status_code == 200


def test_the_pack_count_links_to_the_packs(alice_client, starter):
    text = page(alice_client.get("/collection"))
    assert 'href="/packs"' in text and 'aria-label="1 unopened"' in text


# ---------------------------------------------------------------- card detail and art

def test_card_detail_page(alice_client, starter):
    text = page(alice_client.get("/collection/card/merfolk-spearman"))
    assert "<svg" in text and 'data-card="merfolk-spearman"' in text
    assert "Merfolk Spearman" in text and POOL["merfolk-spearman"].data["name"]["ja"] in text
    assert str(escape(POOL["merfolk-spearman"].data["flavor"]["en"])) in text
    assert POOL["merfolk-spearman"].data["flavor"]["ja"] in text
    assert "You own <strong>×2</strong>" in text


def test_card_detail_shows_rules_in_both_languages(alice_client):
    text = page(alice_client.get("/collection/card/fireball"))
    from webapp.cards.text import rules_text
    assert str(escape(rules_text(POOL["fireball"], "en"))) in text
    assert str(escape(rules_text(POOL["fireball"], "ja"))) in text


def test_card_detail_of_a_card_not_owned(alice_client, starter):
    assert "Not in your collection yet" in page(alice_client.get("/collection/card/demon-monarch"))


def test_card_detail_fragment_for_the_dialog(alice_client):
    text = page(alice_client.get("/collection/card/orc?fragment=1&lang=ja"))
    assert text.lstrip().startswith("<article")
    assert "<html" not in text
    assert 'data-lang="ja"' in text


def test_unknown_card_is_404(alice_client):
    response = alice_client.get("/collection/card/no-such-card")
    assert response.status_code == 404
    assert "no-such-card" in response.get_data(as_text=True)


def test_card_art_is_a_cacheable_svg(client):
    response = client.get("/collection/art/en/orc.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg")
    assert "max-age" in response.headers["Cache-Control"]
    again = client.get("/collection/art/en/orc.svg", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("url", ["/collection/art/en/no-such-card.svg", "/collection/art/fr/orc.svg"])
def test_unknown_card_art_is_404(client, url):
    assert client.get(url).status_code == 404


# ---------------------------------------------------------------- packs

def test_packs_page_lists_unopened_packs_with_odds(alice_client, starter):
    text = page(alice_client.get("/packs"))
    assert "Welcome pack" in text
    assert f'action="/packs/{starter}/open"' in text
    assert "<span>Common</span> <strong>70%</strong>" in text
    assert "<span>Super rare</span> <strong>1%</strong>" in text


def test_packs_page_without_packs(alice_client):
    assert "No unopened packs" in page(alice_client.get("/packs"))


def test_packs_page_shows_configured_odds(tmp_path):
    client = client_of({"PACK_WEIGHTS": {"C": 1, "SR": 1}, "PACK_SIZE": 4}, tmp_path)
    text = page(client.get("/packs"))
    assert "<span>Common</span> <strong>50%</strong>" in text and "<span>Super rare</span> <strong>50%</strong>" in text
    assert "Uncommon" not in text and "4 cards" in text


def test_bad_pack_settings_stop_the_app_at_start(tmp_path):
    with pytest.raises(ValueError, match="PACK_WEIGHTS"):
        create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "bad", "PACK_WEIGHTS": {"C": -1}})


def test_opening_a_pack_adds_six_cards_and_shows_them(alice_client, db, alice, starter):
    response = post(alice_client, f"/packs/{starter}/open")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/packs/{starter}")
    [pack] = list_packs(db, alice["id"])
    assert pack["opened_at"] is not None and len(pack["cards"]) == 6
    owned = get_collection(db, alice["id"])
    assert sum(owned.values()) == sum(packs.STARTER.values()) + 6
    text = page(alice_client.get(f"/packs/{starter}"))
    assert text.count('class="pack-slot') == 6
    for cid in pack["cards"]:
        assert re.search(rf"/art/en/{cid}-[0-9a-f]{{12}}\.svg", text)
    assert 'id="pack-reveal"' in text and "/static/js/collection.js" in text


def test_an_unopened_pack_page_offers_to_open_it(alice_client, starter):
    text = page(alice_client.get(f"/packs/{starter}"))
    assert "Open this pack" in text and "pack-slot" not in text


def test_opening_twice_is_refused_and_changes_nothing(alice_client, db, alice, starter):
    post(alice_client, f"/packs/{starter}/open")
    before = get_collection(db, alice["id"])
    cards = list_packs(db, alice["id"])[0]["cards"]
    response = post(alice_client, f"/packs/{starter}/open", follow_redirects=True)
    assert "opened already" in page(response)
    assert get_collection(db, alice["id"]) == before
    assert list_packs(db, alice["id"])[0]["cards"] == cards


def test_after_opening_the_next_pack_is_offered(alice_client, db, alice, starter):
    second = grant_pack(db, alice["id"], "story:2")
    post(alice_client, f"/packs/{starter}/open")
    text = page(alice_client.get(f"/packs/{starter}"))
    assert f'action="/packs/{second}/open"' in text


def test_opening_without_the_csrf_token_is_refused(alice_client, db, alice, starter):
    response = alice_client.post(f"/packs/{starter}/open")
    assert response.status_code == 400
    assert list_packs(db, alice["id"])[0]["opened_at"] is None
    assert get_collection(db, alice["id"]) == packs.STARTER


def test_opening_with_a_wrong_csrf_token_is_refused(alice_client, db, alice, starter):
    response = alice_client.post(f"/packs/{starter}/open", data={"csrf_token": "forged"})
    assert response.status_code == 400
    assert list_packs(db, alice["id"])[0]["opened_at"] is None


def test_another_user_can_neither_open_nor_see_a_pack(app, db, alice, bob, starter):
    client = app.test_client()
    log_in(client, bob)
    assert post(client, f"/packs/{starter}/open").status_code == 404
    assert client.get(f"/packs/{starter}").status_code == 404
    assert "Welcome pack" not in page(client.get("/packs"))
    assert list_packs(db, alice["id"])[0]["opened_at"] is None
    assert get_collection(db, bob["id"]) == {}


def test_another_users_opened_pack_stays_private(app, alice_client, db, alice, bob, starter):
    post(alice_client, f"/packs/{starter}/open")
    client = app.test_client()
    log_in(client, bob)
    assert client.get(f"/packs/{starter}").status_code == 404


@pytest.mark.parametrize("url", ["/packs/999/open", "/packs/0/open"])
def test_opening_an_unknown_pack_is_404(alice_client, db, alice, starter, url):
    assert post(alice_client, url).status_code == 404
    assert get_collection(db, alice["id"]) == packs.STARTER


def test_a_pack_id_that_is_not_a_number_is_404(alice_client):
    assert post(alice_client, "/packs/abc/open").status_code == 404
    assert alice_client.get("/packs/abc").status_code == 404


def test_opening_by_get_is_not_allowed(alice_client, db, alice, starter):
    assert alice_client.get(f"/packs/{starter}/open").status_code == 405
    assert list_packs(db, alice["id"])[0]["opened_at"] is None


def test_opened_packs_are_listed_with_their_cards(alice_client, db, alice, starter):
    post(alice_client, f"/packs/{starter}/open")
    text = page(alice_client.get("/packs"))
    assert f'href="/packs/{starter}"' in text
    first = list_packs(db, alice["id"])[0]["cards"][0]
    assert str(escape(POOL[first].data["name"]["en"])) in text


def test_a_new_account_starts_with_the_starter_and_a_welcome_pack(client, db):
    """R2.3: registering gives fewer than 30 cards, so the loaner deck is what a newcomer plays."""
    response = post(client, "/register", {"name": "dora", "password": "correct horse battery",
                                          "confirm": "correct horse battery"})
    assert response.status_code == 302
    text = page(client.get("/collection"))
    assert f"You own <strong>{sum(packs.STARTER.values())}</strong> cards" in text
    assert "Welcome pack" in page(client.get("/packs"))


def test_hashed_card_art_is_immutable_and_a_stale_hash_moves_on(client):
    from webapp.web.cardfiles import art_file

    svg, digest = art_file("orc", "ja")
    response = client.get(f"/art/ja/orc-{digest}.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data() == svg and "オーク" in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    stale = client.get("/art/ja/orc-000000000000.svg")
    assert stale.status_code == 302 and stale.headers["Location"].endswith(f"/art/ja/orc-{digest}.svg")
    assert "immutable" not in stale.headers.get("Cache-Control", "")
    assert client.get(f"/art/fr/orc-{digest}.svg").status_code == 404
    assert client.get(f"/art/en/no-such-card-{digest}.svg").status_code == 404
