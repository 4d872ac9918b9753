"""R11: [Normal] and [Counter] declarations, the response chain, resolution and fizzles.

Every battle here is player 0's party on L3 (road 6) attacking player 1's party on L5 (road 6);
both leaders wait at home, so no battle here decides the game. `dice=(6, 1)` makes player 0
(the attacker) strike first.

The engine takes a player's only choice by itself (docs/engine.md, R10.7), so most parties carry
a spare "pinger" ([Normal]) or "guard" ([Counter]) just to keep a window open where a test looks.
Lives are read while the battle still runs (R14.2 restores them when it ends).
"""

import pytest

from tests.engine.helpers import assert_illegal, card, do, events_of, find, scenario, unit, unit_view


def spell(**fields):
    base = {"kind": "spell", "element": "fire", "mana": 1, "timing": "normal", "rarity": "C",
            "name": {"en": "Test spell", "ja": "テスト魔法"}}
    base.update(fields)
    return base


CARDS = {
    # plain bodies
    "tank": card(power=1, life=10),
    "wall": card(power=0, life=3),
    "weak": card(power=1, life=2),
    # slot carriers
    "fire-mage": card(power=1, life=5, slots={"fire": 1}),
    "fire-mage2": card(power=1, life=5, slots={"fire": 2}),
    "dark-mage": card(power=1, life=5, slots={"dark": 2}, element="dark"),
    "light-mage": card(power=1, life=5, slots={"light": 2}, element="light"),
    # declared abilities
    "bolter": card(power=2, life=5, abilities=[
        {"timing": "normal", "target": {"side": "enemy"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 2}]}]),
    "cheerer": card(power=1, life=5, abilities=[
        {"timing": "normal", "target": {"side": "ally"},
         "effects": [{"do": "boost", "to": "chosen", "power": 2}]}]),
    "pinger": card(power=1, life=5, abilities=[
        {"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
    "zapper": card(power=1, life=5, abilities=[
        {"timing": "counter", "target": {"side": "enemy"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 20}]}]),
    "guard": card(power=1, life=5, abilities=[
        {"timing": "counter", "target": {"side": "ally"},
         "effects": [{"do": "boost", "to": "chosen", "life": 1}]}]),
    "swift-guard": card(power=1, life=5, abilities=[
        {"timing": "counter", "unrespondable": True,
         "effects": [{"do": "boost", "to": "allies", "life": 3}]}]),
    "canceller": card(power=1, life=5, element="water", abilities=[
        {"timing": "counter", "respond_to": "spell", "effects": [{"do": "cancel_spell"}]}]),
    "mid": card(power=1, life=5, level=2),
    # spells
    "bolt": spell(target={"side": "enemy"}, effects=[{"do": "damage", "to": "chosen", "amount": 2}]),
    "hex": spell(element="dark", timing="counter", target={"side": "enemy"},
                 effects=[{"do": "negate", "to": "chosen"}]),
    "doom": spell(element="dark", timing="counter", target={"side": "enemy"},
                  effects=[{"do": "damage", "to": "chosen", "amount": 20}]),
    "grow": spell(element="dark", timing="counter", target={"side": "ally"},
                  effects=[{"do": "change_level", "to": "chosen", "by": 1}]),
    "rally": spell(target={"side": "ally"}, effects=[{"do": "boost", "to": "chosen", "power": 3}]),
}


def battle(att, dfn, hand0=(), hand1=(), dice=(6, 1)):
    """Player 0's `att` [(card, id)] on L3 attacks player 1's `dfn` on L5; formations as listed.

    Returns the game (in step 6 unless it ended earlier) and the events so far."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True)] + [unit(c, "L3", i) for c, i in att],
          "hand": [{"card": c, "id": i} for c, i in hand0]}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True)] + [unit(c, "L5", i) for c, i in dfn],
          "hand": [{"card": c, "id": i} for c, i in hand1]}
    g = scenario(p0, p1, cards=CARDS, dice=list(dice))
    ev = do(g, 0, {"type": "march", "units": [i for _, i in att], "to": "L5"})
    order = {0: [i for _, i in att], 1: [i for _, i in dfn]}
    while g.view()["battle"] is not None and g.view()["battle"]["step"] in ("quick", "formation"):
        (w,) = g.waiting_for()
        if g.view()["battle"]["step"] == "quick":
            ev += do(g, w, {"type": "quick_summon", "cards": []})
        else:
            ev += do(g, w, {"type": "formation", "order": order[w]})
    return g, ev


def ability(unit_id, targets=(), **extra):
    return {"type": "ability", "unit": unit_id, "targets": list(targets), **extra}


def cast(card_id, targets=(), **extra):
    return {"type": "spell", "card": card_id, "targets": list(targets), **extra}


def life(g, uid):
    return unit_view(g, uid)["life"]


def chain(g):
    return g.view()["battle"]["chain"]


def outcomes(ev):
    """(type, player, kind, reason) of every resolved / fizzled event, in order."""
    return [(e["type"], e["player"], e["kind"], e.get("reason"))
            for e in ev if e["type"] in ("resolved", "fizzled")]


# ---------------------------------------------------------------- R11.1

def test_r11_1_normal_ability_and_spell_offered_in_own_window_with_empty_chain():
    """R11.1: a side declares [Normal] abilities and spells in its own window, nothing waiting."""
    g, _ = battle([("bolter", "u0"), ("fire-mage", "m0")], [("tank", "t1")], hand0=[("bolt", "s0")])
    assert g.waiting_for() == {0}
    assert chain(g) == []
    assert find(g, 0, "ability", unit="u0", targets=["t1"])
    assert find(g, 0, "spell", card="s0", targets=["t1"])
    assert find(g, 0, "attack")


def test_r11_1_no_normal_in_the_opponents_window():
    """R11.1: [Normal] only in one's own window: the second striker waits during the first's."""
    g, _ = battle([("bolter", "u0"), ("fire-mage", "m0")], [("bolter", "u1"), ("fire-mage", "m1")],
                  hand1=[("bolt", "s1")])
    assert g.waiting_for() == {0}
    assert g.legal_actions(1) == [{"type": "resign"}]
    assert_illegal(g, 1, ability("u1", ["u0"]))
    assert_illegal(g, 1, cast("s1", ["u0"]))


def test_r11_1_normal_cannot_answer_a_declaration():
    """R11.1: a [Normal] ability or spell is no response: while the opponent's declaration waits,
    only [Counter] ones (or pass) are offered."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0")],
                  [("bolter", "u1"), ("fire-mage", "m1"), ("zapper", "z1")], hand1=[("bolt", "s1")])
    do(g, 0, ability("u0", ["z1"]))
    assert g.waiting_for() == {1}
    assert {a["type"] for a in g.legal_actions(1)} == {"ability", "pass", "resign"}
    assert {a["unit"] for a in find(g, 1, "ability")} == {"z1"}
    assert_illegal(g, 1, ability("u1", ["t0"]))
    assert_illegal(g, 1, cast("s1", ["t0"]))


