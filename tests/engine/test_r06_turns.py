"""R6 Turn structure: draw steps, the main step, exhaustion, the hand limit, discarding."""

from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view

CARDS = {
    "lv1": card(),
    "lv5": card(level=5),
    "haste": card(keywords=["haste"]),
    # gives a visible sign if it were ever destroyed: its [On destroy] draws a card
    "ondes": card(abilities=[{"timing": "on_destroy", "effects": [{"do": "draw", "count": 1}]}]),
    "drawer": card(abilities=[{"timing": "march", "effects": [{"do": "draw", "count": 1}]}]),
    "brute": card(power=10, life=10),
    "wall": card(power=0, life=20),
}

DECK = ["orc"] * 12


def hand_count(g, p):
    return g.view(p)["players"][p]["hand_count"]


def hand_ids(g, p):
    return [c["id"] for c in g.view(p)["players"][p]["hand"]]


def discard_ids(g, p):
    return g.view(p)["players"][p]["discard_ids"]


def types(events):
    return [e["type"] for e in events]


# ---------------------------------------------------------------- R6.1 rounds

def test_r6_1_round_is_first_player_turn_then_second():
    """R6.1: one turn for each player is a round: first player, then second, then the next round."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK}, round=3)
    ev = do(g, 0, "end_turn")
    assert events_of(ev, "turn_started") == [{"type": "turn_started", "player": 1, "round": 3}]
    assert g.waiting_for() == {1}
    ev = do(g, 1, "end_turn")
    assert events_of(ev, "turn_started") == [{"type": "turn_started", "player": 0, "round": 3 + 1}]
    assert g.view(0)["round"] == 4


def test_r6_1_round_advances_after_second_player_when_player1_is_first():
    """R6.1: the round counts from the first player's turn, whoever that is."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK},
                 round=5, first=1, active=1)
    ev = do(g, 1, "end_turn")
    assert events_of(ev, "turn_started")[0] == {"type": "turn_started", "player": 0, "round": 5}
    ev = do(g, 0, "end_turn")
    assert events_of(ev, "turn_started")[0] == {"type": "turn_started", "player": 1, "round": 5 + 1}


def test_r6_1_only_the_active_player_acts_in_the_main_step():
    """R6.1: a normal turn belongs to one player; the other cannot end it or act in it."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "hand": ["orc"], "deck": DECK})
    assert g.waiting_for() == {0}
    assert [a["type"] for a in g.legal_actions(1)] == ["resign"]
    assert_illegal(g, 1, {"type": "end_turn"})
    assert_illegal(g, 1, {"type": "march", "units": ["b0"], "to": "L5"})


# ---------------------------------------------------------------- R6.2 draw steps

def test_r6_2_turn_starts_by_drawing_to_six():
    """R6.2 ①: the turn begins by drawing until the hand has 6 cards."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "hand": ["orc"] * 6, "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "hand": ["orc", "orc"], "deck": DECK})
    ev = do(g, 0, "end_turn")
    i = types(ev).index("turn_started")
    assert ev[i]["player"] == 1
    assert ev[i + 1] == {"type": "drew", "player": 1, "count": 6 - 2}
    assert hand_count(g, 1) == 6
    assert g.view(1)["players"][1]["deck_count"] == 12 - 4


def test_r6_2_turn_ends_by_drawing_to_six_before_passing():
    """R6.2 ④: the ending player draws up to 6, then the turn passes."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "hand": ["orc"], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "hand": ["orc"] * 6, "deck": DECK})
    ev = do(g, 0, "end_turn")
    assert types(ev)[:3] == ["drew", "turn_ended", "turn_started"]
    assert ev[0] == {"type": "drew", "player": 0, "count": 6 - 1}
    assert hand_count(g, 0) == 6
    assert g.view(0)["players"][0]["deck_count"] == 12 - 5


def test_r6_2_full_hand_draws_nothing_at_either_draw_step():
    """R6.2/R6.6: with 6 cards in hand, neither draw step draws."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "hand": ["orc"] * 6, "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "hand": ["orc"] * 6, "deck": DECK})
    ev = do(g, 0, "end_turn")
    assert events_of(ev, "drew") == []
    assert hand_count(g, 0) == 6 and hand_count(g, 1) == 6
    assert g.view(0)["players"][0]["deck_count"] == 12


# ---------------------------------------------------------------- R6.3 the main step

