"""Every ability of every monster of the pool changes a game, and the change is observed.

The cases are made from the card data at import time (`load_pool()`), one scenario per ability (per
choice of a choose-one, per side of a coin), by a generic harness keyed by the ability's timing:

- [Normal] (R11.1): the card is a non-leader in player 0's attacking party, which strikes first; the
  targets it needs are built from its target filter (plus a "misfit" that fails the filter and must
  not be offered), a sacrifice ally when it has a cost (R11.8), allies matching what its amounts
  count, fallen units when its amounts count the fallen. It declares, player 1 lets it through.
- [Counter] (R11.2): the card defends as player 1; player 0 declares what it answers (a spell, the
  attack, or an ability: `respond_to`), the card responds, the chain resolves.
- [Battle] (R10.9, R9.3, R12.10): the fight-step view of a battle with the card is compared with the
  same battle where the card is a "twin" that lacks only that ability; with the ability's condition
  met (tribes counted, role, fallen units) the difference is the effect, with it unmet there is none.
- strikes first / strikes second (R9.8): dice are searched so that the card's side strikes first,
  then second; the trigger fires one way only, and its effect is the difference.
- [On destroy] (R13.8): the card defends at the front and a big attacker destroys it.
- [March] (R13.5): the card stands on L1 in the main step and summons what its filter allows (and
  not a "decoy" that fails the filter, nor a matching "stray" in the wrong zone), with and without Haste.

Beside those: an ability with a sacrifice cost also resolves when its user is destroyed in response
(R11.8), and the keywords of monsters with abilities still work on them (R13.1).

What an effect should do is worked out by `Model`, a small reading of docs/cards.md and the rules,
from the view right before the ability acts (not from the engine's code); the events of its
resolution must be exactly the model's, and the view afterwards must show the model's values.

Board: L1 road 6, L2 road 6, L3 rearworld 8, L4 swamp 4, L5 rearworld 8, L6 road 6; bases 5. Battles
are player 0's party from L3 attacking player 1's party on L5; both leaders ("boss") wait at home.
Dice are the attacker's die first, then the defender's; a coin is the next die (odd: heads, R11.9).
Every party carries a "pinger" ([Normal] ability) so that the engine never takes a player's only
choice by itself (R10.7) while a case looks.
"""

import copy

import pytest

from tests.engine.helpers import card, do, events_of, scenario, unit
from webapp.engine import choices, load_pool
from webapp.engine.carddefs import ANY, ELEMENTS, Amount, default_cards_dir

POOL = load_pool()
LANDS = {"L1": "road", "L2": "road", "L3": "rearworld", "L4": "swamp", "L5": "rearworld", "L6": "road"}
ADJACENT_TO_L1 = {"H0", "L2", "L3", "L4"}  # R4.2
HAND_LIMIT = 6  # R6.6


def plain(**fields):
    """A harness card: a tribe no pool filter asks for unless a case sets it (element: fire)."""
    return card(**{"tribe": "Tester", "power": 1, "life": 10, **fields})


BASE_CARDS = {
    "boss": plain(),
    "tank": plain(slots={"earth": 1}),
    "wall": plain(life=30),
    "hammer": plain(power=12),
    "filler": plain(),
    "mage": plain(life=6, slots={"fire": 3}),
    # keeps its side's window open (R10.7); its declaration is also what an ability counter answers
    "pinger": plain(life=6, abilities=[
        {"timing": "normal", "effects": [{"do": "damage", "to": "enemy_front", "amount": 1}]}]),
    # kills a unit before a case looks, for abilities that count the fallen
    "sniper": plain(life=6, abilities=[
        {"timing": "normal", "target": {"side": "any"},
         "effects": [{"do": "damage", "to": "chosen", "amount": 9}]}]),
    # could answer anything: shows that an unrespondable declaration is not answered (R11.6)
    "responder": plain(life=6, abilities=[
        {"timing": "counter", "effects": [{"do": "boost", "to": "self", "life": 1}]}]),
    # destroys the user of a sacrifice ability in response (R11.8)
    "assassin": plain(life=6, abilities=[
        {"timing": "counter", "target": {"side": "enemy"}, "effects": [{"do": "destroy", "to": "chosen"}]}]),
}
SPELL = "fireball"  # 1 fire mana: 3 damage to the enemy front one
# what player 0 declares for a [Counter] of player 1 to answer, by `respond_to` ("any": an ability)
TRIGGERS = {"spell": {"type": "spell", "card": "sp", "targets": []}, "attack": {"type": "attack"},
            "ability": {"type": "ability", "unit": "pg0", "targets": []}}

EFFECT_EVENTS = ("damage", "boosted", "slots_granted", "negated", "tribe_changed", "level_changed",
                 "returned", "destroyed", "drew", "cancelled")


def norm(e):
    """The part of an effect event a case compares."""
    t = e["type"]
    if t == "damage":
        return (t, e["unit"], e["amount"], e["life"])
    if t == "boosted":
        return (t, e["unit"], e["power"], e["life"], e["speed"])
    if t == "slots_granted":
        return (t, e["unit"], tuple(sorted(e["slots"].items())))
    if t == "negated":
        return (t, e["unit"])
    if t == "destroyed":
        return (t, e["unit"], e["reason"])
    if t == "tribe_changed":
        return (t, e["unit"], e["tribe"])
    if t == "level_changed":
        return (t, e["unit"], e["level"])
    if t == "returned":
        return (t, e["unit"], e["to"])
    if t == "drew":
        return (t, e["player"], e["count"])
    return (t, e["card"])  # cancelled


def effect_events(events):
    return [norm(e) for e in events if e["type"] in EFFECT_EVENTS]


def card_data(cards, cid):
    return cards[cid] if cid in cards else POOL[cid].data


def waiting(g):
    (w,) = g.waiting_for()
    return w


def settle_chain(g):
    """Everyone passes until the chain is empty."""
    ev = []
    while g.view()["battle"] is not None and g.view()["battle"]["chain"]:
        ev += do(g, waiting(g), "pass")
    return ev


