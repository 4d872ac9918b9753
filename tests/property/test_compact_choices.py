"""Compact legal actions (webapp/engine/choices.py, docs/engine.md "Compact entries"): the bound on a
legal-action list, the bound on its JSON, and brute force against the rules.

- Every set of units for a march (R8), of cards for a quick summon (R9.2), of units for an
  over-capacity choice (R8.8), and every order of a party for a formation (R9.4) is tried on small
  positions: `is_legal` accepts exactly the sets the compact entries stand for, and those are the
  sets the old enumeration listed (tests/engine/oracle.py), interchangeable units collapsed.
- The number of entries never passes `entry_bound` (the per-phase bound of docs/engine.md) and the
  JSON of a list never passes MAX_LEGAL_BYTES, in random games and on a crowded position whose old
  list held 18,322 marches.
"""

import itertools
import json
import random

import pytest
from hypothesis import strategies as st

from tests.engine.helpers import card, scenario, unit
from tests.lanes import check, lanes
from tests.engine.oracle import old_legal_actions
from webapp.engine import Game, choices, load_pool
from webapp.engine.board import LANDS
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()
SEEDS = st.integers(min_value=0, max_value=2 ** 32)
MAX_LEGAL_BYTES = 12_000  # the stated maximum of one seat's legal-action list as compact JSON (docs/engine.md)
MAX_BRUTE = 7  # brute force the sets of at most this many candidates (2^7 sets per entry)


def payload(legal):
    return len(json.dumps(legal, separators=(",", ":")))


def entry_bound(g, p):
    """The bound of docs/engine.md on the entries of `legal_actions(p)`, from the state."""
    s = g.state
    cards = s.static.cards
    if p not in g.waiting_for():
        return 1  # resign
    hand, discard = s.hand[p], s.discard[p]
    if s.phase == "leaders":
        return 41 + 1  # C(6,1) + C(6,2) + C(6,3) sets of a 6-card opening hand at most, and resign
    if s.phase == "over_capacity":
        return 1 + 1
    if s.phase == "main":
        marchers = 0
        for u in s.land:
            ab = cards[u].march
            if s.static.owner[u] != p or ab is None:
                continue
            summons = [e for e in ab.effects if e.op == "summon"]
            zone = hand if summons and summons[0].source == "hand" else discard
            marchers += 5 * len(zone) if summons else 1  # 5 lands adjacent at most
        return 2 * len(hand) + len(LANDS) + marchers + 2  # summons, discards, marches, [March], end_turn, resign
    b = s.battle
    if b.step in ("quick", "formation"):
        return 2 + 1
    party = len(b.party[0]) + len(b.party[1])
    declared = sum(1 for u in b.party[p] if cards[u].declared is not None)
    spells = sum(1 for c in hand if cards[c].kind == "spell")
    # each ability: a target (or none) x a sacrifice (or none) x a choose-one (2 at most); each spell:
    # a target x a choose-one; then attack or pass, and resign
    return declared * 2 * party * party + spells * 2 * party + 2 + 1


def check_list(g, p):
    legal = g.legal_actions(p)
    assert len(legal) <= entry_bound(g, p), (g.state.phase, len(legal), entry_bound(g, p))
    assert payload(legal) <= MAX_LEGAL_BYTES, payload(legal)
    return legal


# ---------------------------------------------------------------- brute force against the rules


def march_class(s, u):
    """Interchangeable units (the old enumeration's collapse): same card, land, leadership, marches."""
    return s.static.cards[u].id, s.land[u], u in s.leaders, s.marches.get(u, 0)


def subsets(items, limit=MAX_BRUTE):
    items = list(items)[:limit]
    for n in range(1, len(items) + 1):
        yield from itertools.combinations(items, n)


def brute_force_marches(g, p):
    """Every set of p's movable units toward every land: is_legal == some compact entry fits it, in
    either order; and the sets, collapsed, are the old enumeration's."""
    s = g.state
    names, idx = s.static.names, s.static.index
    entries = {a["to"]: a for a in g.legal_actions(p) if a["type"] == "march"}
    movers = sorted(names[u] for u in s.land if s.static.owner[u] == p and u not in s.exhausted)
    if len(movers) > MAX_BRUTE:
        return 0
    tried = 0
    for to in LANDS:
        entry = entries.get(to)
        fitting = set()
        for combo in subsets(movers):
            units = list(combo)
            legal = g.is_legal(p, {"type": "march", "units": units, "to": to})
            assert legal == (entry is not None and choices.fits(entry, units)), (to, units, entry)
            assert g.is_legal(p, {"type": "march", "units": units[::-1], "to": to}) == legal
            if legal:
                fitting.add(tuple(sorted(march_class(s, idx[u]) for u in units)))
            tried += 1
        old = {tuple(sorted(march_class(s, idx[u]) for u in a["units"]))
               for a in old_legal_actions(g, p) if a["type"] == "march" and a["to"] == to}
        assert fitting == old, to
        if entry is not None:  # what may join: exactly the units that keep the set legal
            for combo in itertools.islice(subsets(entry["from"], 4), 12):
                join = set(g.joiners(p, {"type": "march", "units": list(combo), "to": to}))
                for u in entry["from"]:
                    if u not in combo:
                        assert (u in join) == g.is_legal(p, {"type": "march", "units": [*combo, u], "to": to})
    return tried


