"""Crafting, deck lists as text and the loaner as a start, through the pages (docs/cards.md "Crafting",
docs/decks.md): the forms, a double submit, racing requests on the threading server, and lists in both
languages."""

import html
import re
import threading
from werkzeug.serving import make_server

import pytest

from tests.web.conftest import log_in, post
from webapp.decks.crafting import CRAFT, DISENCHANT
from webapp.engine import load_pool
from webapp.store import add_cards, connect, get_collection, get_deck, list_decks, save_deck
from webapp.store import shards as store_shards

POOL = load_pool()
COMMON = "merfolk-spearman"
THIRTY = {"orc": 10, "salamander": 8, "fireball": 4, "merfolk-spearman": 8}


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


def page(response):
    return html.unescape(response.get_data(as_text=True))


def give_shards(db, user, n):
    store_shards.exchange(db, user["id"], n, "reward", {"source": "test"})


def own_decks(db, user):
    return {d["name"]: get_deck(db, user["id"], d["id"])["cards"] for d in list_decks(db, user["id"])
            if not d["loaner"]}


# ---------------------------------------------------------------- the card detail

def test_card_detail_offers_craft_and_the_spare_copies(alice_client, db, alice):
    add_cards(db, alice["id"], {COMMON: 3})
    save_deck(db, alice["id"], "Tide", {COMMON: 1})
    give_shards(db, alice, 7)
    body = page(alice_client.get(f"/collection/card/{COMMON}"))
    assert "Your shards: 7" in body.replace("<strong>", "").replace("</strong>", "")
    assert f"Craft a copy ({CRAFT['C']} shards)" in body
    assert f"Disenchant the 2 spare copies (+{2 * DISENCHANT['C']} shards)" in body
    assert 'name="expect" value="7"' in body


def test_disenchant_from_the_card_page_and_its_double_submit(alice_client, db, alice):
    add_cards(db, alice["id"], {COMMON: 3})
    first = post(alice_client, f"/collection/card/{COMMON}/disenchant", {"copies": "1", "expect": "0"})
    assert first.status_code == 303
    again = post(alice_client, f"/collection/card/{COMMON}/disenchant", {"copies": "1", "expect": "0"})
    assert again.status_code == 303
    assert "this request did nothing" in page(alice_client.get(again.headers["Location"]))
    assert get_collection(db, alice["id"])[COMMON] == 2
    assert store_shards.get_balance(db, alice["id"]) == DISENCHANT["C"] == store_shards.ledger_sum(db, alice["id"])


def test_crafting_without_the_shards_changes_nothing(alice_client, db, alice):
    response = post(alice_client, f"/collection/card/{COMMON}/craft", {"expect": "0"})
    assert "costs 40 shards and you have 0" in page(alice_client.get(response.headers["Location"]))
    assert get_collection(db, alice["id"]) == {}


@pytest.mark.parametrize("form", [{"expect": "abc"}, {}, {"expect": "1e9"}, {"expect": "0", "copies": "-1"},
                                  {"expect": "0", "copies": "９"}, {"expect": "0", "copies": "99999"}])
def test_nonsense_forms_change_nothing_and_never_500(alice_client, db, alice, form):
    add_cards(db, alice["id"], {COMMON: 3})
    for action in ("craft", "disenchant"):
        assert post(alice_client, f"/collection/card/{COMMON}/{action}", form).status_code == 303
    assert post(alice_client, "/collection/card/no-such-card/craft", {"expect": "0"}).status_code == 404
    assert get_collection(db, alice["id"]) == {COMMON: 3} and store_shards.get_balance(db, alice["id"]) == 0


def test_crafting_needs_a_login_and_the_csrf_token(client, alice_client, db, alice):
    give_shards(db, alice, 100)
    assert client.post(f"/collection/card/{COMMON}/craft", data={"expect": "100"}).status_code in (302, 303, 400, 403)
    assert alice_client.post(f"/collection/card/{COMMON}/craft", data={"expect": "100"}).status_code in (400, 403)
    assert get_collection(db, alice["id"]) == {}


