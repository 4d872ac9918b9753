"""The view built from shared public parts (webapp/engine/views.py ``Public``, made once per state by
``Game.view``) is exactly the view built the plain way for each reader: the same values in the same key
order (its JSON), the reader's hand and leader choice only in its own view, at every state of random
games (random legal actions, and the baseline CPU, whose games reach more battles)."""

import orjson
from hypothesis import strategies as st

from tests.lanes import check, lanes
from webapp.ai import PLAYERS
from webapp.engine import Game, load_pool, stats
from webapp.engine import game as engine_game
from webapp.engine.board import DISTANCE, LANDS
from webapp.engine.randomplay import random_action, random_game

POOL = load_pool()
READERS = (0, 1, None)


def encoded(value):
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


# ---------------------------------------------------------------- the plain build (the oracle the fast one is held to)


def plain_view(s, viewer, waiting):
    """A JSON-safe dict of the game as `viewer` (0, 1 or None for a spectator) sees it."""
    st = s.static
    names, cards, owner = st.names, st.cards, st.owner
    b = s.battle
    au = stats.auras(s) if b is not None else None
    used = [[0] * len(LANDS), [0] * len(LANDS)]
    for u, land in s.land.items():
        used[owner[u]][land] += cards[u].level
    lands = {LANDS[land]: {"kind": st.kinds[land], "capacity": st.capacity[land], "owner": s.owners[land],
                        "used": [used[0][land], used[1][land]], "distance": [DISTANCE[0][land], DISTANCE[1][land]]}
             for land in range(len(LANDS))}
    units = []
    for u in sorted(s.land, key=s.land.__getitem__):  # by land, then arrival (stable sort)
        card = cards[u]
        mx = stats.max_life(s, u, au)
        entry = {"id": names[u], "card": card.id, "owner": owner[u], "land": LANDS[s.land[u]],
                 "leader": u in s.leaders, "exhausted": u in s.exhausted,
                 "life": mx - (b.damage.get(u, 0) if b is not None else 0), "max_life": mx,
                 "power": stats.power(s, u, au), "speed": stats.speed(s, u, au),
                 "level": stats.level(s, u), "tribe": stats.tribe(s, u),
                 "marches_left": 0 if u in s.exhausted else
                 (2 if card.double_march else 1) - s.marches.get(u, 0)}
        units.append(entry)
    players = []
    for p in (0, 1):
        entry = {"hand_count": len(s.hand[p]), "deck_count": len(s.deck[p]),
                 "discard": [cards[c].id for c in s.discard[p]],
                 "discard_ids": [names[c] for c in s.discard[p]],
                 "leaders_chosen": s.leader_choice[p] is not None,
                 "lands": sum(1 for o in s.owners if o == p)}
        if s.shown:
            entry["shown_hand"] = [{"id": names[c], "card": cards[c].id} for c in s.hand[p] if c in s.shown]
        if p == viewer:
            entry["hand"] = [{"id": names[c], "card": cards[c].id} for c in s.hand[p]]
            if s.phase == "leaders" and s.leader_choice[p] is not None:
                entry["leader_choice"] = [names[c] for c in s.leader_choice[p]]
        players.append(entry)
    out = {"round": s.round, "active": s.active, "first": s.first, "phase": s.phase,
           "result": dict(s.result) if s.result else None, "version": s.version,
           "waiting_for": sorted(waiting), "viewer": viewer, "lands": lands, "units": units,
           "players": players, "failed_lands": sorted(LANDS[land] for land in s.failed),
           "pending": {"player": s.active, "land": LANDS[s.pending[0]]} if s.pending else None,
           "battle": plain_battle_view(s, au) if b is not None else None,
           "opening": dict(s.opening) if s.opening else None, "standing": plain_standing(s)}
    if s.phase != "leaders" and s.leader_choice[0] is not None and s.leader_choice[1] is not None:
        out["leaders"] = [[names[c] for c in s.leader_choice[p]] for p in (0, 1)]
    return out


def plain_standing(s):
    """R16.1 on the lands as owned now, the plain way: counts, then the fronts position by position."""
    held = [[land for land in range(len(LANDS)) if s.owners[land] == p] for p in (0, 1)]
    counts = [len(h) for h in held]
    fronts = [sorted(DISTANCE[p][land] for land in held[p]) for p in (0, 1)]
    leading = None
    if counts[0] != counts[1]:
        leading = 0 if counts[0] > counts[1] else 1
    else:
        differ = [(a, b) for a, b in zip(*fronts, strict=True) if a != b]
        if differ:
            leading = 0 if differ[0][0] < differ[0][1] else 1
    return {"lands": counts, "fronts": fronts, "leading": leading}


