"""Battles (R9–R15): quick summon, formation, initiative, the declaration chain, damage, the end."""

from . import effects, stats
from .rng import Rng
from .state import Battle


def suggested_order(s, units):
    """R9.5: non-leaders first, leaders at the rear; lower rarity first; ties by arrival (R9.5a)."""
    arrival = s.arrival_order()
    rank = s.static.cards
    return sorted(units, key=lambda u: (u in s.leaders, rank[u].rarity_rank, arrival[u]))


def start(s, p, units, to, ev):
    """Begin a battle: `units` of player p march into enemy-held land `to` (R8.6)."""
    b = Battle()
    b.land, b.attacker = to, p
    b.origin = {u: s.land[u] for u in units}
    b.main_origin = s.land[units[0]]  # R8.8 [decided]
    defenders = s.units_on(to, 1 - p)
    for u in units:
        s.place(u, to)
    parties = [None, None]
    parties[p] = suggested_order(s, units)
    parties[1 - p] = suggested_order(s, defenders)
    b.party = parties
    b.quick = []
    b.step, b.step_player = "quick", p
    b.rolls, b.order, b.striker, b.responder = None, None, 0, None
    b.chain, b.acted, b.damage, b.boosts = [], set(), {}, {}
    b.negated, b.tribe, b.level, b.granted = frozenset(), {}, {}, {}
    b.used, b.done, b.fallen, b.killed_leader = ({}, {}), frozenset(), ((), ()), (False, False)
    b.simultaneous = False
    b.memo = None
    b.listed = None
    s.battle = b
    s.phase = "battle"
    names = s.static.names
    ev.append({"type": "battle_started", "land": s.land_name(to), "attacker": p,
               "parties": {str(q): [names[u] for u in parties[q]] for q in (0, 1)}})
    advance(s, ev)


def waiting(s):
    b = s.battle
    if b.step in ("quick", "formation"):
        return b.step_player
    if b.chain:
        return b.responder
    return b.order[b.striker]


# ------------------------------------------------------------------ preparation

def quick_candidates(s, p):
    """Hand cards the side may quick summon now (R9.2, R9.3)."""
    b = s.battle
    cards = s.static.cards
    au = stats.auras(s)
    extra = au.quick[p]
    room = s.static.capacity[b.land] - sum(cards[u].level for u in b.party[p])
    out = []
    for c in s.hand[p]:
        card = cards[c]
        if card.kind != "monster" or card.level > room:
            continue
        if card.quick or any(stats.card_matches(card, f) for f in extra):
            out.append(c)
    return out, room


def quick_legal(s, p, combo):
    """R9.2, R9.3: distinct candidates whose total level fits the land; none at all is allowed too."""
    cands, room = quick_candidates(s, p)
    if len(set(combo)) != len(combo) or any(c not in cands for c in combo):
        return False
    cards = s.static.cards
    return sum(cards[c].level for c in combo) <= room


def formation_needed(s, p):
    """R9.6: skip for one monster, or all the same card unless a leader is mixed with non-leaders."""
    party = s.battle.party[p]
    if len(party) <= 1:
        return False
    ids = {s.static.cards[u].id for u in party}
    if len(ids) > 1:
        return True
    leaders = sum(1 for u in party if u in s.leaders)
    return 0 < leaders < len(party)


def apply_quick(s, p, combo, ev):
    b = s.battle
    names = s.static.names
    for c in combo:
        s.hand[p].remove(c)
        s.place(c, b.land)
        b.quick.append(c)
    if combo:
        rest = [u for u in b.party[p] if u not in b.quick]
        b.party[p] = [u for u in b.quick if s.static.owner[u] == p] + rest  # R9.2, R9.5a
        ev.append({"type": "quick_summoned", "player": p, "units": [names[c] for c in combo],
                   "cards": [s.static.cards[c].id for c in combo]})
    b.step = "formation"


def apply_formation(s, p, order, ev):
    b = s.battle
    b.party[p] = list(order)
    ev.append({"type": "formation", "player": p, "order": [s.static.names[u] for u in order]})
    next_step(s)


def next_step(s):
    b = s.battle
    if b.step == "quick":
        b.step = "formation"
    elif b.step == "formation" and b.step_player == b.attacker:
        b.step, b.step_player = "quick", 1 - b.attacker
    else:
        b.step, b.step_player = "initiative", None


