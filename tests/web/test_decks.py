"""The deckbuilder pages through Flask's test client and the app's real SQLite file (R2)."""

import html
import json
import re
from html.parser import HTMLParser

import pytest

from tests import nodemodule
from webapp import create_app
from webapp.decks import code as deckcode
from webapp.decks.check import check_deck
from webapp.decks.stats import deck_stats
from webapp.engine import load_pool
from webapp.store import add_cards, connect, get_deck, get_loaner, list_decks, save_deck
from webapp.store.users import create_user

from .conftest import log_in, post

POOL = load_pool()
# 30 cards Alice owns in the tests: monsters of fire and earth, and two Fireballs.
THIRTY = {"orc": 10, "salamander": 10, "flame-warden": 8, "fireball": 2}


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


@pytest.fixture
def owns(db):
    """owns(user, {card: count}) adds cards to a user's collection."""
    def give(user, counts):
        add_cards(db, user["id"], counts)
    return give


@pytest.fixture
def alice_cards(owns, alice):
    owns(alice, THIRTY)
    return THIRTY


def fields(counts, name="My deck"):
    data = {f"card:{cid}": str(n) for cid, n in counts.items()}
    data["name"] = name
    return data


def own_decks(db, user):
    return {d["name"]: get_deck(db, user["id"], d["id"])["cards"] for d in list_decks(db, user["id"])
            if not d["loaner"]}


def text(response):
    return response.get_data(as_text=True)


def unescape(page):
    return html.unescape(page)


def deck_id_from(response):
    match = re.fullmatch(r"/decks/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


# ---------------------------------------------------------------- the deck list


def test_visitors_are_sent_to_log_in(client):
    response = client.get("/decks")
    assert response.status_code == 302
    assert "login" in response.headers["Location"]


def test_the_list_shows_my_decks_and_not_bobs(alice_client, db, alice, bob):
    save_deck(db, alice["id"], "Alice's wall", {"orc": 2})
    save_deck(db, bob["id"], "Bob's secret", {"orc": 2})
    page = unescape(text(alice_client.get("/decks")))
    assert "Alice's wall" in page
    assert "Bob's secret" not in page
    assert "2/30 cards" in page and "Draft" in page


def test_r2_3_the_loaner_is_listed_while_i_own_fewer_than_30_cards(alice_client, owns, alice):
    owns(alice, {"orc": 29})
    page = unescape(text(alice_client.get("/decks")))
    assert "Prince's Brigade" in page and "Loaner" in page
    assert "/decks/loaner/princes-brigade" in page
    assert "you own 3 of them" in page  # the loaner holds 3 Orcs


def test_r2_3_the_loaner_is_not_listed_once_i_own_30_cards(alice_client, owns, alice):
    owns(alice, {"orc": 30})
    page = unescape(text(alice_client.get("/decks")))
    assert "Prince's Brigade" not in page
    assert "/decks/loaner/" not in page


def test_r2_3_with_every_card_owned_the_loaner_is_not_listed(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "all", "COLLECTION": "all"})
    db = connect(app.config["DATABASE"])
    user = create_user(db, "carol", "x")
    db.conn.close()
    client = app.test_client()
    log_in(client, user)
    page = unescape(text(client.get("/decks")))
    assert "Prince's Brigade" not in page
    assert 'name="card:orc"' in text(client.get("/decks/new"))  # and every card is there to build with


def test_the_list_marks_a_full_deck_ready(alice_client, db, alice, alice_cards):
    save_deck(db, alice["id"], "Full", THIRTY)
    page = text(alice_client.get("/decks"))
    assert "30/30 cards" in page and "Ready" in page


# ---------------------------------------------------------------- building


def test_the_new_deck_page_lists_my_cards_with_counts(alice_client, alice_cards):
    page = text(alice_client.get("/decks/new"))
    for cid in THIRTY:
        assert f'name="card:{cid}"' in page
    assert 'name="card:sylph"' not in page  # not owned, not in the deck
    data = json.loads(re.search(r'<script type="application/json" id="deck-data">(.*?)</script>', page, re.S)[1])
    assert data["cards"]["orc"]["owned"] == 10
    assert data["size"] == 30
    assert "/static/js/decks.js" in page and "/static/css/decks.css" in page
    for chart in ("levels", "ratio", "elements", "coverage"):
        assert f'data-chart="{chart}"' in page


