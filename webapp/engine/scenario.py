"""Building a mid-game position from the scenario format (ARCHITECTURE.md, docs/engine.md)."""

from .board import CAPACITY, LAND_KINDS, LANDS, MIDDLE, SHARED_LANDS
from .carddefs import CardDataError, parse_card
from .rng import Rng, instance_numbers
from .state import Static, blank_state

TOP_KEYS = {"seed", "round", "active", "first", "lands", "owners", "players", "dice", "cards",
            "phase", "leader_mode"}
PLAYER_KEYS = {"hand", "deck", "discard", "units"}
UNIT_KEYS = {"card", "land", "leader", "exhausted", "id", "marched"}


def _fail(where, problem):
    raise ValueError(f"scenario: {where}: {problem}")


def _keys(data, allowed, where):
    if not isinstance(data, dict):
        _fail(where, f"expected an object, got {data!r}")
    unknown = sorted(set(data) - allowed)
    if unknown:
        _fail(where, f"unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")


def _int(v, where, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        _fail(where, f"expected an integer in {lo}..{hi}, got {v!r}")
    return v


def build(data, pool):
    _keys(data, TOP_KEYS, "top level")
    if "players" not in data:
        _fail("players", "missing")
    defs = dict(pool)
    custom = data.get("cards", {})
    _keys(custom, set(custom) if isinstance(custom, dict) else set(), "cards")
    for cid, raw in custom.items():
        try:
            defs[cid] = parse_card(raw, "scenario", cid)
        except CardDataError as exc:
            raise ValueError(str(exc)) from None
    seed = _int(data.get("seed", 0), "seed", 0, 2 ** 63)
    rng = Rng(seed)
    phase = data.get("phase", "main")
    if phase not in ("main", "leaders"):
        _fail("phase", f"{phase!r} is not 'main' or 'leaders'")
    kinds = ["base"] * len(LANDS)
    if "lands" in data:
        _keys(data["lands"], {LANDS[i] for i in MIDDLE}, "lands")
        if set(data["lands"]) != {LANDS[i] for i in MIDDLE}:
            _fail("lands", "name all of L1..L6")
        for name, kind in data["lands"].items():
            if kind not in LAND_KINDS:
                _fail(f"lands.{name}", f"{kind!r} is not one of {', '.join(LAND_KINDS)}")
            kinds[LANDS.index(name)] = kind
    else:
        shared = list(SHARED_LANDS)
        rng.shuffle(shared)
        for i, k in zip(MIDDLE, shared, strict=True):
            kinds[i] = k
    players = data["players"]
    if not isinstance(players, list) or len(players) != 2:
        _fail("players", "expected a list of two players")
    cards, owner, names = [], [], []
    entries = []  # (player, zone, position, entry)
    explicit = set()
    for p, pl in enumerate(players):
        _keys(pl, PLAYER_KEYS, f"players[{p}]")
        for zone in ("hand", "deck", "discard", "units"):
            items = pl.get(zone, [])
            if not isinstance(items, list):
                _fail(f"players[{p}].{zone}", "expected a list")
            for i, item in enumerate(items):
                where = f"players[{p}].{zone}[{i}]"
                if isinstance(item, str):
                    item = {"card": item}
                if zone == "units":
                    _keys(item, UNIT_KEYS, where)
                else:
                    _keys(item, {"card", "id"}, where)
                cid = item.get("card")
                if cid not in defs:
                    _fail(where, f"unknown card {cid!r}")
                if "id" in item:
                    iid = item["id"]
                    if not isinstance(iid, str) or not iid or iid in explicit or iid in LANDS:
                        _fail(f"{where}.id", f"{iid!r} is not a fresh instance id")
                    explicit.add(iid)
                entries.append((p, zone, i, item, where))
    numbers = [iter(instance_numbers(seed, p, sum(1 for e in entries if e[0] == p and "id" not in e[3]),
                                     explicit)) for p in (0, 1)]  # opaque ids, as in Game.new
    for p, _zone, _i, item, _where in entries:
        iid = item["id"] if "id" in item else f"p{p}c{next(numbers[p])}"
        cards.append(defs[item["card"]])
        owner.append(p)
        names.append(iid)
    used_custom = {c.id: custom[c.id] for c in cards if c.id in custom}
    static = Static(cards, owner, names, kinds, used_custom, pool, data.get("leader_mode", "simultaneous"))
    if static.leader_mode not in ("simultaneous", "sequential"):
        _fail("leader_mode", f"{static.leader_mode!r} is not 'simultaneous' or 'sequential'")
    s = blank_state(static, rng.state)
    s.first = _int(data.get("first", 0), "first", 0, 1)
    s.active = _int(data.get("active", s.first), "active", 0, 1)
    s.round = _int(data.get("round", 1 if phase == "leaders" else 2), "round", 1, 12)
    s.phase = phase
    if "owners" in data:
        _keys(data["owners"], set(LANDS), "owners")
        for name, o in data["owners"].items():
            if o not in (0, 1, None):
                _fail(f"owners.{name}", f"expected 0, 1 or null, got {o!r}")
            s.set_owner(LANDS.index(name), o)
    leaders = set()
    for inst, (p, zone, _i, item, where) in enumerate(entries):
        if zone == "deck":
            continue
        if zone != "units":
            (s.hand if zone == "hand" else s.discard)[p].append(inst)
            continue
        card = cards[inst]
        if card.kind != "monster":
            _fail(where, f"{card.id!r} is a spell, not a unit")
        land = item.get("land")
        if land not in LANDS:
            _fail(f"{where}.land", f"unknown land {land!r}")
        s.place(inst, LANDS.index(land))
        if item.get("leader", False):
            leaders.add(inst)
        if item.get("exhausted", False):
            s.exhausted.add(inst)
        if "marched" in item:
            s.marches[inst] = _int(item["marched"], f"{where}.marched", 0, 2)
    for p in (0, 1):
        s.deck[p] = [inst for inst, e in enumerate(entries) if e[0] == p and e[1] == "deck"][::-1]  # top first
        if len(s.hand[p]) > 6:
            _fail(f"players[{p}].hand", "more than 6 cards (R6.6)")
    for land in range(len(LANDS)):
        for p in (0, 1):
            if s.level_on(land, p) > CAPACITY[kinds[land]]:
                _fail(f"units on {LANDS[land]}", f"player {p}'s levels exceed the capacity {CAPACITY[kinds[land]]} (R4.4)")
        if s.units_on(land, 0) and s.units_on(land, 1):
            _fail(f"units on {LANDS[land]}", "both players' units stand on one land outside a battle")
        present = {s.static.owner[u] for u in s.units_on(land)}
        if present and LANDS[land] not in data.get("owners", {}):
            s.set_owner(land, present.pop())  # R4.5: standing on a land makes it yours
    s.leaders = frozenset(leaders)
    if phase == "main":
        for p in (0, 1):
            if not s.leaders_alive(p):
                _fail(f"players[{p}].units", "a game in progress needs at least one leader per player (R1.1)")
        s.leader_choice = (tuple(sorted(u for u in leaders if owner[u] == 0)),
                           tuple(sorted(u for u in leaders if owner[u] == 1)))
    elif leaders or s.land:
        _fail("players", "a scenario at the leader choice has no units yet")
    dice = data.get("dice", [])
    if not isinstance(dice, list):
        _fail("dice", "expected a list of die results")
    s.dice = tuple(_int(d, f"dice[{i}]", 1, 6) for i, d in enumerate(dice))
    return s
