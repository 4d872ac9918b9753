"""Running effects: damage, boosts, destruction and its triggers, drawing, the end of the game."""

from . import stats

HAND_LIMIT = 6  # R6.6


def draw_to(s, p, ev, limit=HAND_LIMIT):
    """Draw until the hand holds `limit` cards or the draw pile is empty (R1.2, R6.2)."""
    deck, hand = s.deck[p], s.hand[p]
    n = 0
    while len(hand) < limit and deck:
        hand.append(deck.pop())
        n += 1
    if n:
        ev.append({"type": "drew", "player": p, "count": n})
    return n


def draw(s, p, count, ev):
    """Draw up to `count` cards, never past the hand limit."""
    return draw_to(s, p, ev, min(HAND_LIMIT, len(s.hand[p]) + count))


def unit_event(s, kind, u, **extra):
    ev = {"type": kind, "unit": s.static.names[u], "card": s.static.cards[u].id,
          "owner": s.static.owner[u]}
    ev.update(extra)
    return ev


def check_game_end(s, ev):
    """R1.1 / R1.5: the game ends the moment a side has no leader left."""
    if s.result is not None or s.phase == "leaders":
        return s.result is not None
    lost = [p for p in (0, 1) if not s.leaders_alive(p)]
    if not lost:
        return False
    if len(lost) == 2:
        finish(s, None, "draw", ev)
    else:
        finish(s, 1 - lost[0], "leaders", ev)
    return True


def finish(s, winner, reason, ev):
    s.result = {"winner": winner, "reason": reason}
    s.phase = "over"
    ev.append({"type": "game_over", "winner": winner, "reason": reason})


def remove_unit(s, u):
    """Take a unit off the board and out of any battle party."""
    del s.land[u]
    s.exhausted.discard(u)
    s.marches.pop(u, None)
    b = s.battle
    if b is not None:
        p = s.static.owner[u]
        if u in b.party[p]:
            b.party[p].remove(u)


def forget(b, u):
    """A unit that left the battle for the hand is a new card there: drop its battle state."""
    b.damage.pop(u, None)
    b.acted.discard(u)
    if u in b.quick:
        b.quick.remove(u)
    if u in b.boosts or u in b.granted or u in b.negated or u in b.tribe or u in b.level:
        b.boosts = {k: v for k, v in b.boosts.items() if k != u}
        b.granted = {k: v for k, v in b.granted.items() if k != u}
        b.tribe = {k: v for k, v in b.tribe.items() if k != u}
        b.level = {k: v for k, v in b.level.items() if k != u}
        b.negated = b.negated - {u}


def destroy(s, units, ev, reason):
    """Destroy units as one batch (R10.4, R13.8): to the discard pile, then [On destroy] triggers."""
    units = [u for u in dict.fromkeys(units) if u in s.land]
    if not units:
        return
    b = s.battle
    owner = s.static.owner
    arrival = s.arrival_order()
    pos = {u: i for side in (0, 1) for i, u in enumerate(b.party[side])} if b is not None else {}
    order = sorted(units, key=lambda u: (owner[u] != s.active, owner[u], pos.get(u, 99), arrival[u]))
    fell = []
    for u in units:
        p = owner[u]
        land = s.land[u]
        leader = u in s.leaders
        remove_unit(s, u)
        s.discard[p].append(u)
        if leader:
            fell.append(u)
        if b is not None:
            b.fallen = (b.fallen[0] + (u,), b.fallen[1]) if p == 0 else (b.fallen[0], b.fallen[1] + (u,))
            if leader:
                b.killed_leader = (True, b.killed_leader[1]) if p == 1 else (b.killed_leader[0], True)  # R15.1, R15.5
        ev.append(unit_event(s, "destroyed", u, leader=leader, land=s.land_name(land), reason=reason))
    if fell:
        # R5.5: a destroyed leader stays destroyed. Its card leaves the leaders here, so if a [March]
        # summon from the discard pile brings it back (R13.5), that unit is an ordinary monster for
        # every rule (R1.1, R8.8, R9.5, R9.6, R13.7, R15) and in the view.
        s.leaders = s.leaders - frozenset(fell)
    if check_game_end(s, ev):
        return  # R1.6: nothing further resolves
    if b is not None and b.simultaneous:
        return  # R10.9: no [On destroy] in a simultaneous attack
    for u in order:
        card = s.static.cards[u]
        if not card.on_destroy or (b is not None and u in b.negated):
            continue
        for ab in card.on_destroy:
            ev.append(unit_event(s, "triggered", u, timing="on_destroy"))
            run(s, ab.effects, u, owner[u], (), False, ev)
            if s.result is not None:
                return