def roll(s):
    """One six-sided die: the scenario's forced results first, then the game's RNG."""
    if s.dice:
        d, s.dice = s.dice[0], s.dice[1:]
        return d
    r = Rng(s.rng)
    d = r.below(6) + 1
    s.rng = r.state
    return d


def initiative(s, ev):
    """R9.7: die + total speed of the living party; R9.8 strike triggers; R10.9 on a tie."""
    b = s.battle
    au = stats.auras(s)
    att = b.attacker
    rolls = [None, None]
    for p in (att, 1 - att):
        die = roll(s)
        sp = sum(stats.speed(s, u, au) for u in b.party[p])
        rolls[p] = (die, sp)
    b.rolls = tuple(rolls)
    t0, t1 = sum(rolls[0]), sum(rolls[1])
    first = None if t0 == t1 else (0 if t0 > t1 else 1)
    ev.append({"type": "initiative", "rolls": {str(p): {"die": rolls[p][0], "speed": rolls[p][1],
                                                        "total": sum(rolls[p])} for p in (0, 1)},
               "first": first})
    if first is None:
        b.simultaneous = True
        simultaneous_attack(s, ev)
        return
    b.order = (first, 1 - first)
    b.step, b.striker = "fight", 0
    strike_triggers(s, first, ev)
    if s.result is None and not wiped(s):
        effects.settle(s, ev)
    if s.result is None and wiped(s):
        end(s, ev)


def strike_triggers(s, first, ev):
    """R9.8 / R1.6: 'when your party strikes first/second' triggers, all as one resolution.

    Every trigger whose condition held when initiative was decided fires (the active player's
    first, each side in formation order), even if a trigger before it negated its unit; no unit is
    destroyed until all have run: then every unit at 0 life or less, or destroyed by one of them,
    is destroyed at once. So who attacked never changes the outcome."""
    b = s.battle
    fired = []
    for p in (s.active, 1 - s.active):
        timing = "strikes_first" if p == first else "strikes_second"
        for u in b.party[p]:
            if u in b.negated:
                continue
            fired += [(u, p, ab) for ab in s.static.cards[u].strike_triggers if ab.timing == timing]
    if not fired:
        return
    batch = []  # units an effect destroyed
    for u, p, ab in fired:
        ev.append(effects.unit_event(s, "triggered", u, timing=ab.timing))
        effects.run(s, ab.effects, u, p, (), False, ev, batch=batch)
    au = stats.auras(s)
    batch += [u for side in (0, 1) for u in b.party[side] if stats.life(s, u, au) <= 0]
    effects.destroy(s, batch, ev, "trigger")


def simultaneous_attack(s, ev):
    """R10.9: printed powers fixed first, damage dealt at once; no abilities, spells or [On destroy]."""
    b = s.battle
    powers = [attack_power(s, b.party[p]) for p in (0, 1)]
    for p in (0, 1):
        b.acted.update(b.party[p])
    dead = []
    for p in (0, 1):
        ev.append({"type": "attack", "player": p, "power": powers[p], "simultaneous": True,
                   "units": [s.static.names[u] for u in b.party[p]]})
        dead += assign_damage(s, 1 - p, powers[p], ev)
    effects.destroy(s, dead, ev, "attack")
    b.done = frozenset((0, 1))
    if s.result is None:
        end(s, ev)


def attack_power(s, units):
    """R10.2: the participants' powers, each one's at least 0 (power is the damage it deals)."""
    au = stats.auras(s)
    return sum(max(0, stats.power(s, u, au)) for u in units)


def assign_damage(s, side, power, ev):
    """R10.3, R10.10: damage from the front, carrying over, against lives fixed before assigning."""
    b = s.battle
    au = stats.auras(s)
    lives = [(u, stats.life(s, u, au)) for u in b.party[side]]
    dead = []
    left = power
    names = s.static.names
    for u, life in lives:
        if left <= 0:
            break
        dealt = min(left, max(life, 0))
        left -= dealt
        b.damage[u] = b.damage.get(u, 0) + dealt
        ev.append({"type": "damage", "unit": names[u], "amount": dealt, "life": life - dealt,
                   "carry": left})
        if dealt >= life:
            dead.append(u)
    return dead


def wiped(s):
    b = s.battle
    return not b.party[0] or not b.party[1]


