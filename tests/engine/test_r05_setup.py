"""R5: setting up a game and choosing leaders (R5.1–R5.7)."""

import json
from itertools import combinations

import pytest

from webapp.engine import Game, load_pool, parse_card

from .helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view

DECK = ["orc"] * 10 + ["goblin-raider"] * 5 + ["fire-giant"] * 5 + ["fireball"] * 10
POOL = load_pool()


def new(seed=1, first=0, **kw):
    return Game.new(DECK, DECK, seed=seed, first=first, **kw)


def hand(g, p):
    return g.view(p)["players"][p]["hand"]


def leader_actions(g, p):
    return [a for a in g.legal_actions(p) if a["type"] == "choose_leaders"]


def choose(g, p, cards):
    return do(g, p, {"type": "choose_leaders", "cards": cards})


def choose_any(g, p, n=1):
    """Choose the first listed leader set of n cards (or the largest available)."""
    options = leader_actions(g, p)
    pick = next((a for a in options if len(a["cards"]) == n), options[-1])
    return pick["cards"], do(g, p, pick)


# Leader-phase scenarios with known hands: levels 1, 1, 1, 1, 3, 4, 6 and a spell.
LEVELS = {"l1": card(level=1), "l3": card(level=3), "l4": card(level=4), "l6": card(level=6),
          "zap": {"kind": "spell", "name": {"en": "Zap", "ja": "ザップ"}, "element": "fire", "mana": 1,
                  "timing": "normal", "rarity": "C",
                  "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}}


def leaders_scenario(hand0, hand1=None, first=0, mode="simultaneous", deck=10):
    hand1 = hand1 if hand1 is not None else ["l1", "l1", "l3", "zap", "l1", "l4"]
    return scenario({"hand": [{"card": c, "id": f"h{i}"} for i, c in enumerate(hand0)], "deck": ["l1"] * deck},
                    {"hand": [{"card": c, "id": f"k{i}"} for i, c in enumerate(hand1)], "deck": ["l1"] * deck},
                    cards=LEVELS, phase="leaders", round=1, first=first, active=first, leader_mode=mode)


# ------------------------------------------------------------------ R5.1

def test_r5_1_dice_decide_first_when_first_is_none():
    """R5.1: each player rolls a d6, the higher goes first; the rolls are in the view's `opening`."""
    g = new(seed=5, first=None)
    v = g.view(0)
    rolls = v["opening"]["dice"]
    a, b = rolls[-1]
    assert a != b and 1 <= a <= 6 and 1 <= b <= 6
    assert v["first"] == (0 if a > b else 1)
    assert v["active"] == v["first"]


@pytest.mark.parametrize("seed", range(40))
def test_r5_1_dice_ties_are_rolled_again(seed):
    """R5.1: equal dice are rolled again: every pair but the last is a tie, the last is not."""
    g = new(seed=seed, first=None)
    rolls = g.view(None)["opening"]["dice"]
    assert all(a == b for a, b in rolls[:-1])
    assert rolls[-1][0] != rolls[-1][1]
    assert all(1 <= d <= 6 for pair in rolls for d in pair)
    a, b = rolls[-1]
    assert g.view(None)["first"] == (0 if a > b else 1)


def test_r5_1_rerolls_and_both_outcomes_happen():
    """R5.1: over many games there are ties rolled again, and either player may go first."""
    games = [new(seed=s, first=None).view(None) for s in range(60)]
    assert any(len(v["opening"]["dice"]) > 1 for v in games)
    assert {v["first"] for v in games} == {0, 1}


def test_r5_1_the_dice_are_shown_to_both_players():
    """R5.1: the initiative dice for first player are public: same `opening` for both and spectators."""
    g = new(seed=23, first=None)
    views = [g.view(0), g.view(1), g.view(None)]
    assert views[0]["opening"]["dice"] == views[1]["opening"]["dice"] == views[2]["opening"]["dice"]
    assert len(views[0]["opening"]["dice"]) >= 1


def test_r5_1_dice_follow_the_seed():
    """R5.1: the dice come from the game's seed: same seed, same rolls."""
    for s in range(10):
        assert new(seed=s, first=None).view(None)["opening"] == new(seed=s, first=None).view(None)["opening"]


@pytest.mark.parametrize("first", [0, 1])
def test_r5_1_cpu_and_story_games_set_the_first_player(first):
    """R5.1: in CPU and story games the human always goes first: `first` is honoured, no dice."""
    g = new(seed=9, first=first)
    v = g.view(None)
    assert v["first"] == first and v["active"] == first
    assert "dice" not in (v["opening"] or {})


@pytest.mark.parametrize("bad", [2, -1, "0"])
def test_r5_1_first_must_be_0_1_or_none(bad):
    """R5.1: first is player 0, player 1, or None for the dice."""
    with pytest.raises(ValueError):
        new(first=bad)


# ------------------------------------------------------------------ R5.2

@pytest.mark.parametrize("first", [0, 1])
def test_r5_2_first_player_gets_4_second_gets_6(first):
    """R5.2: the first player gets 4 cards, the second 6."""
    g = new(seed=11, first=first)
    v = g.view(None)["players"]
    assert v[first]["hand_count"] == 4 and v[first]["deck_count"] == 30 - 4
    assert v[1 - first]["hand_count"] == 6 and v[1 - first]["deck_count"] == 30 - 6


def test_r5_2_deal_after_dice_follows_the_winner():
    """R5.2: with first decided by dice (R5.1), the dice winner is the one dealt 4."""
    for s in range(10):
        v = new(seed=s, first=None).view(None)
        assert v["players"][v["first"]]["hand_count"] == 4
        assert v["players"][1 - v["first"]]["hand_count"] == 6


def test_r5_2_each_player_is_dealt_from_their_own_deck():
    """R5.2: the hands come from each player's own 30 cards."""
    g = Game.new(["orc"] * 30, ["fire-giant"] * 30, seed=2, first=0)
    assert [c["card"] for c in hand(g, 0)] == ["orc"] * 4
    assert [c["card"] for c in hand(g, 1)] == ["fire-giant"] * 6
    assert all(c["id"].startswith("p0c") for c in hand(g, 0))
    assert all(c["id"].startswith("p1c") for c in hand(g, 1))


def test_r5_2_the_deal_is_shuffled():
    """R5.2: the deck is shuffled before the deal: different seeds deal different hands."""
    hands = {tuple(c["id"] for c in hand(new(seed=s), 1)) for s in range(10)}
    assert len(hands) > 5


# ------------------------------------------------------------------ R5.3

SPELLY = {"mon": parse_card(dict(card(level=1), id="mon"), "test"),
          "zap": parse_card(dict(LEVELS["zap"], id="zap"), "test")}
SPELL_DECK = ["mon"] + ["zap"] * 29  # one monster: most deals are all spells


@pytest.mark.parametrize("seed", range(15))
def test_r5_3_all_spell_hands_are_redealt_until_a_monster_comes(seed):
    """R5.3: an all-spell hand is redealt automatically until it holds a monster."""
    g = Game.new(SPELL_DECK, SPELL_DECK, seed=seed, first=0, pool=SPELLY)
    for p, n in ((0, 4), (1, 6)):
        cards = [c["card"] for c in hand(g, p)]
        assert len(cards) == n
        assert cards.count("mon") == 1


def test_r5_3_redeals_happen_and_are_counted():
    """R5.3: with 1 monster in 30, a 4-card hand is all spells 26/30 of the time: most games redeal,
    and `opening` tells how many deals it took."""
    deals = []
    for s in range(20):
        o = Game.new(SPELL_DECK, SPELL_DECK, seed=s, first=0, pool=SPELLY).view(None)["opening"]
        deals += [o["deals0"], o["deals1"]]
    assert all(d >= 1 for d in deals)
    assert max(deals) > 1
    assert sum(1 for d in deals if d > 1) > len(deals) // 2


def test_r5_3_redeal_shuffles_all_30_cards_again():
    """R5.3: the player's 30 cards are shuffled together again: after redeals hand + deck is still 30,
    every instance exactly once."""
    for s in range(10):
        g = Game.new(SPELL_DECK, SPELL_DECK, seed=s, first=0, pool=SPELLY)
        data = json.loads(g.to_json())
        for p in (0, 1):
            ids = data["hand"][p] + data["deck"][p]
            assert sorted(ids) == sorted(f"p{p}c{k}" for k in range(30))


def test_r5_3_redeal_keeps_the_same_number_of_cards():
    """R5.3: the same number is dealt again: 4 to the first player, 6 to the second, however many deals."""
    for s in range(10):
        g = Game.new(SPELL_DECK, SPELL_DECK, seed=s, first=1, pool=SPELLY)
        v = g.view(None)
        assert v["players"][1]["hand_count"] == 4 and v["players"][0]["hand_count"] == 6


def test_r5_3_a_hand_with_a_monster_is_not_redealt():
    """R5.3: a hand holding a monster is kept: an all-monster deck is dealt once."""
    for s in range(5):
        o = Game.new(["orc"] * 30, ["orc"] * 30, seed=s, first=0).view(None)["opening"]
        assert o["deals0"] == 1 and o["deals1"] == 1


def test_r5_3_no_chosen_mulligan():
    """R5.3: there is no chosen mulligan: at the leader choice the only actions are the choice and resigning."""
    g = new(seed=4)
    for p in (0, 1):
        assert {a["type"] for a in g.legal_actions(p)} == {"choose_leaders", "resign"}


def test_r5_3_spells_are_never_offered_as_leaders():
    """R5.3 / R5.4: the monster the redeal guarantees is what the leader choice offers."""
    g = Game.new(SPELL_DECK, SPELL_DECK, seed=3, first=0, pool=SPELLY)
    mon = next(c["id"] for c in hand(g, 0) if c["card"] == "mon")
    assert [a["cards"] for a in leader_actions(g, 0)] == [[mon]]


# ------------------------------------------------------------------ R5.4

def test_r5_4_leader_options_are_every_1_to_3_monsters_within_level_5():
    """R5.4: 1 to 3 monsters of the opening hand, total level at most 5: exactly those are listed."""
    g = leaders_scenario(["l1", "l1", "l3", "zap", "l4", "l6"])
    levels = {"h0": 1, "h1": 1, "h2": 3, "h4": 4, "h5": 6}
    want = set()
    for n in (1, 2, 3):
        for combo in combinations(sorted(levels), n):
            if sum(levels[c] for c in combo) <= 5:
                want.add(frozenset(combo))
    got = {frozenset(a["cards"]) for a in leader_actions(g, 0)}
    assert got == want
    assert frozenset({"h0", "h1", "h2"}) in got       # 1 + 1 + 3 = 5
    assert frozenset({"h0", "h4"}) in got             # 1 + 4 = 5
    assert frozenset({"h2", "h4"}) not in got         # 3 + 4 = 7


@pytest.mark.parametrize("hand0,cards,why", [
    (None, [], "none"),
    (["l1", "l1", "l1", "zap", "l1", "l6"], ["h0", "h1", "h2", "h4"], "four monsters, 1 + 1 + 1 + 1 = 4"),
    (None, ["h2", "h4"], "3 + 4 = 7 > 5"),
    (None, ["h5"], "level 6 > 5"),
    (None, ["h1", "h2", "h4"], "1 + 3 + 4 = 8 > 5"),
    (None, ["h3"], "a spell"),
    (None, ["h0", "h3"], "a spell with a monster"),
    (None, ["h0", "h0"], "the same card twice"),
    (None, ["k0"], "the opponent's card"),
    (None, ["p0c0"], "a card of the draw pile"),
    (None, ["nobody"], "an unknown id"),
])
def test_r5_4_illegal_leader_choices_are_refused(hand0, cards, why):
    """R5.4: 1–3 monsters from one's own opening hand, total level at most 5; anything else is refused."""
    g = leaders_scenario(hand0 or ["l1", "l1", "l3", "zap", "l4", "l6"])
    assert_illegal(g, 0, {"type": "choose_leaders", "cards": cards})


def test_r5_4_every_chosen_monster_is_a_leader_at_the_base():
    """R5.4: the chosen monsters are summoned to the base, and every one of them is a leader."""
    g = leaders_scenario(["l1", "l1", "l3", "zap", "l4", "l6"])
    choose(g, 0, ["h0", "h1", "h2"])
    ev = choose(g, 1, ["k4"])
    assert events_of(ev, "leaders_revealed")[0]["leaders"] == {"0": ["h0", "h1", "h2"], "1": ["k4"]}
    for uid in ("h0", "h1", "h2"):
        u = unit_view(g, uid)
        assert u["land"] == "H0" and u["leader"] is True and u["owner"] == 0
    assert unit_view(g, "k4")["land"] == "H1" and unit_view(g, "k4")["leader"] is True
    assert g.view(0)["lands"]["H0"]["used"] == [1 + 1 + 3, 0]


def test_r5_4_leaders_leave_the_hand():
    """R5.4: the leaders are summoned from the hand: they are no longer hand cards."""
    g = leaders_scenario(["l1", "l1", "l3", "zap", "l4", "l6"], deck=0)
    choose(g, 0, ["h0", "h4"])
    choose(g, 1, ["k0"])
    assert [c["id"] for c in hand(g, 0)] == ["h1", "h2", "h3", "h5"]


def test_r5_4_a_single_leader_is_enough():
    """R5.4: one leader is a legal choice."""
    g = leaders_scenario(["zap", "zap", "l3", "zap"])
    assert [a["cards"] for a in leader_actions(g, 0)] == [["h2"]]
    choose(g, 0, ["h2"])
    choose(g, 1, ["k0"])
    assert g.view(0)["leaders"] == [["h2"], ["k0"]]


def test_r5_4_order_of_the_chosen_cards_does_not_matter():
    """R5.4: the choice is a set of monsters: the same set in another order is accepted."""
    g = leaders_scenario(["l1", "l1", "l3", "zap", "l4", "l6"])
    choose(g, 0, ["h2", "h0"])
    assert g.view(0)["players"][0]["leaders_chosen"] is True


def test_r5_4_a_hand_without_a_monster_that_fits_has_no_leader_choice():
    """R5.4: only monsters of total level at most 5 may be chosen: a hand of a level-6 monster and
    spells offers no choice (R5.3 only guarantees a monster, any level)."""
    g = leaders_scenario(["l6", "zap", "zap", "zap"])
    assert leader_actions(g, 0) == []


# ------------------------------------------------------------------ R5.5

def test_r5_5_leaders_stay_leaders_away_from_the_base():
    """R5.5: leaders stay leaders wherever they go."""
    g = new(seed=2, first=0)
    mine, _ = choose_any(g, 0, 1)
    choose_any(g, 1, 1)
    do(g, 0, {"type": "march", "units": mine, "to": "L1"})
    u = unit_view(g, mine[0])
    assert u["land"] == "L1" and u["leader"] is True


def test_r5_5_monsters_summoned_later_are_never_leaders():
    """R5.5: no monster summoned later becomes a leader, not even one summoned to the base."""
    g = new(seed=2, first=0)
    mine, _ = choose_any(g, 0, 1)
    choose_any(g, 1, 1)
    summon = find(g, 0, "summon")[0]
    do(g, 0, summon)
    assert unit_view(g, summon["card"])["leader"] is False
    assert g.view(0)["leaders"][0] == mine


def test_r5_5_later_summons_do_not_replace_a_fallen_leader():
    """R5.5: when the last leader falls the game is lost, even with other monsters of that side on
    the board (none of them took the leader's place)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("big", "L3", "a1")]},
                 {"units": [unit("orc", "L5", "b0", leader=True), unit("orc", "H1", "b1"),
                            unit("orc", "L6", "b2")]},
                 cards={"big": card(power=9, life=9)}, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["a1"], "to": "L5"})
    assert g.result == {"winner": 0, "reason": "leaders"}


def test_r5_5_leader_list_is_fixed_for_the_game():
    """R5.5: the view's leader lists stay those of the leader choice, turn after turn."""
    g = new(seed=6, first=1)
    l1, _ = choose_any(g, 1, 2)
    l0, _ = choose_any(g, 0, 1)
    for _ in range(4):
        p = g.view(None)["active"]
        for a in find(g, p, "summon")[:1]:
            do(g, p, a)
        do(g, p, "end_turn")
    assert g.view(None)["leaders"] == [l0, l1]
    assert sorted(u["id"] for u in g.view(None)["units"] if u["leader"]) == sorted(l0 + l1)


# ------------------------------------------------------------------ R5.6

def test_r5_6_round_1_is_only_the_leader_summon():
    """R5.6: round 1 consists only of the leader summon: no summon, march, discard or end_turn."""
    g = new(seed=3, first=0)
    v = g.view(None)
    assert v["round"] == 1 and v["phase"] == "leaders"
    for p in (0, 1):
        assert {a["type"] for a in g.legal_actions(p)} == {"choose_leaders", "resign"}
    card0 = hand(g, 0)[0]["id"]
    assert_illegal(g, 0, {"type": "end_turn"})
    assert_illegal(g, 0, {"type": "summon", "card": card0})
    assert_illegal(g, 0, {"type": "discard", "cards": [card0]})


def test_r5_6_both_draw_to_6_then_round_2_starts_with_the_first_player():
    """R5.6: after both have chosen, both draw to 6 and round 2 begins with the first player's turn."""
    g = new(seed=3, first=1)
    c1, _ = choose_any(g, 1, 2)   # first player: 4 cards - 2 leaders = 2, draws 4
    c0, ev = choose_any(g, 0, 1)  # second player: 6 - 1 = 5, draws 1
    drew = {e["player"]: e["count"] for e in events_of(ev, "drew")}
    assert drew == {1: 6 - (4 - len(c1)), 0: 6 - (6 - len(c0))}
    v = g.view(None)
    assert [p["hand_count"] for p in v["players"]] == [6, 6]
    assert v["round"] == 2 and v["active"] == 1 and v["phase"] == "main"
    assert {"type": "turn_started", "player": 1, "round": 2} in ev
    assert g.waiting_for() == {1}
    types = [e["type"] for e in ev]
    assert types.index("leaders_revealed") < types.index("drew") < types.index("turn_started")


def test_r5_6_leaders_may_march_from_round_2():
    """R5.6: leaders may march from round 2: they are not exhausted by the leader summon."""
    g = new(seed=3, first=0)
    c0, _ = choose_any(g, 0, 1)
    c1, _ = choose_any(g, 1, 1)
    assert unit_view(g, c0[0])["exhausted"] is False
    assert {a["to"] for a in find(g, 0, "march", units=c0)} == {"L1", "L2"}
    do(g, 0, "end_turn")
    assert unit_view(g, c1[0], 1)["exhausted"] is False
    assert {a["to"] for a in find(g, 1, "march", units=c1)} == {"L5", "L6"}


def test_r5_6_draw_to_6_stops_with_an_empty_pile():
    """R5.6 / R1.2: the draw to 6 after the choice draws what is left when the pile is short."""
    g = leaders_scenario(["l1", "l1", "l3", "zap"], deck=1)
    choose(g, 0, ["h0", "h1", "h2"])
    choose(g, 1, ["k0"])
    v = g.view(None)["players"]
    assert v[0]["hand_count"] == 1 + 1 and v[0]["deck_count"] == 0
    assert g.result is None


# ------------------------------------------------------------------ R5.7

def test_r5_7_both_choose_at_the_same_time():
    """R5.7: online, both players choose leaders at the same time: the game waits for both."""
    g = new(seed=4, first=0)
    assert g.waiting_for() == {0, 1}
    assert leader_actions(g, 0) and leader_actions(g, 1)


def test_r5_7_second_player_may_choose_before_the_first():
    """R5.7: simultaneous: either may choose first."""
    g = new(seed=4, first=0)
    choose_any(g, 1)
    assert g.waiting_for() == {0}
    choose_any(g, 0)
    assert g.view(None)["round"] == 2


def test_r5_7_choice_is_hidden_until_both_chose():
    """R5.7 [decided]: neither sees the other's choice until both have chosen."""
    g = new(seed=4, first=0)
    before = g.view(1)
    picked, ev = choose_any(g, 0, 2)
    assert ev == [{"type": "leaders_chosen", "player": 0}]
    for viewer in (1, None):
        v = g.view(viewer)
        text = json.dumps(v)
        assert all(f'"{c}"' not in text for c in picked)
        assert "leaders" not in v
        assert "leader_choice" not in v["players"][0]
        assert v["units"] == []
        assert v["players"][0]["leaders_chosen"] is True
        # not even the number of leaders shows: the hand size is unchanged
        assert v["players"][0]["hand_count"] == before["players"][0]["hand_count"]


def test_r5_7_a_player_sees_their_own_pending_choice():
    """R5.7: the chooser sees their own choice while waiting for the other."""
    g = new(seed=4, first=0)
    picked, _ = choose_any(g, 0, 2)
    assert g.view(0)["players"][0]["leader_choice"] == picked


def test_r5_7_choice_cannot_be_changed_or_repeated():
    """R5.7: a player who has chosen waits; a second choice is refused."""
    g = new(seed=4, first=0)
    choose_any(g, 0, 1)
    assert g.waiting_for() == {1}
    assert leader_actions(g, 0) == []
    assert_illegal(g, 0, {"type": "choose_leaders", "cards": [hand(g, 0)[0]["id"]]})


def test_r5_7_both_choices_revealed_together():
    """R5.7: when the second choice comes in, both are revealed at once."""
    g = new(seed=4, first=0)
    c0, _ = choose_any(g, 0, 2)
    c1, ev = choose_any(g, 1, 1)
    assert events_of(ev, "leaders_revealed") == [{"type": "leaders_revealed", "leaders": {"0": c0, "1": c1}}]
    assert g.view(1)["leaders"] == [c0, c1]
    assert g.view(0)["leaders"] == [c0, c1]


@pytest.mark.parametrize("first", [0, 1])
def test_r5_7_sequential_mode_first_player_chooses_first(first):
    """R5.7: against the CPU (leader_mode="sequential") the first player chooses first, then the other."""
    g = new(seed=4, first=first, leader_mode="sequential")
    assert g.waiting_for() == {first}
    assert leader_actions(g, 1 - first) == []
    assert_illegal(g, 1 - first, {"type": "choose_leaders", "cards": [hand(g, 1 - first)[0]["id"]]})
    choose_any(g, first)
    assert g.waiting_for() == {1 - first}
    c, ev = choose_any(g, 1 - first)
    assert len(events_of(ev, "leaders_revealed")) == 1
    assert g.view(None)["round"] == 2 and g.view(None)["active"] == first


def test_r5_7_leader_mode_must_be_known():
    """R5.7: the two modes are 'simultaneous' and 'sequential'."""
    with pytest.raises(ValueError):
        new(leader_mode="random")