def dice_pairs(first):
    """All initiative dice, the likeliest to make `first` strike first coming first."""
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    return sorted(pairs, key=lambda p: (p[1] - p[0]) if first == 0 else (p[0] - p[1]))


# ------------------------------------------------------------------------------------ the table

class Table:
    """A battle to build: the parties (front first), hands, decks, and units to kill first."""

    def __init__(self):
        self.cards = copy.deepcopy(BASE_CARDS)
        self.party = ([], [])            # [(unit id, card id)]
        self.hand = ([], [])
        self.discard = ([], [])
        self.deck = tuple([(f"d{p}{i}", "filler") for i in range(5)] for p in (0, 1))
        self.victims = []                # (victim, sniper): player 0's sniper kills the victim first
        self.quick = ([], [])            # cards to quick summon when offered
        self.quick_seen = [set(), set()]
        self._n = 0

    def new(self, **fields):
        self._n += 1
        cid = f"c{self._n}"
        self.cards[cid] = plain(**fields)
        return cid

    def uid(self, side, prefix=None):
        self._n += 1
        return f"{prefix or ('a' if side == 0 else 'b')}{self._n}"

    def add(self, side, cid, uid=None):
        uid = uid or self.uid(side)
        self.party[side].append((uid, cid))
        return uid

    def ids(self, side):
        return [u for u, _ in self.party[side]]

    def fit(self, f, **extra):
        """A card that passes filter f (printed values)."""
        if f.card is not None:
            return f.card
        if f.leader or f.kind == "spell":
            raise NotImplementedError("the harness builds no leader or spell to match a filter")
        fields = {"slots": {"earth": 1}}
        if f.tribes:
            fields["tribe"] = sorted(f.tribes)[0]
        if f.elements:
            fields["element"] = sorted(f.elements)[0]
        level = f.max_level if f.max_level is not None else (f.min_level or 1)
        if level < 1 or (f.min_level is not None and level < f.min_level):
            raise NotImplementedError(f"no monster level fits {f.min_level}..{f.max_level}")
        fields["level"] = level
        fields.update(extra)
        return self.new(**fields)

    def misfit(self, f, **extra):
        """A card that fails filter f on one point, or None when f asks for nothing we can break."""
        base = {"level": f.max_level if f.max_level is not None else (f.min_level or 1), **extra}
        if f.tribes:
            return self.new(**{**base, "tribe": "Tester"})
        if f.elements:
            return self.new(**{**base, "element": next(e for e in ELEMENTS if e not in f.elements)})
        if f.max_level is not None:
            return self.new(**{**base, "level": f.max_level + 1})
        if f.min_level is not None and f.min_level > 1:
            return self.new(**{**base, "level": f.min_level - 1})
        return None

    def victim(self, side, f):
        """A frail unit matching f on `side`, killed by a sniper of player 0 before the case looks."""
        v = self.add(side, self.fit(f, life=1), self.uid(side, "v"))
        s = self.add(0, "sniper", self.uid(0, "s"))
        self.victims.append((v, s))
        return v

    def build(self, dice):
        players = []
        for side in (0, 1):
            land = "L3" if side == 0 else "L5"
            units = [unit("boss", "H0" if side == 0 else "H1", "a0" if side == 0 else "b0", leader=True)]
            units += [unit(c, land, u) for u, c in self.party[side]]
            players.append({"units": units,
                            "hand": [{"card": c, "id": i} for i, c in self.hand[side]],
                            "deck": [{"card": c, "id": i} for i, c in self.deck[side]],
                            "discard": [{"card": c, "id": i} for i, c in self.discard[side]]})
        return scenario(players[0], players[1], cards=self.cards, dice=list(dice), lands=dict(LANDS))

    def start(self, dice):
        """Player 0's party marches from L3 into L5; quick summons and formations as the table says."""
        g = self.build(dice)
        ev = do(g, 0, {"type": "march", "units": self.ids(0), "to": "L5"})
        self.quick_seen = [set(), set()]
        joined = {0: [], 1: []}
        while g.view()["battle"] is not None and g.view()["battle"]["step"] in ("quick", "formation"):
            w = waiting(g)
            if g.view()["battle"]["step"] == "quick":
                offered = [a for a in g.legal_actions(w) if a["type"] == "quick_summon" and choices.is_compact(a)]
                self.quick_seen[w] = {c for a in offered for c in a["from"]}
                want = [c for c in self.quick[w] if c in self.quick_seen[w]]
                joined[w] = want if any(choices.fits(a, want) for a in offered) else []
                ev += do(g, w, {"type": "quick_summon", "cards": joined[w]})
            else:
                ev += do(g, w, {"type": "formation", "order": joined[w] + self.ids(w)})
        return g, ev

    def fight(self, first=0, more_dice=()):
        """The fight step with `first` striking first (dice searched), after the snipers' kills."""
        for a, b in dice_pairs(first):
            g, ev = self.start([a, b, *more_dice])
            init = events_of(ev, "initiative")
            b_ = g.view()["battle"]
            if init and init[0]["first"] == first and b_ is not None and b_["step"] == "fight":
                break
        else:
            raise AssertionError(f"no dice let player {first} strike first")
        for v, s in self.victims:
            assert waiting(g) == 0
            ev += do(g, 0, {"type": "ability", "unit": s, "targets": [v]})
            ev += settle_chain(g)
            assert v in [e["unit"] for e in events_of(ev, "destroyed")], f"victim {v} survived"
        return g, ev


# ------------------------------------------------------------------------------------ the model

