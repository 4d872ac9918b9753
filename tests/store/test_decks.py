"""Decks: saving, listing, renaming, copying, deleting — and nobody touching another's deck."""

import pytest

from webapp.store import (BadCounts, BadName, DeckNameTaken, DeckNotFound, NotYourDeck, copy_deck, delete_deck,
                          get_deck, get_loaner, list_decks, rename_deck, save_deck, seed)

ORCS = {"orc": 30}


@pytest.fixture(autouse=True)
def seeded(db, pool, decks):
    seed(db, pool, decks)


@pytest.fixture
def loaner_id(db):
    return get_loaner(db, "orc-brigade")["id"]


def test_save_deck_creates_a_deck_and_get_deck_reads_it(db, alice):
    deck_id = save_deck(db, alice["id"], "Green Wall", {"orc": 28, "goblin-hexer": 2})
    deck = get_deck(db, alice["id"], deck_id)
    assert (deck["name"], deck["user_id"], deck["loaner"]) == ("Green Wall", alice["id"], False)
    assert deck["cards"] == {"goblin-hexer": 2, "orc": 28}


def test_saving_under_the_same_name_replaces_the_cards(db, alice):
    deck_id = save_deck(db, alice["id"], "Wall", {"orc": 30})
    assert save_deck(db, alice["id"], "WALL", {"goblin-hexer": 3}) == deck_id
    assert get_deck(db, alice["id"], deck_id)["cards"] == {"goblin-hexer": 3}
    assert db["deck_cards"].count_where("deck_id = ?", [deck_id]) == 1


def test_saving_by_id_renames_and_replaces(db, alice):
    deck_id = save_deck(db, alice["id"], "Wall", ORCS)
    save_deck(db, alice["id"], "Rampart", {"orc": 10}, deck_id=deck_id)
    deck = get_deck(db, alice["id"], deck_id)
    assert (deck["name"], deck["cards"]) == ("Rampart", {"orc": 10})


def test_list_decks_shows_own_decks_then_the_loaners(db, alice, bob, loaner_id):
    b = save_deck(db, alice["id"], "beta", ORCS)
    a = save_deck(db, alice["id"], "Alpha", {"orc": 2})
    save_deck(db, bob["id"], "Bob's", ORCS)
    listed = [(d["id"], d["size"]) for d in list_decks(db, alice["id"])]
    assert listed == [(a, 2), (b, 30), (loaner_id, 30)]


def test_reading_another_users_deck_is_refused(db, alice, bob):
    deck_id = save_deck(db, alice["id"], "Mine", ORCS)
    with pytest.raises(NotYourDeck, match=f"deck {deck_id} belongs to another user"):
        get_deck(db, bob["id"], deck_id)


@pytest.mark.parametrize("change", [
    lambda db, user, deck: save_deck(db, user, "Taken over", ORCS, deck_id=deck),
    lambda db, user, deck: rename_deck(db, user, deck, "Taken over"),
    lambda db, user, deck: delete_deck(db, user, deck),
    lambda db, user, deck: copy_deck(db, user, deck),
], ids=["save", "rename", "delete", "copy"])
def test_changing_or_copying_another_users_deck_is_refused_and_changes_nothing(db, alice, bob, change):
    deck_id = save_deck(db, alice["id"], "Mine", ORCS)
    with pytest.raises(NotYourDeck):
        change(db, bob["id"], deck_id)
    deck = get_deck(db, alice["id"], deck_id)
    assert (deck["name"], deck["cards"]) == ("Mine", ORCS)
    assert [d["name"] for d in list_decks(db, bob["id"]) if not d["loaner"]] == []


@pytest.mark.parametrize("change", [
    lambda db, user, deck: save_deck(db, user, "Mine now", {"orc": 1}, deck_id=deck),
    lambda db, user, deck: rename_deck(db, user, deck, "Mine now"),
    lambda db, user, deck: delete_deck(db, user, deck),
], ids=["save", "rename", "delete"])
def test_loaner_decks_cannot_be_changed(db, alice, loaner_id, change):
    with pytest.raises(NotYourDeck, match="loaner deck 'orc-brigade': copy it"):
        change(db, alice["id"], loaner_id)
    assert get_loaner(db, "orc-brigade")["cards"] == ORCS


def test_a_loaner_deck_can_be_read_and_copied(db, alice, loaner_id):
    assert get_deck(db, alice["id"], loaner_id)["cards"] == ORCS
    copy_id = copy_deck(db, alice["id"], loaner_id)
    copy = get_deck(db, alice["id"], copy_id)
    assert (copy["name"], copy["loaner"], copy["user_id"], copy["cards"]) == ("Test Brigade", False, alice["id"], ORCS)


def test_copies_get_free_names(db, alice):
    deck_id = save_deck(db, alice["id"], "Wall", ORCS)
    first, second = copy_deck(db, alice["id"], deck_id), copy_deck(db, alice["id"], deck_id)
    assert get_deck(db, alice["id"], first)["name"] == "Wall (copy)"
    assert get_deck(db, alice["id"], second)["name"] == "Wall (copy 2)"
    with pytest.raises(DeckNameTaken):
        copy_deck(db, alice["id"], deck_id, name="wall")


def test_rename_to_a_name_in_use_is_refused(db, alice, bob):
    save_deck(db, alice["id"], "Wall", ORCS)
    other = save_deck(db, alice["id"], "Rush", ORCS)
    with pytest.raises(DeckNameTaken, match="already has a deck called 'wall'"):
        rename_deck(db, alice["id"], other, "wall")
    bobs = save_deck(db, bob["id"], "Rush", ORCS)
    rename_deck(db, bob["id"], bobs, "Wall")  # names are per user
    assert get_deck(db, bob["id"], bobs)["name"] == "Wall"


def test_delete_deck_removes_its_cards(db, alice):
    deck_id = save_deck(db, alice["id"], "Wall", ORCS)
    delete_deck(db, alice["id"], deck_id)
    with pytest.raises(DeckNotFound):
        get_deck(db, alice["id"], deck_id)
    assert db["deck_cards"].count_where("deck_id = ?", [deck_id]) == 0


def test_bad_names_and_cards_are_refused(db, alice):
    with pytest.raises(BadName):
        save_deck(db, alice["id"], " ", ORCS)
    with pytest.raises(BadCounts, match="no such card"):
        save_deck(db, alice["id"], "Wall", {"orc": 29, "unicorn-of-nowhere": 1})
    assert [d for d in list_decks(db, alice["id"]) if not d["loaner"]] == []


def test_a_users_decks_go_when_the_user_goes(db, alice):
    save_deck(db, alice["id"], "Wall", ORCS)
    db.execute("DELETE FROM users WHERE id = ?", [alice["id"]])
    assert db["decks"].count_where("loaner = 0") == 0