def test_r2_1_build_a_30_card_deck(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/new", fields(THIRTY, "Embers"))
    assert response.status_code == 302
    deck_id = deck_id_from(response)
    assert get_deck(db, alice["id"], deck_id)["cards"] == THIRTY
    page = unescape(text(alice_client.get(f"/decks/{deck_id}")))
    assert "Saved “Embers”: ready to play." in page
    assert "Ready to play" in page


def test_a_deck_of_fewer_than_30_cards_is_kept_as_a_draft(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/new", fields({"orc": 5}, "Half"))
    deck_id = deck_id_from(response)
    assert get_deck(db, alice["id"], deck_id)["cards"] == {"orc": 5}
    page = unescape(text(alice_client.get(f"/decks/{deck_id}")))
    assert "Saved “Half” as a draft (5/30 cards): not ready to play yet." in page
    assert "A deck is exactly 30 cards: this one has 5. Add 25 cards." in page


def refused(response, *messages):
    assert response.status_code == 400
    page = unescape(text(response))
    assert "Nothing was saved" in page
    for message in messages:
        assert message in page
    return page


def test_r2_1_a_31_card_deck_is_refused_and_nothing_stored(alice_client, db, alice, owns):
    owns(alice, {"orc": 16, "salamander": 15})
    response = post(alice_client, "/decks/new", fields({"orc": 16, "salamander": 15}))
    refused(response, "A deck is exactly 30 cards: this one has 31. Take out 1 card.")
    assert own_decks(db, alice) == {}


def test_unknown_card_ids_are_refused_and_nothing_stored(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/new", fields({"orc": 2, "no-such-card": 1}))
    refused(response, 'No card in the pool has the id "no-such-card": take it out.')
    assert own_decks(db, alice) == {}


@pytest.mark.parametrize("raw", ["abc", "-1", "2.5", "99"])
def test_bad_counts_are_refused_and_nothing_stored(alice_client, db, alice, alice_cards, raw):
    response = post(alice_client, "/decks/new", fields({"orc": raw}))
    refused(response, f'The count of "orc" must be a whole number from 0 to 30, not "{raw}".')
    assert own_decks(db, alice) == {}


def test_r2_2_cards_i_do_not_own_are_refused(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/new", fields({"orc": 2, "sylph": 1}))
    refused(response, "You do not own Sylph: take it out.")
    assert own_decks(db, alice) == {}


def test_r2_2_more_copies_than_i_own_are_refused(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/new", fields({"orc": 11}))
    refused(response, "The deck has 11 × Orc, but you own only 10. Take out 1.")
    assert own_decks(db, alice) == {}


def test_a_refused_deck_is_shown_again_as_posted(alice_client, alice_cards):
    page = refused(post(alice_client, "/decks/new", fields({"orc": 11, "salamander": 3}, "Kept name")))
    assert 'value="Kept name"' in page
    assert re.search(r'name="card:salamander" value="3"', page)


@pytest.mark.parametrize("name, message", [
    ("", "Give the deck a name."),
    ("x" * 41, "A deck name is at most 40 characters; this one has 41."),
    ("tab\there", "A deck name cannot hold control characters"),
])
def test_bad_names_are_refused_and_nothing_stored(alice_client, db, alice, alice_cards, name, message):
    refused(post(alice_client, "/decks/new", fields({"orc": 1}, name)), message)
    assert own_decks(db, alice) == {}


def test_a_new_deck_never_overwrites_one_of_the_same_name(alice_client, db, alice, alice_cards):
    save_deck(db, alice["id"], "Embers", {"orc": 1})
    refused(post(alice_client, "/decks/new", fields({"salamander": 4}, "EMBERS")),
            "You already have a deck called “EMBERS”: pick another name.")
    assert own_decks(db, alice) == {"Embers": {"orc": 1}}


def test_r12_2_and_r2_5_warnings_and_eringes_tip_show_in_the_builder(alice_client, db, alice, owns):
    owns(alice, {"orc": 2, "fireball": 3})
    deck_id = save_deck(db, alice["id"], "Spells", {"orc": 2, "fireball": 3})
    page = unescape(text(alice_client.get(f"/decks/{deck_id}")))
    assert "No monster in this deck has fire or wild spell slots, so Fireball can never be cast." in page
    assert "A deck of mostly spells cannot move: spells need spell slots of monsters. Build around monsters." in page
    assert "魔法ばかりのデッキは身動きが取れない。" in page
    assert re.search(r'<aside class="eringe" id="eringe" aria-label="Eringe\'s tip"\s*>', page)


def test_no_tip_for_a_deck_built_around_monsters(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "Monsters", THIRTY)
    page = text(alice_client.get(f"/decks/{deck_id}"))
    assert re.search(r'<aside class="eringe" id="eringe" aria-label="Eringe\'s tip"\s+hidden', page)


# ---------------------------------------------------------------- editing, renaming, copying, deleting


def test_editing_replaces_the_name_and_cards(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "Old", {"orc": 2})
    response = post(alice_client, f"/decks/{deck_id}", fields({"salamander": 3, "fireball": 1}, "New"))
    assert response.status_code == 302 and deck_id_from(response) == deck_id
    assert own_decks(db, alice) == {"New": {"salamander": 3, "fireball": 1}}


def test_a_refused_edit_changes_nothing(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "Old", {"orc": 2})
    refused(post(alice_client, f"/decks/{deck_id}", fields({"orc": 20, "salamander": 10, "flame-warden": 1}, "New")))
    assert own_decks(db, alice) == {"Old": {"orc": 2}}


def test_rename(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "Old", {"orc": 2})
    response = post(alice_client, f"/decks/{deck_id}/rename", {"name": "  Shiny  "})
    assert response.status_code == 302
    assert own_decks(db, alice) == {"Shiny": {"orc": 2}}


@pytest.mark.parametrize("name, message", [
    ("Other", "You already have a deck called “Other”"),
    ("y" * 41, "A deck name is at most 40 characters"),
    ("", "Give the deck a name."),
])
def test_a_bad_rename_is_refused(alice_client, db, alice, alice_cards, name, message):
    deck_id = save_deck(db, alice["id"], "Old", {"orc": 2})
    save_deck(db, alice["id"], "Other", {"orc": 1})
    refused(post(alice_client, f"/decks/{deck_id}/rename", {"name": name}), message)
    assert own_decks(db, alice) == {"Old": {"orc": 2}, "Other": {"orc": 1}}


def test_copy(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "Embers", THIRTY)
    first = post(alice_client, f"/decks/{deck_id}/copy")
    second = post(alice_client, f"/decks/{deck_id}/copy")
    assert deck_id_from(first) != deck_id != deck_id_from(second)
    assert own_decks(db, alice) == {"Embers": THIRTY, "Embers (copy)": THIRTY, "Embers (copy 2)": THIRTY}


def test_a_copy_of_a_deck_with_the_longest_name_still_fits(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "z" * 40, {"orc": 1})
    post(alice_client, f"/decks/{deck_id}/copy")
    assert sorted(own_decks(db, alice)) == ["z" * 33 + " (copy)", "z" * 40]


def test_delete(alice_client, db, alice, alice_cards):
    keep = save_deck(db, alice["id"], "Keep", {"orc": 1})
    gone = save_deck(db, alice["id"], "Gone", {"orc": 1})
    response = post(alice_client, f"/decks/{gone}/delete")
    assert response.status_code == 302 and response.headers["Location"] == "/decks"
    assert own_decks(db, alice) == {"Keep": {"orc": 1}}
    assert alice_client.get(f"/decks/{gone}").status_code == 404
    assert alice_client.get(f"/decks/{keep}").status_code == 200


# ---------------------------------------------------------------- other users' decks, loaner decks


@pytest.mark.parametrize("method, suffix, data", [
    ("get", "", None),
    ("get", "/code", None),
    ("post", "", {"name": "Mine now", "card:orc": "1"}),
    ("post", "/rename", {"name": "Mine now"}),
    ("post", "/copy", {}),
    ("post", "/delete", {}),
])
def test_another_users_deck_is_a_404_and_stays_unchanged(app, db, alice, bob, owns, method, suffix, data):
    owns(alice, {"orc": 5})
    owns(bob, {"orc": 5})
    bobs = save_deck(db, bob["id"], "Bob's", {"orc": 3})
    client = app.test_client()
    log_in(client, alice)
    url = f"/decks/{bobs}{suffix}"
    response = client.get(url) if method == "get" else post(client, url, data)
    assert response.status_code == 404
    assert "Bob's" not in text(response)
    assert own_decks(db, bob) == {"Bob's": {"orc": 3}}
    assert own_decks(db, alice) == {}


def test_a_missing_deck_is_a_404(alice_client):
    response = alice_client.get("/decks/99999")
    assert response.status_code == 404
    assert "No such deck" in text(response)
    assert post(alice_client, "/decks/99999/delete").status_code == 404


def test_a_loaner_decks_id_leads_to_its_page_and_cannot_be_changed(alice_client, db, alice, alice_cards):
    loaner = get_loaner(db, "princes-brigade")
    response = alice_client.get(f"/decks/{loaner['id']}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/decks/loaner/princes-brigade"
    for suffix, data in (("", fields({"orc": 1}, "Taken")), ("/rename", {"name": "Taken"}), ("/delete", {})):
        assert post(alice_client, f"/decks/{loaner['id']}{suffix}", data).status_code == 404
    after = get_loaner(db, "princes-brigade")
    assert (after["name"], after["cards"]) == (loaner["name"], loaner["cards"])


def test_r2_3_the_loaner_deck_page_shows_its_cards_and_what_i_own(alice_client, db, alice_cards):
    page = unescape(text(alice_client.get("/decks/loaner/princes-brigade")))
    assert "Prince's Brigade" in page and "王子の旅団" in page and "Loaner" in page
    assert "3 ×</strong> Orc" in page
    # Alice owns Orc 3 of 3, Salamander 2 of 2, Flame Warden 2 of 2, Fireball 2 of 2.
    assert "You own <strong>9</strong> of its 30 cards" in page
    assert 'class="card-svg"' in page
    assert 'data-chart="coverage"' in page


def test_an_unknown_loaner_is_a_404(alice_client):
    assert alice_client.get("/decks/loaner/no-such-deck").status_code == 404
    assert post(alice_client, "/decks/loaner/no-such-deck/copy").status_code == 404


def test_r2_3_copying_the_loaner_keeps_only_the_cards_i_own(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/loaner/princes-brigade/copy")
    deck_id = deck_id_from(response)
    deck = get_deck(db, alice["id"], deck_id)
    assert deck["name"] == "Prince's Brigade"
    assert deck["cards"] == {"orc": 3, "salamander": 2, "flame-warden": 2, "fireball": 2}
    page = unescape(text(alice_client.get(f"/decks/{deck_id}")))
    assert "“Prince's Brigade” holds 9 of the 30 cards of “Prince's Brigade”." in page
    assert "You do not own: " in page and "2 × Blaze Knight" in page
    assert get_loaner(db, "princes-brigade")["cards"]["orc"] == 3  # the loaner is untouched


def test_r2_3_copying_the_loaner_twice_gives_a_new_name(alice_client, db, alice, alice_cards):
    post(alice_client, "/decks/loaner/princes-brigade/copy")
    post(alice_client, "/decks/loaner/princes-brigade/copy")
    assert sorted(own_decks(db, alice)) == ["Prince's Brigade", "Prince's Brigade (copy)"]


def test_r2_3_copying_the_loaner_when_i_own_none_of_it_stores_nothing(alice_client, db, alice, owns):
    owns(alice, {"sylph": 2})
    response = post(alice_client, "/decks/loaner/princes-brigade/copy")
    assert response.status_code == 400
    assert "You own none of the cards of “Prince's Brigade”" in unescape(text(response))
    assert own_decks(db, alice) == {}


# ---------------------------------------------------------------- deck codes


def test_export_code_round_trips(alice_client, db, alice, alice_cards):
    deck_id = save_deck(db, alice["id"], "Embers", THIRTY)
    response = alice_client.get(f"/decks/{deck_id}/code")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    code = text(response).strip()
    assert deckcode.decode(code, POOL) == THIRTY
    assert f'value="{code}"' in text(alice_client.get(f"/decks/{deck_id}"))


def test_an_empty_deck_has_no_code(alice_client, db, alice):
    deck_id = save_deck(db, alice["id"], "Empty", {})
    assert alice_client.get(f"/decks/{deck_id}/code").status_code == 404
    assert "an empty deck has no code" in text(alice_client.get(f"/decks/{deck_id}"))


def test_import_a_code_of_cards_i_own(alice_client, db, alice, alice_cards):
    code = deckcode.encode(THIRTY, POOL)
    response = post(alice_client, "/decks/import", {"code": code, "name": "From a friend"})
    deck_id = deck_id_from(response)
    assert own_decks(db, alice) == {"From a friend": THIRTY}
    page = unescape(text(alice_client.get(f"/decks/{deck_id}")))
    assert "“From a friend” holds 30 of the 30 cards of the deck code." in page


def test_import_reports_the_cards_i_do_not_own_and_stores_the_rest(alice_client, db, alice, alice_cards):
    code = deckcode.encode({"orc": 12, "sylph": 2, "fireball": 1}, POOL)
    deck_id = deck_id_from(post(alice_client, "/decks/import", {"code": code}))
    assert own_decks(db, alice) == {"Imported deck": {"orc": 10, "fireball": 1}}
    page = unescape(text(alice_client.get(f"/decks/{deck_id}")))
    assert "holds 11 of the 15 cards of the deck code. You do not own: 2 × Orc, 2 × Sylph." in page


@pytest.mark.parametrize("code, message", [
    ("hello", "Line 1: no card is called “hello”"),  # not a code: read as a card list (docs/decks.md)
    ("BRG9-AAAA", "made by a newer Brigade"),
    ("", "Paste a deck code first"),
])
def test_import_refuses_garbage_and_stores_nothing(alice_client, db, alice, alice_cards, code, message):
    response = post(alice_client, "/decks/import", {"code": code})
    assert response.status_code == 400
    assert message in unescape(text(response))
    assert own_decks(db, alice) == {}


def test_import_refuses_a_tampered_code_and_stores_nothing(alice_client, db, alice, alice_cards):
    code = deckcode.encode(THIRTY, POOL)
    tampered = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    response = post(alice_client, "/decks/import", {"code": tampered, "name": "Tampered"})
    assert response.status_code == 400
    page = unescape(text(response))
    assert "Nothing was imported" in page and "Copy the whole code again." in page
    assert f">{tampered}</textarea>" in page  # shown again to fix
    assert own_decks(db, alice) == {}


def test_import_of_cards_i_own_none_of_stores_nothing(alice_client, db, alice, alice_cards):
    response = post(alice_client, "/decks/import", {"code": deckcode.encode({"sylph": 2}, POOL)})
    assert response.status_code == 400
    assert "You own none of the cards of the deck code" in text(response)
    assert own_decks(db, alice) == {}


def test_import_under_a_taken_or_oversize_name_stores_nothing(alice_client, db, alice, alice_cards):
    save_deck(db, alice["id"], "Taken", {"orc": 1})
    code = deckcode.encode({"orc": 2}, POOL)
    assert post(alice_client, "/decks/import", {"code": code, "name": "taken"}).status_code == 400
    assert post(alice_client, "/decks/import", {"code": code, "name": "n" * 41}).status_code == 400
    assert own_decks(db, alice) == {"Taken": {"orc": 1}}


# ---------------------------------------------------------------- CSRF


@pytest.mark.parametrize("suffix", ["", "/rename", "/copy", "/delete"])
def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(alice_client, db, alice, alice_cards, suffix):
    deck_id = save_deck(db, alice["id"], "Mine", {"orc": 2})
    response = alice_client.post(f"/decks/{deck_id}{suffix}", data=fields({"salamander": 1}, "Changed"))
    assert response.status_code == 400
    assert own_decks(db, alice) == {"Mine": {"orc": 2}}


@pytest.mark.parametrize("url, data", [
    ("/decks/new", fields({"orc": 2}, "New")),
    ("/decks/import", {"code": deckcode.encode({"orc": 2}, POOL)}),
    ("/decks/loaner/princes-brigade/copy", {}),
])
def test_creating_without_the_csrf_token_is_refused(alice_client, db, alice, alice_cards, url, data):
    response = alice_client.post(url, data=dict(data, csrf_token="forged"))
    assert response.status_code == 400
    assert own_decks(db, alice) == {}


# ---------------------------------------------------------------- the script agrees with the server


PARITY_DECKS = [
    {},
    {"orc": 10, "salamander": 10, "flame-warden": 8, "fireball": 2},
    {"orc": 31},
    {"orc": 3, "fireball": 4, "holy-light": 2, "sylph": 1},
    {"stone-skin": 12, "ley-line": 1},
    {"vampire": 1, "fireball": 11, "dispel": 2, "orc": 16},
    {"orc": 2, "nope": 1},
    {"crimson-dragon": 2, "demon-monarch": 1, "earthquake": 3, "sage-centaur": 2},
]


def test_deck_rules_js_words_messages_and_stats_as_the_server_does(app, db, alice, alice_cards, node):
    from webapp.web.decks import builder_data, card_rows

    owned = {"orc": 10, "salamander": 10, "flame-warden": 8, "fireball": 2, "sylph": 1, "vampire": 1}
    everything = set().union(*PARITY_DECKS)
    rows = card_rows(POOL, owned, {cid: 1 for cid in everything})
    data = builder_data(rows, [1, 2, 3, 4])
    script = (
        "const api = await import(js('deck-rules.js').href);"
        "const {tn} = i18n;"
        "console.log(JSON.stringify(input.decks.map(d => ({problems: api.checkDeck(d, input.data, tn),"
        " stats: api.deckStats(d, input.data)}))));"
    )
    from_js = nodemodule.run(node, script, {"decks": PARITY_DECKS, "data": data})
    for deck, js in zip(PARITY_DECKS, from_js, strict=True):
        report = check_deck(deck, POOL, owned)
        assert js["problems"] == report.to_list(), deck
        assert js["stats"] == deck_stats(deck, POOL), deck


class ChartMarks(HTMLParser):
    """The bars (data-bar: their x, y, width, height) and texts (data-text) of the charts' HTML."""

    def __init__(self):
        super().__init__()
        self.bars, self.texts, self._text = {}, {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-bar" in a:
            self.bars[f"{a['data-bar']}:{a['data-key']}"] = {k: int(a[k]) for k in ("x", "y", "width", "height")
                                                             if k in a and "." not in a[k]}
        if "data-text" in a:
            self._text = f"{a['data-text']}:{a.get('data-key', '')}"
            self.texts[self._text] = ""

    def handle_endtag(self, tag):
        if tag in ("p", "li", "span", "text") and self._text and tag != "span":
            self._text = None

    def handle_data(self, data):
        if self._text:
            self.texts[self._text] += data


def test_deck_charts_js_draws_the_bars_and_lines_as_the_template_does(app, node):
    """static/js/deck-charts.js against templates/decks/_charts.html, over the same stats (English)."""
    from flask import render_template_string

    decks = [{k: v for k, v in d.items() if k in POOL} for d in PARITY_DECKS]
    stats = [deck_stats(d, POOL) for d in decks]
    with app.test_request_context():
        pages = [render_template_string('{% import "decks/_charts.html" as c %}{{ c.charts(stats) }}', stats=s)
                 for s in stats]
    script = (
        "const c = await import(js('deck-charts.js').href);"
        "const {t, tn} = i18n;"
        "const LABELS = {fire: 'Fire', water: 'Water', earth: 'Earth', wind: 'Wind', light: 'Light', dark: 'Dark'};"
        "console.log(JSON.stringify(input.map((s) => {"
        "  const bars = {}, texts = {};"
        "  for (const b of c.levelBars(s)) {"
        "    bars['level:' + b.level] = {y: b.y, height: b.height}; texts['level:' + b.level] = String(b.count); }"
        "  const r = c.ratioBars(s); bars['ratio:monsters'] = {x: 0, ...r.monsters}; bars['ratio:spells'] = r.spells;"
        "  for (const b of c.elementBars(s)) bars['element:' + b.element] = {x: b.x, width: b.width};"
        "  s.elements.forEach((row) => { texts['element:' + row.element] = c.elementText(row, LABELS[row.element], tn); });"
        "  const cov = c.coverageBars(s);"
        "  for (const e of Object.keys(LABELS)) { const b = cov[e];"
        "    bars['slots:' + e] = {x: 0, width: b ? b.slots.width : 0}; bars['wild:' + e] = b ? b.wild : {x: 0, width: 0};"
        "    bars['need:' + e] = {x: 0, width: b ? b.need.width : 0}; texts['coverage:' + e] = b ? c.coverageText(b.row, t, tn) : ''; }"
        "  texts['levels-summary:'] = c.levelsSummary(s, t); texts['ratio:'] = c.ratioText(s, tn);"
        "  return {bars, texts};"
        "})));"
    )
    for deck, page, js in zip(decks, pages, nodemodule.run(node, script, stats), strict=True):
        marks = ChartMarks()
        marks.feed(page)
        for key, bar in js["bars"].items():
            assert {k: marks.bars[key][k] for k in bar} == bar, (deck, key)
        for key, line in js["texts"].items():
            assert " ".join(marks.texts[key].split()) == line, (deck, key)
