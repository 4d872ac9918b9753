"""Crafting: spare copies into shards and shards into cards (R2.2), one transaction a step; the attacks
are a double submit, racing threads on one account, crafting what is not affordable and disenchanting
copies a deck uses."""

import threading

import pytest

from webapp.decks import crafting
from webapp.decks.crafting import CRAFT, DISENCHANT, CraftRefused
from webapp.store import add_cards, connect, get_collection, get_deck, save_deck
from webapp.store import shards as store_shards

COMMON = "merfolk-spearman"


def a_card(pool, rarity):
    return sorted(cid for cid, c in pool.items() if c.rarity == rarity)[0]


def books_balance(db, user_id):
    """The balance equals the ledger's sum, and is never below 0."""
    balance = store_shards.get_balance(db, user_id)
    assert balance == store_shards.ledger_sum(db, user_id)
    assert balance >= 0
    return balance


def test_costs_keep_packs_worth_opening(pool):
    """Every rarity costs more to craft than a copy of it gives, and a pack disenchanted whole gives at most
    a quarter of what crafting its cards costs (the weights of R17.4)."""
    weights = {"C": 70, "U": 22, "R": 7, "SR": 1}
    for r in weights:
        assert CRAFT[r] >= 4 * DISENCHANT[r]
    give = sum(weights[r] * DISENCHANT[r] for r in weights)
    cost = sum(weights[r] * CRAFT[r] for r in weights)
    assert give * 4 <= cost


def test_r2_2_disenchant_a_spare_copy_gives_its_rarity_value(db, user, pool):
    add_cards(db, user["id"], {COMMON: 3})
    gained, balance = crafting.disenchant(db, user["id"], COMMON, 2, 0, pool)
    assert gained == balance == 2 * DISENCHANT[pool[COMMON].rarity]
    assert get_collection(db, user["id"])[COMMON] == 1
    assert books_balance(db, user["id"]) == balance
    assert store_shards.ledger(db, user["id"])[0]["detail"] == {"card": COMMON, "copies": 2}


def test_r2_2_copies_a_deck_uses_are_refused_naming_the_deck(db, user, pool):
    add_cards(db, user["id"], {COMMON: 3})
    save_deck(db, user["id"], "Tide", {COMMON: 2})
    save_deck(db, user["id"], "Small", {COMMON: 1})
    assert crafting.spare_of(db, user["id"]) == {COMMON: 1}
    with pytest.raises(CraftRefused, match="Tide"):
        crafting.disenchant(db, user["id"], COMMON, 2, 0, pool)
    assert get_collection(db, user["id"])[COMMON] == 3 and books_balance(db, user["id"]) == 0
    crafting.disenchant(db, user["id"], COMMON, 1, 0, pool)  # the spare one
    assert get_collection(db, user["id"])[COMMON] == 2


def test_disenchanting_more_than_owned_or_nonsense_changes_nothing(db, user, pool):
    add_cards(db, user["id"], {COMMON: 1})
    for card, copies in [(COMMON, 2), (COMMON, 0), (COMMON, -1), (COMMON, True), ("no-such-card", 1), (COMMON, 31)]:
        with pytest.raises(CraftRefused):
            crafting.disenchant(db, user["id"], card, copies, 0, pool)
    for expect in [None, "", "x", "-1", "１"]:
        with pytest.raises(CraftRefused):
            crafting.disenchant(db, user["id"], COMMON, 1, expect, pool)
    assert get_collection(db, user["id"]) == {COMMON: 1} and books_balance(db, user["id"]) == 0


def test_craft_costs_by_rarity_and_adds_the_cards(db, user, pool):
    rare = a_card(pool, "R")
    store_shards.exchange(db, user["id"], CRAFT["R"] + CRAFT["C"], "reward", {"source": "test"})
    spent, balance = crafting.craft(db, user["id"], {rare: 1, COMMON: 1}, CRAFT["R"] + CRAFT["C"], pool)
    assert spent == CRAFT["R"] + CRAFT["C"] and balance == 0
    assert get_collection(db, user["id"]) == {rare: 1, COMMON: 1}
    assert books_balance(db, user["id"]) == 0


