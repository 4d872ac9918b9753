"""Outside battle: leader choice (R5), the main step (R6–R8, R13.5), turns and the judgment (R16)."""

from itertools import combinations

from . import battle, effects
from .board import ADJACENT, BASES, LANDS, standing
from .stats import card_matches

LEADER_LEVEL = 5  # R5.4


# ------------------------------------------------------------------ leaders (R5.4–R5.7)

def leader_options(s, p):
    cards = s.static.cards
    monsters = [c for c in s.hand[p] if cards[c].kind == "monster"]
    out = []
    for n in (1, 2, 3):
        for combo in combinations(monsters, n):
            if sum(cards[c].level for c in combo) <= LEADER_LEVEL:
                out.append(combo)
    return out


def leaders_waiting(s):
    pending = {p for p in (0, 1) if s.leader_choice[p] is None}
    if s.static.leader_mode == "sequential" and s.first in pending:
        return {s.first}
    return pending


def choose_leaders(s, p, combo, ev):
    choice = list(s.leader_choice)
    choice[p] = tuple(combo)
    s.leader_choice = tuple(choice)
    ev.append({"type": "leaders_chosen", "player": p})  # R5.7: the cards stay hidden until both chose
    if any(c is None for c in s.leader_choice):
        return
    names = s.static.names
    leaders = set()
    for q in (s.first, 1 - s.first):
        for c in s.leader_choice[q]:
            s.hand[q].remove(c)
            s.place(c, BASES[q])
            leaders.add(c)
    s.leaders = frozenset(leaders)
    ev.append({"type": "leaders_revealed",
               "leaders": {str(q): [names[c] for c in s.leader_choice[q]] for q in (0, 1)}})
    for q in (s.first, 1 - s.first):
        effects.draw_to(s, q, ev)  # R5.6
    s.round = 2
    start_turn(s, s.first, ev)


# ------------------------------------------------------------------ turns

def start_turn(s, p, ev):
    s.active = p
    s.phase = "main"
    s.failed = frozenset()
    owner = s.static.owner
    for u in list(s.exhausted):
        if owner[u] == p:
            s.exhausted.discard(u)  # R6.8
    for u in list(s.marches):
        if owner[u] == p:
            del s.marches[u]
    ev.append({"type": "turn_started", "player": p, "round": s.round})
    effects.draw_to(s, p, ev)  # R6.2 ①


def end_turn(s, p, ev):
    effects.draw_to(s, p, ev)  # R6.2 ④
    ev.append({"type": "turn_ended", "player": p, "round": s.round})
    if p != s.first and s.round >= 12:
        judgment(s, ev)  # R1.4, R16
        return
    nxt = 1 - p
    if nxt == s.first:
        s.round += 1
    start_turn(s, nxt, ev)


def judgment(s, ev):
    """R16.1: more lands wins; then the nearer front, position by position; else a draw."""
    counts, fronts, winner = standing(s.owners)
    ev.append({"type": "judgment", "lands": counts, "fronts": fronts})
    effects.finish(s, winner, "judgment", ev)


# ------------------------------------------------------------------ the main step

def marches_allowed(s, u):
    return 2 if s.static.cards[u].double_march else 1  # R8.2


def can_march(s, u, p):
    return s.static.owner[u] == p and u not in s.exhausted and s.marches.get(u, 0) < marches_allowed(s, u)


def reaches(s, u, dest, p):
    """R8.1 adjacent; R8.3 Far March: any land but the enemy base."""
    here = s.land[u]
    if here == dest:
        return False
    if dest in ADJACENT[here]:
        return True
    return s.static.cards[u].far_march and dest != BASES[1 - p]


def march_blocked(s, dest, p):
    return dest in s.failed and s.has_enemy(dest, p)  # R8.7


# REACH[p][here]: (the lands next to `here`, the lands a Far March monster of p reaches from it)
REACH = tuple(tuple((tuple(sorted(ADJACENT[h])),
                     tuple(d for d in range(len(LANDS)) if d != h and (d != BASES[1 - p] or d in ADJACENT[h])))
                    for h in range(len(LANDS))) for p in (0, 1))


