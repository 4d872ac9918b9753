"""Collections: adding and removing cards, counts per card."""

import pytest

from webapp.store import BadCounts, UserNotFound, add_cards, get_collection, owned_count, remove_cards, seed


@pytest.fixture(autouse=True)
def seeded(db, pool):
    seed(db, pool, {})


def test_add_cards_from_a_list_with_repeats_and_from_counts(db, alice):
    add_cards(db, alice["id"], ["orc", "orc", "goblin-hexer"])
    add_cards(db, alice["id"], {"orc": 3})
    assert get_collection(db, alice["id"]) == {"goblin-hexer": 1, "orc": 5}
    assert owned_count(db, alice["id"], "orc") == 5
    assert owned_count(db, alice["id"], "dragon-that-is-not") == 0


def test_collections_are_per_user(db, alice, bob):
    add_cards(db, alice["id"], ["orc"])
    assert get_collection(db, bob["id"]) == {}


def test_unknown_cards_and_bad_counts_change_nothing(db, alice):
    with pytest.raises(BadCounts, match="no such card: 'nope'"):
        add_cards(db, alice["id"], ["orc", "nope"])
    with pytest.raises(BadCounts, match="count of 1 or more"):
        add_cards(db, alice["id"], {"orc": 0})
    assert get_collection(db, alice["id"]) == {}


def test_adding_to_an_unknown_user_fails(db):
    with pytest.raises(UserNotFound):
        add_cards(db, 99, ["orc"])


def test_remove_cards_down_to_zero_drops_the_row(db, alice):
    add_cards(db, alice["id"], {"orc": 3, "goblin-hexer": 1})
    remove_cards(db, alice["id"], {"orc": 1})
    remove_cards(db, alice["id"], ["goblin-hexer"])
    assert get_collection(db, alice["id"]) == {"orc": 2}


def test_removing_more_than_owned_changes_nothing(db, alice):
    add_cards(db, alice["id"], {"orc": 2, "goblin-hexer": 1})
    with pytest.raises(BadCounts, match="owns 2 of 'orc', fewer than 3"):
        remove_cards(db, alice["id"], {"goblin-hexer": 1, "orc": 3})
    assert get_collection(db, alice["id"]) == {"goblin-hexer": 1, "orc": 2}
