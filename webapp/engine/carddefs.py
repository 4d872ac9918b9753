"""Card definitions: the schema of cards/, its validation, and the effect vocabulary (docs/cards.md).

Card data is checked once, here, when it is loaded; the rules code trusts what it gets.
"""

import json
import os
import tomllib

from .errors import CardDataError

ELEMENTS = ("fire", "water", "earth", "wind", "light", "dark")
SLOT_KINDS = ELEMENTS + ("wild",)
RARITIES = ("C", "U", "R", "SR")
RARITY_ORDER = {r: i for i, r in enumerate(RARITIES)}
KEYWORDS = ("haste", "double_march", "far_march", "spellproof")
MONSTER_TIMINGS = ("battle", "normal", "counter", "on_destroy", "march", "strikes_first", "strikes_second")
SPELL_TIMINGS = ("normal", "counter")
DECLARED = ("normal", "counter")
SELECTORS = ("self", "chosen", "enemy_front", "enemy_rear", "ally_front", "ally_rear",
             "allies", "other_allies", "enemies", "all")
RESPOND_TO = ("any", "spell", "attack", "ability")

# op -> (allowed keys besides "do", timings where it may appear)
EFFECTS = {
    "damage": ({"to", "amount"}, {"normal", "counter", "on_destroy", "strikes_first", "strikes_second"}),
    "boost": ({"to", "power", "life", "speed"}, {"battle", "normal", "counter", "on_destroy",
                                                 "strikes_first", "strikes_second"}),
    "grant_slots": ({"to", "slots"}, {"battle", "normal", "counter"}),
    "negate": ({"to"}, {"normal", "counter", "strikes_first", "strikes_second"}),
    "set_tribe": ({"to", "tribe"}, {"normal", "counter"}),
    "change_level": ({"to", "by"}, {"normal", "counter"}),
    "return_to_hand": ({"to"}, {"normal", "counter"}),
    "destroy": ({"to"}, {"normal", "counter", "on_destroy", "strikes_first", "strikes_second"}),
    "cancel_spell": (set(), {"counter"}),
    "spell_lock": (set(), {"battle"}),
    "allow_quick_summon": ({"filter"}, {"battle"}),
    "draw": ({"count"}, {"normal", "counter", "on_destroy", "march"}),
    "summon": ({"from", "filter", "to"}, {"march"}),
}
SUMMON_FROM = ("hand", "discard")
SUMMON_TO = ("here", "adjacent")
FILTER_KEYS = {"tribe", "element", "max_level", "min_level", "leader", "card", "kind"}


class Filter:
    """Conditions on a unit or card: tribe, element, level range, leader, card id."""

    __slots__ = ("tribes", "elements", "max_level", "min_level", "leader", "card", "kind")

    def __init__(self, tribes=None, elements=None, max_level=None, min_level=None, leader=None,
                 card=None, kind=None):
        self.tribes, self.elements = tribes, elements
        self.max_level, self.min_level = max_level, min_level
        self.leader, self.card, self.kind = leader, card, kind


ANY = Filter()


class Selector:
    """A named group of units (R9.4 front/rear, parties, the chosen target) narrowed by a filter."""

    __slots__ = ("name", "filter")

    def __init__(self, name, filter=ANY):
        self.name, self.filter = name, filter


class Amount:
    """A number computed in battle: plus + times × (units matching `count`, or fallen units)."""

    __slots__ = ("count", "fallen", "fallen_filter", "times", "plus")

    def __init__(self, count=None, fallen=None, fallen_filter=ANY, times=1, plus=0):
        self.count, self.fallen, self.fallen_filter = count, fallen, fallen_filter
        self.times, self.plus = times, plus


class Condition:
    """When a [Battle] ability is on: counts of units or fallen units, or the side's role."""

    __slots__ = ("amount", "at_least", "at_most", "role")

    def __init__(self, amount=None, at_least=None, at_most=None, role=None):
        self.amount, self.at_least, self.at_most, self.role = amount, at_least, at_most, role


