"""The game log: the engine's public events (docs/engine.md, "Events") as plain English sentences.

``Narrator(instances, names, viewer).describe(events)`` (``webapp.game.gamelog.describe`` picks the
language's narrator) turns one action's events into sentences for one
reader: the viewer's own seat is "you", the other seat is called by its name ("the CPU" for the
CPU). Units are named the way a player would name them: "your Blaze Knight", "the CPU's Orc", and
"your second Goblin Raider" when two of the owner's units on view share a name; bases are "your
base" and "the CPU's base". Players never read instance ids (``p0c17``) or rule numbers.

``public`` (optional) lists the instance ids on view after the action (the units on the board):
with the units named in the events themselves, they decide whether a unit needs an ordinal, which
counts only units a player can see, in the order of their ids. Only ids that appear in the events
or on the board are looked up, so the log says nothing the events and the view do not (R18.6).
"""

import re

from webapp.engine import load_pool

#: Event types this module puts into words; tests check it covers docs/engine.md.
EVENT_TYPES = (
    "leaders_chosen", "leaders_revealed", "turn_started", "drew", "summoned", "marched", "land_taken",
    "battle_started", "quick_summoned", "formation", "initiative", "triggered", "declared", "passed",
    "resolved", "fizzled", "cancelled", "attack", "damage", "boosted", "negated", "slots_granted",
    "tribe_changed", "level_changed", "returned", "destroyed", "no_attack", "battle_ended", "refill",
    "capacity_restored", "discarded", "march_ability", "turn_ended", "judgment", "resigned", "game_over",
)

FIZZLE_REASONS = {
    "cancelled": "it was cancelled",
    "source_destroyed": "its source is gone",
    "negated": "its source lost its abilities",
    "target_gone": "its target is gone",
    "slots_gone": "the spell slots that paid for it are gone",
}
DESTROY_REASONS = {
    "attack": "", "life": "", "effect": "", "trigger": "",
    "sacrifice": " as a sacrifice", "over_capacity": " to fit the land's capacity",
}
TIMINGS = {
    "strikes_first": "its party strikes first",
    "strikes_second": "its party strikes second",
    "on_destroy": "on destroy",
}
RESULT_REASONS = {
    "leaders": "every enemy leader fell",
    "judgment": "by the round-12 judgment",
    "draw": "",
    "resign": "by resignation",
    "timeout": "on time",
    "disconnect": "the opponent left",
    "puzzle": "by the puzzle's goal",
    "host": "ended by the host",
}
INSTANCE = re.compile(r"^p([01])c(\d+)$")
#: The bases' names (as ``^H([01])$`` matches them: also before a final newline) -> their seat.
BASES = {"H0": 0, "H1": 1, "H0\n": 0, "H1\n": 1}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
#: Seat names that read as a common noun and so take "the": "the CPU draws 2 cards".
COMMON_NAMES = ("CPU",)
MINUS = "\u2212"


def ordinal(n):
    if 1 <= n <= len(ORDINALS):
        return ORDINALS[n - 1]
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def instance_number(uid):
    m = INSTANCE.match(uid or "")
    return int(m.group(2)) if m else 0


def mentioned(value):
    """Every instance-id-like string in an event (its units, targets, parties, returns)."""
    out = set()
    _mention(value, out)
    return out


def _mention(value, out):
    if isinstance(value, str):
        if value[:1] == "p" and INSTANCE.match(value):
            out.add(value)
        return
    if isinstance(value, dict):  # "ids" of discarded cards name cards from a hand, not units
        items = [v for k, v in value.items() if k != "ids"]
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return
    for v in items:  # each item at once when it is a string or a number (most are), else deeper
        kind = type(v)
        if kind is str:
            if v[:1] == "p" and INSTANCE.match(v):
                out.add(v)
        elif kind is not int and kind is not bool and v is not None:
            _mention(v, out)