# ------------------------------------------------------------------ the fight (step 6)

def spells_allowed(s, au):
    return not au.lock and not s.battle.simultaneous  # R12.10, R10.9


def target_sets(s, ab, side):
    """Each choice of targets for a declared ability or spell (one target at most)."""
    if ab.target is None:
        return [()]
    b = s.battle
    t = ab.target
    pool = b.party[1 - side] if t.side == "enemy" else b.party[side] if t.side == "ally" \
        else b.party[side] + b.party[1 - side]
    return [(u,) for u in pool if stats.matches(s, u, t.filter)]


def kind_matches(respond_to, latest):
    return respond_to == "any" or respond_to == latest["kind"]


def declarations(s, side, timing, au):
    """Declared abilities and spells the side may use now, as action dicts."""
    b = s.battle
    names = s.static.names
    cards = s.static.cards
    latest = b.chain[-1] if b.chain else None
    out = []
    for u in b.party[side]:
        card = cards[u]
        ab = card.declared
        if ab is None or ab.timing != timing or u in b.acted or u in b.negated:
            continue  # R10.0, R13.2
        if latest is not None and not kind_matches(ab.respond_to, latest):
            continue
        if ab.sacrifice is not None:
            costs = [v for v in b.party[side] if v != u and stats.matches(s, v, ab.sacrifice)]
            if not costs:
                continue
        else:
            costs = [None]
        for targets in target_sets(s, ab, side):
            for cost in costs:
                if cost is not None and cost in targets:
                    continue
                for choice in range(len(ab.choose_one)) if ab.choose_one else (None,):
                    a = {"type": "ability", "unit": names[u], "targets": [names[t] for t in targets]}
                    if cost is not None:
                        a["sacrifice"] = names[cost]
                    if choice is not None:
                        a["choice"] = choice
                    out.append(a)
    if spells_allowed(s, au):
        for c in s.hand[side]:
            card = cards[c]
            if card.kind != "spell" or card.spell.timing != timing:
                continue
            ab = card.spell
            if latest is not None and not kind_matches(ab.respond_to, latest):
                continue
            if stats.payment(s, side, card.element, card.mana, au) is None:
                continue
            for targets in target_sets(s, ab, side):
                for choice in range(len(ab.choose_one)) if ab.choose_one else (None,):
                    a = {"type": "spell", "card": names[c], "targets": [names[t] for t in targets]}
                    if choice is not None:
                        a["choice"] = choice
                    out.append(a)
    return out


def fight_actions(s):
    b = s.battle
    au = stats.auras(s)
    if b.chain:
        return declarations(s, b.responder, "counter", au) + [{"type": "pass"}]
    side = b.order[b.striker]
    out = declarations(s, side, "normal", au)
    if any(u not in b.acted for u in b.party[side]):
        out.append({"type": "attack"})
    else:
        out.append({"type": "pass"})  # R10.7 go on without attacking
    return out


def declare(s, p, a, ev):
    """Put an ability, spell or attack on the chain (R11); costs and choices are fixed now (R11.9)."""
    b = s.battle
    idx = s.static.index
    d = {"player": p, "kind": a["type"], "unit": None, "card": None, "card_id": None, "targets": [],
         "choice": a.get("choice"), "coin": None, "on": len(b.chain) - 1 if b.chain else None,
         "cancelled": False, "units": [], "sacrifice": None, "element": None, "paid": None}
    if a["type"] == "attack":
        d["units"] = [u for u in b.party[p] if u not in b.acted]  # R10.1
        b.acted.update(d["units"])
        ab = None
    elif a["type"] == "ability":
        u = idx[a["unit"]]
        d["unit"], d["card_id"] = u, s.static.cards[u].id
        b.acted.add(u)  # R10.5
        ab = s.static.cards[u].declared
    else:
        c = idx[a["card"]]
        card = s.static.cards[c]
        d["card"], d["card_id"], d["element"] = c, card.id, card.element
        pay_e, pay_w = stats.payment(s, p, card.element, card.mana)
        used = dict(b.used[p])
        if pay_e:
            used[card.element] = used.get(card.element, 0) + pay_e
        if pay_w:
            used["wild"] = used.get("wild", 0) + pay_w
        b.used = (used, b.used[1]) if p == 0 else (b.used[0], used)
        d["paid"] = [pay_e, pay_w]
        s.hand[p].remove(c)
        s.discard[p].append(c)  # R13.6: used spells, cancelled ones too
        ab = card.spell
    d["targets"] = [idx[t] for t in a.get("targets", ())]
    if ab is not None and ab.coin is not None:
        d["coin"] = roll(s) % 2  # 1 = heads; R11.9 shown at declaration
    b.chain.append(d)
    ev.append(declared_event(s, d, len(b.chain) - 1))
    if ab is not None and ab.sacrifice is not None:
        v = idx[a["sacrifice"]]
        d["sacrifice"] = v
        effects.destroy(s, [v], ev, "sacrifice")  # R11.8 paid at declaration
        if s.result is None:
            effects.settle(s, ev)
        if s.result is not None or wiped(s):
            if s.result is None:
                end(s, ev)
            return
    if ab is not None and ab.unrespondable:  # R11.6
        b.chain.pop()
        resolve(s, d, ev)
        if s.result is None:
            effects.settle(s, ev)
        if s.result is None and wiped(s):
            end(s, ev)
        return
    b.responder = 1 - p


