"""The game log: the engine's public events (docs/engine.md, "Events") as sentences a player reads, in
the game's language.

``Narrator(instances, names, viewer, lang=...).describe(events)`` turns one action's events into
sentences for one reader. Every word goes through the gettext catalogs (translations/, the English
text as the msgid) under the explicit locale ``lang``, never the request's: a CPU's move is worded in
a background task, and each seat and each spectators' room reads its own language. The names come
from data: cards from the pool, tribes from cards/tribes.toml, elements from cards/words.toml.

The reader's own seat is "you", the other seat is called by its name ("the CPU" for the CPU). Units
are named the way a player would name them: "your Blaze Knight", "the CPU's Orc", and "your second
Goblin Raider" when two of the owner's units on view share a name; bases are "your base" and "the
CPU's base". Players never read instance ids (``p0c17``) or rule numbers.

A sentence with a subject has two msgids: one for "you" (``"you draw %(num)s card"``) and one for
the third person (``"%(who)s draws %(num)s card"``), so each language conjugates in its catalog. The
msgids begin in lower case; ``sentence`` capitalizes the narrator's own first word and ends it.

``public`` (optional) lists the instance ids on view after the action (the units on the board):
with the units named in the events themselves, they decide whether a unit needs an ordinal, which
counts only units a player can see, in the order of their ids. Only ids that appear in the events
or on the board are looked up, so the log says nothing the events and the view do not (R18.6).
"""

import contextlib
import functools

from webapp import i18n
from webapp.cards import words
from webapp.cards.text import tribes
from webapp.engine import load_pool
from webapp.game.gamelog.ids import INSTANCE, dice_sum, instance_number, mentioned, signed


def N_(text):
    """Marks a msgid for pybabel extract; translated where it is used."""
    return text


#: Event types this module puts into words; tests check it covers docs/engine.md.
EVENT_TYPES = (
    "leaders_chosen", "leaders_revealed", "turn_started", "drew", "summoned", "marched", "land_taken",
    "battle_started", "quick_summoned", "formation", "initiative", "triggered", "declared", "passed",
    "resolved", "fizzled", "cancelled", "attack", "damage", "boosted", "negated", "slots_granted",
    "tribe_changed", "level_changed", "returned", "destroyed", "no_attack", "battle_ended", "refill",
    "capacity_restored", "discarded", "march_ability", "turn_ended", "judgment", "resigned", "game_over",
)

FIZZLE_REASONS = {
    "cancelled": N_("%(source)s fizzles: it was cancelled"),
    "source_destroyed": N_("%(source)s fizzles: its source is gone"),
    "negated": N_("%(source)s fizzles: its source lost its abilities"),
    "target_gone": N_("%(source)s fizzles: its target is gone"),
    "slots_gone": N_("%(source)s fizzles: the spell slots that paid for it are gone"),
}
DESTROYED = N_("%(unit)s is destroyed")
DESTROY_REASONS = {
    "sacrifice": N_("%(unit)s is destroyed as a sacrifice"),
    "over_capacity": N_("%(unit)s is destroyed to fit the land's capacity"),
}
TIMINGS = {
    "strikes_first": N_("its party strikes first"),
    "strikes_second": N_("its party strikes second"),
    "on_destroy": N_("on destroy"),
}
RESULT_REASONS = {
    "leaders": N_("%(result)s (every enemy leader fell)"),
    "judgment": N_("%(result)s (by the round-12 judgment)"),
    "draw": None,
    "resign": N_("%(result)s (by resignation)"),
    "timeout": N_("%(result)s (on time)"),
    "disconnect": N_("%(result)s (the opponent left)"),
    "puzzle": N_("%(result)s (by the puzzle's goal)"),
    "host": N_("%(result)s (ended by the host)"),
}
COIN = {"heads": N_("heads"), "tails": N_("tails")}
STATS = {"power": N_("%(change)s power"), "life": N_("%(change)s life"), "speed": N_("%(change)s speed")}
#: The nth unit of one card and owner on view, before its name ("second Orc"), then the numbers past ten.
ORDINALS = (N_("first %(card)s"), N_("second %(card)s"), N_("third %(card)s"), N_("fourth %(card)s"),
            N_("fifth %(card)s"), N_("sixth %(card)s"), N_("seventh %(card)s"), N_("eighth %(card)s"),
            N_("ninth %(card)s"), N_("tenth %(card)s"))
