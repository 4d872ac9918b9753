"""R4: the board and its lands (R4.1–R4.7)."""

from collections import Counter

import pytest

from webapp.engine import Game

from .helpers import LANDS, assert_illegal, card, do, events_of, find, scenario, unit, unit_view

ALL = ["H0", "L1", "L2", "L3", "L4", "L5", "L6", "H1"]
DECK = ["orc"] * 10 + ["goblin-raider"] * 10 + ["fireball"] * 10

# R4.2 [decided]
ADJ = {
    "H0": {"L1", "L2"},
    "L1": {"H0", "L2", "L3", "L4"},
    "L2": {"H0", "L1", "L3", "L4"},
    "L3": {"L1", "L2", "L4", "L5", "L6"},
    "L4": {"L1", "L2", "L3", "L5", "L6"},
    "L5": {"L3", "L4", "L6", "H1"},
    "L6": {"L3", "L4", "L5", "H1"},
    "H1": {"L5", "L6"},
}

LV = {f"lv{n}": card(level=n, power=n, life=n + 2) for n in range(1, 7)}


def march(g, p, units, to):
    return do(g, p, {"type": "march", "units": units, "to": to})


def destinations(g, p, uid):
    return {a["to"] for a in find(g, p, "march", units=[uid])}


# ------------------------------------------------------------------ R4.1

def test_r4_1_eight_lands_two_bases_six_between():
    """R4.1: 8 lands: each player's base and 6 lands between them."""
    g = Game.new(DECK, DECK, seed=1, first=0)
    lands = g.view(None)["lands"]
    assert list(lands) == ALL
    assert [n for n, land in lands.items() if land["kind"] == "base"] == ["H0", "H1"]
    assert len([n for n, land in lands.items() if land["kind"] != "base"]) == 6


# ------------------------------------------------------------------ R4.2

@pytest.mark.parametrize("here", ALL)
def test_r4_2_adjacency_of_every_land(here):
    """R4.2 [decided]: a land is adjacent to its row partner and both lands of each neighbouring row;
    the legal single marches of a unit go exactly there."""
    enemy_at = "L1" if here == "H1" else "H1"
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("orc", here, "x")]},
                 {"units": [unit("orc", enemy_at, "b0", leader=True)]})
    assert destinations(g, 0, "x") == ADJ[here]


def test_r4_2_adjacency_is_symmetric():
    """R4.2: 'adjacent' is mutual (the lines on the map join two lands)."""
    for a, near in ADJ.items():
        for b in near:
            assert a in ADJ[b]


@pytest.mark.parametrize("here,there", [("L1", "L5"), ("L1", "L6"), ("H0", "L3"), ("L2", "H1"),
                                        ("L3", "H1"), ("L5", "H0"), ("L1", "L1")])
def test_r4_2_march_to_a_non_adjacent_land_is_illegal(here, there):
    """R4.2 / R8.1: a march goes only to an adjacent land."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("orc", here, "x")]},
                 {"units": [unit("orc", "L4" if "L4" not in (here, there) else "L2", "b0", leader=True)]})
    assert_illegal(g, 0, {"type": "march", "units": ["x"], "to": there})


# ------------------------------------------------------------------ R4.3

def middle_kinds(g):
    lands = g.view(None)["lands"]
    return tuple(lands[n]["kind"] for n in ALL[1:7])


@pytest.mark.parametrize("seed", range(12))
def test_r4_3_three_roads_two_rearworlds_one_swamp(seed):
    """R4.3: the 6 shared land cards are 3 Road, 2 Rearworld, 1 Swamp, on L1–L6."""
    g = Game.new(DECK, DECK, seed=seed, first=0)
    assert Counter(middle_kinds(g)) == {"road": 3, "rearworld": 2, "swamp": 1}
    lands = g.view(None)["lands"]
    assert lands["H0"]["kind"] == lands["H1"]["kind"] == "base"


def test_r4_3_placement_is_random_per_game():
    """R4.3: each game places the lands at random: different seeds give different layouts."""
    layouts = {middle_kinds(Game.new(DECK, DECK, seed=s, first=0)) for s in range(30)}
    assert len(layouts) > 5
    # every land sees the swamp in some game
    assert {k.index("swamp") for k in layouts} == set(range(6))


def test_r4_3_placement_follows_the_seed():
    """R4.3: the layout comes from the game's seed: the same seed gives the same layout."""
    for s in (0, 7, 123456789):
        assert middle_kinds(Game.new(DECK, DECK, seed=s, first=0)) == \
            middle_kinds(Game.new(DECK, DECK, seed=s, first=1))


