"""The stat budget: a rough value of a monster's printed numbers and marks, by level (docs/cards.md)."""

KEYWORD_VALUE = {"haste": 1.0, "double_march": 1.0, "far_march": 1.5, "spellproof": 1.5}
TIMING_VALUE = {"battle": 1.5, "normal": 1.5, "counter": 1.5, "on_destroy": 1.0, "march": 1.5,
                "strikes_first": 1.0, "strikes_second": 1.0}
DRAWBACK = -2.5  # a strike trigger that destroys its own unit
TOLERANCE = (-2.5, 2.0)


def target(level):
    """The value a monster of this level should have."""
    return 3.0 + 2.5 * level


def value(card):
    """power + ¾ life + ½ speed + ½ per slot (¾ wild) + keywords + Quick + abilities."""
    v = card.power + 0.75 * card.life + 0.5 * card.speed
    for kind, n in card.slots.items():
        v += (0.75 if kind == "wild" else 0.5) * n
    v += sum(KEYWORD_VALUE[k] for k in card.keywords)
    v += 0.5 if card.quick else 0.0
    for ab in card.abilities:
        selfish = ab.timing in ("strikes_first", "strikes_second") and any(
            e.op == "destroy" and e.to is not None and e.to.name == "self" for e in ab.all_effects())
        v += DRAWBACK if selfish else TIMING_VALUE[ab.timing]
    return v


def outliers(pool):
    """[(card id, level, value, target)] for monsters outside the tolerance."""
    out = []
    for c in pool.values():
        if c.kind != "monster":
            continue
        v, t = value(c), target(c.level)
        if not TOLERANCE[0] <= v - t <= TOLERANCE[1]:
            out.append((c.id, c.level, round(v, 2), t))
    return out