def test_r6_3_summon_march_discard_in_any_order():
    """R6.3: march, summon and discard in any order, as many times as allowed, in one main step."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("lv1", "L1", "a1")],
                     "hand": [{"card": "lv1", "id": "h1"}, {"card": "lv1", "id": "h2"},
                              {"card": "orc", "id": "h3"}], "deck": DECK},
                 cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    do(g, 0, {"type": "discard", "cards": ["h3"]})
    do(g, 0, {"type": "summon", "card": "h2"})
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L2"})
    assert g.waiting_for() == {0}
    assert g.view(0)["phase"] == "main"
    assert unit_view(g, "h1")["land"] == "H0" and unit_view(g, "h2")["land"] == "H0"
    assert unit_view(g, "a1")["land"] == "L3" and unit_view(g, "a0")["land"] == "L2"
    assert discard_ids(g, 0) == ["h3"]


def test_r6_3_marching_out_first_makes_room_to_summon():
    """R6.3: the order is free: marching the leader out of a full base first allows a summon."""
    g = scenario(p0={"units": [unit("lv5", "H0", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK}, cards=CARDS)
    assert find(g, 0, "summon") == []  # 5 + 1 > 5
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L2"})
    assert find(g, 0, "summon") == [{"type": "summon", "card": "h1"}]  # 0 + 1 <= 5
    do(g, 0, {"type": "summon", "card": "h1"})
    assert unit_view(g, "h1")["land"] == "H0"


def test_r6_3_march_ability_between_summon_and_march():
    """R6.3: [March] abilities are used in the same main step, in any order with the rest."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("drawer", "L1", "a1")],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    ev = do(g, 0, {"type": "march_ability", "unit": "a1", "targets": []})
    assert events_of(ev, "drew") == [{"type": "drew", "player": 0, "count": 1}]
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L2"})
    assert g.waiting_for() == {0} and g.view(0)["phase"] == "main"


def test_r6_3_battle_returns_to_the_main_step():
    """R6.3: a march with a battle is part of the main step; afterwards the player may still summon."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L1", "a1")],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L3", "b1")]},
                 cards=CARDS, dice=[6, 1])
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert g.view(0)["phase"] == "main" and g.waiting_for() == {0}
    assert find(g, 0, "summon") == [{"type": "summon", "card": "h1"}]


# ---------------------------------------------------------------- R6.4 summoned monsters are exhausted

def test_r6_4_summoned_monster_is_exhausted_and_cannot_march():
    """R6.4: a summoned monster cannot march until its owner's next turn."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    assert unit_view(g, "h1")["exhausted"] is True
    assert [a for a in find(g, 0, "march") if "h1" in a["units"]] == []
    assert_illegal(g, 0, {"type": "march", "units": ["h1"], "to": "L2"})


def test_r6_4_summoned_monster_marches_on_owners_next_turn():
    """R6.4: the summoned monster may march in its owner's next turn."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    do(g, 0, "end_turn")
    assert unit_view(g, "h1")["exhausted"] is True  # still during the opponent's turn
    do(g, 1, "end_turn")
    assert unit_view(g, "h1")["exhausted"] is False
    do(g, 0, {"type": "march", "units": ["h1"], "to": "L2"})
    assert unit_view(g, "h1")["land"] == "L2"


def test_r6_4_haste_monster_is_not_exhausted_when_summoned():
    """R6.4: unless it has Haste: then it may march at once."""
    g = scenario(p0={"units": [unit("orc", "L1", "a0", leader=True)],
                     "hand": [{"card": "haste", "id": "h1"}], "deck": DECK}, cards=CARDS)
    do(g, 0, {"type": "summon", "card": "h1"})
    assert unit_view(g, "h1")["exhausted"] is False
    do(g, 0, {"type": "march", "units": ["h1"], "to": "L2"})
    assert unit_view(g, "h1")["land"] == "L2"


# ---------------------------------------------------------------- R6.5 ending while moves remain (UI)

def test_r6_5_legal_actions_offer_march_and_summon_beside_end_turn():
    """R6.5: the engine lists the remaining marches and summons next to end_turn, so a UI can ask to confirm."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK}, cards=CARDS)
    kinds = {a["type"] for a in g.legal_actions(0)}
    assert {"march", "summon", "end_turn"} <= kinds


