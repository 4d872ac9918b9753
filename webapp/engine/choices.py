"""Compact entries of a legal-action list: choices that compose (docs/engine.md, "Compact entries").

Marches (R8.5 converge), quick summons (R9.2) and formations (R9.4) would list every set or every
order of units if enumerated; `Game.legal_actions` gives each family as one compact entry instead:

    {"type": "march", "to": "L3", "choose": "set", "fill": "units",
     "from": ["p0c3", "p0c9"], "levels": [2, 1], "room": 3, "battle": false}
    {"type": "quick_summon", "choose": "set", "fill": "cards", "from": [...], "levels": [...], "room": 2}
    {"type": "formation", "choose": "order", "fill": "order", "from": ["p0c3", "p0c9", "p0c4"]}
    {"type": "destroy_over_capacity", "choose": "cover", "fill": "units", "from": [...], "levels": [...],
     "excess": 2}

A compact entry is never sent as it is. `choose: "set"` stands for every action made of the entry's
`type` (and `to`), with `fill` set to a non-empty list of distinct ids from `from` whose `levels`
add up to `room` at most, in any order (for a march into a battle the first id's land is the main
origin, R8.8). `choose: "order"` stands for `fill` set to `from` in any order (`from` is the
standing order). `choose: "cover"` stands for the sets of distinct ids of `from` picked one at a time
while the land still overflows: their `levels` add up to `excess` at least, and without the highest
of them they would not (R8.8). Plain entries never carry a `choose` key.

Everything here reads only the entry (plain JSON), so a client that holds no `Game` (the bot, a
CPU deciding from a view) can use it as well as the engine.
"""

SPEC_KEYS = frozenset(("choose", "fill", "from", "levels", "room", "battle", "excess"))


def is_compact(entry):
    """Whether a legal-action entry stands for many actions (it has `choose`)."""
    return "choose" in entry


def fill(entry, picked):
    """The action that sends `picked` (ids; for an order: all of `from`) through a compact entry."""
    action = {k: v for k, v in entry.items() if k not in SPEC_KEYS}
    action[entry["fill"]] = list(picked)
    return action


def picked_of(entry, action):
    """The ids an action sends through `entry`, or None when the action is not of that entry
    (another type or destination)."""
    for k, v in entry.items():
        if k not in SPEC_KEYS and action.get(k) != v:
            return None
    picked = action.get(entry["fill"])
    return picked if isinstance(picked, list) else None


def fits(entry, picked):
    """Whether `picked` is one of the choices the entry stands for."""
    if not picked or len(set(picked)) != len(picked):
        return False
    frm = entry["from"]
    if entry["choose"] == "order":
        return len(picked) == len(frm) and set(picked) == set(frm)
    level = dict(zip(frm, entry["levels"], strict=True))
    total, top = 0, None
    for u in picked:
        lv = level.get(u)
        if lv is None:
            return False
        total += lv
        if top is None or lv > top:
            top = lv
    if entry["choose"] == "cover":
        return total >= entry["excess"] and total - top < entry["excess"]
    return total <= entry["room"]


def joiners(entry, picked=()):
    """The ids of `from` that may still join `picked` (a set entry): each fits the room left.
    `picked` empty: every id that may go alone. An order entry: the ids not placed yet."""
    chosen = set(picked)
    frm = entry["from"]
    if entry["choose"] == "order":
        return [u for u in frm if u not in chosen]
    level = dict(zip(frm, entry["levels"], strict=True))
    if any(u not in level for u in chosen) or len(chosen) != len(picked):
        return []
    if entry["choose"] == "cover":  # one more while the land still overflows
        return [] if sum(level[u] for u in picked) >= entry["excess"] else [u for u in frm if u not in chosen]
    left = entry["room"] - sum(level[u] for u in picked)
    return [u for u in frm if u not in chosen and level[u] <= left]


def greedy(entry, order=None):
    """The set taken by walking `order` (default `from`) and adding each id that still fits."""
    if entry["choose"] == "order":
        return list(order or entry["from"])
    level = dict(zip(entry["from"], entry["levels"], strict=True))
    if entry["choose"] == "cover":
        out, total = [], 0
        for u in order or entry["from"]:
            if total < entry["excess"]:
                out.append(u)
                total += level[u]
        return out
    left = entry["room"]
    out = []
    for u in order or entry["from"]:
        if level[u] <= left:
            out.append(u)
            left -= level[u]
    return out


def random_pick(entry, rng):
    """A random choice of the entry (`rng`: a `random.Random`): a random order; or a random first id,
    then each other id, in random order, joining with even odds while it fits."""
    frm = list(entry["from"])
    rng.shuffle(frm)
    if entry["choose"] == "order":
        return frm
    if entry["choose"] == "cover":
        return greedy(entry, frm)
    level = dict(zip(entry["from"], entry["levels"], strict=True))
    out = [frm[0]]
    left = entry["room"] - level[frm[0]]
    for u in frm[1:]:
        if level[u] <= left and rng.random() < 0.5:
            out.append(u)
            left -= level[u]
    return out


def samples(entry, rng=None, extra=4):
    """A bounded, varied list of the entry's choices, for a player that scores actions one by one:
    for a set, each id alone, the greedy set in listed and in reverse order, and `extra` random
    sets (with `rng`); for an order, the standing order, its reverse and `extra` random orders.
    For a cover, the greedy sets in listed and reverse order and `extra` random ones.
    Distinct picks only (as sets for a set entry); at most len(from) + 2 + extra."""
    frm = entry["from"]
    if entry["choose"] == "order":
        picks = [list(frm), list(reversed(frm))]
    elif entry["choose"] == "cover":
        picks = [greedy(entry), greedy(entry, list(reversed(frm)))]
    else:
        picks = [[u] for u in frm] + [greedy(entry), greedy(entry, list(reversed(frm)))]
    if rng is not None:
        picks += [random_pick(entry, rng) for _ in range(extra)]
    out, seen = [], set()
    for p in picks:
        k = tuple(p) if entry["choose"] == "order" else frozenset(p)
        if k not in seen:
            seen.add(k)
            out.append(p)
    return out


def concrete(legal, rng=None, extra=4):
    """A legal-action list with every compact entry replaced by `samples` of its actions."""
    out = []
    for entry in legal:
        if is_compact(entry):
            out += [fill(entry, p) for p in samples(entry, rng, extra)]
        else:
            out.append(entry)
    return out


def random_action_of(entry, rng):
    """A sendable action for one entry: itself, or a random choice of a compact entry."""
    return fill(entry, random_pick(entry, rng)) if is_compact(entry) else entry