class Model:
    """What a list of effects does by docs/cards.md and the rules, worked out on a view of a battle."""

    def __init__(self, g, cards):
        v = g.view()
        b = v["battle"]
        self.cards = cards
        self.attacker = b["attacker"]
        self.party = {int(k): list(ids) for k, ids in b["parties"].items()}
        self.units = {u["id"]: dict(u) for u in v["units"]}
        self.lv_delta = {}
        self.fallen = {int(k): list(ids) for k, ids in b["fallen"].items()}
        self.hand = [p["hand_count"] for p in v["players"]]
        self.deck = [p["deck_count"] for p in v["players"]]
        self.slots = {int(k): {kind: d["total"] for kind, d in s.items()} for k, s in b["slots"].items()}
        self.negated = set(b["negated"])
        self.events = []
        self.touched = set()       # (unit, field) whose value the effects set
        self.slot_touched = set()  # (side, kind)
        self.gone = {}             # unit -> "hand" | "discard"

    # -- reading
    def data(self, uid):
        return card_data(self.cards, self.units[uid]["card"])

    def matches(self, uid, f):
        u, c = self.units[uid], self.data(uid)
        if f.card is not None and u["card"] != f.card:
            return False
        if f.kind is not None and f.kind != "monster":
            return False
        if f.elements is not None and c["element"] not in f.elements:
            return False
        if f.leader is not None and u["leader"] != f.leader:
            return False
        if f.tribes is not None and u["tribe"] not in f.tribes:
            return False
        if f.max_level is not None and u["level"] > f.max_level:
            return False
        return f.min_level is None or u["level"] >= f.min_level

    def fallen_matches(self, cid, f):
        """A destroyed card against a filter: printed values; the harness never kills leaders."""
        c = card_data(self.cards, cid)
        return ((f.card is None or cid == f.card) and (f.kind in (None, "monster"))
                and (f.elements is None or c["element"] in f.elements)
                and (f.tribes is None or c["tribe"] in f.tribes)
                and (f.max_level is None or c["level"] <= f.max_level)
                and (f.min_level is None or c["level"] >= f.min_level) and not f.leader)

    def select(self, sel, src, side, targets=()):
        name = sel.name
        mine, theirs = self.party[side], self.party[1 - side]
        if name == "self":
            units = [src] if src in mine else []
        elif name == "chosen":
            units = [t for t in targets if t in mine or t in theirs]
        elif name == "allies":
            units = list(mine)
        elif name == "other_allies":
            units = [u for u in mine if u != src]
        elif name == "enemies":
            units = list(theirs)
        elif name == "all":
            units = list(mine) + list(theirs)
        else:  # R9.4: the single front or rear one, then filtered (docs/cards.md)
            party = mine if name.startswith("ally") else theirs
            units = ([party[0]] if name.endswith("front") else [party[-1]]) if party else []
        return [u for u in units if self.matches(u, sel.filter)]

    def amount(self, a, src, side, targets=()):
        if not isinstance(a, Amount):
            return a
        if a.count is not None:
            n = len(self.select(a.count, src, side, targets))
        else:
            fallen = {"allies": self.fallen[side], "enemies": self.fallen[1 - side],
                      "all": self.fallen[0] + self.fallen[1]}[a.fallen]
            n = sum(1 for c in fallen if self.fallen_matches(c, a.fallen_filter))
        return a.plus + a.times * n

    def holds(self, c, src, side):
        if c is None:
            return True
        if c.role is not None and (side == self.attacker) != (c.role == "attacker"):
            return False
        if c.amount is not None:
            n = self.amount(c.amount, src, side)
            if c.at_least is not None and n < c.at_least:
                return False
            if c.at_most is not None and n > c.at_most:
                return False
        return True

    # -- changing
    def set(self, uid, field, value):
        self.units[uid][field] = value
        self.touched.add((uid, field))

    def remove(self, uid, where):
        owner = self.units[uid]["owner"]
        if uid in self.party[owner]:
            self.party[owner].remove(uid)
        self.gone[uid] = where

    def destroy(self, units, reason):
        """A batch of destructions (R10.4), then their [On destroy] (R13.8): active player's first."""
        units = [u for u in dict.fromkeys(units) if u not in self.gone]
        pos = {u: i for side in (0, 1) for i, u in enumerate(self.party[side])}
        order = sorted(units, key=lambda u: (self.units[u]["owner"], pos.get(u, 99)))
        for u in units:
            self.remove(u, "discard")
            self.fallen[self.units[u]["owner"]].append(self.units[u]["card"])
            self.events.append(("destroyed", u, reason))
        for u in order:
            cid = self.units[u]["card"]
            if cid in POOL and u not in self.negated:
                for ab in POOL[cid].on_destroy:
                    self.run(ab.effects, u, self.units[u]["owner"])

    def run(self, effects, src, side, targets=(), batch=False, reason="effect", answering=None):
        """Run effects for `side`; with `batch` (strike triggers, R9.8) destructions wait for the end."""
        dead = []
        for e in effects:
            op = e.op
            if op == "draw":
                n = min(e.count, HAND_LIMIT - self.hand[side], self.deck[side])
                if n:
                    self.events.append(("drew", side, n))
                    self.hand[side] += n
                    self.deck[side] -= n
                continue
            if op == "cancel_spell":
                self.events.append(("cancelled", answering))
                continue
            units = self.select(e.to, src, side, targets)
            if op == "damage":
                n = self.amount(e.amount, src, side, targets)
                if n <= 0 or not units:
                    continue
                killed = []
                for u in units:  # each one takes the whole amount, no carry-over (R12.8)
                    left = self.units[u]["life"] - n
                    self.set(u, "life", left)
                    self.events.append(("damage", u, n, max(0, left)))
                    if left <= 0:
                        killed.append(u)
                if batch:
                    dead += killed
                else:
                    self.destroy(killed, reason)
            elif op == "boost":
                dp, dl, ds = (self.amount(getattr(e, k), src, side, targets) for k in ("power", "life", "speed"))
                for u in units:  # life boosts raise current and maximum together (R14.4)
                    for field, d in (("power", dp), ("max_life", dl), ("life", dl), ("speed", ds)):
                        self.set(u, field, self.units[u][field] + d)
                    self.events.append(("boosted", u, dp, dl, ds))
            elif op == "grant_slots":
                for u in units:
                    owner = self.units[u]["owner"]
                    for kind, n in e.slots.items():
                        self.slots[owner][kind] = self.slots[owner].get(kind, 0) + n
                        self.slot_touched.add((owner, kind))
                    self.events.append(("slots_granted", u, tuple(sorted(e.slots.items()))))
            elif op == "negate":
                for u in units:  # it loses its abilities and its slots (docs/cards.md)
                    owner = self.units[u]["owner"]
                    if u not in self.negated:
                        for kind, n in self.data(u)["slots"].items():
                            self.slots[owner][kind] -= n
                            self.slot_touched.add((owner, kind))
                    self.negated.add(u)
                    self.events.append(("negated", u))
            elif op == "set_tribe":
                for u in units:
                    self.set(u, "tribe", e.tribe)
                    self.events.append(("tribe_changed", u, e.tribe))
            elif op == "change_level":
                for u in units:  # for conditions only; never below 0 (R12.12)
                    self.lv_delta[u] = self.lv_delta.get(u, 0) + e.by
                    self.set(u, "level", max(0, self.data(u)["level"] + self.lv_delta[u]))
                    self.events.append(("level_changed", u, self.units[u]["level"]))
            elif op == "return_to_hand":
                for u in units:
                    if self.units[u]["leader"]:
                        continue  # R13.7
                    owner = self.units[u]["owner"]
                    to = "discard" if self.hand[owner] >= HAND_LIMIT else "hand"  # R6.6
                    self.remove(u, to)
                    if to == "hand":
                        self.hand[owner] += 1
                    self.events.append(("returned", u, to))
            elif op == "destroy":
                if batch:
                    dead += units
                else:
                    self.destroy(units, reason)
            else:
                raise NotImplementedError(f"the model does not know {op!r}")
        if batch and dead:
            self.destroy(dead, reason)

    def absorb(self, events):
        """What happened after the effects (the answered declaration resolving, an attack)."""
        for e in events:
            t, u = e["type"], e.get("unit")
            if t == "damage" and u in self.units:
                self.units[u]["life"] = e["life"]
            elif t == "destroyed" and u in self.units and u not in self.gone:
                self.remove(u, "discard")
            elif t == "returned" and u in self.units and u not in self.gone:
                self.remove(u, e["to"])
                self.hand[self.units[u]["owner"]] += e["to"] == "hand"
            elif t == "drew":
                self.hand[e["player"]] += e["count"]
                self.deck[e["player"]] -= e["count"]
            elif t == "boosted":
                for field, d in (("power", e["power"]), ("max_life", e["life"]), ("life", e["life"]),
                                 ("speed", e["speed"])):
                    self.units[u][field] += d

    def check(self, g):
        """The view shows what the model expects."""
        v = g.view()
        units = {u["id"]: u for u in v["units"]}
        for uid, where in self.gone.items():
            assert uid not in units, f"{uid} should have left the board"
            owner = self.units[uid]["owner"]
            mine = g.view(owner)["players"][owner]
            zone = [h["id"] for h in mine["hand"]] if where == "hand" else mine["discard_ids"]
            assert uid in zone, f"{uid} should be in player {owner}'s {where}"
        for uid, field in sorted(self.touched):
            if uid not in self.gone:
                assert units[uid][field] == self.units[uid][field], (uid, field)
        assert [p["hand_count"] for p in v["players"]] == self.hand
        b = v["battle"]
        assert b is not None, "the battle should still be on"
        assert self.negated <= set(b["negated"])
        for side, kind in self.slot_touched:
            total = b["slots"][str(side)].get(kind, {"total": 0})["total"]  # a kind at 0 is not listed
            assert total == self.slots[side][kind], (side, kind)


