"""Every spell of the pool, cast in a battle: its effect shows in the events and the view.

Each case is player 0's party on L3 attacking player 1's party on L5 (road 6 both); both leaders
wait at home unless a case says otherwise. `dice=(6, 1)` makes player 0 strike first, `(1, 6)`
player 1; a third die is the coin of a coin spell (odd: heads, R11.9).

The engine takes a player's only choice by itself (docs/engine.md, R10.7), so parties carry a
spare "pinger" ([Normal] ability) to keep their own window open where a case looks. Lives are
read while the battle still runs (R14.2 restores them when it ends).
"""

import pytest

from tests.engine.helpers import card, do, events_of, find, scenario, unit, unit_view
from webapp.engine import load_pool

ELEMENTS = ("fire", "water", "earth", "wind", "light", "dark")

CARDS = {
    # slot carriers: 3 slots of their element pay any spell of the pool but the 0-mana one
    **{f"{e}-mage": card(element=e, power=1, life=6, slots={e: 3}) for e in ELEMENTS},
    "earth-adept": card(element="earth", power=1, life=6, slots={"earth": 1}),
    "earth-brute": card(element="earth", power=2, life=6),
    "tank": card(power=1, life=10),
    "tank2": card(power=1, life=10),
    "frail": card(power=1, life=1),
    "hitter": card(power=3, life=6),
    "mid": card(power=3, life=6, level=2),
    "big": card(power=3, life=9, level=3),
    "ghast": card(element="dark", tribe="Undead", power=2, life=6),
    "bolter": card(power=1, life=6, abilities=[
        {"timing": "normal", "target": {"side": "enemy"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 2}]}]),
    "pinger": card(power=1, life=6, abilities=[
        {"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
}


def fight(att, dfn, hand0=(), hand1=(), dice=(6, 1), deck0=(), leader1_in=False):
    """Player 0's `att` [(card, id)] on L3 attacks player 1's `dfn` on L5, formations as listed.
    With `leader1_in`, player 1's leader "b0" stands on L5 at the front of its party."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True)] + [unit(c, "L3", i) for c, i in att],
          "hand": [{"card": c, "id": i} for c, i in hand0],
          "deck": [{"card": c, "id": i} for c, i in deck0]}
    p1_units = [unit("orc", "L5" if leader1_in else "H1", "b0", leader=True)] + [unit(c, "L5", i) for c, i in dfn]
    p1 = {"units": p1_units, "hand": [{"card": c, "id": i} for c, i in hand1]}
    g = scenario(p0, p1, cards=CARDS, dice=list(dice))
    do(g, 0, {"type": "march", "units": [i for _, i in att], "to": "L5"})
    order = {0: [i for _, i in att], 1: (["b0"] if leader1_in else []) + [i for _, i in dfn]}
    while g.view()["battle"] is not None and g.view()["battle"]["step"] in ("quick", "formation"):
        (w,) = g.waiting_for()
        if g.view()["battle"]["step"] == "quick":
            do(g, w, {"type": "quick_summon", "cards": []})
        else:
            do(g, w, {"type": "formation", "order": order[w]})
    assert g.view()["battle"]["step"] == "fight"
    return g


def cast(card_id, targets=(), **extra):
    return {"type": "spell", "card": card_id, "targets": list(targets), **extra}


def attack(g):
    """Player 0 attacks (the engine declares it by itself when it is player 0's only choice)."""
    if g.waiting_for() == {0}:
        attack(g)
    assert g.view()["battle"]["chain"][-1]["kind"] == "attack" and g.waiting_for() == {1}


def life(g, uid):
    return unit_view(g, uid)["life"]


def hand(g, p):
    return [h["id"] for h in g.view(p)["players"][p]["hand"]]


def damage(ev):
    return [(e["unit"], e["amount"]) for e in events_of(ev, "damage")]


def resolved(ev, card_id):
    return [e for e in ev if e["type"] in ("resolved", "fizzled") and e.get("card") == card_id]


# ---------------------------------------------------------------- fire

def case_fireball():
    g = fight([("fire-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("fireball", "s")])
    ev = do(g, 0, cast("s"))
    assert damage(ev) == [("t1", 3)]                       # the front one only (R12.8)
    assert life(g, "t1") == 10 - 3 and life(g, "t2") == 10


def case_war_cry():
    g = fight([("fire-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("war-cry", "s")])
    ev = do(g, 0, cast("s"))
    assert {e["unit"]: e["power"] for e in events_of(ev, "boosted")} == {"m0": 2, "pg0": 2}
    assert unit_view(g, "m0")["power"] == 1 + 2 and unit_view(g, "pg0")["power"] == 1 + 2
    assert unit_view(g, "t1")["power"] == 1


def case_ember_ritual():
    g = fight([("fire-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")],
              hand0=[("ember-ritual", "s")], deck0=[("tank", "d0")])
    ev = do(g, 0, cast("s"))
    assert [(e["unit"], e["slots"]) for e in events_of(ev, "slots_granted")] == [("m0", {"fire": 2})]
    assert g.view()["battle"]["slots"]["0"]["fire"] == {"total": 3 + 2, "used": 1}
    assert events_of(ev, "drew")[0]["count"] == 1 and hand(g, 0) == ["d0"]


def case_flame_lance():
    g = fight([("fire-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("flame-lance", "s")])
    assert {tuple(a["targets"]) for a in find(g, 0, "spell", card="s")} == {("t1",), ("t2",)}
    ev = do(g, 0, cast("s", ["t2"]))                       # the chosen one, behind the front
    assert damage(ev) == [("t2", 4)]
    assert life(g, "t2") == 10 - 4 and life(g, "t1") == 10


def case_funeral_pyre():
    # player 1 strikes first: its bolter kills player 0's frail front; then its attack is declared
    # and player 0 answers it with the pyre: X = 1 + 2 x 1 fallen ally = 3 to the enemy front one
    g = fight([("frail", "f0"), ("fire-mage", "m0"), ("tank", "t0")], [("tank", "t1"), ("bolter", "u1")],
              hand0=[("funeral-pyre", "s")], dice=(1, 6))
    do(g, 1, {"type": "ability", "unit": "u1", "targets": ["f0"]})
    ev = do(g, 0, "pass")
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["f0"]
    assert g.view()["battle"]["chain"][-1]["kind"] == "attack"   # player 1's only choice left
    ev = do(g, 0, cast("s"))
    assert resolved(ev, "funeral-pyre")[0]["type"] == "resolved"
    assert damage(ev)[0] == ("t1", 1 + 2 * 1)


# ---------------------------------------------------------------- water

def case_dispel():
    g = fight([("fire-mage", "m0"), ("pinger", "pg0")], [("water-mage", "w1"), ("tank", "t1")],
              hand0=[("fireball", "f0")], hand1=[("dispel", "s")])
    do(g, 0, cast("f0"))
    assert find(g, 1, "spell", card="s")
    ev = do(g, 1, cast("s"))
    assert [e["card"] for e in events_of(ev, "cancelled")] == ["fireball"]
    assert resolved(ev, "fireball")[0]["reason"] == "cancelled"
    assert not damage(ev) and life(g, "w1") == 6


def case_whirlpool():
    g = fight([("water-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("whirlpool", "s")])
    # leaders are never returned (R13.7): only the non-leaders are offered
    ev = do(g, 0, cast("s", ["t2"]))
    assert [(e["unit"], e["to"]) for e in events_of(ev, "returned")] == [("t2", "hand")]
    assert unit_view(g, "t2") is None and hand(g, 1) == ["t2"]
    assert g.view()["battle"]["parties"]["1"] == ["t1"]


def case_whirlpool_never_a_leader():
    g = fight([("water-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("whirlpool", "s")],
              leader1_in=True)
    assert {tuple(a["targets"]) for a in find(g, 0, "spell", card="s")} == {("t1",)}


def case_healing_rain():
    g = fight([("hitter", "h0")], [("water-mage", "w1"), ("tank", "t1"), ("pinger", "pg1")],
              hand1=[("healing-rain", "s")])
    attack(g)
    ev = do(g, 1, cast("s"))                               # in response to the attack
    assert {e["unit"]: e["life"] for e in events_of(ev, "boosted")} == {"w1": 2, "t1": 2, "pg1": 2}
    assert unit_view(g, "w1")["max_life"] == 6 + 2
    assert life(g, "w1") == 6 + 2 - 3                       # the rain resolved before the attack


def case_mirror_of_waters_draw():
    g = fight([("water-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")],
              hand0=[("mirror-of-waters", "s")], deck0=[("tank", "d0"), ("tank", "d1"), ("tank", "d2")])
    ev = do(g, 0, cast("s", choice=0))
    assert events_of(ev, "drew")[0]["count"] == 2 and hand(g, 0) == ["d0", "d1"]
    assert not events_of(ev, "boosted")


def case_mirror_of_waters_guard():
    g = fight([("water-mage", "m0"), ("pinger", "pg0"), ("tank", "t0")], [("tank", "t1")],
              hand0=[("mirror-of-waters", "s")], deck0=[("tank", "d0")])
    ev = do(g, 0, cast("s", choice=1))
    assert [(e["unit"], e["life"]) for e in events_of(ev, "boosted")] == [("t0", 3)]   # the rear one
    assert unit_view(g, "t0")["max_life"] == 10 + 3 and not events_of(ev, "drew")


# ---------------------------------------------------------------- earth

def case_earthquake():
    g = fight([("earth-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2"), ("frail", "f1")],
              hand0=[("earthquake", "s")])
    ev = do(g, 0, cast("s"))
    assert sorted(damage(ev)) == [("f1", 1), ("t1", 1), ("t2", 1)]
    assert [e["unit"] for e in events_of(ev, "destroyed")] == ["f1"]
    assert life(g, "t1") == 9 and life(g, "t2") == 9 and life(g, "m0") == 6


def case_stone_skin():
    g = fight([("hitter", "h0")], [("tank", "t1"), ("earth-mage", "e1"), ("pinger", "pg1")],
              hand1=[("stone-skin", "s")])
    attack(g)
    ev = do(g, 1, cast("s", ["t1"]))
    assert [(e["unit"], e["life"]) for e in events_of(ev, "boosted")] == [("t1", 3)]
    assert unit_view(g, "t1")["max_life"] == 13 and life(g, "t1") == 13 - 3


def case_ley_line():
    # a 0-mana spell: castable with no slot; it gives the 1-slot earth adept the 3 an Earthquake needs
    g = fight([("earth-adept", "e0"), ("earth-brute", "e1"), ("tank", "t0")], [("tank", "t1")],
              hand0=[("ley-line", "s"), ("earthquake", "q")])
    assert not find(g, 0, "spell", card="q")
    assert {tuple(a["targets"]) for a in find(g, 0, "spell", card="s")} == {("e0",), ("e1",)}  # earth only
    ev = do(g, 0, cast("s", ["e1"]))
    assert events_of(ev, "declared")[0]["paid"] == {"element": 0, "wild": 0}
    assert [(e["unit"], e["slots"]) for e in events_of(ev, "slots_granted")] == [("e1", {"earth": 2})]
    assert g.view()["battle"]["slots"]["0"]["earth"] == {"total": 1 + 2, "used": 0}
    assert find(g, 0, "spell", card="q")


def case_mire():
    g = fight([("hitter", "h0"), ("mid", "h1"), ("pinger", "pg0")], [("earth-mage", "e1"), ("tank", "t1"), ("pinger", "pg1")],
              hand1=[("mire", "s")])
    ev = do(g, 0, {"type": "ability", "unit": "pg0", "targets": []})
    # it answers attacks only: player 1 had nothing against the ability and passed by itself
    assert [e["player"] for e in events_of(ev, "passed")] == [1]
    attack(g)
    ev = do(g, 1, cast("s"))
    assert {e["unit"]: e["power"] for e in events_of(ev, "boosted")} == {"h0": -1, "h1": -1, "pg0": -1}
    assert events_of(ev, "attack")[0]["power"] == (3 - 1) + (3 - 1)


# ---------------------------------------------------------------- wind

def case_arrow_rain():
    g = fight([("wind-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("arrow-rain", "s")])
    ev = do(g, 0, cast("s"))
    assert damage(ev) == [("t2", 2)]                        # the rear one
    assert life(g, "t2") == 8 and life(g, "t1") == 10


def case_polymorph():
    g = fight([("wind-mage", "m0"), ("pinger", "pg0")], [("mid", "x1"), ("tank", "t1")],
              hand0=[("polymorph", "s")])
    ev = do(g, 0, cast("s", ["x1"]))
    assert [(e["unit"], e["tribe"]) for e in events_of(ev, "tribe_changed")] == [("x1", "Goblin")]
    assert [(e["unit"], e["level"]) for e in events_of(ev, "level_changed")] == [("x1", 1)]
    assert unit_view(g, "x1")["tribe"] == "Goblin" and unit_view(g, "x1")["level"] == 1


def case_blow_away():
    g = fight([("wind-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("blow-away", "s")])
    ev = do(g, 0, cast("s"))
    assert [(e["unit"], e["to"]) for e in events_of(ev, "returned")] == [("t1", "hand")]
    assert hand(g, 1) == ["t1"] and g.view()["battle"]["parties"]["1"] == ["t2"]


def case_blow_away_spares_a_leader():
    g = fight([("wind-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("blow-away", "s")],
              leader1_in=True)
    assert g.view()["battle"]["parties"]["1"] == ["b0", "t1"]
    ev = do(g, 0, cast("s"))
    assert resolved(ev, "blow-away")[0]["type"] == "resolved"
    assert not events_of(ev, "returned") and g.view()["battle"]["parties"]["1"] == ["b0", "t1"]


def case_fickle_wind_heads():
    g = fight([("wind-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("fickle-wind", "s")], dice=(6, 1, 3))
    ev = do(g, 0, cast("s"))
    assert events_of(ev, "declared")[0]["coin"] == "heads"
    assert damage(ev) == [("t2", 3)] and not events_of(ev, "boosted")


def case_fickle_wind_tails():
    g = fight([("wind-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("fickle-wind", "s")], dice=(6, 1, 4))
    ev = do(g, 0, cast("s"))
    assert events_of(ev, "declared")[0]["coin"] == "tails"
    assert not damage(ev)
    assert unit_view(g, "m0")["power"] == 2 and unit_view(g, "pg0")["power"] == 2


# ---------------------------------------------------------------- light

def case_mirror_ward():
    g = fight([("fire-mage", "m0"), ("pinger", "pg0")], [("light-mage", "l1"), ("tank", "t1")],
              hand0=[("fireball", "f0")], hand1=[("mirror-ward", "s")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, cast("s"))
    assert [e["card"] for e in events_of(ev, "cancelled")] == ["fireball"]
    assert resolved(ev, "fireball")[0]["reason"] == "cancelled"
    assert life(g, "l1") == 6


def case_giant_slayer():
    g = fight([("light-mage", "m0"), ("pinger", "pg0")], [("big", "x3"), ("mid", "x2"), ("tank", "t1")],
              hand0=[("giant-slayer", "s")])
    # level 2 or less: the level-3 unit is no target
    assert {tuple(a["targets"]) for a in find(g, 0, "spell", card="s")} == {("x2",), ("t1",)}
    ev = do(g, 0, cast("s", ["x2"]))
    assert [(e["unit"], e["reason"]) for e in events_of(ev, "destroyed")] == [("x2", "effect")]
    assert unit_view(g, "x2") is None


def case_dawn_hymn():
    g = fight([("light-mage", "m0"), ("light-mage", "m1"), ("pinger", "pg0")], [("tank", "t1")],
              hand0=[("dawn-hymn", "s")])
    ev = do(g, 0, cast("s"))                                # X = 2 light units in the party
    assert {e["unit"]: e["life"] for e in events_of(ev, "boosted")} == {"m0": 2, "m1": 2, "pg0": 2}
    assert unit_view(g, "pg0")["max_life"] == 6 + 2 and unit_view(g, "t1")["max_life"] == 10


def case_holy_light_smite():
    g = fight([("light-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("ghast", "u1")],
              hand0=[("holy-light", "s")])
    ev = do(g, 0, cast("s", choice=0))
    assert damage(ev) == [("u1", 3)]                        # the Undead only
    assert life(g, "u1") == 3 and life(g, "t1") == 10


def case_holy_light_blessing():
    g = fight([("light-mage", "m0"), ("pinger", "pg0")], [("tank", "t1"), ("ghast", "u1")],
              hand0=[("holy-light", "s")])
    ev = do(g, 0, cast("s", choice=1))
    assert not damage(ev)
    assert unit_view(g, "m0")["power"] == 1 + 2 and unit_view(g, "pg0")["power"] == 1


# ---------------------------------------------------------------- dark

def case_silence():
    g = fight([("bolter", "u0"), ("pinger", "pg0")], [("dark-mage", "d1"), ("tank", "t1")],
              hand1=[("silence", "s")])
    do(g, 0, {"type": "ability", "unit": "u0", "targets": ["d1"]})
    ev = do(g, 1, cast("s", ["u0"]))
    assert [e["unit"] for e in events_of(ev, "negated")] == ["u0"]
    assert [e["reason"] for e in ev if e["type"] == "fizzled"] == ["negated"]
    assert g.view()["battle"]["negated"] == ["u0"] and life(g, "d1") == 6


def case_life_drain():
    g = fight([("dark-mage", "m0"), ("dark-mage", "m1"), ("pinger", "pg0")], [("tank", "t1"), ("tank2", "t2")],
              hand0=[("life-drain", "s")])
    ev = do(g, 0, cast("s", ["t2"]))                        # X = 1 + 2 dark units
    assert damage(ev) == [("t2", 1 + 2)]
    assert [(e["unit"], e["life"]) for e in events_of(ev, "boosted")] == [("m0", 2)]
    assert life(g, "t2") == 10 - 3 and unit_view(g, "m0")["max_life"] == 6 + 2


def case_dark_pact_heads():
    g = fight([("dark-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("dark-pact", "s")],
              deck0=[("tank", "d0"), ("tank", "d1")], dice=(6, 1, 5))
    ev = do(g, 0, cast("s"))
    assert events_of(ev, "declared")[0]["coin"] == "heads"
    assert events_of(ev, "drew")[0]["count"] == 2 and hand(g, 0) == ["d0", "d1"]
    assert not damage(ev)


def case_dark_pact_tails():
    g = fight([("dark-mage", "m0"), ("pinger", "pg0")], [("tank", "t1")], hand0=[("dark-pact", "s")],
              deck0=[("tank", "d0"), ("tank", "d1")], dice=(6, 1, 6))
    ev = do(g, 0, cast("s"))
    assert events_of(ev, "declared")[0]["coin"] == "tails"
    assert damage(ev) == [("m0", 2)] and not events_of(ev, "drew")   # its own front one pays
    assert life(g, "m0") == 4


def case_grave_curse():
    g = fight([("mid", "x0"), ("hitter", "h0")], [("dark-mage", "d1"), ("tank", "t1"), ("pinger", "pg1")],
              hand1=[("grave-curse", "s")])
    attack(g)
    ev = do(g, 1, cast("s", ["x0"]))                        # in response to the attack
    assert [(e["unit"], e["tribe"]) for e in events_of(ev, "tribe_changed")] == [("x0", "Undead")]
    assert [(e["unit"], e["level"]) for e in events_of(ev, "level_changed")] == [("x0", 0)]
    assert unit_view(g, "x0")["tribe"] == "Undead" and unit_view(g, "x0")["level"] == 0
    assert unit_view(g, "x0")["power"] == 3                 # a level change touches no power (R12.12)


def case_abyssal_maw():
    # player 0 also holds a Mirror Ward with light slots, yet cannot answer the Maw (R11.6)
    g = fight([("fire-mage", "m0"), ("light-mage", "l0"), ("pinger", "pg0")], [("dark-mage", "d1"), ("tank", "t1")],
              hand0=[("fireball", "f0"), ("mirror-ward", "mw")], hand1=[("abyssal-maw", "s")])
    do(g, 0, cast("f0"))
    ev = do(g, 1, cast("s"))
    assert [e["card"] for e in events_of(ev, "cancelled")] == ["fireball"]
    assert resolved(ev, "abyssal-maw")[0]["type"] == "resolved"
    assert not any(e["type"] == "declared" and e.get("card") == "mirror-ward" for e in ev)
    if g.waiting_for() == {1}:                              # anything more to answer with? no: pass
        ev += do(g, 1, "pass")
    assert resolved(ev, "fireball")[0]["reason"] == "cancelled"
    assert life(g, "d1") == 6 and "mw" in hand(g, 0)


CASES = {name[len("case_"):].replace("_", "-"): fn for name, fn in list(globals().items())
         if name.startswith("case_")}


def spell_of(case):
    """The spell a case casts: the longest pool spell id its name starts with."""
    ids = [c.id for c in load_pool().values() if c.kind == "spell"]
    hits = [i for i in ids if case == i or case.startswith(i + "-")]
    return max(hits, key=len) if hits else None


POOL_SPELLS = sorted(c.id for c in load_pool().values() if c.kind == "spell")


@pytest.mark.parametrize("spell_id", POOL_SPELLS)
def test_every_pool_spell_has_a_behaviour_case(spell_id):
    assert any(spell_of(name) == spell_id for name in CASES), f"no case casts {spell_id!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_spell_behaves(name):
    assert spell_of(name) is not None, f"case {name!r} names no pool spell"
    CASES[name]()
