"""Why the hint suggests its move: the few facts that separate it from the runner-up.

Made from two things only, both the asking seat's own: its view before the move (what the move
would take, attack, leave exposed; `view(p)` shows nothing hidden) and what the search found after
each candidate (its imagined lines, drawn by `Game.determinize`, which never reads what the seat
cannot see). So two games that differ only in what the seat cannot see give the same facts for the
same search (tests/ai/test_reasons.py).

A fact is `(key, params)`: params name cards by card id and lands by their code (H0, L1 … L6, H1),
both of which the seat sees; webapp/game/hintwords.py puts them into words in the player's language.
"""

from webapp.engine import ADJACENT, LANDS

#: a difference in the search's rates worth saying (a share of its imagined lines)
RATE_GAP = 0.15
#: a difference in average land lead worth saying
LEAD_GAP = 0.5


def runner_up(result):
    """The index of the second most tried candidate (None if the search tried only one)."""
    visits = result.visits
    best = result.candidates.index(result.action) if result.action in result.candidates else 0
    others = [i for i in range(len(visits)) if i != best and visits[i]]
    if not others:
        return None
    return max(others, key=lambda i: (visits[i], -i))


def board_facts(view, player, action):
    """Facts about `action` read from `view` (the seat's): [(key, params, good)] — `good` says
    whether the fact speaks for the move (True) or against it (False)."""
    units = {u["id"]: u for u in view["units"]}
    lands = view["lands"]
    enemy = 1 - player
    mine_lands = sum(1 for land in lands.values() if land["owner"] == player)
    their_lands = sum(1 for land in lands.values() if land["owner"] == enemy)
    my_leaders = [u for u in view["units"] if u["owner"] == player and u["leader"]]
    out = []
    t = action["type"]
    if t == "march":
        movers = [units[u] for u in action["units"] if u in units]
        dest = action["to"]
        power = sum(u["power"] for u in movers)
        life = sum(u["life"] for u in movers)
        defenders = [u for u in view["units"] if u["land"] == dest and u["owner"] == enemy]
        if defenders:
            their_life = sum(u["life"] for u in defenders)
            their_power = sum(u["power"] for u in defenders)
            out.append(("attack", {"land": dest, "power": power, "their_life": their_life,
                                   "their_power": their_power}, power >= their_life))
        elif lands[dest]["owner"] != player:
            theirs = their_lands - (1 if lands[dest]["owner"] == enemy else 0)
            out.append(("takes", {"land": dest, "mine": mine_lands + 1, "theirs": theirs},
                        mine_lands + 1 >= theirs))
        # who would stand on the destination afterwards, and what enemy power stands beside it
        staying = [u for u in view["units"] if u["land"] == dest and u["owner"] == player
                   and u["id"] not in action["units"]]
        stack_life = life + sum(u["life"] for u in staying)
        near = {LANDS[n] for n in ADJACENT[LANDS.index(dest)]}
        threat = sum(u["power"] for u in view["units"] if u["owner"] == enemy and u["land"] in near)
        leaders = [u for u in movers if u["leader"]]
        if leaders and not defenders and threat >= stack_life:
            lead = leaders[0]
            out.append(("leader_exposed", {"card": lead["card"], "land": dest, "power": threat,
                                           "life": stack_life, "alone": not staying and len(movers) == 1,
                                           "last": len(my_leaders) == 1}, False))
        base = ("H0", "H1")[player]
        if movers and all(u["land"] == base for u in movers):
            left = [u for u in view["units"] if u["land"] == base and u["owner"] == player
                    and u["id"] not in action["units"]]
            near_base = {LANDS[n] for n in ADJACENT[LANDS.index(base)]}
            at_base = sum(u["power"] for u in view["units"] if u["owner"] == enemy and u["land"] in near_base)
            if at_base and sum(u["life"] for u in left) < at_base:
                out.append(("base_open", {"power": at_base}, False))
    elif t == "summon":
        card = next((h["card"] for h in view["players"][player].get("hand", []) if h["id"] == action["card"]), None)
        if card is not None:
            out.append(("summon", {"card": card}, True))
    elif t == "end_turn":
        base = ("H0", "H1")[player]
        near_base = {LANDS[n] for n in ADJACENT[LANDS.index(base)]}
        at_base = sum(u["power"] for u in view["units"] if u["owner"] == enemy and u["land"] in near_base)
        guard = sum(u["life"] for u in view["units"] if u["owner"] == player and u["land"] == base)
        if at_base:
            out.append(("holds", {"power": at_base, "life": guard}, guard >= at_base))
    return out


def search_facts(best, other):
    """Facts from the search's statistics of two candidates ({win, lost, leader_fell, lead, visits}):
    [(key, params)] speaking for `best` against `other`, largest gap first."""
    out = []
    if best.get("leader_fell") is not None and other.get("leader_fell") is not None:
        gap = other["leader_fell"] - best["leader_fell"]
        if gap >= RATE_GAP:
            out.append((gap, ("leader_falls", {"this": pct(best["leader_fell"]), "other": pct(other["leader_fell"])})))
    if best.get("lost") is not None and other.get("lost") is not None:
        gap = other["lost"] - best["lost"]
        if gap >= RATE_GAP:
            out.append((gap, ("losses", {"this": pct(best["lost"]), "other": pct(other["lost"])})))
    if best.get("lead") is not None and other.get("lead") is not None:
        gap = best["lead"] - other["lead"]
        if gap >= LEAD_GAP:
            out.append((gap / 4, ("land_lead", {"this": round(best["lead"], 1), "other": round(other["lead"], 1)})))
    out.sort(key=lambda t: -t[0])
    return [f for _g, f in out]


def explain(view, player, result, most=3):
    """The reasons for `result` (a SearchResult with `stats`, searched for `player` from the position
    `view` shows): {"facts": [(key, params)] for the move (at most `most`), "runner_up": the next
    best action or None, "runner_up_win": its estimated chance, "against": [(key, params)] about the
    runner-up}. Only facts that tell the two apart are kept."""
    stats = result.stats or []
    best_i = result.candidates.index(result.action) if result.action in result.candidates else None
    r = runner_up(result) if stats and best_i is not None else None
    mine = board_facts(view, player, result.action)
    facts = [(k, p) for k, p, good in mine if good]
    against = []
    runner = None
    runner_win = None
    if r is not None:
        runner = result.candidates[r]
        runner_win = stats[r]["win"]
        theirs = board_facts(view, player, runner)
        mine_keys = {(k, tuple(sorted(p.items()))) for k, p, _g in mine}
        against = [(k, p) for k, p, good in theirs if not good and (k, tuple(sorted(p.items()))) not in mine_keys]
        facts = search_facts(stats[best_i], stats[r]) + facts
    bad_mine = [(k, p) for k, p, good in mine if not good]
    return {"facts": facts[:most], "risks": bad_mine[:1], "runner_up": runner, "runner_up_win": runner_win,
            "against": against[:2]}


def pct(x):
    return round(100 * x)
