"""R1: the object of the game and how it ends (R1.1–R1.6)."""

import pytest

from webapp.engine import IllegalAction

from .helpers import assert_illegal, card, do, events_of, scenario, unit, unit_view

BRUTE = card(power=10, life=10)          # kills anything in one attack
SMASHER = card(power=5, life=3)          # lethal to another SMASHER
TOUGH = card(power=0, life=20)           # survives a strike trigger


def march(g, p, units, to):
    return do(g, p, {"type": "march", "units": units, "to": to})


# ------------------------------------------------------------------ R1.1

def test_r1_1_destroying_the_only_enemy_leader_wins():
    """R1.1: a player wins when every one of the opponent's leaders has been destroyed."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True)]},
                 cards={"brute": BRUTE}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["b0"]
    assert events_of(ev, "game_over") == [{"type": "game_over", "winner": 0, "reason": "leaders"}]
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert g.waiting_for() == set()


def test_r1_1_a_spell_destroying_the_last_leader_wins():
    """R1.1: it does not matter how the last leader is destroyed: a Fireball (3 to the front) wins."""
    g = scenario({"hand": [{"card": "fireball", "id": "f0"}],
                  "units": [unit("orc", "H0", "a0", leader=True), unit("caster", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True)]},
                 cards={"caster": card(power=0, life=5, slots={"fire": 1})}, dice=[6, 1])
    march(g, 0, ["a1"], "L5")
    spell = [a for a in g.legal_actions(0) if a["type"] == "spell"]
    assert spell == [{"type": "spell", "card": "f0", "targets": []}]
    ev = do(g, 0, spell[0])
    # the orc leader's life 3 - 3 = 0
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["b0"]
    assert g.result == {"winner": 0, "reason": "leaders"}


def test_r1_1_one_of_two_leaders_destroyed_does_not_end_the_game():
    """R1.1: *every* leader must fall; with a second leader alive the game goes on."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True), unit("orc", "H1", "b1", leader=True)]},
                 cards={"brute": BRUTE}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["b0"]
    assert events_of(ev, "game_over") == []
    assert g.result is None
    assert g.waiting_for() == {0}


def test_r1_1_both_leaders_destroyed_in_one_attack_wins():
    """R1.1: two leaders destroyed by the same attack: no leader left, the attacker wins."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True), unit("orc", "L5", "b1", leader=True)]},
                 cards={"brute": BRUTE}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    # power 10 against lives 3 + 3: both fall
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["b0", "b1"]
    assert g.result == {"winner": 0, "reason": "leaders"}


def test_r1_1_defender_wins_by_destroying_the_attackers_last_leader():
    """R1.1: either side may win in a battle: the defender destroys the attacking last leader."""
    g = scenario({"units": [unit("orc", "L3", "a0", leader=True)]},
                 {"units": [unit("brute", "L5", "b0", leader=True)]},
                 cards={"brute": BRUTE}, dice=[1, 6])  # defender strikes first: 6 > 1
    ev = march(g, 0, ["a0"], "L5")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["a0"]
    assert g.result == {"winner": 1, "reason": "leaders"}


def test_r1_1_entering_the_empty_enemy_base_does_not_win():
    """R1.1 / R4.6: entering the enemy base does not by itself win."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("orc", "L5", "a1")]},
                 {"units": [unit("orc", "L6", "b0", leader=True)]})
    ev = march(g, 0, ["a1"], "H1")
    assert {"type": "land_taken", "player": 0, "land": "H1"} in ev
    assert events_of(ev, "game_over") == []
    assert g.result is None
    assert unit_view(g, "a1")["land"] == "H1"


