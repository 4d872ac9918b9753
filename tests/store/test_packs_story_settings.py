"""Packs open once, story rewards are claimed once, settings hold JSON values."""

import pytest

from webapp.store import (BadCounts, PackNotFound, all_settings, claim_reward, get_collection, get_progress,
                          get_setting, grant_pack, list_packs, open_pack, record_clear, seed, set_setting)


@pytest.fixture(autouse=True)
def seeded(db, pool):
    seed(db, pool, {})


def test_a_pack_opens_once_into_the_collection(db, alice):
    pack_id = grant_pack(db, alice["id"], "welcome")
    assert [p["id"] for p in list_packs(db, alice["id"], unopened_only=True)] == [pack_id]
    open_pack(db, alice["id"], pack_id, ["orc", "orc", "goblin-hexer"])
    assert get_collection(db, alice["id"]) == {"goblin-hexer": 1, "orc": 2}
    assert list_packs(db, alice["id"])[0]["cards"] == ["orc", "orc", "goblin-hexer"]
    with pytest.raises(PackNotFound):
        open_pack(db, alice["id"], pack_id, ["orc"])
    assert get_collection(db, alice["id"]) == {"goblin-hexer": 1, "orc": 2}


def test_nobody_opens_another_users_pack(db, alice, bob):
    pack_id = grant_pack(db, alice["id"], "welcome")
    with pytest.raises(PackNotFound):
        open_pack(db, bob["id"], pack_id, ["orc"])
    assert get_collection(db, bob["id"]) == {} and list_packs(db, alice["id"])[0]["opened_at"] is None


def test_a_pack_with_an_unknown_card_stays_unopened(db, alice):
    pack_id = grant_pack(db, alice["id"], "welcome")
    with pytest.raises(BadCounts, match="no such card"):
        open_pack(db, alice["id"], pack_id, ["orc", "nope"])
    assert list_packs(db, alice["id"], unopened_only=True)[0]["id"] == pack_id


def test_story_reward_is_claimed_once_and_only_when_cleared(db, alice):
    assert claim_reward(db, alice["id"], "1") is False
    record_clear(db, alice["id"], "1", {"turns": 9})
    record_clear(db, alice["id"], "1")  # keeps the best result
    assert claim_reward(db, alice["id"], "1") is True
    assert claim_reward(db, alice["id"], "1") is False
    progress = get_progress(db, alice["id"])["1"]
    assert (progress["cleared"], progress["best"], progress["reward_granted"]) == (True, {"turns": 9}, True)


def test_settings_hold_json_values(db):
    set_setting(db, "registration", {"open": True, "invite_only": False})
    set_setting(db, "registration", {"open": False})
    assert get_setting(db, "registration") == {"open": False}
    assert get_setting(db, "missing", "default") == "default"
    assert all_settings(db)["registration"] == {"open": False}
