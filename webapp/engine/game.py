"""The public API of the rules engine: `Game` (ARCHITECTURE.md, "Engine contract")."""

import contextlib

from . import battle, choices, codec, effects, turn, views
from .board import BASES, LANDS, SHARED_LANDS
from .carddefs import load_pool
from .determinize import determinize
from .errors import IllegalAction
from .rng import Rng, instance_numbers
from .scenario import build
from .state import Static, blank_state

DECK_SIZE = 30  # R2.1
OPENING = {"first": 4, "second": 6}  # R5.2

# action type -> (required keys, optional keys)
SHAPES = {
    "choose_leaders": ({"cards"}, set()),
    "summon": ({"card"}, set()),
    "march": ({"units", "to"}, set()),
    "march_ability": ({"unit"}, {"targets"}),
    "discard": ({"cards"}, set()),
    "end_turn": (set(), set()),
    "quick_summon": ({"cards"}, set()),
    "formation": ({"order"}, set()),
    "ability": ({"unit"}, {"targets", "choice", "sacrifice"}),
    "spell": ({"card"}, {"targets", "choice"}),
    "attack": (set(), set()),
    "pass": (set(), set()),
    "destroy_over_capacity": ({"units"}, set()),
    "resign": (set(), set()),
}
LIST_KEYS = {"cards", "units", "order", "targets"}
# each action type in plain words, for messages to players
WORDS = {
    "choose_leaders": "choosing leaders", "summon": "summoning", "march": "marching",
    "march_ability": "a [March] ability", "discard": "discarding", "end_turn": "ending the turn",
    "quick_summon": "a quick summon", "formation": "a formation", "ability": "an ability",
    "spell": "casting a spell", "attack": "attacking", "pass": "passing",
    "destroy_over_capacity": "destroying monsters over capacity", "resign": "resigning",
}
SET_REFUSALS = {
    "choose_leaders": ("Choose 1 to 3 monsters from your opening hand, total level 5 at most.", "R5.4"),
    "quick_summon": ("Those cards cannot be quick summoned together: each needs the Quick mark (or an "
                     "ability that allows it), and the party's total level must fit the land.", "R9.2"),
    "destroy_over_capacity": ("Destroy your monsters there (never leaders) one at a time, and stop as soon "
                              "as the land fits.", "R8.8"),
}
RESULT_REASONS = ("leaders", "judgment", "draw", "resign", "timeout", "disconnect", "puzzle", "host")
#: The public parts of the views of the states viewed last (views.Public), by the state's id: {id: (state,
#: version, Public)}. Every reader of a state (both seats, spectators: the server builds them one after
#: the other) gets them made once. An entry holds its state, so the id is nobody else's while it lives;
#: beyond PUBLIC_KEPT entries the oldest goes (a bounded memory, not one per game kept by the server).
#: Few: the readers of a state come one after the other, and parts let go soon are freed while still in
#: the processor's caches (128 cost about a third more time for the views and diffs of bench/view_path.py).
PUBLIC = {}
PUBLIC_KEPT = 16


def forget_oldest(kept):
    """Drop the oldest entry of a dict used as a bounded memory (another thread may be dropping it too)."""
    with contextlib.suppress(RuntimeError, StopIteration):  # changed by another thread meanwhile: the next call drops one
        kept.pop(next(iter(kept)), None)