class Narrator:
    """Words for one reader: ``instances`` maps an instance id to ``(card id, owner)``; ``public``
    lists the instance ids on view (see the module's docstring)."""

    def __init__(self, instances=None, names=None, viewer=None, pool=None, public=None):
        self.instances = instances or {}
        self.names = list(names or ("Player 1", "Player 2"))
        self.viewer = viewer
        self.pool = pool if pool is not None else load_pool()
        self.public = set(public or ())
        self.seen = set(self.public)
        self._grouped, self._groups = None, {}  # ``twins``: the units of ``seen`` by (card, owner), in order

    # ------------------------------------------------------------ words

    def you(self, p):
        return p is not None and p == self.viewer

    def who(self, p):
        """The subject: "you", "the CPU" or the seat's name."""
        if self.you(p):
            return "you"
        name = self.names[p]
        if name.startswith("The "):  # "The River Kappa" reads "the River Kappa" mid-sentence
            return "the " + name[4:]
        return f"the {name}" if name in COMMON_NAMES else name

    def whose(self, p):
        """The possessive: "your", "the CPU's", "Alice's", "Goblin Scouts'"."""
        if self.you(p):
            return "your"
        name = self.who(p)
        return f"{name}'" if name.endswith("s") else f"{name}'s"

    def land(self, land):
        """A land as the board names it: "your base", "the CPU's base", "L3"."""
        text = str(land)
        seat = BASES.get(text)
        return f"{self.whose(seat)} base" if seat is not None else text

    def verb(self, p, plain, third=None):
        """``plain`` after "you", else the third person singular."""
        return plain if self.you(p) else (third or plain + "s")

    def card_name(self, card_id):
        card = self.pool.get(card_id) if card_id else None
        if card is None:
            return card_id or "a card"
        return (card.data.get("name") or {}).get("en") or card_id

    def owner(self, uid):
        if uid in self.instances:
            return self.instances[uid][1]
        m = INSTANCE.match(uid or "")
        return int(m.group(1)) if m else None

    def card_of(self, uid, card=None):
        return card or (self.instances[uid][0] if uid in self.instances else None)

    def nth(self, uid, card=None):
        """ "second " when another unit of the same card and owner is on view, else "". """
        card = self.card_of(uid, card)
        if card is None:
            return ""
        twins = self.twins(uid, card)
        return f"{ordinal(twins.index(uid) + 1)} " if len(twins) > 1 else ""

    def twins(self, uid, card):
        """The units on view (``seen``, and ``uid`` itself) of ``card`` and ``uid``'s owner, by instance
        number. Each (card, owner) is looked up once per ``seen``, not per name; callers only read the list."""
        if self._grouped is not self.seen:
            self._groups, self._grouped = {}, self.seen
        p = self.owner(uid)
        ordered = self._groups.get((card, p))
        if ordered is None:  # (a unit not in ``instances`` has no card: never a twin)
            known = self.instances.get
            ordered = self._groups[card, p] = sorted(
                [u for u in self.seen if (k := known(u)) is not None and k[0] == card and k[1] == p],
                key=instance_number)
        if uid not in ordered and self.card_of(uid) == card:
            return sorted([*ordered, uid], key=instance_number)
        return ordered

    def bare(self, uid, card=None):
        """ "Orc" / "second Orc", to follow a possessive. """
        return f"{self.nth(uid, card)}{self.card_name(self.card_of(uid, card))}"

    def unit(self, uid, card=None):
        """ "Orc" / "the second Orc": a unit named without its owner. """
        nth = self.nth(uid, card)
        return f"the {nth}{self.card_name(self.card_of(uid, card))}" if nth else self.bare(uid, card)

    def owned(self, uid, card=None):
        """ "your Orc" / "the CPU's second Orc". """
        p = self.owner(uid)
        return f"{self.whose(p)} {self.bare(uid, card)}" if p is not None else self.unit(uid, card)

    def units(self, uids, owned=False):
        """Several units: after a possessive (``owned`` False) or each with its owner."""
        parts = [self.owned(u) if owned else self.bare(u) for u in uids]
        return join(parts) if parts else "nobody"

    def party(self, p, uids):
        return f"{self.whose(p)} {self.units(uids)}" if uids else f"nobody of {self.whose(p)} side"

    # ------------------------------------------------------------ events

    def describe(self, events, seen=None):
        """The events as sentences. ``seen``, if given, is ``public`` with the ids the events mention,
        made before (the same for every reader of the same events: ``webapp.game.play.log_sight``)."""
        self.seen = seen if seen is not None else self.public | mentioned(list(events))
        out = []
        i = 0
        while i < len(events):
            e = events[i]
            i += 1
            if e.get("type") in ("resolved", "attack"):
                hits = []
                while i < len(events) and events[i].get("type") == "damage":
                    hits.append(events[i])
                    i += 1
                out.append(self.with_damage(e, hits))
                continue
            method = getattr(self, "on_" + str(e.get("type")), None)
            text = method(e) if method else self.unknown(e)
            if text:
                out.append(self.sentence(text))
        return out

    # the words of a language (a narrator of another language overrides these and the on_* methods)
    COLON = ": "

    @staticmethod
    def sentence(text):
        return sentence(text)

    def unknown(self, e):
        return f"({e.get('type')})"

    def damage_list(self, hits):
        return join(f"{h['amount']} damage to {self.owned(h['unit'])}"
                    + (f" ({h['life']} life left)" if h["life"] > 0 else "") for h in hits)

    def with_damage(self, e, hits):
        head = self.on_resolved(e) if e["type"] == "resolved" else self.on_attack(e)
        return self.sentence(head + (self.COLON + self.damage_list(hits) if hits else ""))

    def on_leaders_chosen(self, e):
        return f"{self.who(e['player'])} {self.verb(e['player'], 'choose')} leaders"

    def on_leaders_revealed(self, e):
        sides = [f"{self.whose(int(p))} {self.units(ids)}" for p, ids in sorted(e["leaders"].items())]
        return "Leaders revealed: " + "; ".join(sides)

    def on_turn_started(self, e):
        return f"Round {e['round']}: {self.whose(e['player'])} turn"

    def on_turn_ended(self, e):
        return f"{self.whose(e['player'])} turn ends"

    def on_drew(self, e):
        n = e["count"]
        return f"{self.who(e['player'])} {self.verb(e['player'], 'draw')} {n} card{'s' if n != 1 else ''}"

    def on_summoned(self, e):
        p = e.get("owner", self.owner(e["unit"]))
        return f"{self.who(p)} {self.verb(p, 'summon')} {self.unit(e['unit'], e.get('card'))} to {self.land(e['land'])}"

    def on_marched(self, e):
        p, uids = e["player"], e["units"]
        origins = join(self.land(x) for x in sorted(set(e["from"])))
        verb = "marches" if len(uids) == 1 else "march"
        text = f"{self.whose(p)} {self.units(uids)} {verb} from {origins} to {self.land(e['to'])}"
        return text + (" and attack" + ("s" if len(uids) == 1 else "") if e.get("battle") else "")

    def on_land_taken(self, e):
        return f"{self.who(e['player'])} {self.verb(e['player'], 'take')} {self.land(e['land'])}"

    def on_battle_started(self, e):
        att = e["attacker"]
        parties = e["parties"]
        return (f"Battle at {self.land(e['land'])}: {self.party(att, parties[str(att)])} against "
                f"{self.party(1 - att, parties[str(1 - att)])}")

    def on_quick_summoned(self, e):
        p = e["player"]
        if not e["units"]:
            return f"{self.who(p)} {self.verb(p, 'summon')} nobody quickly"
        named = join(self.unit(u, c) for u, c in zip(e["units"], e.get("cards") or [None] * len(e["units"]), strict=True))
        return f"{self.who(p)} quick-{self.verb(p, 'summon')} {named} into the battle"

    def on_formation(self, e):
        return f"{self.whose(e['player'])} formation, front first: {self.units(e['order'])}"

    def on_initiative(self, e):
        rolls = e["rolls"]
        order = [self.viewer, 1 - self.viewer] if self.viewer in (0, 1) else [0, 1]

        def roll(p):
            r = rolls[str(p)]
            return f"{self.who(p)} {dice_sum(r)}"

        first = e.get("first")
        tail = ("a tie: both parties strike at once" if first is None
                else f"{self.who(first)} {self.verb(first, 'strike')} first")
        return f"Initiative: {roll(order[0])} against {roll(order[1])}; {tail}"

    def on_triggered(self, e):
        timing = TIMINGS.get(e.get("timing"), str(e.get("timing", "")).replace("_", " "))
        return f"{self.owned(e['unit'], e.get('card'))} triggers ({timing})"

    def on_declared(self, e):
        p, kind = e["player"], e["kind"]
        if kind == "attack":
            text = f"{self.who(p)} {self.verb(p, 'declare')} an attack with {self.units(e.get('units', []))}"
        elif kind == "spell":
            text = f"{self.who(p)} {self.verb(p, 'cast')} {self.card_name(e.get('card'))}"
        else:
            text = f"{self.owned(e['unit'], e.get('card'))} uses its ability"
        if e.get("targets"):
            text += f" on {self.units(e['targets'], owned=True)}"
        if e.get("responds_to") is not None:
            text += " in answer"
        if e.get("coin"):
            text += f" (coin: {e['coin']})"
        return text

    def on_passed(self, e):
        return f"{self.who(e['player'])} {self.verb(e['player'], 'let')} it through"

    def source(self, e):
        if e.get("kind") == "attack":
            return f"{self.whose(e['player'])} attack"
        if e.get("kind") == "spell":
            return self.card_name(e.get("card"))
        return f"{self.card_name(e.get('card'))}'s ability"

    def on_resolved(self, e):
        return f"{self.source(e)} resolves"

    def on_fizzled(self, e):
        return f"{self.source(e)} fizzles: {FIZZLE_REASONS.get(e.get('reason'), e.get('reason'))}"

    def on_cancelled(self, e):
        return f"{self.whose(e['player'])} {self.card_name(e.get('card'))} is cancelled"

    def on_attack(self, e):
        p = e["player"]
        lead = "At once, " if e.get("simultaneous") else ""
        many = len(e.get("units", [])) != 1
        return f"{lead}{self.whose(p)} {self.units(e.get('units', []))} attack{'' if many else 's'} with power {e['power']}"

    def on_damage(self, e):
        left = f", {e['life']} life left" if e["life"] > 0 else ""
        return f"{self.owned(e['unit'])} takes {e['amount']} damage{left}"

    def on_boosted(self, e):
        parts = [f"{signed(e[k])} {k}" for k in ("power", "life", "speed") if e.get(k)]
        return f"{self.owned(e['unit'])} gets {join(parts) if parts else 'no change'}"

    def on_negated(self, e):
        return f"{self.owned(e['unit'])} loses its abilities for this battle"

    def on_slots_granted(self, e):
        parts = [f"{n} {kind} slot{'s' if n != 1 else ''}" for kind, n in sorted(e.get("slots", {}).items())]
        return f"{self.owned(e['unit'])} gains {join(parts)}"

    def on_tribe_changed(self, e):
        tribe = e.get("tribe") or "no tribe"
        article = "an" if tribe[:1].lower() in "aeiou" else "a"
        return f"{self.owned(e['unit'])} becomes {article} {tribe}"

    def on_level_changed(self, e):
        by = e.get("by", 0)
        return (f"{self.owned(e['unit'])}'s level {'rises' if by >= 0 else 'drops'} by {abs(by)} "
                f"to {e.get('level')}")

    def on_returned(self, e):
        p = e.get("owner", self.owner(e["unit"]))
        where = f"{self.whose(p)} hand" if e.get("to") == "hand" else f"{self.whose(p)} discard pile (the hand is full)"
        return f"{self.owned(e['unit'], e.get('card'))} returns to {where}"

    def on_destroyed(self, e):
        text = f"{self.owned(e['unit'], e.get('card'))} is destroyed{DESTROY_REASONS.get(e.get('reason'), '')}"
        return text + (": a leader falls" if e.get("leader") else "")

    def on_no_attack(self, e):
        return f"{self.who(e['player'])} {self.verb(e['player'], 'go', 'goes')} on without attacking"

    def on_battle_ended(self, e):
        att = e["attacker"]
        if e.get("success"):
            return f"{self.who(att)} {self.verb(att, 'win')} the battle at {self.land(e['land'])}"
        text = f"{self.whose(att)} attack on {self.land(e['land'])} fails"
        back = [f"{self.unit(r['unit'])} to {self.land(r['land'])}" for r in e.get("returned", [])]
        return text + (f"; back go {join(back)}" if back else "")

    def on_refill(self, e):
        p = e["player"]
        return f"{self.who(p)} {self.verb(p, 'refill')} {'your' if self.you(p) else 'their'} hand: an enemy leader fell"

    def on_capacity_restored(self, e):
        return f"{self.land(e['land'])} has its full capacity again"

    def on_discarded(self, e):
        p = e["player"]
        ids = e.get("ids") or [None] * len(e.get("cards", []))
        named = join(self.card_name(c or self.card_of(i)) for i, c in zip(ids, e.get("cards", []), strict=True))
        return f"{self.who(p)} {self.verb(p, 'discard')} {named}"

    def on_march_ability(self, e):
        return f"{self.owned(e['unit'], e.get('card'))} uses its [March] ability"

    def on_judgment(self, e):
        a, b = e["lands"]
        return (f"Judgment after round 12: {self.who(0)} {self.verb(0, 'hold')} {a} land{'s' if a != 1 else ''}, "
                f"{self.who(1)} {self.verb(1, 'hold')} {b}")

    def on_resigned(self, e):
        return f"{self.who(e['player'])} {self.verb(e['player'], 'resign')}"

    def on_taken_back(self, e):
        """Not the engine's: the server's event of a take-back (webapp/game/takeback.py)."""
        p = e["player"]
        return f"{self.who(p)} {self.verb(p, 'take')} back {'your' if self.you(p) else 'their'} last move"

    def on_game_over(self, e):
        w = e.get("winner")
        why = RESULT_REASONS.get(e.get("reason"), e.get("reason") or "")
        if w is None:
            return "Game over: a draw" + (f" ({why})" if why else "")
        return f"Game over: {self.who(w)} {self.verb(w, 'win')}" + (f" ({why})" if why else "")