def test_r4_3_scenario_without_lands_places_them_from_its_seed():
    """R4.3: a scenario that names no lands gets a random layout from its seed."""
    def make(seed):
        return Game.from_scenario({"seed": seed, "players": [
            {"units": [unit("orc", "H0", "a0", leader=True)]},
            {"units": [unit("orc", "H1", "b0", leader=True)]}]})
    kinds = [middle_kinds(make(s)) for s in range(20)]
    assert all(Counter(k) == {"road": 3, "rearworld": 2, "swamp": 1} for k in kinds)
    assert len(set(kinds)) > 1
    assert middle_kinds(make(5)) == middle_kinds(make(5))


# ------------------------------------------------------------------ R4.4

def test_r4_4_capacities_by_kind():
    """R4.4: base 5; [decided] Road 6, Rearworld 8, Swamp 4."""
    g = scenario()
    lands = g.view(0)["lands"]
    want = {"base": 5, "road": 6, "rearworld": 8, "swamp": 4}
    for name in ALL:
        assert lands[name]["capacity"] == want[lands[name]["kind"]]
    assert lands["L4"]["kind"] == "swamp" and lands["L4"]["capacity"] == 4


@pytest.mark.parametrize("here,to,kind,level", [("L2", "L4", "swamp", 4), ("L2", "L3", "road", 6),
                                                 ("L1", "L2", "rearworld", 6), ("L2", "L1", "road", 6)])
def test_r4_4_single_march_up_to_capacity(here, to, kind, level):
    """R4.4 / R8.4: a march is allowed while the total level stays within the capacity (equal is fine)."""
    assert LANDS[to] == kind
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit(f"lv{level}", here, "x")]}, cards=LV)
    march(g, 0, ["x"], to)
    assert unit_view(g, "x")["land"] == to


def test_r4_4_swamp_refuses_level_5():
    """R4.4: Swamp capacity 4: a level-5 monster may not march in (5 > 4)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("lv5", "L2", "x")]}, cards=LV)
    assert "L4" not in destinations(g, 0, "x")
    assert_illegal(g, 0, {"type": "march", "units": ["x"], "to": "L4"})


def test_r4_4_capacity_counts_own_monsters_already_there():
    """R4.4: 3 already on the Swamp + 2 marching = 5 > 4: refused; + 1 = 4: allowed."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("lv3", "L4", "s"),
                            unit("lv2", "L3", "x"), unit("lv1", "L3", "y")]}, cards=LV)
    assert_illegal(g, 0, {"type": "march", "units": ["x"], "to": "L4"})
    march(g, 0, ["y"], "L4")
    assert unit_view(g, "y")["land"] == "L4"
    assert g.view(0)["lands"]["L4"]["used"] == [3 + 1, 0]


def test_r4_4_rearworld_holds_8_road_6():
    """R4.4: two level-4 monsters converge onto a Rearworld (4 + 4 = 8) but not onto a Road (8 > 6)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("lv4", "L1", "x"),
                            unit("lv4", "L4", "y")]}, cards=LV)
    assert find(g, 0, "march", units=["x", "y"], to="L2")      # L2 rearworld
    assert_illegal(g, 0, {"type": "march", "units": ["x", "y"], "to": "L3"})  # L3 road
    march(g, 0, ["x", "y"], "L2")
    assert g.view(0)["lands"]["L2"]["used"] == [8, 0]


def test_r4_4_base_capacity_is_5_for_summons():
    """R4.4 / R7.2: a base holds a total level of 5: 3 at the base + 2 fits, + 3 does not."""
    g = scenario({"hand": [{"card": "lv3", "id": "h3"}, {"card": "lv2", "id": "h2"}],
                  "units": [unit("lv3", "H0", "a0", leader=True)]}, cards=LV)
    summons = {a["card"] for a in find(g, 0, "summon")}
    assert summons == {"h2"}  # only the level-2 card
    assert_illegal(g, 0, {"type": "summon", "card": "h3"})


def test_r4_4_base_capacity_is_5_for_marches():
    """R4.4: marching back into one's own base also respects 5: 4 there + 2 = 6 > 5."""
    g = scenario({"units": [unit("lv4", "H0", "a0", leader=True), unit("lv2", "L1", "x"),
                            unit("lv1", "L1", "y")]}, cards=LV)
    assert_illegal(g, 0, {"type": "march", "units": ["x"], "to": "H0"})
    assert find(g, 0, "march", units=["y"], to="H0")