def test_crafting_what_you_cannot_afford_changes_nothing(db, user, pool):
    sr = a_card(pool, "SR")
    store_shards.exchange(db, user["id"], CRAFT["SR"] - 1, "reward", {"source": "test"})
    with pytest.raises(CraftRefused, match="costs"):
        crafting.craft(db, user["id"], {sr: 1}, CRAFT["SR"] - 1, pool)
    with pytest.raises(CraftRefused):  # all or nothing: the affordable common does not come alone
        crafting.craft(db, user["id"], {COMMON: 1, sr: 1}, CRAFT["SR"] - 1, pool)
    assert get_collection(db, user["id"]) == {} and books_balance(db, user["id"]) == CRAFT["SR"] - 1


def test_craft_refuses_unknown_cards_bad_counts_and_more_than_a_deck(db, user, pool):
    store_shards.exchange(db, user["id"], 10_000, "reward", {"source": "test"})
    for counts in [{}, {"nope": 1}, {COMMON: 0}, {COMMON: -2}, {COMMON: 31}, {COMMON: True}]:
        with pytest.raises(CraftRefused):
            crafting.craft(db, user["id"], counts, 10_000, pool)
    assert get_collection(db, user["id"]) == {} and books_balance(db, user["id"]) == 10_000


def test_double_submit_of_one_disenchant_takes_one_copy(db, user, pool):
    """The second of two identical requests (the same page, the same expected balance) does nothing."""
    add_cards(db, user["id"], {COMMON: 5})
    crafting.disenchant(db, user["id"], COMMON, 1, 0, pool)
    with pytest.raises(CraftRefused, match="changed"):
        crafting.disenchant(db, user["id"], COMMON, 1, 0, pool)
    assert get_collection(db, user["id"])[COMMON] == 4
    assert books_balance(db, user["id"]) == DISENCHANT[pool[COMMON].rarity]


def test_double_submit_of_one_craft_crafts_once(db, user, pool):
    store_shards.exchange(db, user["id"], 3 * CRAFT["C"], "reward", {"source": "test"})
    crafting.craft(db, user["id"], {COMMON: 1}, 3 * CRAFT["C"], pool)
    with pytest.raises(CraftRefused, match="changed"):
        crafting.craft(db, user["id"], {COMMON: 1}, 3 * CRAFT["C"], pool)
    assert get_collection(db, user["id"]) == {COMMON: 1} and books_balance(db, user["id"]) == 2 * CRAFT["C"]


def race(db_path, jobs):
    """Run each job(db) on its own connection and thread, released together; the outcomes in order."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def run(i, job):
        conn = connect(db_path)
        try:
            barrier.wait()
            results[i] = ("ok", job(conn))
        except CraftRefused as exc:
            results[i] = ("refused", str(exc))
        finally:
            conn.conn.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_eight_racing_crafts_from_one_page_craft_once(db_path, db, user, pool):
    uid = user["id"]
    store_shards.exchange(db, uid, 8 * CRAFT["C"], "reward", {"source": "test"})
    results = race(db_path, [lambda c: crafting.craft(c, uid, {COMMON: 1}, 8 * CRAFT["C"], pool)] * 8)
    assert [r[0] for r in results].count("ok") == 1
    assert get_collection(db, uid) == {COMMON: 1} and books_balance(db, uid) == 7 * CRAFT["C"]


def test_racing_disenchants_and_crafts_never_create_or_lose_a_shard(db_path, db, user, pool):
    """Requests each reading the balance afresh (as many tabs would after a reload) race: whatever wins,
    the shards are the ledger's sum and every card is accounted for."""
    uid = user["id"]
    add_cards(db, uid, {COMMON: 20})
    value, cost = DISENCHANT[pool[COMMON].rarity], CRAFT[pool[COMMON].rarity]

    def fresh_disenchant(conn):
        return crafting.disenchant(conn, uid, COMMON, 1, store_shards.get_balance(conn, uid), pool)

    def fresh_craft(conn):
        return crafting.craft(conn, uid, {COMMON: 1}, store_shards.get_balance(conn, uid), pool)

    results = race(db_path, [fresh_disenchant] * 12 + [fresh_craft] * 4)
    done_d = sum(1 for r in results[:12] if r[0] == "ok")
    done_c = sum(1 for r in results[12:] if r[0] == "ok")
    assert done_d >= 1
    assert get_collection(db, uid)[COMMON] == 20 - done_d + done_c
    assert books_balance(db, uid) == done_d * value - done_c * cost