def settle(s, ev):
    """After a resolution: recompute [Battle] values; any unit at 0 life is destroyed (R10.4, R10.10)."""
    b = s.battle
    while b is not None and s.result is None:
        au = stats.auras(s)
        dead = [u for side in (0, 1) for u in b.party[side] if stats.life(s, u, au) <= 0]
        if not dead:
            return
        destroy(s, dead, ev, "life")


def affected(s, units, is_spell):
    """R12.11: a spell does nothing to Spellproof units."""
    if not is_spell:
        return units
    cards = s.static.cards
    return [u for u in units if not cards[u].spellproof]


def run(s, effects, src, side, targets, is_spell, ev, decl=None, batch=None):
    """Run a list of effects for `side`; with `batch` (strike triggers, R9.8, R1.6) units destroyed
    by an effect are collected there, and damage destroys nothing: the caller checks lives after all."""
    b = s.battle
    names = s.static.names
    for e in effects:
        if s.result is not None:
            return
        op = e.op
        if op == "draw":
            draw(s, side, e.count, ev)
            continue
        if op == "cancel_spell":
            target = b.chain[decl["on"]]
            b.chain[decl["on"]] = dict(target, cancelled=True)
            ev.append({"type": "cancelled", "player": side, "card": target["card_id"], "index": decl["on"]})
            continue
        if b is None:
            continue  # battle effects do nothing outside a battle (e.g. over-capacity [On destroy])
        units = affected(s, stats.select(s, e.to, src, side, targets), is_spell)
        if op == "damage":
            n = stats.amount(s, e.amount, src, side, targets)
            if n <= 0 or not units:
                continue
            au = stats.auras(s)
            dead = []
            for u in units:  # assigned as a whole, no carry-over (R12.8)
                b.damage[u] = b.damage.get(u, 0) + n
                left = stats.life(s, u, au)
                ev.append({"type": "damage", "unit": names[u], "amount": n, "life": max(0, left)})
                if left <= 0:
                    dead.append(u)
            if batch is None:  # in a batch, lives are checked once, after all of it (R1.6)
                destroy(s, dead, ev, "effect")
        elif op == "boost":
            dp = stats.amount(s, e.power, src, side, targets)
            dl = stats.amount(s, e.life, src, side, targets)
            ds = stats.amount(s, e.speed, src, side, targets)
            for u in units:
                p0, l0, s0 = b.boosts.get(u, (0, 0, 0))
                b.boosts = {**b.boosts, u: (p0 + dp, l0 + dl, s0 + ds)}
                ev.append({"type": "boosted", "unit": names[u], "power": dp, "life": dl, "speed": ds})
        elif op == "grant_slots":
            for u in units:
                b.granted = {**b.granted, u: b.granted.get(u, ()) + tuple(sorted(e.slots.items()))}
                ev.append({"type": "slots_granted", "unit": names[u], "slots": dict(e.slots)})
        elif op == "negate":
            for u in units:
                b.negated = b.negated | {u}
                ev.append({"type": "negated", "unit": names[u]})
        elif op == "set_tribe":
            for u in units:
                b.tribe = {**b.tribe, u: e.tribe}
                ev.append({"type": "tribe_changed", "unit": names[u], "tribe": e.tribe})
        elif op == "change_level":
            for u in units:
                b.level = {**b.level, u: b.level.get(u, 0) + e.by}
                ev.append({"type": "level_changed", "unit": names[u], "by": e.by, "level": stats.level(s, u)})
        elif op == "return_to_hand":
            for u in units:
                if u in s.leaders:
                    continue  # R13.7
                p = s.static.owner[u]
                remove_unit(s, u)
                forget(b, u)
                full = len(s.hand[p]) >= HAND_LIMIT
                (s.discard if full else s.hand)[p].append(u)  # R6.6
                if not full:
                    s.shown = s.shown | {u}  # both saw it go back: public while it stays in hand
                ev.append(unit_event(s, "returned", u, to="discard" if full else "hand"))
        elif op == "destroy":
            if batch is not None:
                batch.extend(units)
            else:
                destroy(s, units, ev, "effect")
