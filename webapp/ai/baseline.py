"""The baseline CPU: sensible rules of thumb on every decision, from the public view only.

It never looks at hidden information and never simulates the future (so it cannot peek at dice):
each choice is scored from what its player can see.
"""

import random

from webapp.engine import ADJACENT, LANDS, choices, load_pool


class BaselinePlayer:
    name = "baseline"

    def __init__(self, seed=None, pool=None):
        self.rng = random.Random(seed)
        self.pool = pool or load_pool()

    # ------------------------------------------------------------ helpers

    def card(self, cid):
        return self.pool[cid]

    def choose(self, game, player, glance=False):
        """The move for `player`. `glance`: decide from `game.glance(player)` (the parts of the view
        read here, the same values) instead of the whole view: the search's imagined lines."""
        legal = [a for a in game.legal_actions(player) if a["type"] != "resign"]
        if len(legal) == 1 and not choices.is_compact(legal[0]):
            return legal[0]
        view = game.glance(player) if glance else game.view(player)
        kinds = {a["type"] for a in legal}
        if "choose_leaders" in kinds:
            return self.leaders(view, legal, player)
        if "destroy_over_capacity" in kinds:
            return self.over_capacity(view, legal)
        if view["phase"] == "battle":
            return self.battle(view, legal, player)
        return self.main(view, legal, player)

    def worth(self, cid):
        c = self.card(cid)
        return c.power + c.life + 0.5 * c.speed if c.kind == "monster" else 0

    # ------------------------------------------------------------ R5.4 leaders

    def leaders(self, view, legal, player):
        hand = {h["id"]: h["card"] for h in view["players"][player]["hand"]}

        def score(a):
            cards = [hand[c] for c in a["cards"]]
            level = sum(self.card(c).level for c in cards)
            # strong leaders, two of them if possible, and room left in the base for summons (R7.2)
            return sum(self.worth(c) for c in cards) + (3 if len(cards) >= 2 else 0) - 1.5 * max(0, level - 3)

        return max(legal, key=score)

    def over_capacity(self, view, legal):
        """R8.8: the weakest first, one at a time until the land fits (a compact `cover` entry)."""
        units = {u["id"]: u for u in view["units"]}
        for a in legal:
            if choices.is_compact(a):
                weakest = sorted(a["from"], key=lambda u: (units[u]["power"] + units[u]["life"], u))
                return choices.fill(a, choices.greedy(a, weakest))
        return min(legal, key=lambda a: sum(units[u]["power"] + units[u]["life"] for u in a["units"]))

    # ------------------------------------------------------------ the main step

    def main(self, view, legal, player):
        units = {u["id"]: u for u in view["units"]}
        self.read_board(view, player)
        best, best_score = None, 0.0
        hand = None  # {instance id: card id} of the hand, once a summon is scored
        for a in legal:
            t = a["type"]
            if t == "march" and choices.is_compact(a):  # its sets scored as unit lists, the best one filled
                for pick in self.march_picks(a, units):
                    score = self.set_score(a["to"], pick, units, view["lands"], player)
                    if score > best_score:
                        best, best_score = (a, pick), score
                continue
            if t == "summon":
                if hand is None:
                    hand = {h["id"]: h["card"] for h in view["players"][player]["hand"]}
                score = 10 + self.card(hand[a["card"]]).level
            elif t == "march_ability":
                score = 9
            elif t == "march":
                score = self.march_score(view, a, units, view["lands"], player, 1 - player)
            else:
                continue
            if score > best_score:
                best, best_score = a, score
        if isinstance(best, tuple):
            return choices.fill(*best)
        if best is not None:
            return best
        return next(a for a in legal if a["type"] == "end_turn")

    def read_board(self, view, player):
        """What the march scores read from `view` for `player`, worked out once per decision: whether
        the base is too crowded for a monster in hand (`crowded`), on each land with enemies their life
        and power and whether a leader is among them (`defenders`), and the lands next to one of those
        (`near_threat`)."""
        lands = view["lands"]
        enemy = 1 - player
        base = "H0" if player == 0 else "H1"
        free = lands[base]["capacity"] - lands[base]["used"][player]
        self.crowded = any(self.card(h["card"]).kind == "monster" and self.card(h["card"]).level > free
                           for h in view["players"][player]["hand"])
        defenders = {}
        for u in view["units"]:
            if u["owner"] == enemy:
                life, power, leader = defenders.get(u["land"], (0, 0, False))
                defenders[u["land"]] = (life + u["life"], power + u["power"], leader or u["leader"])
        self.defenders = defenders
        self.near_threat = {LANDS[n] for land in defenders for n in ADJACENT[LANDS.index(land)]}

    def march_picks(self, entry, units):
        """The sets worth scoring in one compact march entry (any set of its `from` within its
        `room`), as lists of ids: each unit alone, and the strongest party that fits (most power
        first), of non-leaders only and of everyone. A handful, however crowded the board."""
        frm = entry["from"]
        if len(frm) == 1:  # every unit in `from` fits alone: the one set
            return [list(frm)]
        strongest = sorted(frm, key=lambda u: (-units[u]["power"], -units[u]["life"], u))
        out = [[u] for u in frm]  # distinct sets: the ids of `from` are
        mine = choices.greedy(entry, [u for u in strongest if not units[u]["leader"]])
        every = choices.greedy(entry, strongest)
        if len(mine) > 1:  # a set of one is one of the above
            out.append(mine)
        if len(every) > 1 and (len(mine) <= 1 or set(every) != set(mine)):
            out.append(every)
        return out

    def march_sets(self, entry, units):
        """The marches of `march_picks`, as actions."""
        return [choices.fill(entry, p) for p in self.march_picks(entry, units)]

    def march_score(self, view, a, units, lands, player, enemy):
        """A march action's score (after `read_board(view, player)`)."""
        return self.set_score(a["to"], a["units"], units, lands, player)

    def set_score(self, dest, ids, units, lands, player):
        """The score of marching the units `ids` to the land `dest` (after `read_board`)."""
        my_power = my_life = leaders_moving = 0
        home = "H0" if player == 0 else "H1"
        origin_is_base = True
        for u in ids:
            unit = units[u]
            my_power += unit["power"]
            my_life += unit["life"]
            leaders_moving += unit["leader"]
            origin_is_base = origin_is_base and unit["land"] == home
        defenders = self.defenders.get(dest)
        if defenders:
            their_life, their_power, leader_there = defenders
            margin = my_power - their_life + 0.5 * (my_life - their_power)
            if my_power < their_life * 0.8 or margin <= 0:
                return 0
            bonus = 6 if leader_there else 0
            if dest == ("H1" if player == 0 else "H0"):
                bonus += 3
            return 5 + bonus + margin / 4 - 2 * leaders_moving
        near_enemy = dest in self.near_threat
        near = 5 - lands[dest]["distance"][player]
        if leaders_moving:
            # leaders step out only to make room in a crowded base, and only to a safe land
            if not (self.crowded and origin_is_base) or near_enemy or len(ids) > 1:
                return 0
            return 1 + (1 if lands[dest]["owner"] != player else 0)
        if lands[dest]["owner"] == player:
            return 1.5 if self.crowded and origin_is_base else 0
        # take empty land, nearer the enemy base first (R16 judgment counts lands and fronts)
        return 2 + near * 0.5 - 0.1 * len(ids) - (1 if near_enemy and len(ids) == 1 else 0)

    # ------------------------------------------------------------ battles

    def battle(self, view, legal, player):
        b = view["battle"]
        kinds = {a["type"] for a in legal}
        if "quick_summon" in kinds:  # the worthiest set that fits, or none
            hand = {h["id"]: h["card"] for h in view["players"][player]["hand"]}
            for a in legal:
                if choices.is_compact(a):
                    best = sorted(a["from"], key=lambda c: (-self.worth(hand[c]), c))
                    return choices.fill(a, choices.greedy(a, [c for c in best if self.worth(hand[c]) > 0]) or best[:1])
            return next(a for a in legal if a["type"] == "quick_summon")
        if "formation" in kinds:  # R9.5 the suggested order: the plain entry
            return next(a for a in legal if a["type"] == "formation" and not choices.is_compact(a))
        decls = [a for a in legal if a["type"] in ("ability", "spell")]
        if b["chain"]:
            latest = b["chain"][-1]
            return self.respond(view, decls, latest, legal)
        spells = [a for a in decls if a["type"] == "spell"]
        if spells:
            return self.best_decl(view, spells, player)
        weak = [a for a in decls if a["type"] == "ability" and self._unit(view, a["unit"])["power"] <= 2]
        if weak:
            return self.best_decl(view, weak, player)
        for t in ("attack", "pass"):
            for a in legal:
                if a["type"] == t:
                    return a
        return legal[0]

    def _unit(self, view, uid):
        return next(u for u in view["units"] if u["id"] == uid)

    def best_decl(self, view, decls, player):
        """Aim chosen effects at the enemy with the most power, or the ally with the least life."""
        def score(a):
            s = 0.0
            for t in a.get("targets", []):
                u = self._unit(view, t)
                s += u["power"] if u["owner"] != player else -u["life"] * 0.1
            return s + self.rng.random() * 0.01
        return max(decls, key=score)

    def respond(self, view, decls, latest, legal):
        if latest["kind"] == "spell":
            cancels = [a for a in decls if self._cancels(a, view)]
            if cancels:
                return cancels[0]
        if latest["kind"] == "attack" and decls:
            return self.best_decl(view, decls, 1 - latest["player"])
        return next(a for a in legal if a["type"] == "pass")

    def _cancels(self, a, view):
        if a["type"] == "spell":
            cid = next(h["card"] for p in view["players"] if "hand" in p for h in p["hand"] if h["id"] == a["card"])
            card = self.card(cid)
        else:
            card = self.card(self._unit(view, a["unit"])["card"])
            card = card if card.declared is not None else None
        ab = card.spell if card is not None and card.kind == "spell" else (card.declared if card else None)
        return ab is not None and any(e.op == "cancel_spell" for e in ab.all_effects())
