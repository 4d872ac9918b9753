"""Values of units in battle: printed values, temporary effects and [Battle] continuous effects.

Continuous effects are computed from the current state whenever they are read, so they are always
those of the latest resolution (R10.10 is kept by the attack code fixing lives before it assigns
damage). In a simultaneous attack every [Battle] modifier is off (R10.9).
"""

from .carddefs import Amount


def matches(s, u, f):
    """Whether unit u passes filter f (tribe and level as changed in this battle, R12.12)."""
    card = s.static.cards[u]
    if f.card is not None and card.id != f.card:
        return False
    if f.kind is not None and card.kind != f.kind:
        return False
    if f.elements is not None and card.element not in f.elements:
        return False
    if f.leader is not None and (u in s.leaders) != f.leader:
        return False
    if f.tribes is not None and tribe(s, u) not in f.tribes:
        return False
    if f.max_level is not None or f.min_level is not None:
        lv = level(s, u)
        if f.max_level is not None and lv > f.max_level:
            return False
        if f.min_level is not None and lv < f.min_level:
            return False
    return True


def card_matches(card, f):
    """Whether a card in hand or discard passes filter f (printed values)."""
    if f.card is not None and card.id != f.card:
        return False
    if f.kind is not None and card.kind != f.kind:
        return False
    if card.kind != "monster":
        return f.kind == "spell" and (f.elements is None or card.element in f.elements)
    if f.elements is not None and card.element not in f.elements:
        return False
    if f.tribes is not None and card.tribe not in f.tribes:
        return False
    if f.max_level is not None and card.level > f.max_level:
        return False
    if f.min_level is not None and card.level < f.min_level:
        return False
    return f.leader is not True


def tribe(s, u):
    b = s.battle
    if b is not None and u in b.tribe:
        return b.tribe[u]
    return s.static.cards[u].tribe


def level(s, u):
    """Level for conditions (R12.12); capacity always uses the printed level."""
    b = s.battle
    lv = s.static.cards[u].level
    if b is not None and u in b.level:
        lv = max(0, lv + b.level[u])
    return lv


def select(s, sel, src, side, targets=()):
    """The living battle units a selector names, seen from `side` (the source's side)."""
    b = s.battle
    name = sel.name
    if b is None:
        return []
    if name == "self":
        units = [src] if src is not None and src in b.party[side] else []
    elif name == "chosen":
        units = [t for t in targets if t in b.party[0] or t in b.party[1]]
    elif name == "allies":
        units = b.party[side][:]
    elif name == "other_allies":
        units = [u for u in b.party[side] if u != src]
    elif name == "enemies":
        units = b.party[1 - side][:]
    elif name == "all":
        units = b.party[side] + b.party[1 - side]
    else:
        party = b.party[side if name.startswith("ally") else 1 - side]
        if not party:
            return []
        units = [party[0] if name.endswith("front") else party[-1]]
    f = sel.filter
    if f.tribes is None and f.elements is None and f.max_level is None and f.min_level is None \
            and f.leader is None and f.card is None and f.kind is None:
        return units
    return [u for u in units if matches(s, u, f)]


def amount(s, a, src, side, targets=()):
    """Evaluate an Amount (an int, or a count of units or fallen units)."""
    if not isinstance(a, Amount):
        return a
    if a.count is not None:
        n = len(select(s, a.count, src, side, targets))
    else:
        b = s.battle
        fallen = [] if b is None else (b.fallen[side] if a.fallen == "allies" else
                                       b.fallen[1 - side] if a.fallen == "enemies" else b.fallen[0] + b.fallen[1])
        f = a.fallen_filter
        n = sum(1 for u in fallen if card_matches(s.static.cards[u], f) and
                (f.leader is None or (u in s.leaders) == f.leader))
    return a.plus + a.times * n


def condition_holds(s, c, src, side):
    if c is None:
        return True
    if c.role is not None and (s.battle.attacker == side) != (c.role == "attacker"):
        return False
    if c.amount is not None:
        n = amount(s, c.amount, src, side)
        if c.at_least is not None and n < c.at_least:
            return False
        if c.at_most is not None and n > c.at_most:
            return False
    return True


class Auras:
    """The [Battle] continuous effects in force now."""

    __slots__ = ("bonus", "slots", "lock", "quick")

    def __init__(self):
        self.bonus = {}          # unit -> [power, life, speed]
        self.slots = ({}, {})    # side -> {slot kind: n}
        self.lock = False        # R12.10
        self.quick = ([], [])    # side -> filters of extra quick summons (R9.3)


_NO_AURAS = Auras()


def auras(s):
    """The [Battle] effects in force now (read-only: one object may answer several calls). Worked out
    again only when what they are made of changed: the parties and their order, negations, tribes
    and levels changed in this battle, the fallen, the leaders, the card data (``Battle.memo`` keeps
    the last; those values are replaced, never changed in place, when they change)."""
    b = s.battle
    if b is None or b.simultaneous:
        return _NO_AURAS  # R10.9
    p0, p1 = b.party
    key = (tuple(p0), tuple(p1), b.negated, b.tribe, b.level, b.fallen, s.leaders, s.static)
    memo = b.memo
    if memo is not None and memo[0] == key:
        return memo[1]
    out = _auras(s, b)
    b.memo = (key, out)
    return out


