"""Game.determinize: a copy of the game as one seat could imagine it, leaking nothing it cannot see."""

import json
import random

import pytest

from webapp.engine import Game, load_pool
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()


def positions(seeds=range(6), every=7, simultaneous=True):
    """Mid-game positions of random games (the leader choice included), each with the seat to look from."""
    for seed in seeds:
        game, rng = random_game(seed, POOL)
        step = 0
        while game.result is None and step < 400:
            if step % every == 0:
                for p in sorted(game.waiting_for()):
                    yield seed, step, game.copy(), p
            player, action = random_action(game, rng)
            game.apply(player, action)
            step += 1


def same_view(a, b, p):
    va, vb = a.view(p), b.view(p)
    va.pop("version"), vb.pop("version")
    return va == vb


def hidden_twin(game, p, seed):
    """The same game with everything seat p cannot see replaced: the opponent's unseen cards are other
    cards of the pool and sit in other hand/deck places, both draw piles are reshuffled, another RNG."""
    rng = random.Random(seed)
    data = json.loads(game.to_json())
    opp = 1 - p
    names = {n: (cid, o) for n, cid, o in data["instances"]}
    seen = {u for u, _ in data["units"]} | set(data["discard"][0]) | set(data["discard"][1])
    seen |= set(data.get("shown", []))
    unseen = [n for n in data["hand"][opp] + data["deck"][opp] if n not in seen]
    monsters = sorted(c for c, d in POOL.items() if d.kind == "monster")
    every = sorted(POOL)
    for n in unseen:
        names[n] = (rng.choice(every), opp)
    kept = [n for n in data["hand"][opp] if n in seen]
    order = unseen[:]
    rng.shuffle(order)
    k = len(data["hand"][opp]) - len(kept)
    data["hand"][opp] = kept + order[:k]
    data["deck"][opp] = order[k:]
    if data["phase"] == "leaders":  # an opening hand holds a monster; a hidden choice is from it
        names[order[0]] = (rng.choice(monsters), opp) if k else names[order[0]]
        if data["leader_choice"][opp] is not None:
            data["leader_choice"][opp] = [order[0]]
    rng.shuffle(data["deck"][p])
    data["rng"] = rng.getrandbits(64)
    data["instances"] = [[n, names[n][0], names[n][1]] for n, _c, _o in data["instances"]]
    return Game.from_json(json.dumps(data), POOL)


def test_a_determinization_shows_the_seat_exactly_what_it_saw():
    checked = 0
    for seed, step, game, p in positions():
        d = game.determinize(p, random.Random(seed * 1000 + step))
        assert same_view(game, d, p), (seed, step)
        assert d.legal_actions(p) == game.legal_actions(p), (seed, step)
        assert d.waiting_for() == game.waiting_for()
        checked += 1
    assert checked > 50


def test_a_determinization_depends_only_on_what_the_seat_may_know():
    """Two games that differ only in what p cannot see give the same determinization for one rng."""
    checked = differs = 0
    for seed, step, game, p in positions(seeds=range(4), every=11):
        twin = hidden_twin(game, p, seed + step)
        assert same_view(game, twin, p)
        differs += twin.to_json() != game.to_json()
        a = game.determinize(p, random.Random(step)).to_json()
        b = twin.determinize(p, random.Random(step)).to_json()
        assert a == b, (seed, step, p)
        checked += 1
    assert checked > 20 and differs == checked


def test_it_draws_a_different_world_each_time_but_keeps_the_own_deck_list():
    game, rng = random_game(3, POOL)
    while game.state.round < 3:
        game.apply(*random_action(game, rng))
    p = game.state.active
    worlds = [game.determinize(p, random.Random(k)) for k in range(5)]
    opp_hands = {tuple(sorted(w.state.static.cards[c].id for c in w.state.hand[1 - p])) for w in worlds}
    assert len(opp_hands) > 1
    rngs = {w.state.rng for w in worlds}
    assert len(rngs) == 5 and game.state.rng not in rngs
    own = sorted(game.state.static.cards[c].id for c in game.state.deck[p])
    for w in worlds:
        assert sorted(w.state.static.cards[c].id for c in w.state.deck[p]) == own
        assert len(w.state.deck[1 - p]) == len(game.state.deck[1 - p])


def test_a_hidden_leader_choice_is_redrawn_from_the_imagined_hand():
    game, _ = random_game(5, POOL, first=0)
    opp_choice = next(a for a in game.legal_actions(1) if a["type"] == "choose_leaders")
    game.apply(1, opp_choice)
    d = game.determinize(0, random.Random(1))
    assert d.waiting_for() == {0} and d.state.leader_choice[1] is not None
    assert all(c in d.state.hand[1] for c in d.state.leader_choice[1])
    assert game.view(0)["players"][1]["leaders_chosen"] and d.view(0)["players"][1]["leaders_chosen"]


def test_a_card_returned_to_hand_stays_known():
    """A card both players saw go back to a hand is public there (view shows it) and stays in the
    imagined hand."""
    game, rng = random_game(2, POOL)
    while game.state.round < 3:
        game.apply(*random_action(game, rng))
    s = game.state.copy()
    p = s.active
    card = s.hand[1 - p][0]
    s.shown = frozenset({card})
    g2 = Game(s)
    shown = g2.view(p)["players"][1 - p]["shown_hand"]
    assert shown == [{"id": s.static.names[card], "card": s.static.cards[card].id}]
    for k in range(5):
        d = g2.determinize(p, random.Random(k))
        assert card in d.state.hand[1 - p] and d.state.static.cards[card] is s.static.cards[card]
    assert Game.from_json(g2.to_json(), POOL).state.shown == {card}


def test_determinize_refuses_a_spectator():
    game, _ = random_game(1, POOL)
    with pytest.raises(ValueError):
        game.determinize(None, random.Random(0))