ORDINAL_SUFFIX = {1: N_("%(n)sst %(card)s"), 2: N_("%(n)snd %(card)s"), 3: N_("%(n)srd %(card)s")}
ORDINAL_TH = N_("%(n)sth %(card)s")
#: Nouns the log puts after a possessive ("your turn", "the CPU's base").
TURN, SIDE, FORMATION, HAND, PILE, BASE = N_("turn"), N_("side"), N_("formation"), N_("hand"), N_("discard pile"), N_("base")
ATTACK_ON = N_("attack on %(land)s")
#: The bases' names (as ``^H([01])$`` matches them: also before a final newline) -> their seat.
BASES = {"H0": 0, "H1": 1, "H0\n": 0, "H1\n": 1}
#: Seat names that read as a common noun and so take "the": "the CPU draws 2 cards".
COMMON_NAMES = ("CPU",)
#: The narrator's own first words, capitalized at the start of a sentence (a player's name is left as it is).
CAPITALIZED = ("you ", "your ", "the ")


def join(say, parts):
    """Names as a list in a sentence: "a, b and c" (「a、b、c」); ``say(msgid, **params)`` words it in its
    language (``Narrator._``, hintwords' ``Words._``)."""
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    text = parts[0]
    for part in parts[1:-1]:
        text = say("%(first)s, %(next)s", first=text, next=part)
    return say("%(first)s and %(last)s", first=text, last=parts[-1])


class Words(dict):
    """msgid -> its text in one language, looked up in the catalog once (the log words every action for
    every reader; the msgids are this module's constants, so it stays small)."""

    def __init__(self, catalog):
        super().__init__()
        self.catalog = catalog
        self.stops = None

    def __missing__(self, msgid):
        text = self[msgid] = self.catalog.gettext(msgid)
        return text


@functools.cache
def translations(lang):
    """The compiled catalog of ``lang`` (webapp/i18n.py ``catalog``). The app builds the catalogs when it
    starts; a log worded before any app (a tool, a test) builds them first."""
    i18n.ensure_built()
    return i18n.catalog(lang if lang in i18n.LANGS else i18n.DEFAULT)


@functools.cache
def words_of(lang):
    return Words(translations(lang))


#: ``naming``'s memory: the units' ordinals and bare names over one ``seen`` (made once per state and
#: events, ``webapp.game.seatstate.log_sight``), shared by every reader of the log of those events.
#: {id(seen): (seen, instances, pool, class, ordinals, {lang: names})}; an entry holds its ``seen``, so the
#: id is nobody else's while it lives; beyond ``NAMING_SIZE`` entries the oldest goes.
NAMING_SIZE = 16
_NAMING = {}


def naming(narrator, seen):
    """({(uid, card): ordinal}, {(uid, card): bare name}) of the units over ``seen`` for ``narrator``'s
    language: shared by every narrator of the same ``seen``, instances, pool and class (neither depends
    on the reader: "you" and the owner's name are added around a bare name, ``possess``)."""
    kept = _NAMING.get(id(seen))
    if kept is None or kept[0] is not seen or kept[1] is not narrator.instances or kept[2] is not narrator.pool \
            or kept[3] is not type(narrator):
        kept = (seen, narrator.instances, narrator.pool, type(narrator), {}, {})
        _NAMING[id(seen)] = kept
        while len(_NAMING) > NAMING_SIZE:
            with contextlib.suppress(RuntimeError, StopIteration, KeyError):  # another thread dropped it first
                _NAMING.pop(next(iter(_NAMING)))
    return kept[4], kept[5].setdefault(narrator.lang, {})


