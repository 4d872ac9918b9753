"""Seeding the card pool and the loaner decks: idempotent, updates in place, skips when unchanged."""

import json

from webapp.cards.decks import load_decks
from webapp.engine import parse_card
from webapp.store import get_loaner, get_setting, seed, seed_from_files

from .helpers import write_deck


def counts(db):
    return {t: db[t].count for t in ("cards", "decks", "deck_cards")}


def test_seed_copies_every_card_with_its_normalized_data(db, pool, decks):
    seed(db, pool, decks)
    assert db["cards"].count == len(pool)
    row = db["cards"].get("orc")
    assert (row["kind"], row["element"], row["level"], row["rarity"], row["set"], row["in_pool"]) == (
        "monster", "earth", 1, "C", 1, 1)
    assert json.loads(row["data"]) == pool["orc"].data


def test_seed_stores_the_loaner_deck_by_slug(db, pool, decks):
    seed(db, pool, decks)
    deck = get_loaner(db, "orc-brigade")
    assert deck["loaner"] and deck["user_id"] is None and deck["name"] == "Test Brigade"
    assert deck["texts"]["name"] == {"en": "Test Brigade", "ja": "テスト旅団"}
    assert deck["cards"] == {"orc": 30}


def test_seeding_twice_leaves_the_same_rows(db, pool, decks):
    seed(db, pool, decks)
    first = counts(db), db.execute("SELECT id FROM decks").fetchall()
    assert seed(db, pool, decks, force=True)["skipped"] is False
    assert (counts(db), db.execute("SELECT id FROM decks").fetchall()) == first


def test_seeding_unchanged_content_is_skipped(db, pool, decks):
    assert seed(db, pool, decks)["skipped"] is False
    assert seed(db, pool, decks)["skipped"] is True
    assert len(get_setting(db, "seed_hash")) == 64


def test_a_changed_card_updates_its_row(db, pool, decks):
    seed(db, pool, decks)
    changed = dict(pool)
    changed["orc"] = parse_card(dict(pool["orc"].data, power=9, rarity="U"))
    assert seed(db, changed, decks)["skipped"] is False
    assert db["cards"].count == len(pool)
    row = db["cards"].get("orc")
    assert row["rarity"] == "U"
    assert json.loads(row["data"])["power"] == 9


def test_a_card_that_left_the_pool_keeps_its_row_out_of_the_pool(db, pool, decks, alice):
    seed(db, pool, decks)
    db["collection"].insert({"user_id": alice["id"], "card_id": "goblin-hexer", "count": 1})
    smaller = {cid: card for cid, card in pool.items() if cid != "goblin-hexer"}
    assert seed(db, smaller, decks)["retired"] == 1
    assert db["cards"].get("goblin-hexer")["in_pool"] == 0
    assert db["collection"].count == 1
    seed(db, pool, decks)
    assert db["cards"].get("goblin-hexer")["in_pool"] == 1


def test_loaner_deck_cards_are_replaced_exactly(db, pool, decks, tmp_path):
    seed(db, pool, decks)
    deck_id = get_loaner(db, "orc-brigade")["id"]
    folder = write_deck(tmp_path / "decks2", "orc-brigade", {"orc": 20, "goblin-hexer": 10}, name="New Name")
    seed(db, pool, load_decks(pool, folder))
    deck = get_loaner(db, "orc-brigade")
    assert deck["id"] == deck_id
    assert deck["cards"] == {"orc": 20, "goblin-hexer": 10}
    assert deck["name"] == "New Name"
    assert db["deck_cards"].count == 2


def test_a_loaner_deck_whose_file_is_gone_is_deleted(db, pool, decks):
    seed(db, pool, decks)
    assert seed(db, pool, {})["removed_loaners"] == 1
    assert db["decks"].count == 0 and db["deck_cards"].count == 0


def test_decks_that_are_not_loaners_are_not_seeded(db, pool, tmp_path):
    folder = write_deck(tmp_path / "decks", "cpu-orcs", {"orc": 30}, loaner=False)
    seed(db, pool, load_decks(pool, folder))
    assert db["decks"].count == 0


def test_seed_from_files_reads_the_pool_and_a_decks_folder(db, pool, decks, tmp_path):
    done = seed_from_files(db, decks_path=str(tmp_path / "decks"))
    assert (done["cards"], done["loaners"]) == (len(pool), 1)


def test_seed_from_files_treats_a_missing_decks_folder_as_no_decks(db, pool, tmp_path):
    done = seed_from_files(db, decks_path=str(tmp_path / "no-such-folder"))
    assert (done["cards"], done["loaners"]) == (len(pool), 0)