def test_r1_1_destroying_non_leaders_never_wins():
    """R1.1: only leaders count: wiping out a party without a leader does not end the game."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "b1"),
                            unit("orc", "L5", "b2")]},
                 cards={"brute": BRUTE}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["b1", "b2"]
    assert g.result is None


# ------------------------------------------------------------------ R1.2

def test_r1_2_empty_draw_pile_does_not_lose():
    """R1.2: an empty draw pile never loses; drawing just stops."""
    g = scenario({"hand": ["orc", "orc"], "deck": [], "units": [unit("orc", "H0", "a0", leader=True)]},
                 {"deck": ["orc"] * 10, "units": [unit("orc", "H1", "b0", leader=True)]})
    ev = do(g, 0, "end_turn")
    assert [e for e in events_of(ev, "drew") if e["player"] == 0] == []
    ev = do(g, 1, "end_turn")
    # player 0's next turn begins with a draw step that finds nothing
    assert [e for e in events_of(ev, "drew") if e["player"] == 0] == []
    assert g.result is None
    assert g.waiting_for() == {0}
    assert g.view(0)["players"][0]["hand_count"] == 2
    assert g.view(0)["players"][0]["deck_count"] == 0


def test_r1_2_drawing_stops_when_the_pile_runs_out():
    """R1.2: a refill with fewer cards left than needed draws what is there and stops."""
    g = scenario({"hand": ["orc"], "deck": ["orc", "orc"], "units": [unit("orc", "H0", "a0", leader=True)]})
    ev = do(g, 0, "end_turn")
    assert {"type": "drew", "player": 0, "count": 2} in ev
    v = g.view(0)["players"][0]
    assert v["hand_count"] == 1 + 2
    assert v["deck_count"] == 0
    assert g.result is None


# ------------------------------------------------------------------ R1.3

def test_r1_3_resignation_gives_the_opponent_the_win():
    """R1.3: a game ends by resignation; the other player wins."""
    g = scenario()
    ev = do(g, 0, "resign")
    assert events_of(ev, "resigned") == [{"type": "resigned", "player": 0}]
    assert g.result == {"winner": 1, "reason": "resign"}
    assert g.waiting_for() == set()


def test_r1_3_resignation_is_allowed_when_not_your_turn():
    """R1.3 / R18.5: a player may resign at any time, also while the game waits for the opponent."""
    g = scenario(active=0)
    assert g.waiting_for() == {0}
    assert {"type": "resign"} in g.legal_actions(1)
    do(g, 1, "resign")
    assert g.result == {"winner": 0, "reason": "resign"}


def test_r1_3_resignation_during_the_leader_choice():
    """R1.3: resignation also ends a game still at the leader choice (round 1)."""
    g = scenario({"hand": ["orc"], "deck": ["orc"] * 6}, {"hand": ["orc"], "deck": ["orc"] * 6},
                 phase="leaders", round=1)
    do(g, 1, "resign")
    assert g.result == {"winner": 0, "reason": "resign"}


@pytest.mark.parametrize("reason", ["timeout", "disconnect"])
def test_r1_3_clock_and_disconnect_results_set_by_the_server(reason):
    """R1.3: a clock running out or a disconnection past the grace period ends the game (set by the server)."""
    g = scenario()
    ev = g.set_result(1, reason)
    assert events_of(ev, "game_over") == [{"type": "game_over", "winner": 1, "reason": reason}]
    assert g.result == {"winner": 1, "reason": reason}
    assert g.waiting_for() == set()


def test_r1_3_no_action_after_the_game_ended():
    """R1.3: once the game is over (here by resignation), nothing more is accepted."""
    g = scenario()
    do(g, 1, "resign")
    assert g.legal_actions(0) == []
    assert g.legal_actions(1) == []
    assert_illegal(g, 0, {"type": "end_turn"})
    assert_illegal(g, 0, {"type": "resign"})
    with pytest.raises(IllegalAction):
        g.set_result(0, "timeout")
    assert g.result == {"winner": 0, "reason": "resign"}


# ------------------------------------------------------------------ R1.4

def test_r1_4_game_ends_with_the_judgment_after_round_12():
    """R1.4: if nobody has won after round 12 (second player's turn ends), the judgment decides."""
    g = scenario(round=12, active=1, first=0, owners={"L1": 0})
    ev = do(g, 1, "end_turn")
    assert len(events_of(ev, "judgment")) == 1
    # lands: player 0 holds H0 and L1, player 1 only H1
    assert events_of(ev, "judgment")[0]["lands"] == [2, 1]
    assert g.result == {"winner": 0, "reason": "judgment"}
    assert g.waiting_for() == set()


def test_r1_4_first_players_round_12_turn_does_not_end_the_game():
    """R1.4: round 12 is not over until the second player's turn ends."""
    g = scenario(round=12, active=0, first=0)
    ev = do(g, 0, "end_turn")
    assert events_of(ev, "judgment") == []
    assert g.result is None
    assert g.view(0)["round"] == 12
    assert g.waiting_for() == {1}


def test_r1_4_round_11_is_followed_by_round_12():
    """R1.4: the end of round 11 starts round 12, no judgment yet."""
    g = scenario(round=11, active=1, first=0)
    ev = do(g, 1, "end_turn")
    assert events_of(ev, "judgment") == []
    assert {"type": "turn_started", "player": 0, "round": 12} in ev
    assert g.result is None


def test_r1_4_judgment_after_round_12_when_player_1_went_first():
    """R1.4: with player 1 first, round 12 ends with player 0's turn."""
    g = scenario(round=12, active=1, first=1)
    ev = do(g, 1, "end_turn")
    assert events_of(ev, "judgment") == []
    assert g.result is None
    ev = do(g, 0, "end_turn")
    assert len(events_of(ev, "judgment")) == 1
    assert g.result is not None and g.result["reason"] == "judgment"


# ------------------------------------------------------------------ R1.5

def test_r1_5_both_last_leaders_fall_in_a_simultaneous_attack_is_a_draw():
    """R1.5 [decided]: both sides lose their last leader in the same resolution: a draw."""
    g = scenario({"units": [unit("smasher", "L3", "a0", leader=True)]},
                 {"units": [unit("smasher", "L5", "b0", leader=True)]},
                 cards={"smasher": SMASHER}, dice=[3, 3])  # 3 + 0 == 3 + 0: simultaneous
    ev = march(g, 0, ["a0"], "L5")
    assert all(e["simultaneous"] for e in events_of(ev, "attack"))
    # each deals 5 to a life of 3
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["a0", "b0"]
    assert g.result == {"winner": None, "reason": "draw"}
    assert events_of(ev, "game_over") == [{"type": "game_over", "winner": None, "reason": "draw"}]


def test_r1_5_simultaneous_attack_killing_only_one_last_leader_is_a_win():
    """R1.5: the draw needs both last leaders gone; if one survives, its side wins (R1.1)."""
    g = scenario({"units": [unit("smasher", "L3", "a0", leader=True)]},
                 {"units": [unit("tough", "L5", "b0", leader=True)]},
                 cards={"smasher": SMASHER, "tough": card(power=5, life=20)}, dice=[3, 3])
    ev = march(g, 0, ["a0"], "L5")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["a0"]
    assert g.result == {"winner": 1, "reason": "leaders"}


# ------------------------------------------------------------------ R1.6

STRIKE_FIRST_BOMB = card(power=0, life=3, abilities=[
    {"timing": "strikes_first", "effects": [{"do": "damage", "to": "enemies", "amount": 10}]}])
STRIKE_SECOND_BOMB = card(power=0, life=3, abilities=[
    {"timing": "strikes_second", "effects": [{"do": "damage", "to": "enemies", "amount": 10}]}])


def test_r1_6_both_sides_strike_triggers_are_one_resolution_draw():
    """R1.6 [decided]: both sides' strikes-first/second triggers happen together, as one
    resolution: each kills the other's last leader, so it is a draw (R1.5), not a win for the first."""
    g = scenario({"units": [unit("bomb1", "L3", "a0", leader=True)]},
                 {"units": [unit("bomb2", "L5", "b0", leader=True)]},
                 cards={"bomb1": STRIKE_FIRST_BOMB, "bomb2": STRIKE_SECOND_BOMB}, dice=[6, 1])
    ev = march(g, 0, ["a0"], "L5")
    assert [e["unit"] for e in events_of(ev, "triggered")] == ["a0", "b0"]
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["a0", "b0"]
    assert g.result == {"winner": None, "reason": "draw"}


def test_r1_6_battle_stops_when_a_strike_trigger_decides_the_game():
    """R1.6 [decided]: the game ends the moment R1.1 holds: the battle in progress stops (no attack)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("bomb1", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True), unit("tough", "L5", "b1")]},
                 cards={"bomb1": STRIKE_FIRST_BOMB, "tough": TOUGH}, dice=[6, 1])
    march(g, 0, ["a1"], "L5")
    ev = do(g, 1, {"type": "formation", "order": ["b1", "b0"]})
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["b0"]  # b1 (life 20) survives
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert events_of(ev, "declared") == []
    assert events_of(ev, "attack") == []
    assert ev[-1]["type"] == "game_over"
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []


def test_r1_6_no_refill_after_the_battle_that_decided_the_game():
    """R1.6 / R15.4: no refill follows a battle that decided the game."""
    g = scenario({"hand": ["orc", "orc"], "deck": ["orc"] * 10,
                  "units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True)]},
                 cards={"brute": BRUTE}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert events_of(ev, "refill") == []
    assert events_of(ev, "drew") == []
    assert g.view(0)["players"][0]["hand_count"] == 2


def test_r1_6_contrast_refill_after_a_leader_kill_that_does_not_decide():
    """R1.6 (contrast, R15.1): the same leader kill with a second enemy leader alive does refill."""
    g = scenario({"hand": ["orc", "orc"], "deck": ["orc"] * 10,
                  "units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True), unit("orc", "H1", "b1", leader=True)]},
                 cards={"brute": BRUTE}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert g.result is None
    assert {"type": "refill", "player": 0} in ev
    assert g.view(0)["players"][0]["hand_count"] == 2 + 4


def test_r1_6_no_on_destroy_after_the_deciding_destruction():
    """R1.6 [decided]: nothing further resolves once the game is decided: an [On destroy] of a unit
    falling in the same attack as the last leader does not happen."""
    mourner = card(power=0, life=1, abilities=[
        {"timing": "on_destroy", "effects": [{"do": "draw", "count": 2}]}])
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"hand": ["orc"], "deck": ["orc"] * 5,
                  "units": [unit("orc", "L5", "b0", leader=True), unit("mourner", "L5", "b1")]},
                 cards={"brute": BRUTE, "mourner": mourner}, dice=[6, 1])
    march(g, 0, ["a1"], "L5")
    ev = do(g, 1, {"type": "formation", "order": ["b1", "b0"]})
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["b0", "b1"]
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert events_of(ev, "triggered") == []
    assert g.view(1)["players"][1]["hand_count"] == 1


def test_r1_6_on_destroy_does_happen_when_the_game_goes_on():
    """R1.6 (contrast, R13.8): the same [On destroy] resolves when no last leader fell."""
    mourner = card(power=0, life=1, abilities=[
        {"timing": "on_destroy", "effects": [{"do": "draw", "count": 2}]}])
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("brute", "L3", "a1")]},
                 {"hand": ["orc"], "deck": ["orc"] * 5,
                  "units": [unit("orc", "H1", "b0", leader=True), unit("mourner", "L5", "b1")]},
                 cards={"brute": BRUTE, "mourner": mourner}, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert g.result is None
    assert len(events_of(ev, "triggered")) == 1
    assert g.view(1)["players"][1]["hand_count"] == 1 + 2


# Revision 2 of R1.6 / R9.8: every strike trigger set off at initiative fires, and destruction is
# checked once, after all of them.
SILENCER = card(power=0, life=5, abilities=[
    {"timing": "strikes_first", "effects": [{"do": "negate", "to": "enemy_front"}]}])
HEALER = card(power=0, life=5, abilities=[
    {"timing": "strikes_first", "effects": [{"do": "boost", "to": "allies", "life": 2}]}])
PINGER = card(power=0, life=5, abilities=[
    {"timing": "strikes_first", "effects": [{"do": "damage", "to": "enemies", "amount": 1}]}])
BOMBER = card(power=0, life=5, abilities=[
    {"timing": "strikes_second", "effects": [{"do": "damage", "to": "enemies", "amount": 2}]}])
TRIGGER_CARDS = {"silencer": SILENCER, "healer": HEALER, "pinger": PINGER, "bomber": BOMBER,
                 "frail2": card(power=0, life=2), "glass": card(power=0, life=1), "tough": TOUGH}


def _answer_preparation(g, orders):
    """Skip quick summons and set each side's formation (by unit id) until the fight starts."""
    ev = []
    while g.view()["battle"] is not None and g.view()["battle"]["step"] in ("quick", "formation"):
        (w,) = g.waiting_for()
        if g.view()["battle"]["step"] == "quick":
            ev += do(g, w, {"type": "quick_summon", "cards": []})
        else:
            ev += do(g, w, {"type": "formation", "order": orders[w]})
    return ev


def _strike_battle(x_attacks):
    """Side X (frail2, silencer, healer, pinger: strikes first) against side Y (bomber, glass,
    tough: strikes second). X is player 0 attacking from L3 when `x_attacks`, else player 1
    defending L5 against Y, player 0. The dice always make X strike first."""
    x = [unit(c, "L3", i) for c, i in (("frail2", "x1"), ("silencer", "x2"), ("healer", "x3"), ("pinger", "x4"))]
    y = [unit(c, "L3", i) for c, i in (("bomber", "y1"), ("glass", "y2"), ("tough", "y3"))]
    att, dfn = (x, y) if x_attacks else (y, x)
    for u in dfn:
        u["land"] = "L5"
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True)] + att},
                 {"units": [unit("orc", "H1", "b0", leader=True)] + dfn},
                 cards=TRIGGER_CARDS, dice=[6, 1] if x_attacks else [1, 6])
    ev = march(g, 0, [u["id"] for u in att], "L5")
    xo, yo = ["x1", "x2", "x3", "x4"], ["y1", "y2", "y3"]
    ev += _answer_preparation(g, {0: xo if x_attacks else yo, 1: yo if x_attacks else xo})
    return g, ev