def brute_force_battle(g, p):
    """Quick summons: every set of the hand; formations: every order (or a sample) of the party."""
    s = g.state
    b = s.battle
    names = s.static.names
    legal = g.legal_actions(p)
    if b.step == "quick":
        entry = next((a for a in legal if choices.is_compact(a)), None)
        hand = [names[c] for c in s.hand[p]]
        ok = {()}
        for combo in subsets(hand):
            answer = g.is_legal(p, {"type": "quick_summon", "cards": list(combo)})
            assert answer == (entry is not None and choices.fits(entry, list(combo))), combo
            if answer:
                ok.add(tuple(sorted(combo)))
        assert g.is_legal(p, {"type": "quick_summon", "cards": []})
        assert ok == {tuple(sorted(a["cards"])) for a in old_legal_actions(g, p) if a["type"] == "quick_summon"}
        return len(ok)
    if b.step == "formation":
        entry = next(a for a in legal if choices.is_compact(a))
        party = [names[u] for u in b.party[p]]
        assert entry["from"] == party and {"type": "formation", "order": party} in legal
        orders = list(itertools.permutations(party)) if len(party) <= 5 else \
            [random.Random(len(party)).sample(party, len(party)) for _ in range(50)]
        for order in orders:
            assert g.is_legal(p, {"type": "formation", "order": list(order)})
        assert not g.is_legal(p, {"type": "formation", "order": party[:-1]})
        for a in old_legal_actions(g, p):
            if a["type"] == "formation":
                assert choices.fits(entry, a["order"]) and g.is_legal(p, a)
        return len(orders)
    return 0


def brute_force_over_capacity(g, p):
    s = g.state
    entry = g.legal_actions(p)[0]
    names = s.static.names
    mine = [names[u] for u in s.units_on(s.pending[0], p)]
    old = {tuple(sorted(a["units"])) for a in old_legal_actions(g, p) if a["type"] == "destroy_over_capacity"}
    seen = set()
    for combo in subsets(mine):
        answer = g.is_legal(p, {"type": "destroy_over_capacity", "units": list(combo)})
        if choices.is_compact(entry):
            assert answer == choices.fits(entry, list(combo)), combo
        if answer:
            seen.add(tuple(sorted(combo)))
    if len(mine) <= MAX_BRUTE:
        assert seen == old
    return len(seen)


@lanes(fast=4, full=30)
def test_compact_entries_stand_for_exactly_the_legal_sets(examples):
    """Through a random game, on every decision: the list is within its bounds; on small positions
    every set (order) is tried against is_legal and the old enumeration."""
    check(compact_entries_stand_for_exactly_the_legal_sets, examples, seed=SEEDS)


def compact_entries_stand_for_exactly_the_legal_sets(seed):
    game, rng = random_game(seed, POOL)
    tried = 0
    while game.result is None:
        for p in (0, 1):
            check_list(game, p)
        p = min(game.waiting_for())
        phase = game.state.phase
        if phase == "main":
            tried += brute_force_marches(game, p)
        elif phase == "battle":
            tried += brute_force_battle(game, p)
        elif phase == "over_capacity":
            tried += brute_force_over_capacity(game, p)
        game.apply(*random_action(game, rng))
    assert tried > 0


def crowded():
    """14 units of player 0 on three lands (5 on L1, 6 on L2 with the leader, 3 on L4), all different
    cards of level 1, and an enemy on L3: the old list held 18,322 marches (1.4 MB of JSON)."""
    cards = {f"t{i}": card(name={"en": f"Trooper {i}", "ja": "兵"}, power=1 + i % 3) for i in range(14)}
    units = [unit("t0", "L2", "u0", leader=True)]
    units += [unit(f"t{i + 1}", land, f"u{i + 1}") for i, land in enumerate(["L1"] * 5 + ["L2"] * 5 + ["L4"] * 3)]
    return scenario({"units": units, "hand": ["orc", "goblin-hexer"]},
                    {"units": [unit("orc", "H1", "b0", leader=True), unit("orc", "L3", "b1")]}, cards=cards)


