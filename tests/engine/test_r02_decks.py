"""R2: decks (R2.1–R2.5), as far as the engine sees them: `Game.new` takes two lists of 30 card ids.

Ownership (R2.2), the loaner deck (R2.3) and the deckbuilder's tip (R2.5) belong to the collection
and the web app; here we pin what the engine does with whatever deck it is handed.
"""

import pytest

from webapp.engine import Game, load_pool

from .helpers import card, do, scenario, unit

DECK = ["orc"] * 10 + ["goblin-raider"] * 10 + ["fireball"] * 10


# ------------------------------------------------------------------ R2.1

@pytest.mark.parametrize("size", [0, 29, 31, 60])
def test_r2_1_game_refuses_a_deck_that_is_not_30_cards(size):
    """R2.1: a deck is exactly 30 cards."""
    bad = (["orc"] * size)
    with pytest.raises(ValueError, match="R2.1"):
        Game.new(bad, DECK, seed=1, first=0)
    with pytest.raises(ValueError, match="deck 1"):
        Game.new(DECK, bad, seed=1, first=0)


def test_r2_1_game_accepts_exactly_30_cards():
    """R2.1: 30 cards is a deck; the 30 become that player's instances p<p>c0..p<p>c29."""
    g = Game.new(DECK, DECK, seed=1, first=0)
    v = g.view(0)["players"]
    assert v[0]["hand_count"] + v[0]["deck_count"] == 30
    assert v[1]["hand_count"] + v[1]["deck_count"] == 30


def test_r2_1_game_refuses_unknown_card_ids():
    """R2.1: a deck holds cards of the pool; an unknown id is refused, naming it."""
    with pytest.raises(ValueError, match="no-such-card"):
        Game.new(DECK[:29] + ["no-such-card"], DECK, seed=1, first=0)


@pytest.mark.parametrize("land", ["road", "rearworld", "swamp"])
def test_r2_1_land_cards_are_not_deck_cards(land):
    """R2.1: there are no land cards in decks (the lands are placed by the game, R4.3)."""
    with pytest.raises(ValueError, match=land):
        Game.new(DECK[:29] + [land], DECK, seed=1, first=0)


def test_r2_1_land_kinds_are_not_in_the_card_pool():
    """R2.1: the pool a deck is built from holds only monsters and spells."""
    assert {c.kind for c in load_pool().values()} == {"monster", "spell"}


def test_r2_1_game_refuses_a_deck_without_a_monster():
    """R2.1 [decided]: a deck holds at least one monster (so the redeal of R5.3 ends)."""
    spells = ["fireball"] * 15 + ["stone-skin"] * 15
    with pytest.raises(ValueError, match="at least one monster"):
        Game.new(spells, DECK, seed=1, first=0)
    with pytest.raises(ValueError, match="deck 1"):
        Game.new(DECK, spells, seed=1, first=0)


def test_r2_1_one_monster_is_enough():
    """R2.1 [decided]: one monster and 29 spells is a legal deck; its opening hand holds the monster (R5.3)."""
    deck = ["orc"] + ["fireball"] * 29
    g = Game.new(deck, deck, seed=3, first=0)
    for p in (0, 1):
        hand = [c["card"] for c in g.view(p)["players"][p]["hand"]]
        assert hand.count("orc") == 1


@pytest.mark.parametrize("bad", [None, "orc", 30, {"orc": 30}])
def test_r2_1_a_deck_is_a_list_of_ids(bad):
    """R2.1: anything but a list of 30 card ids is refused with a ValueError."""
    with pytest.raises(ValueError):
        Game.new(bad, DECK, seed=1, first=0)


# ------------------------------------------------------------------ R2.2

def test_r2_2_no_copy_limit_in_the_engine():
    """R2.2 [decided]: apart from ownership there is no copy limit: 30 copies of one card is a deck."""
    g = Game.new(["orc"] * 30, ["fireball"] * 29 + ["fire-giant"], seed=2, first=0)
    assert g.waiting_for() == {0, 1}
    assert {c["card"] for c in g.view(0)["players"][0]["hand"]} == {"orc"}


def test_r2_2_each_copy_is_its_own_instance():
    """R2.2: copies are distinct cards of the deck: 30 orcs give 30 different instance ids."""
    g = Game.new(["orc"] * 30, DECK, seed=2, first=0)
    data = g.to_json()
    for k in range(30):
        assert f'"p0c{k}"' in data
    assert '"p0c30"' not in data


# ------------------------------------------------------------------ R2.3