class Effect:
    """One verb of the effect vocabulary with its parameters."""

    __slots__ = ("op", "to", "amount", "power", "life", "speed", "slots", "tribe", "by",
                 "filter", "source", "dest", "count")

    def __init__(self, op, **kw):
        self.op = op
        for name in self.__slots__[1:]:
            setattr(self, name, kw.get(name))


class Ability:
    """A monster ability or a spell's effect: timing, optional target, cost and effects."""

    __slots__ = ("timing", "target", "sacrifice", "unrespondable", "effects", "choose_one",
                 "coin", "condition", "respond_to", "index")

    def __init__(self, timing, target=None, sacrifice=None, unrespondable=False, effects=(),
                 choose_one=None, coin=None, condition=None, respond_to="any", index=0):
        self.timing, self.target, self.sacrifice = timing, target, sacrifice
        self.unrespondable, self.effects, self.choose_one = unrespondable, effects, choose_one
        self.coin, self.condition, self.respond_to, self.index = coin, condition, respond_to, index

    def branches(self):
        """Every effect list the ability may run (one, the choose-one options, or heads/tails)."""
        if self.choose_one is not None:
            return self.choose_one
        if self.coin is not None:
            return self.coin
        return (self.effects,)

    def all_effects(self):
        return [e for branch in self.branches() for e in branch]


class Target:
    """What a declaration may choose (R11.9): a unit of a side, narrowed by a filter."""

    __slots__ = ("side", "filter")

    def __init__(self, side, filter):
        self.side, self.filter = side, filter


class CardDef:
    """One card of the pool, validated; `data` is its normalized JSON form."""

    __slots__ = ("id", "kind", "level", "element", "tribe", "power", "speed", "life", "slots",
                 "quick", "keywords", "abilities", "rarity", "set", "mana", "spell", "data",
                 "haste", "double_march", "far_march", "spellproof", "declared", "battle",
                 "on_destroy", "march", "strike_triggers", "rarity_rank")

    def __repr__(self):
        return f"<CardDef {self.id!r}>"


# ---------------------------------------------------------------- validation