def model(g, t):
    return Model(g, t.cards)


def body_of(ab, choice=None, coin=None):
    if ab.choose_one is not None:
        return ab.choose_one[choice]
    if ab.coin is not None:
        return ab.coin[0 if coin == "heads" else 1]
    return ab.effects


def slice_after(events, i, stop=("resolved", "fizzled", "attack", "declared", "triggered", "no_attack",
                                   "battle_ended")):
    """The events from i + 1 up to the next step of the battle."""
    out = []
    for e in events[i + 1:]:
        if e["type"] in stop:
            break
        out.append(e)
    return out


def amounts_of(effects):
    for e in effects:
        for k in ("amount", "power", "life", "speed"):
            a = getattr(e, k, None)
            if isinstance(a, Amount):
                yield a


def selector_side(name, me, target_side=None):
    if name == "chosen":
        return target_side
    return 1 - me if name.startswith("enem") else me


# ------------------------------------------------------------------------------------ [Normal], [Counter]

def declared_case(cid, ab, choice=None, coin=None, user_falls=False):
    counter = ab.timing == "counter"
    me = 1 if counter else 0
    effects = ab.all_effects()
    for die in (range(1, 7) if coin else (None,)):
        t = Table()
        # player 1's front one is a tank; a [Normal] card leads player 0's party
        if counter:
            t.add(1, "tank", "t1")
        x = t.add(me, cid, "x")
        if not counter:
            t.add(1, "tank", "t1")
        target_side = None
        if ab.target is not None:
            target_side = me if ab.target.side == "ally" else 1 - me
            name = "buddy" if ab.target.side == "ally" else "mark"
            t.add(target_side, t.fit(ab.target.filter), name)
            bad = t.misfit(ab.target.filter)
            if bad is not None:
                t.add(target_side, bad, "misfit")
        if ab.sacrifice is not None:
            t.add(me, t.fit(ab.sacrifice), "fodder")
        for a in amounts_of(effects):  # something to count, someone fallen (R12.12 amounts)
            if a.count is not None and a.count.name != "chosen":
                t.add(selector_side(a.count.name, me), t.fit(a.count.filter))
            elif a.fallen is not None:
                t.victim(me if a.fallen == "allies" else 1 - me, a.fallen_filter)
        if ab.unrespondable:
            t.add(1 - me, "responder", "r")
        if user_falls:
            t.add(1 - me, "assassin", "as")
        if counter and ab.respond_to == "spell":
            t.add(0, "mage", "m0")
            t.hand[0].append(("sp", SPELL))
        t.add(0, "pinger", "pg0")
        if counter:
            t.add(0, "pinger", "pg0b")  # keeps player 0's window open after its pinger declared
        t.add(1, "pinger", "pg1")
        t.add(1, "tank", "t2")
        g, ev = t.fight(first=0, more_dice=(die,) if die else ())

        answering = trigger = None
        if counter:  # player 0 declares what the card answers (R11.2)
            kind = ab.respond_to if ab.respond_to != "any" else "ability"
            trigger = TRIGGERS[kind]
            answering = SPELL if kind == "spell" else None
            others = set(TRIGGERS) - {kind} if ab.respond_to != "any" else set()
            for other in sorted(others - ({"spell"} if not t.hand[0] else set())):
                # what it does not answer does not offer it (tried on a copy of the game): the
                # engine then lets the declaration through by itself (R10.7)
                h = g.copy()
                do(h, 0, TRIGGERS[other])
                if h.waiting_for() == {1}:
                    assert not [a for a in h.legal_actions(1) if a.get("unit") == x], (
                        f"{cid} answers {ab.respond_to} only, yet is offered against {other}")
            ev = do(g, 0, trigger)
            assert g.waiting_for() == {1}, f"{cid} cannot answer the {kind}"

        m = model(g, t)
        acts = [a for a in g.legal_actions(me) if a["type"] == "ability" and a["unit"] == x]
        assert acts, f"{cid}: no legal declaration"
        if ab.target is not None:
            assert not [a for a in acts if a["targets"] == ["misfit"]], "the target filter lets a misfit in"
            prefer = ["buddy" if ab.target.side == "ally" else "mark"]
            if counter and trigger.get("unit") and any(e.op == "negate" for e in effects):
                prefer.insert(0, trigger["unit"])  # silence the declaration it answers
            aimed = [[a for a in acts if a["targets"] == [p]] for p in prefer]
            acts = next((hits for hits in aimed if hits), [])
        if choice is not None:
            acts = [a for a in acts if a.get("choice") == choice]
        if ab.sacrifice is not None:
            acts = [a for a in acts if a.get("sacrifice") == "fodder"]
        assert acts, f"{cid}: the declaration the case wants is not legal"
        action = acts[0]
        ev = do(g, me, action)
        decl = [e for e in ev if e["type"] == "declared" and e.get("unit") == x][0]
        if coin and decl.get("coin") != coin:
            continue  # search the dice for the other side of the coin
        break
    else:
        raise AssertionError(f"no die gives {coin}")
    if coin:
        assert decl["coin"] == coin
    if choice is not None:
        assert decl["choice"] == choice
    if counter:
        assert decl["responds_to"] == 0  # it answers player 0's declaration
    if ab.unrespondable:  # R11.6: resolved at once, the responder never asked
        i = ev.index(decl)
        assert ev[i + 1]["type"] == "resolved" and not events_of(ev, "passed"), ev[i:]
    if user_falls:  # the other side destroys the user before its ability resolves
        assert waiting(g) == 1 - me
        ev += do(g, 1 - me, {"type": "ability", "unit": "as", "targets": [x]})
    ev += settle_chain(g)

    targets = action["targets"]
    if ab.sacrifice is not None:  # R11.8: paid at declaration
        assert ("destroyed", "fodder", "sacrifice") in effect_events(ev)
        m.destroy(["fodder"], "sacrifice")
        if user_falls:
            assert ("destroyed", x, "effect") in effect_events(ev)
            m.destroy([x], "effect")
        m.events = []
    m.run(body_of(ab, choice, coin), x, me, targets, answering=answering)
    assert m.events, f"{cid}: the case shows no change"
    i = next(i for i, e in enumerate(ev) if e["type"] in ("resolved", "fizzled") and e["kind"] == "ability"
             and e["card"] == cid)
    assert ev[i]["type"] == "resolved", ev[i]
    got = slice_after(ev, i)
    assert effect_events(got) == m.events
    m.absorb(ev[i + 1 + len(got):])
    m.check(g)
    if answering is not None and any(e.op == "cancel_spell" for e in effects):  # R12.9
        fz = [e for e in ev if e["type"] == "fizzled" and e["card"] == answering]
        assert [e["reason"] for e in fz] == ["cancelled"]
    if trigger is not None and trigger.get("unit") in m.negated:  # R11.7 (b)
        fz = [e for e in ev if e["type"] == "fizzled" and e["kind"] == "ability" and e["card"] == "pinger"]
        assert [e["reason"] for e in fz] == ["negated"]
    if trigger is not None and trigger["type"] == "attack":  # the attack is what the answer left (R10.2)
        att = [e for e in events_of(ev, "attack") if e["player"] == 0][0]
        alive = [u for u in att["units"] if u not in m.gone]
        assert att["power"] == sum(max(0, m.units[u]["power"]) for u in alive)  # below 0 adds 0