def test_the_crowded_position_lists_a_handful_of_entries():
    g = crowded()
    old = old_legal_actions(g, 0)
    assert sum(1 for a in old if a["type"] == "march") == 18_322  # the explosion the compact form avoids
    legal = check_list(g, 0)
    marches = [a for a in legal if a["type"] == "march"]
    assert len(marches) == 7 and len(legal) == 13, legal  # one entry per destination
    l3 = next(a for a in marches if a["to"] == "L3")
    assert l3["battle"] and l3["room"] == 6 and len(l3["from"]) == 14
    # converge into the battle from three lands, the first unit's land the main origin (R8.8)
    pick = ["u1", "u6", "u11"]
    assert g.joiners(0, {"type": "march", "units": pick, "to": "L3"}) == [u for u in l3["from"] if u not in pick]
    six = ["u1", "u2", "u6", "u7", "u11", "u12"]
    assert g.joiners(0, {"type": "march", "units": six, "to": "L3"}) == []
    assert g.is_legal(0, {"type": "march", "units": six, "to": "L3"})
    assert not g.is_legal(0, {"type": "march", "units": [*six, "u13"], "to": "L3"})  # 7 > room 6 (R8.4)
    assert not g.is_legal(0, {"type": "march", "units": ["u1", "u2", "u11"], "to": "L2"})  # L2 holds 2 more
    assert g.joiners(0, {"type": "march", "units": ["u11", "u1"], "to": "L2"}) == []
    # a random sample of sets toward every land against the entries, and every old listing accepted
    rng = random.Random(7)
    for _ in range(3000):
        to = rng.choice(LANDS)
        units = rng.sample([f"u{i}" for i in range(14)], rng.randint(1, 8))
        entry = next((a for a in marches if a["to"] == to), None)
        assert g.is_legal(0, {"type": "march", "units": units, "to": to}) == \
            (entry is not None and choices.fits(entry, units))
    for a in rng.sample([a for a in old if a["type"] == "march"], 500):
        assert g.is_legal(0, a)
    march = {"type": "march", "units": ["u12", "u1", "u6"], "to": "L3"}  # first from L4
    ev = g.apply(0, march)
    assert any(e["type"] == "battle_started" for e in ev)
    assert g.state.battle.main_origin == LANDS.index("L4")


@pytest.mark.slow
def test_two_thousand_random_games_stay_within_the_bounds():
    """2,000 random games: every decision's list within entry_bound entries and MAX_LEGAL_BYTES."""
    biggest = most = 0
    for seed in range(2000):
        game, rng = random_game(seed, POOL)
        while game.result is None:
            for p in sorted(game.waiting_for()):
                legal = check_list(game, p)
                biggest = max(biggest, payload(legal))
                most = max(most, len(legal))
            game.apply(*random_action(game, rng))
    print(f"2,000 random games: at most {most} entries, {biggest} bytes of JSON in one list")
    assert 0 < biggest <= MAX_LEGAL_BYTES


def over_capacity():
    """L2 4 over capacity after a failed attack: leader level 1, non-leaders x0..x3 of levels 1, 1, 2, 3."""
    cards = {f"lv{n}": card(level=n) for n in (1, 2, 3)}
    units = [unit("lv1", "L2", "a0", leader=True)] + [unit(f"lv{n}", "L2", f"x{i}") for i, n in enumerate((1, 1, 2, 3))]
    g = scenario({"units": units, "deck": ["orc"] * 5}, cards=cards)
    data = json.loads(g.to_json())  # built on a rearworld (8), then made a swamp (4)
    data["kinds"][2] = "swamp"
    data["phase"], data["pending"] = "over_capacity", ["L2"]
    return Game.from_json(json.dumps(data))


def test_over_capacity_sets_by_brute_force():
    """R8.8 on a crafted land 4 over capacity with non-leaders of levels 1, 1, 2 and 3: every set is
    tried; the `cover` entry stands for exactly the accepted ones, which are the old enumeration's."""
    g = over_capacity()
    (entry,) = [a for a in g.legal_actions(0) if a["type"] == "destroy_over_capacity"]
    assert entry["choose"] == "cover" and entry["excess"] == 8 - 4 and "a0" not in entry["from"]
    assert brute_force_over_capacity(g, 0) == len(old_legal_actions(g, 0)) - 1 >= 4
    assert g.joiners(0, {"type": "destroy_over_capacity", "units": []}) == []  # only marches and quick summons
    assert not g.is_legal(0, {"type": "destroy_over_capacity", "units": ["x0", "x1", "x2", "x3"]})  # fits before the last
    ev = g.apply(0, {"type": "destroy_over_capacity", "units": ["x3", "x0"]})  # 3 + 1 covers 4
    assert any(e["type"] == "capacity_restored" for e in ev)
