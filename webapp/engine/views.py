"""The only gate to hidden information (R18.6): what one player, or a spectator, may see.

A view is made of the parts every reader sees alike (``Public``: the lands, the units, the battle,
each player's counts and discards) and the reader's own: its seat (``viewer``) and its hand (and its
leader choice while leaders are chosen). ``Game.view`` makes the public parts once per state and
puts them into every seat's view, so the views of one state share those objects: treat a view as
read-only (as the legal actions are).
"""

from . import stats
from .board import DISTANCE, LANDS, standing

_LANDS = tuple(enumerate(LANDS))


class Public:
    """The parts of a state's view that every reader (either seat, a spectator) sees alike."""

    __slots__ = ("result", "waiting", "lands", "units", "players", "failed", "pending", "battle", "opening",
                 "leaders", "standing")

    def __init__(self, s, waiting):
        st = s.static
        names, cards = st.names, st.cards
        b = s.battle
        au = stats.auras(s) if b is not None else None
        self.lands = _lands(s)
        self.units = _units(s, b, au)
        hand, shown, owners = s.hand, s.shown, s.owners
        piles = st.discard_views  # each discard pile's two lists in the game's last view, while the pile is the same
        players = []
        for p in (0, 1):
            discard = s.discard[p]
            kept = piles[p]
            if kept is None or kept[0] != discard:
                kept = piles[p] = (discard[:], [cards[c].id for c in discard], [names[c] for c in discard])
            entry = {"hand_count": len(hand[p]), "deck_count": len(s.deck[p]),
                     "discard": kept[1], "discard_ids": kept[2],
                     "leaders_chosen": s.leader_choice[p] is not None,
                     "lands": owners.count(p)}
            if shown:
                entry["shown_hand"] = [{"id": names[c], "card": cards[c].id} for c in hand[p] if c in shown]
            players.append(entry)
        self.players = players
        self.result = dict(s.result) if s.result else None
        self.waiting = sorted(waiting)
        self.failed = sorted(LANDS[land] for land in s.failed)
        self.pending = {"player": s.active, "land": LANDS[s.pending[0]]} if s.pending else None
        self.battle = battle_view(s, au) if b is not None else None
        opening = st.opening_view  # one copy of the opening per game (it never changes)
        if opening is None or opening[0] is not s.opening:
            opening = st.opening_view = (s.opening, dict(s.opening) if s.opening else None)
        self.opening = opening[1]
        self.standing = _standing(s)
        lc = s.leader_choice
        self.leaders = ([[names[c] for c in lc[p]] for p in (0, 1)]
                        if s.phase != "leaders" and lc[0] is not None and lc[1] is not None else None)


def _lands(s):
    """The view's lands: each land's kind, capacity, owner, the levels each player uses there and the
    distances from both bases. While the owners and levels stay the same, the lands of the game's last
    view again (``Static.lands_view``); a land as it was in an earlier view gets that entry again
    (``Static.land_views``, as ``_units`` keeps units)."""
    st = s.static
    owner, levels = st.owner, st.levels
    used0, used1 = [0] * len(LANDS), [0] * len(LANDS)
    for u, land in s.land.items():
        if owner[u]:
            used1[land] += levels[u]
        else:
            used0[land] += levels[u]
    owners = s.owners
    key = (owners, tuple(used0), tuple(used1))
    kept = st.lands_view
    if kept is not None and kept[0] == key:
        return kept[1]
    kinds, capacity = st.kinds, st.capacity
    made = st.land_views
    lands = {}
    for land, name in _LANDS:
        values = (owners[land], used0[land], used1[land])
        kept = made[land]
        if kept is None or kept[0] != values:
            kept = made[land] = (values, {"kind": kinds[land], "capacity": capacity[land], "owner": values[0],
                                          "used": [values[1], values[2]],
                                          "distance": [DISTANCE[0][land], DISTANCE[1][land]]})
        lands[name] = kept[1]
    st.lands_view = (key, lands)
    return lands