def test_a_crash_inside_the_exchange_leaves_everything_as_it_was(db, user, pool, monkeypatch):
    add_cards(db, user["id"], {COMMON: 2})

    def boom(*args, **kwargs):
        raise RuntimeError("power cut")

    monkeypatch.setattr(store_shards, "json", type("J", (), {"dumps": staticmethod(boom)}))
    with pytest.raises(RuntimeError):
        crafting.disenchant(db, user["id"], COMMON, 1, 0, pool)
    assert get_collection(db, user["id"]) == {COMMON: 2} and books_balance(db, user["id"]) == 0


def test_nothing_to_craft_on_a_host_that_gives_every_card(db, user, pool):
    add_cards(db, user["id"], {COMMON: 2})
    with pytest.raises(CraftRefused, match="every card"):
        crafting.disenchant(db, user["id"], COMMON, 1, 0, pool, {"COLLECTION": "all"})
    with pytest.raises(CraftRefused, match="every card"):
        crafting.craft(db, user["id"], {COMMON: 1}, 0, pool, {"COLLECTION": "all"})


def test_crafting_the_thirtieth_card_builds_the_first_deck(db, user, pool):
    """R2.3: a collection reaching 30 cards by crafting ends the loaner, as a pack does."""
    from webapp.decks import packs
    from webapp.store import list_decks
    packs.grant_starter(db, user["id"])
    add_cards(db, user["id"], {COMMON: 30 - 21 - 1})
    store_shards.exchange(db, user["id"], CRAFT["C"], "reward", {"source": "test"})
    crafting.craft(db, user["id"], {COMMON: 1}, CRAFT["C"], pool)
    own = [d for d in list_decks(db, user["id"]) if not d["loaner"]]
    assert len(own) == 1 and own[0]["size"] == 30


# ---------------------------------------------------------------- what a saved deck lacks


def imported(db, uid, held, wants, name="Tide"):
    """A saved deck of ``held`` whose source list also had ``wants`` the player did not own (an import)."""
    from webapp.store.decks import put_wants
    deck_id = save_deck(db, uid, name, held)
    put_wants(db, deck_id, wants)
    return deck_id


def test_a_saved_deck_lacks_its_lists_wants_against_the_collection_now(db, user, pool):
    uid = user["id"]
    add_cards(db, uid, {"orc": 2})
    deck_id = imported(db, uid, {"orc": 2}, {"orc": 3, COMMON: 1})
    assert crafting.deck_lacks(db, uid, deck_id, pool) == {"orc": 3, COMMON: 1}
    add_cards(db, uid, {"orc": 2})  # two more from a pack since: not crafted again
    assert crafting.deck_lacks(db, uid, deck_id, pool) == {"orc": 1, COMMON: 1}
    assert crafting.deck_lacks(db, uid, deck_id, pool, {"COLLECTION": "all"}) == {}


def test_a_deck_holding_cards_no_longer_owned_lacks_them_and_crafting_keeps_the_deck(db, user, pool):
    """A deck saved while the host gave every card, then the host counted owned cards again."""
    uid = user["id"]
    add_cards(db, uid, {"orc": 1})
    deck_id = save_deck(db, uid, "Old", {"orc": 3, COMMON: 2})
    assert crafting.deck_lacks(db, uid, deck_id, pool) == {"orc": 2, COMMON: 2}
    cost = crafting.craft_cost({"orc": 2, COMMON: 2}, pool)
    store_shards.exchange(db, uid, cost, "reward", {"source": "test"})
    crafted, spent, left = crafting.craft_for_deck(db, uid, deck_id, cost, pool)
    assert (crafted, spent, left) == ({"orc": 2, COMMON: 2}, cost, 0)
    assert get_deck(db, uid, deck_id)["cards"] == {"orc": 3, COMMON: 2}
    assert get_collection(db, uid) == {"orc": 3, COMMON: 2} and books_balance(db, uid) == 0
    assert crafting.deck_lacks(db, uid, deck_id, pool) == {}


