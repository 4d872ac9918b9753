"""Decks built for the player through the pages: Fill for me in the builder, "Build one for me",
and the first deck built when a collection first reaches 30 cards, told once on the next page."""

import re

import pytest

from webapp.decks import build as deckbuild, collection, packs
from webapp.decks.check import check_deck
from webapp.engine import load_pool
from webapp.store import add_cards, connect, get_deck, list_decks

from .conftest import post

POOL = load_pool()


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


def own_decks(db, user):
    return {d["name"]: get_deck(db, user["id"], d["id"])["cards"] for d in list_decks(db, user["id"])
            if not d["loaner"]}


def counts_in(page):
    """{card id: count} of the builder's count fields as rendered."""
    return {cid: int(n) for cid, n in re.findall(r'name="card:([a-z0-9-]+)" value="(\d+)"', page) if int(n)}


def test_fill_for_me_completes_a_partial_deck_keeping_the_chosen_cards_unsaved(alice_client, db, alice):
    add_cards(db, alice["id"], packs.STARTER)
    add_cards(db, alice["id"], {"kappa-sumo": 2, "orc": 8, "fireball": 1})
    chosen = {"orc": 3, "merfolk-spearman": 1}
    form = {f"card:{c}": str(n) for c, n in chosen.items()}
    response = post(alice_client, "/decks/new/fill", dict(form, name="Half"))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    deck = counts_in(page)
    assert sum(deck.values()) == 30
    assert all(deck[c] >= n for c, n in chosen.items())
    owned = collection.owned(db, alice["id"])
    assert check_deck(deck, POOL, owned).playable
    assert "Added 26 cards to the cards you chose. Nothing is saved yet" in page
    assert 'value="Half"' in page
    assert own_decks(db, alice) == {}  # nothing saved
    # saving what the page holds stores exactly that deck
    response = post(alice_client, "/decks/new", dict({f"card:{c}": str(n) for c, n in deck.items()}, name="Half"))
    assert response.status_code == 302
    assert own_decks(db, alice) == {"Half": deck}


def test_fill_for_me_on_a_saved_deck_and_on_a_full_one(alice_client, db, alice):
    add_cards(db, alice["id"], {"orc": 20, "salamander": 15})
    post(alice_client, "/decks/new", {"card:orc": "10", "name": "Orcs"})
    (deck_id,) = [d["id"] for d in list_decks(db, alice["id"]) if not d["loaner"]]
    page = post(alice_client, f"/decks/{deck_id}/fill", {"card:orc": "10", "name": "Orcs"}).get_data(as_text=True)
    deck = counts_in(page)
    assert sum(deck.values()) == 30 and deck["orc"] >= 10
    assert f'action="/decks/{deck_id}"' in page  # saving stays on this deck
    full = post(alice_client, f"/decks/{deck_id}/fill", {"card:orc": "20", "card:salamander": "10", "name": "Orcs"})
    assert "nothing to fill" in full.get_data(as_text=True)
    assert counts_in(full.get_data(as_text=True)) == {"orc": 20, "salamander": 10}


def test_fill_for_me_refuses_bad_counts_and_needs_csrf(alice_client, db, alice):
    add_cards(db, alice["id"], {"orc": 20})
    bad = post(alice_client, "/decks/new/fill", {"card:orc": "lots", "name": "X"})
    assert bad.status_code == 400 and "must be a whole number" in bad.get_data(as_text=True)
    assert alice_client.post("/decks/new/fill", data={"card:orc": "3"}).status_code in (400, 403)


def test_fill_for_me_on_another_users_deck_is_a_404(alice_client, db, bob):
    add_cards(db, bob["id"], {"orc": 30})
    from webapp.store import save_deck
    deck_id = save_deck(db, bob["id"], "Bob's", {"orc": 30})
    assert post(alice_client, f"/decks/{deck_id}/fill", {"card:orc": "3", "name": "Mine"}).status_code == 404


def test_build_one_for_me(alice_client, db, alice):
    add_cards(db, alice["id"], {"orc": 10})
    response = post(alice_client, "/decks/auto")
    assert response.status_code == 302 and own_decks(db, alice) == {}
    assert "you own 10" in alice_client.get("/decks").get_data(as_text=True)
    add_cards(db, alice["id"], packs.STARTER)
    assert "Build one for me" in alice_client.get("/decks").get_data(as_text=True)
    response = post(alice_client, "/decks/auto")
    assert response.status_code == 302
    (name, cards), = own_decks(db, alice).items()
    assert name == "My brigade" and check_deck(cards, POOL, collection.owned(db, alice["id"])).playable


