"""Invariants that hold after every action of every game (checked by the property tests)."""

import json

from webapp.engine import Game
from webapp.engine.board import LANDS
from webapp.engine.effects import HAND_LIMIT


def strings_in(obj, out=None):
    """Every string (keys and values) inside a JSON-like value."""
    out = set() if out is None else out
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            strings_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            strings_in(v, out)
    return out


def check_capacity(g):
    s = g.state
    for land in range(len(LANDS)):
        for p in (0, 1):
            if s.phase == "over_capacity" and land in s.pending and p == s.active:
                continue  # R8.8: the owner is choosing what to destroy
            assert s.level_on(land, p) <= s.static.capacity[land], (LANDS[land], p)


def check_hands(g):
    for p in (0, 1):
        assert len(g.state.hand[p]) <= HAND_LIMIT


def check_accounting(g):
    """Each player's cards are all in exactly one place: deck, hand, board or discard pile."""
    s = g.state
    owner = s.static.owner
    for p in (0, 1):
        places = s.deck[p] + s.hand[p] + s.discard[p] + [u for u in s.land if owner[u] == p]
        assert sorted(places) == [i for i in range(len(owner)) if owner[i] == p]


def hidden_ids(g, viewer):
    """Instance ids the viewer must never see: every deck card, and the other player's hand but for
    the cards both saw go back to it (`State.shown`: public while they stay there)."""
    s = g.state
    names = s.static.names
    hidden = {names[c] for p in (0, 1) for c in s.deck[p]}
    for p in (0, 1):
        if p != viewer:
            hidden |= {names[c] for c in s.hand[p] if c not in s.shown}
    if s.phase == "leaders":
        for p in (0, 1):
            if p != viewer and s.leader_choice[p] is not None:
                hidden |= {names[c] for c in s.leader_choice[p]}
    return hidden


def check_views(g):
    s = g.state
    for viewer in (0, 1, None):
        v = g.view(viewer)
        json.dumps(v)  # JSON-safe
        leak = strings_in(v) & hidden_ids(g, viewer)
        assert not leak, f"view({viewer}) shows hidden instances {sorted(leak)}"
        for p in (0, 1):
            assert ("hand" in v["players"][p]) == (p == viewer)
        assert "rng" not in v and "seed" not in v
    assert s.result is None or s.round <= 12


def check_events(g, events):
    """Events are public: no deck card, no hand card unless it was seen going back to hand."""
    json.dumps(events)
    s = g.state
    names = s.static.names
    returned = {e["unit"] for e in events if e["type"] == "returned"}
    hidden = {names[c] for p in (0, 1) for c in s.deck[p] + s.hand[p]} - returned
    leak = strings_in(events) & hidden
    assert not leak, f"events show hidden instances {sorted(leak)}"


def check_round_trip(g):
    text = g.to_json()
    g2 = Game.from_json(text)
    assert g2.to_json() == text
    for p in (0, 1, None):
        assert g2.view(p) == g.view(p)
    for p in (0, 1):
        assert g2.legal_actions(p) == g.legal_actions(p)
    assert g2.waiting_for() == g.waiting_for()


def check_all(g, events):
    check_capacity(g)
    check_hands(g)
    check_accounting(g)
    check_views(g)
    check_events(g, events)
    check_round_trip(g)
