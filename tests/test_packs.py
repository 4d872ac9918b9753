"""Getting cards (R2.2, R2.3, R17.4): the starter collection, pack odds, opening packs, what a user owns."""

import math
import random
from collections import Counter

import pytest

from webapp.decks import packs
from webapp.engine import load_pool
from webapp.store import connect, get_collection, grant_pack, list_packs, open_pack, prepare
from webapp.store.users import create_user

POOL = load_pool()


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "brigade.db"
    prepare(str(path))
    database = connect(str(path))
    yield database
    database.conn.close()


@pytest.fixture
def user(db):
    return create_user(db, "alice", "hash")


@pytest.fixture
def other(db):
    return create_user(db, "bob", "hash")


# ---------------------------------------------------------------- the starter collection

def test_r2_3_starter_and_welcome_pack_are_fewer_than_30_cards():
    assert sum(packs.STARTER.values()) + packs.DEFAULT_SIZE < 30


def test_starter_is_common_and_uncommon_set_1_cards_of_the_pool():
    for card_id in packs.STARTER:
        card = POOL[card_id]
        assert card.rarity in ("C", "U"), card_id
        assert card.set == 1, card_id


def test_starter_holds_monsters_and_spells_they_can_pay_for():
    monsters = [POOL[c] for c in packs.STARTER if POOL[c].kind == "monster"]
    slots = {k for m in monsters for k in m.slots}
    for card_id in packs.STARTER:
        card = POOL[card_id]
        if card.kind == "spell":
            assert card.element in slots or "wild" in slots, card_id
    assert len(monsters) > len(packs.STARTER) / 2


def test_grant_starter_gives_the_starter_and_one_welcome_pack(db, user):
    assert packs.grant_starter(db, user["id"]) is True
    assert get_collection(db, user["id"]) == packs.STARTER
    [pack] = list_packs(db, user["id"])
    assert pack["source"] == packs.WELCOME_SOURCE and pack["opened_at"] is None


def test_grant_starter_twice_gives_nothing_more(db, user):
    packs.grant_starter(db, user["id"])
    assert packs.grant_starter(db, user["id"]) is False
    assert get_collection(db, user["id"]) == packs.STARTER
    assert len(list_packs(db, user["id"])) == 1


# ---------------------------------------------------------------- settings

def test_default_settings():
    assert packs.pack_settings({}) == ({"C": 70, "U": 22, "R": 7, "SR": 1}, 6)


def test_settings_from_config_fill_missing_rarities_with_zero():
    assert packs.pack_settings({"PACK_WEIGHTS": {"R": 1, "SR": 1}, "PACK_SIZE": 3}) == (
        {"C": 0, "U": 0, "R": 1, "SR": 1}, 3)


@pytest.mark.parametrize("config, problem", [
    ({"PACK_WEIGHTS": {"X": 1}}, "unknown rarity 'X'"),
    ({"PACK_WEIGHTS": {"C": -1, "U": 1}}, "PACK_WEIGHTS['C']"),
    ({"PACK_WEIGHTS": {"C": "70"}}, "PACK_WEIGHTS['C']"),
    ({"PACK_WEIGHTS": {"C": True}}, "PACK_WEIGHTS['C']"),
    ({"PACK_WEIGHTS": {"C": float("nan")}}, "PACK_WEIGHTS['C']"),
    ({"PACK_WEIGHTS": {"C": 0, "U": 0}}, "at least one rarity"),
    ({"PACK_WEIGHTS": [70, 22, 7, 1]}, "expected a dict"),
    ({"PACK_SIZE": 0}, "PACK_SIZE"),
    ({"PACK_SIZE": 31}, "PACK_SIZE"),
    ({"PACK_SIZE": "6"}, "PACK_SIZE"),
])
def test_bad_settings_are_refused_naming_the_setting(config, problem):
    with pytest.raises(ValueError, match=problem.replace("[", r"\[").replace("(", r"\(")):
        packs.pack_settings(config)


def test_odds_are_percentages():
    assert packs.odds(packs.DEFAULT_WEIGHTS) == {"C": 70, "U": 22, "R": 7, "SR": 1}
    assert packs.odds({"C": 1, "U": 1, "R": 0, "SR": 0}) == {"C": 50, "U": 50, "R": 0, "SR": 0}


# ---------------------------------------------------------------- drawing a pack (R17.4)

def test_a_pack_is_size_cards_of_the_pool_rarest_last():
    rng = random.Random(1)
    for _ in range(200):
        cards = packs.draw_pack(POOL, rng)
        assert len(cards) == 6
        assert all(c in POOL for c in cards)
        ranks = [packs.RARITIES.index(POOL[c].rarity) for c in cards]
        assert ranks == sorted(ranks)


def test_the_same_seed_draws_the_same_pack():
    assert packs.draw_pack(POOL, random.Random(7)) == packs.draw_pack(POOL, random.Random(7))