def test_first_deck_after_a_pack_is_told_once_and_offered_where_decks_are_chosen(alice_client, db, alice):
    packs.grant_starter(db, alice["id"])
    add_cards(db, alice["id"], {"orc": 6})  # 27, as after the welcome pack
    packs.grant_pack(db, alice["id"], "win:game:1")
    (pack,) = [p for p in packs.list_packs(db, alice["id"]) if p["source"] != packs.WELCOME_SOURCE]
    response = post(alice_client, f"/packs/{pack['id']}/open")
    assert response.status_code == 303
    decks = own_decks(db, alice)
    assert list(decks) == [deckbuild.FIRST_DECK_NAME]
    page = alice_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "We built “My first brigade” from your cards" in page
    again = alice_client.get("/play").get_data(as_text=True)
    assert "We built" not in again
    assert "My first brigade" in again and "loaner deck" not in again  # the deck choice offers it
    assert re.search(r'My first brigade</span>\s*<span class="[^"]*\bplay-deck-tag">built for you</span>', again)
    assert "My first brigade" in alice_client.get("/lobby").get_data(as_text=True)
    # a new session is not told again
    from .conftest import log_in
    other = alice_client.application.test_client()
    log_in(other, alice)
    assert "We built" not in other.get("/").get_data(as_text=True)


def test_an_account_already_past_30_cards_gets_its_deck_where_decks_are_chosen(alice_client, db, alice):
    add_cards(db, alice["id"], packs.STARTER)
    add_cards(db, alice["id"], {"orc": 12})  # 33 cards given directly: no pack opened, no deck yet
    assert own_decks(db, alice) == {}
    assert "Build one for me" in alice_client.get("/decks").get_data(as_text=True)
    assert own_decks(db, alice) == {}  # the deck list does not build one by itself
    page = alice_client.get("/play").get_data(as_text=True)
    assert list(own_decks(db, alice)) == [deckbuild.FIRST_DECK_NAME]
    assert "We built “My first brigade” from your cards" in page  # before the page: told on it
    assert "My first brigade" in page
    alice_client.get("/lobby")
    html = alice_client.get("/story/first-muster").get_data(as_text=True)
    assert len(own_decks(db, alice)) == 1 and "My first brigade" in html


def test_deck_pages_home_and_history_show_no_rule_numbers_or_instance_ids(alice_client, db, alice):
    """Players read plain words: no rule numbers ("R2.1") and no unit ids ("p0c17") on these pages."""
    add_cards(db, alice["id"], {"orc": 20, "fireball": 12})
    from webapp.store import save_deck
    deck_id = save_deck(db, alice["id"], "Spells", {"fireball": 12, "orc": 10})  # tip, warning, too few
    for url in ("/", "/decks", "/decks/new", f"/decks/{deck_id}", "/decks/loaner/princes-brigade", "/history"):
        html = alice_client.get(url).get_data(as_text=True)
        body = re.sub(r"<script\b.*?</script>|<!--.*?-->", "", html.split("<body", 1)[1], flags=re.S)
        text = re.sub(r"<[^>]+>", " ", body)
        assert not re.search(r"\bR\d+\.\d+", text), (url, re.findall(r".{40}\bR\d+\.\d+.{20}", text))
        assert not re.search(r"\bp[01]c\d+\b", text), url
    page = alice_client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "A deck is exactly 30 cards: this one has 22. Add 8 cards." in page
    assert "Eringe" in page


def test_the_first_deck_built_outside_a_page_is_named_in_the_players_language(app, db, alice):
    """A story reward that makes 30 cards is often granted when the CPU's move ends the game, with no
    page of the player's open (no request): the deck is still named in their account's language."""
    from webapp.game import storychapters, storyprogress
    from webapp.i18n import MARK
    from webapp.store.marks import set_mark
    from webapp.store import transaction

    set_mark(db, alice["id"], MARK, "ja")
    packs.grant_starter(db, alice["id"])
    add_cards(db, alice["id"], {"merfolk-spearman": 6})  # 27, as after the welcome pack
    shield_wall = next(c for c in storychapters.chapters() if sum(c.reward["cards"].values()) == 3 and not c.reward["packs"])
    with app.app_context(), transaction(db):
        storyprogress.grant_reward(db, alice["id"], shield_wall)
    assert list(own_decks(db, alice)) == ["はじめての旅団"]


def test_the_deck_charts_name_the_elements_in_each_pages_language_whoever_came_first(app, make_user):
    """The charts' element names (the slot chart's rows: Water, Wind, …) follow the page's language,
    also after a page in the other language was drawn first (a template imported without context is
    kept once made by Jinja: nothing language-bound may be set at its top)."""
    from webapp.decks.collection import LOANER
    from webapp.i18n import MARK
    from webapp.store.marks import set_mark

    from .conftest import log_in
    clients = {}
    for lang in ("en", "ja"):
        user = make_user(f"charts{lang}")
        db = connect(app.config["DATABASE"])
        try:
            set_mark(db, user["id"], MARK, lang)
        finally:
            db.conn.close()
        clients[lang] = app.test_client()
        log_in(clients[lang], user)
    for lang in ("en", "ja", "en"):
        page = clients[lang].get(f"/decks/loaner/{LOANER}").get_data(as_text=True)
        labels = re.findall(r'<span class="cov-label"><span[^>]*></span>([^<]+)</span>', page)
        assert len(labels) == 6, labels
        expected = ["Fire", "Water", "Earth", "Wind", "Light", "Dark"] if lang == "en" else ["火", "水", "土", "風", "光", "闇"]
        assert labels == expected, (lang, labels)