@pytest.mark.parametrize("x_attacks", [True, False])
def test_r1_6_strike_triggers_same_outcome_whoever_attacked(x_attacks):
    """R1.6 / R9.8 (revision 2): the same battle with either side attacking: every trigger fires
    (X's silencer negating Y's front bomber does not stop the bomber), destruction waits for all of
    them: glass (life 1, pinged) falls, frail2 (2 - 2 + 2) survives, whoever attacked."""
    g, ev = _strike_battle(x_attacks)
    trig = events_of(ev, "triggered")
    assert sorted(e["unit"] for e in trig) == ["x2", "x3", "x4", "y1"]
    first = [e["unit"] for e in trig][0]
    assert first == ("x2" if x_attacks else "y1")  # the active player's triggers first
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["y2"]
    alive = {u["id"] for u in g.view(0)["units"]}
    assert {"x1", "x2", "x3", "x4", "y1", "y3"} <= alive and "y2" not in alive


def test_r1_6_strike_trigger_outcome_is_the_same_for_both_attackers():
    """R1.6: who attacked must never change the outcome: the destroyed units and the units left
    on the board are the same with X attacking and with Y attacking."""
    runs = []
    for x_attacks in (True, False):
        g, ev = _strike_battle(x_attacks)
        runs.append((sorted(e["unit"] for e in events_of(ev, "destroyed")),
                     sorted(u["id"] for u in g.view(0)["units"])))
    assert runs[0] == runs[1]