# ------------------------------------------------------------------------------------ [Battle]

def battle_table(cid, ab, side, helpers, kills, recipients, real):
    """The battle for a [Battle] ability: the card (or its twin without that ability) on `side`."""
    t = Table()
    if real:
        x_card = cid
    else:
        data = copy.deepcopy(POOL[cid].data)
        data["abilities"] = [a for i, a in enumerate(data["abilities"]) if i != ab.index]
        data["id"] = "twin"
        t.cards["twin"] = data
        x_card = "twin"
    t.add(1 - side, "tank", "t1" if side == 0 else "t0")
    t.add(side, x_card, "x")
    t.add(side, "tank", "ally")
    c = ab.condition
    if c is not None and c.amount is not None and c.amount.count is not None:
        for _ in range(helpers):
            t.add(selector_side(c.amount.count.name, side), t.fit(c.amount.count.filter))
    fallen = ([c.amount] if c is not None and c.amount is not None and c.amount.fallen else []) + \
        [a for a in amounts_of(ab.effects) if a.fallen is not None]
    for _ in range(kills if fallen else 0):
        f = fallen[0]
        t.victim(side if f.fallen == "allies" else 1 - side, f.fallen_filter)
    if recipients:
        for e in ab.effects:
            if e.to is not None and e.to.filter is not ANY:
                t.add(selector_side(e.to.name, side), t.fit(e.to.filter))
        for a in amounts_of(ab.effects):
            if a.count is not None:
                t.add(selector_side(a.count.name, side), t.fit(a.count.filter))
    ops = {e.op for e in ab.effects}
    if "spell_lock" in ops:
        t.add(0, "mage", "m0")
        t.hand[0].append(("sp", SPELL))
    for e in ab.effects:
        if e.op == "allow_quick_summon":
            t.hand[side].append(("recruit", t.fit(e.filter)))
            bad = t.misfit(e.filter)
            if bad is not None:
                t.hand[side].append(("decoy", bad))
    t.add(0, "pinger", "pg0")
    t.add(1, "pinger", "pg1")
    return t