class Game:
    """One game: a deterministic state machine driven by `apply`."""

    __slots__ = ("state", "_legal", "_board")

    def __init__(self, state):
        self.state = state
        self._legal = {}
        #: (state, player, turn.board_tables, the march entries) of the main step's list made last: the
        #: board part of the list, kept for the state a discard leads to (it moves cards between hand and
        #: discard pile only, R6.7), whose list differs from this one in its hand part alone
        self._board = None

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(cls, deck0, deck1, seed=0, first=None, pool=None, leader_mode="simultaneous"):
        """A new game at the leader choice (R5): decks of 30 card ids; first 0, 1 or None (dice, R5.1)."""
        pool = load_pool() if pool is None else pool
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        if first is not None and (isinstance(first, bool) or first not in (0, 1)):
            raise ValueError(f"first must be 0, 1 or None, got {first!r}")
        if leader_mode not in ("simultaneous", "sequential"):
            raise ValueError(f"leader_mode must be 'simultaneous' or 'sequential', got {leader_mode!r}")
        cards, owner, names = [], [], []
        for p, deck in enumerate((deck0, deck1)):
            check_deck(deck, pool, p)
            numbers = instance_numbers(seed, p, len(deck))  # opaque ids: no card, no deck position
            for k, cid in zip(numbers, deck, strict=True):
                cards.append(pool[cid])
                owner.append(p)
                names.append(f"p{p}c{k}")
        rng = Rng(seed)
        kinds = list(SHARED_LANDS)
        rng.shuffle(kinds)  # R4.3
        static = Static(cards, owner, names, ["base"] + kinds + ["base"], {}, pool, leader_mode)
        s = blank_state(static, rng.state)
        opening = {}
        if first is None:  # R5.1: each rolls a d6, the higher goes first, ties roll again
            rolls = []
            while True:
                a, b = rng.below(6) + 1, rng.below(6) + 1
                rolls.append([a, b])
                if a != b:
                    break
            first = 0 if a > b else 1
            opening["dice"] = rolls
        s.first = s.active = first
        for p in (0, 1):
            s.deck[p] = [i for i in range(len(cards)) if owner[i] == p]
            n = OPENING["first"] if p == first else OPENING["second"]
            deals = 0
            while True:  # R5.3
                rng.shuffle(s.deck[p])
                s.hand[p] = [s.deck[p].pop() for _ in range(n)]
                deals += 1
                if any(cards[c].kind == "monster" for c in s.hand[p]):
                    break
                s.deck[p].extend(s.hand[p])
                s.hand[p] = []
            opening[f"deals{p}"] = deals
        s.rng = rng.state
        s.opening = opening
        return cls(s)

    @classmethod
    def from_scenario(cls, data, pool=None):
        """A mid-game position from the scenario format (docs/engine.md)."""
        return cls(build(data, load_pool() if pool is None else pool))

    @classmethod
    def from_json(cls, text, pool=None):
        """The game saved by `to_json`."""
        return cls(codec.load(text, pool))

    def to_json(self):
        """The whole state as JSON text (hidden information included: for the server's store only)."""
        return codec.dump(self.state)

    def copy(self):
        """An independent game in the same state, in constant time (for search and try/undo).

        A published state is never changed: `apply` builds the next state on a copy and swaps it in,
        so two games may share one state object until either moves on."""
        game = Game(self.state)
        game._legal = dict(self._legal)
        game._board = self._board
        return game

    # ---------------------------------------------------------------- queries

    @property
    def result(self):
        r = self.state.result
        return dict(r) if r else None

    @property
    def version(self):
        return self.state.version

    def waiting_for(self):
        """The players whose decision the game waits for."""
        s = self.state
        if s.result is not None:
            return set()
        if s.phase == "leaders":
            return turn.leaders_waiting(s)
        if s.phase == "battle":
            return {battle.waiting(s)}
        return {s.active}

    def _waits_for(self, player):
        """player in waiting_for(), without building the set (the main step's common case first)."""
        s = self.state
        if s.phase == "main" or s.phase == "over_capacity":
            return s.result is None and player == s.active
        return player in self.waiting_for()

    def legal_actions(self, player):
        """Every action `player` may send now, marches, quick summons and formations as compact entries
        (`choices`, docs/engine.md); treat the dicts as read-only."""
        cached = self._legal.get(player)
        if cached is not None and cached[0] == self.state.version:
            return list(cached[1])
        actions = self._compute_legal(player)
        self._legal[player] = (self.state.version, actions)
        return list(actions)

    def _compute_legal(self, player):
        s = self.state
        if player not in (0, 1) or s.result is not None:
            return []
        out = []
        if self._waits_for(player):
            names = s.static.names
            if s.phase == "leaders":
                out = [{"type": "choose_leaders", "cards": [names[c] for c in combo]}
                       for combo in turn.leader_options(s, player)]
            elif s.phase == "battle":
                out = battle.legal(s, player)
            elif s.phase == "over_capacity":  # R8.8: one compact entry, or all when all must go
                others, excess = turn.over_capacity_choice(s)
                cards = s.static.cards
                if sum(cards[u].level for u in others) < excess:
                    out = [{"type": "destroy_over_capacity", "units": [names[u] for u in others]}]
                else:
                    out = [{"type": "destroy_over_capacity", "choose": "cover", "fill": "units",
                            "from": [names[u] for u in others], "levels": [cards[u].level for u in others],
                            "excess": excess}]
            else:
                out = self._main_actions(player)
        out.append({"type": "resign"})  # R18.5: at any time
        return out

    def _main_actions(self, p):
        """The main step's list (R6–R8, R13.5) from one pass over the board (`turn.board_tables`):
        summons, one compact march entry per destination, [March] abilities, discards, the end."""
        s = self.state
        st = s.static
        names, cards, levels, capacity = st.names, st.cards, st.levels, st.capacity
        board = self._board
        if board is not None and board[0] is s and board[1] == p:
            tables, marches = board[2], board[3]
        else:
            tables, marches = turn.board_tables(s, p), None
        own, enemy, movers, _ready = tables
        plain = st.entries  # the plain entries of summons and discards, made once per game
        out = []
        discards = []
        base = BASES[p]
        room = -1 if enemy[base] else capacity[base] - own[base]  # R7.3, R7.2
        seen = set()
        for c in s.hand[p]:
            entry = plain.get(c)
            if entry is None:
                entry = plain[c] = ({"type": "summon", "card": names[c]}, {"type": "discard", "cards": [names[c]]})
            discards.append(entry[1])
            card = cards[c]
            if card.kind == "monster" and card.level <= room and card.id not in seen:  # R7.5
                seen.add(card.id)  # copies of a card summon alike; any copy's id is accepted
                out.append(entry[0])
        if marches is not None:
            out += marches
        elif movers:  # turn.march_candidates: R8.1 adjacent, R8.3 Far March: anywhere but the enemy base
            first = len(out)
            where, failed = s.land, s.failed
            reach = turn.REACH[p]
            by_dest = [None] * len(LANDS)
            for u in movers:
                for d in reach[where[u]][1 if cards[u].far_march else 0]:
                    cand = by_dest[d]
                    if cand is None:
                        by_dest[d] = [u]
                    else:
                        cand.append(u)
            for dest, cand in enumerate(by_dest):
                if cand is None or (enemy[dest] and dest in failed):  # R8.7
                    continue
                room = capacity[dest] - own[dest]  # R8.4
                ids, lvs = [], []
                for u in cand:
                    if levels[u] <= room:
                        ids.append(names[u])
                        lvs.append(levels[u])
                if ids:  # one compact entry per destination: every set of `ids` within `room` (R8.4, R8.5)
                    out.append({"type": "march", "to": LANDS[dest], "choose": "set", "fill": "units",
                                "from": ids, "levels": lvs, "room": room, "battle": enemy[dest]})
            marches = out[first:]
        self._board = (s, p, tables, marches or [])
        if tables[3]:
            for u, targets in turn.march_ability_options(s, p, tables):
                out.append({"type": "march_ability", "unit": names[u],
                            "targets": [names[targets[0]], LANDS[targets[1]]] if targets else []})
        out += discards
        out.append({"type": "end_turn"})
        return out

    def determinize(self, player, rng, guess=None):
        """A game as seat `player` could imagine this one: what `view(player)` shows and the seat's
        own deck list kept, everything else it cannot see drawn from `rng` (a `random.Random`):
        both draw piles' order, the opponent's unseen hand and deck cards (from `guess(seen counts
        {card id: n}, pool, count, rng) -> card ids`; default: the pool, favouring cards the
        opponent has shown), its hidden leader choice (a random legal one) and the game's RNG.
        For search: the result depends only on what the seat may know and on `rng`."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        state, hidden_choice = determinize(self.state, player, rng, guess)
        game = Game(state)
        if hidden_choice:
            opp = 1 - player
            options = [a for a in game.legal_actions(opp) if a["type"] == "choose_leaders"]
            game.apply_listed(opp, rng.choice(options))
        return game

    def view(self, player=None):
        """What `player` (or a spectator, None) may see: never hidden information (R18.6). The views of
        one state share their public parts (webapp/engine/views.py): treat them as read-only."""
        if player not in (0, 1, None):
            raise ValueError(f"player must be 0, 1 or None, got {player!r}")
        s = self.state
        if s.static.imagined:  # a search's imagined world: read once, by its own seat; nothing to share
            return views.view(s, player, None, views.Public(s, self.waiting_for()))
        kept = PUBLIC.get(id(s))
        if kept is None or kept[0] is not s or kept[1] != s.version:  # made once per state, for every reader
            kept = PUBLIC[id(s)] = (s, s.version, views.Public(s, self.waiting_for()))
            if len(PUBLIC) > PUBLIC_KEPT:
                forget_oldest(PUBLIC)
        return views.view(s, player, None, kept[2])

    def glance(self, player):
        """The parts of `view(player)` a quick reader decides from, with the view's values: "phase",
        "lands", "units", "players" (the seat's own entry holding its "hand" alone, the other empty) and
        "battle" (its "chain" alone), nothing else (webapp/engine/views.py, `glance`). For the baseline
        CPU's choices in a search's imagined lines; fresh, nothing kept for other readers."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        return views.glance(self.state, player)

    def seen_ids(self, player=None):
        """The instance ids `player` (or a spectator, None) sees named in its view: the board, both
        discard piles, its own hand and the opponent's cards shown in hand (R18.6)."""
        names = self.state.static.names
        return {names[c] for c in views.seen_instances(self.state, player)}

    # ---------------------------------------------------------------- actions

    def is_legal(self, player, action):
        """Whether `apply(player, action)` would accept the action: the same check, changing nothing
        (no state, no RNG draw; only the caches of legal actions may fill)."""
        try:
            self._check(player, action)
        except IllegalAction:
            return False
        return True

    def joiners(self, player, action):
        """What may still join a partly chosen march or quick summon: the ids that, added to the
        action's set (`units` toward `to`, or `cards`), keep it legal; [] if the set so far is not
        part of any legal choice. For the board's march picker and the CPUs."""
        if not isinstance(action, dict) or action.get("type") not in ("march", "quick_summon"):
            return []
        for entry in self.legal_actions(player):
            if choices.is_compact(entry) and entry["type"] == action["type"]:
                picked = choices.picked_of(entry, {**action, entry["fill"]: action.get(entry["fill"], [])})
                if picked is not None:
                    return choices.joiners(entry, picked)
        return []

    def apply(self, player, action):
        """Apply one action of `player`; returns the events. Raises IllegalAction, changing nothing."""
        return self._step(player, action, self._check(player, action))

    def apply_listed(self, player, action):
        """`apply` for a simulation's own moves, without `apply`'s checks of the action: for an action
        that is an entry of this game's `legal_actions(player)` now, as listed, or a choice of one of its
        compact entries (`choices.fill` of a set that `choices.fits`). The CPUs' imagined games (search
        rollouts) and benches use it; a player's action always goes through `apply`, which checks it
        exactly. An action outside that contract is still refused when the game does not wait for
        `player` or is over; anything else about it is trusted, so give it nothing else."""
        s = self.state
        kind = action["type"]
        if s.result is not None or (kind != "resign" and not self._waits_for(player)):
            return self.apply(player, action)  # refused there, with its words
        return self._step(player, action, kind)

    def _step(self, player, action, kind):
        """Do an action already let through on a copy of the state, publish the copy; the events."""
        old = self.state
        new = old.copy()
        ev = []
        self._do(new, player, action, kind, ev)
        new.version += 1
        self.state = new
        self._legal.clear()
        board = self._board
        if board is not None:  # the board part of the main step's list outlives a discard (R6.7) only
            self._board = (new, player, board[2], board[3]) if kind == "discard" and board[0] is old \
                and board[1] == player else None
        return ev

    def _check(self, player, action):
        """The action's type if `player` may send it now; else IllegalAction. Reads, never writes."""
        s = self.state
        if player not in (0, 1):
            raise IllegalAction("There is no such player in this game.")
        if s.result is not None:
            raise IllegalAction("The game is over.", "R1.1")
        listed = self._legal.get(player)
        if listed is not None and listed[0] != s.version:
            listed = None
        # An entry of the player's list of this state, as listed: legal, shape included (equal dicts hold
        # equal keys, and values of the listed types but for numbers: a `choice` must be an int, as listed).
        if listed is not None and type(action) is dict and action in listed[1] \
                and "choose" not in action and type(action.get("choice", 0)) is int:  # a compact entry is no action
            return action["type"]
        kind = check_shape(action)
        if kind != "resign":
            if not self._waits_for(player):
                raise IllegalAction("It is not your move: the game waits for your opponent.", "R6.1")
            if listed is None or not among(listed[1], action, kind):
                self._check_legal(player, action, kind)
        return kind

    def set_result(self, winner, reason, note=None):
        """End the game from outside the rules: the server's timeout or disconnect (R1.3, R18), or the
        host ("host", nobody wins; ``note``, the host's reason in their words, goes into the result)."""
        if self.state.result is not None:
            raise IllegalAction("The game is already over.", "R1.1")
        if winner not in (0, 1, None) or reason not in RESULT_REASONS:
            raise ValueError(f"bad result: winner {winner!r}, reason {reason!r}")
        new = self.state.copy()
        ev = []
        effects.finish(new, winner, reason, ev)
        if note:
            new.result["note"] = str(note)
        new.version += 1
        self.state = new
        self._legal.clear()
        return ev

    def _check_legal(self, player, action, kind):
        idx = self.state.static.index
        check_named(action, kind, idx.__contains__)
        try:
            self._check_rules(player, action, kind)
        except IllegalAction:
            # R18.6: a refusal says no more than the asker's view shows. An action naming a card the
            # seat cannot see (in a deck, in the opponent's hand) gets the answer of an id that does
            # not exist, whatever made it illegal; the check runs only on the way to a refusal.
            seen = views.seen_instances(self.state, player)
            check_named(action, kind, lambda name: idx[name] in seen)
            raise

    def _check_rules(self, player, action, kind):
        s = self.state
        idx = s.static.index
        # Discards, formations, quick summons, over-capacity choices, marches and summons are checked
        # directly (their legal list is compact); the rest against the list of legal actions.
        if kind == "discard":
            cards = action["cards"]
            hand = s.hand[player]
            if s.phase != "main" or not cards or len(set(cards)) != len(cards) \
                    or any(idx[c] not in hand for c in cards):
                raise IllegalAction("You may discard only cards from your own hand, each once, in your main "
                                    "step (not during a battle).", "R6.7")
            return
        if kind == "formation":
            b = s.battle
            order = action["order"]
            if s.phase != "battle" or b.step != "formation" or \
                    sorted(idx[u] for u in order) != sorted(b.party[player]) or len(set(order)) != len(order):
                raise IllegalAction("A formation puts your whole battle party in order, each monster once.", "R9.4")
            return
        if kind == "quick_summon":
            cards = [idx[c] for c in action["cards"]]
            if s.phase == "battle" and s.battle.step == "quick" and battle.quick_legal(s, player, cards):
                return
            raise IllegalAction(*SET_REFUSALS[kind])
        if kind == "march":
            if action["to"] not in LANDS:
                raise IllegalAction("There is no such land.", "R4.1")
            units = [idx[u] for u in action["units"]]
            dest = LANDS.index(action["to"])
            if s.phase != "main" or player != s.active:
                raise IllegalAction("You may march only in your own main step.", "R6.3")
            if not turn.march_legal(s, player, units, dest):
                raise IllegalAction(*turn.march_refusal(s, player, units, dest, self.card_name))
            return
        if kind == "summon":
            c = idx[action["card"]]
            if s.phase == "main" and player == s.active and turn.summon_legal(s, player, c):
                return
            raise IllegalAction(*turn.summon_refusal(s, player, c, self.card_name))
        if kind == "end_turn" and s.phase == "main":
            return  # the active player may always end the main phase (R6.5)
        legal = self.legal_actions(player)
        if kind == "destroy_over_capacity":
            if s.phase == "over_capacity" and player == s.active and \
                    turn.over_capacity_legal(s, [idx[u] for u in action["units"]]):
                return
            raise IllegalAction(*SET_REFUSALS[kind])
        if kind == "choose_leaders":
            key = "cards"  # a set: any order
            want = sorted(action[key])
            if len(set(want)) == len(want) and any(a["type"] == kind and sorted(a[key]) == want for a in legal):
                return
            raise IllegalAction(*SET_REFUSALS[kind])
        if action in legal:  # dict equality: same keys and values, list order included
            return
        raise IllegalAction(self._refusal(action, kind))

    def card_name(self, inst):
        """The English name of a card instance, for messages."""
        card = self.state.static.cards[inst]
        return card.data.get("name", {}).get("en", card.id)

    def _refusal(self, action, kind):
        """Plain words for an action that is not among the legal ones now."""
        idx = self.state.static.index
        if kind == "ability":
            return f"{self.card_name(idx[action['unit']])} cannot use that ability now."
        if kind == "march_ability":
            return f"{self.card_name(idx[action['unit']])} cannot use its [March] ability that way now."
        if kind == "spell":
            return f"You cannot cast {self.card_name(idx[action['card']])} that way now."
        return f"{WORDS[kind].capitalize()} is not possible now."

    def _do(self, s, p, a, kind, ev):
        idx = s.static.index
        if kind == "resign":
            ev.append({"type": "resigned", "player": p})
            effects.finish(s, 1 - p, "resign", ev)
        elif kind == "choose_leaders":
            turn.choose_leaders(s, p, [idx[c] for c in a["cards"]], ev)
        elif kind == "summon":
            turn.summon(s, p, idx[a["card"]], ev)
        elif kind == "march":
            turn.march(s, p, [idx[u] for u in a["units"]], LANDS.index(a["to"]), ev)
        elif kind == "march_ability":
            t = a.get("targets", [])
            targets = (idx[t[0]], LANDS.index(t[1])) if t else ()
            turn.use_march_ability(s, p, idx[a["unit"]], targets, ev)
        elif kind == "discard":
            turn.discard(s, p, [idx[c] for c in a["cards"]], ev)
        elif kind == "end_turn":
            turn.end_turn(s, p, ev)
        elif kind == "destroy_over_capacity":
            turn.destroy_over_capacity(s, [idx[u] for u in a["units"]], ev)
        else:
            battle.act(s, p, a, ev)


COMPACT_KINDS = frozenset(("march", "quick_summon", "formation", "destroy_over_capacity"))


def among(listed, action, kind):
    """Whether an action of a right shape (`check_shape`) is a choice of one of the compact entries of
    `listed`, this state's legal list for its player (`choices.fits`). Each is legal by the list's
    contract (docs/engine.md), so `apply` need not check it again; False sends it through the full
    check (which alone words a refusal)."""
    if kind in COMPACT_KINDS:  # their entries' keys besides the choice's own: "type", and "to" for a march
        to = action.get("to")
        for entry in listed:
            if entry["type"] == kind and "choose" in entry and entry.get("to") == to:
                return choices.fits(entry, action[entry["fill"]])  # one entry per type (and land)
    return False  # an entry as listed was let through before the shape check (Game._check)


# action type -> (required keys, every allowed key with "type")
SHAPE_KEYS = {k: (frozenset(req), frozenset(req | opt | {"type"})) for k, (req, opt) in SHAPES.items()}


def check_named(action, kind, known):
    """IllegalAction if the action names an id that is not ``known`` (an instance of this game, or
    one the asker may see): the same words for every such id."""
    for key, value in action.items():
        if key in LIST_KEYS:
            for name in value:
                if key == "targets" and kind == "march_ability" and name in LANDS:
                    continue
                if not known(name):
                    raise IllegalAction(f"{WORDS[kind].capitalize()}: one of the cards named is not in this game.")
    for key in NAMED_KEYS:
        if key in action and not known(action[key]):
            raise IllegalAction(f"{WORDS[kind].capitalize()}: the card named is not in this game.")


NAMED_KEYS = ("card", "unit", "sacrifice")
_is_str = str.__instancecheck__  # isinstance(x, str), for map()


def check_shape(action):
    """The action's type, once its keys and value types are right."""
    if not isinstance(action, dict):
        raise IllegalAction("That is not a move the game understands.")
    kind = action.get("type")
    shape = SHAPE_KEYS.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise IllegalAction("That is not a move the game understands.")
    required, allowed = shape
    keys = action.keys()
    if not (required <= keys and keys <= allowed):
        raise IllegalAction(f"{WORDS[kind].capitalize()}: the move is incomplete or has parts the game "
                            f"does not understand.")
    for k, v in action.items():
        if k == "type":
            continue
        if k in LIST_KEYS:
            if not isinstance(v, list) or len(v) > 40 or not all(map(_is_str, v)):
                raise IllegalAction(f"{WORDS[kind].capitalize()}: the move names its cards wrongly.")
        elif k == "choice":
            if not isinstance(v, int) or isinstance(v, bool):
                raise IllegalAction(f"{WORDS[kind].capitalize()}: the choice must be a number.")
        elif not isinstance(v, str):
            raise IllegalAction(f"{WORDS[kind].capitalize()}: the move names its card wrongly.")
    return kind


def check_deck(deck, pool, p):
    """R2.1: exactly 30 known card ids with at least one monster."""
    if not isinstance(deck, (list, tuple)) or len(deck) != DECK_SIZE:
        raise ValueError(f"deck {p}: a deck is exactly {DECK_SIZE} card ids (R2.1), "
                         f"got {len(deck) if isinstance(deck, (list, tuple)) else deck!r}")
    for cid in deck:
        if not isinstance(cid, str) or cid not in pool:
            raise ValueError(f"deck {p}: unknown card {cid!r}")
    if not any(pool[c].kind == "monster" for c in deck):
        raise ValueError(f"deck {p}: a deck holds at least one monster (R2.1)")