def test_racing_craft_requests_on_the_threading_server_craft_once(app, db, alice):
    """Eight requests from one page (the same expected balance) race on a real threading server."""
    give_shards(db, alice, 8 * CRAFT["C"])
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        import http.cookiejar
        import urllib.parse
        import urllib.request
        client = app.test_client()
        token = log_in(client, alice)
        cookie = client.get_cookie("session")
        url = f"http://127.0.0.1:{server.server_port}/collection/card/{COMMON}/craft"
        body = urllib.parse.urlencode({"expect": str(8 * CRAFT["C"]), "csrf_token": token}).encode()
        barrier, codes = threading.Barrier(8), []

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        def one():
            opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            request = urllib.request.Request(url, data=body, headers={"Cookie": f"session={cookie.value}"})
            barrier.wait()
            try:
                codes.append(opener.open(request).status)
            except urllib.error.HTTPError as exc:
                codes.append(exc.code)

        workers = [threading.Thread(target=one) for _ in range(8)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        server.shutdown()
    assert codes == [303] * 8
    assert get_collection(db, alice["id"]) == {COMMON: 1}
    assert store_shards.get_balance(db, alice["id"]) == 7 * CRAFT["C"] == store_shards.ledger_sum(db, alice["id"])


def test_collection_page_shows_the_balance(alice_client, db, alice):
    give_shards(db, alice, 123)
    assert "123 shards" in page(alice_client.get("/collection"))


# ---------------------------------------------------------------- deck lists as text

def test_export_in_both_languages(alice_client, db, alice):
    add_cards(db, alice["id"], THIRTY)
    deck_id = save_deck(db, alice["id"], "Mine", THIRTY)
    en = alice_client.get(f"/decks/{deck_id}/list?lang=en").get_data(as_text=True)
    ja = alice_client.get(f"/decks/{deck_id}/list?lang=ja").get_data(as_text=True)
    assert "8 Merfolk Spearman" in en.splitlines()
    assert f"8 {POOL[COMMON].data['name']['ja']}" in ja.splitlines()
    builder = page(alice_client.get(f"/decks/{deck_id}"))
    assert "Card list (of the saved deck)" in builder and "10 Orc" in builder


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_list_pasted_in_either_language_imports_the_same_deck(alice_client, db, alice, lang):
    add_cards(db, alice["id"], THIRTY)
    deck_id = save_deck(db, alice["id"], "Mine", THIRTY)
    listed = alice_client.get(f"/decks/{deck_id}/list?lang={lang}").get_data(as_text=True)
    response = post(alice_client, "/decks/import", {"code": listed, "name": f"Pasted {lang}"})
    assert response.status_code == 302
    assert own_decks(db, alice)[f"Pasted {lang}"] == THIRTY


def test_import_reports_unknown_names_and_stores_nothing(alice_client, db, alice):
    add_cards(db, alice["id"], THIRTY)
    response = post(alice_client, "/decks/import", {"code": "2 Orc\n3 Orcc\n\n0 Salamander\n"})
    assert response.status_code == 400
    body = page(response)
    assert "Line 2: no card is called “3 Orcc”" in body and "Line 4: a count is from 1 to 30" in body
    assert own_decks(db, alice) == {}


def test_import_never_stores_a_list_over_30_cards(alice_client, db, alice):
    add_cards(db, alice["id"], {"orc": 40})
    response = post(alice_client, "/decks/import", {"code": "20 Orc\n11 orc"})
    assert response.status_code == 400 and "Take out 1 card" in page(response)
    assert own_decks(db, alice) == {}


def test_import_keeps_the_owned_cards_and_offers_to_craft_the_rest(alice_client, db, alice):
    add_cards(db, alice["id"], {"orc": 2})
    give_shards(db, alice, 1000)
    response = post(alice_client, "/decks/import", {"code": "4 ｵｰｸ\n2 オーク\n1 FIREBALL", "name": "Half"})
    deck_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert own_decks(db, alice) == {"Half": {"orc": 2}}
    builder = page(alice_client.get(f"/decks/{deck_id}"))
    cost = 4 * CRAFT[POOL["orc"].rarity] + CRAFT[POOL["fireball"].rarity]
    assert f"Craft the 5 cards this deck lacks ({cost} shards)" in builder
    done = post(alice_client, f"/decks/{deck_id}/craft", {"expect": "1000"})
    assert done.status_code == 303
    assert own_decks(db, alice) == {"Half": {"orc": 6, "fireball": 1}}
    assert get_collection(db, alice["id"]) == {"orc": 6, "fireball": 1}
    assert store_shards.get_balance(db, alice["id"]) == 1000 - cost
    again = post(alice_client, f"/decks/{deck_id}/craft", {"expect": str(1000 - cost)})  # a double submit
    assert "lacks no card" in page(alice_client.get(again.headers["Location"]))
    assert store_shards.get_balance(db, alice["id"]) == 1000 - cost


def test_any_saved_deck_offers_to_craft_what_it_lacks_in_any_session(app, alice_client, db, alice):
    """The offer is the deck's, not the session's: another browser (a new session) sees it and crafts,
    as does a deck that holds cards its player no longer owns (saved when the host gave every card)."""
    add_cards(db, alice["id"], {"orc": 2})
    give_shards(db, alice, 1000)
    response = post(alice_client, "/decks/import", {"code": "4 Orc\n1 Fireball", "name": "Half"})
    half = int(response.headers["Location"].rsplit("/", 1)[1])
    old = save_deck(db, alice["id"], "Old", {"orc": 2, COMMON: 1})  # no merfolk owned
    phone = app.test_client()
    log_in(phone, alice)
    cost = 2 * CRAFT[POOL["orc"].rarity] + CRAFT[POOL["fireball"].rarity]
    assert f"Craft the 3 cards this deck lacks ({cost} shards)" in page(phone.get(f"/decks/{half}"))
    common = CRAFT[POOL[COMMON].rarity]
    assert f"Craft the 1 card this deck lacks ({common} shards)" in page(phone.get(f"/decks/{old}"))
    assert post(phone, f"/decks/{old}/craft", {"expect": "1000"}).status_code == 303
    assert own_decks(db, alice)["Old"] == {"orc": 2, COMMON: 1}  # the deck as it was, now playable
    assert get_collection(db, alice["id"]) == {"orc": 2, COMMON: 1}
    assert "lacks" not in page(phone.get(f"/decks/{old}"))
    assert f"Craft the 3 cards this deck lacks ({cost} shards)" in page(alice_client.get(f"/decks/{half}"))
    assert post(alice_client, f"/decks/{half}/craft", {"expect": str(1000 - common)}).status_code == 303
    assert own_decks(db, alice)["Half"] == {"orc": 4, "fireball": 1}
    assert store_shards.get_balance(db, alice["id"]) == 1000 - common - cost


def test_crafting_for_another_players_deck_is_a_404_and_changes_nothing(app, db, alice, bob):
    deck_id = save_deck(db, alice["id"], "Hers", {COMMON: 1})
    give_shards(db, bob, 1000)
    mallory = app.test_client()
    log_in(mallory, bob)
    assert post(mallory, f"/decks/{deck_id}/craft", {"expect": "1000"}).status_code == 404
    assert post(mallory, "/decks/999999/craft", {"expect": "1000"}).status_code == 404
    assert get_collection(db, bob["id"]) == {} and store_shards.get_balance(db, bob["id"]) == 1000


def test_deck_codes_still_import(alice_client, db, alice):
    from webapp.decks import code as deckcode
    add_cards(db, alice["id"], THIRTY)
    response = post(alice_client, "/decks/import", {"code": "  " + deckcode.encode(THIRTY, POOL) + "\n"})
    assert response.status_code == 302 and own_decks(db, alice)["Imported deck"] == THIRTY


# ---------------------------------------------------------------- the loaner as a start

def test_copy_the_loaner_and_fill_the_gaps_from_my_collection(alice_client, db, alice):
    """R2.1, R2.3: the copy holds the loaner's cards the player owns and is completed to 30 from the rest."""
    from webapp.decks import packs
    packs.grant_starter(db, alice["id"])
    add_cards(db, alice["id"], {"orc": 4, "salamander": 5})
    loaner = page(alice_client.get("/decks/loaner/princes-brigade"))
    assert "Copy it and fill the gaps from my collection" in loaner
    response = post(alice_client, "/decks/loaner/princes-brigade/copy", {"fill": "1"})
    deck_id = int(response.headers["Location"].rsplit("/", 1)[1])
    cards = get_deck(db, alice["id"], deck_id)["cards"]
    owned = get_collection(db, alice["id"])
    assert sum(cards.values()) == 30 and all(n <= owned[cid] for cid, n in cards.items())
    assert "Filled the gaps with" in page(alice_client.get(f"/decks/{deck_id}"))


def test_plain_loaner_copy_offers_to_craft_what_it_lacks(alice_client, db, alice):
    add_cards(db, alice["id"], {"orc": 1})
    response = post(alice_client, "/decks/loaner/princes-brigade/copy")
    deck_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert re.search(r"Craft the \d+ cards this deck lacks", page(alice_client.get(f"/decks/{deck_id}")))


NAMES = [POOL[c].data["name"][lang] for c in sorted(POOL) for lang in ("en", "ja")]


def test_fuzzed_lists_never_answer_a_500_nor_store_a_deck_that_breaks_r2(alice_client, db, alice):
    """R2.1, R2.2: whatever is pasted, the answer is a deck of owned cards (at most 30) or a refusal."""
    from hypothesis import HealthCheck, given, settings, strategies as st
    add_cards(db, alice["id"], THIRTY)
    line = st.one_of(st.text(max_size=40),
                     st.builds(lambda n, name: f"{n} {name}", st.integers(-2, 35), st.sampled_from(NAMES)))

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(line, max_size=12), st.text(max_size=45))
    def attack(lines, name):
        response = post(alice_client, "/decks/import", {"code": "\n".join(lines), "name": name})
        assert response.status_code in (302, 303, 400), response.status_code
        owned = get_collection(db, alice["id"])
        for cards in own_decks(db, alice).values():
            assert sum(cards.values()) <= 30
            assert all(n <= owned.get(cid, 0) for cid, n in cards.items())

    attack()