def _standing(s):
    """R16.1's judgment as the lands are owned now; while their owners stay the same, the entry of the
    game's last view again (kept in ``Static.standing_view``, as ``_units`` keeps units)."""
    st = s.static
    kept = st.standing_view
    if kept is None or kept[0] != s.owners:
        counts, fronts, leading = standing(s.owners)
        kept = st.standing_view = (s.owners, {"lands": counts, "fronts": fronts, "leading": leading})
    return kept[1]


def _units(s, b, au):
    """The units on the board, by land, then arrival (a stable sort of the arrival order). A unit whose
    values are those of its entry in an earlier view of the game gets that entry again (kept in
    ``Static.unit_views``, the last entry made for each unit): the views of a game share the entries of
    the units that did not change, which the updates then skip as the same object."""
    st = s.static
    names, cards, owner, printed = st.names, st.cards, st.owner, st.printed
    where, leaders, exhausted, marches = s.land, s.leaders, s.exhausted, s.marches
    made = st.unit_views
    units = []
    # in a battle, the units with values of their own in it (the others' are the printed ones)
    touched = () if b is None else b.damage.keys() | b.boosts.keys() | au.bonus.keys() | b.level.keys() | b.tribe.keys()
    for u in sorted(where, key=where.__getitem__):
        card = cards[u]
        stats = _battle_stats(u, card, b, au) if u in touched else printed[u]
        tired = u in exhausted
        values = (where[u], u in leaders, tired, 0 if tired else (2 if card.double_march else 1) - marches.get(u, 0),
                  stats)
        kept = made.get(u)
        if kept is not None and kept[0] == values:
            units.append(kept[1])
            continue
        hurt, life, power, speed, level, tribe = stats
        entry = {"id": names[u], "card": card.id, "owner": owner[u], "land": LANDS[values[0]],
                 "leader": values[1], "exhausted": tired, "life": life - hurt, "max_life": life,
                 "power": power, "speed": speed, "level": level, "tribe": tribe, "marches_left": values[3]}
        made[u] = (values, entry)
        units.append(entry)
    return units


def _battle_stats(u, card, b, au):
    """(damage, max life, power, speed, level, tribe) of a unit in a battle: stats.modified inlined
    (boosts, then [Battle] bonuses; only speed in a simultaneous attack, R10.9), stats.level and
    stats.tribe. Out of battle they are the printed ones (``Static.printed``)."""
    power, life, speed, level = card.power, card.life, card.speed, card.level
    for table in (b.boosts, au.bonus):
        add = table.get(u)
        if add is not None:
            speed += add[2]
            if not b.simultaneous:
                power += add[0]
                life += add[1]
    if u in b.level:
        level = max(0, level + b.level[u])
    return b.damage.get(u, 0), life, power, speed, level, b.tribe.get(u, card.tribe)


def view(s, viewer, waiting, public=None):
    """A JSON-safe dict of the game as `viewer` (0, 1 or None for a spectator) sees it. ``public``, if
    given, is ``Public(s, waiting)`` made before (shared by the views of the same state)."""
    if public is None:
        public = Public(s, waiting)
    players = public.players
    if viewer is not None:
        names, cards = s.static.names, s.static.cards
        entry = dict(players[viewer])
        entry["hand"] = [{"id": names[c], "card": cards[c].id} for c in s.hand[viewer]]
        if s.phase == "leaders" and s.leader_choice[viewer] is not None:
            entry["leader_choice"] = [names[c] for c in s.leader_choice[viewer]]
        players = [entry, players[1]] if viewer == 0 else [players[0], entry]
    else:
        players = list(players)
    out = {"round": s.round, "active": s.active, "first": s.first, "phase": s.phase,
           "result": public.result, "version": s.version,
           "waiting_for": public.waiting, "viewer": viewer, "lands": public.lands, "units": public.units,
           "players": players, "failed_lands": public.failed, "pending": public.pending,
           "battle": public.battle, "opening": public.opening, "standing": public.standing}
    if public.leaders is not None:
        out["leaders"] = public.leaders
    return out


