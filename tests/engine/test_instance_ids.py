"""Instance ids (`pNcK`) are opaque: the numbering is a per-game random permutation drawn from the
seed through a stream of its own, so an id says nothing about its card nor about the shuffle (R18.6:
no hidden information); the same seed gives the same ids, and they survive the JSON round trip."""

import collections
import json

from webapp.engine import Game, load_pool
from webapp.engine.rng import instance_numbers

from .helpers import scenario, unit

POOL = load_pool()
MONSTERS = sorted(c for c, d in POOL.items() if d.kind == "monster")
DECK = MONSTERS[:30]  # 30 different cards, sorted by id (as a deck stored as counts comes out)


def card_of(g, iid):
    s = g.state
    return s.static.cards[s.static.index[iid]].id


def test_r18_6_an_id_says_nothing_about_its_card():
    """R18.6: over many seeds the card behind p0c1 (and p1c0) varies: it is not the 2nd card of the
    sorted deck, as it was; each game still numbers each player's 30 cards c0..c29 once."""
    behind = collections.Counter()
    behind1 = collections.Counter()
    for seed in range(300):
        g = Game.new(DECK, DECK, seed=seed, first=0, pool=POOL)
        names = g.state.static.names
        for p in (0, 1):
            assert sorted(n for n in names if n.startswith(f"p{p}c")) == sorted(f"p{p}c{k}" for k in range(30))
        behind[card_of(g, "p0c1")] += 1
        behind1[card_of(g, "p1c0")] += 1
    assert len(behind) >= 25 and len(behind1) >= 25
    assert max(behind.values()) < 300 // 5
    assert behind[DECK[1]] < 300 // 5


def test_r18_6_the_same_seed_gives_the_same_ids_and_json_keeps_them():
    """Determinism: the same seed gives the same ids for the same cards; the JSON round trip keeps them."""
    a = Game.new(DECK, DECK, seed=77, first=0, pool=POOL)
    b = Game.new(DECK, DECK, seed=77, first=0, pool=POOL)
    assert a.state.static.names == b.state.static.names
    assert a.to_json() == b.to_json()
    c = Game.from_json(a.to_json(), pool=POOL)
    assert c.state.static.names == a.state.static.names
    assert c.view(0) == a.view(0)
    assert Game.new(DECK, DECK, seed=78, first=0, pool=POOL).state.static.names != a.state.static.names


def test_r18_6_ids_come_from_a_stream_of_their_own():
    """The numbering does not draw from the game's RNG: the lands, the opening hands (as cards) and
    the RNG state are what the seed gives whatever the ids; and the numbering depends on the seed
    only, not on the cards: two different decks with one seed are numbered alike."""
    other = list(reversed(MONSTERS[-30:]))
    a = Game.new(DECK, DECK, seed=5, first=0, pool=POOL)
    b = Game.new(other, other, seed=5, first=0, pool=POOL)
    pos = {n: i for i, n in enumerate(a.state.static.names)}
    assert [pos[n] for n in b.state.static.names] == list(range(60))  # same number at the same deck position
    assert a.state.rng == b.state.rng and a.state.static.kinds == b.state.static.kinds
    assert instance_numbers(5, 0, 30) == instance_numbers(5, 0, 30)
    assert sorted(instance_numbers(5, 0, 30)) == list(range(30))


def test_r18_6_the_deal_does_not_depend_on_the_numbering(monkeypatch):
    """The ids are only names: numbered in plain deck order instead, the same seed deals the same
    cards, lays the same lands, leaves the RNG in the same state, and a game played by the same
    choices (by card) goes the same way."""
    from webapp.engine import game as game_module

    def cards(g, zone):
        return [[g.state.static.cards[c].id for c in z] for z in zone(g.state)]

    for seed in (11, 12, 13):
        opaque = Game.new(DECK, DECK, seed=seed, first=None, pool=POOL)
        with monkeypatch.context() as m:
            m.setattr(game_module, "instance_numbers", lambda seed, p, count, taken=(): list(range(count)))
            plain = Game.new(DECK, DECK, seed=seed, first=None, pool=POOL)
        assert plain.state.static.names != opaque.state.static.names
        assert plain.state.static.names[:3] == ("p0c0", "p0c1", "p0c2")
        for zone in (lambda s: s.hand, lambda s: s.deck):
            assert cards(plain, zone) == cards(opaque, zone)
        assert plain.state.rng == opaque.state.rng and plain.state.static.kinds == opaque.state.static.kinds
        assert plain.state.first == opaque.state.first


def test_scenario_explicit_ids_are_kept_and_the_others_are_permuted():
    """Scenarios: explicit ids stay as given; the other entries get opaque pNcK ids that never collide
    with explicit ones, vary with the seed, and are the same for the same seed."""
    def build(seed):
        return scenario({"hand": [{"card": "orc", "id": "p0c0"}, "salamander", "fireball", "sylph"],
                         "deck": ["orc"] * 6, "units": [unit("orc", "H0", "a0", leader=True)]}, seed=seed)
    seen = collections.Counter()
    for seed in range(60):
        g = build(seed)
        names = g.state.static.names
        assert "p0c0" in names and "a0" in names and card_of(g, "p0c0") == "orc"
        auto = sorted(n for n in names if n.startswith("p0c") and n != "p0c0")
        assert auto == sorted(f"p0c{k}" for k in range(1, 10))
        seen[card_of(g, "p0c1")] += 1
        assert build(seed).state.static.names == names
    assert len(seen) >= 3


def test_ids_round_trip_through_a_saved_scenario_game():
    g = scenario({"hand": ["salamander", "fireball"], "units": [unit("orc", "H0", "a0", leader=True)]}, seed=9)
    data = json.loads(g.to_json())
    assert {i[0] for i in data["instances"]} == set(g.state.static.names)
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