def test_r4_4_capacity_counts_only_own_monsters():
    """R4.4: capacity is about one player's own monsters: a level-4 party may attack a Swamp
    holding 4 levels of enemies (4 <= 4; the enemies do not count)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("lv4", "L3", "x")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("lv4", "L4", "e")]}, cards=LV)
    assert find(g, 0, "march", units=["x"], to="L4")


def test_r4_4_view_shows_used_capacity_per_player():
    """R4.4: each land reports the levels each player has on it."""
    g = scenario({"units": [unit("lv3", "H0", "a0", leader=True), unit("lv2", "L1", "x"),
                            unit("lv4", "L1", "y")]},
                 {"units": [unit("lv5", "H1", "b0", leader=True)]}, cards=LV)
    lands = g.view(1)["lands"]
    assert lands["H0"]["used"] == [3, 0]
    assert lands["L1"]["used"] == [2 + 4, 0]
    assert lands["H1"]["used"] == [0, 5]


# ------------------------------------------------------------------ R4.5

def test_r4_5_new_game_owns_bases_only():
    """R4.5: your base is yours at the start; [decided] the six middle lands start unowned."""
    g = Game.new(DECK, DECK, seed=3, first=0)
    v = g.view(None)
    assert {n: land["owner"] for n, land in v["lands"].items()} == \
        {"H0": 0, "L1": None, "L2": None, "L3": None, "L4": None, "L5": None, "L6": None, "H1": 1}
    assert [p["lands"] for p in v["players"]] == [1, 1]


def test_r4_5_entering_an_empty_land_takes_it():
    """R4.5: a land becomes yours when you enter it while it is empty of enemies."""
    g = scenario()
    assert g.view(0)["lands"]["L1"]["owner"] is None
    ev = march(g, 0, ["a0"], "L1")
    assert {"type": "land_taken", "player": 0, "land": "L1"} in ev
    assert g.view(0)["lands"]["L1"]["owner"] == 0
    assert g.view(0)["players"][0]["lands"] == 1 + 1


def test_r4_5_land_stays_yours_after_you_leave():
    """R4.5: it stays yours after your monsters leave."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("orc", "L1", "x")]})
    assert g.view(0)["lands"]["L1"]["owner"] == 0
    ev = march(g, 0, ["x"], "L3")
    assert [e["land"] for e in events_of(ev, "land_taken")] == ["L3"]
    lands = g.view(0)["lands"]
    assert lands["L1"]["owner"] == 0 and lands["L1"]["used"] == [0, 0]
    assert lands["L3"]["owner"] == 0


def test_r4_5_opponent_takes_an_empty_land_of_yours():
    """R4.5: yours until the opponent takes it: entering your empty land makes it theirs."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True)]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "y")]},
                 active=1, owners={"L3": 0})
    assert g.view(1)["lands"]["L3"]["owner"] == 0
    ev = march(g, 1, ["y"], "L3")
    assert {"type": "land_taken", "player": 1, "land": "L3"} in ev
    v = g.view(1)
    assert v["lands"]["L3"]["owner"] == 1
    # player 1 held H1 and L5 (where y stood), player 0 held H0 and L3
    assert [p["lands"] for p in v["players"]] == [2 - 1, 2 + 1]


def test_r4_5_entering_your_own_land_takes_nothing():
    """R4.5: entering a land you already own changes nothing (no land_taken)."""
    g = scenario(owners={"L1": 0})
    ev = march(g, 0, ["a0"], "L1")
    assert events_of(ev, "land_taken") == []
    assert g.view(0)["lands"]["L1"]["owner"] == 0


def test_r4_5_successful_attack_takes_the_land():
    """R4.5 / R14.1: when your attack on a land succeeds, it becomes yours."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("big", "L3", "x")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L5", "y")]},
                 cards={"big": card(power=9, life=9)}, dice=[6, 1])
    assert g.view(0)["lands"]["L5"]["owner"] == 1
    ev = march(g, 0, ["x"], "L5")
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert {"type": "land_taken", "player": 0, "land": "L5"} in ev
    assert g.view(0)["lands"]["L5"]["owner"] == 0
    assert unit_view(g, "x")["land"] == "L5"


