"""State ⇄ JSON, exactly: the same state always gives the same text."""

import json

from .board import LANDS
from .carddefs import load_pool, parse_card
from .state import Battle, State, Static

FORMAT = 1


def dump(s):
    """The state as its saved text: ``snapshot(s)`` as JSON with sorted keys, compact, not ASCII-escaped."""
    return json.dumps(snapshot(s), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def snapshot(s):
    """The saved text's data: plain dicts, lists, strings, integers (the RNG's up to 2**64 - 1), booleans
    and None, string keys only, so any JSON encoder that sorts keys and writes the same separators
    writes the same text as ``dump`` (the server's store uses orjson, webapp/game/play.py ``snapshot_text``).
    It is ``static_snapshot(s.static)`` (what a game fixes at its start) and ``moving_snapshot(s)``."""
    data = static_snapshot(s.static)
    data.update(moving_snapshot(s))
    return data


def static_snapshot(st):
    """The keys of ``snapshot`` that never change during a game: its instances, scenario cards, lands."""
    n = st.names
    return {"format": FORMAT, "instances": [[n[i], st.cards[i].id, st.owner[i]] for i in range(len(n))],
            "custom": st.custom, "kinds": list(st.kinds), "leader_mode": st.leader_mode}


def moving_snapshot(s):
    """The other keys of ``snapshot``."""
    n = s.static.names
    b = s.battle
    data = {
        "round": s.round, "active": s.active, "first": s.first, "phase": s.phase, "result": s.result,
        "owners": list(s.owners), "deck": [[n[c] for c in z] for z in s.deck],
        "hand": [[n[c] for c in z] for z in s.hand], "discard": [[n[c] for c in z] for z in s.discard],
        "units": [[n[u], LANDS[land]] for u, land in s.land.items()],  # in order of arrival
        "leaders": sorted(n[u] for u in s.leaders), "exhausted": sorted(n[u] for u in s.exhausted),
        "marches": {n[u]: k for u, k in s.marches.items()}, "failed": sorted(LANDS[land] for land in s.failed),
        "leader_choice": [None if c is None else [n[u] for u in c] for c in s.leader_choice],
        "rng": s.rng, "dice": list(s.dice), "pending": [LANDS[land] for land in s.pending],
        "version": s.version, "opening": s.opening, "battle": None,
    }
    if s.shown:  # only when there are any: older saved texts stay exactly as they were
        data["shown"] = sorted(n[c] for c in s.shown)
    if b is not None:
        data["battle"] = {
            "land": LANDS[b.land], "attacker": b.attacker, "party": [[n[u] for u in p] for p in b.party],
            "origin": {n[u]: LANDS[land] for u, land in b.origin.items()}, "main_origin": LANDS[b.main_origin],
            "quick": [n[u] for u in b.quick], "step": b.step, "step_player": b.step_player,
            "rolls": None if b.rolls is None else [list(r) for r in b.rolls],
            "order": None if b.order is None else list(b.order), "striker": b.striker,
            "chain": [_dump_decl(d, n) for d in b.chain], "responder": b.responder,
            "acted": sorted(n[u] for u in b.acted), "damage": {n[u]: v for u, v in b.damage.items()},
            "boosts": {n[u]: list(v) for u, v in b.boosts.items()},
            "negated": sorted(n[u] for u in b.negated), "tribe": {n[u]: t for u, t in b.tribe.items()},
            "level": {n[u]: v for u, v in b.level.items()},
            "granted": {n[u]: [list(kv) for kv in v] for u, v in b.granted.items()},
            "used": list(b.used), "done": sorted(b.done), "fallen": [[n[u] for u in f] for f in b.fallen],
            "killed_leader": list(b.killed_leader), "simultaneous": b.simultaneous,
        }
    return data


def _dump_decl(d, n):
    out = dict(d)
    for k in ("unit", "card", "sacrifice"):
        if out[k] is not None:
            out[k] = n[out[k]]
    out["targets"] = [n[t] for t in d["targets"]]
    out["units"] = [n[u] for u in d["units"]]
    return out


def load(text, pool=None):
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise ValueError(f"saved game is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"saved game has an unknown format: {data.get('format') if isinstance(data, dict) else data!r}")
    try:
        return _load(data, pool)
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"saved game is malformed: {exc!r}") from None


def _load(data, pool):
    pool = load_pool() if pool is None else pool
    custom = data["custom"]
    defs = dict(pool)
    for cid, raw in custom.items():
        defs[cid] = parse_card(raw, "saved game", cid)
    inst = data["instances"]
    for _name, cid, _owner in inst:
        if cid not in defs:
            raise ValueError(f"saved game uses card {cid!r}, which is not in the pool")
    st = Static([defs[c] for _n, c, _o in inst], [o for _n, _c, o in inst], [nm for nm, _c, _o in inst],
                data["kinds"], custom, pool, data["leader_mode"])
    ix = st.index
    li = {name: i for i, name in enumerate(LANDS)}
    s = State.__new__(State)
    s.static = st
    s.round, s.active, s.first, s.phase = data["round"], data["active"], data["first"], data["phase"]
    s.result, s.owners = data["result"], tuple(data["owners"])
    s.deck = [[ix[c] for c in z] for z in data["deck"]]
    s.hand = [[ix[c] for c in z] for z in data["hand"]]
    s.discard = [[ix[c] for c in z] for z in data["discard"]]
    s.land = {ix[name]: li[land] for name, land in data["units"]}
    # R5.5: only leaders in play are leaders. A text saved before rules revision 3 still lists its
    # destroyed leaders: they are dropped here, so their cards come back as ordinary monsters.
    s.leaders = frozenset(ix[u] for u in data["leaders"] if ix[u] in s.land)
    s.exhausted = {ix[u] for u in data["exhausted"]}
    s.marches = {ix[u]: k for u, k in data["marches"].items()}
    s.failed = frozenset(li[land] for land in data["failed"])
    s.leader_choice = tuple(None if c is None else tuple(ix[u] for u in c) for c in data["leader_choice"])
    s.rng, s.dice = data["rng"], tuple(data["dice"])
    s.pending = tuple(li[land] for land in data["pending"])
    s.version, s.opening = data["version"], data["opening"]
    s.shown = frozenset(ix[c] for c in data.get("shown", ()))
    bd = data["battle"]
    s.battle = None
    if bd is not None:
        b = Battle.__new__(Battle)
        b.land, b.attacker = li[bd["land"]], bd["attacker"]
        b.party = [[ix[u] for u in p] for p in bd["party"]]
        b.origin = {ix[u]: li[land] for u, land in bd["origin"].items()}
        b.main_origin = li[bd["main_origin"]]
        b.quick = [ix[u] for u in bd["quick"]]
        b.step, b.step_player = bd["step"], bd["step_player"]
        b.rolls = None if bd["rolls"] is None else tuple(tuple(r) for r in bd["rolls"])
        b.order = None if bd["order"] is None else tuple(bd["order"])
        b.striker, b.responder = bd["striker"], bd["responder"]
        b.chain = [_load_decl(d, ix) for d in bd["chain"]]
        b.acted = {ix[u] for u in bd["acted"]}
        b.damage = {ix[u]: v for u, v in bd["damage"].items()}
        b.boosts = {ix[u]: tuple(v) for u, v in bd["boosts"].items()}
        b.negated = frozenset(ix[u] for u in bd["negated"])
        b.tribe = {ix[u]: t for u, t in bd["tribe"].items()}
        b.level = {ix[u]: v for u, v in bd["level"].items()}
        b.granted = {ix[u]: tuple(tuple(kv) for kv in v) for u, v in bd["granted"].items()}
        b.used = tuple(dict(x) for x in bd["used"])
        b.done = frozenset(bd["done"])
        b.fallen = tuple(tuple(ix[u] for u in f) for f in bd["fallen"])
        b.killed_leader = tuple(bd["killed_leader"])
        b.simultaneous = bd["simultaneous"]
        b.memo = None
        b.listed = None
        s.battle = b
    return s


def _load_decl(d, ix):
    out = dict(d)
    for k in ("unit", "card", "sacrifice"):
        if out[k] is not None:
            out[k] = ix[out[k]]
    out["targets"] = [ix[t] for t in d["targets"]]
    out["units"] = [ix[u] for u in d["units"]]
    return out
