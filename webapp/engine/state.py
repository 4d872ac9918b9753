"""The game state as plain data: cheap to copy (for try/undo and search), exact through JSON.

Card instances are small integers; what never changes during a game (which card each instance
is, who owns it, the land kinds) lives in `Static`, shared by every copy.
"""

from .board import CAPACITY, LANDS


class Static:
    """What a game fixes at its start: instances, their cards and owners, the lands."""

    __slots__ = ("cards", "owner", "names", "index", "kinds", "capacity", "custom", "pool",
                 "leader_mode", "marchers", "levels", "allowed", "printed", "unit_views",
                 "standing_view", "land_views", "lands_view", "discard_views", "opening_view", "entries", "imagined")

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
        self.marchers = frozenset(i for i, c in enumerate(self.cards) if c.march is not None)
        self.levels = tuple(c.level for c in self.cards)  # inst -> printed level (R4.4 counts it)
        self.allowed = tuple(2 if c.double_march else 1 for c in self.cards)  # inst -> marches a turn (R8.1, R8.2)
        # inst -> (damage 0, life, power, speed, level, tribe): a unit's values out of battle (views.py)
        self.printed = tuple((0, c.life, c.power, c.speed, c.level, c.tribe) for c in self.cards)
        self.unit_views = {}               # inst -> (values, its entry in views' units): views.py
        self.standing_view = None          # (land owners, the views' standing entry for them): views.py
        self.land_views = [None] * len(LANDS)  # land -> ((owner, used by each), the views' entry): views.py
        self.lands_view = None             # ((owners, levels of each player per land), the views' lands)
        self.discard_views = [None, None]  # player -> (the pile, its card ids, its instance ids): views.py
        self.opening_view = None           # (the state's opening, the views' copy of it): views.py
        self.imagined = False              # a determinized world's (search): its views are nobody else's
        self.entries = {}                  # inst -> (its summon entry, its discard entry): Game._main_actions


    def imagined_with(self, cards):
        """This game's Static with other cards for some instances: a determinized world's (search);
        what depends on the instances alone is shared, what depends on their cards made again."""
        st = Static.__new__(Static)
        for name in Static.__slots__:
            setattr(st, name, getattr(self, name))
        st.cards = tuple(cards)
        st.marchers = frozenset(i for i, c in enumerate(st.cards) if c.march is not None)
        st.levels = tuple(c.level for c in st.cards)
        st.allowed = tuple(2 if c.double_march else 1 for c in st.cards)
        st.printed = tuple((0, c.life, c.power, c.speed, c.level, c.tribe) for c in st.cards)
        st.unit_views, st.standing_view, st.land_views, st.lands_view = {}, None, [None] * len(LANDS), None
        st.discard_views, st.opening_view, st.entries, st.imagined = [None, None], None, {}, True
        return st


class Battle:
    """A battle in progress (R9–R14). Everything here ends with the battle (R14.2)."""

    __slots__ = ("land", "attacker", "party", "origin", "main_origin", "quick", "step", "step_player",
                 "rolls", "order", "striker", "chain", "responder", "acted", "damage", "boosts",
                 "negated", "tribe", "level", "granted", "used", "done", "fallen", "killed_leader",
                 "simultaneous", "memo", "listed")

    def copy(self):
        b = Battle.__new__(Battle)
        b.land, b.attacker, b.main_origin = self.land, self.attacker, self.main_origin
        b.party = [self.party[0][:], self.party[1][:]]
        b.origin = self.origin  # fixed when the battle starts
        b.quick = self.quick[:]
        b.step, b.step_player, b.rolls, b.order = self.step, self.step_player, self.rolls, self.order
        b.striker, b.responder, b.simultaneous = self.striker, self.responder, self.simultaneous
        b.chain = self.chain[:]  # declarations are replaced, never changed in place
        b.acted = set(self.acted)
        b.damage = dict(self.damage)
        # replaced (never changed in place) when they change, so shared:
        b.boosts, b.negated, b.tribe, b.level = self.boosts, self.negated, self.tribe, self.level
        b.granted, b.used, b.done = self.granted, self.used, self.done
        b.fallen, b.killed_leader = self.fallen, self.killed_leader
        b.memo = self.memo  # (what the [Battle] auras were worked out from, them): stats.auras
        b.listed = None  # what `advance` found the waiting player may do in this very state: battle.legal
        return b