def test_r4_5_failed_attack_leaves_the_land_with_the_defender():
    """R4.5: a failed attack takes nothing: the land stays the defender's."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("weak", "L3", "x")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("wall", "L5", "y")]},
                 cards={"weak": card(power=1, life=9), "wall": card(power=0, life=9)}, dice=[6, 1])
    ev = march(g, 0, ["x"], "L5")
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert events_of(ev, "land_taken") == []
    assert g.view(0)["lands"]["L5"]["owner"] == 1
    assert unit_view(g, "x")["land"] == "L3"


def test_r4_5_both_parties_wiped_out_land_stays_the_defenders():
    """R4.5 / R14.1: if an attack wipes out both parties, the land stays the defender's (the
    rulebook's §8 and §14 call a mutual wipe-out a failed attack)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("smasher", "L3", "x")]},
                 {"units": [unit("orc", "H1", "b0", leader=True), unit("smasher", "L5", "y")]},
                 cards={"smasher": card(power=5, life=3)}, dice=[2, 2])  # tie: simultaneous attack
    ev = march(g, 0, ["x"], "L5")
    assert sorted(e["unit"] for e in events_of(ev, "destroyed")) == ["x", "y"]
    assert events_of(ev, "battle_ended")[0]["success"] is False
    lands = g.view(0)["lands"]
    assert lands["L5"]["owner"] == 1 and lands["L5"]["used"] == [0, 0]


def test_r4_5_unowned_land_stays_unowned_when_nobody_enters():
    """R4.5: the middle lands are nobody's until entered; a march elsewhere does not touch them."""
    g = Game.new(DECK, DECK, seed=3, first=0)
    for p in (0, 1):
        do(g, p, next(a for a in g.legal_actions(p) if a["type"] == "choose_leaders"))
    leader = next(u["id"] for u in g.view(0)["units"] if u["owner"] == 0)
    march(g, 0, [leader], "L2")
    owners = {n: land["owner"] for n, land in g.view(0)["lands"].items()}
    assert owners == {"H0": 0, "L1": None, "L2": 0, "L3": None, "L4": None, "L5": None, "L6": None, "H1": 1}


# ------------------------------------------------------------------ R4.6

def test_r4_6_entering_the_empty_enemy_base_takes_it():
    """R4.6: bases are lands: entering the empty enemy base takes it, and it counts as your land."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("orc", "L5", "x")]},
                 {"units": [unit("orc", "L6", "b0", leader=True)]})
    before = g.view(0)["players"]
    ev = march(g, 0, ["x"], "H1")
    assert {"type": "land_taken", "player": 0, "land": "H1"} in ev
    v = g.view(0)
    assert v["lands"]["H1"]["owner"] == 0
    assert v["players"][0]["lands"] == before[0]["lands"] + 1
    assert v["players"][1]["lands"] == before[1]["lands"] - 1


def test_r4_6_successful_attack_on_the_enemy_base_takes_it():
    """R4.6: a successful attack on the enemy base takes it."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("big", "L5", "x")]},
                 {"units": [unit("orc", "L6", "b0", leader=True), unit("orc", "H1", "y")]},
                 cards={"big": card(power=9, life=9)}, dice=[6, 1])
    ev = march(g, 0, ["x"], "H1")
    assert events_of(ev, "battle_ended")[0]["success"] is True
    assert g.view(0)["lands"]["H1"]["owner"] == 0
    assert g.result is None