def declared_event(s, d, index):
    names = s.static.names
    e = {"type": "declared", "player": d["player"], "kind": d["kind"], "index": index,
         "targets": [names[t] for t in d["targets"]]}
    if d["unit"] is not None:
        e["unit"] = names[d["unit"]]
    if d["card_id"] is not None:
        e["card"] = d["card_id"]
    if d["kind"] == "attack":
        e["units"] = [names[u] for u in d["units"]]
    if d["choice"] is not None:
        e["choice"] = d["choice"]
    if d["coin"] is not None:
        e["coin"] = "heads" if d["coin"] else "tails"
    if d["on"] is not None:
        e["responds_to"] = d["on"]
    if d["paid"] is not None:
        e["paid"] = {"element": d["paid"][0], "wild": d["paid"][1]}
    return e


def fizzle_reason(s, d, ab):
    """R11.7: why a declaration has no effect at resolution, or None."""
    b = s.battle
    p = d["player"]
    if d["cancelled"]:
        return "cancelled"
    if d["kind"] == "ability":
        u = d["unit"]
        if u not in b.party[p] and ab.sacrifice is None:  # R11.8
            return "source_destroyed"
        if u in b.negated:
            return "negated"
    if any(t not in b.party[0] and t not in b.party[1] for t in d["targets"]):
        return "target_gone"
    if d["kind"] == "spell" and not stats.slots_still_there(s, d):
        return "slots_gone"
    return None


def resolve(s, d, ev):
    """Resolve one declaration of the chain."""
    b = s.battle
    p = d["player"]
    names = s.static.names
    if d["kind"] == "attack":
        alive = [u for u in d["units"] if u in b.party[p]]
        power = attack_power(s, alive)
        ev.append({"type": "attack", "player": p, "power": power, "simultaneous": False,
                   "units": [names[u] for u in alive]})
        dead = assign_damage(s, 1 - p, power, ev)
        effects.destroy(s, dead, ev, "attack")
        return
    ab = s.static.cards[d["unit"]].declared if d["kind"] == "ability" else s.static.cards[d["card"]].spell
    reason = fizzle_reason(s, d, ab)
    if reason is not None:
        ev.append({"type": "fizzled", "player": p, "kind": d["kind"], "card": d["card_id"], "reason": reason})
        return
    ev.append({"type": "resolved", "player": p, "kind": d["kind"], "card": d["card_id"]})
    if d["kind"] == "spell":
        stats.shortfall_to_wild(s, d)  # R12.5
    if ab.choose_one is not None:
        body = ab.choose_one[d["choice"]]
    elif ab.coin is not None:
        body = ab.coin[0 if d["coin"] else 1]
    else:
        body = ab.effects
    effects.run(s, body, d["unit"], p, d["targets"], d["kind"] == "spell", ev, decl=d)


def pass_(s, p, ev):
    b = s.battle
    if not b.chain:
        ev.append({"type": "no_attack", "player": p})  # R10.7
        side_done(s, ev)
        return
    bottom = b.chain[0]
    ev.append({"type": "passed", "player": p})
    while b.chain:  # R11.4: last-first
        d = b.chain.pop()
        resolve(s, d, ev)
        if s.result is None:
            effects.settle(s, ev)
        if s.result is not None:
            return
        if wiped(s):
            b.chain.clear()
            end(s, ev)
            return
    b.responder = None
    if bottom["kind"] == "attack":
        side_done(s, ev)  # R10.8