class State:
    """Everything that changes during a game.

    ``leaders`` is the frozenset of the leaders in play: set at the leader choice (R5.4), and a
    leader leaves it when it is destroyed, for good (R5.5): its card, if it comes back, is an
    ordinary monster. ``leader_choice`` keeps who was chosen, for the view's leader lists."""

    __slots__ = ("static", "round", "active", "first", "phase", "result", "owners", "deck", "hand",
                 "discard", "land", "leaders", "exhausted", "marches", "failed",
                 "leader_choice", "rng", "dice", "battle", "pending", "version", "opening", "shown")

    def copy(self):
        s = State.__new__(State)
        s.static, s.round, s.active, s.first = self.static, self.round, self.active, self.first
        s.phase, s.result, s.rng = self.phase, self.result, self.rng
        s.dice, s.version, s.opening = self.dice, self.version, self.opening
        # immutable values, replaced (never changed in place) when they change:
        s.leaders, s.leader_choice, s.owners = self.leaders, self.leader_choice, self.owners
        s.failed, s.pending, s.shown = self.failed, self.pending, self.shown
        s.deck = [self.deck[0][:], self.deck[1][:]]
        s.hand = [self.hand[0][:], self.hand[1][:]]
        s.discard = [self.discard[0][:], self.discard[1][:]]
        s.land = dict(self.land)
        s.exhausted = set(self.exhausted)
        s.marches = dict(self.marches)
        s.battle = self.battle.copy() if self.battle is not None else None
        return s

    # -- small queries used everywhere

    def units_on(self, land, player=None):
        """Units on a land (of one player), in the order they came onto it."""
        owner = self.static.owner
        return [u for u, at in self.land.items() if at == land and (player is None or owner[u] == player)]

    def level_on(self, land, player):
        """Total printed level of a player's units on a land (R4.4, R12.12)."""
        cards, owner = self.static.cards, self.static.owner
        return sum(cards[u].level for u, at in self.land.items() if at == land and owner[u] == player)

    def has_enemy(self, land, player):
        owner = self.static.owner
        return any(at == land and owner[u] != player for u, at in self.land.items())

    def land_name(self, land):
        return LANDS[land]

    def place(self, unit, land):
        """Put a unit on a land; it arrives after every unit already on the board (R9.5a).

        `land` keeps insertion order, so its order is the order of arrival."""
        self.land.pop(unit, None)
        self.land[unit] = land

    def set_owner(self, land, player):
        owners = list(self.owners)
        owners[land] = player
        self.owners = tuple(owners)

    def arrival_order(self):
        """{unit: position} in order of arrival on the board."""
        return {u: i for i, u in enumerate(self.land)}

    def leaders_alive(self, player):
        """`player`'s leaders still in play: ``leaders`` holds only leaders on the board, since a
        destroyed one leaves it for good (R5.5, effects.destroy)."""
        owner = self.static.owner
        return [u for u in self.leaders if owner[u] == player]


def blank_state(static, rng_state):
    """The state before any card is dealt: round 1, the leaders phase, empty hands and lands (R4.5)."""
    s = State.__new__(State)
    s.static = static
    s.round, s.active, s.first, s.phase, s.result = 1, 0, 0, "leaders", None
    s.owners = (0,) + (None,) * 6 + (1,)  # R4.5: the middle lands start unowned
    s.deck, s.hand, s.discard = [[], []], [[], []], [[], []]
    s.land = {}
    s.leaders, s.exhausted, s.marches, s.failed = frozenset(), set(), {}, frozenset()
    s.leader_choice = (None, None)
    s.rng, s.dice, s.battle, s.pending = rng_state, (), None, ()
    s.version, s.opening = 0, None
    s.shown = frozenset()  # cards both players saw go into a hand (returned to it): public there
    return s