def test_r11_1_no_normal_while_a_response_waits_in_own_turn():
    """R11.1: even in its own turn a side may not start a [Normal] (nor attack) while the
    opponent's response waits on the chain."""
    g, _ = battle([("bolter", "u0"), ("pinger", "pg0"), ("guard", "g0")],
                  [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    do(g, 1, ability("g1", ["t1"]))
    assert g.waiting_for() == {0}
    assert len(chain(g)) == 2
    assert not find(g, 0, "ability", unit="pg0")
    assert not find(g, 0, "attack")
    assert_illegal(g, 0, ability("pg0"))
    assert_illegal(g, 0, {"type": "attack"})


# ---------------------------------------------------------------- R11.2

def test_r11_2_counter_ability_answers_the_opponents_declaration():
    """R11.2: the opponent's latest declaration can be answered by a [Counter] ability."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("guard", "g0")], [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    ev = do(g, 1, ability("g1", ["t1"]))
    (d,) = events_of(ev, "declared")
    assert (d["player"], d["kind"], d["responds_to"]) == (1, "ability", 0)
    assert [(c["player"], c["responds_to"]) for c in chain(g)] == [(0, None), (1, 0)]


def test_r11_2_counter_spell_answers_the_opponents_declaration():
    """R11.2: a [Counter] spell answers the opponent's latest declaration too."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0")], [("tank", "t1"), ("dark-mage", "k1")],
                  hand1=[("doom", "d1")])
    do(g, 0, ability("u0", ["t1"]))
    assert find(g, 1, "spell", card="d1", targets=["u0"])
    ev = do(g, 1, cast("d1", ["u0"]))
    assert events_of(ev, "declared")[0]["responds_to"] == 0


def test_r11_2_player_never_responds_to_own_declaration():
    """R11.2: after declaring, the declarer waits; it cannot answer its own declaration."""
    g, _ = battle([("bolter", "u0"), ("guard", "g0")], [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    assert g.waiting_for() == {1}
    assert g.legal_actions(0) == [{"type": "resign"}]
    assert_illegal(g, 0, ability("g0", ["u0"]))
    assert_illegal(g, 0, {"type": "pass"})


def test_r11_2_counter_not_offered_without_a_declaration_to_answer():
    """R11.2: [Counter] abilities and spells are responses: with an empty chain in the own window
    they are not offered."""
    g, _ = battle([("guard", "g0"), ("bolter", "u0"), ("dark-mage", "k0")], [("tank", "t1")],
                  hand0=[("doom", "d0")])
    assert g.waiting_for() == {0} and chain(g) == []
    assert not find(g, 0, "ability", unit="g0")
    assert not find(g, 0, "spell")
    assert_illegal(g, 0, ability("g0", ["u0"]))
    assert_illegal(g, 0, cast("d0", ["t1"]))


def test_r11_2_only_the_latest_declaration_can_be_answered():
    """R11.2: only the latest declaration can be answered. Player 0's spell is answerable (a
    spell-cancel is offered) until something newer sits on it; then the cancel is refused and
    the spell resolves uncancelled."""
    g, _ = battle([("fire-mage", "m0"), ("guard", "g0")],
                  [("tank", "t1"), ("guard", "g1"), ("guard", "g1b"), ("canceller", "c1")],
                  hand0=[("rally", "s0")])
    do(g, 0, cast("s0", ["m0"]))
    assert find(g, 1, "ability", unit="c1")  # the spell is the latest: a cancel may answer it
    do(g, 1, ability("g1", ["t1"]))
    do(g, 0, ability("g0", ["m0"]))          # now the latest is player 0's ability
    assert g.waiting_for() == {1}
    assert not find(g, 1, "ability", unit="c1")
    assert_illegal(g, 1, ability("c1"))
    ev = do(g, 1, "pass")
    assert events_of(ev, "cancelled") == []
    assert outcomes(ev) == [("resolved", 0, "ability", None), ("resolved", 1, "ability", None),
                            ("resolved", 0, "spell", None)]
    assert unit_view(g, "m0")["power"] == 1 + 3


# ---------------------------------------------------------------- R11.3

def test_r11_3_responses_go_back_and_forth_without_limit():
    """R11.3: while abilities remain the players answer back and forth: 1 declaration + 6
    responses, each answering the one before, then all resolve."""
    g, _ = battle([("bolter", "u0"), ("guard", "g0a"), ("guard", "g0b"), ("guard", "g0c"),
                   ("pinger", "pg0")],
                  [("tank", "t1"), ("guard", "g1a"), ("guard", "g1b"), ("guard", "g1c")])
    do(g, 0, ability("u0", ["t1"]))
    steps = [(1, "g1a", "t1"), (0, "g0a", "u0"), (1, "g1b", "t1"), (0, "g0b", "u0"),
             (1, "g1c", "t1"), (0, "g0c", "u0")]
    for k, (p, uid, tgt) in enumerate(steps):
        assert g.waiting_for() == {p}
        assert len(chain(g)) == 1 + k
        ev = do(g, p, ability(uid, [tgt]))
        assert events_of(ev, "declared")[0]["responds_to"] == k
    # player 1 has nothing left: its only choice, pass, is taken and the 7 declarations resolve
    assert events_of(ev, "passed") == [{"type": "passed", "player": 1}]
    assert len(events_of(ev, "resolved")) == 7
    assert life(g, "t1") == 10 + 3 - 2
    assert life(g, "u0") == 5 + 3


def test_r11_3_the_chain_resolves_when_the_entitled_side_has_nothing_left():
    """R11.3: the back and forth ends when the side to answer has nothing left: its only choice
    is pass, taken by itself (R10.7), and the chain resolves."""
    g, _ = battle([("bolter", "u0"), ("guard", "g0"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    do(g, 1, ability("g1", ["t1"]))
    ev = do(g, 0, ability("g0", ["u0"]))
    assert events_of(ev, "passed") == [{"type": "passed", "player": 1}]
    assert len(events_of(ev, "resolved")) == 3
    assert chain(g) == []
    assert g.waiting_for() == {0}


# ---------------------------------------------------------------- R11.4

def test_r11_4_declarations_resolve_last_first():
    """R11.4: the chain resolves newest first (on screen, from the right end)."""
    g, _ = battle([("bolter", "u0"), ("guard", "g0"), ("dark-mage", "k0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("guard", "g1"), ("dark-mage", "k1")],
                  hand0=[("hex", "h0")], hand1=[("hex", "h1")])
    do(g, 0, ability("u0", ["t1"]))       # 0: 2 damage to t1
    do(g, 1, ability("g1", ["t1"]))       # 1: t1 +1 life
    do(g, 0, ability("g0", ["u0"]))       # 2: u0 +1 life
    do(g, 1, cast("h1", ["pg0"]))         # 3: negate pg0
    ev = do(g, 0, "pass")
    assert outcomes(ev) == [("resolved", 1, "spell", None), ("resolved", 0, "ability", None),
                            ("resolved", 1, "ability", None), ("resolved", 0, "ability", None)]
    ev = ev[:[e["type"] for e in ev].index("declared")]  # then player 0 attacks by itself
    effects = [(e["type"], e["unit"]) for e in ev if e["type"] in ("negated", "boosted", "damage")]
    assert effects == [("negated", "pg0"), ("boosted", "u0"), ("boosted", "t1"), ("damage", "t1")]


def test_r11_4_one_pass_by_the_entitled_player_resolves_the_chain():
    """R11.4: nobody answers their own declaration, so the entitled player's single pass
    resolves the chain; the declarer is not asked to pass too."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    ev = do(g, 1, "pass")
    assert events_of(ev, "passed") == [{"type": "passed", "player": 1}]
    assert outcomes(ev) == [("resolved", 0, "ability", None)]
    assert life(g, "t1") == 10 - 2
    assert chain(g) == []


def test_r11_4_pass_resolves_the_attack_at_once():
    """R11.4 with R10.6: an attack let through resolves at once."""
    g, _ = battle([("tank", "t0"), ("bolter", "u0")], [("tank", "t1"), ("guard", "g1"), ("pinger", "pg1")])
    do(g, 0, {"type": "attack"})
    assert g.waiting_for() == {1} and chain(g)[0]["kind"] == "attack"
    ev = do(g, 1, "pass")
    (a,) = events_of(ev, "attack")
    assert (a["player"], a["power"]) == (0, 1 + 2)
    assert life(g, "t1") == 10 - 3


# ---------------------------------------------------------------- R11.4a

def test_r11_4a_later_counter_resolves_before_the_earlier_declaration():
    """R11.4a (Eringe's tip): stacked declarations work from the last one back: a life boost
    answering a 2-damage ability saves a 2-life target (2 + 1 - 2 = 1)."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("pinger", "pg0")], [("weak", "w1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["w1"]))
    ev = do(g, 1, ability("g1", ["w1"]))   # player 0 has no counter: it passes by itself
    assert [(e["type"], e["unit"]) for e in ev if e["type"] in ("boosted", "damage")] == \
        [("boosted", "w1"), ("damage", "w1")]
    assert life(g, "w1") == 2 + 1 - 2
    assert not events_of(ev, "destroyed")


def test_r11_4a_later_spell_resolves_before_the_earlier_spell():
    """R11.4a: spells too: a later counter spell (a kill) resolves before the earlier [Normal]
    spell, which then finds its target gone."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("dark-mage", "k1")], hand0=[("rally", "s0")], hand1=[("doom", "d1")])
    do(g, 0, cast("s0", ["t0"]))
    ev = do(g, 1, cast("d1", ["t0"]))
    assert outcomes(ev) == [("resolved", 1, "spell", None), ("fizzled", 0, "spell", "target_gone")]
    assert [(e["card"], e.get("reason")) for e in ev if e["type"] in ("resolved", "fizzled")] == \
        [("doom", None), ("rally", "target_gone")]


def test_r11_4a_waiting_for_the_trump_card_pays():
    """R11.4a: the last answer wins: player 1 shields its unit, then player 0's later kill
    resolves first; the shield and the first ability both come to nothing."""
    g, _ = battle([("bolter", "u0"), ("zapper", "z0"), ("pinger", "pg0")],
                  [("weak", "w1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["g1"]))
    do(g, 1, ability("g1", ["g1"]))
    ev = do(g, 0, ability("z0", ["g1"]))  # player 1 has nothing left: it passes by itself
    assert outcomes(ev) == [("resolved", 0, "ability", None),
                            ("fizzled", 1, "ability", "source_destroyed"),
                            ("fizzled", 0, "ability", "target_gone")]
    assert unit_view(g, "g1") is None


# ---------------------------------------------------------------- R11.5

def test_r11_5_after_a_normal_ability_the_side_is_back_before_attack():
    """R11.5: after a [Normal] ability resolves, the same side may use another or attack."""
    g, _ = battle([("bolter", "u0"), ("pinger", "pg0"), ("pinger", "pg0b"), ("tank", "t0")],
                  [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    do(g, 1, "pass")
    assert g.waiting_for() == {0}
    assert g.view()["battle"]["striker"] == 0
    assert find(g, 0, "ability", unit="pg0") and find(g, 0, "attack")
    do(g, 0, ability("pg0"))
    do(g, 1, "pass")
    assert life(g, "t1") == 10 - 2 - 1
    assert g.waiting_for() == {0}
    assert find(g, 0, "ability", unit="pg0b") and find(g, 0, "attack")


def test_r11_5_after_a_normal_spell_the_side_is_back_before_attack():
    """R11.5: after a [Normal] spell resolves, the same side may cast another or attack."""
    g, _ = battle([("fire-mage2", "m0"), ("fire-mage", "m0b"), ("tank", "t0")],
                  [("tank", "t1"), ("guard", "g1")],
                  hand0=[("bolt", "s0"), ("bolt", "s0b"), ("rally", "s0c")])
    do(g, 0, cast("s0", ["t1"]))
    do(g, 1, "pass")
    assert g.waiting_for() == {0}
    assert find(g, 0, "spell", card="s0b") and find(g, 0, "attack")
    do(g, 0, cast("s0b", ["t1"]))
    do(g, 1, "pass")
    assert life(g, "t1") == 10 - 2 - 2
    assert g.waiting_for() == {0} and find(g, 0, "attack")


def test_r11_5_second_striker_is_back_before_its_attack_too():
    """R11.5: in the second striker's window, after its [Normal] resolves it is still that side's
    turn (before attack), not the end of its part of the battle."""
    g, _ = battle([("tank", "t0"), ("dark-mage", "k0")],
                  [("bolter", "u1"), ("pinger", "pg1"), ("tank", "t1")], hand0=[("hex", "h0")])
    # player 0 could only attack (taken by itself) and player 1, without a counter, let it through
    assert g.view()["battle"]["striker"] == 1 and g.waiting_for() == {1}
    do(g, 1, ability("u1", ["t0"]))
    do(g, 0, "pass")
    assert g.waiting_for() == {1}
    assert g.view()["battle"]["striker"] == 1
    assert find(g, 1, "ability", unit="pg1") and find(g, 1, "attack")


def test_r11_5_after_an_answered_normal_the_declarer_keeps_the_window():
    """R11.5: also when the [Normal] was answered: once the chain is empty the declaring side is
    again before its attack (the opponent's window has not begun)."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("u0", ["t1"]))
    do(g, 1, ability("g1", ["t1"]))  # player 0 has no counter: it passes by itself
    assert chain(g) == []
    assert g.waiting_for() == {0}
    assert g.view()["battle"]["striker"] == 0
    assert find(g, 0, "attack")


# ---------------------------------------------------------------- R11.6

def test_r11_6_unrespondable_ability_resolves_at_once():
    """R11.6: a declaration that cannot be responded to resolves when declared: the opponent,
    though holding a counter, gets no window."""
    g, _ = battle([("wind-spirit", "w0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("zapper", "z1")])
    ev = do(g, 0, ability("w0"))
    assert [e["type"] for e in ev] == ["declared", "resolved", "damage"]
    assert chain(g) == []
    assert g.waiting_for() == {0}
    assert life(g, "z1") == 5 - 1  # the rear one
    assert find(g, 0, "attack")


def test_r11_6_unrespondable_counter_resolves_before_what_it_answers():
    """R11.6: an unrespondable [Counter] resolves at once, before the declaration it answered;
    the other side is never offered an answer to it."""
    g, _ = battle([("bolter", "u0"), ("guard", "g0"), ("pinger", "pg0")],
                  [("weak", "w1"), ("swift-guard", "s1")])
    do(g, 0, ability("u0", ["w1"]))
    ev = do(g, 1, ability("s1"))
    # player 0 holds a counter (g0) yet is never asked: s1 resolves at once, then player 1, still
    # the one to answer the bolter and with nothing left, passes and the bolter resolves
    assert [e["type"] for e in ev] == ["declared", "resolved", "boosted", "boosted",
                                       "passed", "resolved", "damage"]
    assert [e["card"] for e in events_of(ev, "resolved")] == ["swift-guard", "bolter"]
    assert events_of(ev, "passed") == [{"type": "passed", "player": 1}]
    assert life(g, "w1") == 2 + 3 - 2


# ---------------------------------------------------------------- R11.7

def test_r11_7a_fizzles_when_the_user_is_destroyed():
    """R11.7 (a): the ability of a monster destroyed before resolution has no effect."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("zapper", "z1")])
    do(g, 0, ability("u0", ["t1"]))
    ev = do(g, 1, ability("z1", ["u0"]))  # player 0 cannot answer: resolves by itself
    assert outcomes(ev) == [("resolved", 1, "ability", None), ("fizzled", 0, "ability", "source_destroyed")]
    assert life(g, "t1") == 10


def test_r11_7b_fizzles_when_the_user_is_negated_and_its_action_is_spent():
    """R11.7 (b): a negated user's ability has no effect; its action stays spent (R10.5), so it
    does not join the attack."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("dark-mage", "k1")],
                  hand1=[("hex", "h1")])
    do(g, 0, ability("u0", ["t1"]))
    ev = do(g, 1, cast("h1", ["u0"]))
    assert outcomes(ev) == [("resolved", 1, "spell", None), ("fizzled", 0, "ability", "negated")]
    assert life(g, "t1") == 10
    assert "u0" in g.view()["battle"]["acted"]
    ev = do(g, 0, {"type": "attack"})
    assert events_of(ev, "declared")[0]["units"] == ["t0", "pg0"]


def test_r11_7c_fizzles_when_the_chosen_target_is_destroyed():
    """R11.7 (c): an ability whose chosen target was destroyed before resolution has no effect,
    and the user's action is not refunded."""
    g, _ = battle([("cheerer", "c0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("zapper", "z1")])
    do(g, 0, ability("c0", ["t0"]))
    ev = do(g, 1, ability("z1", ["t0"]))
    assert outcomes(ev) == [("resolved", 1, "ability", None), ("fizzled", 0, "ability", "target_gone")]
    assert not events_of(ev, "boosted")
    assert "c0" in g.view()["battle"]["acted"]
    assert not find(g, 0, "ability", unit="c0")


def test_r11_7c_spell_on_a_destroyed_target_card_and_slot_not_refunded():
    """R11.7 (c): a spell whose target fell has no effect; its card stays in the discard pile and
    its slot stays used."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("rally", "s0")])
    do(g, 0, cast("s0", ["t0"]))
    ev = do(g, 1, ability("z1", ["t0"]))
    assert outcomes(ev) == [("resolved", 1, "ability", None), ("fizzled", 0, "spell", "target_gone")]
    me = g.view(0)["players"][0]
    assert "s0" in me["discard_ids"] and all(h["id"] != "s0" for h in me["hand"])
    assert g.view()["battle"]["slots"]["0"]["fire"] == {"total": 1, "used": 1}


def test_r11_7d_spell_fizzles_when_its_slots_are_gone():
    """R11.7 (d): the only fire-slot monster is destroyed in answer to its party's fire spell:
    the spell has no effect (current fire 0 + wild 0 < used 1); the card is not returned."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("zapper", "z1")],
                  hand0=[("bolt", "s0")])
    do(g, 0, cast("s0", ["t1"]))
    ev = do(g, 1, ability("z1", ["m0"]))
    assert outcomes(ev) == [("resolved", 1, "ability", None), ("fizzled", 0, "spell", "slots_gone")]
    assert life(g, "t1") == 10
    assert "s0" in g.view()["players"][0]["discard_ids"]


def test_r11_7d_spell_fizzles_when_its_slot_monster_is_negated():
    """R11.7 (d) with R12.5: negating the slot monster takes its slots away: the spell fizzles."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("dark-mage", "k1")],
                  hand0=[("bolt", "s0")], hand1=[("hex", "h1")])
    do(g, 0, cast("s0", ["t1"]))
    ev = do(g, 1, cast("h1", ["m0"]))
    assert outcomes(ev) == [("resolved", 1, "spell", None), ("fizzled", 0, "spell", "slots_gone")]
    assert life(g, "t1") == 10


# ---------------------------------------------------------------- R11.8

def chieftain_battle(dfn=(("tank", "t1"), ("zapper", "z1"))):
    return battle([("orc-great-chieftain", "c0"), ("tank", "t0"), ("wall", "w0"), ("pinger", "pg0")],
                  list(dfn))


def test_r11_8_sacrifice_is_paid_at_declaration():
    """R11.8: the Chieftain's sacrifice is destroyed when it declares, before any answer."""
    g, _ = chieftain_battle()
    ev = do(g, 0, ability("c0", ["t1"], sacrifice="w0"))
    assert [e["type"] for e in ev] == ["declared", "destroyed"]
    assert (ev[1]["unit"], ev[1]["reason"]) == ("w0", "sacrifice")
    assert unit_view(g, "w0") is None
    assert g.waiting_for() == {1} and len(chain(g)) == 1


def test_r11_8_chieftain_resolves_even_if_it_fell():
    """R11.8: destroyed in answer, the Chieftain's ability still deals its 4 damage."""
    g, _ = chieftain_battle()
    do(g, 0, ability("c0", ["t1"], sacrifice="w0"))
    ev = do(g, 1, ability("z1", ["c0"]))
    assert unit_view(g, "c0") is None
    assert outcomes(ev) == [("resolved", 1, "ability", None), ("resolved", 0, "ability", None)]
    assert life(g, "t1") == 10 - 4


def test_r11_8_sacrifice_not_refunded_when_the_ability_fizzles():
    """R11.8 with R11.7: the sacrifice stays destroyed when the Chieftain's target falls first."""
    g, _ = battle([("orc-great-chieftain", "c0"), ("wall", "w0"), ("zapper", "z0"), ("pinger", "pg0")],
                  [("tank", "t1"), ("guard", "g1")])
    do(g, 0, ability("c0", ["g1"], sacrifice="w0"))
    do(g, 1, ability("g1", ["t1"]))
    ev = do(g, 0, ability("z0", ["g1"]))  # player 1 has nothing left: resolves by itself
    assert [(e["card"], e.get("reason")) for e in ev if e["type"] in ("resolved", "fizzled")] == \
        [("zapper", None), ("guard", "source_destroyed"), ("orc-great-chieftain", "target_gone")]
    assert unit_view(g, "w0") is None
    assert "w0" in g.view()["players"][0]["discard_ids"]


def test_r11_8_sacrifice_must_be_a_non_leader_ally_other_than_the_chieftain():
    """R11.8: the cost names an ally (not a leader, not the Chieftain itself); others are refused."""
    p0 = {"units": [unit("orc", "H0", "a0", leader=True), unit("orc-great-chieftain", "L3", "c0"),
                    unit("orc", "L3", "o0", leader=True), unit("wall", "L3", "w0")]}
    p1 = {"units": [unit("orc", "H1", "b0", leader=True), unit("tank", "L5", "t1"),
                    unit("zapper", "L5", "z1")]}
    g = scenario(p0, p1, cards=CARDS, dice=[6, 1])
    do(g, 0, {"type": "march", "units": ["c0", "o0", "w0"], "to": "L5"})
    do(g, 0, {"type": "formation", "order": ["c0", "w0", "o0"]})
    do(g, 1, {"type": "formation", "order": ["t1", "z1"]})
    assert {a["sacrifice"] for a in find(g, 0, "ability", unit="c0")} == {"w0"}
    assert_illegal(g, 0, ability("c0", ["t1"], sacrifice="o0"))
    assert_illegal(g, 0, ability("c0", ["t1"], sacrifice="c0"))
    assert_illegal(g, 0, ability("c0", ["t1"], sacrifice="z1"))
    assert_illegal(g, 0, ability("c0", ["t1"]))


# ---------------------------------------------------------------- R11.9

def test_r11_9_target_fixed_at_declaration_and_shown():
    """R11.9: the chosen target is fixed at declaration and shown in the event and the view."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1")])
    ev = do(g, 0, ability("u0", ["g1"]))
    assert events_of(ev, "declared")[0]["targets"] == ["g1"]
    assert g.view(1)["battle"]["chain"][0]["targets"] == ["g1"]
    do(g, 1, ability("g1", ["t1"]))
    assert life(g, "g1") == 5 - 2
    assert life(g, "t1") == 10 + 1


def test_r11_9_target_stays_fixed_when_it_stops_matching_the_filter():
    """R11.9: the target chosen at declaration stays the target: raised out of "level 2 or less"
    by an answer, it is still destroyed (no fizzle: R11.7 lists every fizzle)."""
    g, _ = battle([("light-mage", "l0"), ("tank", "t0"), ("pinger", "pg0")],
                  [("mid", "x1"), ("dark-mage", "k1")], hand0=[("giant-slayer", "gs")],
                  hand1=[("grow", "gr")])
    do(g, 0, cast("gs", ["x1"]))
    ev = do(g, 1, cast("gr", ["x1"]))
    assert [e["level"] for e in events_of(ev, "level_changed")] == [2 + 1]
    assert outcomes(ev) == [("resolved", 1, "spell", None), ("resolved", 0, "spell", None)]
    assert unit_view(g, "x1") is None


def test_r11_9_target_must_be_a_legal_choice():
    """R11.9: a target outside the ability's choices is refused."""
    g, _ = battle([("bolter", "u0"), ("tank", "t0")], [("tank", "t1")])
    assert_illegal(g, 0, ability("u0", ["t0"]))   # an ally, not an enemy
    assert_illegal(g, 0, ability("u0", ["b0"]))   # not in the battle
    assert_illegal(g, 0, ability("u0", []))       # a target is required


def test_r11_9_choose_one_is_fixed_at_declaration_and_shown():
    """R11.9 [decided]: the "choose one" choice is fixed at declaration and shown to both."""
    g, _ = battle([("sage-centaur", "s0"), ("tank", "t0"), ("pinger", "pg0")], [("tank", "t1"), ("guard", "g1")])
    assert {a["choice"] for a in find(g, 0, "ability", unit="s0")} == {0, 1}
    ev = do(g, 0, ability("s0", choice=1))
    assert events_of(ev, "declared")[0]["choice"] == 1
    assert g.view(1)["battle"]["chain"][0]["choice"] == 1
    assert g.view(None)["battle"]["chain"][0]["choice"] == 1
    do(g, 1, "pass")
    assert life(g, "t0") == 10 + 2                  # option 1: life +2
    assert unit_view(g, "t0")["power"] == 1          # not option 0 (power +1)


def test_r11_9_choice_out_of_range_is_refused():
    """R11.9: a choose-one ability needs one of its options."""
    g, _ = battle([("sage-centaur", "s0"), ("tank", "t0")], [("tank", "t1")])
    assert_illegal(g, 0, ability("s0", choice=2))
    assert_illegal(g, 0, ability("s0", choice=-1))
    assert_illegal(g, 0, ability("s0"))


@pytest.mark.parametrize("die, face, hit, amount", [(3, "heads", "t1", 3), (4, "tails", "t0", 1)])
def test_r11_9_coin_flipped_at_declaration_and_shown(die, face, hit, amount):
    """R11.9 [decided]: the coin is flipped at declaration; both players see it before any answer,
    and the resolution follows it (heads: 3 to the enemy front; tails: 1 to the own front)."""
    g, _ = battle([("tank", "t0"), ("goblin-gambler", "gg"), ("pinger", "pg0")],
                  [("tank", "t1"), ("guard", "g1")], dice=(6, 1, die))
    ev = do(g, 0, ability("gg"))
    assert events_of(ev, "declared")[0]["coin"] == face
    assert g.view(1)["battle"]["chain"][0]["coin"] == face
    assert g.view(0)["battle"]["chain"][0]["coin"] == face
    do(g, 1, "pass")
    assert life(g, hit) == 10 - amount


def test_r11_9_spell_payment_fixed_at_declaration():
    """R11.9: costs are fixed at declaration: the spell's slots are taken when it is declared."""
    g, _ = battle([("fire-mage", "m0"), ("tank", "t0")], [("tank", "t1"), ("guard", "g1")],
                  hand0=[("bolt", "s0")])
    ev = do(g, 0, cast("s0", ["t1"]))
    assert events_of(ev, "declared")[0]["paid"] == {"element": 1, "wild": 0}
    assert g.view(1)["battle"]["slots"]["0"]["fire"] == {"total": 1, "used": 1}
    assert g.view(1)["battle"]["chain"][0]["targets"] == ["t1"]