def test_r2_3_both_players_may_use_the_same_deck_list():
    """R2.3: a loaner deck is a card list both players may use at once; the engine keeps the two
    players' cards apart (p0c*, p1c*)."""
    loaner = list(DECK)
    g = Game.new(loaner, loaner, seed=4, first=0)
    h0 = [c["id"] for c in g.view(0)["players"][0]["hand"]]
    h1 = [c["id"] for c in g.view(1)["players"][1]["hand"]]
    assert all(i.startswith("p0c") for i in h0)
    assert all(i.startswith("p1c") for i in h1)


def test_r2_3_the_deck_list_handed_in_is_not_changed():
    """R2.3 [decided]: a loaner deck is never added to (or changed by) a game: Game.new leaves the list as it was."""
    loaner = list(DECK)
    before = list(loaner)
    g = Game.new(loaner, loaner, seed=4, first=0)
    do(g, 0, g.legal_actions(0)[0])
    assert loaner == before


# ------------------------------------------------------------------ R2.4

def test_r2_4_a_new_game_has_no_leaders_and_no_units():
    """R2.4: leaders are not chosen at deckbuilding: a new game starts at the leader choice, board empty."""
    g = Game.new(DECK, DECK, seed=5, first=0)
    v = g.view(None)
    assert v["phase"] == "leaders"
    assert v["units"] == []
    assert "leaders" not in v


def test_r2_4_deck_entries_cannot_carry_a_leader_mark():
    """R2.4: a deck is plain card ids; an entry marking a leader is not a card id and is refused."""
    marked = [{"card": "orc", "leader": True}] + DECK[1:]
    with pytest.raises(ValueError):
        Game.new(marked, DECK, seed=5, first=0)


def test_r2_4_leaders_come_from_the_first_summon():
    """R2.4 / R5.4: the leaders are exactly the monsters chosen with choose_leaders."""
    g = Game.new(DECK, DECK, seed=5, first=0)
    picks = {}
    for p in (0, 1):
        a = max((a for a in g.legal_actions(p) if a["type"] == "choose_leaders"), key=lambda a: len(a["cards"]))
        picks[p] = a["cards"]
        do(g, p, a)
    v = g.view(None)
    assert v["leaders"] == [picks[0], picks[1]]
    assert sorted(u["id"] for u in v["units"] if u["leader"]) == sorted(picks[0] + picks[1])


def test_r2_4_any_monster_of_the_hand_may_become_a_leader():
    """R2.4: no card is a leader by deckbuilding; each monster of the opening hand may be chosen alone."""
    g = Game.new(DECK, DECK, seed=6, first=0)
    hand = g.view(0)["players"][0]["hand"]
    monsters = [c["id"] for c in hand if c["card"] != "fireball"]
    singles = [a["cards"] for a in g.legal_actions(0) if a["type"] == "choose_leaders" and len(a["cards"]) == 1]
    assert sorted(x[0] for x in singles) == sorted(monsters)


# ------------------------------------------------------------------ R2.5

def test_r2_5_spell_heavy_decks_are_legal():
    """R2.5: the tip is advice, not a rule: a deck of 29 spells and 1 monster is accepted."""
    deck = ["fireball"] * 29 + ["orc"]
    g = Game.new(deck, DECK, seed=7, first=0)
    assert g.waiting_for() == {0, 1}


def test_r2_5_spells_need_slots_of_the_party_monsters():
    """R2.5 (via R12.2): spells need spell slots of monsters: with no fire slot in the party a
    Fireball in hand cannot be used; with one it can."""
    def battle_with(slots):
        g = scenario({"hand": ["fireball"],
                      "units": [unit("orc", "H0", "a0", leader=True), unit("mage", "L3", "a1")]},
                     {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1")]},
                     cards={"mage": card(slots=slots, life=9)}, dice=[6, 1])
        do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
        return g
    g = battle_with({"earth": 2, "water": 1})
    # only attack is possible, so the engine attacked by itself: the battle is over
    assert g.view(0)["battle"] is None
    g = battle_with({"fire": 1})
    assert g.waiting_for() == {0}
    assert [a["type"] for a in g.legal_actions(0)] == ["spell", "attack", "resign"]


def test_r2_5_spells_cannot_be_summoned():
    """R2.5 / R7.5: a spell cannot stand on the board, so a deck of spells cannot move."""
    g = scenario({"hand": ["fireball", "stone-skin"], "units": [unit("orc", "H0", "a0", leader=True)]})
    assert [a for a in g.legal_actions(0) if a["type"] == "summon"] == []
