"""R5.5 (rules revision 3): a destroyed leader stays destroyed. When its card comes back into play
through a [March] summon from the discard pile (R13.5), that unit is an ordinary monster: it keeps
no side in the game (R1.1), may be chosen for over-capacity destruction (R8.8), and its second death
refills nobody (R15). Each test runs with every pool card that summons from the discard pile.

The position (helpers.LANDS: L3 road 6, L4 swamp 4, L5 road 6, L6 rearworld 8), player 0 to move:
player 1's leaders are b0 on L5 and bl (a level-1 monster with 1 life) alone on L3; the reviver r
stands on L4 beside x (summons "here") or on L6 (summons to an adjacent land), and x fills L4 so
that bl coming back makes it exactly full (4). Player 0's k (power 1, life 30) on L1 kills bl:
a battle on L3 that k wins, so k stands on L3 next to L4 and L5. Player 1 keeps q, a level-1 Quick
monster, in hand for the over-capacity case.
"""

import json

import pytest

from tests.engine.helpers import card, do, events_of, unit, unit_view
from webapp.engine import Game, load_pool

# reviver card id -> (where it stands, the fields that let the fallen leader's card match its filter)
REVIVERS = {
    "necromancer": ("L6", {}),                                         # Grave Caller: level 2 or less, adjacent
    "bone-piper": ("L4", {"tribe": "Undead", "element": "dark"}),      # Undead level 1, here
    "phoenix": ("L6", {"element": "fire"}),                            # fire level 2 or less, adjacent
    "herald-angel": ("L4", {"tribe": "Angel", "element": "light"}),    # Angel level 2 or less, here
    "coral-priestess": ("L4", {"element": "water"}),                   # water level 2 or less, here
}
POOL = load_pool()
DECK = ["orc"] * 12
DICE = [6, 1] * 6  # every battle: the attacker strikes first


def position(reviver):
    """The scenario (player 0 to move) for `reviver`; a new dict each call (a game, or a replay's setup)."""
    where, fields = REVIVERS[reviver]
    r_level = POOL[reviver].level
    x_level = 3 - (r_level if where == "L4" else 0)  # L4 (swamp, 4): r? + x + bl = 4
    cards = {
        "martyr": card(level=1, power=0, life=1, **dict({"element": "fire", "tribe": "Soldier"}, **fields)),
        "guard": card(level=1, power=0, life=1),
        "pricker": card(level=1, power=1, life=30),
        "lifter": card(level=x_level, power=0, life=9),
        "quickie": card(level=1, power=0, life=9, quick=True),
    }
    p0 = {"units": [unit("orc", "H0", "a0", leader=True), unit("pricker", "L1", "k")],
          "hand": ["orc", "orc", "orc"], "deck": DECK}
    p1 = {"units": [unit("guard", "L5", "b0", leader=True), unit("martyr", "L3", "bl", leader=True),
                    unit(reviver, where, "r"), unit("lifter", "L4", "x")],
          "hand": [{"card": "quickie", "id": "q"}, "orc"], "deck": DECK}
    data = {"seed": 1, "round": 3, "active": 0, "first": 0,
            "lands": {"L1": "road", "L2": "rearworld", "L3": "road", "L4": "swamp", "L5": "road", "L6": "rearworld"},
            "players": [p0, p1], "dice": list(DICE), "cards": cards}
    return data


def settle(g, orders=None):
    """Answer every battle decision plainly until the battle is over: no quick summons, the given
    formation order (`orders` {player: order}) or the standing one, and attack / pass after that."""
    orders = orders or {}
    ev = []
    while g.state.battle is not None and g.result is None:
        (p,) = g.waiting_for()
        step = g.view(p)["battle"]["step"]
        legal = g.legal_actions(p)
        if step == "quick":
            ev += do(g, p, {"type": "quick_summon", "cards": []})
        elif step == "formation":
            order = orders.get(p) or next(a["order"] for a in legal if a["type"] == "formation" and "choose" not in a)
            ev += do(g, p, {"type": "formation", "order": order})
        else:
            kinds = {a["type"] for a in legal}
            ev += do(g, p, "attack" if "attack" in kinds else "pass")
    return ev


def revived(reviver, g=None):
    """Play the position to bl's return: k kills bl on L3 (bl is a leader: player 0 refills), player 0
    ends the turn, and player 1's reviver summons bl from the discard pile to L4. Returns (game,
    {stage: events}). `g`: the game of ``position(reviver)`` to play on (default: a new one)."""
    g = g if g is not None else Game.from_scenario(position(reviver))
    log = {}
    log["first_death"] = do(g, 0, {"type": "march", "units": ["k"], "to": "L3"}) + settle(g)
    log["end_turn"] = do(g, 0, "end_turn")
    action = {"type": "march_ability", "unit": "r", "targets": ["bl", "L4"]}
    assert action in g.legal_actions(1)
    log["revival"] = do(g, 1, action)
    return g, log


def leader_flags(g, player):
    return sorted(u["id"] for u in g.view(None)["units"] if u["owner"] == player and u["leader"])


@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_the_first_death_was_a_leaders(reviver):
    """R5.5/R15.1 (contrast for the tests below): bl falls as a leader, and player 0 refills to 6."""
    g, log = revived(reviver)
    ev = log["first_death"]
    assert [(e["unit"], e["leader"]) for e in events_of(ev, "destroyed")] == [("bl", True)]
    assert [e["player"] for e in events_of(ev, "refill")] == [0]
    assert {"type": "drew", "player": 0, "count": 6 - 3} in ev
    assert events_of(log["revival"], "summoned")[0]["unit"] == "bl"
    assert unit_view(g, "bl")["land"] == "L4"