def join(parts):
    parts = list(parts)
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def signed(n):
    return f"+{n}" if n >= 0 else f"{MINUS}{-n}"


def sentence(text):
    """One sentence: "you"/"your" capitalized at its start (a player's name is left as it is), a full stop."""
    text = text.strip()
    if not text:
        return text
    if text.startswith(("you ", "your ", "the ")):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# ---------------------------------------------------------------- messages in plain words

#: A rule number such as R8.7 or R13.5a (and a bare chapter, R16, inside a list of them).
RULE = r"R\d{1,2}(?:\.\d{1,2}[a-z]?)?"
RULE_NUMBER = re.compile(r"\bR\d{1,2}\.\d{1,2}[a-z]?\b")
RULE_LIST = re.compile(rf"\s*[(（]\s*(?:see\s+)?{RULE}(?:\s*(?:,|、|;|and|or|–|-)\s*{RULE})*\s*[)）]")
RULE_LEAD = re.compile(rf"(?:(?<=^)|(?<=[\s(]))(?:{RULE}(?:\s*,\s*{RULE})*)\s*:\s*")
INSTANCE_ANYWHERE = re.compile(r"\bp[01]c\d+\b")


def rule_numbers(text):
    """The rule numbers a text cites, in order (for a "Why?" link or a tooltip)."""
    return list(dict.fromkeys(RULE_NUMBER.findall(text or "")))


def without_rule_numbers(text):
    """The text with its rule citations taken out: "(R8.7)", "(R5.1, R5.7)", "R8.7: ", a bare R8.7."""
    text = RULE_LIST.sub("", text or "")
    text = RULE_LEAD.sub("", text)
    text = RULE_NUMBER.sub("", text)
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"([(（])\s+", r"\1", text)
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def plain(text, name=None):
    """A message for a player: no rule numbers, and every instance id replaced by ``name(uid)``
    (a card name the reader may know) or "that card"."""
    def named(m):
        word = name(m.group(0)) if name is not None else None
        return word or "that card"
    return without_rule_numbers(INSTANCE_ANYWHERE.sub(named, text or ""))


def dice_sum(roll):
    """An initiative roll (R9.1, step 5) as a sum a player reads: "5 + 1 = 6", "5 − 1 = 4" (never "5+-1")."""
    speed = roll["speed"]
    sign = "+" if speed >= 0 else MINUS
    return f"{roll['die']} {sign} {abs(speed)} = {roll['total']}"
