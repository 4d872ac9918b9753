"""R7 Summoning: to the base, capacity 5, not while an enemy holds it, exhaustion, no spells."""

from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view

CARDS = {
    "lv1": card(),
    "lv2": card(level=2),
    "lv3": card(level=3),
    "lv5": card(level=5),
    "haste": card(keywords=["haste"], power=10, life=10),
    "haste2": card(level=2, keywords=["haste"]),
}

DECK = ["orc"] * 12


def hand_ids(g, p):
    return [c["id"] for c in g.view(p)["players"][p]["hand"]]


def owner_of(g, land):
    return g.view(0)["lands"][land]["owner"]


# ---------------------------------------------------------------- R7.1 from hand to the base

def test_r7_1_summon_puts_monster_on_own_base():
    """R7.1: a monster is summoned from hand to its owner's base."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}, {"card": "orc", "id": "h2"}], "deck": DECK},
                 cards=CARDS)
    ev = do(g, 0, {"type": "summon", "card": "h1"})
    s = events_of(ev, "summoned")
    assert [(e["unit"], e["land"], e["owner"]) for e in s] == [("h1", "H0", 0)]
    assert unit_view(g, "h1")["land"] == "H0"
    assert unit_view(g, "h1")["leader"] is False
    assert hand_ids(g, 0) == ["h2"]


def test_r7_1_player1_summons_to_own_base():
    """R7.1: player 1's base is H1."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "L5", "b0", leader=True)],
                     "hand": [{"card": "lv1", "id": "x1"}], "deck": DECK},
                 cards=CARDS, active=1)
    do(g, 1, {"type": "summon", "card": "x1"})
    assert unit_view(g, "x1", 1)["land"] == "H1"


def test_r7_1_summoning_costs_nothing():
    """R7.1: summoning costs nothing: only the summoned card leaves the hand; deck and discard unchanged."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}, {"card": "fireball", "id": "h2"},
                              {"card": "orc", "id": "h3"}], "deck": DECK}, cards=CARDS)
    before = g.view(0)["players"][0]
    ev = do(g, 0, {"type": "summon", "card": "h1"})
    after = g.view(0)["players"][0]
    assert after["hand_count"] == before["hand_count"] - 1
    assert hand_ids(g, 0) == ["h2", "h3"]
    assert after["deck_count"] == before["deck_count"] == 12
    assert after["discard"] == before["discard"] == []
    assert [e["type"] for e in ev] == ["summoned"]  # H0 is already player 0's


def test_r7_1_summon_names_no_land():
    """R7.1: the summon action goes to the base; it cannot name another land."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK}, cards=CARDS)
    assert_illegal(g, 0, {"type": "summon", "card": "h1", "land": "L1"})
    assert_illegal(g, 0, {"type": "summon", "card": "h1", "to": "L1"})


def test_r7_1_only_from_own_hand():
    """R7.1: from hand only: not from the deck, the discard pile, the board or the opponent's hand."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": [{"card": "lv1", "id": "d1"}],
                     "discard": [{"card": "lv1", "id": "g1"}]},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "hand": [{"card": "lv1", "id": "x1"}]},
                 cards=CARDS)
    assert find(g, 0, "summon") == [{"type": "summon", "card": "h1"}]
    for cid in ("d1", "g1", "x1", "a0", "b0"):
        assert_illegal(g, 0, {"type": "summon", "card": cid})


def test_r7_1_only_the_active_player_summons():
    """R7.1: summoning belongs to the owner's main step, not the opponent's turn."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "L5", "b0", leader=True)], "hand": [{"card": "lv1", "id": "x1"}]},
                 cards=CARDS)
    assert find(g, 1, "summon") == []
    assert_illegal(g, 1, {"type": "summon", "card": "x1"})