class _Ctx:
    def __init__(self, source, card_id):
        self.source, self.card_id = source, card_id

    def fail(self, field, problem):
        raise CardDataError(f"{self.source}: card {self.card_id!r}: field {field!r}: {problem}")

    def keys(self, data, allowed, field, required=()):
        if not isinstance(data, dict):
            self.fail(field, f"expected a table, got {type(data).__name__}")
        for k in data:
            if k not in allowed:
                self.fail(f"{field}.{k}" if field else k, "unknown key")
        for k in required:
            if k not in data:
                self.fail(f"{field}.{k}" if field else k, "missing")

    def int(self, value, field, lo=None, hi=None):
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(field, f"expected an integer, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(field, f"{value} is outside {lo}..{hi}")
        return value

    def choice(self, value, options, field):
        if value not in options:
            self.fail(field, f"{value!r} is not one of {', '.join(map(str, options))}")
        return value

    def text(self, value, field):
        self.keys(value, {"en", "ja"}, field, required=("en", "ja"))
        for lang in ("en", "ja"):
            if not isinstance(value[lang], str) or not value[lang].strip():
                self.fail(f"{field}.{lang}", "expected non-empty text")
        return value


def _names(ctx, value, field):
    if isinstance(value, str):
        return frozenset((value,))
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return frozenset(value)
    ctx.fail(field, f"expected a name or a list of names, got {value!r}")


def _filter(ctx, data, field):
    if data is None:
        return ANY
    ctx.keys(data, FILTER_KEYS, field)
    f = Filter()
    if "tribe" in data:
        f.tribes = _names(ctx, data["tribe"], f"{field}.tribe")
    if "element" in data:
        f.elements = _names(ctx, data["element"], f"{field}.element")
        for e in f.elements:
            ctx.choice(e, ELEMENTS, f"{field}.element")
    if "max_level" in data:
        f.max_level = ctx.int(data["max_level"], f"{field}.max_level", 0, 9)
    if "min_level" in data:
        f.min_level = ctx.int(data["min_level"], f"{field}.min_level", 0, 9)
    if "leader" in data:
        if not isinstance(data["leader"], bool):
            ctx.fail(f"{field}.leader", "expected true or false")
        f.leader = data["leader"]
    if "card" in data:
        if not isinstance(data["card"], str):
            ctx.fail(f"{field}.card", "expected a card id")
        f.card = data["card"]
    if "kind" in data:
        f.kind = ctx.choice(data["kind"], ("monster", "spell"), f"{field}.kind")
    return f


def _selector(ctx, data, field, has_target):
    if isinstance(data, str):
        name, filt = data, ANY
    else:
        ctx.keys(data, {"select", "filter"}, field, required=("select",))
        name, filt = data["select"], _filter(ctx, data.get("filter"), f"{field}.filter")
    ctx.choice(name, SELECTORS, field)
    if name == "chosen" and not has_target:
        ctx.fail(field, "'chosen' needs a 'target' on the ability")
    return Selector(name, filt)


def _amount(ctx, data, field, has_target):
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    ctx.keys(data, {"count", "fallen", "filter", "times", "plus"}, field)
    if ("count" in data) == ("fallen" in data):
        ctx.fail(field, "give exactly one of 'count' or 'fallen'")
    a = Amount(times=ctx.int(data.get("times", 1), f"{field}.times", -9, 9),
               plus=ctx.int(data.get("plus", 0), f"{field}.plus", -20, 20))
    if "count" in data:
        if "filter" in data:
            ctx.fail(f"{field}.filter", "put the filter inside 'count'")
        a.count = _selector(ctx, data["count"], f"{field}.count", has_target)
    else:
        a.fallen = ctx.choice(data["fallen"], ("allies", "enemies", "all"), f"{field}.fallen")
        a.fallen_filter = _filter(ctx, data.get("filter"), f"{field}.filter")
    return a


def _condition(ctx, data, field):
    ctx.keys(data, {"count", "fallen", "filter", "at_least", "at_most", "role"}, field)
    c = Condition()
    if "role" in data:
        c.role = ctx.choice(data["role"], ("attacker", "defender"), f"{field}.role")
    if "count" in data or "fallen" in data:
        sub = {k: data[k] for k in ("count", "fallen", "filter") if k in data}
        c.amount = _amount(ctx, sub, field, False)
        if "at_least" in data:
            c.at_least = ctx.int(data["at_least"], f"{field}.at_least", 0, 20)
        if "at_most" in data:
            c.at_most = ctx.int(data["at_most"], f"{field}.at_most", 0, 20)
        if c.at_least is None and c.at_most is None:
            ctx.fail(field, "a count needs 'at_least' or 'at_most'")
    elif c.role is None:
        ctx.fail(field, "give 'role', or 'count'/'fallen' with 'at_least'/'at_most'")
    return c


def _effect(ctx, data, field, timing, has_target, is_spell):
    ctx.keys(data, {"do"} | set().union(*(k for k, _ in EFFECTS.values())), field, required=("do",))
    op = ctx.choice(data["do"], tuple(EFFECTS), f"{field}.do")
    allowed, timings = EFFECTS[op]
    for k in data:
        if k != "do" and k not in allowed:
            ctx.fail(f"{field}.{k}", f"not a parameter of {op!r}")
    if timing not in timings:
        ctx.fail(f"{field}.do", f"{op!r} cannot be used by a {timing!r} "
                 f"{'spell' if is_spell else 'ability'}")
    e = Effect(op)
    if "to" in allowed and op != "summon":
        if "to" not in data:
            ctx.fail(f"{field}.to", "missing")
        e.to = _selector(ctx, data["to"], f"{field}.to", has_target)
        if timing == "battle" and e.to.name not in ("self", "allies", "other_allies", "enemies", "all"):
            ctx.fail(f"{field}.to", "a [Battle] effect applies to self or whole parties")
    if op == "damage":
        e.amount = _amount(ctx, data.get("amount", None) if "amount" in data
                           else ctx.fail(f"{field}.amount", "missing"), f"{field}.amount", has_target)
    elif op == "boost":
        if not any(k in data for k in ("power", "life", "speed")):
            ctx.fail(field, "a boost needs power, life or speed")
        for stat in ("power", "life", "speed"):
            setattr(e, stat, _amount(ctx, data[stat], f"{field}.{stat}", has_target) if stat in data else 0)
    elif op == "grant_slots":
        slots = data.get("slots")
        ctx.keys(slots, set(SLOT_KINDS), f"{field}.slots")
        e.slots = {k: ctx.int(v, f"{field}.slots.{k}", 1, 6) for k, v in slots.items()}
        if not e.slots:
            ctx.fail(f"{field}.slots", "grants nothing")
    elif op == "set_tribe":
        if not isinstance(data.get("tribe"), str):
            ctx.fail(f"{field}.tribe", "expected a tribe name")
        e.tribe = data["tribe"]
    elif op == "change_level":
        e.by = ctx.int(data.get("by"), f"{field}.by", -4, 4)
    elif op == "allow_quick_summon":
        e.filter = _filter(ctx, data.get("filter"), f"{field}.filter")
    elif op == "draw":
        e.count = ctx.int(data.get("count", 1), f"{field}.count", 1, 6)
    elif op == "summon":
        e.source = ctx.choice(data.get("from", "hand"), SUMMON_FROM, f"{field}.from")
        e.dest = ctx.choice(data.get("to", "here"), SUMMON_TO, f"{field}.to")
        e.filter = _filter(ctx, data.get("filter"), f"{field}.filter")
    return e


def _effects(ctx, data, field, timing, has_target, is_spell):
    if not isinstance(data, list) or not data:
        ctx.fail(field, "expected a non-empty list of effects")
    return tuple(_effect(ctx, d, f"{field}[{i}]", timing, has_target, is_spell) for i, d in enumerate(data))


ABILITY_KEYS = {"timing", "target", "cost", "unrespondable", "effects", "choose_one", "coin",
                "condition", "respond_to"}


def _ability(ctx, data, field, is_spell, index=0):
    allowed = ABILITY_KEYS if not is_spell else ABILITY_KEYS - {"cost", "condition"}
    ctx.keys(data, allowed, field, required=("timing",))
    timing = ctx.choice(data["timing"], SPELL_TIMINGS if is_spell else MONSTER_TIMINGS, f"{field}.timing")
    has_target = "target" in data
    a = Ability(timing, index=index)
    if has_target:
        if timing not in DECLARED:
            ctx.fail(f"{field}.target", "only declared abilities and spells choose targets")
        t = data["target"]
        ctx.keys(t, {"side", "filter"}, f"{field}.target", required=("side",))
        a.target = Target(ctx.choice(t["side"], ("enemy", "ally", "any"), f"{field}.target.side"),
                          _filter(ctx, t.get("filter"), f"{field}.target.filter"))
    bodies = [k for k in ("effects", "choose_one", "coin") if k in data]
    if len(bodies) != 1:
        ctx.fail(field, "give exactly one of 'effects', 'choose_one' or 'coin'")
    if "effects" in data:
        a.effects = _effects(ctx, data["effects"], f"{field}.effects", timing, has_target, is_spell)
    elif "choose_one" in data:
        opts = data["choose_one"]
        if timing not in DECLARED or not isinstance(opts, list) or len(opts) < 2:
            ctx.fail(f"{field}.choose_one", "a declared ability with a list of 2+ effect lists")
        a.choose_one = tuple(_effects(ctx, o, f"{field}.choose_one[{i}]", timing, has_target, is_spell)
                             for i, o in enumerate(opts))
    else:
        coin = data["coin"]
        if timing not in DECLARED:
            ctx.fail(f"{field}.coin", "only declared abilities and spells flip coins")
        ctx.keys(coin, {"heads", "tails"}, f"{field}.coin", required=("heads", "tails"))
        a.coin = (_effects(ctx, coin["heads"], f"{field}.coin.heads", timing, has_target, is_spell),
                  _effects(ctx, coin["tails"], f"{field}.coin.tails", timing, has_target, is_spell))
    if "cost" in data:
        if timing not in DECLARED:
            ctx.fail(f"{field}.cost", "only declared abilities have costs")
        ctx.keys(data["cost"], {"sacrifice"}, f"{field}.cost", required=("sacrifice",))
        a.sacrifice = _filter(ctx, data["cost"]["sacrifice"], f"{field}.cost.sacrifice")
    if "unrespondable" in data:
        if not isinstance(data["unrespondable"], bool) or timing not in DECLARED:
            ctx.fail(f"{field}.unrespondable", "true/false, on declared abilities only")
        a.unrespondable = data["unrespondable"]
    if "condition" in data:
        if timing != "battle":
            ctx.fail(f"{field}.condition", "only [Battle] abilities have conditions")
        a.condition = _condition(ctx, data["condition"], f"{field}.condition")
    if "respond_to" in data:
        if timing != "counter":
            ctx.fail(f"{field}.respond_to", "only [Counter] abilities and spells say what they answer")
        a.respond_to = ctx.choice(data["respond_to"], RESPOND_TO, f"{field}.respond_to")
    ops = {e.op for e in a.all_effects()}
    if "cancel_spell" in ops and a.respond_to != "spell":
        ctx.fail(f"{field}.respond_to", "an ability that cancels a spell must respond to 'spell'")
    if "return_to_hand" in ops and a.target is not None:
        f = a.target.filter
        a.target.filter = Filter(f.tribes, f.elements, f.max_level, f.min_level, False, f.card, f.kind)  # R13.7
    if timing == "on_destroy" and any(e.to is not None and e.to.name == "chosen" for e in a.all_effects()):
        ctx.fail(field, "[On destroy] abilities do not choose targets")
    return a


MONSTER_KEYS = {"id", "kind", "name", "level", "element", "tribe", "power", "speed", "life", "slots",
                "quick", "keywords", "abilities", "rarity", "set", "text", "flavor"}
SPELL_KEYS = {"id", "kind", "name", "element", "mana", "timing", "target", "effects", "choose_one",
              "coin", "respond_to", "unrespondable", "rarity", "set", "text", "flavor"}
DEFAULTS = {"speed": 0, "slots": {}, "quick": False, "keywords": [], "abilities": [], "set": 1}


def parse_card(data, source="<data>", card_id=None):
    """Validate one card record (with defaults filled) and return its CardDef."""
    card_id = data.get("id", card_id) if isinstance(data, dict) else card_id
    ctx = _Ctx(source, card_id)
    if not isinstance(data, dict):
        ctx.fail("", "a card is a table of fields")
    if not isinstance(card_id, str) or not card_id or not all(c.isalnum() or c == "-" for c in card_id):
        ctx.fail("id", "expected an id of letters, digits and '-'")
    kind = ctx.choice(data.get("kind"), ("monster", "spell"), "kind")
    data = dict(data, id=card_id)
    if kind == "monster":
        for k, v in DEFAULTS.items():
            data.setdefault(k, v)
    else:
        data.setdefault("set", 1)
    ctx.keys(data, MONSTER_KEYS if kind == "monster" else SPELL_KEYS, "")
    c = CardDef()
    c.id, c.kind = card_id, kind
    if "name" in data:
        ctx.text(data["name"], "name")
    for f in ("text", "flavor"):
        if f in data:
            ctx.text(data[f], f)
    c.element = ctx.choice(data.get("element"), ELEMENTS, "element")
    c.rarity = ctx.choice(data.get("rarity"), RARITIES, "rarity")
    c.rarity_rank = RARITY_ORDER[c.rarity]
    c.set = ctx.int(data["set"], "set", 1, 2)
    if kind == "monster":
        c.level = ctx.int(data.get("level"), "level", 1, 6)
        if not isinstance(data.get("tribe"), str) or not data["tribe"]:
            ctx.fail("tribe", "expected the tribe's English name")
        c.tribe = data["tribe"]
        c.power = ctx.int(data.get("power"), "power", 0, 20)
        c.speed = ctx.int(data["speed"], "speed", -9, 9)
        c.life = ctx.int(data.get("life"), "life", 1, 30)
        ctx.keys(data["slots"], set(SLOT_KINDS), "slots")
        c.slots = {k: ctx.int(v, f"slots.{k}", 0, 6) for k, v in sorted(data["slots"].items()) if v}
        data["slots"] = dict(c.slots)
        if not isinstance(data["quick"], bool):
            ctx.fail("quick", "expected true or false")
        c.quick = data["quick"]
        kws = data["keywords"]
        if not isinstance(kws, list):
            ctx.fail("keywords", "expected a list")
        for k in kws:
            ctx.choice(k, KEYWORDS, "keywords")
        if len(set(kws)) != len(kws):
            ctx.fail("keywords", "repeated keyword")
        c.keywords = tuple(kws)
        if not isinstance(data["abilities"], list):
            ctx.fail("abilities", "expected a list")
        c.abilities = tuple(_ability(ctx, a, f"abilities[{i}]", False, i) for i, a in enumerate(data["abilities"]))
        c.declared = [a for a in c.abilities if a.timing in DECLARED]
        if len(c.declared) > 1:
            ctx.fail("abilities", "at most one declared ([Normal] or [Counter]) ability per card (R13.4)")
        c.declared = c.declared[0] if c.declared else None
        c.battle = tuple(a for a in c.abilities if a.timing == "battle")
        c.on_destroy = tuple(a for a in c.abilities if a.timing == "on_destroy")
        c.march = tuple(a for a in c.abilities if a.timing == "march")
        if len(c.march) > 1:
            ctx.fail("abilities", "at most one [March] ability per card")
        c.march = c.march[0] if c.march else None
        c.strike_triggers = tuple(a for a in c.abilities if a.timing in ("strikes_first", "strikes_second"))
        c.mana, c.spell = None, None
    else:
        c.level, c.tribe, c.power, c.speed, c.life = None, None, None, None, None
        c.slots, c.quick, c.keywords, c.abilities = {}, False, (), ()
        c.declared, c.battle, c.on_destroy, c.march, c.strike_triggers = None, (), (), None, ()
        c.mana = ctx.int(data.get("mana"), "mana", 0, 6)
        body = {k: data[k] for k in ("timing", "target", "effects", "choose_one", "coin", "respond_to",
                                      "unrespondable") if k in data}
        if "timing" not in body:
            ctx.fail("timing", "missing")
        c.spell = _ability(ctx, body, "", True)
    for kw in KEYWORDS:
        setattr(c, kw, kw in c.keywords)
    c.data = data
    return c


def load_pool(path=None):
    """Read every card file under `path` (default: the repository's cards/pool) into {id: CardDef}."""
    if path is None:
        return _default_pool()
    return _read_pool(path)


_DEFAULT = []


def _default_pool():
    if not _DEFAULT:
        _DEFAULT.append(_read_pool(default_cards_dir()))
    return _DEFAULT[0]


def default_cards_dir():
    """The pool folder: $BRIGADE_CARDS or cards/pool beside the package."""
    return os.environ.get("BRIGADE_CARDS") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "cards", "pool")