def plain_battle_view(s, au):
    b = s.battle
    names = s.static.names
    cards = s.static.cards
    slots = {}
    for p in (0, 1):
        pool = stats.slots(s, p, au)
        kinds = sorted(set(pool) | set(b.used[p]))
        slots[str(p)] = {k: {"total": pool.get(k, 0), "used": b.used[p].get(k, 0)} for k in kinds}
    chain = []
    for i, d in enumerate(b.chain):
        entry = {"index": i, "player": d["player"], "kind": d["kind"],
                 "targets": [names[t] for t in d["targets"]], "responds_to": d["on"]}
        if d["unit"] is not None:
            entry["unit"] = names[d["unit"]]
        if d["card_id"] is not None:
            entry["card"] = d["card_id"]
        if d["kind"] == "attack":
            entry["units"] = [names[u] for u in d["units"]]
        if d["choice"] is not None:
            entry["choice"] = d["choice"]
        if d["coin"] is not None:
            entry["coin"] = "heads" if d["coin"] else "tails"
        if d["cancelled"]:
            entry["cancelled"] = True
        chain.append(entry)
    initiative = None
    if b.rolls is not None:
        initiative = {"rolls": {str(p): {"die": b.rolls[p][0], "speed": b.rolls[p][1],
                                         "total": b.rolls[p][0] + b.rolls[p][1]} for p in (0, 1)},
                      "first": b.order[0] if b.order else None}
    return {"land": s.land_name(b.land), "attacker": b.attacker, "defender": 1 - b.attacker,
            "step": b.step, "step_player": b.step_player,
            "parties": {str(p): [names[u] for u in b.party[p]] for p in (0, 1)},
            "quick": [names[u] for u in b.quick if u in s.land], "initiative": initiative,
            "simultaneous": b.simultaneous,
            "striker": b.order[b.striker] if b.order and b.step == "fight" else None,
            "order": list(b.order) if b.order else None, "responder": b.responder,
            "chain": chain, "acted": sorted(names[u] for u in b.acted if u in s.land),
            "negated": sorted(names[u] for u in b.negated if u in s.land), "slots": slots,
            "spell_lock": au.lock, "done": sorted(b.done),
            "fallen": {str(p): [cards[u].id for u in b.fallen[p]] for p in (0, 1)},
            "origins": {names[u]: s.land_name(land) for u, land in sorted(b.origin.items()) if u in s.land}}


# ---------------------------------------------------------------- the properties


def same_views(game):
    """Every reader's view of the game equals the plain build, and building it for one reader leaves
    the views made before for the others as they were."""
    s, waiting = game.state, game.waiting_for()
    made = {}
    for reader in READERS:
        made[reader] = (game.view(reader), encoded(game.view(reader)))
        assert made[reader][1] == encoded(plain_view(s, reader, waiting)), (s.version, reader)
    for reader in READERS:
        assert encoded(made[reader][0]) == made[reader][1]
    engine_game.PUBLIC.clear()  # no public parts kept: built for another reader first
    for reader in (1, None, 0):
        assert encoded(Game(s).view(reader)) == made[reader][1]
    for reader in (0, 1):
        mine = made[reader][0]["players"]
        assert "hand" in mine[reader] and "hand" not in mine[1 - reader] and "leader_choice" not in mine[1 - reader]
    assert all("hand" not in p and "leader_choice" not in p for p in made[None][0]["players"])


def random_game_views(seed):
    game, rng = random_game(seed, POOL)
    steps = 0
    while game.result is None and steps < 400:
        same_views(game)
        game.apply(*random_action(game, rng))
        steps += 1
    same_views(game)


def baseline_game_views(seed):
    checked_baseline_game(seed)


def checked_baseline_game(seed):
    """Check every view of one baseline game; the number of positions in a battle."""
    game, _ = random_game(seed, POOL)
    players = [PLAYERS["baseline"](seed=seed + p, pool=POOL) for p in (0, 1)]
    battles = 0
    while game.result is None:
        same_views(game)
        battles += game.state.battle is not None
        player = sorted(game.waiting_for())[0]
        game.apply(player, players[player].choose(game, player))
    same_views(game)
    return battles


def test_the_baseline_games_checked_hold_battles():
    assert checked_baseline_game(1) > 10


@lanes(fast=6, full=40)
def test_views_of_random_games_are_the_plain_build(examples):
    check(random_game_views, examples, seed=st.integers(0, 10_000))


@lanes(fast=3, full=20)
def test_views_of_baseline_games_are_the_plain_build(examples):
    check(baseline_game_views, examples, seed=st.integers(0, 10_000))


def test_a_view_after_an_action_is_of_the_new_state():
    game, rng = random_game(3, POOL)
    before = game.view(0)
    kept = encoded(before)
    game.apply(*random_action(game, rng))
    after = game.view(0)
    assert after["version"] == before["version"] + 1 and encoded(before) == kept
    assert encoded(after) == encoded(plain_view(game.state, 0, game.waiting_for()))
    copy = game.copy()
    assert encoded(copy.view(1)) == encoded(plain_view(game.state, 1, game.waiting_for()))
    assert copy.view(None)["units"] is game.view(0)["units"]  # one state's readers share its public parts


def test_the_public_parts_kept_are_bounded_and_of_their_own_state():
    game, rng = random_game(5, POOL)
    views = []
    for _ in range(engine_game.PUBLIC_KEPT * 2 + 5):
        if game.result is not None:
            break
        views.append((game.state, game.view(0)))
        assert len(engine_game.PUBLIC) <= engine_game.PUBLIC_KEPT
        game.apply(*random_action(game, rng))
    for state, view in views[::17]:
        assert encoded(view) == encoded(plain_view(state, 0, Game(state).waiting_for()))
        assert encoded(Game(state).view(0)) == encoded(view)
