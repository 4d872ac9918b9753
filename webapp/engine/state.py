"""The game state as plain data: cheap to copy (for try/undo and search), exact through JSON.

Card instances are small integers; what never changes during a game (which card each instance
is, who owns it, the land kinds) lives in `Static`, shared by every copy.
"""

from .board import BASES, CAPACITY, LANDS


class Static:
    """What a game fixes at its start: instances, their cards and owners, the lands."""

    __slots__ = ("cards", "owner", "names", "index", "kinds", "capacity", "custom", "pool",
                 "leader_mode", "defs")

    def __init__(self, cards, owner, names, kinds, custom, pool, leader_mode):
        self.cards = tuple(cards)          # inst -> CardDef
        self.owner = tuple(owner)          # inst -> player
        self.names = tuple(names)          # inst -> "p0c17"
        self.index = {n: i for i, n in enumerate(self.names)}
        self.kinds = tuple(kinds)          # land -> "base" | "road" | "rearworld" | "swamp"
        self.capacity = tuple(CAPACITY[k] for k in self.kinds)
        self.custom = custom               # {card id: raw data} of scenario-only cards
        self.pool = pool
        self.leader_mode = leader_mode     # "simultaneous" (R5.7 online) or "sequential" (CPU)


class Battle:
    """A battle in progress (R9–R14). Everything here ends with the battle (R14.2)."""

    __slots__ = ("land", "attacker", "party", "origin", "main_origin", "quick", "step", "step_player",
                 "rolls", "order", "striker", "chain", "responder", "acted", "damage", "boosts",
                 "negated", "tribe", "level", "granted", "used", "done", "fallen", "killed_leader",
                 "simultaneous", "slot_deficit")

    def copy(self):
        b = Battle.__new__(Battle)
        b.land, b.attacker, b.main_origin = self.land, self.attacker, self.main_origin
        b.party = [self.party[0][:], self.party[1][:]]
        b.origin = self.origin  # fixed when the battle starts
        b.quick = self.quick[:]
        b.step, b.step_player, b.rolls, b.order = self.step, self.step_player, self.rolls, self.order
        b.striker, b.responder, b.simultaneous = self.striker, self.responder, self.simultaneous
        b.chain = [dict(d) for d in self.chain]
        b.acted = set(self.acted)
        b.damage = dict(self.damage)
        b.boosts = dict(self.boosts)  # values are tuples
        b.negated = set(self.negated)
        b.tribe = dict(self.tribe)
        b.level = dict(self.level)
        b.granted = dict(self.granted)  # values are tuples of (kind, n)
        b.used = [dict(self.used[0]), dict(self.used[1])]
        b.done = set(self.done)
        b.fallen = [self.fallen[0][:], self.fallen[1][:]]
        b.killed_leader = self.killed_leader[:]
        return b

    @property
    def defender(self):
        return 1 - self.attacker


class State:
    """Everything that changes during a game."""

    __slots__ = ("static", "round", "active", "first", "phase", "result", "owners", "deck", "hand",
                 "discard", "land", "arrival", "tick", "leaders", "exhausted", "marches", "failed",
                 "leader_choice", "rng", "dice", "battle", "pending", "version", "opening")

    def copy(self):
        s = State.__new__(State)
        s.static, s.round, s.active, s.first = self.static, self.round, self.active, self.first
        s.phase, s.result, s.tick, s.rng = self.phase, self.result, self.tick, self.rng
        s.dice, s.version, s.opening = self.dice, self.version, self.opening
        s.leaders, s.leader_choice = self.leaders, self.leader_choice  # immutable values
        s.owners = self.owners[:]
        s.deck = [self.deck[0][:], self.deck[1][:]]
        s.hand = [self.hand[0][:], self.hand[1][:]]
        s.discard = [self.discard[0][:], self.discard[1][:]]
        s.land = dict(self.land)
        s.arrival = dict(self.arrival)
        s.exhausted = set(self.exhausted)
        s.marches = dict(self.marches)
        s.failed = set(self.failed)
        s.battle = self.battle.copy() if self.battle is not None else None
        s.pending = self.pending[:]
        return s

    # -- small queries used everywhere

    def units_on(self, land, player=None):
        """Units on a land (of one player), in the order they came onto it."""
        owner = self.static.owner
        units = [u for u, l in self.land.items() if l == land and (player is None or owner[u] == player)]
        units.sort(key=self.arrival.__getitem__)
        return units

    def level_on(self, land, player):
        """Total printed level of a player's units on a land (R4.4, R12.12)."""
        cards, owner = self.static.cards, self.static.owner
        return sum(cards[u].level for u, l in self.land.items() if l == land and owner[u] == player)

    def has_enemy(self, land, player):
        owner = self.static.owner
        return any(l == land and owner[u] != player for u, l in self.land.items())

    def base(self, player):
        return BASES[player]

    def name(self, inst):
        return self.static.names[inst]

    def land_name(self, land):
        return LANDS[land]

    def place(self, unit, land):
        """Put a unit on a land; it arrives after those already there (R9.5a)."""
        self.land[unit] = land
        self.tick += 1
        self.arrival[unit] = self.tick

    def leaders_alive(self, player):
        owner = self.static.owner
        return [u for u in self.leaders if owner[u] == player and u in self.land]