def test_r4_6_no_summon_to_your_base_while_an_enemy_is_on_it():
    """R4.6 / R7.3: its owner may not summon there while enemy monsters are on it."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("orc", "H1", "x")]},
                 {"hand": [{"card": "orc", "id": "o1"}, "goblin-raider"],
                  "units": [unit("orc", "L6", "b0", leader=True)]},
                 active=1)
    assert g.view(1)["lands"]["H1"]["owner"] == 0
    assert find(g, 1, "summon") == []
    assert_illegal(g, 1, {"type": "summon", "card": "o1"})


def test_r4_6_summoning_into_your_emptied_base_takes_it_back():
    """R4.6 [decided]: if the enemy leaves it, its owner's summoning there enters an empty land and takes it back."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True)]},
                 {"hand": [{"card": "orc", "id": "o1"}], "units": [unit("orc", "L6", "b0", leader=True)]},
                 active=1, owners={"H1": 0})
    assert g.view(1)["lands"]["H1"]["owner"] == 0
    ev = do(g, 1, {"type": "summon", "card": "o1"})
    assert {"type": "land_taken", "player": 1, "land": "H1"} in ev
    assert g.view(1)["lands"]["H1"]["owner"] == 1


def test_r4_6_enemy_base_capacity_is_5_for_the_entering_player():
    """R4.6 / R4.4: the enemy base is a land of capacity 5 for the one entering it (6 > 5 refused)."""
    g = scenario({"units": [unit("orc", "H0", "a0", leader=True), unit("lv6", "L5", "x"),
                            unit("lv5", "L6", "y")]},
                 {"units": [unit("orc", "L1", "b0", leader=True)]}, cards=LV)
    assert_illegal(g, 0, {"type": "march", "units": ["x"], "to": "H1"})
    assert find(g, 0, "march", units=["y"], to="H1")


def test_r4_6_own_base_is_your_land_at_the_start():
    """R4.6 / R4.5: your base counts as one of your lands from the start."""
    g = Game.new(DECK, DECK, seed=8, first=1)
    v = g.view(None)
    assert v["lands"]["H0"]["owner"] == 0 and v["lands"]["H1"]["owner"] == 1
    assert v["players"][0]["lands"] == v["players"][1]["lands"] == 1


# ------------------------------------------------------------------ R4.7

EXPECTED_DISTANCE_P0 = {"H0": 4, "L1": 3, "L2": 3, "L3": 2, "L4": 2, "L5": 1, "L6": 1, "H1": 0}
MIRROR = {"H0": "H1", "L1": "L5", "L2": "L6", "L3": "L3", "L4": "L4", "L5": "L1", "L6": "L2", "H1": "H0"}


def test_r4_7_distance_to_the_enemy_base_player_0():
    """R4.7 [decided]: for player 0, L5/L6 = 1, L3/L4 = 2, L1/L2 = 3, H0 = 4, H1 = 0."""
    lands = scenario().view(0)["lands"]
    assert {n: land["distance"][0] for n, land in lands.items()} == EXPECTED_DISTANCE_P0


def test_r4_7_distance_to_the_enemy_base_player_1_is_symmetric():
    """R4.7 [decided]: symmetric for player 1: L1/L2 = 1, L3/L4 = 2, L5/L6 = 3, H1 = 4, H0 = 0."""
    lands = scenario().view(1)["lands"]
    got = {n: land["distance"][1] for n, land in lands.items()}
    assert got == {"H0": 0, "L1": 1, "L2": 1, "L3": 2, "L4": 2, "L5": 3, "L6": 3, "H1": 4}
    for n in ALL:
        assert got[n] == EXPECTED_DISTANCE_P0[MIRROR[n]]


def test_r4_7_distance_is_steps_on_the_graph():
    """R4.7: the distance is the number of steps on the R4.2 graph: 0 at the target base, and
    every other land is one more than its nearest neighbour."""
    for p, target in ((0, "H1"), (1, "H0")):
        lands = scenario().view(p)["lands"]
        d = {n: land["distance"][p] for n, land in lands.items()}
        assert d[target] == 0
        for n in ALL:
            if n != target:
                assert d[n] == 1 + min(d[m] for m in ADJ[n])


def test_r4_7_distance_does_not_depend_on_land_kinds():
    """R4.7: distances are the same whatever the random layout (R4.3)."""
    for s in range(5):
        lands = Game.new(DECK, DECK, seed=s, first=0).view(None)["lands"]
        assert {n: land["distance"][0] for n, land in lands.items()} == EXPECTED_DISTANCE_P0