def test_r1_6_unit_raised_above_zero_by_a_trigger_of_the_same_resolution_survives():
    """R1.6 (revision 2): the attacker's bomber (strikes second) fires first (active player) and
    takes the defender's frail2 to 0; the defender's healer (strikes first) then gives +2 life:
    lives are checked after all the triggers, so frail2 (2 - 2 + 2 = 2) survives."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("bomber", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("frail2", "L5", "b1"),
                            unit("healer", "L5", "b2")]},
                 cards=TRIGGER_CARDS, dice=[1, 6])
    ev = march(g, 0, ["a1"], "L5")
    ev += _answer_preparation(g, {1: ["b1", "b2"]})
    assert [e["unit"] for e in events_of(ev, "triggered")] == ["a1", "b2"]
    hit = [e for e in events_of(ev, "damage") if e["unit"] == "b1"][0]
    assert hit["life"] == 0
    assert "b1" not in [e["unit"] for e in events_of(ev, "destroyed")]
    assert unit_view(g, "b1") is not None


def test_r1_6_negate_in_the_same_resolution_does_not_stop_a_trigger():
    """R1.6 (revision 2): the attacker's silencer (strikes first) negates the defender's front
    bomber, whose strikes-second trigger was set off with it: it still deals 2 to every enemy."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("silencer", "L3", "a1")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("bomber", "L5", "b1")]},
                 cards=TRIGGER_CARDS, dice=[6, 1])
    ev = march(g, 0, ["a1"], "L5")
    assert [e["unit"] for e in events_of(ev, "triggered")] == ["a1", "b1"]
    assert [e["unit"] for e in events_of(ev, "negated")] == ["b1"]
    assert [(e["unit"], e["amount"]) for e in events_of(ev, "damage")][0] == ("a1", 2)


def test_r1_6_explicit_destroy_and_lethal_damage_fall_together():
    """R1.6: a unit destroyed by a trigger and a unit at 0 life after all of them are destroyed in
    one batch, after every trigger ran (no 'destroyed' before the last 'triggered')."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("dawn-wraith", "L3", "a1"),
                            unit("pinger", "L3", "a2")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("glass", "L5", "b1"),
                            unit("tough", "L5", "b2")]},
                 cards=TRIGGER_CARDS, dice=[6, 1])
    ev = march(g, 0, ["a1", "a2"], "L5")
    ev += _answer_preparation(g, {0: ["a1", "a2"], 1: ["b1", "b2"]})
    kinds = [e["type"] for e in ev]
    last_trigger = max(i for i, k in enumerate(kinds) if k == "triggered")
    first_destroy = min(i for i, k in enumerate(kinds) if k == "destroyed")
    assert last_trigger < first_destroy
    assert sorted(e["unit"] for e in events_of(ev, "destroyed") if e["reason"] == "trigger") == ["a1", "b1"]
