"""Small builders for rule tests: scenarios with sensible defaults, and action look-ups."""

import copy

from webapp.engine import Game, IllegalAction

# A fixed layout so capacities are known: L1 road 6, L2 rearworld 8, L3 road 6, L4 swamp 4,
# L5 road 6, L6 rearworld 8; bases 5.
LANDS = {"L1": "road", "L2": "rearworld", "L3": "road", "L4": "swamp", "L5": "road", "L6": "rearworld"}

VANILLA = {"kind": "monster", "level": 1, "element": "fire", "tribe": "Soldier", "power": 2,
           "speed": 0, "life": 3, "slots": {}, "quick": False, "keywords": [], "abilities": [],
           "rarity": "C", "name": {"en": "Test", "ja": "テスト"}}


def card(**fields):
    """A scenario card: VANILLA with fields replaced."""
    c = copy.deepcopy(VANILLA)
    c.update(fields)
    return c


def unit(card_id, land, id=None, leader=False, exhausted=False, **extra):
    u = {"card": card_id, "land": land, "leader": leader, "exhausted": exhausted}
    if id is not None:
        u["id"] = id
    u.update(extra)
    return u


def scenario(p0=None, p1=None, cards=None, dice=None, **top):
    """Build a Game from two player dicts ({hand, deck, discard, units}); p1 defaults to a lone leader."""
    data = {"seed": top.pop("seed", 1), "round": top.pop("round", 3), "active": top.pop("active", 0),
            "first": top.pop("first", 0), "lands": top.pop("lands", dict(LANDS)),
            "players": [p0 or {"units": [unit("orc", "H0", "a0", leader=True)]},
                        p1 or {"units": [unit("orc", "H1", "b0", leader=True)]}]}
    if cards:
        data["cards"] = cards
    if dice is not None:
        data["dice"] = dice
    data.update(top)
    return Game.from_scenario(data)


def find(g, player, type, **match):
    """The legal actions of `player` of this type whose fields equal `match`, compact entries
    (marches, quick summons, formations) expanded by the old enumeration (tests/engine/oracle.py)."""
    from .oracle import old_legal_actions
    out = []
    for a in old_legal_actions(g, player):
        if a["type"] != type:
            continue
        if all(a.get(k) == v for k, v in match.items()):
            out.append(a)
    return out


def do(g, player, action):
    """Apply and return the events; `action` may be a type string for field-less actions."""
    if isinstance(action, str):
        action = {"type": action}
    return g.apply(player, action)


def unit_view(g, uid, player=0):
    for u in g.view(player)["units"]:
        if u["id"] == uid:
            return u
    return None


def events_of(events, type):
    return [e for e in events if e["type"] == type]


def assert_illegal(g, player, action, match=None):
    """The action raises IllegalAction (message matching `match`) and the state is unchanged."""
    import pytest
    before = g.to_json()
    with pytest.raises(IllegalAction, match=match):
        g.apply(player, action)
    assert g.to_json() == before