def glance(s, viewer):
    """The parts of ``view(s, viewer)`` that a quick reader decides from (the baseline CPU, at every
    step of a search's imagined lines, where a whole view cost a third of its choice): "phase",
    "lands", "units", "players" (the viewer's entry with its "hand" alone, the other one empty) and
    "battle" (its "chain" alone, or None). What it holds has the values of the view's (made by the
    same functions): a reader of these keys decides alike from either. `viewer` is 0 or 1."""
    names, cards = s.static.names, s.static.cards
    b = s.battle
    players = [{}, {}]
    players[viewer] = {"hand": [{"id": names[c], "card": cards[c].id} for c in s.hand[viewer]]}
    return {"phase": s.phase, "lands": _lands(s), "units": _units(s, b, stats.auras(s) if b is not None else None),
            "players": players, "battle": {"chain": _chain(b, names)} if b is not None else None}


def seen_instances(s, viewer):
    """The card instances ``viewer`` (0, 1, or None for a spectator) sees named in its view: the units
    on the board, both discard piles, its own hand and the opponent's cards shown in hand. The cards
    of both decks and the opponent's other hand cards are hidden (R18.6)."""
    seen = set(s.land)
    for p in (0, 1):
        seen.update(s.discard[p])
        if p == viewer:
            seen.update(s.hand[p])
        elif s.shown:
            seen.update(c for c in s.hand[p] if c in s.shown)
    return seen


def battle_view(s, au):
    b = s.battle
    names = s.static.names
    cards = s.static.cards
    slots = {}
    for p in (0, 1):
        pool = stats.slots(s, p, au)
        kinds = sorted(set(pool) | set(b.used[p]))
        slots[str(p)] = {k: {"total": pool.get(k, 0), "used": b.used[p].get(k, 0)} for k in kinds}
    chain = _chain(b, names)
    initiative = None
    if b.rolls is not None:
        initiative = {"rolls": {str(p): {"die": b.rolls[p][0], "speed": b.rolls[p][1],
                                         "total": b.rolls[p][0] + b.rolls[p][1]} for p in (0, 1)},
                      "first": b.order[0] if b.order else None}
    return {"land": s.land_name(b.land), "attacker": b.attacker, "defender": 1 - b.attacker,
            "step": b.step, "step_player": b.step_player,
            "parties": {str(p): [names[u] for u in b.party[p]] for p in (0, 1)},
            "quick": [names[u] for u in b.quick if u in s.land], "initiative": initiative,
            "simultaneous": b.simultaneous,
            "striker": b.order[b.striker] if b.order and b.step == "fight" else None,
            "order": list(b.order) if b.order else None, "responder": b.responder,
            "chain": chain, "acted": sorted(names[u] for u in b.acted if u in s.land),
            "negated": sorted(names[u] for u in b.negated if u in s.land), "slots": slots,
            "spell_lock": au.lock, "done": sorted(b.done),
            "fallen": {str(p): [cards[u].id for u in b.fallen[p]] for p in (0, 1)},
            "origins": {names[u]: s.land_name(land) for u, land in sorted(b.origin.items()) if u in s.land}}


def _chain(b, names):
    """The battle's chain of declarations as the view shows it (R11)."""
    chain = []
    for i, d in enumerate(b.chain):
        entry = {"index": i, "player": d["player"], "kind": d["kind"],
                 "targets": [names[t] for t in d["targets"]], "responds_to": d["on"]}
        if d["unit"] is not None:
            entry["unit"] = names[d["unit"]]
        if d["card_id"] is not None:
            entry["card"] = d["card_id"]
        if d["kind"] == "attack":
            entry["units"] = [names[u] for u in d["units"]]
        if d["choice"] is not None:
            entry["choice"] = d["choice"]
        if d["coin"] is not None:
            entry["coin"] = "heads" if d["coin"] else "tails"
        if d["cancelled"]:
            entry["cancelled"] = True
        chain.append(entry)
    return chain