def observe(g, t):
    v = g.view()
    b = v["battle"]
    ids = set(b["parties"]["0"]) | set(b["parties"]["1"])
    return {"units": {u["id"]: (u["power"], u["max_life"], u["life"], u["speed"]) for u in v["units"]
                      if u["id"] in ids},
            "slots": {int(k): {kind: d["total"] for kind, d in s.items()} for k, s in b["slots"].items()},
            "lock": b["spell_lock"], "spells": any(a["type"] == "spell" for a in g.legal_actions(waiting(g))),
            "quick": [set(s) for s in t.quick_seen], "parties": b["parties"]}


def aura(m, ab, side):
    """The expected difference made by a [Battle] ability, or None when its condition fails."""
    if not m.holds(ab.condition, "x", side):
        return None
    out = {"units": {}, "slots": {}, "lock": False, "quick": []}
    for e in ab.effects:
        if e.op == "boost":
            d = [m.amount(getattr(e, k), "x", side) for k in ("power", "life", "speed")]
            for u in m.select(e.to, "x", side):
                p, life, s = out["units"].get(u, (0, 0, 0))
                out["units"][u] = (p + d[0], life + d[1], s + d[2])
        elif e.op == "grant_slots":
            n = len(m.select(e.to, "x", side))
            for kind, k in e.slots.items():
                out["slots"][(side, kind)] = out["slots"].get((side, kind), 0) + k * n
        elif e.op == "spell_lock":
            out["lock"] = True
        elif e.op == "allow_quick_summon":
            out["quick"].append(e.filter)
        else:
            raise NotImplementedError(e.op)
    return out


def nontrivial(exp):
    return exp is not None and (any(d != (0, 0, 0) for d in exp["units"].values()) or
                                any(exp["slots"].values()) or exp["lock"] or exp["quick"])


def battle_game(cid, ab, variant, real, quick=()):
    side, helpers, kills, recipients = variant
    t = battle_table(cid, ab, side, helpers, kills, recipients, real)
    t.quick[side].extend(quick)
    g, _ = t.fight(first=0)
    return g, t


def find_variant(cid, ab, side, want):
    """The smallest battle (helpers counted, units killed) where the condition holds (want) or not."""
    for recipients in (True, False):
        for kills in range(4):
            for helpers in range(4):
                variant = (side, helpers, kills, recipients)
                g, t = battle_game(cid, ab, variant, True)
                exp = aura(model(g, t), ab, side)
                if (nontrivial(exp) if want else exp is None):
                    return variant
    return None


def compare_battle(cid, ab, variant, met):
    side = variant[0]
    g, t = battle_game(cid, ab, variant, True)
    h, tt = battle_game(cid, ab, variant, False)
    exp = aura(model(g, t), ab, side)
    assert (exp is not None) == met
    real, twin = observe(g, t), observe(h, tt)
    assert real["parties"] == {k: [u for u in v] for k, v in twin["parties"].items()}
    exp = exp or {"units": {}, "slots": {}, "lock": False, "quick": []}
    for u, (p, ml, life, s) in real["units"].items():
        dp, dl, ds = exp["units"].get(u, (0, 0, 0))
        assert (p, ml, life, s) == (twin["units"][u][0] + dp, twin["units"][u][1] + dl,
                                 twin["units"][u][2] + dl, twin["units"][u][3] + ds), u
    for s_ in (0, 1):
        for kind in set(real["slots"][s_]) | set(twin["slots"][s_]):
            assert real["slots"][s_].get(kind, 0) == twin["slots"][s_].get(kind, 0) + exp["slots"].get((s_, kind), 0)
    if "sp" in dict(t.hand[0]):  # R12.10
        assert twin["spells"] and not twin["lock"], "the case gives player 0 no castable spell"
        assert real["lock"] == exp["lock"] and real["spells"] == (not exp["lock"])
    if "recruit" in dict(t.hand[side]):  # R9.3
        assert "recruit" not in twin["quick"][side]
        assert ("recruit" in real["quick"][side]) == bool(exp["quick"])
        assert "decoy" not in real["quick"][side]
        if exp["quick"]:  # and it joins at the front (R9.2)
            q, _ = battle_game(cid, ab, variant, True, quick=["recruit"])
            assert q.view()["battle"]["parties"][str(side)][0] == "recruit"
    return exp


def battle_case(cid, ab):
    c = ab.condition
    side = 1 if c is not None and c.role == "defender" else 0
    met = find_variant(cid, ab, side, True)
    assert met is not None, f"{cid}: no battle the harness builds meets the ability's condition"
    compare_battle(cid, ab, met, True)
    if c is not None and c.role is not None:  # the other role
        compare_battle(cid, ab, (1 - side,) + met[1:], False)
    if c is not None and c.amount is not None:  # too few counted or fallen
        unmet = find_variant(cid, ab, side, False)
        assert unmet is not None, f"{cid}: its condition always holds"
        compare_battle(cid, ab, unmet, False)


# ------------------------------------------------------------------------------------ strike triggers