def board_tables(s, p):
    """One pass over the board for p's main step: (own level per land, enemy present per land, p's
    units that may march now in instance order, p's ready units with a [March] ability)."""
    st = s.static
    owner, marchers, levels, allowed = st.owner, st.marchers, st.levels, st.allowed
    exhausted, marches = s.exhausted, s.marches
    own = [0] * len(LANDS)
    enemy = [False] * len(LANDS)
    movers, ready = [], []
    for u, land in s.land.items():
        if owner[u] == p:
            own[land] += levels[u]
            if u not in exhausted:
                if u not in marches or marches[u] < allowed[u]:  # R8.1, R8.2
                    movers.append(u)
                if u in marchers:
                    ready.append(u)
        else:
            enemy[land] = True
    movers.sort()
    ready.sort()
    return own, enemy, movers, ready


def march_candidates(s, p, tables=None):
    """(dest, units that can reach it, room left there, battle?) for each destination worth a look."""
    own, enemy, movers, _ready = tables or board_tables(s, p)
    if not movers:
        return []
    cards, land = s.static.cards, s.land
    capacity = s.static.capacity
    reach = REACH[p]
    by_dest = [[] for _ in LANDS]
    for u in movers:  # R8.1 adjacent; R8.3 Far March: anywhere but the enemy base
        for d in reach[land[u]][1 if cards[u].far_march else 0]:
            by_dest[d].append(u)
    failed = s.failed
    out = []
    for dest, cand in enumerate(by_dest):
        if cand and not (enemy[dest] and dest in failed):  # R8.7
            out.append((dest, cand, capacity[dest] - own[dest], enemy[dest]))  # R8.4
    return out


def march_legal(s, p, units, dest):
    if not units or len(set(units)) != len(units) or not 0 <= dest < len(LANDS):
        return False
    if march_blocked(s, dest, p):
        return False
    st = s.static
    cards, owner, levels = st.cards, st.owner, st.levels
    where, exhausted, marches = s.land, s.exhausted, s.marches
    total = 0
    for u in units:  # can_march and reaches, inlined
        here = where.get(u)
        if here is None or owner[u] != p or u in exhausted:
            return False
        card = cards[u]
        if marches.get(u, 0) >= (2 if card.double_march else 1):  # R8.1, R8.2
            return False
        if here == dest or (dest not in ADJACENT[here] and not (card.far_march and dest != BASES[1 - p])):
            return False  # R8.1 adjacent; R8.3 Far March: any land but the enemy base
        total += levels[u]
    for u, at in where.items():  # s.level_on(dest, p)
        if at == dest and owner[u] == p:
            total += levels[u]
    return total <= st.capacity[dest]  # R8.4


def march_refusal(s, p, units, dest, name):
    """(message, rule) saying in plain words why march_legal refused; `name(inst)` names a card."""
    to = LANDS[dest]
    if not units or len(set(units)) != len(units):
        return "Choose each marching monster once.", "R8.1"
    for u in units:
        if s.static.owner[u] != p or u not in s.land:
            return f"{name(u)} is not one of your monsters on the map.", "R8.1"
        if not can_march(s, u, p):
            return f"{name(u)} cannot march again this turn.", "R8.1"
        if not reaches(s, u, dest, p):
            return f"{name(u)} cannot reach {to} from where it stands.", "R8.1"
    if march_blocked(s, dest, p):
        return f"Your attack on {to} failed this turn: you may not attack it again while enemies remain.", "R8.7"
    return f"There is no room on {to}: your monsters' total level there would be over its capacity.", "R8.4"


def march(s, p, units, dest, ev):
    names = s.static.names
    for u in units:
        s.marches[u] = s.marches.get(u, 0) + 1
    if s.has_enemy(dest, p):
        ev.append({"type": "marched", "player": p, "units": [names[u] for u in units],
                   "from": [LANDS[s.land[u]] for u in units], "to": LANDS[dest], "battle": True})
        battle.start(s, p, list(units), dest, ev)
        return
    ev.append({"type": "marched", "player": p, "units": [names[u] for u in units],
               "from": [LANDS[s.land[u]] for u in units], "to": LANDS[dest], "battle": False})
    for u in units:
        s.place(u, dest)
        if s.marches[u] >= marches_allowed(s, u):
            s.exhausted.add(u)  # R8.1
    take(s, p, dest, ev)


def take(s, p, land, ev):
    if s.owners[land] != p:
        s.set_owner(land, p)  # R4.5, R4.6
        ev.append({"type": "land_taken", "player": p, "land": LANDS[land]})


def summon_legal(s, p, c, tables=None):
    card = s.static.cards[c]
    base = BASES[p]
    if card.kind != "monster" or c not in s.hand[p]:
        return False  # R7.5
    if tables is None:
        enemy_here, own_level = s.has_enemy(base, p), s.level_on(base, p)
    else:
        enemy_here, own_level = tables[1][base], tables[0][base]
    if enemy_here:
        return False  # R7.3
    return own_level + card.level <= s.static.capacity[base]  # R7.2