def test_r6_5_end_turn_is_accepted_while_moves_remain():
    """R6.5: the confirmation is a UI rule: the engine itself accepts end_turn with moves left."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "lv1", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK}, cards=CARDS)
    ev = do(g, 0, "end_turn")
    assert events_of(ev, "turn_ended")[0]["player"] == 0
    assert g.waiting_for() == {1}
    assert unit_view(g, "a0")["land"] == "H0"


def test_r6_5_no_march_or_summon_listed_when_none_is_possible():
    """R6.5: with every unit exhausted and no monster that fits, no march/summon is offered (no confirmation)."""
    g = scenario(p0={"units": [unit("lv5", "H0", "a0", leader=True, exhausted=True)],
                     "hand": [{"card": "lv1", "id": "h1"}, {"card": "fireball", "id": "h2"}], "deck": DECK},
                 cards=CARDS)
    kinds = {a["type"] for a in g.legal_actions(0)}
    assert kinds == {"discard", "end_turn", "resign"}


# ---------------------------------------------------------------- R6.6 hand limit

def test_r6_6_hand_limit_draw_stops_at_six():
    """R6.6: drawing stops at 6 cards even if more are asked for."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("drawer", "L1", "a1")],
                     "hand": ["orc"] * 6, "deck": DECK}, cards=CARDS)
    ev = do(g, 0, {"type": "march_ability", "unit": "a1", "targets": []})
    assert events_of(ev, "drew") == []
    assert hand_count(g, 0) == 6
    assert g.view(0)["players"][0]["deck_count"] == 12


def _tide_caller_game(hand):
    # p0's non-leader a1 attacks L3, where p1's Tide Caller returns it to its owner's hand.
    return scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("ondes", "L1", "a1")],
                        "hand": hand, "deck": DECK},
                    p1={"units": [unit("orc", "H1", "b0", leader=True), unit("tide-caller", "L3", "b1")],
                        "deck": DECK},
                    cards=CARDS, dice=[6, 1])


def test_r6_6_unit_returned_to_full_hand_goes_to_discard():
    """R6.6 [decided]: a card that would be returned to a full hand goes to the discard pile instead."""
    g = _tide_caller_game(["orc"] * 6)
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert g.waiting_for() == {1}  # p1 may respond to the attack
    ev = do(g, 1, {"type": "ability", "unit": "b1", "targets": ["a1"]})
    ret = events_of(ev, "returned")
    assert [(e["unit"], e["to"]) for e in ret] == [("a1", "discard")]
    assert discard_ids(g, 0) == ["a1"]
    assert hand_count(g, 0) == 6
    assert "a1" not in hand_ids(g, 0)
    assert unit_view(g, "a1") is None


def test_r6_6_return_to_full_hand_is_not_a_destruction():
    """R6.6 [decided]: going to the discard pile this way is not a destruction: no destroyed event, no [On destroy]."""
    g = _tide_caller_game(["orc"] * 6)
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    ev = do(g, 1, {"type": "ability", "unit": "b1", "targets": ["a1"]})
    assert events_of(ev, "destroyed") == []
    assert events_of(ev, "triggered") == []
    assert events_of(ev, "drew") == []  # the [On destroy] draw did not happen


def test_r6_6_unit_returned_to_hand_with_room_goes_to_hand():
    """R6.6: below the limit, the returned card does go to the hand (5 + 1 = 6)."""
    g = _tide_caller_game(["orc"] * 5)
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    ev = do(g, 1, {"type": "ability", "unit": "b1", "targets": ["a1"]})
    assert [(e["unit"], e["to"]) for e in events_of(ev, "returned")] == [("a1", "hand")]
    assert hand_count(g, 0) == 5 + 1
    assert "a1" in hand_ids(g, 0)
    assert discard_ids(g, 0) == []


# ---------------------------------------------------------------- R6.7 discarding from hand

def test_r6_7_discard_several_cards_at_once():
    """R6.7: outside battle, on their own turn, a player may discard any number of hand cards."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "orc", "id": f"h{i}"} for i in range(6)], "deck": DECK})
    ev = do(g, 0, {"type": "discard", "cards": ["h0", "h3", "h5"]})
    assert events_of(ev, "discarded")[0]["ids"] == ["h0", "h3", "h5"]
    assert hand_ids(g, 0) == ["h1", "h2", "h4"]
    assert hand_count(g, 0) == 6 - 3
    assert discard_ids(g, 0) == ["h0", "h3", "h5"]


def test_r6_7_discard_spell_and_whole_hand():
    """R6.7: any hand cards, spells included, even the whole hand."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "fireball", "id": "s1"}, {"card": "orc", "id": "h1"}], "deck": DECK})
    do(g, 0, {"type": "discard", "cards": ["s1", "h1"]})
    assert hand_count(g, 0) == 0
    assert discard_ids(g, 0) == ["s1", "h1"]