def strike_case(cid, ab):
    fires = 0 if ab.timing == "strikes_first" else 1
    t = Table()
    t.add(0, cid, "x")
    t.add(0, "tank", "ally")
    for e in ab.effects:  # the units its selectors name are built to pass their filters
        if e.to.filter is not ANY and e.to.name.startswith("ally"):
            t.add(0, t.fit(e.to.filter))
    front = rear = "tank"
    for e in ab.effects:
        if e.to.filter is not ANY and e.to.name in ("enemy_front", "enemies", "all"):
            front = t.fit(e.to.filter)
        if e.to.filter is not ANY and e.to.name in ("enemy_rear", "enemies", "all"):
            rear = t.fit(e.to.filter)
    t.add(1, front, "f1")
    t.add(1, "pinger", "pg1")
    t.add(1, rear, "r1")
    t.add(0, "pinger", "pg0")
    other, ev_other = t.fight(first=1 - fires)
    assert not [e for e in events_of(ev_other, "triggered") if e["unit"] == "x"], "it fired the other way"
    g, ev = t.fight(first=fires)
    trig = [i for i, e in enumerate(ev) if e["type"] == "triggered" and e["unit"] == "x"]
    assert len(trig) == 1 and ev[trig[0]]["timing"] == ab.timing
    m = model(other, t)  # the same battle, the trigger not fired
    m.run(ab.effects, "x", 0, batch=True, reason="trigger")
    assert m.events, f"{cid}: the case shows no change"
    got = slice_after(ev, trig[0])
    assert effect_events(got) == m.events
    m.check(g)


# ------------------------------------------------------------------------------------ [On destroy]

def on_destroy_case(cid, ab):
    t = Table()
    t.add(0, "hammer", "hm")
    t.add(1, cid, "x")
    t.add(1, "wall", "w1")
    for e in ab.effects:
        if e.to is not None and e.to.filter is not ANY:
            t.add(selector_side(e.to.name, 1), t.fit(e.to.filter))
    t.add(0, "pinger", "pg0")
    t.add(1, "pinger", "pg1")
    g, _ = t.fight(first=0)
    m = model(g, t)
    ev = do(g, 0, "attack")
    ev += settle_chain(g)
    trig = [i for i, e in enumerate(ev) if e["type"] == "triggered" and e["unit"] == "x"]
    assert len(trig) == 1 and ev[trig[0]]["timing"] == "on_destroy"
    assert [(e["unit"], e["reason"]) for e in events_of(ev[:trig[0]], "destroyed")] == [("x", "attack")]
    m.absorb(ev[:trig[0]])
    m.run(ab.effects, "x", 1)
    assert m.events, f"{cid}: the case shows no change"
    got = slice_after(ev, trig[0])
    assert effect_events(got) == m.events
    m.absorb(ev[trig[0] + 1 + len(got):])
    m.check(g)


# ------------------------------------------------------------------------------------ [March]

def march_case(cid, ab, haste):
    summons = [e for e in ab.effects if e.op == "summon"]
    draws = sum(e.count for e in ab.effects if e.op == "draw")
    zones = {"hand": [], "discard": []}
    t = Table()
    e = summons[0] if summons else None
    if summons:
        other = "discard" if e.source == "hand" else "hand"
        zones[e.source].append({"card": t.fit(e.filter, keywords=["haste"] if haste else []), "id": "recruit"})
        bad = t.misfit(e.filter)
        if bad is not None:
            zones[e.source].append({"card": bad, "id": "decoy"})
        zones[other].append({"card": t.fit(e.filter), "id": "stray"})  # the wrong zone
    p0 = {"units": [unit("boss", "H0", "a0", leader=True), unit(cid, "L1", "x")],
          "hand": zones["hand"], "discard": zones["discard"],
          "deck": [{"card": "filler", "id": f"d0{i}"} for i in range(5)]}
    p1 = {"units": [unit("boss", "H1", "b0", leader=True)]}
    g = scenario(p0, p1, cards=t.cards, lands=dict(LANDS))
    opts = [a for a in g.legal_actions(0) if a["type"] == "march_ability" and a["unit"] == "x"]
    assert opts, f"{cid}: its [March] ability is not offered"
    hand_before = g.view(0)["players"][0]["hand_count"]
    if summons:
        offered = {tuple(a["targets"]) for a in opts}
        lands = {"L1"} if e.dest == "here" else ADJACENT_TO_L1
        assert offered == {("recruit", land) for land in lands}, offered  # no decoy, no stray
        land = "L1" if e.dest == "here" else "L2"
        action = {"type": "march_ability", "unit": "x", "targets": ["recruit", land]}
    else:
        assert opts == [{"type": "march_ability", "unit": "x", "targets": []}]
        action = opts[0]
    ev = do(g, 0, action)
    assert [e["unit"] for e in events_of(ev, "march_ability")] == ["x"]
    units = {u["id"]: u for u in g.view(0)["units"]}
    assert units["x"]["exhausted"]  # R13.5
    mine = g.view(0)["players"][0]
    if summons:
        assert [(e["unit"], e["land"]) for e in events_of(ev, "summoned")] == [("recruit", land)]
        assert units["recruit"]["land"] == land and units["recruit"]["exhausted"] == (not haste)  # R6.4
        assert "recruit" not in [h["id"] for h in mine["hand"]] + mine["discard_ids"]
        if land == "L2":  # an empty land is taken (R4.5)
            assert g.view()["lands"]["L2"]["owner"] == 0 and events_of(ev, "land_taken")
    if draws:
        taken = 1 if e is not None and e.source == "hand" else 0
        assert mine["hand_count"] == hand_before - taken + draws


# ------------------------------------------------------------------------------------ keywords

def main_step(cid, on_board=True, summonable=False):
    """Player 0's main step with the card on L1 (or in hand); player 1's leader at home. With
    `summonable`, hand and discard hold a card its [March] ability may summon."""
    t = Table()
    units = [unit("boss", "H0", "a0", leader=True)] + ([unit(cid, "L1", "x")] if on_board else [])
    p0 = {"units": units, "hand": [] if on_board else [{"card": cid, "id": "x"}], "discard": []}
    if summonable:
        e = next(e for e in POOL[cid].march.effects if e.op == "summon")
        p0[e.source].append({"card": t.fit(e.filter), "id": "recruit"})
    return scenario(p0, {"units": [unit("boss", "H1", "b0", leader=True)]}, cards=t.cards, lands=dict(LANDS))