class Narrator:
    """Words for one reader in ``lang``: ``instances`` maps an instance id to ``(card id, owner)``;
    ``public`` lists the instance ids on view (see the module's docstring)."""

    def __init__(self, instances=None, names=None, viewer=None, pool=None, public=None, lang="en"):
        self.instances = instances or {}
        self.names = list(names or ("Player 1", "Player 2"))
        self.viewer = viewer
        self.pool = pool if pool is not None else load_pool()
        self.public = set(public or ())
        self.seen = set(self.public)
        self._grouped, self._groups = None, {}  # ``twins``: the units of ``seen`` by (card, owner), in order
        self._nths, self._bares = {}, {}  # ``nth`` and ``bare`` of (uid, card) over ``seen`` (``describe``)
        self.lang = lang if lang in i18n.LANGS else i18n.DEFAULT
        self._words, self._ngettext = words_of(self.lang), translations(self.lang).ngettext

    # ------------------------------------------------------------ the catalog

    def _(self, msgid, **params):
        text = self._words[msgid]
        return text % params if params else text

    def ngettext(self, singular, plural, n, **params):
        return self._ngettext(singular, plural, n) % dict(params, num=n)

    def join(self, parts):
        """ "a, b and c" (「a、b、c」)."""
        return join(self._, parts)

    def sentence(self, text):
        """One sentence: the narrator's own first word capitalized ("you", "your", "the"; a player's name
        is left as it is), and the language's full stop unless it ends with a mark of its own."""
        text = text.strip()
        if not text:
            return text
        if text.startswith(CAPITALIZED):
            text = text[0].upper() + text[1:]
        words = self._words
        if words.stops is None:  # the marks that end a sentence already (no full stop is added after them)
            words.stops = tuple(self._(".!?"))
        return text if text.endswith(words.stops) else self._("%(sentence)s.", sentence=text)

    # ------------------------------------------------------------ words

    def you(self, p):
        return p is not None and p == self.viewer

    def name(self, p):
        """A seat in the third person: "the CPU", "the River Kappa" (mid-sentence), "Alice"."""
        name = self.names[p]
        if name.startswith("The "):
            # Translators: a name's own leading "The" mid-sentence; a language without articles keeps it.
            return self._("the %(rest)s", rest=name[4:])
        # Translators: a seat's name that reads as a common noun ("the CPU").
        return self._("the %(name)s", name=name) if name in COMMON_NAMES else name

    def who(self, p):
        """The subject: "you", "the CPU" or the seat's name."""
        return self._("you") if self.you(p) else self.name(p)

    def possess(self, p, thing):
        """``thing`` of seat ``p``: "your turn", "the CPU's turn", "Goblin Scouts' base"."""
        if self.you(p):
            return self._("your %(thing)s", thing=thing)
        owner = self.name(p)
        if owner.endswith("s"):
            return self._("%(owner)s' %(thing)s", owner=owner, thing=thing)
        return self._("%(owner)s's %(thing)s", owner=owner, thing=thing)

    def says(self, p, yours, theirs, **params):
        """The sentence for "you" (``yours``) or for the third person (``theirs``, with ``who``)."""
        return self._(yours, **params) if self.you(p) else self._(theirs, who=self.name(p), **params)

    def land(self, land):
        """A land as the board names it: "your base", "the CPU's base", "L3"."""
        text = str(land)
        seat = BASES.get(text)
        return self.possess(seat, self._(BASE)) if seat is not None else text

    def card_name(self, card_id):
        card = self.pool.get(card_id) if card_id else None
        if card is None:
            return card_id or self._("a card")
        names = card.data.get("name") or {}
        return names.get(self.lang) or names.get("en") or card_id

    def element_name(self, kind):
        """An element (or "wild") as a word inside a sentence: "fire", 火."""
        name = words.element_name(kind, self.lang)
        return name.lower() if name is not None else kind

    def tribe_name(self, tribe):
        """A tribe in the reader's language (cards/tribes.toml)."""
        entry = tribes().get(tribe)
        return entry.get(self.lang, tribe) if entry else tribe

    def owner(self, uid):
        if uid in self.instances:
            return self.instances[uid][1]
        m = INSTANCE.match(uid or "")
        return int(m.group(1)) if m else None

    def card_of(self, uid, card=None):
        return card or (self.instances[uid][0] if uid in self.instances else None)

    def nth(self, uid, card=None):
        """The unit's place among the units on view of its card and owner (1, 2, …), or None when it is
        the only one."""
        key = (uid, card)
        if key in self._nths:
            return self._nths[key]
        card = self.card_of(uid, card)
        if card is None:
            return None
        twins = self.twins(uid, card)
        n = self._nths[key] = twins.index(uid) + 1 if len(twins) > 1 else None
        return n

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

    def ordinal(self, n, name):
        if 1 <= n <= len(ORDINALS):
            return self._(ORDINALS[n - 1], card=name)
        suffix = ORDINAL_TH if 10 <= n % 100 <= 20 else ORDINAL_SUFFIX.get(n % 10, ORDINAL_TH)
        return self._(suffix, n=n, card=name)

    def bare(self, uid, card=None):
        """ "Orc" / "second Orc", to follow a possessive. """
        key = (uid, card)
        text = self._bares.get(key)
        if text is None:
            name = self.card_name(self.card_of(uid, card))
            n = self.nth(uid, card)
            text = self._bares[key] = self.ordinal(n, name) if n else name
        return text

    def unit(self, uid, card=None):
        """ "Orc" / "the second Orc": a unit named without its owner. """
        bare = self.bare(uid, card)
        # Translators: a unit told apart from its twins by an ordinal ("the second Orc").
        return self._("the %(unit)s", unit=bare) if self.nth(uid, card) else bare

    def owned(self, uid, card=None):
        """ "your Orc" / "the CPU's second Orc". """
        p = self.owner(uid)
        return self.possess(p, self.bare(uid, card)) if p is not None else self.unit(uid, card)

    def units(self, uids, owned=False):
        """Several units: after a possessive (``owned`` False) or each with its owner."""
        parts = [self.owned(u) if owned else self.bare(u) for u in uids]
        return self.join(parts) if parts else self._("nobody")

    def party(self, p, uids):
        if uids:
            return self.possess(p, self.units(uids))
        return self._("nobody of %(side)s", side=self.possess(p, self._(SIDE)))

    # ------------------------------------------------------------ events

    def describe(self, events, seen=None):
        """The events as sentences. ``seen``, if given, is ``public`` with the ids the events mention,
        made before (the same for every reader of the same events: ``webapp.game.seatstate.log_sight``)."""
        if seen is not None:  # the same for every reader of these events: their units named once per language
            self.seen = seen
            self._nths, self._bares = naming(self, seen)
        else:
            self.seen = self.public | mentioned(list(events))
            self._nths, self._bares = {}, {}
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

    def unknown(self, e):
        return self._("(%(event)s)", event=e.get("type"))

    def damage_list(self, hits):
        return self.join(
            self._("%(amount)s damage to %(unit)s (%(life)s life left)", amount=h["amount"],
                   unit=self.owned(h["unit"]), life=h["life"]) if h["life"] > 0 else
            self._("%(amount)s damage to %(unit)s", amount=h["amount"], unit=self.owned(h["unit"]))
            for h in hits)

    def with_damage(self, e, hits):
        head = self.on_resolved(e) if e["type"] == "resolved" else self.on_attack(e)
        if hits:
            head = self._("%(action)s: %(damage)s", action=head, damage=self.damage_list(hits))
        return self.sentence(head)

    def on_leaders_chosen(self, e):
        return self.says(e["player"], N_("you choose leaders"), N_("%(who)s chooses leaders"))

    def on_leaders_revealed(self, e):
        sides = [self.possess(int(p), self.units(ids)) for p, ids in sorted(e["leaders"].items())]
        text = sides[0] if sides else ""
        for side in sides[1:]:
            text = self._("%(first)s; %(second)s", first=text, second=side)
        return self._("Leaders revealed: %(sides)s", sides=text)

    def on_turn_started(self, e):
        return self._("Round %(round)s: %(turn)s", round=e["round"], turn=self.possess(e["player"], self._(TURN)))

    def on_turn_ended(self, e):
        return self._("%(turn)s ends", turn=self.possess(e["player"], self._(TURN)))

    def on_drew(self, e):
        p, n = e["player"], e["count"]
        if self.you(p):
            return self.ngettext("you draw %(num)s card", "you draw %(num)s cards", n)
        return self.ngettext("%(who)s draws %(num)s card", "%(who)s draws %(num)s cards", n, who=self.name(p))

    def on_summoned(self, e):
        p = e.get("owner", self.owner(e["unit"]))
        return self.says(p, N_("you summon %(unit)s to %(land)s"), N_("%(who)s summons %(unit)s to %(land)s"),
                         unit=self.unit(e["unit"], e.get("card")), land=self.land(e["land"]))

    def on_marched(self, e):
        p, uids = e["player"], e["units"]
        params = {"units": self.possess(p, self.units(uids)),
                  "origins": self.join(self.land(x) for x in sorted(set(e["from"]))), "land": self.land(e["to"])}
        if e.get("battle"):
            return self.ngettext("%(units)s marches from %(origins)s to %(land)s and attacks",
                                 "%(units)s march from %(origins)s to %(land)s and attack", len(uids), **params)
        return self.ngettext("%(units)s marches from %(origins)s to %(land)s",
                             "%(units)s march from %(origins)s to %(land)s", len(uids), **params)

    def on_land_taken(self, e):
        return self.says(e["player"], N_("you take %(land)s"), N_("%(who)s takes %(land)s"), land=self.land(e["land"]))

    def on_battle_started(self, e):
        att = e["attacker"]
        parties = e["parties"]
        return self._("Battle at %(land)s: %(attackers)s against %(defenders)s", land=self.land(e["land"]),
                      attackers=self.party(att, parties[str(att)]), defenders=self.party(1 - att, parties[str(1 - att)]))

    def on_quick_summoned(self, e):
        p = e["player"]
        if not e["units"]:
            return self.says(p, N_("you summon nobody quickly"), N_("%(who)s summons nobody quickly"))
        named = self.join(self.unit(u, c) for u, c in zip(e["units"], e.get("cards") or [None] * len(e["units"]),
                                                          strict=False))
        return self.says(p, N_("you quick-summon %(units)s into the battle"), N_("%(who)s quick-summons %(units)s into the battle"),
                         units=named)

    def on_formation(self, e):
        return self._("%(formation)s, front first: %(units)s",
                      formation=self.possess(e["player"], self._(FORMATION)), units=self.units(e["order"]))

    def on_initiative(self, e):
        rolls = e["rolls"]
        order = [self.viewer, 1 - self.viewer] if self.viewer in (0, 1) else [0, 1]

        def roll(p):
            return self._("%(who)s %(roll)s", who=self.who(p), roll=dice_sum(rolls[str(p)]))

        first = e.get("first")
        result = (self._("a tie: both parties strike at once") if first is None
                  else self.says(first, N_("you strike first"), N_("%(who)s strikes first")))
        return self._("Initiative: %(first)s against %(second)s; %(result)s", first=roll(order[0]),
                      second=roll(order[1]), result=result)

    def on_triggered(self, e):
        timing = e.get("timing")
        timing = self._(TIMINGS[timing]) if timing in TIMINGS else str(e.get("timing", "")).replace("_", " ")
        return self._("%(unit)s triggers (%(timing)s)", unit=self.owned(e["unit"], e.get("card")), timing=timing)

    def on_declared(self, e):
        p, kind = e["player"], e["kind"]
        if kind == "attack":
            text = self.says(p, N_("you declare an attack with %(units)s"), N_("%(who)s declares an attack with %(units)s"),
                             units=self.units(e.get("units", [])))
        elif kind == "spell":
            text = self.says(p, N_("you cast %(card)s"), N_("%(who)s casts %(card)s"), card=self.card_name(e.get("card")))
        else:
            text = self._("%(unit)s uses its ability", unit=self.owned(e["unit"], e.get("card")))
        notes = []
        if e.get("targets"):
            notes.append(self._("on %(targets)s", targets=self.units(e["targets"], owned=True)))
        if e.get("responds_to") is not None:
            notes.append(self._("in answer"))
        if e.get("coin"):
            coin = e["coin"]
            notes.append(self._("(coin: %(coin)s)", coin=self._(COIN[coin]) if coin in COIN else coin))
        if not notes:
            return text
        joined = notes[0]
        for note in notes[1:]:
            # Translators: two notes on a declaration (its targets, "in answer", the coin).
            joined = self._("%(note)s %(more)s", note=joined, more=note)
        # Translators: a declaration and its notes.
        return self._("%(declaration)s %(notes)s", declaration=text, notes=joined)

    def on_passed(self, e):
        return self.says(e["player"], N_("you let it through"), N_("%(who)s lets it through"))

    def source(self, e):
        if e.get("kind") == "attack":
            return self.possess(e["player"], self._("attack"))
        if e.get("kind") == "spell":
            return self.card_name(e.get("card"))
        return self._("%(card)s's ability", card=self.card_name(e.get("card")))

    def on_resolved(self, e):
        return self._("%(source)s resolves", source=self.source(e))

    def on_fizzled(self, e):
        reason = e.get("reason")
        if reason in FIZZLE_REASONS:
            return self._(FIZZLE_REASONS[reason], source=self.source(e))
        return self._("%(source)s fizzles: %(reason)s", source=self.source(e), reason=str(reason))

    def on_cancelled(self, e):
        return self._("%(card)s is cancelled", card=self.possess(e["player"], self.card_name(e.get("card"))))

    def on_attack(self, e):
        uids = e.get("units", [])
        text = self.ngettext("%(units)s attacks with power %(power)s", "%(units)s attack with power %(power)s",
                             len(uids), units=self.possess(e["player"], self.units(uids)), power=e["power"])
        return self._("At once, %(attack)s", attack=text) if e.get("simultaneous") else text

    def on_damage(self, e):
        unit = self.owned(e["unit"])
        if e["life"] > 0:
            return self._("%(unit)s takes %(amount)s damage, %(life)s life left", unit=unit, amount=e["amount"],
                          life=e["life"])
        return self._("%(unit)s takes %(amount)s damage", unit=unit, amount=e["amount"])

    def on_boosted(self, e):
        parts = [self._(STATS[k], change=signed(e[k])) for k in ("power", "life", "speed") if e.get(k)]
        if not parts:
            return self._("%(unit)s gets no change", unit=self.owned(e["unit"]))
        return self._("%(unit)s gets %(changes)s", unit=self.owned(e["unit"]), changes=self.join(parts))

    def on_negated(self, e):
        return self._("%(unit)s loses its abilities for this battle", unit=self.owned(e["unit"]))

    def on_slots_granted(self, e):
        parts = [self.ngettext("%(num)s %(element)s slot", "%(num)s %(element)s slots", n, element=self.element_name(kind))
                 for kind, n in sorted(e.get("slots", {}).items())]
        return self._("%(unit)s gains %(slots)s", unit=self.owned(e["unit"]), slots=self.join(parts))

    def on_tribe_changed(self, e):
        unit = self.owned(e["unit"])
        tribe = e.get("tribe")
        if not tribe:
            return self._("%(unit)s becomes a no tribe", unit=unit)
        if tribe[:1].lower() in "aeiou":
            return self._("%(unit)s becomes an %(tribe)s", unit=unit, tribe=self.tribe_name(tribe))
        return self._("%(unit)s becomes a %(tribe)s", unit=unit, tribe=self.tribe_name(tribe))

    def on_level_changed(self, e):
        by = e.get("by", 0)
        params = {"unit": self.owned(e["unit"]), "by": abs(by), "level": e.get("level")}
        if by >= 0:
            return self._("%(unit)s's level rises by %(by)s to %(level)s", **params)
        return self._("%(unit)s's level drops by %(by)s to %(level)s", **params)

    def on_returned(self, e):
        p = e.get("owner", self.owner(e["unit"]))
        unit = self.owned(e["unit"], e.get("card"))
        if e.get("to") == "hand":
            return self._("%(unit)s returns to %(hand)s", unit=unit, hand=self.possess(p, self._(HAND)))
        return self._("%(unit)s returns to %(pile)s (the hand is full)", unit=unit,
                      pile=self.possess(p, self._(PILE)))

    def on_destroyed(self, e):
        unit = self.owned(e["unit"], e.get("card"))
        text = self._(DESTROY_REASONS.get(e.get("reason"), DESTROYED), unit=unit)
        return self._("%(destroyed)s: a leader falls", destroyed=text) if e.get("leader") else text

    def on_no_attack(self, e):
        return self.says(e["player"], N_("you go on without attacking"), N_("%(who)s goes on without attacking"))

    def on_battle_ended(self, e):
        att = e["attacker"]
        land = self.land(e["land"])
        if e.get("success"):
            return self.says(att, N_("you win the battle at %(land)s"), N_("%(who)s wins the battle at %(land)s"), land=land)
        text = self._("%(attack)s fails", attack=self.possess(att, self._(ATTACK_ON, land=land)))
        back = [self._("%(unit)s to %(land)s", unit=self.unit(r["unit"]), land=self.land(r["land"]))
                for r in e.get("returned", [])]
        return self._("%(failure)s; back go %(returns)s", failure=text, returns=self.join(back)) if back else text

    def on_refill(self, e):
        return self.says(e["player"], N_("you refill your hand: an enemy leader fell"),
                         N_("%(who)s refills their hand: an enemy leader fell"))

    def on_capacity_restored(self, e):
        return self._("%(land)s has its full capacity again", land=self.land(e["land"]))

    def on_discarded(self, e):
        ids = e.get("ids") or [None] * len(e.get("cards", []))
        named = self.join(self.card_name(c or self.card_of(i)) for i, c in zip(ids, e.get("cards", []), strict=False))
        return self.says(e["player"], N_("you discard %(cards)s"), N_("%(who)s discards %(cards)s"), cards=named)

    def on_march_ability(self, e):
        return self._("%(unit)s uses its [March] ability", unit=self.owned(e["unit"], e.get("card")))

    def on_judgment(self, e):
        a, b = e["lands"]
        if self.you(0):
            first = self.ngettext("you hold %(num)s land", "you hold %(num)s lands", a)
        else:
            first = self.ngettext("%(who)s holds %(num)s land", "%(who)s holds %(num)s lands", a, who=self.name(0))
        second = self.says(1, N_("you hold %(num)s"), N_("%(who)s holds %(num)s"), num=b)
        return self._("Judgment after round 12: %(first)s, %(second)s", first=first, second=second)

    def on_resigned(self, e):
        return self.says(e["player"], N_("you resign"), N_("%(who)s resigns"))

    def on_taken_back(self, e):
        """Not the engine's: the server's event of a take-back (webapp/game/takeback.py)."""
        return self.says(e["player"], N_("you take back your last move"), N_("%(who)s takes back their last move"))

    def on_game_over(self, e):
        w = e.get("winner")
        reason = e.get("reason")
        head = (self._("Game over: a draw") if w is None
                else self.says(w, N_("Game over: you win"), N_("Game over: %(who)s wins")))
        if reason in RESULT_REASONS:
            return self._(RESULT_REASONS[reason], result=head) if RESULT_REASONS[reason] else head
        return self._("%(result)s (%(reason)s)", result=head, reason=reason) if reason else head
