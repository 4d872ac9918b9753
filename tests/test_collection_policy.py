"""The collection policy (webapp/decks/collection.py): what a player owns, the loaner rule (R2.3),
and which decks they may play, under both COLLECTION settings."""

import pytest

from webapp.decks import collection, packs
from webapp.decks.collection import ALL_COUNT, LOANER, Collection
from webapp.engine import load_pool
from webapp.store import add_cards, connect, get_deck, get_loaner, prepare, save_deck
from webapp.store.users import create_user

POOL = load_pool()
ALL = {"COLLECTION": "all"}


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "policy.db")
    prepare(path)
    database = connect(path)
    yield database
    database.conn.close()


@pytest.fixture
def user(db):
    return create_user(db, "alice", "hash")


def test_owned_in_earn_mode_is_the_collection(db, user):
    packs.grant_starter(db, user["id"])
    assert collection.owned(db, user["id"], {"COLLECTION": "earn"}, POOL) == packs.STARTER
    assert collection.owned(db, user["id"]) == packs.STARTER  # no config: "earn"


def test_owned_in_all_mode_is_every_card_many_times(db, user):
    owned = collection.owned(db, user["id"], ALL, POOL)
    assert set(owned) == set(POOL)
    assert set(owned.values()) == {ALL_COUNT} and ALL_COUNT >= 30


def test_r2_3_the_loaner_is_lent_while_the_collection_holds_fewer_than_30_cards(db, user):
    loaner = get_loaner(db, LOANER)
    add_cards(db, user["id"], {"orc": 29})
    held = Collection.of(db, user["id"])
    assert held.borrows_loaner and held.lists_loaners and held.deck_problem(loaner) is None
    add_cards(db, user["id"], {"goblin-raider": 1})
    held = Collection.of(db, user["id"])
    assert not held.borrows_loaner and not held.lists_loaners
    assert held.deck_problem(loaner) == "the Prince's Brigade is lent only to players who own fewer than 30 cards"


def test_a_host_that_gives_every_card_lends_the_loaner_but_does_not_list_it(db, user):
    """COLLECTION = "all": the loaner stays playable whatever the collection rows hold, and the deck
    list does not offer it (every deck can be built from owned cards there, docs/decks.md)."""
    add_cards(db, user["id"], {"orc": 30})
    held = Collection.of(db, user["id"], ALL, POOL)
    assert held.borrows_loaner and not held.lists_loaners
    assert held.deck_problem(get_loaner(db, LOANER)) is None
    assert held.total == ALL_COUNT * len(POOL)


def test_an_own_deck_is_playable_when_legal_and_owned_and_any_legal_deck_on_a_host_that_gives_all(db, user):
    add_cards(db, user["id"], {"orc": 30})
    good = get_deck(db, user["id"], save_deck(db, user["id"], "Orcs", {"orc": 30}))
    unowned = get_deck(db, user["id"], save_deck(db, user["id"], "Raiders", {"orc": 26, "goblin-raider": 4}))
    short = get_deck(db, user["id"], save_deck(db, user["id"], "Short", {"orc": 29}))
    held = Collection.of(db, user["id"])
    assert held.deck_problem(good) is None
    assert "own" in held.deck_problem(unowned) and "30" in held.deck_problem(short)
    everything = Collection.of(db, user["id"], ALL)
    assert everything.deck_problem(unowned) is None and everything.deck_problem(short) is not None
    assert [d["name"] for d in collection.playable_decks(db, user["id"])] == ["Orcs"]
    loaner = get_loaner(db, LOANER)["name"]
    assert [d["name"] for d in collection.playable_decks(db, user["id"], ALL)] == ["Orcs", "Raiders", loaner]


def test_a_deck_problem_is_in_a_players_words_in_every_language():
    """``deck_problem`` joins the deck check's messages as they are: none of them, in English or Japanese,
    cites a rule number or an instance id (players never see either)."""
    import re

    from babel.messages.pofile import read_po

    from webapp.decks.check import MESSAGES
    from webapp.i18n import po_path

    with open(po_path("ja"), "rb") as f:
        japanese = read_po(f, locale="ja")
    for text in MESSAGES.values():
        for words in (text, japanese.get(text).string):
            assert words and not re.search(r"\bR\d{1,2}\.\d|\bp[01]c\d+", words), words
