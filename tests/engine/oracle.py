"""The old enumeration of legal actions, kept as a test oracle (never used by the engine).

Before the compact entries (webapp/engine/choices.py), `legal_actions` listed every distinct
march set (R8.5), every quick-summon set (R9.2) and up to 120 formation orders (R9.4). This
module rebuilds those lists from a game's state so tests can check the compact form against them
and keep looking actions up the way they did (`tests/engine/helpers.find`).
"""

from itertools import combinations

from webapp.engine import choices
from webapp.engine.board import LANDS
from webapp.engine.turn import march_candidates

MAX_LISTED_ORDERS = 120


def march_subsets(s, cand, room, battle_here):
    """One representative of every distinct set of `cand` that fits in `room`.

    Units of the same card on the same land, equally leaders and with the same marches made, are
    interchangeable, so a set is a count from each such group. Into a battle the first unit's land
    is the main origin (R8.8): one ordering per distinct origin."""
    cards, land, leaders, marches = s.static.cards, s.land, s.leaders, s.marches
    groups = {}
    for u in cand:
        groups.setdefault((cards[u].id, land[u], u in leaders, marches.get(u, 0)), []).append(u)
    sets = [((), 0)]
    for g in groups.values():
        lv = cards[g[0]].level
        if lv > room:
            continue
        takes = [(tuple(g[:k]), lv * k) for k in range(1, len(g) + 1)]
        sets += [(chosen + part, total + extra) for chosen, total in sets
                 for part, extra in takes if total + extra <= room]
    if not battle_here:
        return [chosen for chosen, _ in sets[1:]]
    out = []
    for chosen, _ in sets[1:]:
        if len(chosen) == 1:
            out.append(chosen)
            continue
        seen = set()
        for u in chosen:
            o = land[u]
            if o not in seen:
                seen.add(o)
                out.append((u,) + tuple(v for v in chosen if v != u))
    return out


def march_actions(s, p):
    """Every distinct march of the old list, as action dicts."""
    names = s.static.names
    return [{"type": "march", "units": [names[u] for u in units], "to": LANDS[dest]}
            for dest, cand, room, battle_here in march_candidates(s, p)
            for units in march_subsets(s, cand, room, battle_here)]


def quick_actions(s, p):
    """Every set of hand cards that may be quick summoned together, in hand order (none first)."""
    from webapp.engine.battle import quick_candidates
    cands, room = quick_candidates(s, p)
    cards, names = s.static.cards, s.static.names
    out = [()]
    for n in range(1, len(cands) + 1):
        for combo in combinations(cands, n):
            if sum(cards[c].level for c in combo) <= room:
                out.append(combo)
    return [{"type": "quick_summon", "cards": [names[c] for c in combo]} for combo in out]


def formation_class(s, u):
    """Units with equal class are interchangeable in a formation."""
    b = s.battle
    return (s.static.cards[u].id, u in s.leaders, u in b.quick, b.origin.get(u))


def formation_actions(s, p, cap=MAX_LISTED_ORDERS):
    """Distinct formation orders (interchangeable units collapsed), the standing order first, at most `cap`."""
    party = s.battle.party[p]
    groups = {}
    for u in party:
        groups.setdefault(formation_class(s, u), []).append(u)
    keys = list(groups)
    left = [len(groups[k]) for k in keys]
    current = [keys.index(formation_class(s, u)) for u in party]
    out, order = [list(party)], []

    def walk():
        if len(out) >= cap:
            return
        if len(order) == len(party):
            if order == current:
                return
            used = [0] * len(keys)
            units = []
            for k in order:
                units.append(groups[keys[k]][used[k]])
                used[k] += 1
            out.append(units)
            return
        for k in range(len(keys)):
            if left[k]:
                left[k] -= 1
                order.append(k)
                walk()
                order.pop()
                left[k] += 1

    walk()
    names = s.static.names
    return [{"type": "formation", "order": [names[u] for u in o]} for o in out]


def over_capacity_actions(s):
    """R8.8: every set of non-leaders its owner may destroy, one at a time, on the first pending land."""
    land = s.pending[0]
    cards, names = s.static.cards, s.static.names
    units = s.units_on(land, s.active)
    excess = sum(cards[u].level for u in units) - s.static.capacity[land]
    others = [u for u in units if u not in s.leaders]
    if sum(cards[u].level for u in others) < excess:
        out = [tuple(others)]
    else:
        out = []
        for n in range(1, len(others) + 1):
            for combo in combinations(others, n):
                levels = [cards[u].level for u in combo]
                total = sum(levels)
                if total >= excess and total - max(levels) < excess:
                    out.append(combo)
    return [{"type": "destroy_over_capacity", "units": [names[u] for u in combo]} for combo in out]


def old_legal_actions(game, player, formation_cap=MAX_LISTED_ORDERS):
    """The legal-action list as the engine gave it before compact entries: each compact entry
    replaced by the enumeration it stands for (march sets, quick-summon sets, formation orders,
    over-capacity sets)."""
    s = game.state
    # in the old order: the marches where the first compact march stands, and so on
    out = []
    done = set()
    for entry in game.legal_actions(player):
        t = entry["type"]
        if t in ("march", "quick_summon", "formation", "destroy_over_capacity") and \
                (choices.is_compact(entry) or t != "march"):
            if t in done:
                continue
            done.add(t)
            if t == "march":
                out += march_actions(s, player)
            elif t == "quick_summon":
                out += quick_actions(s, player)
            elif t == "destroy_over_capacity":
                out += over_capacity_actions(s)
            else:
                out += formation_actions(s, player, formation_cap)
            continue
        out.append(entry)
    return out