def test_pack_odds_follow_the_weights():
    """20,004 cards drawn with a fixed seed: each rarity within 4 standard deviations of its weight."""
    rng = random.Random(20240)
    drawn = [c for _ in range(3334) for c in packs.draw_pack(POOL, rng, packs.DEFAULT_WEIGHTS, 6)]
    n = len(drawn)
    by_rarity = Counter(POOL[c].rarity for c in drawn)
    total = sum(packs.DEFAULT_WEIGHTS.values())
    for rarity, weight in packs.DEFAULT_WEIGHTS.items():
        p = weight / total
        expected, sd = n * p, math.sqrt(n * p * (1 - p))
        assert abs(by_rarity[rarity] - expected) < 4 * sd, (rarity, by_rarity[rarity], expected, sd)


def test_within_a_rarity_every_card_is_as_likely():
    """Common cards, drawn 20,000 times: a chi-square test against the even spread (p > 0.001)."""
    rng = random.Random(99)
    commons = [c for c in POOL.values() if c.rarity == "C"]
    drawn = Counter(packs.draw_pack(commons, rng, {"C": 1}, 20_000))
    expected = 20_000 / len(commons)
    chi2 = sum((drawn[c.id] - expected) ** 2 / expected for c in commons)
    dof = len(commons) - 1
    # Wilson-Hilferty: the chi-square quantile at 0.999 for dof degrees of freedom.
    z = 3.09
    limit = dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3
    assert set(drawn) == {c.id for c in commons}
    assert chi2 < limit, (chi2, limit)


def test_a_rarity_of_weight_zero_is_never_drawn():
    rng = random.Random(3)
    cards = packs.draw_pack(POOL, rng, {"C": 0, "U": 0, "R": 1, "SR": 1}, 600)
    assert {POOL[c].rarity for c in cards} == {"R", "SR"}


def test_a_rarity_missing_from_the_pool_leaves_its_chance_to_the_others():
    commons = {cid: c for cid, c in POOL.items() if c.rarity == "C"}
    cards = packs.draw_pack(commons, random.Random(4), packs.DEFAULT_WEIGHTS, 50)
    assert all(c in commons for c in cards)


def test_a_pool_without_any_drawable_rarity_is_refused():
    commons = [c for c in POOL.values() if c.rarity == "C"]
    with pytest.raises(ValueError, match="no card of the pool"):
        packs.draw_pack(commons, random.Random(0), {"SR": 1}, 6)


# ---------------------------------------------------------------- opening packs

def test_opening_a_pack_adds_its_cards_to_the_collection(db, user):
    pack_id = grant_pack(db, user["id"], "story:1")
    cards = packs.open_pack(db, user["id"], pack_id, POOL, {}, random.Random(5))
    assert len(cards) == 6
    assert get_collection(db, user["id"]) == dict(Counter(cards))
    pack = packs.get_pack(db, user["id"], pack_id)
    assert pack["cards"] == cards and pack["opened_at"] is not None


def test_pack_size_comes_from_the_config(db, user):
    pack_id = grant_pack(db, user["id"], "win")
    assert len(packs.open_pack(db, user["id"], pack_id, POOL, {"PACK_SIZE": 2}, random.Random(5))) == 2


def test_opening_a_pack_twice_is_refused_and_changes_nothing(db, user):
    pack_id = grant_pack(db, user["id"], "story:1")
    packs.open_pack(db, user["id"], pack_id, POOL, {}, random.Random(5))
    before = get_collection(db, user["id"])
    with pytest.raises(packs.PackOpened):
        packs.open_pack(db, user["id"], pack_id, POOL, {}, random.Random(6))
    assert get_collection(db, user["id"]) == before


def test_a_pack_opened_by_another_request_meanwhile_is_refused(db, user, monkeypatch):
    pack_id = grant_pack(db, user["id"], "story:1")
    real_draw = packs.draw_pack

    def draw_while_another_request_opens(*args):
        open_pack(db, user["id"], pack_id, ["orc"])  # the other request wins the race
        return real_draw(*args)

    monkeypatch.setattr(packs, "draw_pack", draw_while_another_request_opens)
    with pytest.raises(packs.PackOpened):
        packs.open_pack(db, user["id"], pack_id, POOL, {}, random.Random(6))
    assert get_collection(db, user["id"]) == {"orc": 1}


def test_only_the_owner_opens_a_pack(db, user, other):
    pack_id = grant_pack(db, user["id"], "story:1")
    with pytest.raises(packs.PackNotFound):
        packs.open_pack(db, other["id"], pack_id, POOL, {}, random.Random(5))
    assert get_collection(db, other["id"]) == {}
    assert packs.get_pack(db, user["id"], pack_id)["opened_at"] is None


def test_an_unknown_pack_is_not_found(db, user):
    with pytest.raises(packs.PackNotFound):
        packs.get_pack(db, user["id"], 999)


@pytest.mark.parametrize("source, label", [
    ("welcome", "Welcome pack"), ("win", "Victory pack"), ("win:12", "Victory pack"),
    ("story:3", "Story pack (chapter 3)"), ("story", "Story pack"), ("event:x", "Event pack"), ("", "Pack"),
])
def test_source_labels(source, label):
    assert packs.source_label(source) == label
