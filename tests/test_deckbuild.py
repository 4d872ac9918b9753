"""The automatic deck (webapp.decks.build): valid for any collection of 30 to 60 cards (R2.1, R2.2),
monsters first, only spells the deck can pay (R12.2), Fill for me keeps the chosen cards, and the
first deck is built once, when a collection first reaches 30 cards."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.lanes import check, lanes
from webapp.decks import build as deckbuild, collection, packs
from webapp.decks.check import DECK_SIZE, SPELL_TIP_AT, check_deck, slot_kinds
from webapp.engine import load_pool
from webapp.store import add_cards, connect, get_deck, list_decks, migrate, seed_from_files, transaction
from webapp.store.marks import get_mark
from webapp.store.users import create_user

POOL = load_pool()
IDS = sorted(POOL)
MONSTERS = [c for c in IDS if POOL[c].kind == "monster"]


def kind(cid):
    return POOL[cid].kind


def payable(deck, cid):
    kinds = slot_kinds(deck, POOL)
    d = POOL[cid]
    return d.mana <= 0 or d.element in kinds or "wild" in kinds


collections_30_60 = st.lists(st.sampled_from(IDS), min_size=30, max_size=60).map(lambda ids: dict(Counter(ids)))


@lanes(fast=50, full=300)
def test_r2_1_r2_2_automatic_deck_is_valid_for_every_collection_of_30_to_60_cards(examples):
    check(automatic_deck_is_valid, examples, owned=collections_30_60)


def automatic_deck_is_valid(owned):
    deck = deckbuild.build(owned, POOL)
    assert sum(deck.values()) == DECK_SIZE
    assert all(0 < n <= owned[cid] for cid, n in deck.items())  # R2.2
    has_monster = any(kind(c) == "monster" for c in owned)
    report = check_deck(deck, POOL, owned)
    assert report.playable == has_monster, report.messages()
    assert not report.messages("refused")
    # R12.2: a spell nobody can pay goes in only when every other owned card is in already
    unpaid = [c for c in deck if kind(c) == "spell" and not payable(deck, c)]
    if unpaid:
        for cid, n in owned.items():
            if kind(cid) == "monster" or payable(deck, cid):
                assert deck.get(cid, 0) == n, (cid, unpaid)
    # monsters first: spells beyond the tip only when the monsters ran out
    monsters = sum(n for c, n in deck.items() if kind(c) == "monster")
    spells = DECK_SIZE - monsters
    if spells > min(deckbuild.SPELL_TARGET, monsters):
        assert monsters == sum(n for c, n in owned.items() if kind(c) == "monster")


@settings(max_examples=100, deadline=None)
@given(collections_30_60, st.randoms(use_true_random=False))
def test_fill_keeps_every_chosen_card_and_completes_the_deck(owned, rnd):
    chosen = {}
    for cid, n in owned.items():
        k = rnd.randint(0, n)
        if k and sum(chosen.values()) + k < DECK_SIZE:
            chosen[cid] = k
    deck, added = deckbuild.fill(chosen, owned, POOL)
    assert sum(deck.values()) == DECK_SIZE
    for cid, n in chosen.items():
        assert deck[cid] >= n
    assert all(deck[cid] <= owned[cid] for cid in deck)
    assert {c: n - chosen.get(c, 0) for c, n in deck.items() if n > chosen.get(c, 0)} == added
    assert sum(added.values()) == DECK_SIZE - sum(chosen.values())


def test_fill_on_a_full_deck_or_with_nothing_left_changes_nothing():
    owned = {"orc": 20, "salamander": 10}
    full = {"orc": 20, "salamander": 10}
    assert deckbuild.fill(full, owned, POOL) == (full, {})
    small = {"orc": 5}
    assert deckbuild.fill(small, small, POOL) == (small, {})  # owns nothing more: as far as it goes


def test_fill_drops_cards_not_owned_or_not_in_the_pool():
    owned = {"orc": 20, "salamander": 10, "fireball": 3}
    deck = deckbuild.build(owned, POOL, keep={"orc": 25, "no-such-card": 2, "kraken": 1})
    assert deck["orc"] == 20 and "no-such-card" not in deck and "kraken" not in deck
    assert sum(deck.values()) == DECK_SIZE


def test_two_elements_chosen_for_the_best_monsters_and_kept_by_fill():
    # plenty of water and wind (the starter) and a little fire: water and wind are chosen
    owned = dict(packs.STARTER)
    owned.update({"salamander": 1, "fireball": 2, "kraken": 1, "sylph": 4})
    assert deckbuild.pick_elements(owned, POOL, {}) == ("water", "wind")
    # a partial deck of fire and earth keeps those elements even though water is stronger
    keep = {"salamander": 1, "fireball": 2}
    owned.update({"orc": 3, "flame-warden": 2})
    assert "fire" in deckbuild.pick_elements(owned, POOL, keep)


def test_spells_only_those_the_deck_can_pay_and_no_more_than_the_monsters():
    rng = random.Random(7)
    for _ in range(200):
        owned = dict(Counter(rng.choice(IDS) for _ in range(rng.randint(40, 60))))
        deck = deckbuild.build(owned, POOL)
        monsters = sum(n for c, n in deck.items() if kind(c) == "monster")
        spells = sum(n for c, n in deck.items() if kind(c) == "spell")
        owned_monsters = sum(n for c, n in owned.items() if kind(c) == "monster")
        if owned_monsters >= DECK_SIZE - SPELL_TIP_AT:
            assert spells <= min(SPELL_TIP_AT, monsters)
            assert all(payable(deck, c) for c in deck if kind(c) == "spell")


def test_level_curve_of_a_deck_built_from_many_monsters():
    owned = {c: 3 for c in MONSTERS if POOL[c].element in ("fire", "earth")}
    deck = deckbuild.build(owned, POOL)
    curve = Counter()
    for c, n in deck.items():
        curve[POOL[c].level] += n
    assert curve[1] >= curve[2] >= curve[3] >= curve[4]
    assert curve[3] + curve[4] <= 8
    assert {POOL[c].element for c in deck} <= {"fire", "earth"}


def test_a_new_players_collection_after_the_first_pack_builds_a_water_and_wind_deck():
    """Pacing (docs/collection.md): starter 21 + welcome pack 6 = 27, the next pack makes 33."""
    assert sum(packs.STARTER.values()) + packs.DEFAULT_SIZE == 27
    rng = random.Random(3)
    for _ in range(50):
        owned = Counter(packs.STARTER)
        owned.update(packs.draw_pack(POOL, rng))
        owned.update(packs.draw_pack(POOL, rng))
        assert sum(owned.values()) == 33
        deck = deckbuild.build(dict(owned), POOL)
        report = check_deck(deck, POOL, dict(owned))
        assert report.playable and not report.messages("warning"), report.messages()
        in_pair = sum(n for c, n in deck.items() if POOL[c].element in ("water", "wind"))
        assert in_pair >= 21


# ---------------------------------------------------------------- the first deck


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "t.db")
    migrate(database)
    seed_from_files(database)
    yield database
    database.conn.close()


def own_decks(db, uid):
    return [d for d in list_decks(db, uid) if not d["loaner"]]


def test_first_deck_is_built_once_when_the_collection_first_reaches_30(db):
    uid = create_user(db, "nora", "hash")["id"]
    packs.grant_starter(db, uid)  # 21 cards and a welcome pack
    (welcome,) = packs.list_packs(db, uid)
    packs.open_pack(db, uid, welcome["id"], POOL, {}, rng=random.Random(1))  # 27
    assert own_decks(db, uid) == [] and get_mark(db, uid, deckbuild.FIRST_DECK_MARK) is None
    for source in ("win:game:1", "story:first-muster"):
        packs.grant_pack(db, uid, source)
    first, second = packs.list_packs(db, uid, unopened_only=True)
    packs.open_pack(db, uid, first["id"], POOL, {}, rng=random.Random(2))  # 33: the deck appears
    (deck,) = own_decks(db, uid)
    assert deck["name"] == deckbuild.FIRST_DECK_NAME
    cards = get_deck(db, uid, deck["id"])["cards"]
    assert check_deck(cards, POOL, collection.owned(db, uid)).playable
    assert get_mark(db, uid, deckbuild.FIRST_DECK_MARK) == {"deck": deck["id"], "told": False}
    packs.open_pack(db, uid, second["id"], POOL, {}, rng=random.Random(3))  # 39: no second deck
    assert len(own_decks(db, uid)) == 1
    # deleting it does not bring it back: it is built once
    from webapp.store import delete_deck
    delete_deck(db, uid, deck["id"])
    assert deckbuild.after_grant(db, uid) is None and own_decks(db, uid) == []


def test_first_deck_tells_once(db):
    uid = create_user(db, "ona", "hash")["id"]
    add_cards(db, uid, packs.STARTER)
    add_cards(db, uid, {"orc": 12})
    deck_id, name = deckbuild.after_grant(db, uid)
    assert name == deckbuild.FIRST_DECK_NAME
    assert deckbuild.take_notice(db, uid) == name
    assert deckbuild.take_notice(db, uid) is None


def test_no_first_deck_for_a_player_who_has_a_deck_ready(db):
    uid = create_user(db, "pim", "hash")["id"]
    add_cards(db, uid, {"orc": 30})
    from webapp.store import save_deck
    save_deck(db, uid, "Orcs", {"orc": 30})
    assert deckbuild.after_grant(db, uid) is None
    assert [d["name"] for d in own_decks(db, uid)] == ["Orcs"]
    assert get_mark(db, uid, deckbuild.FIRST_DECK_MARK) == {"deck": None, "told": True}


def test_first_deck_name_taken_gets_a_free_one(db):
    uid = create_user(db, "quin", "hash")["id"]
    add_cards(db, uid, {"orc": 31})
    from webapp.store import save_deck
    save_deck(db, uid, deckbuild.FIRST_DECK_NAME, {"orc": 3})  # a draft under that name
    _, name = deckbuild.after_grant(db, uid)
    assert name == f"{deckbuild.FIRST_DECK_NAME} (copy)"


def test_under_30_cards_no_deck_and_no_mark(db):
    uid = create_user(db, "rae", "hash")["id"]
    add_cards(db, uid, {"orc": 29})
    assert deckbuild.after_grant(db, uid) is None
    assert get_mark(db, uid, deckbuild.FIRST_DECK_MARK) is None


def test_a_chapters_reward_cards_that_make_30_build_the_first_deck(db):
    from webapp.game import storychapters, storyprogress

    uid = create_user(db, "sol", "hash")["id"]
    add_cards(db, uid, packs.STARTER)
    add_cards(db, uid, {"merfolk-spearman": 6})  # 27, as after the welcome pack
    shield_wall = next(c for c in storychapters.chapters() if sum(c.reward["cards"].values()) == 3 and not c.reward["packs"])
    with transaction(db):
        storyprogress.grant_reward(db, uid, shield_wall)
    (deck,) = own_decks(db, uid)
    assert deck["name"] == deckbuild.FIRST_DECK_NAME
    assert sum(get_deck(db, uid, deck["id"])["cards"].values()) == DECK_SIZE