@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_r1_1_the_last_original_leader_falling_ends_the_game(reviver):
    """R5.5/R1.1: bl is back on the board, but it is no leader: when b0, player 1's last original
    leader, falls, player 0 wins at once."""
    g, _ = revived(reviver)
    do(g, 1, "end_turn")
    ev = do(g, 0, {"type": "march", "units": ["k"], "to": "L5"}) + settle(g)
    assert [(e["unit"], e["leader"]) for e in events_of(ev, "destroyed")] == [("b0", True)]
    assert unit_view(g, "bl")["land"] == "L4"                # still in play, and it changes nothing
    assert events_of(ev, "game_over") == [{"type": "game_over", "winner": 0, "reason": "leaders"}]
    assert g.result == {"winner": 0, "reason": "leaders"}
    assert g.waiting_for() == set()


@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_r8_8_the_revived_unit_may_be_chosen_for_over_capacity(reviver):
    """R5.5/R8.8: x attacks k on L3 with q quick summoned, fails, and both come back to L4, now one
    over its capacity: bl is an ordinary monster, so player 1 may destroy it to make L4 fit."""
    g, _ = revived(reviver)
    do(g, 1, {"type": "march", "units": ["x"], "to": "L3"})
    do(g, 1, {"type": "quick_summon", "cards": ["q"]})
    ev = do(g, 1, {"type": "formation", "order": ["q", "x"]}) + settle(g)
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert g.view(1)["phase"] == "over_capacity" and g.view(1)["lands"]["L4"]["used"][1] == 5
    (entry,) = [a for a in g.legal_actions(1) if a["type"] == "destroy_over_capacity"]
    assert "bl" in entry["from"] and entry["excess"] == 1
    assert g.is_legal(1, {"type": "destroy_over_capacity", "units": ["bl"]})
    ev = do(g, 1, {"type": "destroy_over_capacity", "units": ["bl"]})
    assert [(e["unit"], e["reason"], e["leader"]) for e in events_of(ev, "destroyed")] == \
        [("bl", "over_capacity", False)]
    assert g.view(1)["lands"]["L4"]["used"][1] == 4 and g.view(1)["phase"] == "main"
    assert g.result is None


def second_death(g):
    """From bl's return: player 1 ends the turn; player 0 discards 3 of its 6 cards, and k attacks L4,
    where player 1 puts bl at the front and k's 1 damage destroys it. Returns the battle's events."""
    do(g, 1, "end_turn")
    hand = [c["id"] for c in g.view(0)["players"][0]["hand"]]
    assert len(hand) == 6
    do(g, 0, {"type": "discard", "cards": hand[:3]})
    march = do(g, 0, {"type": "march", "units": ["k"], "to": "L4"})
    party = events_of(march, "battle_started")[0]["parties"]["1"]
    return march + settle(g, {1: ["bl"] + [u for u in party if u != "bl"]})


@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_r15_the_second_death_refills_nobody(reviver):
    """R5.5/R15.1: on player 0's next turn k kills bl again (player 1 puts it at the front); it is
    no leader now: no refill, and player 0's hand stays at the 3 cards it kept."""
    g, _ = revived(reviver)
    ev = second_death(g)
    assert [(e["unit"], e["leader"]) for e in events_of(ev, "destroyed")] == [("bl", False)]
    assert events_of(ev, "battle_ended")[0]["success"] is False
    assert not events_of(ev, "refill") and not events_of(ev, "drew")
    assert g.view(0)["players"][0]["hand_count"] == 3
    assert g.result is None


@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_the_view_shows_an_ordinary_monster(reviver):
    """R5.5: in every seat's view the unit that came back carries no leader mark; player 1's leaders
    in play are b0 alone (the board's "Leaders 1/2"), while the leader lists of the choice stay."""
    g, log = revived(reviver)
    summoned = events_of(log["revival"], "summoned")[0]
    assert (summoned["unit"], summoned["land"]) == ("bl", "L4")
    for viewer in (0, 1, None):
        entry = [u for u in g.view(viewer)["units"] if u["id"] == "bl"][0]
        assert entry["leader"] is False and entry["land"] == "L4" and entry["owner"] == 1
        assert g.view(viewer)["leaders"][1] == sorted(["b0", "bl"])
    assert leader_flags(g, 1) == ["b0"]
    again = Game.from_json(g.to_json())  # the saved game says the same
    assert unit_view(again, "bl")["leader"] is False and leader_flags(again, 1) == ["b0"]


@pytest.mark.parametrize("reviver", sorted(REVIVERS))
def test_r5_5_a_game_saved_with_a_destroyed_leader_listed_revives_no_leader(reviver):
    """R5.5: a game saved before revision 3 still lists its destroyed leaders; loaded now, they are
    not leaders, so the card that comes back is an ordinary monster there too."""
    g = Game.from_scenario(position(reviver))
    do(g, 0, {"type": "march", "units": ["k"], "to": "L3"})
    settle(g)
    do(g, 0, "end_turn")
    data = json.loads(g.to_json())
    assert "bl" not in data["leaders"]
    data["leaders"] = sorted(data["leaders"] + ["bl"])  # as the engine of revision 2 saved it
    old = Game.from_json(json.dumps(data))
    assert json.loads(old.to_json())["leaders"] == json.loads(g.to_json())["leaders"]
    do(old, 1, {"type": "march_ability", "unit": "r", "targets": ["bl", "L4"]})
    assert unit_view(old, "bl")["leader"] is False and leader_flags(old, 1) == ["b0"]