def _auras(s, b):
    out = None
    cards = s.static.cards
    for side in (0, 1):
        for u in b.party[side]:
            card = cards[u]
            if not card.battle or u in b.negated:
                continue
            for ab in card.battle:
                if not condition_holds(s, ab.condition, u, side):
                    continue
                if out is None:
                    out = Auras()
                for e in ab.effects:
                    op = e.op
                    if op == "boost":
                        for t in select(s, e.to, u, side):
                            v = out.bonus.setdefault(t, [0, 0, 0])
                            v[0] += amount(s, e.power, u, side)
                            v[1] += amount(s, e.life, u, side)
                            v[2] += amount(s, e.speed, u, side)
                    elif op == "grant_slots":
                        n = len(select(s, e.to, u, side))
                        pool = out.slots[side]
                        for k, v in e.slots.items():
                            pool[k] = pool.get(k, 0) + v * n
                    elif op == "spell_lock":
                        out.lock = True
                    elif op == "allow_quick_summon":
                        out.quick[side].append(e.filter)
    return out or _NO_AURAS


POWER, LIFE, SPEED = 0, 1, 2  # positions in boosts and aura bonuses


def modified(s, u, base, stat, au=None):
    """A printed value plus this battle's boosts and [Battle] bonuses for it."""
    b = s.battle
    if b is None or (b.simultaneous and stat != SPEED):  # R10.9 (speed was spent before the tie)
        return base
    if u in b.boosts:
        base += b.boosts[u][stat]
    au = au or auras(s)
    if u in au.bonus:
        base += au.bonus[u][stat]
    return base


def power(s, u, au=None):
    """Current power; it may be below 0 (R10.2: such a participant adds 0 to an attack)."""
    return modified(s, u, s.static.cards[u].power, POWER, au)


def max_life(s, u, au=None):
    """Maximum life now (R14.4: life boosts raise current and maximum together)."""
    return modified(s, u, s.static.cards[u].life, LIFE, au)


def life(s, u, au=None):
    b = s.battle
    dmg = b.damage.get(u, 0) if b is not None else 0
    return max_life(s, u, au) - dmg


def speed(s, u, au=None):
    """Current speed: what the initiative roll adds (R9.7)."""
    return modified(s, u, s.static.cards[u].speed, SPEED, au)


def slots(s, side, au=None):
    """The side's current slot pool {kind: n} (R12.3, R12.5): living members with abilities."""
    b = s.battle
    cards = s.static.cards
    pool = {}
    for u in b.party[side]:
        if u in b.negated:
            continue
        for k, v in cards[u].slots.items():
            pool[k] = pool.get(k, 0) + v
        for k, v in b.granted.get(u, ()):
            pool[k] = pool.get(k, 0) + v
    au = au or auras(s)
    for k, v in au.slots[side].items():
        pool[k] = pool.get(k, 0) + v
    return pool


def payment(s, side, element, mana, au=None):
    """How a spell would be paid now: (element slots, wild slots), or None (R12.2, R12.3).

    Free slots of a kind are the pool's current total minus what was used from it, never below 0;
    element slots are taken first, then wild. A lost element slot never reduces the wild pool."""
    pool = slots(s, side, au)
    used = s.battle.used[side]
    free_e = max(0, pool.get(element, 0) - used.get(element, 0))
    free_w = max(0, pool.get("wild", 0) - used.get("wild", 0))
    pay_e = min(mana, free_e)
    pay_w = mana - pay_e
    if pay_w > free_w:
        return None
    return pay_e, pay_w


def unresolved_spells(s, side, d):
    """The spell declaration d and the side's spells still waiting on the chain (they hold slots)."""
    return [d] + [x for x in s.battle.chain if x["kind"] == "spell" and x["player"] == side]


def slots_still_there(s, d):
    """R12.5 [decided]: the spell d resolves only if its side's current slots of its element plus
    current wild slots cover the slots held by the unresolved spells of that element (d included)
    plus the wild slots held by unresolved spells of other elements. Resolved spells hold nothing."""
    side, element = d["player"], d["element"]
    pool = slots(s, side)
    need = 0
    for x in unresolved_spells(s, side, d):
        pay_e, pay_w = x["paid"]
        need += pay_e + pay_w if x["element"] == element else pay_w
    return pool.get(element, 0) + pool.get("wild", 0) >= need


def shortfall_to_wild(s, d):
    """R12.5: a spell resolving with its element slots short takes the shortfall from free wild
    slots, where there are any; they count as used from then on. Returns how many it took."""
    side, element = d["player"], d["element"]
    pool = slots(s, side)
    held = sum(x["paid"][0] for x in unresolved_spells(s, side, d) if x["element"] == element)
    short = min(d["paid"][0], max(0, held - pool.get(element, 0)))
    used = s.battle.used[side]
    take = min(short, max(0, pool.get("wild", 0) - used.get("wild", 0)))
    if take:
        b = s.battle
        new = dict(used, wild=used.get("wild", 0) + take)
        b.used = (new, b.used[1]) if side == 0 else (b.used[0], new)
    return take