def test_r7_1_no_summon_during_battle():
    """R7.1/R7.5: summoning belongs to the main step; in battle only quick summon (R9.2) adds monsters."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("lv1", "L1", "a1")],
                     "hand": [{"card": "salamander", "id": "q1"}, {"card": "lv1", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L3", "b1")]},
                 cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert g.view(0)["phase"] == "battle" and g.waiting_for() == {0}
    assert find(g, 0, "summon") == []
    assert_illegal(g, 0, {"type": "summon", "card": "h1"})


# ---------------------------------------------------------------- R7.2 capacity 5

def test_r7_2_any_number_up_to_level_five():
    """R7.2: any number may be summoned while the base's own total level stays at most 5 (1 + 1+1+1+1 = 5)."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": f"h{i}"} for i in range(5)], "deck": DECK}, cards=CARDS)
    for i in range(4):
        do(g, 0, {"type": "summon", "card": f"h{i}"})
    assert g.view(0)["lands"]["H0"]["used"][0] == 1 + 4
    assert find(g, 0, "summon") == []
    assert_illegal(g, 0, {"type": "summon", "card": "h4"})  # 5 + 1 > 5


def test_r7_2_exact_fit_allowed_and_one_more_level_refused():
    """R7.2: 2 + 3 = 5 fits; 2 + 2 + 2 = 6 does not."""
    g = scenario(p0={"units": [unit("lv2", "H0", "a0", leader=True)],
                     "hand": [{"card": "lv3", "id": "h3"}, {"card": "lv2", "id": "h2"}], "deck": DECK},
                 cards=CARDS)
    assert {a["card"] for a in find(g, 0, "summon")} == {"h3", "h2"}
    do(g, 0, {"type": "summon", "card": "h2"})
    assert find(g, 0, "summon") == []  # 4 + 3 > 5
    assert_illegal(g, 0, {"type": "summon", "card": "h3"})


def test_r7_2_legal_actions_list_only_cards_that_fit():
    """R7.2: with 4 levels on the base, a level-1 card is offered and a level-2 card is not."""
    g = scenario(p0={"units": [unit("lv2", "H0", "a0", leader=True), unit("lv2", "H0", "a1")],
                     "hand": [{"card": "lv1", "id": "h1"}, {"card": "lv2", "id": "h2"}], "deck": DECK},
                 cards=CARDS)
    assert find(g, 0, "summon") == [{"type": "summon", "card": "h1"}]
    assert_illegal(g, 0, {"type": "summon", "card": "h2"})


def test_r7_2_level_five_card_on_empty_base():
    """R7.2: a level-5 monster fits an empty base (0 + 5 = 5)."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv5", "id": "h5"}], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h5"})
    assert g.view(0)["lands"]["H0"]["used"][0] == 5


# ---------------------------------------------------------------- R7.3 enemy on the base

def test_r7_3_no_summon_while_enemy_on_base():
    """R7.3: no summoning to your base while an enemy monster is on it, however much room is left."""
    g = scenario(p0={"units": [unit("orc", "L2", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "H0", "b1")]},
                 cards=CARDS)
    assert owner_of(g, "H0") == 1
    assert find(g, 0, "summon") == []
    assert_illegal(g, 0, {"type": "summon", "card": "h1"})


def test_r4_6_r7_3_summon_retakes_own_base_after_enemy_left():
    """R4.6 [decided]: once the enemy has left your base, summoning there enters an empty land and takes it back."""
    g = scenario(p0={"units": [unit("orc", "L2", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "H0", "b1")], "deck": DECK},
                 cards=CARDS, active=1)
    do(g, 1, {"type": "march", "units": ["b1"], "to": "L1"})  # the enemy leaves H0
    assert owner_of(g, "H0") == 1  # it stays player 1's land after they left
    do(g, 1, "end_turn")
    assert find(g, 0, "summon", card="h1") == [{"type": "summon", "card": "h1"}]
    ev = do(g, 0, {"type": "summon", "card": "h1"})
    assert [e["type"] for e in ev] == ["summoned", "land_taken"]
    assert events_of(ev, "land_taken")[0] == {"type": "land_taken", "player": 0, "land": "H0"}
    assert owner_of(g, "H0") == 0


def test_r4_6_summon_into_empty_captured_base_from_scenario():
    """R4.6 [decided]: an empty base owned by the enemy is taken back by a summon."""
    g = scenario(p0={"units": [unit("orc", "L2", "a0", leader=True)],
                     "hand": [{"card": "lv2", "id": "h1"}], "deck": DECK},
                 cards=CARDS, owners={"H0": 1})
    assert owner_of(g, "H0") == 1
    do(g, 0, {"type": "summon", "card": "h1"})
    assert owner_of(g, "H0") == 0
    assert g.view(0)["players"][0]["lands"] == 2  # H0 and L2


# ---------------------------------------------------------------- R7.4 exhausted unless Haste

def test_r7_4_summoned_monster_is_exhausted():
    """R7.4: a summoned monster is exhausted (R6.4)."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    v = unit_view(g, "h1")
    assert v["exhausted"] is True and v["marches_left"] == 0
    assert_illegal(g, 0, {"type": "march", "units": ["h1"], "to": "L2"})