def side_done(s, ev):
    b = s.battle
    b.done = b.done | {b.order[b.striker]}
    if b.striker == 0:
        b.striker = 1
    else:
        end(s, ev)


# ------------------------------------------------------------------ flow

def legal(s, p):
    b = s.battle
    if waiting(s) != p:
        return []
    names = s.static.names
    cards = s.static.cards
    if b.step == "quick":  # "none" and one compact entry for every set (R9.2)
        cands, room = b.listed or quick_candidates(s, p)
        out = [{"type": "quick_summon", "cards": []}]
        if cands:
            out.append({"type": "quick_summon", "choose": "set", "fill": "cards", "from": [names[c] for c in cands],
                        "levels": [cards[c].level for c in cands], "room": room})
        return out
    if b.step == "formation":  # the standing order as it is, and one compact entry: any order (R9.4, R9.5)
        party = [names[u] for u in b.party[p]]
        return [{"type": "formation", "order": party},
                {"type": "formation", "choose": "order", "fill": "order", "from": list(party)}]
    return list(b.listed) if b.listed is not None else fight_actions(s)


def act(s, p, a, ev):
    """Apply a battle action already checked against legal()."""
    t = a["type"]
    idx = s.static.index
    if t == "quick_summon":
        apply_quick(s, p, [idx[c] for c in a["cards"]], ev)
    elif t == "formation":
        apply_formation(s, p, [idx[u] for u in a["order"]], ev)
    elif t == "pass":
        pass_(s, p, ev)
    else:
        declare(s, p, a, ev)
    advance(s, ev)


def advance(s, ev):
    """Move on by itself wherever the waiting player has no choice (R9.6, R10.7)."""
    while s.result is None and s.battle is not None:
        b = s.battle
        if b.step == "quick":
            found = quick_candidates(s, b.step_player)
            if found[0]:
                b.listed = found  # the state is published as it is now: legal() need not look again
                return
            b.step = "formation"
        elif b.step == "formation":
            if formation_needed(s, b.step_player):
                return
            next_step(s)
        elif b.step == "initiative":
            initiative(s, ev)
        else:
            options = fight_actions(s)
            if len(options) > 1:
                b.listed = options  # as above
                return
            p = waiting(s)
            a = options[0]
            if a["type"] == "pass":
                pass_(s, p, ev)
            else:
                declare(s, p, a, ev)


def end(s, ev):
    """R14: outcome, returns, exhaustion, refill; then the over-capacity choice if any (R8.8)."""
    b = s.battle
    att = b.attacker
    names = s.static.names
    survivors = b.party[att]
    success = not b.party[1 - att] and bool(survivors)
    for u in survivors:
        allowed = 2 if s.static.cards[u].double_march and u not in b.quick else 1
        if u in b.quick or s.marches.get(u, 0) >= allowed:
            s.exhausted.add(u)  # R8.9
    for u in b.quick:
        if u in b.party[1 - att]:
            s.exhausted.add(u)  # R6.4
    returned = []
    if success:
        s.set_owner(b.land, att)
    else:
        for u in survivors:
            dest = b.main_origin if u in b.quick else b.origin[u]
            s.place(u, dest)
            returned.append((names[u], s.land_name(dest)))
        s.failed = s.failed | {b.land}  # R8.7
    s.battle = None
    s.phase = "main"
    ev.append({"type": "battle_ended", "land": s.land_name(b.land), "attacker": att,
               "success": success, "returned": [{"unit": u, "land": where} for u, where in returned]})
    if success:
        ev.append({"type": "land_taken", "player": att, "land": s.land_name(b.land)})
    for p in (att, 1 - att):
        if b.killed_leader[p]:
            ev.append({"type": "refill", "player": p})  # R15
            effects.draw_to(s, p, ev)
    if not success:
        lands = sorted({b.origin[u] for u in survivors if u not in b.quick} |
                       ({b.main_origin} if any(u in b.quick for u in survivors) else set()))
        s.pending = tuple(land for land in lands if s.level_on(land, att) > s.static.capacity[land])
        if s.pending:
            s.phase = "over_capacity"
