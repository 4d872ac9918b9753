"""Numbers behind the deckbuilder's charts: level curve, element split, monster/spell ratio, slot coverage.

Everything is whole numbers in plain lists and dicts, the same JSON that static/js/deck-rules.js
computes in the browser (a test runs both and compares). Cards not in the pool are left out.
"""

from webapp.decks.check import facts
from webapp.engine import ELEMENTS


def pool_levels(pool):
    """The monster levels of the pool, 1 up to the highest: the columns of the level curve."""
    top = max((facts(c)["level"] for c in pool.values() if facts(c)["kind"] == "monster"), default=1)
    return list(range(1, top + 1))


def coverage_status(provided, needed):
    """ "ok" when the monsters' slots cover the spells' mana, "short" when fewer, "none" when there are none (R12.2)."""
    if needed <= 0 or provided >= needed:
        return "ok"
    return "none" if provided == 0 else "short"


def deck_stats(counts, pool, levels=None):
    """The chart numbers of a deck ({card id: count})."""
    levels = levels or pool_levels(pool)
    known = [(facts(pool[cid]), n) for cid, n in counts.items() if cid in pool and n > 0]
    monsters = [(d, n) for d, n in known if d["kind"] == "monster"]
    spells = [(d, n) for d, n in known if d["kind"] == "spell"]
    curve = {lvl: 0 for lvl in levels}
    for d, n in monsters:
        curve[d["level"]] = curve.get(d["level"], 0) + n
    wild = sum(d.get("slots", {}).get("wild", 0) * n for d, n in monsters)
    coverage = []
    for element in ELEMENTS:
        of_element = [(d, n) for d, n in spells if d["element"] == element]
        if not of_element:
            continue
        slots = sum(d.get("slots", {}).get(element, 0) * n for d, n in monsters)
        needed = sum(d.get("mana", 0) * n for d, n in of_element)
        coverage.append({
            "element": element,
            "spells": sum(n for _, n in of_element),
            "needed": needed,
            "heaviest": max(d.get("mana", 0) for d, _ in of_element),
            "slots": slots,
            "wild": wild,
            "status": coverage_status(slots + wild, needed),
        })
    return {
        "total": sum(n for _, n in known),
        "monsters": sum(n for _, n in monsters),
        "spells": sum(n for _, n in spells),
        "levels": [{"level": lvl, "count": curve[lvl]} for lvl in sorted(curve)],
        "elements": [{"element": e,
                      "monsters": sum(n for d, n in monsters if d["element"] == e),
                      "spells": sum(n for d, n in spells if d["element"] == e)} for e in ELEMENTS],
        "coverage": coverage,
    }