def marches_to(g, uid):
    return {a["to"] for a in g.legal_actions(0) if a["type"] == "march" and uid in choices.joiners(a)}


def keyword_case(cid, keyword):
    """A keyword of a card with abilities still works on it (R13.1, R13.3)."""
    c = POOL[cid]
    if keyword == "haste":  # R7.4: may march the turn it is summoned, and use its [March] ability
        summonable = c.march is not None and any(e.op == "summon" for e in c.march.effects)
        g = main_step(cid, on_board=False, summonable=summonable)
        do(g, 0, {"type": "summon", "card": "x"})
        assert not [u for u in g.view()["units"] if u["id"] == "x"][0]["exhausted"]
        assert marches_to(g, "x")
        if c.march is not None:
            assert [a for a in g.legal_actions(0) if a["type"] == "march_ability" and a["unit"] == "x"]
    elif keyword == "double_march":  # R8.2: a second march; R13.5: not exhausted after the first
        summonable = c.march is not None and any(e.op == "summon" for e in c.march.effects)
        g = main_step(cid, summonable=summonable)
        do(g, 0, {"type": "march", "units": ["x"], "to": "L2"})
        assert [u for u in g.view()["units"] if u["id"] == "x"][0]["marches_left"] == 1
        assert marches_to(g, "x") >= {"L1", "L3", "L4"}
        if c.march is not None:
            assert [a for a in g.legal_actions(0) if a["type"] == "march_ability" and a["unit"] == "x"]
    elif keyword == "far_march":  # R8.3: anywhere but the enemy base
        g = main_step(cid)
        reach = marches_to(g, "x")
        assert {"L5", "L6"} <= reach and "H1" not in reach
    elif keyword == "spellproof":  # R12.11: the enemy's spell does nothing to it
        t = Table()
        t.add(0, "mage", "m0")
        t.add(0, "pinger", "pg0")
        t.add(1, cid, "x")
        t.add(1, "pinger", "pg1")
        t.hand[0].append(("sp", SPELL))
        g, _ = t.fight(first=0)
        life = [u for u in g.view()["units"] if u["id"] == "x"][0]["life"]
        ev = do(g, 0, {"type": "spell", "card": "sp", "targets": []})
        ev += settle_chain(g)
        assert [e["type"] for e in ev if e.get("card") == SPELL][-1] == "resolved"
        assert not [e for e in events_of(ev, "damage") if e["unit"] == "x"]
        assert [u for u in g.view()["units"] if u["id"] == "x"][0]["life"] == life
        ev = do(g, 0, {"type": "ability", "unit": "pg0", "targets": []})  # an ability does affect it
        ev += settle_chain(g)
        i = next(i for i, e in enumerate(ev) if e["type"] == "resolved" and e["card"] == "pinger")
        assert [(e["unit"], e["amount"]) for e in events_of(slice_after(ev, i), "damage")] == [("x", 1)]
    else:
        raise NotImplementedError(keyword)


KEYWORD_CASES = [(c.id, k) for c in sorted(POOL.values(), key=lambda c: c.id)
                 if c.kind == "monster" and c.abilities for k in c.keywords]


@pytest.mark.parametrize("cid,keyword", KEYWORD_CASES, ids=[f"{c}-{k}" for c, k in KEYWORD_CASES])
def test_keyword_of_a_monster_with_abilities(cid, keyword):
    keyword_case(cid, keyword)


# ------------------------------------------------------------------------------------ the cases

def make_cases():
    cases = []
    for c in sorted(POOL.values(), key=lambda c: c.id):
        if c.kind != "monster":
            continue
        for ab in c.abilities:
            base = f"{c.id}#{ab.index}-{ab.timing}"
            if ab.timing in ("normal", "counter"):
                if ab.choose_one is not None:
                    cases += [(c.id, ab.index, f"{base}-choice{i}", {"choice": i}) for i in range(len(ab.choose_one))]
                elif ab.coin is not None:
                    cases += [(c.id, ab.index, f"{base}-{s}", {"coin": s}) for s in ("heads", "tails")]
                else:
                    cases.append((c.id, ab.index, base, {}))
                if ab.sacrifice is not None and not ab.unrespondable:
                    cases.append((c.id, ab.index, f"{base}-user-fallen", {"user_falls": True,
                                  **({"choice": 0} if ab.choose_one else {"coin": "heads"} if ab.coin else {})}))
            elif ab.timing == "march":
                cases += [(c.id, ab.index, f"{base}{'-haste' if h else ''}", {"haste": h})
                          for h in ((False, True) if any(e.op == "summon" for e in ab.effects) else (False,))]
            elif ab.timing in ("battle", "on_destroy", "strikes_first", "strikes_second"):
                cases.append((c.id, ab.index, base, {}))
    return cases


CASES = make_cases()
HANDLERS = {"normal": declared_case, "counter": declared_case, "battle": battle_case,
            "strikes_first": strike_case, "strikes_second": strike_case, "on_destroy": on_destroy_case,
            "march": march_case}
XFAIL = {}  # case name -> reason (engine bugs found by these cases)


@pytest.mark.parametrize("cid,index,name,extra", [
    pytest.param(*c, id=c[2], marks=[pytest.mark.xfail(strict=True, reason=XFAIL[c[2]])] if c[2] in XFAIL else [])
    for c in CASES])
def test_monster_ability_changes_the_game(cid, index, name, extra):
    ab = POOL[cid].abilities[index]
    HANDLERS[ab.timing](cid, ab, **extra)


def test_every_monster_with_abilities_is_covered():
    """A new monster or ability in the pool gets a case, or this fails."""
    fresh = load_pool(default_cards_dir())
    with_abilities = {c.id for c in fresh.values() if c.kind == "monster" and c.abilities}
    assert {cid for cid, *_ in CASES} == with_abilities
    abilities = {(c.id, i) for c in fresh.values() if c.kind == "monster" for i in range(len(c.abilities))}
    assert {(cid, i) for cid, i, *_ in CASES} == abilities