def summon_refusal(s, p, c, name):
    """(message, rule) saying in plain words why a summon is refused; `name(inst)` names a card."""
    if s.phase != "main" or p != s.active:
        return "You may summon only in your own main step.", "R6.3"
    if c not in s.hand[p]:
        return "You may summon only monsters from your own hand.", "R7.1"
    if s.static.cards[c].kind != "monster":
        return f"{name(c)} is a spell: spells are cast in battle, not summoned.", "R7.5"
    if board_tables(s, p)[1][BASES[p]]:
        return "You may not summon while an enemy monster stands on your base.", "R7.3"
    return f"There is no room for {name(c)} on your base: its total level would be over 5.", "R7.2"


def summon(s, p, c, ev, land=None):
    """Put a monster from hand (or discard) onto a land; exhausted unless Haste (R6.4, R7.4)."""
    land = BASES[p] if land is None else land
    for zone in (s.hand[p], s.discard[p]):
        if c in zone:
            zone.remove(c)
            break
    s.place(c, land)
    if not s.static.cards[c].haste:
        s.exhausted.add(c)
    ev.append(effects.unit_event(s, "summoned", c, land=LANDS[land]))
    take(s, p, land, ev)


def march_ability_options(s, p, tables=None):
    """R13.5: (unit, targets) for each usable [March] ability; targets are (card, land) for a summon."""
    cards = s.static.cards
    out = []
    own, enemy, _movers, ready = tables or board_tables(s, p)
    for u in ready:
        ab = cards[u].march
        summons = [e for e in ab.effects if e.op == "summon"]
        if not summons:
            out.append((u, ()))
            continue
        e = summons[0]
        zone = s.hand[p] if e.source == "hand" else s.discard[p]
        here = s.land[u]
        lands = [here] if e.dest == "here" else sorted(ADJACENT[here])
        lands = [land for land in lands if land != BASES[1 - p] and not enemy[land]]
        for c in zone:
            card = cards[c]
            if card.kind != "monster" or not card_matches(card, e.filter):
                continue
            for land in lands:
                if own[land] + card.level <= s.static.capacity[land]:
                    out.append((u, (c, land)))
    return out


def use_march_ability(s, p, u, targets, ev):
    ab = s.static.cards[u].march
    s.exhausted.add(u)  # R13.5
    ev.append(effects.unit_event(s, "march_ability", u))
    for e in ab.effects:
        if e.op == "summon":
            c, land = targets
            summon(s, p, c, ev, land)
        elif e.op == "draw":
            effects.draw(s, p, e.count, ev)


def discard(s, p, cards, ev):
    for c in cards:
        s.hand[p].remove(c)
        s.discard[p].append(c)
    ev.append({"type": "discarded", "player": p, "cards": [s.static.cards[c].id for c in cards],
               "ids": [s.static.names[c] for c in cards]})


# ------------------------------------------------------------------ over capacity (R8.8)

def over_capacity_choice(s):
    """R8.8 on the first pending land: (its owner's non-leaders there, the excess level). The owner
    destroys them one at a time until the land fits: a set is a choice when its total covers the
    excess and without its highest level it would not (so on a land 2 over, {level 2} and
    {level 1, level 2} are choices, {level 2, level 2} is not); if even all of them do not cover it,
    all of them (only leaders would remain over capacity: they stay)."""
    land = s.pending[0]
    cards = s.static.cards
    units = s.units_on(land, s.active)
    excess = sum(cards[u].level for u in units) - s.static.capacity[land]
    return [u for u in units if u not in s.leaders], excess


def over_capacity_legal(s, units):
    others, excess = over_capacity_choice(s)
    if len(set(units)) != len(units) or any(u not in others for u in units):
        return False
    levels = [s.static.cards[u].level for u in units]
    total = sum(levels)
    if sum(s.static.cards[u].level for u in others) < excess:
        return len(units) == len(others)
    return bool(units) and total >= excess and total - max(levels) < excess


def destroy_over_capacity(s, units, ev):
    land, s.pending = s.pending[0], s.pending[1:]
    effects.destroy(s, list(units), ev, "over_capacity")
    ev.append({"type": "capacity_restored", "land": LANDS[land]})
    if s.result is None and not s.pending:
        s.phase = "main"