def test_r7_4_haste_monster_marches_in_the_same_turn():
    """R7.4: with Haste it is not exhausted and may march the turn it is summoned."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "haste2", "id": "h1"}], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    assert unit_view(g, "h1")["exhausted"] is False
    assert find(g, 0, "march", units=["h1"], to="L2")
    ev = do(g, 0, {"type": "march", "units": ["h1"], "to": "L2"})
    assert events_of(ev, "land_taken")[0]["land"] == "L2"
    assert unit_view(g, "h1")["exhausted"] is True  # exhausted by its march (R8.1)


def test_r7_4_haste_monster_battles_in_the_same_turn():
    """R7.4: a Haste monster may march into enemies and battle the turn it is summoned."""
    g = scenario(p0={"units": [unit("orc", "L3", "a0", leader=True)],
                     "hand": [{"card": "haste", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L1", "b1")]},
                 cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "summon", "card": "h1"})
    ev = do(g, 0, {"type": "march", "units": ["h1"], "to": "L1"})
    assert events_of(ev, "battle_started")[0]["parties"]["0"] == ["h1"]
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert unit_view(g, "h1")["land"] == "L1"
    assert owner_of(g, "L1") == 0


def test_r7_4_haste_monster_summoned_from_a_march_ability_is_not_exhausted():
    """R7.4/R13.5: Haste also applies to a monster summoned by a [March] ability."""
    shaman = card(level=1, tribe="Goblin", abilities=[
        {"timing": "march", "effects": [{"do": "summon", "from": "hand", "to": "here",
                                         "filter": {"tribe": "Goblin", "max_level": 1}}]}])
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("shaman", "L1", "a1")],
                     "hand": [{"card": "goblin-raider", "id": "h1"}], "deck": DECK},
                 cards=dict(CARDS, shaman=shaman))
    do(g, 0, {"type": "march_ability", "unit": "a1", "targets": ["h1", "L1"]})
    assert unit_view(g, "h1")["land"] == "L1"
    assert unit_view(g, "h1")["exhausted"] is False


# ---------------------------------------------------------------- R7.5 spells

def test_r7_5_spells_cannot_be_summoned():
    """R7.5: spells cannot be summoned; they are used in battle."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "fireball", "id": "s1"}, {"card": "lv1", "id": "h1"}], "deck": DECK},
                 cards=CARDS)
    assert find(g, 0, "summon") == [{"type": "summon", "card": "h1"}]
    assert_illegal(g, 0, {"type": "summon", "card": "s1"})


def test_r7_5_hand_of_spells_offers_no_summon():
    """R7.5: a hand of only spells offers no summon at all."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "fireball", "id": "s1"}, {"card": "war-cry", "id": "s2"}], "deck": DECK})
    assert find(g, 0, "summon") == []
    assert_illegal(g, 0, {"type": "summon", "card": "s2"})