def test_crafting_what_a_deck_lacks_completes_it_and_clears_its_wants(db, user, pool):
    from webapp.store.decks import deck_wants
    uid = user["id"]
    add_cards(db, uid, {"orc": 2})
    deck_id = imported(db, uid, {"orc": 2}, {"orc": 1, COMMON: 1})
    cost = crafting.craft_cost({"orc": 1, COMMON: 1}, pool)
    store_shards.exchange(db, uid, cost + 5, "reward", {"source": "test"})
    crafting.craft_for_deck(db, uid, deck_id, cost + 5, pool)
    assert get_deck(db, uid, deck_id)["cards"] == {"orc": 3, COMMON: 1} and deck_wants(db, deck_id) == {}
    with pytest.raises(CraftRefused, match="lacks no card"):
        crafting.craft_for_deck(db, uid, deck_id, 5, pool)
    assert books_balance(db, uid) == 5


def test_a_deck_filled_otherwise_since_lacks_nothing_and_crafting_it_changes_nothing(db, user, pool):
    uid = user["id"]
    add_cards(db, uid, {"orc": 30})
    deck_id = imported(db, uid, {"orc": 29}, {COMMON: 2})  # 29 + 2 would pass 30
    store_shards.exchange(db, uid, 1000, "reward", {"source": "test"})
    assert crafting.deck_lacks(db, uid, deck_id, pool) == {}
    with pytest.raises(CraftRefused, match="more than 30"):
        crafting.craft_for_deck(db, uid, deck_id, 1000, pool)
    assert get_deck(db, uid, deck_id)["cards"] == {"orc": 29} and books_balance(db, uid) == 1000


def test_another_players_deck_is_out_of_reach(db, user, pool):
    from webapp.store import NotYourDeck
    from webapp.store.users import create_user
    mallory = create_user(db, "mallory", "hash")
    deck_id = imported(db, user["id"], {}, {COMMON: 1})
    store_shards.exchange(db, mallory["id"], 1000, "reward", {"source": "test"})
    with pytest.raises(NotYourDeck):
        crafting.deck_lacks(db, mallory["id"], deck_id, pool)
    with pytest.raises(NotYourDeck):
        crafting.craft_for_deck(db, mallory["id"], deck_id, 1000, pool)
    assert get_collection(db, mallory["id"]) == {} and books_balance(db, mallory["id"]) == 1000


def test_racing_crafts_of_what_a_deck_lacks_craft_it_once(db_path, db, user, pool):
    """Eight tabs each reading the balance afresh race to craft what one deck lacks: the lacks are read
    again inside the transaction, so the cards are crafted and paid for once."""
    uid = user["id"]
    add_cards(db, uid, {"orc": 2})
    deck_id = imported(db, uid, {"orc": 2}, {"orc": 1, COMMON: 2})
    cost = crafting.craft_cost({"orc": 1, COMMON: 2}, pool)
    store_shards.exchange(db, uid, 8 * cost, "reward", {"source": "test"})

    def fresh(conn):
        return crafting.craft_for_deck(conn, uid, deck_id, store_shards.get_balance(conn, uid), pool)

    results = race(db_path, [fresh] * 8)
    assert [r[0] for r in results].count("ok") == 1
    assert all("lacks no card" in r[1] or "changed" in r[1] for r in results if r[0] == "refused")
    assert get_deck(db, uid, deck_id)["cards"] == {"orc": 3, COMMON: 2}
    assert get_collection(db, uid) == {"orc": 3, COMMON: 2} and books_balance(db, uid) == 7 * cost