def read_card_file(path):
    """The list of raw card records in one TOML or JSON file."""
    try:
        if path.endswith(".toml"):
            with open(path, "rb") as fh:
                doc = tomllib.load(fh)
        else:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise CardDataError(f"{path}: not valid {'TOML' if path.endswith('.toml') else 'JSON'}: {exc}") from None
    if not isinstance(doc, dict) or set(doc) - {"card"} or not isinstance(doc.get("card", []), list):
        raise CardDataError(f"{path}: a card file holds only a list of [[card]] records")
    return doc.get("card", [])


def _read_pool(path):
    if not os.path.isdir(path):
        raise CardDataError(f"{path}: no such card folder")
    pool = {}
    for root, _dirs, files in sorted(os.walk(path)):
        for name in sorted(files):
            if not name.endswith((".toml", ".json")):
                continue
            full = os.path.join(root, name)
            for i, raw in enumerate(read_card_file(full)):
                card = parse_card(raw, full, raw.get("id", f"#{i}") if isinstance(raw, dict) else f"#{i}")
                if "name" not in card.data:
                    raise CardDataError(f"{full}: card {card.id!r}: field 'name': missing (a pool card "
                                        f"has names in English and Japanese)")
                if card.id in pool:
                    raise CardDataError(f"{full}: card {card.id!r}: field 'id': defined twice")
                pool[card.id] = card
    if not pool:
        raise CardDataError(f"{path}: no cards found")
    return pool