def test_r6_7_discarded_cards_are_not_replaced_at_once():
    """R6.7: discarding draws nothing; the hand stays smaller until the next refill."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "orc", "id": f"h{i}"} for i in range(6)], "deck": DECK})
    ev = do(g, 0, {"type": "discard", "cards": ["h0", "h1"]})
    assert events_of(ev, "drew") == []
    assert hand_count(g, 0) == 6 - 2
    assert g.view(0)["players"][0]["deck_count"] == 12


def test_r6_7_next_draw_step_refills_after_discard():
    """R6.7: the next refill (the end-of-turn draw step) brings the hand back to 6."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "orc", "id": f"h{i}"} for i in range(6)], "deck": DECK})
    do(g, 0, {"type": "discard", "cards": ["h0", "h1", "h2"]})
    ev = do(g, 0, "end_turn")
    assert ev[0] == {"type": "drew", "player": 0, "count": 3}
    assert hand_count(g, 0) == 6 - 3 + 3


def test_r6_7_leader_kill_refill_refills_after_discard():
    """R6.7: a leader-kill refill (R15) also brings the hand back to 6."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L1", "a1")],
                     "hand": [{"card": "orc", "id": f"h{i}"} for i in range(6)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L3", "b1", leader=True)],
                     "deck": DECK},
                 cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "discard", "cards": ["h0", "h1", "h2", "h3"]})
    ev = do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert events_of(ev, "refill") == [{"type": "refill", "player": 0}]
    assert {"type": "drew", "player": 0, "count": 4} in ev
    assert hand_count(g, 0) == 6 - 4 + 4


def test_r6_7_no_discard_during_battle():
    """R6.7: discarding is only outside battle."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True), unit("lv1", "L1", "a1")],
                     "hand": [{"card": "salamander", "id": "q1"}, {"card": "orc", "id": "h1"}], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L3", "b1")]},
                 cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L3"})
    assert g.view(0)["phase"] == "battle" and g.waiting_for() == {0}  # p0's quick summon step
    assert find(g, 0, "discard") == []
    assert_illegal(g, 0, {"type": "discard", "cards": ["h1"]})


def test_r6_7_no_discard_on_opponents_turn():
    """R6.7: only on one's own turn."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)],
                     "hand": [{"card": "orc", "id": "x1"}], "deck": DECK})
    assert find(g, 1, "discard") == []
    assert_illegal(g, 1, {"type": "discard", "cards": ["x1"]})


def test_r6_7_discard_only_own_hand_cards():
    """R6.7: only cards in one's own hand, each once, at least one."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)],
                     "hand": [{"card": "orc", "id": "h1"}], "deck": [{"card": "orc", "id": "d1"}],
                     "discard": [{"card": "orc", "id": "g1"}]},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "hand": [{"card": "orc", "id": "x1"}]})
    assert_illegal(g, 0, {"type": "discard", "cards": ["a0"]})   # a unit on the board
    assert_illegal(g, 0, {"type": "discard", "cards": ["d1"]})   # the draw pile
    assert_illegal(g, 0, {"type": "discard", "cards": ["g1"]})   # already in the discard pile
    assert_illegal(g, 0, {"type": "discard", "cards": ["x1"]})   # the opponent's hand
    assert_illegal(g, 0, {"type": "discard", "cards": ["h1", "h1"]})
    assert_illegal(g, 0, {"type": "discard", "cards": []})
    assert_illegal(g, 0, {"type": "discard", "cards": ["nope"]})


# ---------------------------------------------------------------- R6.8 exhaustion clears

def test_r6_8_exhaustion_lasts_through_opponents_turn():
    """R6.8: a unit exhausted in its owner's turn stays exhausted during the opponent's turn."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK})
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L1"})
    assert unit_view(g, "a0")["exhausted"] is True
    do(g, 0, "end_turn")
    assert unit_view(g, "a0")["exhausted"] is True


def test_r6_8_exhaustion_clears_at_owners_turn_start():
    """R6.8: exhaustion clears at the start of its owner's turn."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True)], "deck": DECK})
    do(g, 0, {"type": "march", "units": ["a0"], "to": "L1"})
    do(g, 0, "end_turn")
    do(g, 1, "end_turn")
    assert unit_view(g, "a0")["exhausted"] is False
    assert unit_view(g, "a0")["marches_left"] == 1
    assert find(g, 0, "march", units=["a0"], to="L3")


def test_r6_8_opponents_turn_start_clears_only_their_units():
    """R6.8: the start of one player's turn clears that player's units, not the other's."""
    g = scenario(p0={"units": [unit("orc", "H0", "a0", leader=True, exhausted=True)], "deck": DECK},
                 p1={"units": [unit("orc", "H1", "b0", leader=True, exhausted=True)], "deck": DECK})
    do(g, 0, "end_turn")
    assert unit_view(g, "b0")["exhausted"] is False
    assert unit_view(g, "a0")["exhausted"] is True
